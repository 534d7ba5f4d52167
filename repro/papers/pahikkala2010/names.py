"""Names of pahikkala2010's methods and measures: one place, used by the runs, the
declarations and the name check (``tests/test_declarations.py``)."""

METRICS = ("MAP", "P@10", "MeanNDCG", "NDCG@10")
METHODS = ("GRankRLS", "RankRLS")
CURVE_METRICS = ("MAP", "MeanNDCG")
#: metric of the validation-curve records (one per fold, λ exponent and k)
CURVE = "validation {metric} curve"
#: metrics of the curve maxima (Figures 1–4), from the fold-averaged curves
CURVE_MAX = "maximum of average validation {metric}"
CURVE_K = "k at maximum of average validation {metric}"
CURVE_LAMBDA = "log2 lambda at maximum of average validation {metric}"
