"""Lee & Lin (2014), *Large-scale Linear RankSVM* (Neural Computation 26(4)), supplement:
L2-loss linear RankSVM solved by TRON with l_i^±, α_i^± counting (Sec. II), compared with the
cutting-plane TreeRankSVM (Sec. III), and the sparsity of its dual solution (Sec. IV).

Code: :mod:`repro.rankers.pair_counting` (the three counting methods, kernel
``kernels/pair_counting.pyx``), :mod:`repro.rankers.tron` (TRON), :mod:`repro.rankers.ranksvm`
(problem (3), the ``RankSVM`` ranker), :mod:`repro.rankers.cutting_plane` (problem (2) by the
bundle method of TreeRankSVM).

Artifacts: ``sectionII`` (the worked example of Sec. II.1, computed), ``tableI`` (Table (I),
zero dual variables at C = 2^20), ``figureII`` (Figure (II): function value, pairwise accuracy
and NDCG against iterations) and ``complexity`` (our figure: time of f, ∇f and Hv against l).
"""
from __future__ import annotations

import math
import time

import numpy as np

from ..data import catalog as cat
from ..data.load import load_letor
from ..data.queries import QueryData
from ..experiment import Artifact, Paper, record
from ..published import load as load_published
from ..published import parse_number

PAPER = Paper(
    id="leelin2014",
    title='Supplement Materials for "Large-scale Linear RankSVM"',
    authors="C.-P. Lee, C.-J. Lin", venue="Neural Computation 26(4), 2014 (supplement)",
    text="002_75f2de2375fc1d0d.txt",
    summary=("L2-loss linear RankSVM, min_w ½wᵀw + C Σ_{(i,j)∈P} max(0, 1 − wᵀ(x_i − x_j))², "
             "solved by a trust-region Newton method whose function, gradient and "
             "Hessian-vector products never form the pairs: per query, one sort of wᵀx and a "
             "count of l_i^±, γ_i^±, α_i^± (direct counting, Joachims' Algorithm (I), or an "
             "order-statistic tree)."))

PROTOCOL = load_published("leelin2014").protocol

NOTES = [
    "Only the supplement is in the corpus; the main paper's body (its Table 3 of selected C "
    "values, its data table) could not be read.  Where the supplement refers to it, the values "
    "come from the authors' experiment code (JasonWyse/FacRankSvm_c, parameter.py) and are "
    "labelled as such.",
    "Misprints found in the supplement (checked against an O(l²) pair loop): Algorithm (I) "
    "step 4 must run over r = 1, …, k−1 (the printed r = 2, …, k never sets l^+ of level-1 "
    "documents and misses their contributions to l^-); step 4.2.1.b writes l_i^+ for "
    "l_{π(i)}^+; (II.3) writes x_iᵀv inside the sum for x_jᵀv; Sec. IV's 'only O(l) of the p "
    "variables are zero' must read 'non-zero' (transitivity (IV.1) makes the implied pairs zero).",
    "Problem (3) is summed over pairs, not averaged, with no bias term; labels are remapped "
    "within each query to levels 1..k_q (only their order matters).  A pair (i, j), y_i > y_j, "
    "is inside the margin iff 1 − z_i + z_j > 0 (z = Xw), the authors' tool's expression, used "
    "by every method and by the tests' O(l²) reference.",
    "TRON is the LIBLINEAR-1.9x tron.cpp of the authors' experiment code, step for step "
    "(Δ_0 = ‖∇f(0)‖, η = (1e-4, 0.25, 0.75), σ = (0.25, 0.5, 4), CG to ‖r‖ ≤ 0.1‖∇f‖, stop at "
    "‖∇f(w)‖ ≤ ε‖∇f(0)‖, default ε = 0.001), except that the Hessian is always taken at the "
    "current iterate (the tool reuses the sort and counts of the last function evaluation, "
    "which after a rejected step belong to the rejected trial point).",
    "On MQ2008 Fold1 train at C = 1 the optimum of problem (3) is 29,566.52285 (TRON to "
    "ε = 1e-8 with each counting method, and scikit-learn's liblinear L2-loss SVM on the "
    "52,325 explicit pair differences, agree to better than 1e-10 relative; "
    "tests/test_ranksvm.py).  At the default ε = 0.001 TRON stops at 29,568.40 (9 Newton, 99 CG "
    "iterations; Lee & Lin's C++ tool, rebuilt for comparison, at 29,569.03 after 9 and 92).",
]

CODE = ("repro.rankers.pair_counting", "repro._kernels.pair_counting", "repro.rankers.tron",
        "repro.rankers.ranksvm", "repro.rankers.cutting_plane", "repro.rankers.base",
        "repro.data.synthetic", "repro.data.catalog")

# --- data ------------------------------------------------------------------------------------

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
    from ..metrics import evaluate, pairwise_accuracy, yahoo_ndcg10
    out = {"pairwise accuracy": pairwise_accuracy(test.y, scores, test.query_ptr, ties=0.0,
                                                  average="pairs")[1]}
    if dataset.startswith("Yahoo"):
        out["NDCG"] = yahoo_ndcg10(test.y, scores, test.query_ptr)
    elif dataset not in NO_NDCG:
        out["NDCG"] = evaluate(test.y, scores, test.query_ptr, test.qids, version=4).avg_mean_ndcg
    return out


# --- sectionII: the worked example of Sec. II.1 -----------------------------------------------

EXAMPLE_Z = [-0.9, -0.7, -0.1, 0.15, 0.2, 1.6]
EXAMPLE_Y = [2, 1, 2, 3, 3]          # y_1..y_5 reconstructed; y_6 is not recoverable


def task_section_ii(ctx) -> dict:
    """Sec. II.1's example, computed by the direct-counting kernel (count⁺ after each step of
    the ascending sweep) and by the three counting methods (l_i^+)."""
    from ..rankers.pair_counting import METHODS, direct_count_trace, sv_counts
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
    from ..rankers.ranksvm import L2RankSVMObjective
    from ..rankers.tron import tron
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
    """Percentage of zero dual variables of problem (3) at C = ``params["C"]`` (2^20 in Table
    (I)): a pair's dual variable is zero iff wᵀ(x_i − x_j) ≥ 1 at the optimum (Sec. IV, from
    the main paper's Appendix A), so the percentage is (p − Σ_i l_i^-(w*)) / p — undefined
    (NaN, shown as such) for a training set without pairs.

    Records hold only values that a recompute reproduces; the solver's wall time is in the
    task output (``solves[i]["seconds"]``), not in the records."""
    P = ctx.params
    C = _power(P["C"])
    clab = c_label(P["C"])
    info = cat.dataset(ctx.dataset)
    folds = P["folds"] if info.n_folds > 1 else [None]
    runs = [(f, "train") for f in folds] + ([("all", None)] if P.get("all_data") and info.n_folds > 1 else [])
    recs, details = [], []
    main = f"TRON, C = {clab}"
    for fold, split in runs:
        if fold == "all":
            parts = [load_split(ctx.dataset, 1, s, ctx.data_dir) for s in ("train", "vali", "test")]
            train = QueryData.concat(parts)
        else:
            train = load_split(ctx.dataset, fold, split, ctx.data_dir)
        if ctx.dataset in SCALED:
            train = scale_like(train)[0]
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
    from ..rankers.cutting_plane import L1RankRisk, bundle_method
    P = ctx.params
    ds = ctx.dataset
    fold = 1 if cat.dataset(ds).n_folds > 1 else None
    train = load_split(ds, 1, "train", ctx.data_dir)
    test = load_split(ds, 1, "test", ctx.data_dir)
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


def figure_ii(art, results, flat, published):
    from ..report.plots import figure
    done = [r for r in results.values() if r.status == "done"]
    if not done:
        return {}
    fig, axes = figure(3, len(done), width=3.6, height=2.7)
    for row, res in enumerate(done):
        o = res.output
        ds = res.spec.dataset
        tr = o["tron"][1:] or o["tron"]          # iterates after the first Newton step
        fstar = o["tron_fstar"]
        dflt = o["tron"][o["tron_default_index"]]
        cg = [max(c["cg"], 1) for c in tr]
        ax = axes[row, 0]
        rel = [((c["f"] - fstar) / fstar, x) for c, x in zip(tr, cg)]
        ax.loglog([x for r, x in rel if r > 0], [r for r, x in rel if r > 0], "o-", ms=2.5,
                  label=f"Tree-TRON (L2, C={o['C_L2']})")
        if "cp" in o:
            cp = o["cp"][1:]
            cst = o["cp_fstar"]
            relc = [((c["f"] - cst) / cst, c["iter"]) for c in cp]
            ax.loglog([x for r, x in relc if r > 0], [r for r, x in relc if r > 0], "-",
                      lw=1, color="C3", label=f"cutting plane (L1, C={o['C_L1']})")
        ax.axhline(max((dflt["f"] - fstar) / fstar, 1e-16), color="k", ls="--", lw=0.8,
                   label="Tree-TRON default stopping")
        ax.set_ylabel("relative function value")
        ax.set_title(ds, fontsize=9)
        for col, key in ((1, "pairwise accuracy"), (2, "NDCG")):
            ax = axes[row, col]
            if key not in tr[0]:
                ax.text(0.5, 0.5, f"{key}: not used for {ds}\n(labels are ranks)",
                        ha="center", va="center", transform=ax.transAxes, fontsize=8)
                ax.set_axis_off()
                continue
            ax.semilogx(cg, [c[key] for c in tr], "o-", ms=2.5, label="Tree-TRON")
            if "cp" in o:
                pts = [c for c in o["cp"][1:] if key in c]
                ax.semilogx([max(c["iter"], 1) for c in pts], [c[key] for c in pts], "-", lw=1,
                            color="C3", label="cutting plane")
            ax.axhline(dflt[key], color="k", ls="--", lw=0.8, label="Tree-TRON default stopping")
            vals = [c[key] for c in tr] + [dflt[key]]
            ax.set_ylim(max(0.0, min(vals) - 0.05), min(1.0, max(vals) + 0.02))
            ax.set_ylabel(f"{key} (test)" if key != "NDCG" else
                          ("NDCG@10 (Yahoo)" if ds.startswith("Yahoo") else "mean NDCG (LETOR)"))
            ax.set_title(ds, fontsize=9)
        for ax in axes[row]:
            if ax.axison:
                ax.set_xlabel("iterations (CG iterations for Tree-TRON)")
        axes[row, 0].legend(fontsize=6)
        if axes[row, 1].axison:
            axes[row, 1].legend(fontsize=6)
    fig.tight_layout()
    return {"": fig}


# --- complexity: time of f + ∇f + Hv against l --------------------------------------------------

def _one_query(l: int, k: int, n: int, rng) -> tuple:
    X = rng.normal(size=(l, n))
    y = rng.integers(0, k, l).astype(np.float64)
    w = rng.normal(size=n) * (3.0 / math.sqrt(n))
    return X, y, np.array([0, l], dtype=np.int64), w, rng.normal(size=n)


def time_evaluation(obj, w, d, repeats: int, keep: dict | None = None) -> float:
    """Seconds of one function + gradient + Hessian-vector product evaluation: the fastest of
    at least ``repeats`` timed calls after one warm-up (:func:`repro.bench.best_time`; more
    calls, up to 50, while they total under 0.5 s).  The fastest, not the median: it is the
    least disturbed by concurrent load, which matters for the fitted exponents.  ``keep``, if
    given, receives the values ``f``, ``grad``, ``hv`` of the last call."""
    from ..bench import best_time

    def once():
        f = obj.fun(w)
        g = obj.grad(w)
        h = obj.hv(d)
        if keep is not None:
            keep.update(f=f, grad=g, hv=h)
    return best_time(once, repeats)


def _max_rel_diff(a: dict, b: dict) -> float:
    """Largest relative difference between two evaluations' f, ∇f and ∇²f·d."""
    out = 0.0
    for key in ("f", "grad", "hv"):
        x, y = np.asarray(a[key], float), np.asarray(b[key], float)
        out = max(out, float(np.max(np.abs(x - y)) / max(1.0, float(np.max(np.abs(y))))))
    return out


def cell_rng(seed: int, l: int, k) -> np.random.Generator:
    """The generator of one (k, l) cell of the complexity figure: ``default_rng([seed, l,
    code])`` with code = k for k levels and 0 for ``"l"`` (k = l).  Each cell has its own
    stream, so adding or removing a size or a level leaves the data of the others unchanged."""
    return np.random.default_rng([int(seed), int(l), 0 if k == "l" else int(k)])


def task_complexity(ctx) -> dict:
    """One query of l documents with k equiprobable relevance levels (``"l"``: every document
    its own level, as in the -list sets), n features: time of f(w), ∇f(w) and ∇²f(w)d (the
    fastest of ``repeats`` or more calls, :func:`time_evaluation`) for the three counting
    methods and for explicit pairs (formed once, outside the timing), all thread pools limited
    to one thread (:func:`repro.bench.single_thread_blas`).  The data of each (k, l) cell come
    from their own stream (:func:`cell_rng`).

    Besides the times, the output keeps per cell f(w) (``"f"``) and the largest relative
    difference of f, ∇f, ∇²f·d of every method from the tree's (``"max_rel_diff"``): the
    methods timed compute the same thing (also a record per k)."""
    from ..bench import fit_exponent, single_thread_blas
    from ..rankers.ranksvm import ExplicitPairObjective, L2RankSVMObjective
    P = ctx.params
    sizes = P["sizes"]
    curves = {}
    recs = []
    labels = {"direct": "(a) direct counting", "joachims": "(b) Joachims Alg. (I)",
              "tree": "(c) order-statistic tree", "pairs": "explicit pairs"}
    fvals, diffs = {}, {}
    with single_thread_blas():
        for k in P["levels"]:
            cur = {m: [] for m in labels}
            fk, dk = [], []
            for l in sizes:
                kk = l if k == "l" else int(k)
                X, y, qp, w, d = _one_query(l, kk, P["n_features"], cell_rng(ctx.seed, l, k))
                vals = {}
                for m in ("tree", "direct", "joachims"):
                    if m != "tree" and l * min(kk, l) > P["max_lk"]:
                        cur[m].append(None)
                        continue
                    obj = L2RankSVMObjective(X, y, qp, 1.0, m)
                    vals[m] = {}
                    cur[m].append(time_evaluation(obj, w, d, P["repeats"], vals[m]))
                if l * l / 2 <= P["max_pairs"]:
                    obj = ExplicitPairObjective(X, y, qp, 1.0)
                    vals["pairs"] = {}
                    cur["pairs"].append(time_evaluation(obj, w, d, P["repeats"], vals["pairs"]))
                else:
                    cur["pairs"].append(None)
                fk.append(float(vals["tree"]["f"]))
                dk.append(max(_max_rel_diff(v, vals["tree"]) for v in vals.values()))
                ctx.log(f"k={k} l={l}: " + ", ".join(f"{m} {v[-1]:.2e}" for m, v in cur.items()
                                                      if v[-1] is not None))
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


def figure_complexity(art, results, flat, published):
    from matplotlib.ticker import NullFormatter

    from ..report.plots import figure
    from ..bench import fit_exponent
    res = next((r for r in results.values() if r.status == "done"), None)
    if res is None:
        return {}
    o = res.output
    sizes = o["sizes"]
    ks = o.get("levels", list(o["curves"]))
    ncol = 2 if len(ks) > 2 else len(ks)
    nrow = -(-len(ks) // ncol)
    fig, axes = figure(ncol, nrow, width=4.0, height=3.1)
    for ax in axes.ravel()[len(ks):]:
        ax.set_axis_off()
    names = {"direct": "(a) direct", "joachims": "(b) Joachims", "tree": "(c) tree",
             "pairs": "explicit pairs"}
    for ax, k in zip(axes.ravel(), ks):
        for i, m in enumerate(names):
            ts = o["curves"][k][m]
            pts = [(l, t) for l, t in zip(sizes, ts) if t is not None]
            if not pts:
                continue
            x, t = zip(*pts)
            start = o.get("pairs_fit_from", 1000) if m == "pairs" else o.get("fit_from", 1000)
            big = [(a, b) for a, b in pts if a >= start]
            lab = names[m]
            if len(big) >= 2:
                lab += f" (slope {fit_exponent(*zip(*big)):.2f})"
            ax.loglog(x, t, "o-", ms=3, color=f"C{i}", label=lab)
        ax.set_xticks(sizes)
        ax.set_xticklabels([f"{l // 1000}k" if l >= 1000 else str(l) for l in sizes],
                           fontsize=7)
        ax.xaxis.set_minor_formatter(NullFormatter())
        kt = "k = l (every document its own level)" if k == "l" else f"k = {k} levels"
        ax.set_title(f"{kt}, one query", fontsize=8)
        ax.set_xlabel("documents l")
        ax.set_ylabel("seconds per f + ∇f + Hv")
        ax.legend(fontsize=6, loc="lower right")
    fig.tight_layout()
    return {"": fig}


# --- benchmark: TRON against an explicit-pair solver -------------------------------------------

def _pair_problem(X, y, qp):
    """Pair differences with alternating signs (scikit-learn's SVM needs two classes); the
    L2-loss objective is unchanged by flipping a pair's sign together with its label."""
    from ..rankers.ranksvm import all_pairs
    H, L = all_pairs(y, qp)
    sign = np.where(np.arange(H.shape[0]) % 2 == 0, 1.0, -1.0)
    return (X[H] - X[L]) * sign[:, None], sign


def _peer_fit(X, y, qp, C, tol, pairs=None):
    from sklearn.svm import LinearSVC
    D, s = _pair_problem(X, y, qp) if pairs is None else pairs
    m = LinearSVC(C=C, loss="squared_hinge", penalty="l2", dual=False, fit_intercept=False,
                  tol=tol, max_iter=100000).fit(D, s)
    return m.coef_.ravel()


def bench_tron(data_dir, quick: bool) -> list[dict]:
    """TRON (tree counting) against scikit-learn's liblinear L2-loss SVM on explicitly formed
    pair differences (MQ2008 Fold1 train; synthetic 1,000-document queries), both to about
    1e-6 of the optimal objective; and the exponents in l of one f + ∇f + Hv.  BLAS is
    single-threaded (as the authors' C++ tool and liblinear are)."""
    from ..bench import single_thread_blas
    with single_thread_blas():
        return _bench(data_dir, quick)


def _bench(data_dir, quick: bool) -> list[dict]:
    from ..bench import case, fit_exponent, time_alternating
    from ..data.synthetic import make_queries
    from ..errors import DataMissing
    from ..rankers.pair_counting import count_pairs
    from ..rankers.ranksvm import ExplicitPairObjective, L2RankSVMObjective
    from ..rankers.tron import tron
    rows = []

    def ours(X, y, qp, C, eps):
        obj = L2RankSVMObjective(X, y, qp, C, "tree")
        return tron(obj, n=X.shape[1], eps=eps, keep_history=False)

    def objective(X, y, qp, C, w):
        return L2RankSVMObjective(X, y, qp, C).fun(w)

    problems = []
    try:
        d = load_letor("MQ2008", 1, "train", data_dir)
        problems.append(("MQ2008 Fold1 train, C = 1 (all 52,325 pairs)", d.X, d.y, d.query_ptr))
    except (DataMissing, OSError):
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
        times = time_alternating(fns, repeats=1 if quick else 3)
        fo, fp = objective(X, y, qp, C, res["ours"]), objective(X, y, qp, C, res["peer"])
        dflt = ours(X, y, qp, C, 1e-3)
        t_dflt = time_alternating({"ours": lambda: ours(X, y, qp, C, 1e-3)},
                                  repeats=3 if quick else 9)["ours"]
        rows.append(case(name, {"tolerance": "TRON eps = 1e-6; LinearSVC (primal TRON) tol = 1e-6",
                                "documents": int(X.shape[0]), "pairs": count_pairs(y, qp)},
                         times,
                         objective_ours=fo, objective_peer=fp,
                         relative_difference=(fo - fp) / fp,
                         ours_default_eps_1e3_s=t_dflt,
                         ours_default_eps_objective=dflt.f,
                         ours_default_eps_iterations=f"{dflt.n_iter} Newton, {dflt.n_cg} CG"))
        formed = None                      # free the pair matrix before the next problem
    # scaling exponents of one f + grad + Hv evaluation
    # counting methods fitted beyond the L2 cache (l ≥ 8,000; see the complexity artifact),
    # explicit pairs (quadratic memory) for l ≤ 4,000
    sizes = [8000, 16000, 32000] if quick else [8000, 16000, 32000, 64000]
    lp = [1000, 2000, 4000]
    k = 5
    t = {m: [] for m in ("direct", "joachims", "tree", "pairs")}
    for l in sorted(set(sizes) | set(lp)):
        X, y, qp, w, d = _one_query(l, k, 20, cell_rng(0, l, k))
        if l in sizes:
            for m in ("direct", "joachims", "tree"):
                t[m].append(time_evaluation(L2RankSVMObjective(X, y, qp, 1.0, m), w, d, 5))
        if l in lp:
            t["pairs"].append(time_evaluation(ExplicitPairObjective(X, y, qp, 1.0), w, d, 3))
    expo = {m: round(fit_exponent(sizes if m != "pairs" else lp, v), 2) for m, v in t.items()}
    rows.append(case(f"one f + ∇f + Hv, one query, k = {k}, 20 features",
                     {"l": sizes, "explicit pairs at l": lp},
                     {"ours": t["tree"][-1], **{f"{m} (l = {sizes[-1]})": t[m][-1]
                                                for m in ("direct", "joachims")}},
                     exponents_in_l=expo,
                     note="exponents: (a) direct, (b) joachims, (c) tree, explicit pairs"))
    return rows


BENCHMARKS = {"tron": bench_tron}

# --- declarations --------------------------------------------------------------------------------

_FIG_SETS = ("MQ2007", "MQ2008", "MSLR-WEB30K", "Yahoo-set1", "Yahoo-set2", "MQ2007-list",
             "MQ2008-list")
_TABLE_SETS = ("MQ2007", "MQ2008", "Yahoo-set2", "MQ2007-list", "MQ2008-list")

ARTIFACTS = [
    Artifact("leelin2014", "sectionII", "Worked example of the direct counting method (Sec. II.1)",
             kind="check", datasets=("synthetic",), task="task_section_ii",
             description=("Sorted scores −0.9, −0.7, −0.1, 0.15, 0.2, 1.6 and K = {1, 2, 3}: the "
                          "ascending sweep of the direct counting kernel, stopped after i = 1 and "
                          "i = 2, gives count⁺ and l_i^+ = Σ_{r>y_i} count⁺(r) (II.2).  The "
                          "Algorithm (I) and tree kernels give the same l_i^+."),
             choices=("The table of labels was lost in the conversion; y_1..y_5 = (2, 1, 2, 3, 3) "
                      "is reconstructed from the printed numbers (l_2^+ = 4 forces y_2 = 1, "
                      "count⁺ = (1, 2, 0) over the first three then y_1 = y_3 = 2, the increment "
                      "to (1, 2, 2) y_4 = y_5 = 3).  y_6 cannot be recovered; every choice gives "
                      "the printed numbers (checked).",)),
    Artifact("leelin2014", "tableI",
             f"Percentage of zero dual variables of the L2-loss problem at C = {PROTOCOL['table_I_C']}",
             datasets=_TABLE_SETS, task="task_table_i",
             params={"C": PROTOCOL["table_I_C"], "eps": PROTOCOL["table_I_eps"],
                     "eps_sensitivity": PROTOCOL["table_I_eps_sensitivity"],
                     "sensitivity_fold": 1, "folds": [1, 2, 3, 4, 5], "all_data": True,
                     "max_iter": 1000},
             quick={"params": {"folds": [1], "all_data": False, "eps_sensitivity": []}},
             description=(f"Problem (3) at C = {PROTOCOL['table_I_C']} solved by Tree-TRON; the dual variable of a "
                          "pair is zero iff wᵀ(x_i − x_j) ≥ 1 at the optimum (Sec. IV), so the "
                          "percentage is (p − Σ_i l_i^-(w*)) / p, counted without forming pairs.  "
                          "The paper's row is the Fold1 training set; the other folds' training "
                          "sets and all of the data set (fold 'all': the five partitions) are "
                          "shown too, and on Fold1 the effect of the stopping tolerance."),
             choices=("Fold: not stated; Fold1 train (S1+S2+S3) as in the authors' code "
                      "(figure7.py reads Fold1/train.txt; Yahoo set2.train).",
                      f"Stopping: ‖∇f(w)‖ ≤ {PROTOCOL['table_I_eps']:g}·‖∇f(0)‖ (the paper says "
                      "only 'dual optimal solution').  On MQ2008 Fold1, ε = 1e-3 (the tool's "
                      "default) gives 22.28 %, 1e-5 gives 22.43 %, 1e-6 and tighter 22.44 % "
                      "(11,741 of 52,325 pairs).",
                      "Yahoo set 2 is scaled feature-wise to [0, 1] with the training ranges "
                      "(svm-scale, as the authors' gen_data.py); LETOR sets are used as given.",
                      "A pair exactly on the margin (wᵀ(x_i − x_j) = 1) counts as zero: the "
                      "equivalence of Sec. IV.")),
    Artifact("leelin2014", "figureII",
             "TRON vs cutting plane: relative function value, pairwise accuracy, NDCG against iterations",
             kind="figure", datasets=_FIG_SETS, task="task_figure_ii", figure="figure_ii",
             params={"C_L2": PROTOCOL["figure_II_C_L2"], "C_L1": PROTOCOL["figure_II_C_L1"],
                     "tron_eps": PROTOCOL["figure_II_tron_eps"],
                     "default_eps": PROTOCOL["tron_default_eps"],
                     "cp_eps": PROTOCOL["figure_II_cp_eps"],
                     "cp_max_iter": PROTOCOL["figure_II_cp_max_iter"], "tron_max_iter": 1000},
             quick={"params": {"cp_max_iter": 60, "tron_eps": 1e-5}},
             description=("Training on Fold1 train (Yahoo: set2/set1.train), measures on the "
                          "test split.  x: CG iterations for Tree-TRON (each costs one Hessian-"
                          "vector product, like one cutting-plane iteration costs one subgradient), "
                          "iterations for the cutting-plane method.  Relative function value "
                          "(f − f*)/f* with f* the smallest value each method reaches (the authors' "
                          "acc.m); the dashed line is Tree-TRON at its default stopping condition "
                          "(‖∇f‖ ≤ 0.001‖∇f(0)‖).  The supplement's plots were lost in the "
                          "conversion: only its conclusion, 'in all problems Tree-TRON is faster', "
                          "can be compared — here as: Tree-TRON needs fewer CG iterations to come "
                          "within 1 % of its best function value than the cutting-plane method "
                          "needs iterations to come within 1 % of its own (1 = yes)."),
             choices=("Data sets: not stated in the supplement.  Run: every set of the main paper; "
                      "the cutting-plane method only where the authors' code has its C "
                      "(MQ2007, MQ2008, Yahoo set 2, MQ2007-list, MQ2008-list).",
                      "C: 'the parameters for best pairwise accuracy in Table 3' (main paper, "
                      "unreadable): the authors' code's best_c['pairwise-accuracy'] — Tree-TRON "
                      "MQ2008 2^7, MQ2007 2^-5, Yahoo set 2 2^-10 …; TreeRankSVM MQ2008 2^8, "
                      "MQ2007 2^-1, Yahoo set 2 2^-7 ….",
                      "Pairwise accuracy: a pair is correct iff w·x_i > w·x_j (a tie is wrong), "
                      "over all pairs of the test set (pooled, not averaged per query).",
                      "NDCG: the authors' ndcg.m — LETOR 4.0 MeanNDCG (mean over positions "
                      "1..n_q of NDCG@k, averaged over queries; the authors' eval_list computes "
                      "the same) for MQ2007/MQ2008/MSLR; Yahoo NDCG@10 (ideal DCG 0 → 1) for "
                      "Yahoo; none for the -list sets, whose labels are ranks.  Ties in scores "
                      "keep file order (the LETOR script; the authors' C code uses qsort order).",
                      "Tree-TRON is run to ε = 1e-8 (the authors' scripts: -e 1e-20) and "
                      "evaluated after every Newton iteration; the cutting-plane method to a gap "
                      "of 1e-6 (the authors' TreeRankSVM setting) or 1000 iterations, evaluated "
                      "at all of the first 30 iterations and then on a geometric grid.",
                      "TreeRankSVM itself (Airola et al. 2011, RankSVM v0.1) is not available: "
                      "it is re-implemented as BMRM on the 1-slack L1 problem with "
                      "regparam = 1/(C·p) and subgradients from the same counting kernel "
                      "(see repro.rankers.cutting_plane); its inner QP by an interior-point "
                      "method, inactive planes dropped after 50 iterations.")),
    Artifact("leelin2014", "complexity",
             "Time of f, ∇f and Hv against l for the counting methods (our figure)",
             kind="figure", datasets=("synthetic",), task="task_complexity",
             figure="figure_complexity",
             params={"sizes": [250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000],
                     "levels": [2, 5, 100, "l"], "n_features": 20, "repeats": 5,
                     "max_pairs": 1.3e7, "max_lk": 1.1e8, "fit_from": 8000,
                     "pairs_fit_from": 1000},
             timing=True,
             quick={"params": {"sizes": [250, 500, 1000, 2000, 4000], "repeats": 2,
                               "max_pairs": 2.1e6}},
             description=("One query of l documents with k equiprobable levels (k = l: every "
                          "document its own level, as in MQ2007-list) and 20 features; time of "
                          "one f(w), ∇f(w) and ∇²f(w)d — the fastest of at least `repeats` calls "
                          "after a warm-up — with every thread pool (BLAS, OpenMP) limited to one "
                          "thread.  (a) and "
                          "(b) cost O(l log l + l k) — O(l²) when k = l — (c) O(l log l) whatever "
                          "k, explicit pairs O(p) = O(l²) (pairs formed once, outside the "
                          "timing).  Slopes fitted for l ≥ 8,000 for the counting methods — "
                          "beyond the 1 MiB per-core L2 cache of this machine; below it the "
                          "fastest-call timings of small queries enjoy a warm L2 and the slope "
                          "mixes cache levels — and for l ≥ 1,000 for explicit pairs.  The sort "
                          "adds a log factor: O(l log l) fitted between 8,000 and 64,000 gives "
                          "a slope of about 1.1.  The timed evaluations of all "
                          "methods agree (largest relative difference of f, ∇f, Hv from (c) "
                          "recorded per k)."),
             choices=("Our figure (not in the paper), to show the complexities of Sec. II "
                      "and of the main paper's tree method; timings are of this machine.",
                      "Timing: the fastest of repeated calls (least disturbed by other load on "
                      "the machine), not the median.",
                      "Data: each (k, l) cell is drawn from its own generator, "
                      "numpy default_rng([run seed, l, k]) with k = 0 standing for k = l, so "
                      "adding a size or a level does not change the data of the others.")),
]
