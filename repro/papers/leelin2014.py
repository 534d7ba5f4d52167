"""Lee & Lin (2014), *Large-scale Linear RankSVM* (Neural Computation 26(4)), supplement:
L2-loss linear RankSVM solved by TRON with l_i^±, α_i^± counting (Sec. II).

Artifacts are declared here; the solver and its kernels arrive with their issue.
"""
from ..experiment import Artifact, Paper

PAPER = Paper(
    id="leelin2014",
    title='Supplement Materials for "Large-scale Linear RankSVM"',
    authors="C.-P. Lee, C.-J. Lin", venue="Neural Computation 26(4), 2014 (supplement)",
    text="002_75f2de2375fc1d0d.txt")

NOTES = []
CODE = ()

_SETS = ("MQ2007", "MQ2008", "MSLR-WEB30K", "Yahoo-set1", "Yahoo-set2")

ARTIFACTS = [
    Artifact("leelin2014", "sectionII", "Worked example of the direct counting method (Sec. II.1)",
             kind="check"),
    Artifact("leelin2014", "figureII", "TRON vs cutting plane: relative function value, pairwise accuracy, NDCG",
             kind="figure", datasets=_SETS),
    Artifact("leelin2014", "tableI", "Percentage of zero dual variables of the L2-loss problem at C = 2^20",
             datasets=("MQ2007", "MQ2008", "Yahoo-set2", "MQ2007-list", "MQ2008-list")),
    Artifact("leelin2014", "complexity", "Time of f, ∇f and Hv against l for the counting methods (our figure)",
             kind="figure", datasets=("synthetic",)),
]
