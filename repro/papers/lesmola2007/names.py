"""Names of lesmola2007: data sets, methods, metrics and series, as constants.  Declarations
(``__init__``), run code, figures and tests use these, and ``tests/test_lesmola2007.py``
checks that every name a declaration selects is produced by a task."""
from __future__ import annotations

UCI = ("page-blocks", "pendigits", "optdigits", "covertype")
WEB = ("MQ2008", "OHSUMED")
#: the private web-search data that MQ2008 stands in for
WEB_STAND_IN = {"MQ2008": "web-search-lesmola"}

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
CHOSEN_C = "C (chosen by 10-fold CV)"
P_VALUE = "paired t-test p-value"

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
TABLE2_COUNTS = tuple(f"{w} ({b})" for w in ("# SVs", "# Iter") for b in BLOCK.values())
TABLE2_QP = tuple(f"% in QP ({b})" for b in BLOCK.values())

# --- Figure 4, the claims ----------------------------------------------------------------------
SCHEMES_LABEL = "DORM (8 c schemes)"
MAX_DIFFERENCE = "max difference in {metric}"
CLAIM_T1, CLAIM_63, CLAIM_64, CLAIM_65 = "Table 1", "Sec. 6.3", "Sec. 6.4", "Sec. 6.5"
