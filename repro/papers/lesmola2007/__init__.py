"""Le & Smola (2007), *Direct Optimization of Ranking Measures* (arXiv:0704.3359): DORM,
structured estimation with column generation (Alg. 1/2, Sec. 2 and 4.4), where the most violated
constraint is a linear assignment problem (eq. 22–24, Sec. 4.2–4.3). The measures are WTA, MRR,
DCG/NDCG, Precision@n and ERU, each written as an inner product <a(π), b(y)> (eq. 9–16).

Method: :mod:`repro.rankers.dorm` (DORM, Algorithm 2) on the n-slack structural SVM of
:mod:`repro.rankers.structsvm` (QP kernel ``kernels/structsvm.pyx``), the most violated
constraint by :mod:`repro.rankers.assignment` (kernel ``kernels/assignment.pyx``); baselines
:mod:`repro.rankers.svmperf` (ROCArea, Prec@k of Joachims 2005), :mod:`repro.rankers.linear_svm`,
the suite's RankSVM and :mod:`repro.rankers.single_feature` (BM25).  Tasks: :mod:`.tasks`;
figures: :mod:`.figures`; the assignment benchmark: ``python -m repro bench assignment``.
Every open question below is decided in ``CHOICES`` (shown with each artifact).

Published values are in ``lesmola2007.toml``. That file's header says how they are encoded:
* "mean±spread" cells are split into metrics M and "M ±";
* Table 2 blocks, Table 3 experiments and Table 4 N are kept in the metric;
* Table 4's Yu et al. (2006) rows are baselines;
* the p<0.0001 bounds and the figure claims of the text are in its [notes].

Data: the UCI sets page-blocks, pendigits and optdigits are in the catalog and verified. Covertype
is in the catalog but not in the shared data directory. The Microsoft web-search data
("web-search-lesmola") was never public; LETOR 4.0 MQ2008 stands in for it. EachMovie is no
longer distributed.

Open questions of the paper (each decided in ``CHOICES`` below and shown in the report)
* UCI → queries (Sec. 6.1–6.2, Table 1): how a class label becomes a relevance grade. It could be
  the class index as a grade, or one class relevant against the rest per query. The binary
  Prec@10 and ROCArea losses of Joachims (2005) need binary labels. Also open:
  * whether queries of 100 documents are drawn with or without replacement, and from which
    split (pendigits and optdigits have official tra/tes files; page-blocks is one file);
  * how the 50 (Covertype: 500) queries are divided into training and test;
  * over what the "10-fold cross-validation" for C runs, and what grid of C it uses;
  * what ± and the paired t-test are computed over;
  * whether features are scaled;
  * what "SVM classification" ranks by (its decision value? one-vs-rest?).
* Log base of the DCG discount 1/log(i+1) (eq. 11). It cancels in NDCG but not in DCG or in the
  loss scale against C. The Fig. 4 scheme 1/log log(i+2) is positive and decreasing for ln and
  log2, but negative at i = 1 for log10.
* Gains: web-search grades are printed as 1 (Bad) … 5 (Perfect) (l.428), so it is open whether
  2^r − 1 uses r = 1..5 or 0..4. MQ2008 has 0/1/2.
* Queries whose ideal DCG is 0: 220 of MQ2008's 784 queries have only label 0. NDCG is undefined
  for them; the LETOR tool scores them 0. Their loss Δ is identically 0, so they add no
  constraints in training.
* MRR (eq. 10) assumes exactly one top document (b_i = δ(i, 1)). MQ2008 queries often have
  several documents with the top label. The literal choice is the first document after a stable
  sort. The standard choice is 1/rank of the first top-label (or label > 0) document, but that
  is not linear in π, so the oracle is no longer a single assignment problem.
* WTA (eq. 9, Fig. 6): b_i = δ(r_i, r_1) counts any top-label document. Fig. 6 plots the "total
  number of correct predictions" (a count over test queries). Queries with all labels 0 count as
  correct trivially. mWTA's truncation heuristic (l.489) has no case for exactly two levels in
  the top 3 ("more than 2 level", "only one level").
* ERU (eq. 16, Table 3): the neutral vote d and the half-life α are not given; they are taken
  from the Basilico & Hofmann (2004) protocol, which is not restated. It is not said whether
  Table 3 is raw or normalised ERU, nor which c_i was used. The features and kernels of
  experiments 1 and 2 are not restated either.
* Algorithm 1/2: the violation test prints Δ(y_i, z) for Δ(y_i, z*). Φ(x_i, z) must be read as
  Φ(x_i, z) − Φ(x_i, z_i). The tolerance ε and the C grids are not given. What counts as a
  "support vector" (constraints with α > 0, over all queries) and an "iteration" (a full pass
  over the queries) in Table 2 must be fixed. "% in QP" depends on the QP solver; the paper used
  SVMstruct's.
* Web-search sample sizes (Fig. 3, 5, 6): m ∈ {100, 300, 500, 700, 1000} "first m queries". An
  MQ2008 fold has about 470 training queries, so the grid must be cut (e.g. 100, 200, 300, all)
  and "first" read as file order.
* Fig. 4: "maximum difference" is presumably max − min of NDCG@10 over the 8 c-schemes at each
  m, plotted against 1/√m.
* Fig. 5 compares "eight methods". The list (BM25, SVM, RSVM, SVM-IR-QP, ROCArea, Precision@3,
  DORM (NDCG), DORM (MRR)) is inferred from the text.
* Baselines on web search: BM25 as a single feature (which MQ2008 feature?), multiclass SVM,
  RSVM, SVM-IR-QP (Cao et al. 2006), and the Precision@n / ROCArea SVMperf losses. Each must be
  implemented or declared out of scope.
* EachMovie (Table 4): the filtering to 100 users × 1075 movies and the kernel follow Yu et al.
  (2006) and are not restated. Also open: which items count as "the rest" predicted, and
  whether NDCG is over all predicted items.
"""
from ...experiment import Artifact, Custom, FoldMean, Paper
from .tasks import UCI, UCI_METHODS, UCI_REFERENCE, WEB

PAPER = Paper(
    id="lesmola2007",
    title="Direct Optimization of Ranking Measures",
    authors="Q. V. Le, A. J. Smola", venue="arXiv:0704.3359, 2007",
    text="003_96ad0f5ad667baf7.txt",
    summary="DORM learns a linear scoring function by large-margin structured estimation over "
            "permutations: the loss is the ranking measure itself (NDCG@n, MRR, WTA, "
            "Precision@n, ERU as <a(π), b(y)>), the feature map weights documents by a "
            "decreasing sequence c over positions, and the most violated constraint of the "
            "column-generation algorithm is a linear assignment problem.")

UCI_PARAMS = {"queries": {"page-blocks": 50, "pendigits": 50, "optdigits": 50,
                          "covertype": 500},
              "docs": 100, "folds": 10, "grid": [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0],
              "methods": [*UCI_METHODS, UCI_REFERENCE]}
WEB_METHODS = ["BM25", "SVM", "RSVM", "ROCArea", "Precision@10", "Precision@3", "DORM (NDCG)",
               "DORM (MRR)", "DORM (WTA)", "DORM (mWTA)"]
WEB_PARAMS = {"sizes": {"MQ2008": [100, 200, 300, "all"], "OHSUMED": [20, 40, "all"]},
              "grid": [0.01, 0.1, 1.0, 10.0], "methods": WEB_METHODS, "c_schemes": True}
PARAMS = {"uci": UCI_PARAMS, "web": WEB_PARAMS}
FOLDS = {**{d: tuple(range(1, 11)) for d in UCI}, **{d: (1, 2, 3, 4, 5) for d in WEB}}
QUICK = {"folds": {**{d: (1,) for d in UCI}, **{d: (1,) for d in WEB}},
         "params": {"uci": {**UCI_PARAMS, "grid": [0.1, 10.0]},
                    "web": {"sizes": {"MQ2008": [100, "all"], "OHSUMED": [20, "all"]},
                            "grid": [0.1, 1.0], "methods": WEB_METHODS, "c_schemes": True}}}
_WEB = {"MQ2008": "web-search-lesmola"}

CHOICES_UCI = (
    "UCI protocol (the one an independent implementation found to reproduce the published "
    "pattern): the official train and test files are pooled (digits), every attribute is "
    "min–max scaled to [0, 1] over the pooled set, and the relevance grade is the class "
    "index (Page Blocks classes 1..5 → grades 0..4, digits 0..9 → 0..9).",
    "Queries: 50 (Covertype 500) of 100 documents, each query drawn without replacement from "
    "the whole set, queries independently (a document may recur across queries); the draw is "
    "seeded by the dataset's name, so all folds share it.",
    "10-fold cross-validation over queries (45 train / 5 test); every method is fitted for "
    "every C ∈ {0.01, 0.1, 1, 10, 100, 1000} on the 45 queries and C is chosen by the mean "
    "test NDCG@10 over the 10 folds (the paper's 'cross validation was used to adjust C'; "
    "ties: smaller C). The table shows the mean over the folds at that C and, after ±, the "
    "sample standard deviation over the 10 folds (ddof = 1). The selection makes the mean "
    "slightly optimistic for every method alike.",
    "NDCG@10 is eq. (14): gain 2^r − 1, discount 1/log2(i+1), ×100; ties in scores keep "
    "document order.",
    "DORM: NDCG@10 loss, c_i = 1/(i+1), ε = 0.01 (Algorithm 2's tolerance on a constraint's "
    "violation, losses in [0, 1]); the working-set QP is solved to a duality gap ≤ ε/10 per "
    "query (gap ≤ 0.001·C·m).",
    "Binary baselines (ROCArea, Prec@10, SVM): a document is relevant iff its grade is ≥ 1 "
    "(the LETOR convention of P@k and MAP, also used on the web-search stand-ins); queries "
    "without both kinds carry no constraint.",
    "ROCArea and Prec@10 are the per-query (n-slack) structural SVMs of Joachims (2005) in "
    "DORM's framework (same QP, same ε); Prec@k follows SVMperf's argmax (at least k "
    "positive predictions, loss 1 − precision). SVM is an L2-loss linear SVM with a "
    "regularised bias (LIBLINEAR's primal problem, by the suite's TRON, ε = 10⁻³), ranking "
    "by its decision value; the paper used SVMlight (hinge loss).",
    "Paired t-test (bold in Table 1): DORM against each baseline over the 10 folds at the "
    "chosen C's (claims artifact).",
    "Computed context (ours, not in the paper): least squares on the NDCG gains 2^r − 1 "
    "(ridge, ‖w‖²/C on the same C grid, chosen the same way) on the same queries and folds. "
    "It has no ranking loss, so where it lands near DORM the set is that easy under this "
    "protocol; it is not a baseline of the paper and enters neither the claims nor the "
    "t-tests.",
)
CHOICES_DORM = (
    "Label ties make the ideal permutation z_i ambiguous: Φ(x_i, z_i) is the mean of Φ over "
    "all ideal orderings (each document weighted by the mean of c over its label group's "
    "positions). A valid convex upper bound (Lemma 1 averaged over the minimisers of Δ), "
    "independent of document order.",
    "Queries whose loss cannot vary (one relevance level) have no constraint: any ordering "
    "minimises Δ, and Lemma 1 with z_0 = the ordering w prefers gives ξ = 0.",
    "Algorithm 2: a pass visits the queries in a canonical order (independent of file "
    "order); after each added constraint α_i is re-optimised (SMO), after each pass with "
    "additions the whole working-set QP (7) is solved to its gap (SMO sweeps, then a "
    "Mehrotra interior-point method); the violation test reads Δ(π*) (the text prints "
    "Δ(π)), Φ(x_i, π) is read as Φ(x_i, z_i) − Φ(x_i, π).",
    "Losses: NDCG@n as eq. (14) with log base 2 (it cancels); MRR with b = 1/k on each of "
    "the k top-label documents (the literal δ(i, 1) averaged over ideal orderings, still "
    "linear in π); WTA b = 1 on the top-label documents; mWTA truncation n = 3 if the ideal "
    "top 3 hold at least two levels, else the position of the first lower-level document "
    "(the text leaves 'exactly two levels' open: read as the complement of its 'only one "
    "level'); c schemes with natural logarithms (1/log log(i+2) > 0 for every i ≥ 1).",
)
CHOICES_WEB = (
    "The Microsoft web-search data was never public: LETOR 4.0 MQ2008 (5 official folds; its "
    "values are set beside the published ones, marked stand-in) and LETOR 3.0 OHSUMED (shown "
    "as a second stand-in) replace it. MQ2008 has 3 levels (0/1/2), median 8 documents per "
    "query, ~470 training queries per fold.",
    "Sample sizes: the first m training queries in file order, m ∈ {100, 200, 300, all} on "
    "MQ2008 and {20, 40, all} on OHSUMED (the paper's 100…1000 do not fit these folds).",
    "C ∈ {0.01, 0.1, 1, 10} fitted on train, chosen on vali by the artifact's criterion "
    "(NDCG@10 for Figures 2–4 and Table 2 top, MRR for Figure 5 and Table 2 bottom, WTA for "
    "Figure 6); ties go to the smaller C. Test measures: the official LETOR evaluation "
    "(NDCG@k as Eval-Score-4.0/3.0: all queries, a query without relevant documents scores "
    "0); MRR = 1/rank of the first top-label document, WTA = top document has the query's "
    "top label, both over queries with two levels or more; Figure 6 counts the correct test "
    "queries.",
    "Methods: BM25 = one feature (MQ2008: LETOR 4.0 feature 25, BM25 of the whole document; "
    "OHSUMED: LETOR 3.0 feature 41, BM25 of title+abstract); SVM = binary L2-loss linear SVM "
    "(label ≥ 1 relevant) standing in for the multiclass SVM; RSVM = the suite's L2-loss "
    "RankSVM; ROCArea, Precision@10, Precision@3 as in Table 1; DORM (NDCG) with c_i = "
    "(i+1)^-1/2, DORM (MRR) with c_i = 1/(i+1), DORM (WTA) and DORM (mWTA) with c_i = "
    "1/√(i+1). SVM-IR-QP (Cao et al. 2006) is not implemented.",
    "ε = 0.01 and the QP gap ≤ ε/10 per query for every structural method.",
)
CHOICES_TIME = (
    "Times are wall-clock seconds of fitting the whole grid of C and scoring every candidate "
    "on the validation split (a few ms per candidate; for BM25 that scoring is all of it), on "
    "one core (single-threaded BLAS), on this machine, concurrently with other runs; the "
    "paper's were C code on a "
    "Pentium 4. Only the order of the methods can be compared.",
    "Table 2: '# SVs' = constraints with α > 0 that are tight at the solution (complementary "
    "slackness within the QP tolerance), over all queries; '# Iter' = passes of Algorithm 2 "
    "over the queries (the last, which adds nothing, included); '% in QP' = share of the "
    "training time spent solving the QP (block SMO, sweeps and interior point), of the model "
    "chosen on vali; fold means.",
)

NOTES = [
    "Table 1 follows the protocol stated in the issue (an independent implementation found it "
    "to reproduce the published pattern); its choices are listed under the table. Covertype "
    "is not in the shared data directory.",
    "The commercial web-search data was never public; LETOR 4.0 MQ2008 stands in for it "
    "(median 8 documents per query instead of ~50, 3 relevance levels instead of 5, ~470 "
    "training queries per fold instead of 1000, 220 of 784 queries with only label 0), with "
    "LETOR 3.0 OHSUMED as a second stand-in.",
    "EachMovie was withdrawn in 2004: Tables 3 and 4 list the published numbers as not run. "
    "Table 4's Yu et al. (2006) rows are shown as published baselines.",
    "Cells printed as 'mean±spread' are two values: the mean (metric M) and the number after ± "
    "(metric 'M ±'); we report the sample standard deviation over the folds there.",
    "NDCG and MRR are on the paper's 0–100 scale (Sec. 6.1).",
    "All seven figures are images in the source text: no plotted value can be read. Their "
    "statements in the text are checked in the claims artifact.",
    "Table 4 p-values printed as 'p<0.0001' are bounds, not numbers: they are kept as text; "
    "p=0.0006, 0.8706 and 0.006 are listed as values.",
    "The text of Sec. 6.6 (l.552) says 'Table 4' for the ERU results, which are Table 3. It "
    "also writes 'CPR' for CGPR (l.560).",
    "DORM's most violated constraint is solved exactly (kernels/assignment.pyx, tested against "
    "brute force over all permutations and scipy): documents laid out by decreasing score are "
    "optimal where a_j = 0 or b_i = 0, so only min(|positions with a_j ≠ 0|, |documents with "
    "b_i ≠ 0|) rows need an augmenting path (10 for NDCG@10, 1 for MRR with one top "
    "document).",
    "On MQ2008 the label-tie relaxation is loose: most documents are irrelevant, and the "
    "convex bound charges the spread of their scores (the oracle reorders a tie group freely, "
    "Φ(x_i, z_i) averages over it). On fold 1 Σ ξ stays at 268.7 (≈ the loss at w = 0) for "
    "C = 0.01…1 while ‖w‖ stays below 0.11, so DORM ranks below the pairwise and "
    "classification baselines there; on the UCI sets (about 10 documents per grade) it does "
    "not. Choosing z_i as the ideal ordering w prefers (DORM(ties='latent'), a concave-convex "
    "procedure, not the paper's convex problem) lifts fold 1's validation NDCG@10 at C = 0.1 "
    "from 0.183 to 0.223 within 3 rounds (‖w‖ 0.04 → 0.74), level with RankSVM (0.225), but "
    "needs a full solve per round (110 s for 50 rounds), beyond this protocol's time budget: "
    "the figures use the convex averaged bound.",
]

_UCI_DS = tuple(UCI)
_WEB_DS = tuple(WEB)


def _fold_art(name, title, kind="table", **kw) -> Artifact:
    datasets = kw.pop("datasets", _WEB_DS)
    return Artifact("lesmola2007", name, title, kind=kind, datasets=datasets,
                    stand_ins=_WEB if any(d in WEB for d in datasets) else {},
                    task="task_fold", folds=FOLDS, params=PARAMS, quick=QUICK, **kw)


_WEB_AGG = (FoldMean(),)

ARTIFACTS = [
    _fold_art("table1", "Performance on UCI data (NDCG@10 of ROCArea, SVM, Prec@10, DORM)",
              datasets=_UCI_DS, aggregate=(Custom("uci_select"),),
              select={"metric": ["NDCG@10", "NDCG@10 ±", "C (chosen by 10-fold CV)",
                                 "paired t-test p-value"]},
              methods=tuple(UCI_METHODS), metrics=("NDCG@10",),
              description="NDCG@10 (×100) of DORM with c_i = 1/(i+1) against SVM classification "
                          "and the ROCArea and Prec@10 structural SVMs of Joachims (2005), on "
                          "queries of 100 documents sampled from UCI classification sets (Sec. "
                          "6.1–6.2): mean over the 10 folds at the C chosen by cross-validation, "
                          "the standard deviation over the folds (±), the chosen C, the folds' "
                          "values and the paired t-tests of DORM against each baseline.",
              choices=CHOICES_UCI + CHOICES_DORM[:2]),
    Artifact("lesmola2007", "figure1", "Number of documents per query (web-search data)",
             kind="figure", datasets=_WEB_DS, stand_ins=_WEB, task="task_docs_per_query",
             figure="figure_docs_per_query",
             description="Histogram of documents per query of the stand-ins (every query of "
                         "the data set). The text says the median of the Microsoft data is "
                         "approximately 50 (l.428).",
             choices=CHOICES_WEB[:1]),
    _fold_art("figure2", "NDCG@n on web search at truncation levels n = 1..10", kind="figure",
              aggregate=_WEB_AGG, figure="figure_ndcg_at_n",
              select={"metric": [f"NDCG@{k}" for k in range(1, 11)],
                      "method": ["BM25", "SVM", "RSVM", "ROCArea", "Precision@10",
                                 "DORM (NDCG)"]},
              description="Test NDCG@n (×100), n = 1..10, of BM25, SVM, RSVM, ROCArea, "
                          "Precision@10 and DORM (c_i = (i+1)^-1/2), trained on the full "
                          "training split, C chosen on vali by NDCG@10; fold means. The text "
                          "says DORM beats the others by 2–3% (l.462).",
              choices=CHOICES_WEB + CHOICES_DORM),
    _fold_art("figure3", "NDCG@10 on web search for different numbers of training queries",
              kind="figure", aggregate=_WEB_AGG, figure="figure_by_size",
              select={"series": ["NDCG@10 by m"],
                      "method": ["BM25", "SVM", "RSVM", "ROCArea", "Precision@10",
                                 "DORM (NDCG)"]},
              description="Test NDCG@10 (×100) after training on the first m queries, with the "
                          "methods and c of Figure 2; fold means. The text says doubling m "
                          "raises NDCG by less than 1% for many methods, and that DORM with "
                          "100 queries beats all others with 1000 (l.464).",
              choices=CHOICES_WEB),
    _fold_art("figure4", "Maximum difference in NDCG@10 between choices of c, against 1/√m",
              kind="figure", aggregate=(Custom("c_spread"),), figure="figure_c_spread",
              select={"method": ["DORM (8 c schemes)"]},
              description="Max − min over the eight c schemes (c_i = (i+1)^-d, d ∈ {1/4, 1/3, "
                          "1/2, 1, 2, 3}, 1/log(i+2), 1/log log(i+2)) of DORM's fold-mean test "
                          "NDCG@10 (×100), at each training size m, against 1/√m. The text "
                          "says the spread shrinks as m grows, suspected at rate 1/√m (l.470).",
              choices=CHOICES_WEB + CHOICES_DORM[3:]),
    _fold_art("figure5", "MRR on web search for different numbers of training queries",
              kind="figure", aggregate=_WEB_AGG, figure="figure_by_size",
              select={"series": ["MRR by m"],
                      "method": ["BM25", "SVM", "RSVM", "ROCArea", "Precision@3",
                                 "DORM (NDCG, c=(i+1)^-1)", "DORM (MRR)"]},
              description="Test MRR (×100) of BM25, SVM, RSVM, ROCArea, Precision@3, DORM (NDCG) "
                          "and DORM (MRR), both with c_i = 1/(i+1) (seven of the paper's eight "
                          "methods: SVM-IR-QP is not implemented), C chosen on vali by MRR. "
                          "The text says DORM (MRR) beats the others by 1% to 2% (l.483).",
              choices=CHOICES_WEB + CHOICES_DORM[3:]),
    _fold_art("figure6",
              "WTA (\"I'm feeling lucky\") on web search for different numbers of training queries",
              kind="figure", aggregate=_WEB_AGG, figure="figure_by_size",
              select={"series": ["WTA correct by m"],
                      "method": ["BM25", "SVM", "ROCArea", "Precision@3", "DORM (NDCG)",
                                 "DORM (WTA)", "DORM (mWTA)"]},
              description="Number of test queries (with two levels or more) whose first document "
                          "has the query's top label, C chosen on vali by WTA; fold means. DORM "
                          "minimising WTA directly and mWTA (c_i = 1/√(i+1)) against the "
                          "baselines; RSVM is left out as in the paper (l.491).",
              choices=CHOICES_WEB + CHOICES_DORM[3:]),
    _fold_art("figure7", "Runtime of DORM (NDCG and MRR) against other algorithms",
              kind="figure", aggregate=_WEB_AGG, figure="figure_runtime",
              select={"metric": ["training seconds (grid of C)"],
                      "method": ["BM25", "SVM", "RSVM", "ROCArea", "Precision@10",
                                 "Precision@3", "DORM (NDCG)", "DORM (MRR)"]},
              description="Training time over the grid of C on the full training split (our "
                          "machine, Python + Cython). The text says DORM is faster than all but "
                          "multiclass SVM and BM25, and that ordinal regression is much slower "
                          "(l.504).",
              choices=CHOICES_WEB + CHOICES_TIME),
    _fold_art("table2",
              "Support vectors, column-generation iterations and % of time in the QP (web search)",
              aggregate=(FoldMean(label=None),),          # the paper's cells have no fold
              select={"metric": [f"{w} ({b})" for w in ("# SVs", "# Iter", "% in QP")
                                 for b in ("NDCG@10 optimization", "MRR optimization")]},
              description="For each structural method, of the model chosen on vali: support "
                          "vectors, passes of Algorithm 2 and the share of training time in the "
                          "QP. Top block: NDCG@10 (DORM c_i = 1/√(i+1)), bottom block: MRR "
                          "(DORM c_i = 1/(i+1)) (caption l.517).",
              choices=CHOICES_WEB + CHOICES_TIME),
    Artifact("lesmola2007", "table3", "Expected rank utility on EachMovie",
             datasets=("eachmovie",), task="task_eachmovie",
             description="ERU of PRank, JRank and DORM under the Basilico & Hofmann (2004) "
                         "protocol: 100 trials, 100 training users, 2000 input users, 800 training "
                         "items (l.521, l.552). Not run: EachMovie was withdrawn, and the "
                         "protocol's kernels are not restated.",
             choices=("ERU's neutral vote and half-life (eq. 16) are implemented as DORM "
                      "parameters (eru_neutral, eru_halflife), but no EachMovie run exists.",)),
    Artifact("lesmola2007", "table4", "NDCG and NDCG@10 optimisation on EachMovie",
             datasets=("eachmovie",), task="task_eachmovie",
             description="Yu et al. (2006) protocol: 100 users × 1075 movies, N = 10, 20 or 50 "
                         "labelled items per user, 10 repetitions; DORM with c_i = (i+1)^-0.25, "
                         "C = 0.01, n = 10 (l.558–562). GPR, CGPR, GPOR, CGPOR and MMMF are "
                         "copied from Yu et al. and shown as published baselines. Not run: "
                         "EachMovie was withdrawn."),
    _fold_art("claims", "Claims of Sec. 6 checked on the data available", kind="check",
              datasets=_UCI_DS + _WEB_DS, aggregate=(Custom("claims"),),
              select={"method": ["Table 1", "Sec. 6.3", "Sec. 6.4", "Sec. 6.5"]},
              description="Each claim of the experiments that the available data can test, with "
                          "the numbers behind its verdict (value 1 = holds, 0 = does not): DORM "
                          "above every baseline on each UCI set and significantly so (Table 1); "
                          "DORM (NDCG) best in NDCG@10, and with the smallest training size "
                          "above the others with all queries (Sec. 6.3); DORM (MRR) best in "
                          "MRR and mWTA above WTA (Sec. 6.4); DORM faster than the ordinal "
                          "regression and SVMperf methods (Sec. 6.5). Web claims are checked on "
                          "the stand-ins.",
              choices=CHOICES_UCI[2:3] + CHOICES_WEB[:3]),
    Artifact("lesmola2007", "complexity",
             "DORM training time against queries and documents per query (our figure)",
             kind="figure", datasets=("synthetic",), task="task_complexity", timing=True,
             params={"queries": [25, 50, 100, 200, 400], "docs": [25, 50, 100, 200],
                     "base_queries": 100, "base_docs": 50, "features": 20, "C": 1.0,
                     "repeats": 2},
             quick={"params": {"queries": [10, 20, 40], "docs": [10, 20, 40],
                               "base_queries": 20, "base_docs": 20, "features": 10, "C": 1.0,
                               "repeats": 1}},
             figure="figure_complexity",
             description="Not a figure of the paper. Wall time of one DORM fit (NDCG@10, "
                         "c_i = 1/(i+1), C = 1, ε = 0.01) on seeded synthetic queries (20 "
                         "features, 3 levels), varying the number of queries (50 documents "
                         "each) and the documents per query (100 queries), with the shares of "
                         "the time spent in the assignment kernel and in the QP. The paper "
                         "argues that queries of 50–200 documents keep the O(l³) assignment "
                         "cheap (Sec. 4.3, 6.5). The kernel against scipy and lap is the "
                         "benchmark's (`python -m repro bench assignment`).",
             choices=("Fastest of 2 fits per size; single-threaded BLAS; run alone (timing).",
                      "The assignment time is measured around the kernel call (including its "
                      "Python wrapper); the QP time includes block SMO, sweeps and the "
                      "interior-point solves.")),
]
