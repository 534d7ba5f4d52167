"""Le & Smola (2007), *Direct Optimization of Ranking Measures* (arXiv:0704.3359): DORM,
structured estimation with column generation (Alg. 1/2, Sec. 2 and 4.4), where the most violated
constraint is a linear assignment problem (eq. 22–24, Sec. 4.2–4.3). The measures are WTA, MRR,
DCG/NDCG, Precision@n and ERU, each written as an inner product <a(π), b(y)> (eq. 9–16).

Artifacts are declared; the method is not implemented yet (no issue has asked for it). Every
published value is in ``lesmola2007.toml``, so the report lists each one as "not run" with its
source. That file's header says how the values are encoded:
* "mean±spread" cells are split into metrics M and "M ±";
* Table 2 blocks, Table 3 experiments and Table 4 N are kept in the metric;
* Table 4's Yu et al. (2006) rows are baselines;
* the p<0.0001 bounds and the figure claims of the text are in its [notes].

Data: the UCI sets page-blocks, pendigits and optdigits are in the catalog and verified. Covertype
is in the catalog but not in the shared data directory. The Microsoft web-search data
("web-search-lesmola") was never public; LETOR 4.0 MQ2008 stands in for it. EachMovie is no
longer distributed.

Open questions for the implementation (the paper leaves these open; each must be decided, then
written in ``Artifact.choices`` and shown in the report)
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
from ...experiment import Artifact, Paper

PAPER = Paper(
    id="lesmola2007",
    title="Direct Optimization of Ranking Measures",
    authors="Q. V. Le, A. J. Smola", venue="arXiv:0704.3359, 2007",
    text="003_96ad0f5ad667baf7.txt")

NOTES = [
    "Not implemented yet: every published value is listed as 'not run', except the Table 4 values "
    "the paper copied from Yu et al. (2006), which are shown as published baselines.",
    "The commercial web-search data was never public; LETOR 4.0 MQ2008 is the stand-in "
    "(median 8 documents per query instead of ~50, 3 relevance levels instead of 5, "
    "~470 training queries per fold instead of 1000, 220 of 784 queries with only label 0).",
    "EachMovie is no longer distributed: Tables 3 and 4 run only when a user supplies it. "
    "UCI Covertype (a Table 1 row) is not in the shared data directory.",
    "Cells printed as 'mean±spread' are listed as two values: the mean (metric M) and the "
    "number after ± (metric 'M ±'). The paper never says what ± measures.",
    "NDCG and MRR are on the paper's 0–100 scale (Sec. 6.1).",
    "All seven figures are images in the source text: no plotted value can be read. Only the "
    "text's statements about them are kept (figure descriptions; lesmola2007.toml [notes]).",
    "Table 4 p-values printed as 'p<0.0001' are bounds, not numbers: they are kept as text "
    "(lesmola2007.toml [notes]); p=0.0006, 0.8706 and 0.006 are listed as values.",
    "The text of Sec. 6.6 (l.552) says 'Table 4' for the ERU results, which are Table 3. "
    "It also writes 'CPR' for CGPR (l.560).",
]

_WEB = {"MQ2008": "web-search-lesmola"}
_UCI = ("page-blocks", "pendigits", "optdigits", "covertype")

ARTIFACTS = [
    Artifact("lesmola2007", "table1",
             "Performance on UCI data (NDCG@10 of ROCArea, SVM, Prec@10, DORM)",
             datasets=_UCI,
             description="NDCG@10 (×100) of DORM with c_i = 1/(i+1), against SVM classification "
                         "and the ROCArea and Prec@10 structural SVMs of Joachims (2005). Queries "
                         "of 100 documents are sampled from UCI classification sets: 50 queries, "
                         "500 for Covertype (Sec. 6.1–6.2). How classes become relevance grades is "
                         "not stated."),
    Artifact("lesmola2007", "figure1", "Number of documents per query (web-search data)",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB,
             description="Histogram of documents per query. The text says the median is "
                         "approximately 50 (l.428); the stand-in MQ2008 has a median of 8 "
                         "(range 5–121)."),
    Artifact("lesmola2007", "figure2", "NDCG@n on web search at truncation levels n = 1..10",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB,
             description="Test NDCG@n (×100) of BM25, multiclass SVM, RSVM, SVM-IR-QP, "
                         "Precision@n, ROCArea and DORM (c_i = (i+1)^-1/2). All are trained on the "
                         "full training set, with C chosen on the validation set. The plot cannot "
                         "be read; the text says DORM beats the others by 2–3% (l.462)."),
    Artifact("lesmola2007", "figure3", "NDCG@10 on web search for different numbers of training queries",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB,
             description="Test NDCG@10 after training on the first m = 100, 300, 500, 700, 1000 "
                         "queries, with the methods and c of Figure 2. The text says that doubling m "
                         "raises NDCG by less than 1% for many methods, and that DORM with 100 "
                         "queries beats all others with 1000 (l.464)."),
    Artifact("lesmola2007", "figure4", "Maximum difference in NDCG@10 between choices of c, against 1/√m",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB,
             description="Spread of DORM's NDCG@10 over eight schemes: c_i = (i+1)^-d with "
                         "d ∈ {1/4, 1/3, 1/2, 1, 2, 3}, 1/log(i+2) and 1/log log(i+2) (l.468), "
                         "plotted against 1/√m. The text says the spread shrinks as m grows, "
                         "suspected at rate 1/√m (l.470)."),
    Artifact("lesmola2007", "figure5", "MRR on web search for different numbers of training queries",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB,
             description="Test MRR (×100) of eight methods, among them DORM (MRR), DORM (NDCG) and "
                         "Precision@3, with c_i = 1/(i+1) and m from 100 to 1000 (l.479–483). The "
                         "text says DORM (MRR) beats the other methods by 1% to 2%."),
    Artifact("lesmola2007", "figure6",
             "WTA (\"I'm feeling lucky\") on web search for different numbers of training queries",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB,
             description="Number of test queries whose first document has the top label. DORM "
                         "minimising WTA directly and mWTA (NDCG@n with a per-query truncation "
                         "heuristic, c_i = 1/√(i+1)) are compared with the baselines; RSVM and "
                         "SVM-IR-QP are left out (l.485–491)."),
    Artifact("lesmola2007", "figure7", "Runtime of DORM (NDCG and MRR) against other algorithms",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB,
             description="Training plus cross-validation time, without file I/O, on a Pentium 4 "
                         "3.2 GHz in C (l.504). The text says DORM is faster than all but multiclass "
                         "SVM and BM25, and that ordinal regression is much slower. On other data "
                         "and hardware, only the order of the methods can be compared."),
    Artifact("lesmola2007", "table2",
             "Support vectors, column-generation iterations and % of time in the QP (web search)",
             datasets=("MQ2008",), stand_ins=_WEB,
             description="For each SVM-style method: the number of support vectors, the number of "
                         "column-generation iterations, and the share of training time spent in the "
                         "QP solver. Top block: NDCG@10 optimisation with c_i = 1/√(i+1). Bottom "
                         "block: MRR optimisation with c_i = 1/(i+1) (caption l.517)."),
    Artifact("lesmola2007", "table3", "Expected rank utility on EachMovie",
             datasets=("eachmovie",),
             description="ERU of PRank, JRank and DORM under the Basilico & Hofmann (2004) "
                         "protocol: 100 trials, 100 training users, 2000 input users, 800 training "
                         "items. Experiment 1 uses user features with item correlations; experiment "
                         "2 uses item features with user ratings (l.521, l.552)."),
    Artifact("lesmola2007", "table4", "NDCG and NDCG@10 optimisation on EachMovie",
             datasets=("eachmovie",),
             description="Yu et al. (2006) protocol: 100 users × 1075 movies, with N = 10, 20 or 50 "
                         "labelled items per user and 10 repetitions. DORM uses c_i = (i+1)^-0.25, "
                         "C = 0.01, n = 10 (l.558–562). GPR, CGPR, GPOR, CGPOR and MMMF are copied "
                         "from Yu et al. and shown as published baselines."),
    Artifact("lesmola2007", "complexity", "Linear-assignment time against documents per query (our figure)",
             kind="figure", datasets=("synthetic",),
             description="Not a figure of the paper. It times the separation oracle: the linear "
                         "assignment (24), solved by the Jonker–Volgenant / Hungarian method in "
                         "O(l³) (Sec. 4.3, 6.5), on synthetic queries of growing size l. The paper "
                         "argues that queries of 50–200 documents keep this cheap."),
]
