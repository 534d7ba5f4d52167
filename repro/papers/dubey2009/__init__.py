"""Dubey, Machchhar, Bhattacharyya, Chakrabarti (2009), *Conditional Models for Non-smooth
Ranking Loss Functions* (ICDM): conditional probability models over rankings y ∈ {±1}^{n⁺n⁻}
(eq. 3), the MLE (eq. 10), expected-gain objectives ExpGain (eq. 6–8, closed form for AUC via the
Figure 1 identities, Sec. 2.3), the bound L₃ and ConvexLoss (Sec. 3, eq. 14), and the sample Ŷ
drawn once by the MCMC swap sampler of Fig. 2 with restarts (Sec. 4; lines 7 and 9 reconstructed
as in ``../shared/papers/README.md``).

Artifacts are declared; the method is not implemented yet (no issue has asked for it), so the
report lists every published value (``dubey2009.toml``) as "not run: not implemented yet".

Open questions for the implementation
-------------------------------------
(``txt:NNN`` = line of ../shared/papers/001_6d8b563b3ae0bb43.txt; details in notes/dubey2009.md.)

1. Sampler (Fig. 2, Sec. 4): lines 7 and 9 are a reconstruction (θ = (n⁻ − n_g + n_b + 1)/(2 + n⁺ + n⁻)
   if y_in[idx] = +1, else θ = (n⁺ + n_g − n_b + 1)/(2 + n⁺ + n⁻); line 8 "else" implied). Unstated:
   |Ŷ| per query, walk length, which visited states are kept, number of restarts, and the restart
   mix used for Figure 3 (two restarts Δ = 0 / Δ = 1, "tuned"; Sec. 5.3.2 says skewing toward Δ = 0 is
   better). "Check if y? is a valid ranking" (line 11): the validity test must be defined (y consistent
   with a total order).
2. How the fixed sample enters each objective: the sum over Ŷ_q replaces the sum over all y; whether
   y_q itself is included, whether duplicates are kept (multiset) or removed.
3. MLE and the AUC variants: closed forms over the whole hypercube {±1}^{n⁺n⁻} (which includes
   invalid y; Sec. 2.3) or the sampled sum over valid y? The printed A_q uses h_gb(−1) where Fig. 1
   identity 3 gives h_gb(+1) (misprint).
4. Data cleaning (Sec. 5.1.1): binarisation of OHSUMED's 0/1/2 labels (natural: ≥ 1 is good);
   "conflicting relevance labels" presumably = identical feature vectors with different labels within
   a query (183 groups, 1,723 OHSUMED documents after binarisation: a material change — make it an
   explicit, reported option); whether queries without relevant documents (OHSUMED qid 8) are also
   dropped from validation/test folds.
5. Metrics: the paper defines AP with binary relevance and NDCG@k with the Järvelin–Kekäläinen discount
   (ranks 1 and 2 undiscounted), not LETOR's evaluation script (``repro.metrics.evaluate``). Which one
   produced Figure 3 is not stated; evaluate both and report the choice. The k inside Δ_NDCG for
   training (ExpGain_NDCG, L_3_NDCG, ConvexLoss_NDCG) is not stated (NDCG@10 is the natural guess).
6. Model selection: grid of C in ‖w‖²/C, the validation metric used to pick it, the φ scale
   (1/(n⁺n⁻) "omitted based on cross-validation", but kept in the Sec. 2 formulas), the optimiser
   (LBFGS is mentioned) and the number of random restarts of the non-convex objectives (Sec. 2.2).
7. Figure 3 cells are taken as means over the 5 LETOR test folds (fold "avg"); the microaverage
   weights are the LETOR 3.0 query counts (``published.load("dubey2009").protocol``), which reproduce
   the printed microaverages — not the cleaned counts. The microaverage needs all seven sets.
8. Baselines: SVMmap, RankBoost and RankSVM were run by the authors (Java, own implementations) and
   must be run by the suite; ListNet and BoltzRank2 were quoted from Volkovs & Zemel (ICML 2009) and are
   published baselines, not rerun. Reproduced records must use the method names of the TOML; rows
   keyed ``unresolved-row-…`` (labels lost in the PDF conversion) never match a reproduced record.
9. Figure 6: learner, data set, the "handcrafted" restart set and the folds are unstated (assumed
   ConvexLoss_NDCG on HP2004, 5-fold average, as in Figs. 4–5). MAP .033/.089 at k = 5/0 is far below
   what a random ranking scores on any LETOR set — check whether it is reproducible at all.
10. Figures 4, 5, 7, 8 are images lost in conversion: no numbers, axis ranges, sample sizes or metrics
    are recoverable; only their qualitative claims (Sec. 5.3) can be checked.
11. MQ2008 (LETOR 4.0) is the suite's stand-in for the Gov collection, but it matches no single Gov
    column of Figure 3 (different collection, 46 features, ~8 documents per query), so it cannot be a
    ``stand_ins`` mapping: add it as an extra, labelled dataset of figure3 (no published counterpart)
    or as a separate artifact. Any "microaverage" including it is a new quantity.
12. Sec. 5.2's win counts ("ConvexLoss_MAP beats SVMMAP 26 out of 32 times", TOML ``[notes]``) can be
    re-derived from a reproduced Figure 3, e.g. as a ``check`` artifact.
"""
from ...experiment import Artifact, Paper

PAPER = Paper(
    id="dubey2009",
    title="Conditional Models for Non-smooth Ranking Loss Functions",
    authors="A. Dubey, J. Machchhar, C. Bhattacharyya, S. Chakrabarti", venue="ICDM 2009",
    text="001_6d8b563b3ae0bb43.txt")

NOTES = [
    "Fig. 2 (the swap sampler) lost symbols in the PDF conversion. Lines 7 and 9, the flip "
    "probability θ, are reconstructed from Sec. 4.2 and the requirement 0 < θ < 1 as "
    "θ = (n⁻ − n_g + n_b + 1)/(2 + n⁺ + n⁻) when y_in[idx] = +1 (line 7) and "
    "θ = (n⁺ + n_g − n_b + 1)/(2 + n⁺ + n⁻) otherwise (line 9; the 'else' of line 8 is implied). "
    "This is a reconstruction, not the paper's text.",
    "Data: LETOR 3.0 OHSUMED (QueryLevelNorm, official 5 folds) is available. The six LETOR 3.0 "
    "Gov sets (TD2003, TD2004, HP2003, HP2004, NP2003, NP2004) are not: their Figure 3 columns, the "
    "microaverage (query-weighted over all seven sets) and the HP2004 runs of Figs. 4–8 can only run "
    "when a user supplies them. Figs. 4–8 (sensitivity studies on HP2004) are declared with OHSUMED "
    "as a labelled stand-in; its numbers are not comparable with HP2004's. MQ2008 (LETOR 4.0) is the "
    "designated stand-in for the Gov collection but matches no single Gov column.",
    "Status: the method is not implemented yet; every published value is listed as "
    "'not run: not implemented yet' (or as a published baseline / unreadable value) — including the "
    "Gov columns, whose data are also missing: no run is attempted while no task is declared.",
    "Figure 3 was damaged by the PDF conversion: 25 of its 408 cells are unreadable ('?', listed as "
    "'published value unreadable'). Eight value lines whose row labels were lost or garbled are "
    "assigned to a method only where the row order and a consistency check against the other "
    "subtables agree (each such value carries a note); four lines stay 'unresolved-row-…' "
    "(ListNet or BoltzRank2 in NDCG@1 and NDCG@5, ExpGain_NDCG or L_3_AUC in NDCG@10, L_3_AUC or "
    "L_3_MAP in MAP). At least one row of each subtable is missing from the text, and NDCG@10 has "
    "no ListNet/BoltzRank2 line.",
    "Baselines: RankBoost and RankSVM were implemented and run by the authors, SVMmap apparently "
    "too (it is not said to be quoted), on the cleaned data: no row is copied from LETOR's published "
    "results (e.g. RankBoost OHSUMED NDCG@10 is 0.582 here, 0.4302 in LETOR's table as copied by "
    "stevens2010 Fig. 4), so these rows are to be rerun. ListNet and BoltzRank2 are quoted from "
    "Volkovs & Zemel (ICML 2009), run on uncleaned data, and are shown as published baselines "
    "(not rerun).",
    "Every Figure 3 row with a certain label and eight legible cells reproduces its printed "
    "microaverage to ±0.0005 when each set is weighted by its LETOR 3.0 query count (TD2003 50, "
    "TD2004 75, HP2003 150, HP2004 75, NP2003 150, NP2004 75, OHSUMED 106; derived check). "
    "Sec. 5.2's win counts over the 32 columns × metrics are not single reproducible numbers and "
    "are not listed as published values.",
]

_GOV = ("TD2003", "TD2004", "HP2003", "HP2004", "NP2003", "NP2004")
_METHODS = ("SVMmap", "Rankboost", "RankSVM", "MLE",
            "ExpGain_AUC", "ExpGain_MAP", "ExpGain_NDCG", "L_3_AUC", "L_3_MAP", "L_3_NDCG",
            "ConvexLoss_AUC", "ConvexLoss_MAP", "ConvexLoss_NDCG")
_FOLDS = (1, 2, 3, 4, 5)
# Sec. 5.3 sensitivity studies: HP2004 as in the paper (runs when supplied), OHSUMED as stand-in.
_SENS = dict(datasets=("HP2004", "OHSUMED"), stand_ins={"OHSUMED": "HP2004"}, folds=_FOLDS)

ARTIFACTS = [
    Artifact("dubey2009", "figure3",
             "Figure 3: MAP, NDCG@1, NDCG@5, NDCG@10 of the baselines, MLE, ExpGain, L_3 and ConvexLoss on LETOR 3.0",
             datasets=("OHSUMED",) + _GOV, folds=_FOLDS,
             metrics=("MAP", "NDCG@1", "NDCG@5", "NDCG@10"), methods=_METHODS,
             description="Test accuracy (5-fold LETOR cross-validation, C tuned on validation) of SVMmap, "
                         "RankBoost, RankSVM and the paper's MLE, ExpGain, L_3 and ConvexLoss (each trained for "
                         "AUC, MAP and NDCG) on the seven cleaned LETOR 3.0 sets, plus a query-weighted "
                         "microaverage; ListNet/BoltzRank2 values are quoted from Volkovs & Zemel (2009)."),
    Artifact("dubey2009", "figure4", "Figure 4: effect of the sample size |Ŷ| on test accuracy (HP2004, ConvexLoss_NDCG)",
             kind="figure", methods=("ConvexLoss_NDCG",), **_SENS,
             description="Test accuracy of ConvexLoss_NDCG as the number of sampled rankings per query grows "
                         "(Sec. 5.3.1): accuracy rises and is close to saturation at the sizes shown. The plot "
                         "is lost in the text; no numbers are published."),
    Artifact("dubey2009", "figure5", "Figure 5: effect of restart skew between Δ = 0 and Δ = 1 (HP2004, ConvexLoss_NDCG)",
             kind="figure", methods=("ConvexLoss_NDCG",), **_SENS,
             description="Accuracy when restarts are drawn with probability 0.9 toward Δ = 0, balanced, or 0.9 "
                         "toward Δ = 1, number of restarts and samples fixed (Sec. 5.3.2): skewing toward Δ = 0 "
                         "generally helps. The plot is lost in the text; no numbers are published."),
    Artifact("dubey2009", "figure6", "Figure 6: effect of restart skew with more than two restart states",
             metrics=("MAP", "NDCG@10"), methods=("ConvexLoss_NDCG",), **_SENS,
             description="MAP and NDCG@10 when restarts are drawn from handcrafted rankings of diverse Δ with "
                         "Pr(y) ∝ exp(kΔ(y)), k = 5, 0, −5, −10, −20 (Sec. 5.3.2): 'k ≪ 0 seems uniformly better'. "
                         "Learner and data set are not stated (assumed ConvexLoss_NDCG on HP2004, as in Figs. 4–5)."),
    Artifact("dubey2009", "figure7", "Figure 7: smear of the sampled Δ density for three restart seeds",
             kind="figure", **_SENS,
             description="Histogram of Δ over the final sample when the walks restart from Δ = 0, Δ ≈ 0.5 and "
                         "Δ = 1 (Sec. 5.3.3): the spread around Δ = 1 is much smaller than around Δ = 0. Data "
                         "set and loss are not stated (HP2004 assumed); no numbers are published."),
    Artifact("dubey2009", "figure8", "Figure 8: wᵀφ(x,y) against Δ(y) as w evolves",
             kind="figure", **_SENS,
             description="For 10 random queries × 10 arbitrary rankings, wᵀφ(x,y) averaged over the first 10 "
                         "optimiser iterations against the fixed Δ(y) (Sec. 5.3.4): wᵀφ quickly dominates Δ "
                         "except at w = 0. Data set not stated (HP2004 assumed); no numbers are published."),
    Artifact("dubey2009", "complexity",
             "Cost of the swap sampler (Fig. 2) and of the objectives against n⁺n⁻ (our figure)",
             kind="figure", datasets=("synthetic",),
             description="The paper gives no timings, only cost claims: the AUC objective and gradient are "
                         "polynomial via the Figure 1 identities (O(n⁺n⁻d) per query, derived) and the sampled "
                         "MAP/NDCG objectives cost O(|Ŷ|d) per query once Ŷ is drawn (Sec. 2.3, 4). This figure "
                         "measures sampler and objective time against n⁺n⁻ on seeded synthetic queries."),
]
