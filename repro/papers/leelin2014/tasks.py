"""Tasks of leelin2014: the worked example of Sec. II.1, Table (I) on one fold, Figure (II)
on one dataset, and the complexity sweep of the counting methods."""
from __future__ import annotations

import math
import time

import numpy as np

from ...data import catalog as cat
from ...data.load import load_letor
from ...data.queries import QueryData
from ...data.synthetic import cell_rng, one_query
from ...experiment import record
from ...metrics import pairwise_accuracy, yahoo_ndcg10
from ...protocol import measures
from ...published import parse_number
from ...rankers.cutting_plane import L1RankRisk, bundle_method
from ...rankers.pair_counting import METHODS, count_pairs, direct_count_trace, sv_counts
from ...rankers.ranksvm import ExplicitPairObjective, L2RankSVMObjective
from ...rankers.tron import tron
from ...timing import fit_exponent, fun_grad_hv, scaling_sweep, single_thread_blas

SCALED = ("MSLR-WEB30K", "Yahoo-set1", "Yahoo-set2")   # scaled to [0, 1] as the authors did
NO_NDCG = ("MQ2007-list", "MQ2008-list")              # labels are ranks: NDCG not plotted


def _power(text) -> float:
    v = parse_number(str(text))
    if v is None:
        raise ValueError(f"not a number: {text!r}")
    return v


def load_split(name: str, fold, split: str, data_dir) -> QueryData:
    info = cat.dataset(name)
    return load_letor(name, int(fold) if info.n_folds > 1 else 1, split, data_dir)


def scale_like(train: QueryData, *others: QueryData) -> list[QueryData]:
    """Feature-wise [0, 1] scaling with the training ranges (``svm-scale -l 0 -u 1``, as the
    authors' gen_data.py does for MSLR and Yahoo); a constant feature becomes 0."""
    X = train.X.toarray() if hasattr(train.X, "toarray") else train.X
    lo, hi = X.min(axis=0), X.max(axis=0)
    rng = np.where(hi > lo, hi - lo, 1.0)
    out = []
    for d in (train, *others):
        Xd = d.X.toarray() if hasattr(d.X, "toarray") else d.X
        Xs = np.where(hi > lo, (Xd - lo) / rng, 0.0)
        out.append(QueryData(np.ascontiguousarray(Xs), d.y, d.query_ptr, d.qids, d.docids,
                             source=d.source + " (scaled to [0,1] with training ranges)"))
    return out


def heldout_measures(dataset: str, test: QueryData, scores) -> dict:
    """Pairwise accuracy (Lee & Lin: pairs correct iff w·x_i > w·x_j, over all pairs of the
    set) and NDCG (LETOR 4.0 MeanNDCG for LETOR/MSLR, Yahoo NDCG@10 for Yahoo, as the
    authors' ndcg.m; none for the -list sets)."""
    out = {"pairwise accuracy": pairwise_accuracy(test.y, scores, test.query_ptr, ties=0.0,
                                                  average="pairs")[1]}
    if dataset.startswith("Yahoo"):
        out["NDCG"] = yahoo_ndcg10(test.y, scores, test.query_ptr)
    elif dataset not in NO_NDCG:
        out["NDCG"] = measures(test, scores, ("MeanNDCG",), version=4)["MeanNDCG"]
    return out


# --- sectionII: the worked example of Sec. II.1 -----------------------------------------------

EXAMPLE_Z = [-0.9, -0.7, -0.1, 0.15, 0.2, 1.6]
EXAMPLE_Y = [2, 1, 2, 3, 3]          # y_1..y_5 reconstructed; y_6 is not recoverable


def task_section_ii(ctx) -> dict:
    """Sec. II.1's example, computed by the direct-counting kernel (count⁺ after each step of
    the ascending sweep) and by the three counting methods (l_i^+)."""
    recs, traces = [], {}
    ds = "Sec. II.1 example"
    agree = []
    for y6 in (1, 2, 3):
        cp, lp = direct_count_trace(EXAMPLE_Z, EXAMPLE_Y + [y6])
        traces[y6] = {"count_plus": cp.tolist(), "l_plus": lp.tolist()}
        agree.append(cp[:2].tolist() == traces[1]["count_plus"][:2]
                     and lp[:2].tolist() == traces[1]["l_plus"][:2])
    cp, lp = np.array(traces[1]["count_plus"]), np.array(traces[1]["l_plus"])
    m = "direct counting (Sec. II.1)"
    for i in (0, 1):
        for r in range(3):
            recs.append(record(m, f"count+({r + 1}) at i={i + 1}", int(cp[i, r]), dataset=ds))
        recs.append(record(m, f"l_{i + 1}^+", int(lp[i]), dataset=ds))
    recs.append(record(m, "same numbers for y_6 = 1, 2, 3", bool(all(agree)), dataset=ds))
    names = {"direct": "direct counting (Sec. II.1)", "joachims": "Algorithm (I) (Joachims 2006)",
             "tree": "order-statistic tree (Tree-TRON)"}
    for method in METHODS:
        c = sv_counts(EXAMPLE_Z, EXAMPLE_Y + [1], [0, 6], method=method)
        if method != "direct":
            for i in (0, 1):
                recs.append(record(names[method], f"l_{i + 1}^+", int(c.l_plus[i]), dataset=ds))
    return {"records": recs, "traces": traces}


# --- tableI: zero dual variables at C = 2^20 ----------------------------------------------------

def _solve(train: QueryData, C: float, eps: float, method: str = "tree", callback=None,
           max_iter: int = 1000):
    obj = L2RankSVMObjective(train.X, train.y, train.query_ptr, C, method)
    res = tron(obj, n=obj.n_features, eps=eps, max_iter=max_iter, callback=callback)
    return obj, res


def c_label(C) -> str:
    """``"2^20"`` for the parameter ``"2^20"`` (the text as given), a number as ``2^k`` when it
    is a power of 2 and as ``%g`` otherwise: method labels carry the C actually used, and
    match the published keys ("TRON, C = 2^20") at the default."""
    if isinstance(C, str):
        return C.replace(" ", "")
    v = float(C)
    e = math.log2(v) if v > 0 else float("nan")
    return f"2^{int(e)}" if math.isfinite(e) and e == int(e) else f"{v:g}"


def task_table_i(ctx) -> dict:
    """On one fold's training set (``"all"``: the five partitions together; None: a set
    without folds): percentage of zero dual variables of problem (3) at C = ``params["C"]`` (2^20 in Table
    (I)): a pair's dual variable is zero iff wᵀ(x_i − x_j) ≥ 1 at the optimum (Sec. IV, from
    the main paper's Appendix A), so the percentage is (p − Σ_i l_i^-(w*)) / p — undefined
    (NaN, shown as such) for a training set without pairs.

    Records hold only values that a recompute reproduces; the solver's wall time is in the
    task output (``solves[i]["seconds"]``), not in the records."""
    P = ctx.params
    C = _power(P["C"])
    clab = c_label(P["C"])
    fold = ctx.fold
    if fold == "all":
        parts = [load_split(ctx.dataset, 1, s, ctx.data_dir) for s in ("train", "vali", "test")]
        train = QueryData.concat(parts)
    else:
        train = load_split(ctx.dataset, fold, "train", ctx.data_dir)
    if ctx.dataset in SCALED:
        train = scale_like(train)[0]
    recs, details = [], []
    main = f"TRON, C = {clab}"
    fl = None if fold is None else str(fold)
    eps_list = [P["eps"]] + ([e for e in P.get("eps_sensitivity", []) if e != P["eps"]]
                             if fold == P.get("sensitivity_fold", 1) else [])
    for eps in eps_list:
        ctx.log(f"{ctx.dataset} fold {fold}: TRON at C = {P['C']}, eps = {eps:g}")
        obj, res = _solve(train, C, eps, max_iter=P.get("max_iter", 1000))
        p = obj.n_pairs
        viol = obj.violations(res.w)
        zero = p - viol
        # no pairs: the percentage is undefined — always a float NaN, with its reason in
        # "why" (the report shows "undefined (NaN): why"; once cached, where NaN is stored
        # as null, "not run: why")
        pct = float(100.0 * zero / p) if p else float("nan")
        extra = {"eps": eps, "tron_status": res.status, "relative_gradient": res.relative_gnorm,
                 "newton_iterations": res.n_iter, "cg_iterations": res.n_cg,
                 "objective": res.f}
        if not p:
            extra["why"] = "the training set has no pairs"
        method = main if eps == P["eps"] else f"{main}, ε = {eps:g}"
        recs.append(record(method, "zero dual variables (%)", pct, fold=fl, **extra))
        recs.append(record(method, "pairs with wᵀ(x_i − x_j) ≥ 1", int(zero), fold=fl))
        details.append({"fold": fl, "eps": eps, "zero": int(zero), "pairs": int(p), **extra,
                        "seconds": res.seconds})
        if eps == P["eps"]:
            recs.append(record(method, "relative gradient norm", res.relative_gnorm, fold=fl))
            recs.append(record("training set", "documents l", int(train.n_docs), fold=fl))
            recs.append(record("training set", "pairs p", int(p), fold=fl))
            recs.append(record("training set", "queries", int(train.n_queries), fold=fl))
    return {"records": recs, "solves": details}


# --- figureII: TRON vs the cutting-plane method against iterations -------------------------------

def _eval_points(n: int) -> set[int]:
    """Iterations at which test measures are computed: all of the first 30, then a geometric
    grid (ratio 1.08), and the last."""
    pts = set(range(min(n, 30) + 1))
    x = 30.0
    while x < n:
        x *= 1.08
        pts.add(min(n, int(round(x))))
    pts.add(n)
    return pts


def task_figure_ii(ctx) -> dict:
    """Tree-TRON (problem (3), C for best pairwise accuracy) to a tight tolerance, recording
    after every Newton iteration the cumulative CG iterations, f and the test measures; the
    cutting-plane method (problem (2), its own C) for ``cp_max_iter`` iterations."""
    P = ctx.params
    ds = ctx.dataset
    fold = ctx.fold
    train = load_split(ds, fold, "train", ctx.data_dir)
    test = load_split(ds, fold, "test", ctx.data_dir)
    if ds in SCALED:
        train, test = scale_like(train, test)
    C2 = _power(P["C_L2"][ds])
    tron_curve = []

    def on_tron(info):
        m = heldout_measures(ds, test, np.asarray(test.X @ info["w"]).ravel())
        tron_curve.append({"iter": info["iter"], "cg": info["n_cg"], "f": info["f"],
                           "gnorm": info["gnorm"], **m})

    ctx.log(f"{ds}: Tree-TRON, C = {P['C_L2'][ds]}, eps = {P['tron_eps']:g}")
    _, res = _solve(train, C2, P["tron_eps"], callback=on_tron, max_iter=P.get("tron_max_iter", 1000))
    g0 = tron_curve[0]["gnorm"]
    fstar = min(c["f"] for c in tron_curve)
    default = next((c for c in tron_curve if c["gnorm"] <= P["default_eps"] * g0), tron_curve[-1])
    recs = []
    fl = None if fold is None else str(fold)
    for name, c in (("Tree-TRON, default stopping (ε = 1e-3)", default),
                    (f"Tree-TRON, ε = {P['tron_eps']:g}", tron_curve[-1])):
        recs.append(record(name, "CG iterations", c["cg"], fold=fl))
        recs.append(record(name, "relative function value", (c["f"] - fstar) / fstar, fold=fl))
        for k in ("pairwise accuracy", "NDCG"):
            if k in c:
                recs.append(record(name, f"{k} (test)", c[k], fold=fl))
    out = {"tron": tron_curve, "tron_default_index": tron_curve.index(default),
           "tron_fstar": fstar, "C_L2": P["C_L2"][ds], "tron_status": res.status,
           "tron_seconds": res.seconds}
    if ds in P["C_L1"]:
        C1 = _power(P["C_L1"][ds])
        risk = L1RankRisk(train.X, train.y, train.query_ptr)
        points = _eval_points(P["cp_max_iter"])
        cp_curve = []

        def on_cp(info):
            row = {"iter": info["iter"], "f": info["f"], "gap": info["gap"]}
            if info["iter"] in points:
                row.update(heldout_measures(ds, test, np.asarray(test.X @ info["w"]).ravel()))
            cp_curve.append(row)

        ctx.log(f"{ds}: cutting plane, C = {P['C_L1'][ds]}, up to {P['cp_max_iter']} iterations")
        t0 = time.perf_counter()
        bres = bundle_method(risk, C1, eps=P["cp_eps"], max_iter=P["cp_max_iter"], callback=on_cp)
        if "pairwise accuracy" not in cp_curve[-1]:          # converged off the grid
            cp_curve[-1].update(heldout_measures(ds, test, np.asarray(test.X @ bres.w).ravel()))
        cstar = min(c["f"] for c in cp_curve)
        last = cp_curve[-1]
        name = "cutting plane (TreeRankSVM)"
        recs.append(record(name, "iterations", bres.n_iter, fold=fl, status=bres.status))
        recs.append(record(name, "final gap / best J", bres.gap / (cstar / (C1 * risk.n_pairs)),
                           fold=fl))
        for k in ("pairwise accuracy", "NDCG"):
            if k in last:
                recs.append(record(name, f"{k} (test)", last[k], fold=fl))
        # iterations to come within 1 % of the method's own best function value
        cp_1pc = next(c["iter"] for c in cp_curve if c["f"] <= 1.01 * cstar)
        tron_1pc = next(c["cg"] for c in tron_curve if c["f"] <= 1.01 * fstar)
        recs.append(record(name, "iterations to f ≤ 1.01 f_best", cp_1pc, fold=fl))
        recs.append(record("Tree-TRON vs cutting plane", "Tree-TRON faster (1 = yes)",
                           float(tron_1pc < cp_1pc), fold=fl,
                           criterion=("iterations to come within 1 % of the method's own best "
                                      "function value: Tree-TRON CG iterations "
                                      f"{tron_1pc}, cutting-plane iterations {cp_1pc}")))
        out.update(cp=cp_curve, cp_fstar=cstar, C_L1=P["C_L1"][ds], cp_status=bres.status,
                   cp_seconds=time.perf_counter() - t0)
    recs.append(record("Tree-TRON", "CG iterations to f ≤ 1.01 f*",
                       next(c["cg"] for c in tron_curve if c["f"] <= 1.01 * fstar), fold=fl))
    out["records"] = recs
    return out


def _max_rel_diff(a: dict, b: dict) -> float:
    """Largest relative difference between two evaluations' f, ∇f and ∇²f·d."""
    out = 0.0
    for key in ("f", "grad", "hv"):
        x, y = np.asarray(a[key], float), np.asarray(b[key], float)
        out = max(out, float(np.max(np.abs(x - y)) / max(1.0, float(np.max(np.abs(y))))))
    return out


def task_complexity(ctx) -> dict:
    """One query of l documents with k equiprobable relevance levels (``"l"``: every document
    its own level, as in the -list sets), n features: time of f(w), ∇f(w) and ∇²f(w)d for the
    three counting methods and for explicit pairs (formed once, outside the timing), by
    :func:`repro.timing.scaling_sweep` (the fastest of ``repeats`` or more calls), all thread
    pools limited to one thread.  The data of each (k, l) cell come from their own stream
    (:func:`repro.data.synthetic.cell_rng`).

    Besides the times, the output keeps per cell f(w) (``"f"``) and the largest relative
    difference of f, ∇f, ∇²f·d of every method from the tree's (``"max_rel_diff"``): the
    methods timed compute the same thing (also a record per k)."""
    P = ctx.params
    sizes = P["sizes"]
    curves = {}
    recs = []
    labels = {"direct": "(a) direct counting", "joachims": "(b) Joachims Alg. (I)",
              "tree": "(c) order-statistic tree", "pairs": "explicit pairs"}
    fvals, diffs = {}, {}

    def counting(method):
        return lambda prob: fun_grad_hv(L2RankSVMObjective(prob[0], prob[1], prob[2], 1.0,
                                                           method), prob[3], prob[4])

    contenders = {"tree": counting("tree"), "direct": counting("direct"),
                  "joachims": counting("joachims"),
                  "pairs": lambda prob: fun_grad_hv(ExplicitPairObjective(*prob[:3], 1.0),
                                                    prob[3], prob[4])}
    with single_thread_blas():
        for k in P["levels"]:
            def kk(l, k=k):
                return l if k == "l" else int(k)

            def skip(method, l, k=k):
                if method == "pairs":
                    return l * l / 2 > P["max_pairs"]
                return method != "tree" and l * min(kk(l), l) > P["max_lk"]

            pairs = {}

            def make(l, k=k, pairs=pairs):
                prob = one_query(l, kk(l), P["n_features"], cell_rng(ctx.seed, l, k))
                pairs[l] = count_pairs(prob[1], prob[2])
                return prob

            rows = scaling_sweep(sizes, make, contenders, repeats=P["repeats"], skip=skip,
                                 log=lambda msg, k=k: ctx.log(f"k={k} l={msg}"))
            cur = {m: [r["seconds"][m] for r in rows] for m in labels}
            fk = [float(r["values"]["tree"]["f"]) for r in rows]
            dk = [max(_max_rel_diff(v, r["values"]["tree"]) for v in r["values"].values())
                  for r in rows]
            curves[str(k)] = cur
            fvals[str(k)], diffs[str(k)] = fk, dk
            recs.append(record("all methods timed", f"max relative difference of f, ∇f, Hv "
                               f"from (c) (k = {k})", max(dk), dataset="synthetic"))
            for m, ts in cur.items():
                pts = [(l, t) for l, t in zip(sizes, ts) if t is not None]
                start = P.get("pairs_fit_from", P["fit_from"]) if m == "pairs" else P["fit_from"]
                big = [(l, t) for l, t in pts if l >= start]
                if len(big) >= 2:
                    recs.append(record(labels[m], f"exponent in l (k = {k})",
                                       fit_exponent([a for a, _ in big], [b for _, b in big]),
                                       dataset="synthetic"))
            # the explicit-pair method does O(p) work; its time per pair shows the memory
            # hierarchy (its arrays hold 24 bytes per pair) — the computed context of a slope
            # above 2
            for l, t in zip(sizes, cur["pairs"]):
                if t is not None and pairs[l]:
                    recs.append(record("explicit pairs", f"nanoseconds per pair at l = {l} "
                                       f"(k = {k})", 1e9 * t / pairs[l], dataset="synthetic",
                                       pairs=int(pairs[l]),
                                       pair_array_MB=round(24 * pairs[l] / 2 ** 20, 1)))
            both = [i for i, (a, b) in enumerate(zip(cur["pairs"], cur["tree"]))
                    if a is not None and b is not None]
            if both:
                i = both[-1]
                recs.append(record("explicit pairs / (c) tree",
                                   f"time ratio at l = {sizes[i]} (k = {k})",
                                   cur["pairs"][i] / cur["tree"][i], dataset="synthetic"))
    return {"records": recs, "sizes": sizes, "curves": curves, "n_features": P["n_features"],
            "levels": [str(k) for k in P["levels"]], "fit_from": P["fit_from"],
            "pairs_fit_from": P.get("pairs_fit_from", P["fit_from"]), "f": fvals,
            "max_rel_diff": diffs}
