"""Stevens (2010), *Efficient Coordinate Descent for Ranking with Domination Loss* (MEng
thesis, MIT): the domination error (§1, eq. 1), its convex relaxation (§2, eq. 4–7), the layered
form (§3), separable margins (§4), ℓ1/ℓ2² regularisation (§5, eq. 8), coordinate descent with
cached margins, Z and μ (§6, Alg. 1–6) and feature induction (§7, eq. 9, Alg. 7); misprints
corrected as listed in ``../shared/papers/README.md``.

Artifacts are declared; the method is not implemented yet (no issue has asked for it), so the
report lists the published values (``stevens2010.toml``, 279 values) as "not run: not implemented
yet", and Figure 4's LETOR baseline columns as published baselines.

Published-value keys (see the comment at the top of ``stevens2010.toml``): ``dataset`` is the
catalog id of the thesis's data (LETOR ids; ``google-images``; ``rcv1-singhal``), with a
``:<subset>`` suffix where the thesis reports several subsets of one dataset
(``corel-pamir:Small-Easy``, ``corel-pamir:Small-Hard``, ``corel-pamir:Large-All``,
``rcv1-singhal:bigrams``) and ``LETOR-8`` for Figure 5's averages over the eight LETOR sets. A
task running on a stand-in gets records labelled with the ``stand_ins`` value (``google-images``,
``rcv1-singhal``); a Corel task must set the ``corel-pamir:<subset>`` label on its records itself.
Methods are ``DR-<variant as printed in that figure>``, ``PAMIR-<iterations>`` and the LETOR
baseline names; ``fold = "avg"`` only in Figure 4.

Open questions for the implementation
-------------------------------------
(Collected from ``notes/stevens2010.md``; each must be decided — and then stated in
``Artifact.choices`` — before the corresponding artifact gets a task.)

LETOR (Figures 4, 5; §8.1)
  * Folds: the thesis does not state them; LETOR's baselines are 5-fold averages (the published
    file keys Figure 4 as ``fold = "avg"``).
  * Pooling: L572 groups all training documents by layer "neglecting which query they came
    from" (one global domination problem); the per-query variant (β_r = Σ_q m_q B_{q,r}) is the
    alternative the thesis itself suggests (L625).
  * λ grid, regulariser type (ℓ1 / ℓ2²) and the separable-margin values of DR-Margin are chosen
    on the validation set; neither the grid nor the margin function is given.
  * Stopping: "decrease in loss at one sweep small compared to the initial change" (L532); the
    threshold is not given.
  * Gov labels are binary, so Layered and Flat are the same training problem there, yet Figure 4
    reports different values; the difference must come from model selection or training.
  * Feature version (QueryLevelNorm or other) is not stated; evaluation with the LETOR 3.0 tool
    (Eval-Score-3.0.pl, ties in file order) for LETOR 3.0 and Eval-Score-4.0 for MQ2007.
  * Figure 5 can be regenerated from our Figure 4 rows plus the published rows: which rows are
    substituted (only those actually run, i.e. OHSUMED here) and how ties are ranked (competition
    ranking reproduces the printed values exactly; average ranking does not).

Corel (Figures 6–8; §8.2), stand-in ``corel5k``
  * Split: Corel5k's official 4,500/500 split; the 500 validation images of Corel-Small's
    4,000/500/500 layout have to be carved out of the 4,500 training images (how, with which seed).
  * Query set: labels present in train, validation and test; Easy = ≥ 3 test images, Hard = the
    others (L649). No stand-in for Corel-Large-All (35,379 images).
  * The number of DR iterations ("the same number of iterations" for all variants), the
    feature-induction α (chosen by cross-validation, grid not given) and the reading of "top α
    features ∉ Chosen" in Alg. 7 (the overall top α minus chosen ones, or the α best unchosen).
  * Negative sampling for DR-Sampled: 10 % of negatives — sampled once per query or per round.
  * Figure 8 averages over "validation and test": pooled images or the mean of the two averages.
  * PAMIR: a re-implementation is needed (passive-aggressive on sampled triplets; 40K / 1M
    iterations; its regularisation constant on this data).

Measures
  * All-pairs error is not defined in the thesis: per query, the fraction of (dominating,
    dominated) pairs in the wrong order, averaged over queries; ties counted ½ or 0.
  * Domination error (eq. 1) uses a strict ">", so ties are not errors (w = 0 scores 0); layered
    reading for Google "Layers".
  * Weight density / "Percent Nonsparse": fraction of nonzero weights, averaged over the
    per-query models (Figures 7 and 8 differ for the same models, which suggests different query
    sets).

Google image set (Figures 9–15; §8.3), stand-in ``corel5k``
  * Keywords play the role of queries; the 1,000-query sample, the 10 cross-validation queries
    and the single query of Figures 13–15 (622 in the thesis) must be mapped to stand-in
    keywords.
  * Negative-sampling rate (not stated for Google), λ grid (the thesis selects λ = 0.03 with ℓ2²
    by minimum validation domination loss), the 3-layer split by feedback count and the margin
    s(i) = 200·r_i: Corel5k has no feedback counts, so Layers/Margin have no direct counterpart.
  * Up to 4M iterations per query; PAMIR 100M / 1B iterations (scaled to the stand-in).

Reuters (Figures 16–18; §8.4), stand-in ``rcv1-subsets``
  * The stand-in has LYRL2004 tf-idf vectors (neither Singhal nor bigram features); the
    50/25/25 % split, 10 % negative sampling, λ = 200 chosen by AP on 7 topics, DR regulariser
    type (not stated; PAMIR uses ℓ2²) and the 200k-iteration budget must be fixed for it.
  * Query 77 of Figure 17 cannot be identified (the ClassN → topic-code map of the MULAN subsets
    is unknown).
  * Figure 16's PAMIR values of the last three Singhal rows are attributed to 10M iterations by
    cell position; they may belong to the 100M run.

Numerics
  * s = 200·r_i makes e^{−s} underflow: margins kept in log space with the shift c of Alg. 6, or
    log-sum-exp for Z.
"""
from ...experiment import Artifact, Paper

PAPER = Paper(
    id="stevens2010",
    title="Efficient Coordinate Descent for Ranking with Domination Loss",
    authors="M. A. Stevens", venue="MEng thesis, MIT, 2010",
    text="000_8dd6a39b95c30745.txt")

NOTES = [
    "Published values are transcribed from the text version of the thesis "
    "(000_8dd6a39b95c30745.txt); 'line N' in a source is line N of that file.",
    "Figure 4: the RankSVM-Struct, ListNet, AdaRank-NDCG, AdaRank-MAP and RankBoost columns are "
    "LETOR's published baselines, copied by the thesis; they are shown as published and not rerun. "
    "RankSVM-Struct is given for MQ2007 only (printed N/A on the LETOR 3.0 rows). Figure 4's header "
    "is garbled in the text; the column order Layered, Flat, Margin, RankSVM-Struct, ListNet, "
    "AdaRank-NDCG, AdaRank-MAP, RankBoost is confirmed by Figure 5.",
    "Figure 5 (average ranks over the eight LETOR sets) is derived from Figure 4: all 21 printed "
    "ranks follow exactly from Figure 4 with 7 methods (RankSVM-Struct excluded), competition "
    "ranking of ties and rounding half to even.",
    "All PAMIR numbers (Figures 6-8, 10, 16) come from the author's own PAMIR runs, not from a "
    "publication; they are compared with a PAMIR run of ours, not shown as baselines.",
    "PAMIR's Corel feature sets were never public. Stand-in: MULAN Corel5k (5,000 images, 499 "
    "binary blob-cluster features, 374 keywords, official 4,500/500 split), whose features differ "
    "from PAMIR's; its numbers are labelled stand-in and are not comparable with the thesis's. "
    "Corel-Large-All (35,379 images) has no stand-in.",
    "The Google image set (2.3M training and 400K test images, 41,000 queries) was never public. "
    "Figures 9-15 use Corel5k as a stand-in (keywords as queries), for the protocol only.",
    "Reuters-2000 with Singhal or bigram features needs the raw RCV1 text, which is not available. "
    "Stand-in for the Singhal rows and Figures 17-18: the MULAN RCV1-v2 subsets (5 x 6,000 "
    "documents, LYRL2004 tf-idf over 47,236 terms, 101 topics). The 4M-bigram rows of Figure 16 "
    "(dataset rcv1-singhal:bigrams) have no stand-in.",
    "Dataset labels: catalog ids of the thesis's data; 'corel-pamir:<subset>' for the Corel "
    "subsets, 'rcv1-singhal:bigrams' for Reuters-2000 with bigram features, 'LETOR-8' for the "
    "averages of Figure 5. Method labels: 'DR-<variant>' as printed in each figure (Feature "
    "Induction and Feature Selection are both Alg. 7), 'PAMIR-<iterations>'.",
]

_LETOR = ("MQ2007", "OHSUMED", "TD2003", "TD2004", "HP2003", "HP2004", "NP2003", "NP2004")
_FOLDS = (1, 2, 3, 4, 5)
_COREL = {"datasets": ("corel5k",), "stand_ins": {"corel5k": "corel-pamir"}}
_GOOGLE = {"datasets": ("corel5k",), "stand_ins": {"corel5k": "google-images"}}
_REUTERS = {"datasets": ("rcv1-subsets",), "stand_ins": {"rcv1-subsets": "rcv1-singhal"}}

ARTIFACTS = [
    Artifact("stevens2010", "figure4",
             "LETOR: NDCG@5, NDCG@10 and P@10 of Domination Rank (Layered, Flat, Margin) and "
             "LETOR's published baselines",
             datasets=_LETOR, folds=_FOLDS,
             description="Test NDCG@5, NDCG@10 and P@10 (5-fold averages) on MQ2007, OHSUMED and the "
                         "six LETOR 3.0 Gov sets for three Domination Rank variants (§8.1), beside "
                         "RankSVM-Struct, ListNet, AdaRank-NDCG, AdaRank-MAP and RankBoost as "
                         "published with LETOR."),
    Artifact("stevens2010", "figure5",
             "LETOR: average ranks of the methods over the eight sets (derived from Figure 4)",
             datasets=_LETOR, folds=_FOLDS,
             description="For each measure of Figure 4, each of 7 methods (RankSVM-Struct excluded) "
                         "is ranked on each of the eight LETOR sets (1 = best) and the ranks are "
                         "averaged."),
    Artifact("stevens2010", "figure6", "Corel: average precision of PAMIR and Domination Rank",
             **_COREL,
             description="Mean over queries of the average precision of per-query models on "
                         "Corel-Small (Easy and Hard queries) and Corel-Large, for PAMIR (40K and 1M "
                         "iterations) and Domination Rank with feature induction, with feature "
                         "induction on 10% of the negatives (Sampled) and the basic cyclic algorithm "
                         "(Sequential) (§8.2)."),
    Artifact("stevens2010", "figure7", "Corel-Small-Easy details (test set)", **_COREL,
             description="Domination error, all-pairs error and fraction of nonzero weights on the "
                         "test set, averaged over the Corel-Small-Easy query models of Figure 6 "
                         "(PAMIR 1M iterations and the three Domination Rank variants)."),
    Artifact("stevens2010", "figure8", "Corel-Small-Easy details (validation and test sets)",
             **_COREL,
             description="The measures of Figure 7 for the same models, averaged across the "
                         "validation and test sets."),
    Artifact("stevens2010", "figure9", "Google image set: cross-validation of the regularisation weight",
             kind="figure", **_GOOGLE,
             description="Validation domination loss and average precision against λ for ℓ1 and ℓ2² "
                         "regularisation on 10 queries (§8.3.2); the thesis selects λ = 0.03 with ℓ2². "
                         "A plot without printed numbers."),
    Artifact("stevens2010", "figure10", "Google image set, 1,000 queries: averaged results", **_GOOGLE,
             description="Average precision, P@10, domination error, all-pairs error and weight "
                         "density averaged over 1,000 per-query models, for PAMIR (100M and 1B "
                         "iterations) and Domination Rank with feature selection, with 3 layers of "
                         "positives, with the margin s(i) = 200·r_i, and the basic algorithm."),
    Artifact("stevens2010", "figure11", "Google image set: per-query performance, Domination Rank vs PAMIR",
             kind="figure", **_GOOGLE,
             description="Scatter of per-query performance of Domination Rank against PAMIR, with the "
                         "line of equal performance. A plot without printed numbers."),
    Artifact("stevens2010", "figure12", "Google image set: per-query performance without outliers",
             kind="figure", **_GOOGLE,
             description="The scatter of Figure 11 with outliers removed. A plot without printed numbers."),
    Artifact("stevens2010", "figure13", "Single Google query (622): performance against λ",
             kind="figure", **_GOOGLE,
             description="Test loss and average precision of one query's model against the "
                         "regularisation weight λ, for ℓ1 and ℓ2². A plot without printed numbers."),
    Artifact("stevens2010", "figure14", "Single Google query (622): weight density and iterations against λ",
             kind="figure", **_GOOGLE,
             description="Weight density and the number of training iterations to convergence "
                         "against λ, for ℓ1 and ℓ2². A plot without printed numbers."),
    Artifact("stevens2010", "figure15", "Single Google query (622): performance during training",
             kind="figure", **_GOOGLE,
             description="Loss and average precision over the course of training (feature-induction "
                         "rounds) at the λ with the best average precision. A plot without printed "
                         "numbers."),
    Artifact("stevens2010", "figure16", "Reuters-2000, 101 topics: averaged results", **_REUTERS,
             description="Average precision and P@10 (bigram features), and average precision, P@10, "
                         "domination error, all-pairs error and weight density (Singhal features), "
                         "averaged over 101 per-topic models, for PAMIR and Domination Rank with "
                         "feature selection (§8.4)."),
    Artifact("stevens2010", "figure17", "Single Reuters topic (77), Singhal features: performance details",
             kind="figure", **_REUTERS,
             description="Performance against the regularisation weight, and over the course of "
                         "training at the best regularisation, for one topic model. A plot without "
                         "printed numbers."),
    Artifact("stevens2010", "figure18", "Reuters-2000: per-topic performance, Domination Rank vs PAMIR",
             kind="figure", **_REUTERS,
             description="Per-topic performance of Domination Rank against PAMIR, and against the "
                         "topic index (topic frequency decreasing). A plot without printed numbers."),
    Artifact("stevens2010", "text", "Numbers stated in the running text (§7, §8.3.2, §8.4.2)",
             kind="check", datasets=("corel5k", "rcv1-subsets"),
             stand_ins={"corel5k": "google-images", "rcv1-subsets": "rcv1-singhal"},
             description="Claims made in the text outside the figures: the validation AP gain of the "
                         "margin variant on the Google set, the 700 nonzero weights of a sparse image "
                         "model, and the sparsity of the Reuters models of Domination Rank and PAMIR."),
    Artifact("stevens2010", "complexity",
             "Training time against the number of instances (our figure)",
             kind="figure", datasets=("synthetic",),
             description="Time of a coordinate-descent sweep against the number of instances and "
                         "layers, checking the linear cost in the number of instances (not pairs) "
                         "claimed in §2 and §3 (L172, L263)."),
]
