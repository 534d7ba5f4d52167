"""Dubey, Machchhar, Bhattacharyya, Chakrabarti (2009), *Conditional Models for Non-smooth
Ranking Loss Functions* (ICDM): conditional probability models over rankings, expected-gain
objectives, ConvexLoss (eq. 14), and the MCMC swap sampler of Fig. 2 (lines 7 and 9
reconstructed as in ``../shared/papers/README.md``).

Artifacts are declared; the method is not implemented yet (no issue has asked for it).
"""
from ..experiment import Artifact, Paper

PAPER = Paper(
    id="dubey2009",
    title="Conditional Models for Non-smooth Ranking Loss Functions",
    authors="A. Dubey, J. Machchhar, C. Bhattacharyya, S. Chakrabarti", venue="ICDM 2009",
    text="001_6d8b563b3ae0bb43.txt")

NOTES = [
    "Fig. 2 lines 7 and 9 (the swap acceptance θ) are a reconstruction of symbols lost in the "
    "PDF conversion: θ = (n⁻ − n_g + n_b + 1)/(2 + n⁺ + n⁻) and θ = (n⁺ + n_g − n_b + 1)/(2 + n⁺ + n⁻).",
    "The LETOR 3.0 Gov sets are not available here: their columns are 'not run: data missing'; "
    "MQ2008 is shown as a separate, labelled stand-in column.",
]
CODE = ()

_GOV = ("TD2003", "TD2004", "HP2003", "HP2004", "NP2003", "NP2004")

ARTIFACTS = [
    Artifact("dubey2009", "figure3", "MAP, NDCG@1, NDCG@5, NDCG@10 of all formulations on LETOR 3.0",
             datasets=("OHSUMED",) + _GOV),
    Artifact("dubey2009", "figure4", "Effect of the sample size |Ŷ| on test accuracy (HP2004, ConvexLoss_NDCG)",
             kind="figure", datasets=("HP2004",)),
    Artifact("dubey2009", "figure5", "Effect of restart skew (HP2004, ConvexLoss_NDCG)",
             kind="figure", datasets=("HP2004",)),
    Artifact("dubey2009", "figure6", "Effect of restart skew with more than two restart states",
             datasets=("HP2004",)),
    Artifact("dubey2009", "complexity", "Sampler and objective cost against the number of documents (our figure)",
             kind="figure", datasets=("synthetic",)),
]
