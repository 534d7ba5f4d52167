"""The claims of Sec. 5.2–5.3, declared: each judged by the suite's claim engine
(:mod:`repro.judge.kinds.claims`) with paired tests on the runs' per-query tables, one record
per claim and cell and a summary row per claim.  No run imports this module.

* Sec. 5.2 (Figure 3's win counts, "beats SVMMAP 23 out of 32 times"): per data set × metric,
  the per-query values paired by query within each test fold, pooled over the five folds; "V
  (its best variant) beats every X" tests every variant against every X, Holm-adjusted; the
  summary row is the counterpart of the paper's "N of 32"; the combined claims pool the queries
  of the seven sets (the microaverage weighs each set by its query count).
* Sec. 5.3.1–5.3.2 (Figs. 4–6): the largest |Ŷ| against the smallest (Spearman's ρ beside it),
  the last step's gain against the first's; restarts 0.9 toward Δ = 0 against each other mix
  (Holm); the smallest k against the largest (ρ against k beside it).
* Sec. 5.3.3–5.3.4 (Figs. 7–8) are statistics of the sampler and of the optimiser, not
  per-query measures: tested over the five folds (whose training sets overlap).
"""
from __future__ import annotations

import numpy as np

from ...judge.kinds import FIRST, LAST, REST, CellClaim, FoldClaim, Grid
from ...rankers.deltas import KINDS as DELTA_KINDS
from .names import (BASELINES, CLAIMS, CONVEX, EXPGAIN, FIGURE3, FIGURE4, FIGURE5, FIGURE6,
                    FIGURE7, FIGURE8, L3, METHODS, METRICS, PAPER_DEF, SENS_METRICS, k_label,
                    sample_size_label, skew_label)

#: the LETOR 3.0 sets of Figure 3's columns, whose queries the microaverage pools
LETOR3_SETS = ("TD2003", "TD2004", "HP2003", "HP2004", "NP2003", "NP2004", "OHSUMED")


def _others(*groups) -> tuple:
    drop = {m for g in groups for m in g}
    return tuple(m for m in METHODS if m not in drop)


#: (section, statement, the paper's count, variants, opponents, every variant must hold).
#: "V beats X": V's per-query values above X's; a claim on "its best variant" holds when some
#: variant beats every opponent.
CLAIMS_52 = [
    ("5.2.1", "MLE beats all baselines", "16 of 32", ("MLE",), BASELINES, False),
    ("5.2.2", "ExpGain (its best variant) beats every baseline", "'best' 26 of 32", EXPGAIN,
     BASELINES, False),
    ("5.2.2", "ExpGain_MAP beats SVMmap", "23 of 32", ("ExpGain_MAP",), ("SVMmap",), False),
    ("5.2.2", "ExpGain_AUC beats RankSVM", "30 of 32", ("ExpGain_AUC",), ("RankSVM",), False),
    ("5.2.2", "ExpGain (its best variant) beats MLE", "21 of 32", EXPGAIN, ("MLE",), False),
    ("5.2.3", "ConvexLoss (its best variant) is the best of all methods", "26 of 32", CONVEX,
     _others(CONVEX), False),
    ("5.2.3", "ConvexLoss_MAP beats SVMmap", "26 of 32", ("ConvexLoss_MAP",), ("SVMmap",),
     False),
    ("5.2.3", "ConvexLoss_AUC beats RankSVM", "25 of 32", ("ConvexLoss_AUC",), ("RankSVM",),
     False),
    ("5.2.3", "ConvexLoss_NDCG is the best method", "'across all datasets'",
     ("ConvexLoss_NDCG",), _others(("ConvexLoss_NDCG",)), False),
    ("5.2.3", "ConvexLoss (its best variant) beats MLE", "29 of 32", CONVEX, ("MLE",), False),
    ("5.2.3", "ConvexLoss (best variant) beats ExpGain (best variant)", "25 of 32", CONVEX,
     EXPGAIN, False),
    ("5.2.3", "ConvexLoss_NDCG beats ExpGain_NDCG", "25 of 32", ("ConvexLoss_NDCG",),
     ("ExpGain_NDCG",), False),
    ("5.2.3", "the worse of ConvexLoss_MAP and ConvexLoss_NDCG beats the best baseline",
     "23 of 32", ("ConvexLoss_MAP", "ConvexLoss_NDCG"), BASELINES, True),
    ("5.2.3", "an L_3 variant is the best in the column", "'some number of times'", L3,
     _others(L3), False),
]
#: the "Combined" claims, judged on the queries of all seven sets pooled
CLAIMS_COMBINED = [
    ("5.2.2", "ExpGain's combined (microaveraged) accuracy beats every baseline", "always",
     EXPGAIN, BASELINES, False),
    ("5.2.3", "ConvexLoss_NDCG has the best combined (microaveraged) accuracy", "stated",
     ("ConvexLoss_NDCG",), _others(("ConvexLoss_NDCG",)), False),
]
#: the paper's headline claims (``key`` on their MAP cell of the first data set tested)
KEY_CLAIMS = ("ExpGain (its best variant) beats every baseline",
              "ConvexLoss (its best variant) is the best of all methods",
              "ConvexLoss (its best variant) beats MLE", "ConvexLoss_NDCG is the best method",
              "skewing restarts toward Δ = 0 gives the best accuracy")
WHY_52 = "needs a Figure 3 column (every fold of a LETOR 3.0 set)"
WHY_COMBINED = "the microaverage needs all seven LETOR 3.0 sets (the six Gov sets are missing)"
WHY_53 = "needs every fold of HP2004, OHSUMED or MQ2008"
STATEMENTS_53 = S = {
    "rise": "accuracy rises with |Ŷ| (largest sample size above the smallest)",
    "saturation": "accuracy is close to saturation at the largest |Ŷ| (the last step gains "
                  "less than the first)",
    "skew": "skewing restarts toward Δ = 0 gives the best accuracy",
    "k": "k ≪ 0 is uniformly better (accuracy at the smallest k above the largest k)",
    "smear": "the smear of sampled Δ is smaller around the Δ = 1 seed than around Δ = 0",
    "dominance": "wᵀφ quickly dominates Δ (|wᵀδφ| > 1 ≥ Δ after the first iterations)",
}
SIZES = Grid(("sensitivity", "sizes"), sample_size_label, name="|Ŷ| = {}".format)
SKEWS = Grid(("sensitivity", "skews"), skew_label, convert=float, order="desc")
KS = Grid(("sensitivity", "ks"), k_label, convert=float, order="asc")
OVER_FOLDS = ("Not a per-query measure: the folds are the only repetition, and their training "
              "sets overlap (each training query is in three of the five), so they are not "
              "fully independent")


def smear(output) -> dict | None:
    """Fig. 7 in one fold: the sd of the sampled Δ from each seed."""
    if "sensitivity" not in output:
        return None
    st = output["sensitivity"][FIGURE7]["stats"]
    return {f"sd of Δ_{k}": {"a": st["Δ = 0"][k]["sd"], "b": st["Δ = 1"][k]["sd"],
                             "what": f"the sd of the sampled Δ_{k} from each seed",
                             "shown": {f"sd of Δ_{k} from {s} (mean over folds)": st[s][k]["sd"]
                                       for s in ("Δ = 0", "Δ = 1")}} for k in DELTA_KINDS}


def dominance(output) -> dict | None:
    """Fig. 8 in one fold: log10 of the median |wᵀδφ(y)| over the Δ > 0 points, against 0."""
    if "sensitivity" not in output:
        return None
    med = np.median([abs(x["wdphi"]) for x in output["sensitivity"][FIGURE8]["points"]
                     if x["delta"] > 0])
    return {"log10 median |wᵀδφ(y)|": {
        "a": np.log10(np.maximum(med, 1e-300)), "b": 0.0, "shown": {
            "median |wᵀδφ(y)| (mean over folds)": med, "Δ bound": 1.0},
        "what": "log10 of each fold's median |wᵀδφ(y)| over its Δ > 0 points (iterations "
                "1–10) against 0 (a one-sample test)"}}


_ON, _BY_PART = {"fields": {"part": CLAIMS}}, "{paper}/claims/{part}/{cell}/{metric}/{a} vs {b}"
_52 = dict(where={"part": FIGURE3, "convention": PAPER_DEF}, metrics=METRICS, **_ON)
_53 = dict(metrics=SENS_METRICS, note="difference", why=WHY_53, fallback="HP2004", **_ON)
#: the declarations, in the order the claims are judged
DECLARED = (
    *(CellClaim(s, sec, n, variants=v, opponents=o, every=e, why=WHY_52, fallback="all",
                drop_untestable=True, published={"artifact": FIGURE3, "fold": "avg"},
                key="MAP" if s in KEY_CLAIMS else None, **_52)
      for sec, s, n, v, o, e in CLAIMS_52),
    *(CellClaim(s, sec, n, variants=v, opponents=o, every=e, pooled=LETOR3_SETS,
                label="microaverage", why=WHY_COMBINED, summary=False, **_52)
      for sec, s, n, v, o, e in CLAIMS_COMBINED),
    CellClaim(S["rise"], "5.3.1", "Fig. 4", {"part": FIGURE4}, grid=SIZES, variants=LAST,
              opponents=FIRST, trend="the sizes against |Ŷ|",
              what="paired t-test of the per-query values at the largest |Ŷ| ({last}) against "
                   "the smallest ({first})",
              seed="{paper}/claims/{part}/{cell}/{metric}/largest vs smallest", **_53),
    CellClaim(S["saturation"], "5.3.1", "Fig. 4", {"part": FIGURE4}, grid=SIZES, steps=True,
              steps_why="needs three sample sizes or more",
              what="paired t-test of the per-query gain of the first step of |Ŷ| against that "
                   "of the last step", seed="{paper}/claims/{part}/{cell}/{metric}/saturation",
              **_53),
    CellClaim(S["skew"], "5.3.2", "Fig. 5", {"part": FIGURE5}, grid=SKEWS, variants=FIRST,
              opponents=REST, seed=_BY_PART, key="MAP", **_53),
    CellClaim(S["k"], "5.3.2", "Fig. 6", {"part": FIGURE6}, grid=KS, variants=FIRST,
              opponents=LAST, trend="the k values", seed=_BY_PART, **_53),
    FoldClaim(S["smear"], "5.3.3", "Fig. 7", ("sd from Δ = 0", "sd from Δ = 1"), smear,
              OVER_FOLDS, why=WHY_53, fallback="HP2004", **_ON),
    FoldClaim(S["dominance"], "5.3.4", "Fig. 8", ("log10 median |wᵀδφ(y)|",
                                                  "log10 1 (Δ ≤ 1)"), dominance,
              OVER_FOLDS, why=WHY_53, fallback="HP2004", **_ON),
)
