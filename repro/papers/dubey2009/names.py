"""Names of dubey2009: methods, metrics, conventions and artifact parts, as constants that the
declarations (``__init__``), the runs, the claims and the figures share (a typo fails the
name test in ``tests/test_dubey2009.py`` instead of giving an empty row)."""

#: the ten rankers of the paper: (objective, Δ); their names are ``method_name(o, d)``
PROPOSED = (("MLE", "AUC"), ("ExpGain", "AUC"), ("ExpGain", "MAP"), ("ExpGain", "NDCG"),
            ("L3", "AUC"), ("L3", "MAP"), ("L3", "NDCG"),
            ("ConvexLoss", "AUC"), ("ConvexLoss", "MAP"), ("ConvexLoss", "NDCG"))
BASELINES = ("SVMmap", "Rankboost", "RankSVM")
MLE = "MLE"
EXPGAIN = ("ExpGain_AUC", "ExpGain_MAP", "ExpGain_NDCG")
L3 = ("L_3_AUC", "L_3_MAP", "L_3_NDCG")
CONVEX = ("ConvexLoss_AUC", "ConvexLoss_MAP", "ConvexLoss_NDCG")
#: Figure 3's rows run here, in the paper's order (ConditionalRanker.method_name of PROPOSED)
METHODS = BASELINES + (MLE,) + EXPGAIN + L3 + CONVEX
#: the rows with training randomness (the sample Ŷ of the swap sampler, Sec. 4; ExpGain's and
#: L₃'s random starting points): every conditional model; the baselines are deterministic
STOCHASTIC = (MLE,) + EXPGAIN + L3 + CONVEX
#: Figure 3 rows quoted by the paper from Volkovs & Zemel (2009), shown as published, not rerun
QUOTED = ("ListNet", "BoltzRank2")
#: the floor row: every document scored 0 (ties in file order)
FLOOR = "all-equal scores"
#: the Sec. 5.3 studies' learner
SENS_METHOD = "ConvexLoss_NDCG"

#: binary relevance: good = label ≥ 1 (Sec. 1.1)
THRESHOLD = 1.0
METRICS = ("MAP", "NDCG@1", "NDCG@5", "NDCG@10")
SENS_METRICS = ("MAP", "NDCG@10")
#: how a Figure 3 cell is measured (Sec. 1.6 vs the LETOR 3.0 script; ties in file order or
#: at random); PAPER_DEF is the compared value, the others are fields and notes of the cell
PAPER_DEF, PAPER_RANDOM, LETOR3, LETOR3_RANDOM = ("paper", "paper random ties", "LETOR 3.0",
                                             "LETOR 3.0 random ties")
CLEANED = "paper cleaned test"
CONVENTIONS = (PAPER_DEF, PAPER_RANDOM, LETOR3, LETOR3_RANDOM)

#: the ``part`` field of each artifact's records
FIGURE3, FIGURE4, FIGURE5, FIGURE6, FIGURE7, FIGURE8, CLAIMS = (
    "figure3", "figure4", "figure5", "figure6", "figure7", "figure8", "claims")
#: a Figure 3 record of one fold (input of the cells, not shown itself)
PER_FOLD = "per_fold"

UNDEFINED = ("no good document in the query: the paper's AP and NDCG are undefined "
             "(Sec. 1.6; averages over the queries that have one)")


def sample_size_label(size) -> str:
    return f"{SENS_METHOD}, |Ŷ| = {size}"


def skew_label(skew: float) -> str:
    if skew > 0.5:
        return f"restarts {skew:g} toward Δ = 0"
    if skew < 0.5:
        return f"restarts {1 - skew:g} toward Δ = 1"
    return "balanced restarts"


def k_label(k) -> str:
    return f"k={int(float(k))}"


def seed_label(seed: str) -> str:
    return f"restart {seed}"


SMEAR_SEEDS = ("Δ = 0", "Δ ≈ 0.5", "Δ = 1")
WPHI = "median |wᵀφ(x,y)|, iterations 1–10"
WDPHI = "median |wᵀδφ(y)|, iterations 1–10"
