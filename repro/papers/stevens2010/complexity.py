"""stevens2010 ``complexity`` (our figure): time of one coordinate-descent sweep against the
number of instances (hence of non-zeros) and of layers, on seeded synthetic sparse data —
the thesis's claim that an update costs time linear in the number of instances, not of pairs,
for any number of layers (§2 line 172, §3 line 263, §9)."""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ...experiment import record
from ...rankers.domination import DominationProblem
from ...timing import fit_exponent, scaling_sweep, single_thread_blas


def synthetic_problem(n: int, d: int, nnz_per_row: int, layers: int = 2,
                      positive_fraction: float = 0.02, seed: int = 0):
    """``(X, levels)``: ``n`` sparse rows with ``nnz_per_row`` non-zeros (uniform columns,
    values in (0, 1)); labels from a hidden linear score plus noise: the top
    ``positive_fraction`` of the instances are positive, split by score into ``layers − 1``
    layers of equal size above the negatives (layer 0)."""
    rng = np.random.default_rng(seed)
    cols = np.concatenate([np.sort(rng.choice(d, nnz_per_row, replace=False))
                           for _ in range(n)]).astype(np.int32)
    indptr = np.arange(n + 1, dtype=np.int64) * nnz_per_row
    X = sp.csr_matrix((rng.random(n * nnz_per_row), cols, indptr), shape=(n, d))
    score = X @ rng.normal(size=d) + 0.5 * rng.normal(size=n)
    order = np.argsort(-score, kind="stable")
    n_pos = max(layers - 1, int(round(positive_fraction * n)))
    levels = np.zeros(n)
    top = order[:n_pos]
    levels[top] = (layers - 1) - np.arange(n_pos) * (layers - 1) // n_pos
    return X, levels


def sweep_call(problem: DominationProblem, lam: float = 1.0, reg: str = "l2"):
    """One full sweep over every feature from the problem's current state (ℓ2², so every
    update is non-zero and touches its column)."""
    coords = np.arange(problem.n_features, dtype=np.int64)
    return lambda: problem.steps(coords, lam, reg)


def task_complexity(ctx) -> dict:
    p = ctx.params
    out, recs = {}, []
    with single_thread_blas():
        def make(pt):
            X, lev = synthetic_problem(pt["n"], p["features"], p["nnz_per_row"], pt["layers"],
                                       p["positive_fraction"], seed=ctx.seed)
            prob = DominationProblem(X, lev)
            return prob
        for axis, points in (("n", [{"n": int(n), "layers": 2} for n in p["instances"]]),
                             ("layers", [{"n": int(p["layers_n"]), "layers": int(k)}
                                         for k in p["layers"]])):
            rows = scaling_sweep(points, make, {"ours": sweep_call},
                                 repeats=p["repeats"], min_total=p["min_seconds"],
                                 log=lambda m: ctx.log(f"complexity {axis}: {m}"))
            out[axis] = [{**r["point"], "nnz": r["point"]["n"] * p["nnz_per_row"],
                          "seconds": r["seconds"]["ours"]} for r in rows]
        t = out["n"]
        recs.append(record("DR (ours)", "exponent of sweep time in instances (nnz)",
                           fit_exponent([r["nnz"] for r in t], [r["seconds"] for r in t]),
                           range=f"{t[0]['nnz']}–{t[-1]['nnz']} non-zeros"))
        k = out["layers"]
        recs.append(record("DR (ours)", f"sweep time, {k[-1]['layers']} layers / 2 layers",
                           k[-1]["seconds"] / k[0]["seconds"]))
    return {"records": recs, "timings": out}
