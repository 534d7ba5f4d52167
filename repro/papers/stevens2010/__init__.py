"""Stevens (2010), *Efficient Coordinate Descent for Ranking with Domination Loss* (MEng
thesis, MIT): the domination error (§1, eq. 1), its convex relaxation (§2, eq. 4–7), the layered
form (§3), separable margins (§4), ℓ1/ℓ2² regularisation (§5, eq. 8), coordinate descent with
cached margins, Z and μ (§6, Alg. 1–6) and feature induction (§7, eq. 9, Alg. 7); misprints
corrected as listed in ``../shared/papers/README.md``.

Method: :mod:`repro.rankers.domination` (``DominationProblem``, ``DominationRank``; Cython
kernel ``kernels/domination.pyx`` with the column-access layer ``kernels/column_access.pxd``)
and :mod:`repro.rankers.pamir` (the PAMIR baseline; kernel ``kernels/pamir.pyx``).

Studies (one module each, tasks re-exported by :mod:`.tasks`):

* :mod:`.letor` — Figures 4 and 5 (§8.1): one run per LETOR fold and Domination Rank variant
  (``LETOR_SPLIT``); fold means and Figure 5's average ranks (``RanksWithPublished``) declared.
* :mod:`.corel` — Figures 6–8 (§8.2), keywords split into shard runs; the averages over all
  shards' keywords are a custom aggregation (:mod:`.pooled`: it pools the shards' tables).
* :mod:`.google` — Figures 9 and 13–15 (§8.3).
* :mod:`.reuters` — Figures 16–18 and the text's sparsity claims (§8.4); each replicate in parts
  (``REUTERS_SPLIT``: Domination Rank, each PAMIR model), the values comparing the two a
  custom aggregation (:mod:`.pooled`).
* :mod:`.complexity` — sweep time against non-zeros and layers (our figure); the comparison
  with NumPy recomputing the margins at every update is the ``domination`` group of
  ``python -m repro bench`` (:mod:`repro.bench.domination`).

Names (methods, measures, dataset labels) are constants of :mod:`.names`; how published values
are keyed is the comment at the top of ``stevens2010.toml``.

The report's words are in ``prose.md`` (:func:`repro.papers.prose.paper`); the code cites the
paper's sections and equations where they explain it.
"""
from ...judge.kinds import NotCheckable, RanksWithPublished
from ...spec import SAME_QUERIES, SEEDS, Artifact, Judging, Noise, Reference, RunLayout, Shown
from ...judge.kinds import Custom, FoldMean, Ranks
from .names import (COREL_SPLITS, DETAIL_METRICS, LETOR8, LETOR_AVERAGE, LETOR_MEASURES,
                    RANK_METRIC, RANKED)
from ...metrics.family import get_convention
from .. import prose
from ..replicates import replicated

__all__ = ["PAPER", "NOTES", "ARTIFACTS", "CONVENTION"]

#: the thesis's measures (Sec. 8): the LETOR 4.0 script's arithmetic (``python -m repro eval
#: --convention stevens2010``)
CONVENTION = get_convention("letor4").replace(
    name="stevens2010",
    source="Stevens (2010) Sec. 8: AP and P@10 of each query, binary relevance, by the LETOR 4.0 "
           "script's rules (the thesis reports no NDCG; the 4.0 arithmetic is used for it too)")

#: the report's words (prose.md) and the paper
PROSE, PAPER = prose.paper(__name__, order=1, id="stevens2010", text="000_8dd6a39b95c30745.txt",
                           title="Efficient Coordinate Descent for Ranking with Domination Loss",
                           authors="M. A. Stevens", venue="MEng thesis, MIT, 2010")
NOTES = PROSE.notes

_LETOR = LETOR8
_FOLDS = (1, 2, 3, 4, 5)
_COREL = {"datasets": ("corel5k",), "stand_ins": {"corel5k": "corel-pamir"}}
_GOOGLE = {"datasets": ("corel5k",), "stand_ins": {"corel5k": "google-images"}}
_REUTERS = {"datasets": ("rcv1-subsets",), "stand_ins": {"rcv1-subsets": "rcv1-singhal"}}

# --- replicates and noise --------------------------------------------------------------------
#: replicates (..replicates) of the stand-in studies with published numbers and training
#: randomness (Corel: Figures 6–8; Reuters: Figure 16 and the text's claims): replicate r > 0
#: refits the stochastic methods (DR-Sampled / DR-FeatureSelection's sampled negatives,
#: PAMIR's triplets) with its own seed, on the same split
LETOR_NOISE = Noise(SAME_QUERIES, (), why=(
    "our test queries are the official LETOR folds, the thesis's own, and Domination Rank is "
    "deterministic there (no sampled negatives): one run, whose difference from the "
    "thesis's value is exact; arithmetic is checked with `python -m repro stability`"))
STAND_IN_NOISE = Noise(SAME_QUERIES, (SEEDS,), why=(
    "the data stand in for the thesis's (its Corel and Reuters sets were never public): the "
    "values are judged as stand-ins, over 3 seeds of the sampled negatives and of PAMIR's "
    "triplets and over the keywords/topics"))

# --- LETOR (§8.1) ------------------------------------------------------------------------------
LETOR_PARAMS = {"variants": ["Layered", "Flat", "Margin", "Layered (per-query)"],
                "lambda_exponents": [0, 5], "lambda_step": 0.5, "regularisers": ["l2", "l1"],
                "margins": [0.1, 0.3, 1.0, 3.0, 10.0], "criterion": "NDCG@10", "tol": 1e-4,
                "max_sweeps": 5000}
LETOR_QUICK = {"folds": (1,), "params": {"lambda_exponents": [1, 3], "lambda_step": 1.0,
                                         "margins": [1.0]}}
#: one run per (set, fold, variant): a fold's variants are independent (each chooses its own
#: (reg, λ[, κ]) on vali; no randomness), and DR-Margin alone takes most of a fold (its grid has
#: the five margins), so the variants of a fold run side by side (DR-Margin is not split by
#: margin: its (reg, λ, κ) is chosen over the whole grid, which no single part sees)
LETOR_SPLIT = tuple((v, {"variants": [v]}) for v in LETOR_PARAMS["variants"])
LETOR_AGG = (FoldMean(select={"metric": list(LETOR_MEASURES)}),)
# Figure 5: the fold means, then each method's rank per set and measure (competition ranking),
# published Figure 4 values standing in for the sets (and baselines) not run, averaged over sets
FIGURE5_AGG = LETOR_AGG + (RanksWithPublished(
    Ranks(select={"fold": "avg", "method": list(RANKED), "metric": list(LETOR_MEASURES)},
          label=LETOR_AVERAGE, metric_format=RANK_METRIC),
    artifact="figure4", order=LETOR8),)

# --- Corel (§8.2) ------------------------------------------------------------------------------
COREL_PARAMS = {"split_seed": 2010, "shards": 4, "regularisers": ["l1", "l2"],
                "lambdas": [0.1, 1.0, 10.0, 100.0], "alphas": [10, 50, 250],
                "negative_fraction": 0.1, "tol": 1e-4, "iterations_per_feature": 20,
                "pamir_iterations": [40000, 1000000], "pamir_C": [0.001, 0.01, 0.1, 1.0]}
COREL_QUICK = {"folds": (1,), "params": {"max_queries_per_shard": 6, "lambdas": [1.0],
                                         "alphas": [20], "pamir_iterations": [40000],
                                         "pamir_C": [0.1]}}

# --- Google stand-in (§8.3) --------------------------------------------------------------------
GOOGLE_PARAMS = {"split_seed": 2011, "n_queries": 10, "min_positives": 10,
                 "lambda_exponents": [-2, 2], "lambda_step": 0.5, "regularisers": ["l1", "l2"],
                 "alpha": 20, "negative_fraction": 0.1, "tol": 1e-4,
                 "iterations_per_feature": 100}
GOOGLE_QUICK = {"params": {"n_queries": 2, "lambda_exponents": [-1, 1], "lambda_step": 1.0,
                           "iterations_per_feature": 10}}

# --- Reuters (§8.4) ----------------------------------------------------------------------------
REUTERS_PARAMS = {"split_seed": 2012, "subsets": [1, 2, 3, 4, 5], "cv_topics": 7,
                  "regularisers": ["l1", "l2"], "lambdas": [0.1, 1.0, 10.0, 100.0],
                  "alphas": [10, 100, 1000], "negative_fraction": 0.1, "tol": 1e-4,
                  "iterations": 200000, "pamir_iterations": [10000000, 100000000],
                  "pamir_C": [0.001, 0.01, 0.1, 1.0], "single_topic": 77,
                  "single_lambdas": [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]}
REUTERS_QUICK = {"params": {"subsets": [1], "max_topics": 8, "cv_topics": 2, "lambdas": [1.0],
                            "alphas": [10], "iterations": 20000,
                            "pamir_iterations": [100000, 1000000], "pamir_C": [1.0],
                            "single_lambdas": [0.1, 10.0]}}
#: one run per (replicate, part): Domination Rank (its choice of parameters, every topic,
#: Figure 17) and each PAMIR model (C chosen on the CV topics in each) are independent
#: (.reuters); the values comparing them are a Custom aggregation (.pooled: they need the
#: per-topic values of two parts, which no declared kind sees).  PAMIR-100M (100M updates,
#: ~100 s in one run) is further split by topics (``REUTERS_PAMIR_BLOCKS``: four contiguous
#: blocks with equal training positives — two blocks took 44-79 s each on a busy 2-core
#: machine; each part replays the one random stream and applies its block's updates, so every
#: model is the joint run's; its Figure 16 means are pooled over the blocks,
#: :mod:`repro.evidence.query_blocks`)
#: Domination Rank's part is not split by topics: its choice of parameters on the CV topics
#: (about half of the part; 69 of 129 s measured in replicate 1) precedes every topic's fit,
#: so each part would repeat it — splitting it needs a run that reads another run's choice
REUTERS_PAMIR_BLOCKS = {1: 4}                # index in pamir_iterations -> blocks of topics


def _pamir_parts(k: int):
    n = REUTERS_PAMIR_BLOCKS.get(k, 1)
    if n == 1:
        return ((f"pamir-{k + 1}", {"dr": False, "pamir_runs": [k]}),)
    return tuple((f"pamir-{k + 1}-{b + 1}of{n}",
                  {"dr": False, "pamir_runs": [k], "pamir_block": [b, n]}) for b in range(n))


REUTERS_SPLIT = (("domination-rank", {"pamir_runs": []}),
                 *(part for k in range(len(REUTERS_PARAMS["pamir_iterations"]))
                   for part in _pamir_parts(k)))
REUTERS_AGG = (Custom("reuters_comparisons"),)
COMPLEXITY_PARAMS = {"features": 500, "nnz_per_row": 20, "positive_fraction": 0.02,
                     "instances": [2500, 5000, 10000, 20000, 40000], "layers_n": 20000,
                     "layers": [2, 3, 5, 9], "repeats": 5, "min_seconds": 0.5}
COMPLEXITY_QUICK = {"params": {"instances": [1000, 2000, 4000], "layers_n": 4000,
                               "layers": [2, 3], "repeats": 1, "min_seconds": 0.0}}


# the text's claims no stand-in can check (the Reuters sparsity claims are records of the run)
TEXT_AGG = (
    NotCheckable({"method": "DR-Margin", "metric": "AP gain over no-margin variant (validation)",
                  "dataset": "google-images", "claim": True},
                 "needs the Google set's feedback counts r_i for s(i) = 200·r_i; Corel5k has "
                 "none"),
    NotCheckable({"method": "DR", "metric": "nonzero weights", "dataset": None, "claim": True},
                 "the image set of §7 (ten thousand features) is not named"),
)


def _letor(name, title, **kw):
    return Artifact(
        "stevens2010", name, title, task="task_letor_fold",
        layout=RunLayout(datasets=_LETOR, folds=_FOLDS, params=LETOR_PARAMS, split=LETOR_SPLIT,
                         quick=LETOR_QUICK),
        judging=Judging(noise=LETOR_NOISE)).replace(**kw)


def _corel(name, title, select):
    return Artifact(
        "stevens2010", name, title, task="task_corel",
        layout=RunLayout(**_COREL, folds=(1, 2, 3, 4), params=COREL_PARAMS,
                         **replicated(COREL_QUICK)),
        # Custom: pools the shards' per-query tables (kinds see records only)
        judging=Judging(aggregate=(Custom("corel_means"),), select=select,
                        noise=STAND_IN_NOISE))


def _google(name, title, figure_fn):
    return Artifact(
        "stevens2010", name, title, kind="figure", task="task_google",
        layout=RunLayout(**_GOOGLE, params=GOOGLE_PARAMS, quick=GOOGLE_QUICK),
        judging=Judging(select={"figure": name}),
        shown=Shown(figure=figure_fn))


def _reuters(name, title, kind="table", figure_fn=None, select=None, replicates=False):
    """A Reuters artifact; ``replicates`` for those with published numbers."""
    more = replicated(REUTERS_QUICK) if replicates else dict(quick=REUTERS_QUICK)
    return Artifact(
        "stevens2010", name, title, kind=kind, task="task_reuters",
        layout=RunLayout(**_REUTERS, params=REUTERS_PARAMS, split=REUTERS_SPLIT, **more),
        judging=Judging(aggregate=REUTERS_AGG, select=select or {"figure": name},
                        noise=STAND_IN_NOISE if replicates else Noise()),
        shown=Shown(figure=figure_fn))


_DETAIL = list(DETAIL_METRICS)

ARTIFACTS = PROSE.describe_all([
    _letor("figure4",
           "LETOR: NDCG@5, NDCG@10 and P@10 of Domination Rank (Layered, Flat, Margin) and "
           "LETOR's published baselines",
           aggregate=LETOR_AGG,
           reference=Reference({"MQ2007": 4, "*": 3}, "NDCG@10", ("NDCG@5", "NDCG@10", "P@10"))),
    _letor("figure5",
           "LETOR: average ranks of the methods over the eight sets (derived from Figure 4)",
           aggregate=FIGURE5_AGG, select={"dataset": LETOR_AVERAGE}),
    _corel("figure6", "Corel: average precision of PAMIR and Domination Rank",
           {"metric": "AP"}),
    _corel("figure7", "Corel-Small-Easy details (test set)",
           {"metric": _DETAIL, "split": "test"}),
    _corel("figure8", "Corel-Small-Easy details (validation and test sets)",
           {"metric": _DETAIL, "split": COREL_SPLITS[1]}),
    _google("figure9", "Google image set: cross-validation of the regularisation weight",
            "figure_google_cv"),
    Artifact(
        "stevens2010", "figure10", "Google image set, 1,000 queries: averaged results",
        layout=RunLayout(**_GOOGLE)),
    Artifact(
        "stevens2010", "figure11",
        "Google image set: per-query performance, Domination Rank vs PAMIR", kind="figure",
        layout=RunLayout(**_GOOGLE)),
    Artifact(
        "stevens2010", "figure12", "Google image set: per-query performance without outliers",
        kind="figure",
        layout=RunLayout(**_GOOGLE)),
    _google("figure13", "Single Google query (622): performance against λ",
            "figure_google_single_lambda"),
    _google("figure14", "Single Google query (622): weight density and iterations against λ",
            "figure_google_single_density"),
    _google("figure15", "Single Google query (622): performance during training",
            "figure_google_course"),
    _reuters("figure16", "Reuters-2000, 101 topics: averaged results", replicates=True),
    _reuters("figure17", "Single Reuters topic (77), Singhal features: performance details",
             kind="figure", figure_fn="figure_reuters_single"),
    _reuters("figure18", "Reuters-2000: per-topic performance, Domination Rank vs PAMIR",
             kind="figure", figure_fn="figure_reuters_topics"),
    Artifact(
        "stevens2010", "text", "Numbers stated in the running text (§7, §8.3.2, §8.4.2)",
        kind="check", task="task_reuters",
        layout=RunLayout(
            **_REUTERS, params=REUTERS_PARAMS, split=REUTERS_SPLIT, **replicated(REUTERS_QUICK)),
        judging=Judging(
            noise=STAND_IN_NOISE, aggregate=REUTERS_AGG + TEXT_AGG, select={"claim": True})),
    Artifact(
        "stevens2010", "complexity",
        "Sweep time against the number of non-zeros and of layers (our figure)", kind="figure",
        task="task_complexity",
        layout=RunLayout(
            datasets=("synthetic",), timing=True, params=COMPLEXITY_PARAMS, quick=COMPLEXITY_QUICK),
        shown=Shown(figure="figure_complexity")),
])
