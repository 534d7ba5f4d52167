"""Le & Smola (2007), *Direct Optimization of Ranking Measures* (arXiv:0704.3359): DORM,
structured estimation with column generation where the most violated constraint is a linear
assignment problem (Sec. 4.2–4.3); measures WTA, MRR, DCG/NDCG, Precision@n, ERU (eq. 9–16).

Artifacts are declared; the method is not implemented yet (no issue has asked for it).
"""
from ..experiment import Artifact, Paper

PAPER = Paper(
    id="lesmola2007",
    title="Direct Optimization of Ranking Measures",
    authors="Q. V. Le, A. J. Smola", venue="arXiv:0704.3359, 2007",
    text="003_96ad0f5ad667baf7.txt")

NOTES = [
    "The commercial web-search data was never public; LETOR 4.0 MQ2008 is the stand-in "
    "(median 8 documents per query instead of ~50, 3 relevance levels instead of 5).",
    "EachMovie is no longer distributed: Tables 3 and 4 run only when a user supplies it.",
]
CODE = ()

_WEB = {"MQ2008": "web-search-lesmola"}

ARTIFACTS = [
    Artifact("lesmola2007", "table1", "Performance on UCI data (ranking built from classes)",
             datasets=("page-blocks", "pendigits", "optdigits", "covertype")),
    Artifact("lesmola2007", "figure2", "NDCG@n on web search at different truncation levels",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB),
    Artifact("lesmola2007", "figure3", "NDCG@10 on web search for different sample sizes",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB),
    Artifact("lesmola2007", "figure5", "MRR on web search for different sample sizes",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB),
    Artifact("lesmola2007", "figure6", "WTA on web search for different sample sizes",
             kind="figure", datasets=("MQ2008",), stand_ins=_WEB),
    Artifact("lesmola2007", "table2", "Support vectors, column-generation iterations, time in QP",
             datasets=("MQ2008",), stand_ins=_WEB),
    Artifact("lesmola2007", "table3", "Expected rank utility on EachMovie", datasets=("eachmovie",)),
    Artifact("lesmola2007", "table4", "NDCG optimisation on EachMovie", datasets=("eachmovie",)),
    Artifact("lesmola2007", "complexity", "Assignment time against documents per query (our figure)",
             kind="figure", datasets=("synthetic",)),
]
