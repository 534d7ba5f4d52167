"""stevens2010 ``complexity`` (our figure): time of one coordinate-descent sweep against the
number of instances (hence of non-zeros) and of layers, on seeded synthetic sparse data —
the thesis's claim that an update costs time linear in the number of instances, not of pairs,
for any number of layers (§2 line 172, §3 line 263, §9)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...data.synthetic import domination_problem
from ...evidence import Evidence
from ...rankers.domination import DominationProblem
from ...run.timing import fit_exponent, scaling_sweep, single_thread_blas
from ...spec.params import StudyParams, study


METHOD = "DR (ours)"


def sweep_call(problem: DominationProblem, lam: float = 1.0, reg: str = "l2"):
    """One full sweep over every feature from the problem's current state (ℓ2², so every
    update is non-zero and touches its column)."""
    coords = np.arange(problem.n_features, dtype=np.int64)
    return lambda: problem.steps(coords, lam, reg)


def sweep_visits(problem: DominationProblem, lam: float = 1.0, reg: str = "l2") -> int:
    """The stored values of X one sweep (as :func:`sweep_call`) reads, counted by the kernel
    (each column for its gradient and again for its non-zero update): deterministic."""
    visits = np.zeros(1, dtype=np.int64)
    problem.steps(np.arange(problem.n_features, dtype=np.int64), lam, reg, visits=visits)
    return int(visits[0])


@dataclass(frozen=True)
class ComplexityParams(StudyParams):
    """Seeded problems of ``features`` features, ``nnz_per_row`` non-zeros per instance and a
    ``positive_fraction`` of positives: the sweep over ``instances`` (2 layers) and over
    ``layers`` (``layers_n`` instances); the fastest of ``repeats`` calls lasting
    ``min_seconds`` together."""
    features: int
    nnz_per_row: int
    positive_fraction: float
    instances: list[int]
    layers: list[int]
    layers_n: int
    repeats: int
    min_seconds: float


@study(ComplexityParams)
def task_complexity(ctx) -> dict:
    """Time of one sweep (:func:`sweep_call`) against instances and layers; beside the time
    exponent, the exponent of the kernel's counted non-zero visits of a sweep (the first
    sweep of a fresh problem, :func:`sweep_visits`; the same on every machine)."""
    p = ComplexityParams.of(ctx)
    out = {}
    visits = {}
    with single_thread_blas():
        def make(pt):
            X, lev = domination_problem(pt["n"], p.features, p.nnz_per_row, pt["layers"],
                                        p.positive_fraction, seed=ctx.seed)
            prob = DominationProblem(X, lev)
            visits[(pt["n"], pt["layers"])] = sweep_visits(DominationProblem(X, lev))
            return prob
        for axis, points in (("n", [{"n": int(n), "layers": 2} for n in p.instances]),
                             ("layers", [{"n": int(p.layers_n), "layers": int(k)}
                                         for k in p.layers])):
            rows = scaling_sweep(points, make, {"ours": sweep_call},
                                 repeats=p.repeats, min_total=p.min_seconds,
                                 log=lambda m: ctx.log(f"complexity {axis}: {m}"))
            out[axis] = [{**r["point"], "nnz": r["point"]["n"] * p.nnz_per_row,
                          "seconds": r["seconds"]["ours"],
                          "visits": visits[(r["point"]["n"], r["point"]["layers"])]}
                         for r in rows]
    ev = Evidence(timings=out)
    t = out["n"]
    ev.value(METHOD, "exponent of sweep time in instances (nnz)",
             fit_exponent([r["nnz"] for r in t], [r["seconds"] for r in t]),
             range=f"{t[0]['nnz']}–{t[-1]['nnz']} non-zeros")
    ev.value(METHOD, "exponent of counted non-zero visits per sweep in instances (nnz)",
             fit_exponent([r["nnz"] for r in t], [r["visits"] for r in t]),
             range=f"{t[0]['nnz']}–{t[-1]['nnz']} non-zeros", deterministic=True, replicates=1)
    k = out["layers"]
    ev.value(METHOD, f"sweep time, {k[-1]['layers']} layers / 2 layers",
             k[-1]["seconds"] / k[0]["seconds"])
    ev.value(METHOD, f"counted non-zero visits per sweep, {k[-1]['layers']} layers / 2 layers",
             k[-1]["visits"] / k[0]["visits"], deterministic=True, replicates=1)
    return ev.output()
