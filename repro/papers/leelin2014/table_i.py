"""leelin2014 Table (I): zero dual variables at C = 2^20, on one fold."""
from __future__ import annotations

from dataclasses import dataclass

from ...data.queries import QueryData
from ...evidence.record import record
from ...spec.params import StudyParams, study
from .common import SCALED, _power, _solve, c_label, load_split, scale_like

@dataclass(frozen=True)
class TableParams(StudyParams):
    """Problem (3) at C = ``C`` (a power of two: an exponent or a label, :func:`.common._power`),
    TRON to ``eps`` within ``max_iter`` iterations; on fold ``sensitivity_fold`` also at each
    ε of ``eps_sensitivity``."""
    C: int | float | str
    eps: float
    max_iter: int
    eps_sensitivity: list[float]
    sensitivity_fold: int | str | None


@study(TableParams)
def task_table_i(ctx) -> dict:
    """On one fold's training set (``"all"``: the five partitions together; None: a set
    without folds): percentage of zero dual variables of problem (3) at C = ``C`` (2^20 in Table
    (I)): a pair's dual variable is zero iff wᵀ(x_i − x_j) ≥ 1 at the optimum (Sec. IV, from
    the main paper's Appendix A), so the percentage is (p − Σ_i l_i^-(w*)) / p — undefined
    (NaN, shown as such) for a training set without pairs.

    Records hold only values that a recompute reproduces; the solver's wall time is in the
    task output (``solves[i]["seconds"]``), not in the records."""
    P = TableParams.of(ctx)
    C = _power(P.C)
    clab = c_label(P.C)
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
    eps_list = [P.eps] + ([e for e in P.eps_sensitivity if e != P.eps]
                          if fold == P.sensitivity_fold else [])
    for eps in eps_list:
        ctx.log(f"{ctx.dataset} fold {fold}: TRON at C = {P.C}, eps = {eps:g}")
        obj, res = _solve(train, C, eps, max_iter=P.max_iter, threads=ctx.threads)
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
        method = main if eps == P.eps else f"{main}, ε = {eps:g}"
        recs.append(record(method, "zero dual variables (%)", pct, fold=fl, **extra))
        recs.append(record(method, "pairs with wᵀ(x_i − x_j) ≥ 1", int(zero), fold=fl))
        details.append({"fold": fl, "eps": eps, "zero": int(zero), "pairs": int(p), **extra,
                        "seconds": res.seconds})
        if eps == P.eps:
            recs.append(record(method, "relative gradient norm", res.relative_gnorm, fold=fl))
            recs.append(record("training set", "documents l", int(train.n_docs), fold=fl))
            recs.append(record("training set", "pairs p", int(p), fold=fl))
            recs.append(record("training set", "queries", int(train.n_queries), fold=fl))
    return {"records": recs, "solves": details}
