"""stevens2010's names: the methods, measures and dataset labels its runs produce and its
declarations (``select``, aggregations) and ``stevens2010.toml`` refer to.  One place, so that
a test (tests/test_stevens2010_names.py) can check that every declared name is produced."""

# --- LETOR (§8.1, Figures 4 and 5) ---
LETOR8 = ("MQ2007", "OHSUMED", "TD2003", "TD2004", "HP2003", "HP2004", "NP2003", "NP2004")
LETOR_MEASURES = ("NDCG@5", "NDCG@10", "P@10")
# variant (as in the run's parameters) -> (method label, fixed ranker parameters; tuned on
# top of (reg, λ))
LETOR_VARIANTS = {
    "Layered": ("DR-Layered", {"layers": "graded", "grouping": "pooled"}),
    "Flat": ("DR-Flat", {"layers": "binary", "grouping": "pooled"}),
    "Margin": ("DR-Margin", {"layers": "graded", "grouping": "pooled"}),
    "Layered (per-query)": ("DR-Layered (per-query)", {"layers": "graded", "grouping": "query"}),
}
LETOR_BASELINES = ("RankSVM-Struct", "ListNet", "AdaRank-NDCG", "AdaRank-MAP", "RankBoost")
# Figure 5: the methods ranked (RankSVM-Struct excluded: N/A on the LETOR 3.0 rows)
RANKED = ("DR-Layered", "DR-Flat", "DR-Margin", "ListNet", "AdaRank-NDCG", "AdaRank-MAP",
          "RankBoost")
LETOR_AVERAGE = "LETOR-8"                 # Figure 5's dataset label (the eight sets)
REG_METRIC = "regulariser (1 = ℓ1, 2 = ℓ2²)"
RANK_METRIC = "average rank ({metric})"

# --- Corel stand-in (§8.2, Figures 6-8) ---
COREL_VARIANTS = ("DR-FeatureInduction", "DR-Sampled", "DR-Sequential")
#: the Corel variants with training randomness (negatives sampled once per keyword); PAMIR
#: (random triplets) is stochastic too; the other variants are deterministic
COREL_STOCHASTIC = ("DR-Sampled",)
COREL_PAMIR = ("PAMIR-40K", "PAMIR-1M")               # with the declared iteration counts
COREL_SUBSETS = {"Small-Easy": True, "Small-Hard": False}   # subset -> "easy" keywords
COREL_LARGE = "corel-pamir:Large-All"
DETAIL_METRICS = ("domination error", "all-pairs error", "weight density")
COREL_SPLITS = ("test", "validation+test")

# --- Google stand-in (§8.3) and Reuters stand-in (§8.4) ---
FEATURE_SELECTION = "DR-FeatureSelection"
REUTERS_PAMIR = ("PAMIR-10M", "PAMIR-100M")
METRICS16 = ("AP", "P@10", "domination error", "all-pairs error", "weight density")
BIGRAMS = "rcv1-singhal:bigrams"


def corel_dataset(subset: str) -> str:
    """The published-value label of a Corel subset (``corel-pamir:Small-Easy``)."""
    return f"corel-pamir:{subset}"
