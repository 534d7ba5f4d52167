"""The claims of Sec. 5.2–5.3 checked on the cells that ran here (the paper's one custom
aggregation), and the computed context of the OHSUMED gap.  Declarations (statements, the
paper's counts, the tests) and their evaluation only: no run imports this module, so editing
a claim's text re-runs nothing.  Every fold mean comes from the runs' records through the
suite's :func:`repro.aggregate.fold_mean` and :class:`repro.aggregate.Cells` (complete folds
only, declaration order)."""
from __future__ import annotations

import numpy as np

from ... import published as _published
from ...aggregate import Cells, cells as _cells, fold_mean
from ...experiment import FoldMean, record
from ...rankers.deltas import KINDS as DELTA_KINDS
from .names import (BASELINES, CLAIMS, CONVEX, CONVENTIONS, EXPGAIN, FIGURE3, FIGURE4, FIGURE5,
                    FIGURE6, FIGURE7, FIGURE8, FLOOR, L3, LETOR3, METHODS, METRICS, PAPER_DEF,
                    PER_FOLD, k_label, sample_size_label, seed_label, skew_label)

NOT_TESTABLE = "not testable here"


def _best(cell: dict, names) -> tuple[str, float]:
    names = [n for n in names if n in cell]
    n = max(names, key=lambda k: cell[k])
    return n, cell[n]


def _top(c):
    return max(c[b] for b in BASELINES)


CLAIMS_52 = [
    # (section, statement, paper's count, test(cell) -> (holds, evidence))
    ("5.2.1", "MLE beats all baselines", "16 of 32",
     lambda c: (c["MLE"] > _top(c), f"MLE {c['MLE']:.4f} vs best baseline {_top(c):.4f}")),
    ("5.2.2", "ExpGain (its best variant) beats every baseline", "'best' 26 of 32",
     lambda c: (_best(c, EXPGAIN)[1] > _top(c),
                f"{_best(c, EXPGAIN)[0]} {_best(c, EXPGAIN)[1]:.4f} vs best baseline "
                f"{_top(c):.4f}")),
    ("5.2.2", "ExpGain_MAP beats SVMmap", "23 of 32",
     lambda c: (c["ExpGain_MAP"] > c["SVMmap"], f"{c['ExpGain_MAP']:.4f} vs {c['SVMmap']:.4f}")),
    ("5.2.2", "ExpGain_AUC beats RankSVM", "30 of 32",
     lambda c: (c["ExpGain_AUC"] > c["RankSVM"], f"{c['ExpGain_AUC']:.4f} vs {c['RankSVM']:.4f}")),
    ("5.2.2", "ExpGain (its best variant) beats MLE", "21 of 32",
     lambda c: (_best(c, EXPGAIN)[1] > c["MLE"], f"{_best(c, EXPGAIN)[0]} "
                f"{_best(c, EXPGAIN)[1]:.4f} vs MLE {c['MLE']:.4f}")),
    ("5.2.3", "ConvexLoss (its best variant) is the best of all methods", "26 of 32",
     lambda c: (_best(c, CONVEX)[1] >= _best(c, METHODS)[1],
                f"best overall {_best(c, METHODS)[0]} {_best(c, METHODS)[1]:.4f}")),
    ("5.2.3", "ConvexLoss_MAP beats SVMmap", "26 of 32",
     lambda c: (c["ConvexLoss_MAP"] > c["SVMmap"],
                f"{c['ConvexLoss_MAP']:.4f} vs {c['SVMmap']:.4f}")),
    ("5.2.3", "ConvexLoss_AUC beats RankSVM", "25 of 32",
     lambda c: (c["ConvexLoss_AUC"] > c["RankSVM"],
                f"{c['ConvexLoss_AUC']:.4f} vs {c['RankSVM']:.4f}")),
    ("5.2.3", "ConvexLoss_NDCG is the best method", "'across all datasets'",
     lambda c: (c["ConvexLoss_NDCG"] >= _best(c, METHODS)[1],
                f"{c['ConvexLoss_NDCG']:.4f} vs best {_best(c, METHODS)[0]} "
                f"{_best(c, METHODS)[1]:.4f}")),
    ("5.2.3", "ConvexLoss (its best variant) beats MLE", "29 of 32",
     lambda c: (_best(c, CONVEX)[1] > c["MLE"],
                f"{_best(c, CONVEX)[0]} {_best(c, CONVEX)[1]:.4f} vs MLE {c['MLE']:.4f}")),
    ("5.2.3", "ConvexLoss (best variant) beats ExpGain (best variant)", "25 of 32",
     lambda c: (_best(c, CONVEX)[1] > _best(c, EXPGAIN)[1],
                f"{_best(c, CONVEX)[1]:.4f} vs {_best(c, EXPGAIN)[1]:.4f}")),
    ("5.2.3", "ConvexLoss_NDCG beats ExpGain_NDCG", "25 of 32",
     lambda c: (c["ConvexLoss_NDCG"] > c["ExpGain_NDCG"],
                f"{c['ConvexLoss_NDCG']:.4f} vs {c['ExpGain_NDCG']:.4f}")),
    ("5.2.3", "the worse of ConvexLoss_MAP and ConvexLoss_NDCG beats the best baseline",
     "23 of 32",
     lambda c: (min(c["ConvexLoss_MAP"], c["ConvexLoss_NDCG"]) > _top(c),
                f"{min(c['ConvexLoss_MAP'], c['ConvexLoss_NDCG']):.4f} vs {_top(c):.4f}")),
    ("5.2.3", "an L_3 variant is the best in the column", "'some number of times'",
     lambda c: (_best(c, L3)[1] >= _best(c, METHODS)[1],
                f"{_best(c, L3)[0]} {_best(c, L3)[1]:.4f} vs best {_best(c, METHODS)[0]}")),
]
WHY_52 = "needs a Figure 3 column (every fold of a LETOR 3.0 set)"
WHY_53 = "needs every fold of HP2004, OHSUMED or MQ2008"


def _claim(statement: str, section: str, paper: str, results: list[tuple[str, bool, str]],
           why: str = "") -> dict:
    """A claim's record: value = the fraction of the testable cells where it holds."""
    if not results:
        return record(statement, "fraction of cells where it holds", float("nan"), "avg",
                      dataset="all", part=CLAIMS, section=section, paper_count=paper,
                      why=f"{NOT_TESTABLE}: {why}" if why else NOT_TESTABLE,
                      note=f"§{section}; paper: {paper}")
    k = sum(h for _, h, _ in results)
    verdict = "holds" if k == len(results) else ("does not hold" if k == 0 else "holds partly")
    listed = "; ".join(f"{cell}: {'✓' if h else '✗'} {ev}" for cell, h, ev in results)
    return record(statement, "fraction of cells where it holds", k / len(results), "avg",
                  dataset="all", part=CLAIMS, section=section, paper_count=paper,
                  holds=verdict, note=f"§{section}; {verdict} in {k} of {len(results)} cells "
                                      f"(paper: {paper}) — {listed}")


# --- the fold means, from the runs' records ----------------------------------------------------

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


def study_means(art, recs, part: str) -> dict:
    """{dataset: {(method, metric): fold mean}} of a Sec. 5.3 study."""
    out: dict = {}
    for r in fold_mean(art, recs, FoldMean(select={"part": part})):
        out.setdefault(r["dataset"], {})[(r["method"], r["metric"])] = r["value"]
    return out


def claims(art, outputs) -> list[dict]:
    """Aggregation: each claim of Sec. 5.2–5.3 checked on the cells that ran here."""
    recs = run_records(outputs)
    f3 = figure3_means(art, recs)
    out = []
    for section, statement, paper, test in CLAIMS_52:
        res = []
        for ds, by_conv in f3.items():
            for metric in METRICS:
                col = {m: v[metric] for m, v in by_conv[PAPER_DEF].items()}
                holds, ev = test(col)
                res.append((f"{ds} {metric}", bool(holds), ev))
        out.append(_claim(statement, section, paper, res, WHY_52))
    out.append(_claim("Combined (microaveraged) accuracy of ExpGain and ConvexLoss_NDCG is "
                      "the best", "5.2.2–5.2.3", "always", [],
                      "the microaverage needs all seven LETOR 3.0 sets (six Gov sets missing)"))
    out += claims_53(art, recs, outputs)
    if "OHSUMED" in f3:
        out += gap_context(f3["OHSUMED"][PAPER_DEF], f3["OHSUMED"][LETOR3])
    return out


def claims_53(art, recs, outputs) -> list[dict]:
    p = art.params["sensitivity"]
    means = {part: study_means(art, recs, part)
             for part in (FIGURE4, FIGURE5, FIGURE6, FIGURE7, FIGURE8)}
    f4, f5, f6, f7, f8 = [], [], [], [], []
    for ds in means[FIGURE8]:                   # the datasets whose every fold ran the studies
        m4 = means[FIGURE4][ds]
        sizes = p["sizes"]
        m = [m4[(sample_size_label(s), "MAP")] for s in sizes]
        sd = m4.get((sample_size_label(sizes[-1]), "MAP sd over samples"), 0.0)
        f4.append((f"{ds} MAP, |Ŷ| {sizes[0]} → {sizes[-1]}", m[-1] >= m[0] and
                   abs(m[-1] - m[-2]) <= max(sd, 1e-12),
                   " → ".join(f"{v:.4f}" for v in m) + f" (sample sd at {sizes[-1]}: {sd:.4f})"))
        vals = {str(s): means[FIGURE5][ds][(skew_label(float(s)), "MAP")] for s in p["skews"]}
        top = max(vals, key=lambda s: float(s))
        f5.append((f"{ds} MAP", all(vals[top] >= v for v in vals.values()),
                   ", ".join(f"Pr(Δ=0 restart) {s}: {v:.4f}" for s, v in vals.items())))
        ks = sorted(p["ks"], key=float, reverse=True)
        for metric in ("MAP", "NDCG@10"):
            v = [means[FIGURE6][ds][(k_label(k), metric)] for k in ks]
            f6.append((f"{ds} {metric}", all(b >= a - 1e-12 for a, b in zip(v, v[1:])),
                       ", ".join(f"{k_label(k)}: {x:.4f}" for k, x in zip(ks, v))))
        for kind in DELTA_KINDS:
            a = means[FIGURE7][ds][(seed_label("Δ = 1"), f"sd of Δ_{kind}")]
            b = means[FIGURE7][ds][(seed_label("Δ = 0"), f"sd of Δ_{kind}")]
            f7.append((f"{ds} Δ_{kind}", a < b, f"sd from Δ = 1: {a:.4f}, from Δ = 0: {b:.4f}"))
        # pooled over the folds' points (a median, not a fold mean): from the runs' detail
        med = float(np.median([abs(x["wdphi"]) for spec, o in outputs
                               if spec.dataset == ds and "sensitivity" in o
                               for x in o["sensitivity"][FIGURE8]["points"] if x["delta"] > 0]))
        f8.append((f"{ds}", med > 1.0, f"median |wᵀδφ(y)| over iterations 1–10: {med:.3g} "
                                       f"(Δ ≤ 1)"))
    return [
        _claim("accuracy rises with |Ŷ| and is close to saturation at the largest size (last "
               "step within the sample-to-sample sd)", "5.3.1", "Fig. 4", f4, WHY_53),
        _claim("skewing restarts toward Δ = 0 gives the best accuracy", "5.3.2", "Fig. 5", f5,
               WHY_53),
        _claim("k ≪ 0 is uniformly better (accuracy does not fall as k decreases)", "5.3.2",
               "Fig. 6", f6, WHY_53),
        _claim("the smear of sampled Δ is smaller around the Δ = 1 seed than around Δ = 0",
               "5.3.3", "Fig. 7", f7, WHY_53),
        _claim("wᵀφ quickly dominates Δ (|wᵀδφ| > 1 ≥ Δ after the first iterations)", "5.3.4",
               "Fig. 8", f8, WHY_53)]


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
