"""stevens2010 on LETOR (§8.1, Figures 4 and 5): one run per fold, the Domination Rank
variants chosen on the validation split; Figure 5's average ranks as a custom aggregation."""
from __future__ import annotations

import numpy as np

from ...data.load import load_letor_fold
from ...experiment import record
from ...protocol import measures, select
from ...published import load as load_published
from ...rankers.domination import DominationRank
from .keywords import lambda_grid

MEASURES = ("NDCG@5", "NDCG@10", "P@10")
REG_METRIC = "regulariser (1 = ℓ1, 2 = ℓ2²)"
LETOR4 = ("MQ2007", "MQ2008")
# variant -> (method label, fixed ranker parameters, tuned on top of (reg, λ))
VARIANTS = {
    "Layered": ("DR-Layered", {"layers": "graded", "grouping": "pooled"}),
    "Flat": ("DR-Flat", {"layers": "binary", "grouping": "pooled"}),
    "Margin": ("DR-Margin", {"layers": "graded", "grouping": "pooled"}),
    "Layered (per-query)": ("DR-Layered (per-query)", {"layers": "graded", "grouping": "query"}),
}
RANKED = ("DR-Layered", "DR-Flat", "DR-Margin", "ListNet", "AdaRank-NDCG", "AdaRank-MAP",
          "RankBoost")
LETOR8 = ("MQ2007", "OHSUMED", "TD2003", "TD2004", "HP2003", "HP2004", "NP2003", "NP2004")


def variant_grid(variant: str, params: dict) -> dict:
    grid = {"reg": list(params["regularisers"]), "lam": lambda_grid(params)}
    if variant == "Margin":
        grid = {"margin": [float(m) for m in params["margins"]], **grid}
    return grid


def run_fold(dataset: str, fold: int, params: dict, data_dir=None, log=lambda m: None) -> dict:
    """Every variant of ``params["variants"]`` on one fold: (reg, λ[, κ]) chosen by the
    validation ``criterion`` (ties: the larger λ, then the smaller κ, then grid order), the
    chosen model evaluated on the test split (LETOR 3.0 or 4.0 conventions)."""
    splits = load_letor_fold(dataset, fold, data_dir)
    train, vali, test = splits["train"], splits["vali"], splits["test"]
    version = 4 if dataset in LETOR4 else 3
    crit = params["criterion"]
    out = {"fold": fold, "version": version, "n_train": [train.n_queries, train.n_docs],
           "variants": {}}
    for variant in params["variants"]:
        method, fixed = VARIANTS[variant]
        base = DominationRank(tol=params["tol"], max_sweeps=params["max_sweeps"], **fixed)
        sel = select(base, train, vali, variant_grid(variant, params), criterion=crit,
                     prefer=("-lam", "margin"), measures_=MEASURES, version=version)
        model = sel.model
        res = model.result_
        out["variants"][variant] = {
            "method": method, "params": sel.params, "validation": sel.score,
            "test": measures(test, model.predict(test.X), MEASURES, version=version),
            "weights": model.coef_.tolist(), "sweeps": res.n_sweeps, "status": res.status,
            "candidates": sel.candidates}
        log(f"{dataset} fold {fold} {method}: {sel.params}, validation {crit} "
            f"{sel.score:.4f}, {res.n_sweeps} sweeps")
    return out


def task_letor_fold(ctx) -> dict:
    """One fold of ``ctx.dataset`` (Figures 4, 5)."""
    r = run_fold(ctx.dataset, int(ctx.fold), ctx.params, ctx.data_dir, ctx.log)
    f = r["fold"]
    recs = []
    for v in r["variants"].values():
        m, p = v["method"], v["params"]
        for metric in MEASURES:
            recs.append(record(m, metric, v["test"][metric], f))
        recs.append(record(m, f"validation {ctx.params['criterion']}", v["validation"], f))
        recs.append(record(m, "λ", p["lam"], f, shown=f"10^{np.log10(p['lam']):g}"))
        recs.append(record(m, REG_METRIC, 1 if p["reg"] == "l1" else 2, f))
        if "margin" in p:
            recs.append(record(m, "margin κ", p["margin"], f))
        recs.append(record(m, "sweeps", v["sweeps"], f))
    return {"records": recs, **r}


def _fold_means(art, outputs) -> dict:
    """(dataset, method, metric) -> mean test value over the folds the artifact declares, for
    datasets whose every fold ran."""
    by = {}
    for spec, out in outputs:
        for v in out["variants"].values():
            for metric in MEASURES:
                by.setdefault((spec.dataset, v["method"], metric), {})[str(spec.fold)] = \
                    v["test"][metric]
    means = {}
    for (ds, method, metric), folds in by.items():
        declared = [str(f) for f in art.folds_for(ds)]
        if all(f in folds for f in declared):
            means[(ds, method, metric)] = float(np.mean([folds[f] for f in declared]))
    return means


def _ranks(vals: dict) -> dict:
    """Competition ranking, 1 = the largest value (equal values share the best rank)."""
    return {m: 1 + sum(vals[o] > vals[m] for o in vals) for m in vals}


def average_ranks(art, outputs) -> list[dict]:
    """Figure 5: per measure, the 7 methods of Figure 5 ranked on each of the 8 LETOR sets
    (1 = best, competition ranking of ties: equal values share the best rank), averaged over
    the sets.  Our fold averages replace the published Domination Rank values of the sets we
    ran (all folds); the other sets use the published Figure 4 values.  Each record notes the
    sets where a method's rank differs from the ranking of the published values."""
    ours = _fold_means(art, outputs)
    pub = {(v.dataset, v.method, v.metric): v.value
           for v in load_published("stevens2010").for_artifact("figure4") if v.fold == "avg"}
    ran = sorted({ds for ds, _, _ in ours})
    recs = []
    for metric in MEASURES:
        ranks = {m: [] for m in RANKED}
        changed = {m: [] for m in RANKED}
        for ds in LETOR8:
            published = {m: pub.get((ds, m, metric)) for m in RANKED}
            r = _ranks({m: ours.get((ds, m, metric), published[m]) for m in RANKED})
            r0 = _ranks(published)
            for m in RANKED:
                ranks[m].append(r[m])
                if r[m] != r0[m]:
                    changed[m].append(f"{ds}: rank {r[m]} (published values: {r0[m]})")
        for m in RANKED:
            recs.append(record(m, f"average rank ({metric})", float(np.mean(ranks[m])),
                               dataset="LETOR-8", ours_on=", ".join(ran) or "none",
                               published_on=", ".join(d for d in LETOR8 if d not in ran),
                               **({"note": "; ".join(changed[m])} if changed[m] else {})))
    return recs
