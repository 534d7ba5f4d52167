"""The claims of Sec. 5.2–5.3 judged by paired tests on the runs' per-query tables (the
paper's one custom aggregation), and the computed context of the OHSUMED gap.  Declarations
(statements, the paper's counts, what is compared) and their evaluation only: no run imports
this module, so editing a claim re-runs nothing.  The tests themselves are in
:mod:`.claim_tests`.

* Sec. 5.2 (Figure 3's win counts, "beats SVMMAP 23 out of 32 times"): one record per claim
  and cell (dataset × metric) — the per-query values of the methods compared, paired by query
  within each test fold and pooled over the five folds; "V (its best variant) beats every X"
  tests every variant against every X, Holm-adjusted across those comparisons; and a summary
  row per claim counting the cells of each outcome (the counterpart of the paper's "N of 32").
* Sec. 5.3.1 (Fig. 4) "accuracy increases with |Ŷ| … close to saturation": the largest sample
  size against the smallest (paired by query; Spearman's ρ of the pooled per-query values
  against |Ŷ| is given beside it), and the last step's gain against the first step's.
* Sec. 5.3.2 (Fig. 5) "skewing toward Δ = 0 generally increases accuracy": restarts 0.9 toward
  Δ = 0 against each other mix (Holm); (Fig. 6) "k ≪ 0 seems uniformly better": the smallest k
  against the largest (paired by query; Spearman's ρ against k beside it).
* Sec. 5.3.3 (Fig. 7) and 5.3.4 (Fig. 8) are statistics of the sampler and of the optimiser,
  not per-query measures: tested over the five folds (``scipy.stats.ttest_rel`` of the folds'
  values), which is all the independent repetition there is — and the folds' training sets
  overlap (each training query is in three of them), so even that overstates independence.
"""
from __future__ import annotations

import numpy as np

from ...judge import published as _published
from ...judge import stats as st
from ...judge.kinds import Cells, cells as _cells
from ...evidence.record import record
from .claim_tests import (NOT_TESTABLE, QueryTables, Judgement, claim_record, describe_test,
                          judge_all, summary_record)
from .claims_sampler import claims_53
from .names import (BASELINES, CLAIMS, CONVEX, CONVENTIONS, EXPGAIN, FIGURE3, FLOOR, L3, LETOR3,
                    METHODS, METRICS, PAPER_DEF, PER_FOLD)

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
#: the "Combined" claims: the microaverage weights each set by its query count, so the
#: combined comparison is the paired test over the queries of all seven sets pooled
CLAIMS_COMBINED = [
    ("5.2.2", "ExpGain's combined (microaveraged) accuracy beats every baseline", "always",
     EXPGAIN, BASELINES, False),
    ("5.2.3", "ConvexLoss_NDCG has the best combined (microaveraged) accuracy", "stated",
     ("ConvexLoss_NDCG",), _others(("ConvexLoss_NDCG",)), False),
]
#: the paper's headline claims (``key`` on their MAP cell of the first data set tested)
KEY_CLAIMS = ("ExpGain (its best variant) beats every baseline",
              "ConvexLoss (its best variant) is the best of all methods",
              "ConvexLoss (its best variant) beats MLE",
              "ConvexLoss_NDCG is the best method",
              "skewing restarts toward Δ = 0 gives the best accuracy")
WHY_52 = "needs a Figure 3 column (every fold of a LETOR 3.0 set)"
WHY_COMBINED = "the microaverage needs all seven LETOR 3.0 sets (the six Gov sets are missing)"


def _judge(variants, opponents, every, pair_of, seed_base: str) -> Judgement | None:
    return judge_all(variants, opponents, pair_of, seed_base, every)


def _fmt_p(p: float) -> str:
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"


def _note(section: str, count: str, j: Judgement | None, means: dict) -> str:
    note = f"§{section}; paper: {count}"
    if j is None or j.binding is None:
        return note
    b = j.binding
    ci = b.res.ci95
    return (note + f". Binding comparison {b.a} − {b.b}"
            + (f" (means {means[b.a]:.4f} vs {means[b.b]:.4f})" if b.a in means and b.b in means
               else "")
            + f": mean per-query difference {b.res.effect:+.4f}"
            + (f", 95% CI [{ci[0]:+.4f}, {ci[1]:+.4f}]" if ci else "")
            + f", p = {_fmt_p(b.p_adj)}" + (" (Holm-adjusted)" if j.adjusted else ""))


def _published_figure3() -> dict:
    """{(dataset, method, metric): published value} of Figure 3's readable, rerun cells."""
    return {(v.dataset, v.method, v.metric): v.value
            for v in _published.load("dubey2009").values
            if v.artifact == FIGURE3 and v.fold == "avg" and v.value is not None
            and not v.baseline}


def _cell_52(art, qt: QueryTables, pub: dict, claim: tuple, datasets: tuple, metric: str,
             label: str, why: str) -> dict:
    """One Sec. 5.2 claim on one cell: ``datasets`` pooled (one set, or the seven of the
    microaverage), paired by query within each fold."""
    section, statement, count, variants, opponents, every = claim

    def pair_of(a, b):
        parts = [qt.paired(ds, FIGURE3, a, b, metric, PAPER_DEF) for ds in datasets]
        if any(p is None for p in parts):
            return None
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    j = _judge(variants, opponents, every, pair_of, f"dubey2009/claims/{statement}/{label}/"
                                                     f"{metric}")
    means = {}
    if len(datasets) == 1:
        means = {m: qt.mean(datasets[0], FIGURE3, m, metric, PAPER_DEF)
                 for m in variants + opponents}
    numbers = {m: round(v, 4) for m, v in means.items() if np.isfinite(v)}
    if j is None:
        return claim_record(statement, section, count, label, metric, None, "", numbers,
                            why=f"{NOT_TESTABLE}: {why}", note=f"§{section}; paper: {count}")
    folds = len([f for f in art.folds_for(datasets[0]) if f is not None])
    test = describe_test(j, "test queries", j.binding.res.n_queries, folds, every)
    if len(datasets) > 1:
        test += f"; the queries of the {len(datasets)} sets pooled (the microaverage's weights)"
    extra = {}
    a, b = j.binding.a, j.binding.b
    if len(datasets) == 1 and (datasets[0], a, metric) in pub and (datasets[0], b, metric) in pub:
        pa, pb = pub[(datasets[0], a, metric)], pub[(datasets[0], b, metric)]
        extra = st.reproduction_measures(means[a], means[b], pa, pb)
        extra["published_numbers"] = {a: pa, b: pb}
    return claim_record(statement, section, count, label, metric, j, test, numbers,
                        note=_note(section, count, j, means), **extra)


def claims_52(art, qt: QueryTables) -> list[dict]:
    pub = _published_figure3()
    datasets = [d for d in art.datasets if d in qt.datasets(FIGURE3)]
    out = []
    for claim in CLAIMS_52:
        recs = [_cell_52(art, qt, pub, claim, (ds,), metric, ds, WHY_52)
                for ds in datasets for metric in METRICS]
        recs = [r for r in recs if r["outcome"] != NOT_TESTABLE] or recs
        if not recs:
            recs = [claim_record(claim[1], claim[0], claim[2], "all", None, None, "", {},
                                 why=f"{NOT_TESTABLE}: {WHY_52}")]
        out += recs + [summary_record(claim[1], claim[0], claim[2], recs)]
    combined = all(ds in datasets for ds in LETOR3_SETS)
    for claim in CLAIMS_COMBINED:
        out += [_cell_52(art, qt, pub, claim, LETOR3_SETS if combined else (), metric,
                         "microaverage", WHY_COMBINED) if combined else
                claim_record(claim[1], claim[0], claim[2], "microaverage", metric, None, "", {},
                             why=f"{NOT_TESTABLE}: {WHY_COMBINED}")
                for metric in METRICS]
    return out


def claims(art, outputs) -> list[dict]:
    """Aggregation: each claim of Sec. 5.2–5.3 judged by paired tests on the cells that ran
    here, a summary row per claim, and the computed context of the OHSUMED gap."""
    qt = QueryTables(art, outputs)
    out = claims_52(art, qt) + claims_53(art, qt, outputs)
    for statement in KEY_CLAIMS:
        first = next((r for r in out if r.get("claim") and r["statement"] == statement
                      and r["metric"] == "MAP" and r["outcome"] != NOT_TESTABLE), None)
        if first is not None:
            first["key"] = True
    f3 = figure3_means(art, run_records(outputs))
    if "OHSUMED" in f3:
        out += gap_context(f3["OHSUMED"][PAPER_DEF], f3["OHSUMED"][LETOR3])
    return out


# --- the fold means, from the runs' records (the context rows) ----------------------------------

def run_records(outputs) -> list[dict]:
    """The records of the finished runs, keyed as the assembly keys them (dataset as run —
    claims are per data set, not per stand-in label — and fold)."""
    out = []
    for spec, o in outputs:
        for r in o.get("records", []):
            out.append({**r, "dataset": r.get("dataset") or spec.dataset,
                        "fold": r.get("fold") or str(spec.fold)})
    return out


def figure3_means(art, recs) -> dict:
    """{dataset: {convention: {method: {metric: fold mean}}}} of the datasets that ran every
    declared fold."""
    got, _ = _cells(art, recs, Cells(select={"part": FIGURE3, PER_FOLD: True},
                                     variant="convention", main=PAPER_DEF))
    out: dict = {}
    for r in got:
        for conv in CONVENTIONS[:3]:
            v = r["value"] if conv == PAPER_DEF else r.get(conv.replace(" ", "_"))
            out.setdefault(r["dataset"], {}).setdefault(conv, {}).setdefault(
                r["method"], {})[r["metric"]] = v
    return out


def gap_context(c: dict, letor: dict) -> list[dict]:
    """The computed context of the OHSUMED column (``c``: paper measures, ``letor``: LETOR 3.0
    script, fold means by method and metric): our MLE/ConvexLoss level, our RankSVM beside the
    paper's RankSVM cell, the all-equal floor, LETOR's official baselines."""
    pub = {(v.method, v.metric): v.value for v in _published.load("dubey2009").values
           if v.artifact == FIGURE3 and v.dataset == "OHSUMED" and v.fold == "avg"}
    st = {(v.method, v.metric): v.text for v in _published.load("stevens2010").values
          if v.dataset == "OHSUMED" and v.baseline}
    ours = [c[m]["MAP"] for m in ("MLE",) + CONVEX]
    publ = [pub.get((m, "MAP")) for m in ("MLE",) + CONVEX]
    publ = [p for p in publ if p is not None]

    def ctx(name, value, note):
        return record(name, "MAP", value, "avg", dataset="OHSUMED", part=CLAIMS,
                      section="context", note=note)
    out = [ctx("context: MLE and ConvexLoss_* (mean)", float(np.mean(ours)),
               f"ours {', '.join(f'{v:.4f}' for v in ours)} (spread {max(ours) - min(ours):.4f}); "
               f"published mean {np.mean(publ):.3f} → gap {np.mean(ours) - np.mean(publ):+.3f}"),
           ctx("context: RankSVM (ours, same protocol)", c["RankSVM"]["MAP"],
               f"paper's RankSVM cell {pub.get(('RankSVM', 'MAP'))}; ours with the LETOR 3.0 "
               f"script {letor['RankSVM']['MAP']:.4f}"),
           ctx("context: all-equal scores (file order)", c[FLOOR]["MAP"],
               f"LETOR 3.0 script {letor[FLOOR]['MAP']:.4f}: OHSUMED's file order is itself a "
               f"good ranking, tied scores gain from it"),
           ctx("context: published ListNet / BoltzRank2 (quoted by the paper)",
               float(np.mean([pub.get(("ListNet", "MAP")) or np.nan,
                              pub.get(("BoltzRank2", "MAP")) or np.nan])),
               f"ListNet {pub.get(('ListNet', 'MAP'))}, BoltzRank2 {pub.get(('BoltzRank2', 'MAP'))} "
               f"(Volkovs & Zemel 2009, uncleaned data)")]
    for letor_name, ours_name in (("RankBoost", "Rankboost"), ("ListNet", None)):
        v = st.get((letor_name, "NDCG@10"))
        if v is None:
            continue
        note = (f"LETOR 3.0 official {letor_name} baseline, OHSUMED NDCG@10 {v} and NDCG@5 "
                f"{st.get((letor_name, 'NDCG@5'))} (as printed in Stevens 2010, Fig. 4)")
        if ours_name:
            note += (f"; our {ours_name} with the LETOR 3.0 script: NDCG@10 "
                     f"{letor[ours_name]['NDCG@10']:.4f}, NDCG@5 {letor[ours_name]['NDCG@5']:.4f}")
        out.append(record(f"context: LETOR 3.0 {letor_name} baseline", "NDCG@10", float(v),
                          "avg", dataset="OHSUMED", part=CLAIMS, section="context", note=note))
    return out
