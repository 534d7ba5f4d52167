"""The fold task shared by Table 1, Figures 2–7, Table 2 and the claims: one run per (dataset,
fold), the UCI study (:mod:`.uci`) or the web-search study (:mod:`.web`) by dataset.

One task serves both studies because the claims artifact checks claims of both and an
artifact names one task; so the two studies share a code key (editing one reruns the other's
folds too).

Replicates (Table 1 and the claims declare 5): a UCI run of replicate r draws its own sample
of queries (:func:`.uci.table1_queries`) and fits every method on it.  The web-search methods
are deterministic on the official folds but sensitive to last-bit arithmetic: a web run of
replicate 0 < r < ``WEB_REPEATS`` fits every method on the training split perturbed by a
2⁻⁴⁰ relative jitter seeded by the run's identity (:func:`repro.data.perturb.jittered`) and
evaluates it on the unperturbed validation and test splits (arithmetic replicates); a web run
of a later replicate (the claims' replicates 3 and 4, which the UCI sampling needs) computes
nothing."""
from __future__ import annotations

from dataclasses import dataclass

from ...evidence import Evidence
from ...spec.params import StudyParams, study
from .names import UCI, WEB_REPEATS
from .uci import UciParams, run_uci_fold
from .web import WebParams, run_web_fold


@dataclass(frozen=True)
class FoldParams(StudyParams):
    """The parameters of both studies (a run uses the one of its dataset)."""
    uci: UciParams
    web: WebParams


@study(FoldParams)

def task_fold(ctx) -> dict:
    """One fold: the UCI protocol (Table 1) or the web-search protocol (Figures 2–7,
    Table 2), by dataset (``ctx.like``: the paper's dataset a user's set stands in for under
    ``--on``, else the dataset itself)."""
    p = FoldParams.of(ctx)
    if ctx.like in UCI:
        ev = run_uci_fold(ctx.dataset, int(ctx.fold), p.uci, ctx.data_dir, ctx.log,
                          ctx.spec.repeat)
        ev.detail["folds"] = int(p.uci.folds)
    elif ctx.spec.repeat >= WEB_REPEATS:
        ev = Evidence(arithmetic=f"the web-search methods have {WEB_REPEATS} arithmetic "
                                 f"replicates (0 … {WEB_REPEATS - 1})")
    else:
        ev = run_web_fold(ctx.dataset, int(ctx.fold), p.web, ctx.data_dir, ctx.log,
                          like=ctx.like,
                          jitter_seed=ctx.seed if ctx.spec.repeat > 0 else None)
    return ev.output()
