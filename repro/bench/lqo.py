"""Benchmark group ``lqo``: the greedy RankRLS kernel (Pahikkala et al. 2010, Algorithm 1)
against a vectorised NumPy implementation of the same algorithm (its peer, here)."""
from __future__ import annotations

import numpy as np

from ..data.load import load_letor
from ..data.queries import check_query_ptr
from ..data.synthetic import make_documents
from ..errors import DataCorrupt, DataMissing
from ..rankers.lqo import GreedyLQO, centre_by_query, check_lambda, greedy_path
from ..run.timing import best_time, fit_exponent
from .common import case, interleaved


def numpy_greedy_path(X, y, query_ptr, lam: float, k: int):
    """Algorithm 1 (corrected) in vectorised NumPy: the benchmark's peer.

    Same inputs and outputs as :func:`repro.rankers.lqo.greedy_path` (selected features,
    LQO errors, prefix weights), every candidate scored at once with ``np.add.reduceat``
    over queries; O(kmn) time, but with several m×n temporaries per step.
    """
    lam = check_lambda(lam)
    X = np.asarray(X, dtype=np.float64)
    qp = check_query_ptr(query_ptr, X.shape[0])
    starts, sizes = qp[:-1], np.diff(qp)
    Xh = np.ascontiguousarray(centre_by_query(X, qp).T)
    yh = centre_by_query(np.asarray(y, dtype=np.float64), qp)
    n = Xh.shape[0]
    k = min(int(k), n)
    a, C, U, p = yh / lam, Xh / lam, Xh.copy(), yh.copy()
    taken = np.zeros(n, bool)
    selected, errors, weights = [], [], np.zeros((k, k))
    for step in range(k):
        cinv = 1.0 + np.einsum("ij,ij->i", Xh, C)                        # line 10
        d = (C @ yh) / cinv                                              # line 11
        CU = np.add.reduceat(C * U, starts, axis=1)
        Ua = np.add.reduceat(U * a, starts, axis=1)
        pU = np.add.reduceat(U * p, starts, axis=1)
        UU = np.add.reduceat(U * U, starts, axis=1)
        pp = np.add.reduceat(p * p, starts)
        g = 1.0 / (CU - cinv[:, None])                                   # line 14
        s = d[:, None] + g * (Ua - d[:, None] * CU)                      # line 15
        e = (pp[None, :] - 2.0 * s * pU + s * s * UU).sum(axis=1)        # line 16
        e[taken] = np.inf
        b = int(np.argmin(e))                                            # lines 17-19
        selected.append(b)
        errors.append(float(e[b]))
        taken[b] = True
        t = (C @ Xh[b]) / cinv[b]                                        # line 22
        Ub, Cb = U[b].copy(), C[b].copy()
        p -= np.repeat(s[b], sizes) * Ub                                 # line 25
        z = np.add.reduceat(C * Ub, starts, axis=1)
        coef = t[:, None] + g[b][None, :] * (z - CU[b][None, :] * t[:, None])
        U -= np.repeat(coef, sizes, axis=1) * Ub                         # line 26
        a -= d[b] * Cb                                                   # line 27
        C -= t[:, None] * Cb                                             # line 28
        weights[step, :step + 1] = Xh[selected] @ a                      # line 30
    return np.array(selected), np.array(errors), weights



#: Runs timed for the minimum (the minimum of at least 15 runs).
MIN_RUNS = 15


def bench(data_dir, quick: bool) -> list[dict]:
    """Greedy selection, m = 20,000 documents in 400 queries, n = 46, k = 10: the kernel
    against :func:`numpy_greedy_path` (the same algorithm in vectorised NumPy), both
    single-threaded; empirical exponents in m and n; the full path on MQ2008 Fold1 train."""
    repeats = 3 if quick else 9
    d = make_documents(20000, 46, seed=20100)
    fns = {"ours": lambda: greedy_path(d.X, d.y, d.query_ptr, 1.0, 10),
           "NumPy (vectorised, same algorithm)": lambda: numpy_greedy_path(
               d.X, d.y, d.query_ptr, 1.0, 10)}
    times = interleaved(fns, repeats=repeats)
    runs = 5 if quick else MIN_RUNS
    t_min = best_time(fns["ours"], runs, min_total=0.0)
    # the per-λ cost: Algorithm 1 on a prepared training set (checked, centred, caches
    # allocated once), as a λ grid uses it (GreedyLQO.path); and what a fresh call adds
    # besides: first touch of its three new n×m arrays (X̂, C, U: page faults and zeroing)
    prepared = GreedyLQO(d.X, d.y, d.query_ptr)
    t_path = best_time(lambda: prepared.path(1.0, 10), runs, min_total=0.0)
    shape = (46, d.n_docs)

    def first_touch():                   # the three alive at once, as in a fresh call
        arrays = [np.empty(shape) for _ in range(3)]
        for a in arrays:
            a.fill(1.0)
    t_touch = best_time(first_touch, runs, min_total=0.0)
    # exponents: fastest of several calls per size (least disturbed by concurrent load)
    ms = [10000, 20000, 40000] + ([] if quick else [80000])
    ns = [46, 92, 184] + ([] if quick else [368])

    def best(m, n):
        dd = make_documents(m, n, seed=m + n)
        return best_time(lambda: greedy_path(dd.X, dd.y, dd.query_ptr, 1.0, 10), repeats,
                         min_total=0.1 if quick else 0.5, warmup=1)
    tm = [best(m, 46) for m in ms]
    tn = [best(20000, n) for n in ns]
    rows = [case("greedy RankRLS selection (Algorithm 1)",
                 {"m": d.n_docs, "queries": d.n_queries, "n": 46, "k": 10, "λ": 1.0}, times,
                 ours_min_s=t_min,
                 ours_min_note=f"fastest of {runs} runs (input checks and centring included)",
                 path_prepared_min_s=t_path,
                 path_prepared_note=f"fastest of {runs} runs of GreedyLQO.path on a prepared "
                                    "training set (the per-λ cost of a grid; goal ≤ 15 ms: "
                                    f"{'met' if t_path <= 0.015 else 'not met'})",
                 first_touch_min_s=t_touch,
                 first_touch_note="allocating and writing three fresh 46 × m float64 arrays "
                                  "(the X̂, C and U a fresh call creates): page faults and "
                                  "zeroing, part of the full call's time",
                 exponent_m=round(fit_exponent(ms, tm), 3),
                 exponent_n=round(fit_exponent(ns, tn), 3),
                 exponent_note=f"each size: fastest of ≥ {repeats} calls; m varied at n = 46, "
                               f"n at m = 20,000; k = 10",
                 times_m={m: round(t, 5) for m, t in zip(ms, tm)},
                 times_n={n: round(t, 5) for n, t in zip(ns, tn)})]
    try:
        train = load_letor("MQ2008", 1, "train", data_dir)
    except (DataMissing, DataCorrupt, OSError):
        return rows
    fns = {"ours": lambda: greedy_path(train.X, train.y, train.query_ptr, 1.0, 46),
           "NumPy (vectorised, same algorithm)": lambda: numpy_greedy_path(
               train.X, train.y, train.query_ptr, 1.0, 46)}
    rows.append(case("greedy RankRLS, full path on MQ2008 Fold1 train",
                     {"m": train.n_docs, "queries": train.n_queries, "n": 46, "k": 46},
                     interleaved(fns, repeats=repeats)))
    return rows
