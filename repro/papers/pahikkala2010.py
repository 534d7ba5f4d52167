"""Pahikkala, Airola, Naula, Salakoski (2010), *Greedy RankRLS: a Linear Time Algorithm for
Learning Sparse Ranking Models* (SIGIR 2010 workshop): RankRLS (eq. 3–6), exact
leave-query-out predictions (Theorem 3.1) and greedy forward selection (Algorithm 1).

Artifacts are declared here; the method arrives with its issue.
"""
from ..experiment import Artifact, Paper

PAPER = Paper(
    id="pahikkala2010",
    title="Greedy RankRLS: a Linear Time Algorithm for Learning Sparse Ranking Models",
    authors="T. Pahikkala, A. Airola, P. Naula, T. Salakoski", venue="SIGIR 2010 Workshop on Feature Generation and Selection for Information Retrieval",
    text="004_0e17f8b96c3e032a.txt")

NOTES = []
CODE = ()

ARTIFACTS = (
    [Artifact("pahikkala2010", f"table{i}", f"Selected features on {ds}", datasets=(ds,))
     for i, ds in ((1, "MQ2007"), (2, "MQ2008"))]
    + [Artifact("pahikkala2010", f"table{i}", f"{m} results on {ds}", datasets=(ds,))
       for i, (m, ds) in enumerate([(m, d) for d in ("MQ2007", "MQ2008")
                                    for m in ("MAP", "P@10", "MeanNDCG", "NDCG@10")], start=3)]
    + [Artifact("pahikkala2010", f"figure{i}", f"Average {m} on validation sets for {ds}",
                kind="figure", datasets=(ds,))
       for i, (m, ds) in enumerate([("MAP", "MQ2007"), ("MeanNDCG", "MQ2007"),
                                    ("MAP", "MQ2008"), ("MeanNDCG", "MQ2008")], start=1)]
    + [Artifact("pahikkala2010", "complexity", "Training time against m, n and k (our figure)",
                kind="figure", datasets=("synthetic",))]
)
