"""Names of lesmola2007: data sets, methods, metrics and series, as constants.  Declarations
(``__init__``), run code, figures and tests use these, and ``tests/test_lesmola2007.py``
checks that every name a declaration selects is produced by a task."""
from __future__ import annotations

UCI = ("page-blocks", "pendigits", "optdigits", "covertype")
WEB = ("MQ2008", "OHSUMED")
#: the private web-search data that MQ2008 stands in for (the dataset label of its records,
#: a catalog id: the published values of Table 2 and the notes are keyed on it)
WEB_STAND_IN = {"MQ2008": "web-search-lesmola"}
#: the arithmetic replicates of every web-search run (the package's WEB_NOISE says why)
WEB_REPEATS = 3
#: what a page shows for a dataset label (figure panels): the stand-in says what it is
SHOWN_AS = {"web-search-lesmola": "MQ2008 (stand-in for the paper's web-search data)",
            "MQ2008": "MQ2008 (stand-in for the paper's web-search data)",
            "OHSUMED": "OHSUMED (second stand-in)"}


def shown_as(label: str) -> str:
    """The dataset as a figure names it (a stand-in says that it is one)."""
    return SHOWN_AS.get(label, label)


# --- Table 1 (UCI) ----------------------------------------------------------------------------
UCI_METHODS = ("ROCArea", "SVM", "Prec@10", "DORM")
#: Not a method of the paper: a linear scorer with no ranking loss (least squares on the NDCG
#: gains), run on the same queries, folds and C grid as Table 1's methods.  It is the computed
#: context of Table 1's deviations (how easy a set is under this protocol); it enters neither
#: the claims nor the t-tests.
UCI_REFERENCE = "least squares on the gains (reference, not in the paper)"
UCI_BASELINES = tuple(m for m in UCI_METHODS if m != "DORM")
NDCG10 = "NDCG@10"
SPREAD_SUFFIX = " ±"
#: the literal reading of "10-fold cross validation was used to adjust C" (Sec. 6.1): the C
#: whose mean over the same 10 folds that are reported is best
CHOSEN_C = "C (literal: best mean over the 10 reported folds)"
P_VALUE = "paired t-test p-value"
#: nested cross-validation (ours, beside the literal reading): C chosen per outer fold on its
#: training queries only
NESTED = " (nested CV)"
NESTED_SELECTION = "nested CV: C chosen by inner CV on the outer fold's training queries"
NESTED_C = "C (nested CV: chosen on the fold's training queries)"
NESTED_P = "paired t-test p-value (nested CV)"
OPTIMISM = "optimism of the literal selection (NDCG@10, literal − nested CV)"
C_SERIES = "NDCG@10 by C"
C_LABEL = "avg at C={C:g}"           # the fold label of a fold mean at one C (the curve)


def nested(method: str) -> str:
    """The method name of ``method`` under nested cross-validation."""
    return method + NESTED


# --- web search (Figures 2-7, Table 2) --------------------------------------------------------
C_SCHEMES = ("(i+1)^-1/4", "(i+1)^-1/3", "(i+1)^-1/2", "(i+1)^-1", "(i+1)^-2", "(i+1)^-3",
             "1/log(i+2)", "1/loglog(i+2)")
WEB_METHODS = ("BM25", "SVM", "RSVM", "ROCArea", "Precision@10", "Precision@3", "DORM (NDCG)",
               "DORM (MRR)", "DORM (WTA)", "DORM (mWTA)")


def scheme_method(scheme: str) -> str:
    """The method name of DORM (NDCG) with c scheme ``scheme`` (Figure 4)."""
    return "DORM (NDCG)" if scheme == "(i+1)^-1/2" else f"DORM (NDCG, c={scheme})"


SCHEME_METHODS = tuple(scheme_method(s) for s in C_SCHEMES)
NDCG_AT = tuple(f"NDCG@{k}" for k in range(1, 11))
#: the methods of Figure 2
FIGURE2_METHODS = ("BM25", "SVM", "RSVM", "ROCArea", "Precision@10", "DORM (NDCG)")
SHORT = "test queries with fewer than {n} documents"
TEST_QUERIES = "test queries"


def ndcg_long(n: int) -> str:
    """NDCG@n over the test queries with at least n documents (Figure 2's note)."""
    return f"NDCG@{n} (queries of ≥ {n} documents)"

SECONDS = "training seconds (grid of C)"
#: measures by training size: (criterion of the C choice, measure, scale), series "<measure> by m"
BY_SIZE = (("NDCG@10", "NDCG@10", 100.0), ("MRR", "MRR", 100.0), ("WTA", "WTA correct", 1.0),
           ("WTA", "WTA", 100.0))
CRITERIA = ("NDCG@10", "MRR", "WTA")


def by_size(measure: str, size) -> str:
    """Metric of ``measure`` after training on the first ``size`` queries."""
    return f"{measure} (m={size})"


def series(measure: str) -> str:
    return f"{measure} by m"


#: Table 2 blocks: criterion -> (method run, the paper's row label) and the block's name
TABLE2 = {"NDCG@10": (("Precision@10", "Precision@10"), ("ROCArea", "ROCArea"),
                      ("DORM (NDCG)", "DORM (NDCG)")),
          "MRR": (("Precision@3", "Precision@3"), ("ROCArea", "ROCArea"),
                  ("DORM (NDCG, c=(i+1)^-1)", "DORM (NDCG)"), ("DORM (MRR)", "DORM (MRR)"))}
BLOCK = {"NDCG@10": "NDCG@10 optimization", "MRR": "MRR optimization"}
#: Figure 7's methods (the runtime figure)
FIGURE7_METHODS = ("BM25", "SVM", "RSVM", "ROCArea", "Precision@10", "Precision@3",
                   "DORM (NDCG)", "DORM (MRR)")
#: the methods the timing runs refit (.runtime): Figure 7's and those of Table 2's rows
TIMED_METHODS = tuple(dict.fromkeys(FIGURE7_METHODS + tuple(m for rows in TABLE2.values()
                                                            for m, _ in rows)))
TABLE2_COUNTS = tuple(f"{w} ({b})" for w in ("# SVs", "# Iter") for b in BLOCK.values())
TABLE2_QP = tuple(f"% in QP ({b})" for b in BLOCK.values())

# --- Figure 4, the claims ----------------------------------------------------------------------
SCHEMES_LABEL = "DORM (8 c schemes)"
MAX_DIFFERENCE = "max difference in {metric}"
CLAIM_T1, CLAIM_63, CLAIM_64, CLAIM_65 = "Table 1", "Sec. 6.3", "Sec. 6.4", "Sec. 6.5"
