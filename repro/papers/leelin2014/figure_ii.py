"""leelin2014 Figure (II): Tree-TRON against the cutting-plane method along their iterations,
with the held-out measures (and each test query's value) at the reported points."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ...data.queries import QueryData
from ...evidence import Evidence
from ...evidence.record import record
from ...metrics import pair_counts, pairwise_accuracy, yahoo_ndcg10
from ...metrics.family import ndcg as family_ndcg
from ...evidence.protocol import measured, measures
from ...rankers.cutting_plane import L1RankRisk, bundle_method
from ...spec.params import StudyParams, study
from .common import NO_NDCG, SCALED, _power, _solve, load_split, scale_like

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


def heldout_tables(ev: Evidence, method: str, dataset: str, test: QueryData, scores,
                   fold, values: dict) -> None:
    """The per-query tables behind :func:`heldout_measures` (``values``, the numbers it gave):
    pairwise accuracy per query weighted by the query's pairs (its mean over pairs is the
    value), and the NDCG of each query."""
    qids = list(np.asarray(test.qids).tolist())
    per_q, _ = pairwise_accuracy(test.y, scores, test.query_ptr, ties=0.0, average="pairs")
    pairs = pair_counts(test.y, scores, test.query_ptr)[:, 0]
    ev.per_query(method, "pairwise accuracy (test)", qids, per_q, fold,
                 value=values["pairwise accuracy"], weights=pairs,
                 why="a query without pairs has no pairwise accuracy (weight 0)")
    if "NDCG" not in values:
        return
    if dataset.startswith("Yahoo"):
        # the Yahoo challenge's NDCG@10 = the GBDT libraries' convention (no-relevant query: 1)
        per_ndcg = family_ndcg(test.y, scores, test.query_ptr, 10, convention="gbdt")
    else:
        per_ndcg = measured(test, scores, ("MeanNDCG",), version=4).per_query["MeanNDCG"]
    ev.per_query(method, "NDCG (test)", qids, per_ndcg, fold, value=values["NDCG"])


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


@dataclass(frozen=True)
class FigureParams(StudyParams):
    """Per dataset, C of problem (3) (``C_L2``) and of problem (2) (``C_L1``: the datasets
    the cutting-plane method runs on); Tree-TRON to ``tron_eps`` (at most ``tron_max_iter``
    iterations; its default stopping at ``default_eps``), the cutting plane to ``cp_eps`` or
    ``cp_max_iter`` iterations."""
    C_L2: dict[str, int | float | str]
    C_L1: dict[str, int | float | str]
    tron_eps: float
    tron_max_iter: int
    default_eps: float
    cp_eps: float
    cp_max_iter: int


@study(FigureParams)
def task_figure_ii(ctx) -> dict:
    """Tree-TRON (problem (3), C for best pairwise accuracy) to a tight tolerance, recording
    after every Newton iteration the cumulative CG iterations, f and the test measures; the
    cutting-plane method (problem (2), its own C) for ``cp_max_iter`` iterations."""
    P = FigureParams.of(ctx)
    ds = ctx.dataset
    fold = ctx.fold
    train = load_split(ds, fold, "train", ctx.data_dir)
    test = load_split(ds, fold, "test", ctx.data_dir)
    if ds in SCALED:
        train, test = scale_like(train, test)
    C2 = _power(P.C_L2[ds])
    tron_curve = []

    tron_w = []

    def on_tron(info):
        m = heldout_measures(ds, test, np.asarray(test.X @ info["w"]).ravel())
        tron_curve.append({"iter": info["iter"], "cg": info["n_cg"], "f": info["f"],
                           "gnorm": info["gnorm"], **m})
        tron_w.append(np.array(info["w"], dtype=np.float64, copy=True))

    ctx.log(f"{ds}: Tree-TRON, C = {P.C_L2[ds]}, eps = {P.tron_eps:g}")
    _, res = _solve(train, C2, P.tron_eps, callback=on_tron,
                    max_iter=P.tron_max_iter, threads=ctx.threads)
    g0 = tron_curve[0]["gnorm"]
    fstar = min(c["f"] for c in tron_curve)
    default = next((c for c in tron_curve if c["gnorm"] <= P.default_eps * g0), tron_curve[-1])
    ev = Evidence()
    recs = ev.records
    fl = None if fold is None else str(fold)
    for name, c, w in (("Tree-TRON, default stopping (ε = 1e-3)", default,
                        tron_w[tron_curve.index(default)]),
                       (f"Tree-TRON, ε = {P.tron_eps:g}", tron_curve[-1], tron_w[-1])):
        recs.append(record(name, "CG iterations", c["cg"], fold=fl))
        recs.append(record(name, "relative function value", (c["f"] - fstar) / fstar, fold=fl))
        heldout_tables(ev, name, ds, test, np.asarray(test.X @ w).ravel(), fl, c)
    out = {"tron": tron_curve, "tron_default_index": tron_curve.index(default),
           "tron_fstar": fstar, "C_L2": P.C_L2[ds], "tron_status": res.status,
           "tron_seconds": res.seconds}
    if ds in P.C_L1:
        C1 = _power(P.C_L1[ds])
        risk = L1RankRisk(train.X, train.y, train.query_ptr)
        points = _eval_points(P.cp_max_iter)
        cp_curve = []

        def on_cp(info):
            row = {"iter": info["iter"], "f": info["f"], "gap": info["gap"]}
            if info["iter"] in points:
                row.update(heldout_measures(ds, test, np.asarray(test.X @ info["w"]).ravel()))
            cp_curve.append(row)

        ctx.log(f"{ds}: cutting plane, C = {P.C_L1[ds]}, up to {P.cp_max_iter} iterations")
        t0 = time.perf_counter()
        bres = bundle_method(risk, C1, eps=P.cp_eps, max_iter=P.cp_max_iter, callback=on_cp)
        cp_scores = np.asarray(test.X @ bres.w).ravel()
        if "pairwise accuracy" not in cp_curve[-1]:          # converged off the grid
            cp_curve[-1].update(heldout_measures(ds, test, cp_scores))
        cstar = min(c["f"] for c in cp_curve)
        last = cp_curve[-1]
        name = "cutting plane (TreeRankSVM)"
        recs.append(record(name, "iterations", bres.n_iter, fold=fl, status=bres.status))
        recs.append(record(name, "final gap / best J", bres.gap / (cstar / (C1 * risk.n_pairs)),
                           fold=fl))
        heldout_tables(ev, name, ds, test, cp_scores, fl, last)
        # iterations to come within 1 % of the method's own best function value
        cp_1pc = next(c["iter"] for c in cp_curve if c["f"] <= 1.01 * cstar)
        tron_1pc = next(c["cg"] for c in tron_curve if c["f"] <= 1.01 * fstar)
        recs.append(record(name, "iterations to f ≤ 1.01 f_best", cp_1pc, fold=fl))
        recs.append(record("Tree-TRON vs cutting plane", "Tree-TRON faster (1 = yes)",
                           float(tron_1pc < cp_1pc), fold=fl,
                           criterion=("iterations to come within 1 % of the method's own best "
                                      "function value: Tree-TRON CG iterations "
                                      f"{tron_1pc}, cutting-plane iterations {cp_1pc}")))
        out.update(cp=cp_curve, cp_fstar=cstar, C_L1=P.C_L1[ds], cp_status=bres.status,
                   cp_seconds=time.perf_counter() - t0)
    recs.append(record("Tree-TRON", "CG iterations to f ≤ 1.01 f*",
                       next(c["cg"] for c in tron_curve if c["f"] <= 1.01 * fstar), fold=fl))
    ev.detail.update(out)
    return ev.output()
