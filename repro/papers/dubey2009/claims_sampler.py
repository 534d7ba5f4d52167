"""The claims of Sec. 5.3 (Figures 4–8: the sampler studies), judged by paired tests (see
:mod:`.claims` for the reading of each claim and :mod:`.claim_tests` for the tests)."""
from __future__ import annotations

import numpy as np

from ...judge import stats as st
from ...rankers.deltas import KINDS as DELTA_KINDS
from .claim_tests import (NOT_TESTABLE, QueryTables, claim_record, compare, describe_test,
                          judge, judge_all, summary_record)
from .names import (FIGURE4, FIGURE5, FIGURE6, FIGURE7, FIGURE8, SENS_METRICS, k_label,
                    sample_size_label, skew_label)

WHY_53 = "needs every fold of HP2004, OHSUMED or MQ2008"


def _fmt_p(p: float) -> str:
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"


def _note(section: str, fig: str, j) -> str:
    b = j.binding
    ci = b.res.ci95
    return (f"§{section}; paper: {fig}. {b.a} − {b.b}: mean difference {b.res.effect:+.4f}"
            + (f", 95% CI [{ci[0]:+.4f}, {ci[1]:+.4f}]" if ci else "")
            + f", p = {_fmt_p(b.p_adj)}" + (" (Holm-adjusted)" if j.adjusted else ""))


def _judge(variants, opponents, pair_of, seed_base: str):
    return judge_all(variants, opponents, pair_of, seed_base)


def _by_query(test: str, n: int, folds: int) -> str:
    return (f"{test}, over {n} test queries pooled over {folds} folds (scipy.stats.ttest_rel); "
            f"95% bootstrap interval of the mean difference")


def _fig4(art, qt, ds, metric, sizes) -> list[dict]:
    labels = [sample_size_label(s) for s in sizes]
    x = qt.aligned(ds, FIGURE4, labels, metric)
    numbers = {f"|Ŷ| = {s}": round(qt.mean(ds, FIGURE4, lab, metric), 4)
               for s, lab in zip(sizes, labels)}
    seed = f"dubey2009/claims/figure4/{ds}/{metric}"
    rise, sat = STATEMENTS_53["rise"], STATEMENTS_53["saturation"]
    if x is None:
        return [claim_record(s, "5.3.1", "Fig. 4", ds, metric, None, "", numbers,
                             why=f"{NOT_TESTABLE}: {WHY_53}") for s in (rise, sat)]
    folds = len(art.folds_for(ds))
    j = judge({labels[-1]: [compare(labels[-1], labels[0], x[:, -1], x[:, 0],
                                    f"{seed}/largest vs smallest")]})
    rho, p, n = st.trend(np.tile(np.asarray(sizes, float), len(x)), x.ravel())
    out = [claim_record(
        rise, "5.3.1", "Fig. 4", ds, metric, j,
        _by_query(f"paired t-test of the per-query values at the largest |Ŷ| ({sizes[-1]}) "
                  f"against the smallest ({sizes[0]})", j.binding.res.n_queries, folds)
        + "; beside it, the trend: Spearman's ρ of the per-query values pooled over the "
          "sizes against |Ŷ| (scipy.stats.spearmanr)", numbers,
        trend={"rho": rho, "p_value": p, "n": n}, note=_note("5.3.1", "Fig. 4", j))]
    if len(sizes) < 3:
        out.append(claim_record(sat, "5.3.1", "Fig. 4", ds, metric, None, "", numbers,
                                why=f"{NOT_TESTABLE}: needs three sample sizes or more"))
        return out
    first, last = f"gain {sizes[0]} → {sizes[1]}", f"gain {sizes[-2]} → {sizes[-1]}"
    j = judge({first: [compare(first, last, x[:, 1] - x[:, 0], x[:, -1] - x[:, -2],
                               f"{seed}/saturation")]})
    out.append(claim_record(
        sat, "5.3.1", "Fig. 4", ds, metric, j,
        _by_query("paired t-test of the per-query gain of the first step of |Ŷ| against "
                  "that of the last step", j.binding.res.n_queries, folds), numbers,
        note=_note("5.3.1", "Fig. 4", j)))
    return out


def _versus(art, qt, ds, part, metric, subject, others, key: str, section: str, fig: str,
            numbers: dict, trend=None) -> dict:
    """``subject`` against every one of ``others`` (Holm when several), paired by query."""
    statement = STATEMENTS_53[key]
    j = _judge((subject,), others, lambda a, b: qt.paired(ds, part, a, b, metric),
               f"dubey2009/claims/{part}/{ds}/{metric}")
    if j is None:
        return claim_record(statement, section, fig, ds, metric, None, "", numbers,
                            why=f"{NOT_TESTABLE}: {WHY_53}")
    folds = len(art.folds_for(ds))
    test = describe_test(j, "test queries", j.binding.res.n_queries, folds)
    extra = {}
    if trend is not None:
        settings, labels, what = trend
        x = qt.aligned(ds, part, labels, metric)
        rho, p, n = st.trend(np.tile(np.asarray(settings, float), len(x)), x.ravel())
        extra["trend"] = {"rho": rho, "p_value": p, "n": n}
        test += (f"; beside it, the trend: Spearman's ρ of the per-query values pooled over "
                 f"{what} (scipy.stats.spearmanr)")
    return claim_record(statement, section, fig, ds, metric, j, test, numbers,
                        note=_note(section, fig, j), **extra)


def _fold_outputs(art, outputs, ds) -> list[dict] | None:
    """The Sec. 5.3 outputs of ``ds``'s declared folds, in order; None if one is missing."""
    got = {str(spec.fold): o["sensitivity"] for spec, o in outputs
           if spec.dataset == ds and "sensitivity" in o}
    declared = [str(f) for f in art.folds_for(ds) if f is not None]
    if not declared or any(f not in got for f in declared):
        return None
    return [got[f] for f in declared]


def _over_folds(statement, section, fig, ds, metric, a, b, xa, xb, what, numbers) -> dict:
    j = judge({a: [compare(a, b, xa, xb, f"dubey2009/claims/{fig}/{ds}/{metric}/{a} vs {b}")]})
    test = (f"paired t-test over {len(xa)} folds (scipy.stats.ttest_rel) of {what}; 95% "
            f"bootstrap interval of the mean difference over folds. Not a per-query measure: "
            f"the folds are the only repetition, and their training sets overlap (each "
            f"training query is in three of the five), so they are not fully independent")
    return claim_record(statement, section, fig, ds, metric, j, test, numbers, fold_test=True,
                        note=_note(section, fig, j))


STATEMENTS_53 = {
    "rise": "accuracy rises with |Ŷ| (largest sample size above the smallest)",
    "saturation": "accuracy is close to saturation at the largest |Ŷ| (the last step gains "
                  "less than the first)",
    "skew": "skewing restarts toward Δ = 0 gives the best accuracy",
    "k": "k ≪ 0 is uniformly better (accuracy at the smallest k above the largest k)",
    "smear": "the smear of sampled Δ is smaller around the Δ = 1 seed than around Δ = 0",
    "dominance": "wᵀφ quickly dominates Δ (|wᵀδφ| > 1 ≥ Δ after the first iterations)",
}
#: statement → (section, figure)
SECTIONS = {STATEMENTS_53[k]: v for k, v in (
    ("rise", ("5.3.1", "Fig. 4")), ("saturation", ("5.3.1", "Fig. 4")),
    ("skew", ("5.3.2", "Fig. 5")), ("k", ("5.3.2", "Fig. 6")), ("smear", ("5.3.3", "Fig. 7")),
    ("dominance", ("5.3.4", "Fig. 8")))}


def claims_53(art, qt: QueryTables, outputs) -> list[dict]:
    p = art.params["sensitivity"]
    datasets = [d for d in art.datasets if d in qt.datasets(FIGURE4)]
    out = []
    for ds in datasets:
        for metric in SENS_METRICS:
            out += _fig4(art, qt, ds, metric, list(p["sizes"]))
            skews = sorted((float(s) for s in p["skews"]), reverse=True)
            labels = [skew_label(s) for s in skews]
            out.append(_versus(art, qt, ds, FIGURE5, metric, labels[0], tuple(labels[1:]),
                               "skew", "5.3.2", "Fig. 5",
                               {lab: round(qt.mean(ds, FIGURE5, lab, metric), 4)
                                for lab in labels}))
            ks = sorted(float(k) for k in p["ks"])
            klabels = [k_label(k) for k in ks]
            out.append(_versus(art, qt, ds, FIGURE6, metric, klabels[0], (klabels[-1],), "k",
                               "5.3.2", "Fig. 6",
                               {lab: round(qt.mean(ds, FIGURE6, lab, metric), 4)
                                for lab in klabels}, trend=(ks, klabels, "the k values")))
        folds = _fold_outputs(art, outputs, ds)
        if folds is None:
            continue
        for kind in DELTA_KINDS:
            sd = {seed: np.array([f[FIGURE7]["stats"][seed][kind]["sd"] for f in folds])
                  for seed in ("Δ = 0", "Δ = 1")}
            out.append(_over_folds(
                STATEMENTS_53["smear"], "5.3.3", "Fig. 7", ds, f"sd of Δ_{kind}",
                "sd from Δ = 0", "sd from Δ = 1", sd["Δ = 0"], sd["Δ = 1"],
                f"the sd of the sampled Δ_{kind} from each seed", {
                    f"sd of Δ_{kind} from {s} (mean over folds)": round(float(v.mean()), 4)
                    for s, v in sd.items()}))
        med = np.array([np.median([abs(x["wdphi"]) for x in f[FIGURE8]["points"]
                                   if x["delta"] > 0]) for f in folds])
        logm = np.log10(np.maximum(med, 1e-300))
        out.append(_over_folds(
            STATEMENTS_53["dominance"], "5.3.4", "Fig. 8", ds, "log10 median |wᵀδφ(y)|",
            "log10 median |wᵀδφ(y)|", "log10 1 (Δ ≤ 1)", logm, np.zeros_like(logm),
            "log10 of each fold's median |wᵀδφ(y)| over its Δ > 0 points (iterations 1–10) "
            "against 0 (a one-sample test)",
            {"median |wᵀδφ(y)| (mean over folds)": round(float(med.mean()), 4),
             "Δ bound": 1.0}))
    for statement, (section, fig) in SECTIONS.items():
        if not any(r["statement"] == statement for r in out):
            out.append(claim_record(statement, section, fig, "HP2004", None, None, "", {},
                                    why=f"{NOT_TESTABLE}: {WHY_53}"))
    for statement, (section, fig) in SECTIONS.items():
        out.append(summary_record(statement, section, fig,
                                  [r for r in out if r.get("claim")
                                   and r["statement"] == statement]))
    return out
