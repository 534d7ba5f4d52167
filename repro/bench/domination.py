"""Benchmark group ``domination``: one coordinate-descent sweep of the domination-loss kernel
(Stevens 2010, Alg. 2/4 with the cached margins, Z and μ of Alg. 6) against the same sweep in
NumPy recomputing the margins at every update (its peer, here); the empirical exponent of the
sweep time in the number of non-zeros.

A NumPy update recomputes all margins, O(nnz); ours touches the rows of one column, O(nnz/d
+ m) with m dominating instances: the ratio grows with the number of features d (500 in the
synthetic case; OHSUMED's 45 dense features leave it small)."""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.special import expit, logsumexp

from ..data.load import load_letor
from ..data.synthetic import domination_problem
from ..errors import DataCorrupt, DataMissing
from ..rankers.domination import DominationProblem, check_lambda, relevance_rank
from ..run.timing import best_time, fit_exponent
from .common import case, interleaved


def numpy_sweep(X, levels, w, lam: float, reg: str = "l2", margin=None, coords=None):
    """One sweep of single-coordinate updates (one group, layers = the distinct ``levels``)
    in NumPy, recomputing the margins M = Xw − s from scratch at every update: O(nnz) per
    update, O(d·nnz) per sweep.  Same steps as the kernel (the quadratic bound β_r = m B_r,
    ℓ1/ℓ2² rules of §5); returns the new weights."""
    lam = check_lambda(lam)
    X = sp.csc_matrix(X) if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    n, d = X.shape
    layer = relevance_rank(np.asarray(levels, dtype=np.float64), np.zeros(n, dtype=np.int64))
    K = int(layer.max()) + 1
    s = np.zeros(n) if margin is None else np.asarray(margin, dtype=np.float64)
    m = int((layer > 0).sum())
    sq = X.multiply(X) if sp.issparse(X) else X * X
    beta = m * np.asarray(sq.max(axis=0).todense() if sp.issparse(X) else sq.max(axis=0)).ravel()
    w = np.array(w, dtype=np.float64)
    for r in (range(d) if coords is None else coords):
        M = np.asarray(X @ w).ravel() - s                   # the margins, recomputed
        xr = X[:, [r]].toarray().ravel() if sp.issparse(X) else X[:, r]
        g = 0.0
        for k in range(1, K):
            low, pos = layer < k, layer == k
            L = logsumexp(M[low])
            nu = np.exp(M[low] - L) @ xr[low]
            sig = expit(L - M[pos])
            g += nu * sig.sum() - xr[pos] @ sig
        b = beta[r]
        if reg == "l2":
            delta = (-g - 2 * lam * w[r]) / (b + 2 * lam)
        elif b == 0:
            delta = -w[r] if lam > 0 else 0.0
        else:
            u = b * w[r] - g
            delta = -w[r] if lam >= abs(u) else (-(g + lam) / b if u > 0 else -(g - lam) / b)
        w[r] += delta
    return w


def _pair(X, levels, lam):
    """Ours (the kernel's sweep, continuing from its state) and the NumPy peer (continuing
    from its own weights), after checking that one sweep from w = 0 agrees."""
    prob = DominationProblem(X, levels)
    coords = np.arange(prob.n_features, dtype=np.int64)
    prob.reset()
    prob.steps(coords, lam, "l2")
    ref = numpy_sweep(X, levels, np.zeros(prob.n_features), lam)
    err = float(np.max(np.abs(prob.w - ref)) / max(1e-300, np.max(np.abs(ref))))
    state = {"w": ref}

    def peer():
        state["w"] = numpy_sweep(X, levels, state["w"], lam)
    return {"ours": lambda: prob.steps(coords, lam, "l2"),
            "NumPy (margins recomputed at every update)": peer}, err


def bench(data_dir, quick: bool) -> list[dict]:
    """One sweep on synthetic sparse data (20,000 instances, 500 features, 20 non-zeros each,
    2 % positives, 2 layers) and on OHSUMED Fold1 train (dense, 3 layers, pooled), ours
    against the NumPy peer; the exponent of our sweep time in the non-zeros over a 16× range."""
    repeats = 3 if quick else 7
    n = 5000 if quick else 20000
    X, lev = domination_problem(n, 500, 20, 2, 0.02, seed=20100)
    fns, err = _pair(X, lev, 1.0)
    rows = [case("one sweep, synthetic sparse", {"instances": n, "features": 500,
                                                 "nnz": X.nnz, "positives": "2 %",
                                                 "layers": 2, "reg": "ℓ2²", "λ": 1.0},
                 interleaved(fns, repeats=repeats),
                 max_relative_difference_of_w=err)]
    sizes = [2500, 5000, 10000] + ([] if quick else [20000, 40000])
    times = []
    for size in sizes:
        Xs, ls = domination_problem(size, 500, 20, 2, 0.02, seed=size)
        prob = DominationProblem(Xs, ls)
        coords = np.arange(500, dtype=np.int64)
        times.append(best_time(lambda: prob.steps(coords, 1.0, "l2"), repeats,
                               min_total=0.1 if quick else 0.5))
    nnz = [s * 20 for s in sizes]
    rows[0].update(exponent_nnz=round(fit_exponent(nnz, times), 3),
                   exponent_note=f"our sweep, fastest of ≥ {repeats} calls per size; non-zeros "
                                 f"{nnz[0]:,}–{nnz[-1]:,} ({nnz[-1] // nnz[0]}×), 500 "
                                 f"features, 2 % positives",
                   times_nnz={k: round(t, 6) for k, t in zip(nnz, times)})
    try:
        train = load_letor("OHSUMED", 1, "train", data_dir)
    except (DataMissing, DataCorrupt, OSError):
        return rows
    fns, err = _pair(train.X, train.y, 10.0)
    rows.append(case("one sweep, OHSUMED Fold1 train (pooled, 3 layers, dense)",
                     {"instances": train.n_docs, "features": train.n_features, "reg": "ℓ2²",
                      "λ": 10.0}, interleaved(fns, repeats=repeats),
                     max_relative_difference_of_w=err))
    return rows
