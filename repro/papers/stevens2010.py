"""Stevens (2010), *Efficient Coordinate Descent for Ranking with Domination Loss* (MEng
thesis, MIT): the domination loss (§2, eq. 1–2), its layered form (§3), margins (§4),
ℓ1/ℓ2² regularisation (§5) and coordinate descent with cached margins, Z and μ (§6,
Alg. 1–7; misprints corrected as listed in ``../shared/papers/README.md``).

Artifacts are declared; the method is not implemented yet (no issue has asked for it), so
the report lists the published values as "not run: not implemented yet".
"""
from ..experiment import Artifact, Paper

PAPER = Paper(
    id="stevens2010",
    title="Efficient Coordinate Descent for Ranking with Domination Loss",
    authors="M. A. Stevens", venue="MEng thesis, MIT, 2010",
    text="000_8dd6a39b95c30745.txt")

NOTES = [
    "Figure 4's competitor columns are LETOR's published baselines, copied by the thesis.",
    "Corel (PAMIR features), the Google image set and Reuters-2000 with Singhal features were "
    "never public: stand-ins are MULAN Corel5k and the MULAN RCV1-v2 subsets (see datasets.md).",
]
CODE = ()

_GOV = ("TD2003", "TD2004", "HP2003", "HP2004", "NP2003", "NP2004")

ARTIFACTS = [
    Artifact("stevens2010", "figure4", "LETOR comparison: NDCG@5, NDCG@10, P@10 (Layered, Flat, Margin vs published baselines)",
             datasets=("MQ2007", "OHSUMED") + _GOV),
    Artifact("stevens2010", "figure5", "Average ranks over the eight LETOR sets (derived from Figure 4)",
             datasets=("MQ2007", "OHSUMED") + _GOV),
    Artifact("stevens2010", "figure6", "Average precision on the Corel sets",
             datasets=("corel5k",), stand_ins={"corel5k": "corel-pamir"}),
    Artifact("stevens2010", "figure7", "Corel-Small-Easy details (test set)",
             datasets=("corel5k",), stand_ins={"corel5k": "corel-pamir"}),
    Artifact("stevens2010", "figure8", "Corel-Small-Easy details (validation and test)",
             datasets=("corel5k",), stand_ins={"corel5k": "corel-pamir"}),
    Artifact("stevens2010", "figure10", "Google image set, 1,000 queries: averaged results",
             datasets=("corel5k",), stand_ins={"corel5k": "google-images"}),
    Artifact("stevens2010", "figure16", "Reuters-2000, 101 topics: averaged results",
             datasets=("rcv1-subsets",), stand_ins={"rcv1-subsets": "rcv1-singhal"}),
    Artifact("stevens2010", "complexity", "Training time against the number of examples (our figure)",
             kind="figure", datasets=("synthetic",)),
]
