"""Our timing figure (not in the paper): DORM training time against queries and documents
per query on seeded synthetic data (Sec. 4.3, 6.5 argue the assignment stays cheap)."""
from __future__ import annotations

import time
from dataclasses import dataclass

from ...data.synthetic import make_queries
from ...evidence import Evidence
from ...rankers import DORM
from ...run.timing import fit_exponent, single_thread_blas
from ...spec.params import StudyParams, study


@dataclass(frozen=True)
class ComplexityParams(StudyParams):
    """DORM at ``C`` on synthetic data of ``features`` features: over ``queries`` queries (of
    ``base_docs`` documents) and over ``docs`` documents per query (``base_queries`` queries),
    the fastest of ``repeats`` fits."""
    queries: list[int]
    docs: list[int]
    base_queries: int
    base_docs: int
    features: int
    repeats: int
    C: float


@study(ComplexityParams)
def task_complexity(ctx) -> dict:
    """DORM training time against the number of queries and documents per query (synthetic,
    seeded), and the shares of time in the assignment kernel and in the QP.  Beside each time
    exponent, the exponent of the counted operations of the same fit (the assignment
    kernel's augmenting paths, :attr:`repro.rankers.structsvm.StructResult.n_augmented`;
    deterministic, the same on every machine)."""
    p = ComplexityParams.of(ctx)
    rows = {"queries": [], "docs": []}
    with single_thread_blas():
        for axis, values in (("queries", p.queries), ("docs", p.docs)):
            for v in values:
                nq = int(v) if axis == "queries" else int(p.base_queries)
                nd = int(v) if axis == "docs" else int(p.base_docs)
                d = make_queries(nq, nd, int(p.features), n_levels=3, seed=ctx.seed + nq + nd)
                best = None
                for _ in range(int(p.repeats)):
                    t = time.perf_counter()
                    m = DORM(C=float(p.C)).fit_data(d)
                    sec = time.perf_counter() - t
                    if best is None or sec < best[0]:
                        best = (sec, m.result_)
                sec, r = best
                rows[axis].append({axis: int(v), "seconds": sec, "n_iter": r.n_iter,
                                   "kernel_share": 100.0 * r.seconds_kernel / max(r.seconds, 1e-12),
                                   "qp_share": 100.0 * r.qp_share,
                                   "oracle_calls": r.n_oracle,
                                   "augmentations": r.n_augmented})
                ctx.log(f"complexity {axis}={v}: {sec:.3f} s, {r.n_iter} passes")
    ev = Evidence(rows=rows)
    for axis in rows:
        x = [r[axis] for r in rows[axis]]
        ev.value("DORM", f"exponent in {axis}", fit_exponent(x, [r["seconds"] for r in rows[axis]]))
        ev.value("DORM", f"exponent in {axis} of the counted LAP augmentations",
                 fit_exponent(x, [r["augmentations"] for r in rows[axis]]),
                 deterministic=True, replicates=1)
        ev.value("DORM", f"% time in assignment kernel (largest {axis})",
                 rows[axis][-1]["kernel_share"])
        ev.value("DORM", f"% time in QP (largest {axis})", rows[axis][-1]["qp_share"])
    return ev.output()
