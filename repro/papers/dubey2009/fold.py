"""The run of one (dataset, fold, replicate): Figure 3's methods (if the dataset is one of
Figure 3's) and the Sec. 5.3 studies (if it is one of Figures 4–8's), sharing the fold's splits
and ConvexLoss_NDCG fit.  Replicate 0 computes everything; a later replicate (its own seed)
only what has training randomness and is replicated: Figure 3's stochastic methods and
Figures 6–8.

A long fold is split into parts (``SPLIT`` in ``__init__``): runs that differ only by their
parameters — Figure 3's methods (``methods``; the floor, ``floor``) and whether the studies run
(``figure3_datasets``, ``sensitivity_datasets``) — with the seed of the unsplit run (seeds do
not derive from parameters), so every model is the one the unsplit run fits.  The studies'
part refits the ConvexLoss_NDCG model that Figure 3's part fits too (same seed, same grid:
the same model)."""
from __future__ import annotations

from dataclasses import dataclass

from ...evidence import Evidence
from ...rankers.conditional import SampleCache
from ...spec.params import StudyParams, study
from .figure3 import computes, run_figure3
from .protocol import load_splits
from .sampling import run_sensitivity


@dataclass(frozen=True)
class Smear(StudyParams):
    """Figure 7: walks of ``states`` states from each restart seed, Δ in ``bins`` bins."""
    states: int
    bins: int


@dataclass(frozen=True)
class Dominance(StudyParams):
    """Figure 8: ``queries`` training queries × ``rankings`` rankings, first ``iterations``."""
    queries: int
    rankings: int
    iterations: int


@dataclass(frozen=True)
class Sensitivity(StudyParams):
    """The Sec. 5.3 studies: Figure 4's sample sizes (``sample_repeats`` samples each),
    Figure 5's restart skews, Figure 6's ``ks`` (Pr ∝ exp(kΔ) over ``restart_states``
    rankings), Figures 7 and 8."""
    sizes: list[int]
    sample_repeats: int
    skews: list[float]
    ks: list[float]
    restart_states: int
    smear: Smear
    dominance: Dominance


@dataclass(frozen=True)
class FoldParams(StudyParams):
    """The parameters of one fold's run: the datasets of Figure 3 and of the studies, Figure 3's
    methods and their grids (validation MAP chooses), the sampler's settings (Sec. 4), the
    cleaning of the splits (:data:`.protocol.CLEAN_MODES`), the tie seeds of the measures;
    ``floor``: whether the all-equal floor runs here (false in a split run's other parts)."""
    clean: str
    figure3_datasets: list[str]
    sensitivity_datasets: list[str]
    methods: list[str]
    C: list[float]
    ranksvm_C: list[float]
    svmmap_C: list[float]
    rankboost_rounds: list[int]
    sample_size: int
    walk_length: int
    restart_skew: float
    ndcg_k: int
    phi_scale: bool
    n_inits: int
    max_iter: int
    tol: float
    tie_seeds: int
    sensitivity: Sensitivity
    floor: bool = True


@study(FoldParams)

def task_fold(ctx) -> dict:
    """One fold of ``ctx.dataset``: records and per-query tables of every artifact (of the
    replicated ones in a replicate ``ctx.spec.repeat`` > 0)."""
    p = FoldParams.of(ctx)
    repeat = ctx.spec.repeat
    figure3 = ctx.dataset in p.figure3_datasets and computes(p, repeat)
    sensitivity = ctx.dataset in p.sensitivity_datasets
    if not (figure3 or sensitivity):        # a part with nothing to do in this replicate
        return Evidence(computed="nothing: this part's work is replicate 0's").output()
    splits, cleaning = load_splits(ctx.dataset, ctx.fold, ctx.data_dir, p.clean)
    ev = Evidence(cleaning=cleaning,
                  sizes={k: [v.n_queries, v.n_docs] for k, v in splits.items()})
    base = None
    cache = SampleCache()          # the default-setting sample Ŷ, drawn once for the fold
    if figure3:
        ev.detail["figure3"], base = run_figure3(splits, p, ctx.seed, ctx.log, ev, repeat,
                                                 cache)
    if sensitivity:
        ev.detail["sensitivity"] = run_sensitivity(splits, p, ctx.seed, ctx.log, ev,
                                                   ctx.dataset, base, repeat, cache)
    return ev.output()
