"""Throughput of the literal Fig. 2 swap sampler and its rejection-free equivalent on the
training queries of one fold (a timing run; our figure)."""
from __future__ import annotations

from dataclasses import dataclass

from ...data.load import load_letor_fold
from ...data.queries import QueryData
from ...evidence import Evidence
from ...rankers import swap_sampler as ss
from ...run.timing import best_time, single_thread_blas
from ...spec.params import StudyParams, study
from .names import THRESHOLD


def _query_sizes(data: QueryData) -> list[tuple[int, int]]:
    out = []
    for q in range(data.n_queries):
        g = data.y[data.query(q)] >= THRESHOLD
        if 0 < g.sum() < g.size:
            out.append((int(g.sum()), int((~g).sum())))
    return out


@dataclass(frozen=True)
class ThroughputParams(StudyParams):
    """Walks of Figure 3's restarts (``restart_skew``) and ``walk_length`` moves:
    ``literal_states`` and ``rf_states`` states per walk of each sampler; the fastest of
    ``repeats`` calls lasting ``min_seconds`` together."""
    restart_skew: float
    walk_length: int
    literal_states: int
    rf_states: int
    repeats: int
    min_seconds: float


@study(ThroughputParams)
def task_throughput(ctx) -> dict:
    """Per training query of one fold: the literal and the rejection-free samplers on walks
    of the experiments' shape (restarts as Figure 3's, ``walk_length`` moves), without
    recording the states: attempts and accepted moves per second; single-threaded."""
    p = ThroughputParams.of(ctx)
    train = load_letor_fold(ctx.dataset, int(ctx.fold), ctx.data_dir)["train"]
    rows = []
    with single_thread_blas():
        for i, (npos, nneg) in enumerate(_query_sizes(train)):
            orders, probs = ss.restart_distribution(npos, nneg, skew=p.restart_skew)
            run = {}
            for method, states in (("literal", p.literal_states),
                                   ("rejection_free", p.rf_states)):
                w = {}

                def call(method=method, states=states):
                    w["w"] = ss.walks(npos, nneg, orders, probs, states, p.walk_length,
                                      ctx.seed + i, method, record=False)
                t = best_time(call, p.repeats, min_total=p.min_seconds)
                run[method] = {"seconds": t, "moves": w["w"].moves, "attempts": w["w"].attempts}
            rows.append({"n_pos": npos, "n_neg": nneg, **run})
    tot = {m: sum(r[m]["seconds"] for r in rows) for m in ("literal", "rejection_free")}
    moves = {m: sum(r[m]["moves"] for r in rows) for m in ("literal", "rejection_free")}
    att = sum(r["literal"]["attempts"] for r in rows)
    rate = {m: moves[m] / tot[m] for m in tot}
    ev = Evidence(queries=rows)
    for method, metric, value in (
            ("literal (Fig. 2)", "attempts per second", att / tot["literal"]),
            ("literal (Fig. 2)", "accepted moves per second", rate["literal"]),
            ("rejection-free", "accepted moves per second", rate["rejection_free"]),
            ("rejection-free / literal", "ratio of accepted moves per second",
             rate["rejection_free"] / rate["literal"]),
            ("literal (Fig. 2)", "attempts per accepted move", att / moves["literal"])):
        ev.value(method, metric, value)
    return ev.output()
