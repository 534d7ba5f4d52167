"""Benchmark group ``tron``: Tree-TRON for L2-loss linear RankSVM (Lee & Lin 2014) against
its peer, scikit-learn's liblinear L2-loss SVM on explicitly formed pair differences (here);
the fastest of ≥ 15 default fits (ε = 0.001) on MQ2008; one fit over fixed query blocks on 2
threads against 1 (the same numbers bit for bit, checked); and the growth of one f + ∇f + Hv
with the query size for each counting method; and TRON with diagonally preconditioned CG
(``RankSVM(solver="pcg-tron")``, beyond the paper) side by side with the paper's TRON on the
same problems at several C (where preconditioning loses shows as a ratio below 1)."""
from __future__ import annotations

import numpy as np

from ..data.load import load_letor
from ..data.synthetic import cell_rng, make_queries, one_query
from ..errors import DataCorrupt, DataMissing, ReproError
from ..rankers.pair_counting import count_pairs
from ..rankers.ranksvm import (HV_BLOCK_BYTES, ExplicitPairObjective, L2RankSVMObjective,
                               all_pairs)
from ..rankers.tron import tron
from ..run.timing import best_time, fit_exponent, fun_grad_hv
from .common import case, interleaved

try:                                  # the peer (the `peers` extra), not a dependency
    from sklearn.svm import LinearSVC
except ImportError:                   # pragma: no cover
    LinearSVC = None


def _pair_problem(X, y, qp):
    """Pair differences with alternating signs (scikit-learn's SVM needs two classes); the
    L2-loss objective is unchanged by flipping a pair's sign together with its label."""
    H, L = all_pairs(y, qp)
    sign = np.where(np.arange(H.shape[0]) % 2 == 0, 1.0, -1.0)
    return (X[H] - X[L]) * sign[:, None], sign


def _peer_fit(X, y, qp, C, tol, pairs=None):
    D, s = _pair_problem(X, y, qp) if pairs is None else pairs
    m = LinearSVC(C=C, loss="squared_hinge", penalty="l2", dual=False, fit_intercept=False,
                  tol=tol, max_iter=100000).fit(D, s)
    return m.coef_.ravel()


#: Fits timed for the minimum of the default fit (the minimum of at least 15 runs).
MIN_RUNS = 15


def _threads_case(ours, quick: bool) -> dict:
    """One fit over fixed blocks of whole queries (``blocked=True``) on 2 threads against the
    same fit on 1; the two must give the same w and iteration counts bit for bit (stored)."""
    nq = 100 if quick else 500
    s = make_queries(nq, (60, 180), 46, n_levels=5, seed=19)
    X, y, qp = s.X, s.y, s.query_ptr
    res = {}

    def fit(t):
        r = ours(X, y, qp, 1.0, 1e-3, threads=t, blocked=True)
        res[t] = r
    times = interleaved({"ours": lambda: fit(2), "1 thread (same blocks)": lambda: fit(1)},
                             repeats=1 if quick else 5)
    same = bool(np.array_equal(res[1].w, res[2].w) and res[1].f == res[2].f
                and (res[1].n_iter, res[1].n_cg) == (res[2].n_iter, res[2].n_cg))
    if not same:
        raise ReproError("bench tron: 1 and 2 threads gave different fits")
    return case(f"Tree-TRON fit on 2 threads (fixed blocks of whole queries), synthetic: "
                f"{X.shape[0]:,} documents in {nq} queries, 46 features, 5 levels, C = 1",
                {"documents": int(X.shape[0]), "threads": 2, "eps": 1e-3,
                 "blocks": f"whole queries, about {HV_BLOCK_BYTES >> 20} MiB of X each"},
                times, bit_identical_1_vs_2_threads=same,
                iterations=f"{res[2].n_iter} Newton, {res[2].n_cg} CG (both)",
                note="ratio = time on 1 thread / time on 2 threads (the speed-up); a "
                     "crowded machine (see the load averages) leaves no second core to use")


#: The C of the side-by-side runs of the two solvers.
PCG_C = (0.1, 1.0, 10.0)


def _fit(X, y, qp, C, precondition: bool):
    obj = L2RankSVMObjective(X, y, qp, C, "tree")
    try:
        return tron(obj, n=X.shape[1], eps=1e-3, keep_history=False, precondition=precondition)
    finally:
        obj.close()


def _pcg_cases(problems, quick: bool) -> list[dict]:
    """TRON with the diagonal preconditioner (ours here) against the paper's TRON, default
    tolerance ε = 0.001, each problem at every C of :data:`PCG_C`: times interleaved, the
    Newton and CG iterations (= Hessian-vector products) of each, and the objectives (both
    stop at ‖∇f‖ ≤ ε‖∇f(0)‖, so they agree within that tolerance, not to the last digit)."""
    rows = []
    for name, X, y, qp in problems:
        for C in PCG_C:
            res = {}
            fns = {"ours": lambda: res.__setitem__("pcg", _fit(X, y, qp, C, True)),
                   "TRON (the paper's, unpreconditioned)":
                       lambda: res.__setitem__("tron", _fit(X, y, qp, C, False))}
            times = interleaved(fns, repeats=3 if quick else 9)
            a, b = res["pcg"], res["tron"]
            rows.append(case(f"TRON with diagonal PCG vs TRON: {name.split(',')[0]}, C = {C:g}",
                             {"eps": 1e-3, "C": C, "documents": int(X.shape[0]),
                              "preconditioner": "(1 − α) I + α diag(∇²f), α = 0.01; the "
                                                "diagonal estimated (hessian_diagonal)"},
                             times,
                             iterations={"pcg-tron": f"{a.n_iter} Newton, {a.n_cg} CG",
                                         "tron": f"{b.n_iter} Newton, {b.n_cg} CG"},
                             hessian_vector_products={"pcg-tron": a.n_cg, "tron": b.n_cg},
                             objective={"pcg-tron": a.f, "tron": b.f},
                             objective_relative_difference=(a.f - b.f) / b.f,
                             relative_gnorm={"pcg-tron": a.relative_gnorm,
                                             "tron": b.relative_gnorm}))
    return rows


def bench(data_dir, quick: bool) -> list[dict]:
    """TRON (tree counting) against scikit-learn's liblinear L2-loss SVM on explicitly formed
    pair differences (MQ2008 Fold1 train; synthetic 1,000-document queries), both to about
    1e-6 of the optimal objective; and the exponents in l of one f + ∇f + Hv.  Thread pools
    are single-threaded (as the authors' C++ tool and liblinear are)."""
    if LinearSVC is None:
        raise ReproError("bench tron: its peer needs scikit-learn (pip install -e '.[peers]')")
    rows = []

    def ours(X, y, qp, C, eps, threads=1, blocked=None):
        obj = L2RankSVMObjective(X, y, qp, C, "tree", threads=threads, blocked=blocked)
        try:
            return tron(obj, n=X.shape[1], eps=eps, keep_history=False)
        finally:
            obj.close()

    def objective(X, y, qp, C, w):
        return L2RankSVMObjective(X, y, qp, C).fun(w)

    problems = []
    try:
        d = load_letor("MQ2008", 1, "train", data_dir)
        problems.append(("MQ2008 Fold1 train, C = 1 (all 52,325 pairs)", d.X, d.y, d.query_ptr))
    except (DataMissing, DataCorrupt, OSError):
        pass
    nq = 2 if quick else 5
    s = make_queries(nq, 1000, 20, n_levels=3, seed=1)
    problems.append((f"synthetic: {nq} queries × 1,000 documents, 20 features, 3 levels, C = 1",
                     s.X, s.y, s.query_ptr))
    for name, X, y, qp in problems:
        C = 1.0
        res = {}
        formed = _pair_problem(X, y, qp)
        fns = {"ours": lambda: res.__setitem__("ours", ours(X, y, qp, C, 1e-6).w),
               "scikit-learn LinearSVC on explicit pairs (incl. forming them)":
                   lambda: res.__setitem__("peer", _peer_fit(X, y, qp, C, 1e-6)),
               "the same, pairs formed beforehand (fit only)":
                   lambda: _peer_fit(X, y, qp, C, 1e-6, formed)}
        times = interleaved(fns, repeats=1 if quick else 3)
        fo, fp = objective(X, y, qp, C, res["ours"]), objective(X, y, qp, C, res["peer"])
        dflt = ours(X, y, qp, C, 1e-3)
        t_dflt = interleaved({"ours": lambda: ours(X, y, qp, C, 1e-3)},
                             repeats=3 if quick else 9).median("ours")
        runs = 5 if quick else MIN_RUNS
        t_min = best_time(lambda: ours(X, y, qp, C, 1e-3), runs, min_total=0.0)
        rows.append(case(name, {"tolerance": "TRON eps = 1e-6; LinearSVC (primal TRON) tol = 1e-6",
                                "documents": int(X.shape[0]), "pairs": count_pairs(y, qp)},
                         times,
                         objective_ours=fo, objective_peer=fp,
                         relative_difference=(fo - fp) / fp,
                         ours_default_eps_1e3_s=t_dflt,
                         ours_default_eps_1e3_min_s=t_min,
                         ours_default_eps_1e3_min_note=f"fastest of {runs} fits (≥ {runs} "
                                                       "runs, single-threaded)",
                         ours_default_eps_objective=dflt.f,
                         ours_default_eps_iterations=f"{dflt.n_iter} Newton, {dflt.n_cg} CG"))
        formed = None                      # free the pair matrix before the next problem
    rows.extend(_pcg_cases(problems, quick))
    rows.append(_threads_case(ours, quick))
    # scaling exponents of one f + grad + Hv evaluation
    # counting methods fitted beyond the L2 cache (l ≥ 8,000; see the complexity artifact),
    # explicit pairs (quadratic memory) for l ≤ 4,000
    sizes = [8000, 16000, 32000] if quick else [8000, 16000, 32000, 64000]
    lp = [1000, 2000, 4000]
    k = 5
    t = {m: [] for m in ("direct", "joachims", "tree", "pairs")}
    for l in sorted(set(sizes) | set(lp)):
        X, y, qp, w, d = one_query(l, k, 20, cell_rng(0, l, k))
        if l in sizes:
            for m in ("direct", "joachims", "tree"):
                t[m].append(best_time(fun_grad_hv(L2RankSVMObjective(X, y, qp, 1.0, m), w, d), 5))
        if l in lp:
            t["pairs"].append(best_time(fun_grad_hv(ExplicitPairObjective(X, y, qp, 1.0), w, d), 3))
    expo = {m: round(fit_exponent(sizes if m != "pairs" else lp, v), 2) for m, v in t.items()}
    rows.append(case(f"one f + ∇f + Hv, one query, k = {k}, 20 features",
                     {"l": sizes, "explicit pairs at l": lp},
                     {"ours": t["tree"][-1], **{f"{m} (l = {sizes[-1]})": t[m][-1]
                                                for m in ("direct", "joachims")}},
                     exponents_in_l=expo,
                     note="exponents: (a) direct, (b) joachims, (c) tree, explicit pairs",
                     ratio_notes={f"{m} (l = {sizes[-1]})": (
                         f"with only k = {k} levels the {m} counting costs O(l log l + lk), "
                         "about the tree's O(l log l) with smaller constants; the tree pays "
                         "off as k grows (k = l: O(l log l) against O(l²), see the complexity "
                         "figure of Lee & Lin 2014)") for m in ("direct", "joachims")}))
    return rows
