"""Figure 7 and Table 2's "% in QP" (Sec. 6.5): the measured times of the web-search study,
in timing runs of their own — one per (dataset, official fold), executed alone (``timing``).

The paper measures "the time for training plus cross validation": here each timed method is
fitted on the fold's full training split over the grid of C and chosen on ``vali`` by every
criterion — the call the value run makes (:func:`.web.select_method`) — and nothing else of
the fold (no smaller training sizes, no test measures, none of the other methods).  The methods
are timed alternately, ``repeats`` rounds with the order rotating each round, and each keeps
its median (:func:`repro.run.timing.time_alternating`: drift and caching hit all alike); "% in
QP" is the median over the rounds of the share of the chosen model's training time spent in
the QP.  The selections are deterministic, so the chosen models are the value run's (Table 2's
counts, reported by the value run, belong to the same models)."""
from __future__ import annotations

import statistics
from dataclasses import dataclass

from ...data.load import load_letor_fold
from ...evidence import Evidence
from ...run.timing import single_thread_blas, time_alternating
from ...spec.params import StudyParams, study
from .names import BLOCK, SECONDS
from .web import LETOR_VERSION, select_method, table2_stats, web_rankers


@dataclass(frozen=True)
class RuntimeParams(StudyParams):
    """The timed ``methods`` over the ``grid`` of C, timed alternately in ``repeats`` rounds."""
    grid: list[float]
    methods: list[str]
    repeats: int


@study(RuntimeParams)
def task_runtime(ctx) -> dict:
    """Training seconds (grid of C) of ``methods`` and the % of the chosen models'
    time in the QP, on one web-search fold."""
    p = RuntimeParams.of(ctx)
    splits = load_letor_fold(ctx.dataset, int(ctx.fold), ctx.data_dir)
    train, vali = splits["train"], splits["vali"]
    version = LETOR_VERSION[ctx.like]
    grid = [float(c) for c in p.grid]
    rankers = web_rankers(ctx.like, train.n_features)
    methods = [m for m in p.methods if m in rankers]
    qp: dict[tuple[str, str], list[float]] = {}

    def timed(method):
        def call():
            sels = select_method(rankers, method, train, vali, grid, version)
            for label, crit, st in table2_stats(method, sels):
                qp.setdefault((label, crit), []).append(st["qp_share"])
        return call

    with single_thread_blas():
        seconds = time_alternating({m: timed(m) for m in methods}, repeats=int(p.repeats),
                                   warmup=0)
    ev = Evidence(repeats=int(p.repeats), n_train=train.n_queries)
    fold = int(ctx.fold)
    for m in methods:
        ev.value(m, SECONDS, seconds[m], fold)
    for (label, crit), shares in qp.items():
        ev.value(label, f"% in QP ({BLOCK[crit]})", statistics.median(shares), fold)
    ctx.log(f"{ctx.dataset} fold {fold}: " + ", ".join(f"{m} {s:.2f} s"
                                                        for m, s in seconds.items()))
    return ev.output()
