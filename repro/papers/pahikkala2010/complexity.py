"""pahikkala2010's complexity study: the work of greedy RankRLS against m, n and k on
synthetic data (the O(kmn) claim of §3), decided by counted operations, the single-threaded
training time with an interval from interleaved rounds beside."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...data.synthetic import make_documents
from ...evidence.record import record
from ...rankers.lqo import greedy_path
from ...run.timing import exponent_interval, fit_exponent, interleaved_sweep, single_thread_blas
from ...spec.params import StudyParams, study

#: the count that decides: the kernel's multiply-adds over the m documents
COUNT = "multiply-adds"
#: a count exponent's description: one deterministic value (the same on every machine)
COUNTED = {"deterministic": True, "replicates": 1}


def _steps(x, values):
    """``(k − 1, v(k) − v(1))`` for k > 1: the k steps without the O(mn) set-up (None where
    the sweep has no k = 1 baseline or a value is missing)."""
    if 1 not in x or values[x.index(1)] is None:
        return None
    base = values[x.index(1)]
    return [(k - 1, v - base) for k, v in zip(x, values) if k > 1 and v is not None]


@dataclass(frozen=True)
class ComplexityParams(StudyParams):
    """The sweeps over ``m`` (documents), ``n`` (features) and ``k`` (selected features), each
    from the point ``base`` ({"m", "n", "k"}; the k sweep with ``k_sweep`` over it), in
    ``repeats`` interleaved rounds of at least ``min_seconds`` per timing."""
    base: dict[str, int]
    k_sweep: dict[str, int]
    m: list[int]
    n: list[int]
    k: list[int]
    repeats: int
    min_seconds: float


@study(ComplexityParams)
def task_complexity(ctx) -> dict:
    """Greedy RankRLS on synthetic data (50 documents per query) against m, n and k, each
    axis from ``base``; single-threaded.

    ``"exponent in m|n|k"`` (compared with the paper's O(kmn)) is fitted on the kernel's
    counted multiply-adds (:attr:`repro.rankers.lqo.GreedyPath.operations`; deterministic).
    O(kmn) = an O(mn) set-up (centring, the caches) + k steps of O(mn): the claim is about the
    steps, so the exponent in k is fitted to c(k) − c(1) against k − 1 (the sweep starts at
    k = 1).  Beside them, ``"time exponent in m|n|k"``: the same fits on the training time,
    once per interleaved round (:func:`repro.run.timing.interleaved_sweep`, ``repeats``
    rounds), their mean with the 95 % t interval over the rounds (``ci95``), and the slope of
    the total time in k.  Decide nothing."""
    p = ComplexityParams.of(ctx)
    out, recs = {}, []
    with single_thread_blas():
        for axis in ("m", "n", "k"):
            base = {**p.base, **(p.k_sweep if axis == "k" else {})}
            points = [{**base, axis: int(v)} for v in getattr(p, axis)]
            ops = {}

            def prepare(prob, ops=ops):
                docs, cfg = prob

                def call():
                    path = greedy_path(docs.X, docs.y, docs.query_ptr, 1.0, cfg["k"])
                    ops[cfg[axis]] = path.operations[COUNT]
                    return path.selected
                return call

            rows = interleaved_sweep(
                points, lambda cfg: (make_documents(cfg["m"], cfg["n"], seed=ctx.seed), cfg),
                {"ours": prepare}, rounds=p.repeats, min_time=p.min_seconds,
                log=lambda msg, axis=axis: ctx.log(f"complexity {axis}: {msg}"))
            out[axis] = [{axis: r["point"][axis], "config": r["point"],
                          "docs": max(1, r["point"]["m"] // 50) * 50,   # make_documents
                          "ours": float(np.median(r["seconds"]["ours"])),
                          "rounds": r["seconds"]["ours"],
                          "operations": ops[r["point"][axis]]} for r in rows]
            x = [r["docs"] if axis == "m" else r[axis] for r in out[axis]]
            c = [r["operations"] for r in out[axis]]
            t = [r["rounds"] for r in out[axis]]
            if axis != "k":
                recs.append(record("GRankRLS (ours)", f"exponent in {axis}", fit_exponent(x, c),
                                   **COUNTED))
                te = exponent_interval(x, t)
                recs.append(record("GRankRLS (ours)", f"time exponent in {axis}",
                                   te["exponent"], ci95=te["ci"]))
                continue
            steps = _steps(x, c)
            recs.append(record("GRankRLS (ours)", "exponent in k",
                               fit_exponent(*zip(*steps)) if steps else float("nan"),
                               why="" if steps else "the k sweep has no k = 1 baseline",
                               **COUNTED))
            n_rounds = min(len(s) for s in t)
            step_t = [_steps(x, [s[r] for s in t]) for r in range(n_rounds)]
            if all(step_t):
                te = exponent_interval([a for a, _ in step_t[0]],
                                       [[st[i][1] for st in step_t]
                                        for i in range(len(step_t[0]))])
                recs.append(record("GRankRLS (ours)", "time exponent in k", te["exponent"],
                                   ci95=te["ci"]))
            big = [i for i, k in enumerate(x) if k > 1]
            te = exponent_interval([x[i] for i in big], [t[i] for i in big])
            recs.append(record("GRankRLS (ours)", "time exponent in k (total time, with the "
                               "O(mn) set-up)", te["exponent"], ci95=te["ci"]))
    return {"records": recs, "timings": out}
