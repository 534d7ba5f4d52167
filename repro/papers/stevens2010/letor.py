"""stevens2010 on LETOR (§8.1, Figures 4 and 5): one run per fold and variant (the
declarations split a fold's run by ``params.variants``: the variants are independent), the
Domination Rank variants chosen on the validation split and evaluated on the test split with
the official LETOR conventions; every test measure is returned with its per-query table.  Fold means and
Figure 5's average ranks are declared aggregations (:mod:`.names`, ``__init__``)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...data.load import load_letor_fold
from ...evidence import Evidence
from ...evidence.protocol import measured, select
from ...rankers.domination import DominationRank
from ...spec.params import StudyParams, study
from .keywords import lambda_grid
from .names import LETOR_MEASURES as MEASURES
from .names import LETOR_VARIANTS as VARIANTS
from .names import REG_METRIC

LETOR4 = ("MQ2007", "MQ2008")


@dataclass(frozen=True)
class LetorParams(StudyParams):
    """One LETOR fold: the ``variants`` run (a split run has one each), λ on the log grid
    ``lambda_exponents`` / ``lambda_step`` for each of the ``regularisers``, κ among
    ``margins`` (the Margin variant), chosen by the validation ``criterion``; the solver's
    ``tol`` and ``max_sweeps``."""
    variants: list[str]
    regularisers: list[str]
    lambda_exponents: list[float]
    lambda_step: float
    margins: list[float]
    criterion: str
    tol: float
    max_sweeps: int


def variant_grid(variant: str, params: LetorParams) -> dict:
    grid = {"reg": list(params.regularisers), "lam": lambda_grid(params)}
    if variant == "Margin":
        grid = {"margin": [float(m) for m in params.margins], **grid}
    return grid


def run_fold(dataset: str, fold: int, params: LetorParams, data_dir=None,
             log=lambda m: None) -> dict:
    """Every variant of ``params.variants`` on one fold: (reg, λ[, κ]) chosen by the
    validation ``criterion`` (ties: the larger λ, then the smaller κ, then grid order), the
    chosen model evaluated on the test split (LETOR 3.0 or 4.0 conventions)."""
    splits = load_letor_fold(dataset, fold, data_dir)
    train, vali, test = splits["train"], splits["vali"], splits["test"]
    version = 4 if dataset in LETOR4 else 3
    crit = params.criterion
    out = {"fold": fold, "version": version, "n_train": [train.n_queries, train.n_docs],
           "variants": {}}
    for variant in params.variants:
        method, fixed = VARIANTS[variant]
        base = DominationRank(tol=params.tol, max_sweeps=params.max_sweeps, **fixed)
        sel = select(base, train, vali, variant_grid(variant, params), criterion=crit,
                     prefer=("-lam", "margin"), measures_=MEASURES, version=version)
        model = sel.model
        res = model.result_
        m = measured(test, model.predict(test.X), MEASURES, version=version)
        out["variants"][variant] = {
            "method": method, "params": sel.params, "validation": sel.score,
            "test": m.summary, "test_per_query": m,
            "weights": model.coef_.tolist(), "sweeps": res.n_sweeps, "status": res.status,
            "candidates": sel.candidates}
        log(f"{dataset} fold {fold} {method}: {sel.params}, validation {crit} "
            f"{sel.score:.4f}, {res.n_sweeps} sweeps")
    return out


@study(LetorParams)
def task_letor_fold(ctx) -> dict:
    """One fold of ``ctx.dataset`` (Figures 4, 5): each variant's test measures with their
    per-query tables (the official evaluation's values), and its chosen parameters."""
    params = LetorParams.of(ctx)
    r = run_fold(ctx.dataset, int(ctx.fold), params, ctx.data_dir, ctx.log)
    f = r["fold"]
    ev = Evidence()
    for v in r["variants"].values():
        m, p = v["method"], v["params"]
        ev.measured(m, v.pop("test_per_query"), f, MEASURES)
        ev.value(m, f"validation {params.criterion}", v["validation"], f)
        ev.value(m, "λ", p["lam"], f, shown=f"10^{np.log10(p['lam']):g}")
        ev.value(m, REG_METRIC, 1 if p["reg"] == "l1" else 2, f)
        if "margin" in p:
            ev.value(m, "margin κ", p["margin"], f)
        ev.value(m, "sweeps", v["sweeps"], f)
    ev.detail.update(r)
    return ev.output()
