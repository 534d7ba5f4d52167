"""Pahikkala, Airola, Naula, Salakoski (2010), *Greedy RankRLS: a Linear Time Algorithm for
Learning Sparse Ranking Models* (SIGIR 2010 workshop): RankRLS (eq. 3–6), exact
leave-query-out predictions (Theorem 3.1) and greedy forward selection (Algorithm 1).

Method: :mod:`repro.rankers.rankrls` (RankRLS, GreedyRankRLS) and :mod:`repro.rankers.lqo`
(the selection path; Cython kernel ``kernels/lqo.pyx``).

Runs: ``task_fold`` (:mod:`.folds`, the §4 protocol on one fold) serves Tables 1–10 and
Figures 1–4; one greedy run of k_max steps per λ gives every prefix model, so the (λ, k) grid
costs one run per λ.  The grid comes from the ``[protocol]`` section of ``pahikkala2010.toml``
and can be widened there or through the artifacts' ``params``.  The fold averages
(``FoldMean``) and the maxima of the validation curves averaged over folds (``FoldMean`` by λ
and k, then ``Best``) are declared aggregations.  ``task_complexity`` (:mod:`.complexity`)
counts the selection's operations and times it on synthetic data for the ``complexity``
figure; the benchmark against a vectorised NumPy implementation of the same algorithm is the
``lqo`` group of ``python -m repro bench`` (:mod:`repro.bench.lqo`).

The report's words are in ``prose.md`` (:func:`repro.papers.prose.paper`); the code cites the
paper's sections and equations where they explain it.
"""
from __future__ import annotations

from ...judge import published as _published
from ...spec import SAME_QUERIES, Artifact, Judging, Noise, Reference, RunLayout, Shown
from ...judge.kinds import Best, FoldMean
from .names import CURVE, CURVE_K, CURVE_LAMBDA, CURVE_MAX, CURVE_METRICS, METHODS, METRICS
from .. import prose

#: the report's words (prose.md) and the paper
PROSE, PAPER = prose.paper(__name__, order=5, id="pahikkala2010", text="004_0e17f8b96c3e032a.txt",
                           title="Greedy RankRLS: a Linear Time Algorithm for Learning Sparse Ranking Models",
                           authors="T. Pahikkala, A. Airola, P. Naula, T. Salakoski",
                           venue="SIGIR 2010 Workshop on Feature Generation and Selection for Information Retrieval")
NOTES = PROSE.notes


def _protocol_params() -> dict:
    """The validation grid recorded in ``pahikkala2010.toml`` ``[protocol]``."""
    proto = _published.load("pahikkala2010").protocol
    return {"lambda_exponents": list(proto.get("lambda_exponents", [0, 10])),
            "k_max": int(proto.get("k_max", 46)),
            "rankrls_lambda_exponents": list(proto.get("rankrls_lambda_exponents", [-10, 10]))}


PARAMS = _protocol_params()
#: which variation separates our values from the published ones: none but arithmetic
NOISE = Noise(SAME_QUERIES, (), why=(
    "our test queries are the official LETOR 4.0 folds, the paper's own, and greedy RankRLS "
    "and RankRLS are deterministic: one run, whose difference from the paper's value is "
    "exact; arithmetic is checked with `python -m repro stability`"))
FOLDS = (1, 2, 3, 4, 5)
QUICK = {"folds": (1,), "params": {"lambda_exponents": [0, 3], "k_max": 8,
                                   "rankrls_lambda_exponents": [-2, 2]}}
# the modern reference (LambdaMART, repro.evidence.reference) under the same protocol: LETOR 4.0
# evaluation, parameters chosen by validation MAP
REFERENCE = Reference(4, "MAP", METRICS)
# computed when records are gathered: fold averages of the test measures, and the maxima of
# the validation curves averaged over the folds (Figures 1-4): the curve of each λ averaged
# over folds, its maximum over (λ, k), ties to the smaller λ, then the smaller k
AGGREGATE = (
    FoldMean(select={"metric": list(METRICS), "method": list(METHODS)}),
    FoldMean(select={"metric": [CURVE.format(metric=m) for m in CURVE_METRICS]},
             by=("lambda_exponent", "k")),
    *(Best(over=("lambda_exponent", "k"), select={"metric": CURVE.format(metric=m)},
           criterion={"fold": "avg"}, prefer="smaller", emit="criterion",
           metric_format=CURVE_MAX.format(metric=m),
           chosen_metric={"k": CURVE_K.format(metric=m),
                          "lambda_exponent": CURVE_LAMBDA.format(metric=m)})
      for m in CURVE_METRICS),
)


# --- artifacts --------------------------------------------------------------------------------

def _table_art(i: int, metric: str, ds: str) -> Artifact:
    return PROSE.describe(Artifact(
        "pahikkala2010", f"table{i}", f"{metric} results on {ds}", task="task_fold",
        layout=RunLayout(
            datasets=(ds,), folds=FOLDS, params=PARAMS, quick=QUICK, reference=REFERENCE),
        judging=Judging(noise=NOISE, aggregate=AGGREGATE,
                        select={"metric": [metric], "method": list(METHODS)})), metric=metric)


def _features_art(i: int, ds: str) -> Artifact:
    return PROSE.describe(Artifact(
        "pahikkala2010", f"table{i}", f"Selected features on {ds}", task="task_fold",
        layout=RunLayout(datasets=(ds,), folds=FOLDS, params=PARAMS, quick=QUICK),
        judging=Judging(
            noise=NOISE, aggregate=AGGREGATE,
            select={"metric": ["lambda", "k", "validation MAP", "log2 lambda"]
                    + [f"selected_{j}" for j in range(1, 11)]})))


def _figure_art(i: int, metric: str, ds: str) -> Artifact:
    return PROSE.describe(Artifact(
        "pahikkala2010", f"figure{i}", f"Average {metric} on validation sets for {ds}",
        kind="figure", task="task_fold",
        layout=RunLayout(datasets=(ds,), folds=FOLDS, params=PARAMS, quick=QUICK),
        judging=Judging(
            noise=NOISE, aggregate=AGGREGATE,
            select={"metric": [f.format(metric=metric)
                               for f in (CURVE_MAX, CURVE_K, CURVE_LAMBDA)]}),
        shown=Shown(figure="figure_validation")), metric=metric)


ARTIFACTS = (
    [_features_art(1, "MQ2007"), _features_art(2, "MQ2008")]
    + [_table_art(i, m, ds) for i, (m, ds) in
       enumerate([(m, d) for d in ("MQ2007", "MQ2008") for m in METRICS], start=3)]
    + [_figure_art(i, m, ds) for i, (m, ds) in
       enumerate([("MAP", "MQ2007"), ("MeanNDCG", "MQ2007"), ("MAP", "MQ2008"),
                  ("MeanNDCG", "MQ2008")], start=1)]
    + [PROSE.describe(Artifact(
        "pahikkala2010", "complexity",
        "Operations and training time against m, n and k (our figure)", kind="figure",
        task="task_complexity",
        layout=RunLayout(
            datasets=("synthetic",), timing=True,
            params={"base": {"m": 20000, "n": 46, "k": 10}, "m": [2500, 5000, 10000, 20000, 40000],
                    "n": [46, 92, 184, 368], "k": [1, 4, 8, 16, 32, 64], "k_sweep": {"m": 10000, "n": 368},
                    "repeats": 5, "min_seconds": 0.02},
            quick={"params": {"base": {"m": 4000, "n": 46, "k": 5}, "m": [1000, 2000, 4000],
                              "n": [23, 46, 92], "k": [1, 2, 4], "k_sweep": {"m": 4000, "n": 92},
                              "repeats": 3, "min_seconds": 0.02}}),
        shown=Shown(figure="figure_complexity")))]
)
