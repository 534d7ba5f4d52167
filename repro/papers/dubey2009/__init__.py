"""Dubey, Machchhar, Bhattacharyya, Chakrabarti (2009), *Conditional Models for Non-smooth
Ranking Loss Functions* (ICDM): conditional probability models over rankings y ∈ {±1}^{n⁺n⁻}
(eq. 3), the MLE (eq. 10), expected-gain objectives ExpGain (eq. 6–8, closed form for AUC via the
Figure 1 identities, Sec. 2.3), the bound L₃ and ConvexLoss (Sec. 3, eq. 14), and the sample Ŷ
drawn once by the MCMC swap sampler of Fig. 2 with restarts (Sec. 4).

Method: :mod:`repro.rankers.conditional` (objectives, L-BFGS; Cython kernel
``kernels/conditional.pyx``), :mod:`repro.rankers.swap_sampler` (Fig. 2, literal and
rejection-free; ``kernels/swap_sampler.pyx``), :mod:`repro.rankers.deltas` (Δ of Sec. 1.6);
baselines :mod:`repro.rankers.rankboost`, :mod:`repro.rankers.svmmap` and the suite's
:class:`~repro.rankers.RankSVM`.

Runs: ``task_fold`` (:mod:`.fold`, one per dataset and fold; an OHSUMED fold in the three parts
of ``SPLIT``) fits Figure 3's methods (:mod:`.figure3`, the §5.1 protocol of :mod:`.protocol`)
and runs the Sec. 5.3 studies (:mod:`.sampling`); ``task_throughput`` (:mod:`.throughput`) and
``task_complexity`` (:mod:`.complexity`) are timing runs.  Figure 3's cells, the microaverage,
the FoldMeans of Figures 4–8 and the claims (:mod:`.claims`) are declared below; the one custom
aggregation is the computed context of the OHSUMED gap (:mod:`.gap`).  Names: :mod:`.names`.

The report's words are in ``prose.md`` (:func:`repro.papers.prose.paper`); the code cites the
paper's sections and equations where they explain it.
"""
from ...judge import published as _published
from ...judge.kinds import Cells, CellsWithGap, Custom, FoldMean, MicroAverage
from ...spec import SAME_QUERIES, SEEDS, Artifact, Judging, Noise, Reference, RunLayout, Shown
from .claims import DECLARED as CLAIMS_DECLARED
from .names import (BASELINES, CLAIMS, CLEANED, FIGURE3, FIGURE4, FIGURE5, FIGURE6, FIGURE7,
                    FIGURE8, FLOOR, LETOR3, LETOR3_RANDOM, METHODS, METRICS, PAPER_DEF,
                    PAPER_RANDOM, PER_FOLD, SENS_METHOD, SENS_METRICS, MLE, EXPGAIN,
                    L3, CONVEX)
from ...metrics.family import get_convention
from .. import prose
from ..replicates import replicated


#: the paper's measures (Sec. 1.6.2-1.6.3), as the metric family computes them from the ranks of
#: the good documents (``python -m repro eval --convention dubey2009``)
CONVENTION = get_convention("binary_ranks").replace(
    name="dubey2009",
    source="Dubey et al. (2009) Sec. 1.6.2-1.6.3: binary gain z (good iff label >= 1), D(i) = 1 "
           "for ranks 1-2 and 1/log2(rank) beyond, AP normalised by n+; measured on queries "
           "with a good document only (others: NaN)")

#: the report's words (prose.md) and the paper
PROSE, PAPER = prose.paper(__name__, order=2, id="dubey2009", text="001_6d8b563b3ae0bb43.txt",
                           title="Conditional Models for Non-smooth Ranking Loss Functions",
                           authors="A. Dubey, J. Machchhar, C. Bhattacharyya, S. Chakrabarti",
                           venue="ICDM 2009")
NOTES = PROSE.notes

#: LETOR 3.0 query counts (TOML [protocol]): Figure 3's microaverage weights
WEIGHTS = dict(_published.load("dubey2009").protocol.get("microaverage_weights", {}))

#: Figure 3's cells: the paper's measure (ties in file order), the other conventions as fields
#: of the cell and, with the context of the RankSVM and floor rows, in its note
CELLS = Cells(select={"part": FIGURE3, PER_FOLD: True}, variant="convention", main=PAPER_DEF,
              drop=(PER_FOLD,), weights=WEIGHTS, weight="queries", notes=(
                  ("ties at random {:.4f}; LETOR 3.0 script {:.4f} (ties at random {:.4f})",
                   (PAPER_RANDOM, LETOR3, LETOR3_RANDOM)),
                  ("; cleaned test split {:.4f}", (CLEANED,)),
                  ("; context: our RankSVM {:.4f}, all-equal scores {:.4f} (random order {:.4f})",
                   (f"RankSVM|{PAPER_DEF}", f"{FLOOR}|{PAPER_DEF}", f"{FLOOR}|{PAPER_RANDOM}"))))

_GOV = ("TD2003", "TD2004", "HP2003", "HP2004", "NP2003", "NP2004")
_LETOR3 = ("OHSUMED",) + _GOV
_SENS_DATA = ("HP2004", "OHSUMED", "MQ2008")
_FOLDS = (1, 2, 3, 4, 5)

PARAMS = {
    "clean": "train+vali",
    "figure3_datasets": list(_LETOR3),
    "sensitivity_datasets": list(_SENS_DATA),
    "methods": list(METHODS),
    "C": [0.01, 0.1, 1.0, 10.0, 100.0],
    "ranksvm_C": [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0],
    "svmmap_C": [1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1000.0],
    "rankboost_rounds": [10, 30, 100, 300, 1000],
    "sample_size": 1000, "walk_length": 10, "restart_skew": 0.9, "ndcg_k": 10,
    "phi_scale": False, "n_inits": 3, "max_iter": 500, "tol": 1e-5, "tie_seeds": 5,
    "sensitivity": {"sizes": [30, 100, 300, 1000, 3000], "sample_repeats": 2,
                    "skews": [0.9, 0.5, 0.1], "ks": [5, 0, -5, -10, -20], "restart_states": 11,
                    "smear": {"states": 200, "bins": 20},
                    "dominance": {"queries": 10, "rankings": 10, "iterations": 10}},
}
#: an OHSUMED fold (Figure 3's thirteen methods and the Sec. 5.3 studies) is the longest run of
#: the paper: split into independent parts (.fold) — Figure 3's baselines and floor, its
#: conditional models (MLE; each ExpGain and L_3 variant alone: the non-convex fits from 3
#: starts, 6–12 s a fold; the ConvexLoss variants together: warm-started, ≈ 0.5 s each), the
#: studies — each with the fold's seed, so each model is the unsplit one.  A second stage of
#: the replicate design extends only the parts that compute a value it would decide.
_FAMILIES = (("MLE", (MLE,)), *((m, (m,)) for m in EXPGAIN + L3), ("ConvexLoss", CONVEX))
SPLIT = {"OHSUMED": (("baselines", {"methods": list(BASELINES), "sensitivity_datasets": []}),
                     *((f"conditional-{name}", {"methods": list(methods), "floor": False,
                                                "sensitivity_datasets": []})
                       for name, methods in _FAMILIES),
                     ("studies", {"figure3_datasets": []}))}
QUICK = {"folds": (1,), "params": {
    "C": [0.1, 10.0], "ranksvm_C": [1e-4, 1e-2], "svmmap_C": [0.1, 10.0],
    "rankboost_rounds": [10, 100], "sample_size": 100, "n_inits": 2, "tie_seeds": 2,
    "sensitivity": {"sizes": [30, 100], "sample_repeats": 2, "skews": [0.9, 0.1],
                    "ks": [0, -10], "restart_states": 6, "smear": {"states": 50, "bins": 10},
                    "dominance": {"queries": 4, "rankings": 5, "iterations": 5}}}}
#: replicates of the runs with training randomness (..replicates): a replicate > 0
#: refits only the stochastic methods (.figure3.replicated) and Figure 6 (.sampling)
_REPLICATED = replicated(QUICK)
#: Figure 3 (and its claims): the paper's own test queries, training randomness varies
FIGURE3_NOISE = Noise(SAME_QUERIES, (SEEDS,), why=(
    "our test queries are the official LETOR 3.0 folds, the paper's own: query sampling "
    "cannot separate two scores on identical queries; what can is the training randomness of "
    "the conditional models (the sample Ŷ and the random starts: measured over 3 seeds, or 8 "
    "where the two-stage design extends them; the baselines are deterministic) and "
    "arithmetic (checked with `python -m repro stability`)"))
#: the Sec. 5.3 studies that are replicated (Figures 6-8)
STUDY_NOISE = Noise(SAME_QUERIES, (SEEDS,), why=(
    "the published numbers are HP2004's, which is not available: OHSUMED and MQ2008 stand in, "
    "judged as stand-ins over 3 seeds of the sampler"))
# Sec. 5.3 studies: HP2004 as in the paper (runs when supplied); OHSUMED and MQ2008 as
# labelled stand-ins (MQ2008's records keep their own label).  Figure 6, the one study with
# published numbers, is replicated, and Figures 7-8 with it (cheap; their claims average the
# replicates' fold statistics); Figures 4 and 5 (no numbers, expensive) are one run each.
_SENS = dict(datasets=_SENS_DATA, stand_ins={"OHSUMED": "HP2004", "MQ2008": "HP2004"},
             folds=_FOLDS, params=PARAMS, split=SPLIT, quick=QUICK)     # their RunLayout

ARTIFACTS = PROSE.describe_all([
    Artifact(
        "dubey2009", "figure3",
        "Figure 3: MAP, NDCG@1, NDCG@5, NDCG@10 of the baselines, MLE, ExpGain, L_3 and ConvexLoss on LETOR 3.0",
        task="task_fold",
        layout=RunLayout(
            datasets=_LETOR3, folds=_FOLDS, params=PARAMS,
            split=SPLIT,
            reference=Reference(3, "MAP", METRICS, fields={
                "part": FIGURE3, "evaluation": "official LETOR 3.0 script, graded labels"}),
            **_REPLICATED),
        judging=Judging(
            aggregate=(CellsWithGap(CELLS, context="see 'claims', rows 'context'"),
                       MicroAverage(select={"part": FIGURE3, "fold": "avg"})),
            # the per-fold records feed the cells; their query tables are kept (sidecar)
            select={"part": FIGURE3, PER_FOLD: None}, noise=FIGURE3_NOISE),
        shown=Shown(metrics=METRICS, methods=METHODS, figure="figure_figure3")),
    Artifact(
        "dubey2009", "figure4",
        "Figure 4: effect of the sample size |Ŷ| on test accuracy (HP2004, ConvexLoss_NDCG)",
        kind="figure", task="task_fold",
        layout=RunLayout(**_SENS),
        judging=Judging(aggregate=(FoldMean(select={"part": FIGURE4}),),
                        select={"part": FIGURE4, "fold": "avg"}),
        shown=Shown(methods=(SENS_METHOD,), metrics=SENS_METRICS, figure="figure_sample_size")),
    Artifact(
        "dubey2009", "figure5",
        "Figure 5: effect of restart skew between Δ = 0 and Δ = 1 (HP2004, ConvexLoss_NDCG)",
        kind="figure", task="task_fold",
        layout=RunLayout(**_SENS),
        judging=Judging(aggregate=(FoldMean(select={"part": FIGURE5}),),
                        select={"part": FIGURE5, "fold": "avg"}),
        shown=Shown(methods=(SENS_METHOD,), metrics=SENS_METRICS, figure="figure_skew")),
    Artifact(
        "dubey2009", "figure6",
        "Figure 6: effect of restart skew with more than two restart states",
        task="task_fold",
        layout=RunLayout(**{**_SENS, **_REPLICATED}),
        judging=Judging(aggregate=(FoldMean(select={"part": FIGURE6}),),
                        select={"part": FIGURE6, "fold": "avg"}, noise=STUDY_NOISE),
        shown=Shown(metrics=SENS_METRICS, methods=(SENS_METHOD,), figure="figure_restart_k")),
    Artifact(
        "dubey2009", "figure7", "Figure 7: smear of the sampled Δ density for three restart seeds",
        kind="figure", task="task_fold",
        layout=RunLayout(**{**_SENS, **_REPLICATED}),
        judging=Judging(aggregate=(FoldMean(select={"part": FIGURE7}),),
                        select={"part": FIGURE7, "fold": "avg"}, noise=STUDY_NOISE),
        shown=Shown(metrics=("sd of Δ", "mean of Δ"), figure="figure_smear")),
    Artifact(
        "dubey2009", "figure8", "Figure 8: wᵀφ(x,y) against Δ(y) as w evolves",
        kind="figure", task="task_fold",
        layout=RunLayout(**{**_SENS, **_REPLICATED}),
        judging=Judging(aggregate=(FoldMean(select={"part": FIGURE8}),),
                        select={"part": FIGURE8, "fold": "avg"}, noise=STUDY_NOISE),
        shown=Shown(figure="figure_dominance")),
    Artifact(
        "dubey2009", "claims", "Claims of Sec. 5.2–5.3 on the columns that ran here",
        kind="check", task="task_fold",
        layout=RunLayout(datasets=_LETOR3 + ("MQ2008",), folds=_FOLDS, params=PARAMS,
                         split=SPLIT, **_REPLICATED),
        judging=Judging(
            # the claims, declared (.claims); the one Custom: the context of the OHSUMED gap
            # (fold means across conventions beside two papers' published numbers, .gap)
            aggregate=(*CLAIMS_DECLARED, Custom("gap_context")), select={"part": CLAIMS},
            noise=FIGURE3_NOISE)),
    Artifact(
        "dubey2009", "throughput",
        "Throughput of the literal and rejection-free swap samplers (our figure)", kind="figure",
        task="task_throughput",
        layout=RunLayout(
            datasets=("OHSUMED",), folds=(1,), timing=True,
            params={"restart_skew": 0.9, "walk_length": 10, "literal_states": 220,
                    "rf_states": 22000, "repeats": 3, "min_seconds": 0.05},
            quick={"params": {"restart_skew": 0.9, "walk_length": 10, "literal_states": 44,
                              "rf_states": 440, "repeats": 1, "min_seconds": 0.0}}),
        shown=Shown(figure="figure_throughput")),
    Artifact(
        "dubey2009", "complexity",
        "Cost of the objectives and of the sampler against |Ŷ| and n⁺n⁻ (our figure)",
        kind="figure", task="task_complexity",
        layout=RunLayout(
            datasets=("synthetic",), timing=True,
            params={"features": 45, "queries": 20, "base_docs": 150, "walk_length": 10,
                    "sample_sizes": [100, 300, 1000, 3000, 10000], "fixed_sample": 1000,
                    "docs": [50, 100, 200, 400, 800], "repeats": 3, "min_seconds": 0.2},
            quick={"params": {"features": 10, "queries": 5, "base_docs": 60, "walk_length": 10,
                              "sample_sizes": [30, 100], "fixed_sample": 50, "docs": [40, 80],
                              "repeats": 1, "min_seconds": 0.0}}),
        shown=Shown(figure="figure_complexity")),
])
