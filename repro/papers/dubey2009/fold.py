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

from ...evidence import Evidence
from ...rankers.conditional import SampleCache
from .figure3 import computes, run_figure3
from .protocol import load_splits
from .sampling import run_sensitivity


def task_fold(ctx) -> dict:
    """One fold of ``ctx.dataset``: records and per-query tables of every artifact (of the
    replicated ones in a replicate ``ctx.spec.repeat`` > 0)."""
    p = ctx.params
    repeat = ctx.spec.repeat
    figure3 = ctx.dataset in p["figure3_datasets"] and computes(p, repeat)
    sensitivity = ctx.dataset in p["sensitivity_datasets"]
    if not (figure3 or sensitivity):        # a part with nothing to do in this replicate
        return Evidence(computed="nothing: this part's work is replicate 0's").output()
    splits, cleaning = load_splits(ctx.dataset, ctx.fold, ctx.data_dir, p["clean"])
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
