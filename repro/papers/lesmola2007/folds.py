"""The fold task shared by Table 1, Figures 2–7, Table 2 and the claims: one run per (dataset,
fold), the UCI study (:mod:`.uci`) or the web-search study (:mod:`.web`) by dataset.

One task serves both studies because the claims artifact checks claims of both and an
artifact names one task; so the two studies share a code key (editing one reruns the other's
folds too).

Replicates (Table 1 and the claims declare 5): a UCI run of replicate r draws its own sample
of queries (:func:`.uci.table1_queries`) and fits every method on it; the web-search methods
are deterministic on the official folds, so a web run of a replicate r > 0 computes nothing
(its values are replicate 0's)."""
from __future__ import annotations

from ...evidence import Evidence
from .names import UCI
from .uci import run_uci_fold
from .web import run_web_fold


def task_fold(ctx) -> dict:
    """One fold: the UCI protocol (Table 1) or the web-search protocol (Figures 2–7,
    Table 2), by dataset (``ctx.like``: the paper's dataset a user's set stands in for under
    ``--on``, else the dataset itself)."""
    if ctx.like in UCI:
        p = ctx.params["uci"]
        ev = run_uci_fold(ctx.dataset, int(ctx.fold), p, ctx.data_dir, ctx.log,
                          ctx.spec.repeat)
        ev.detail["folds"] = int(p["folds"])
    elif ctx.spec.repeat > 0:
        ev = Evidence(deterministic="the web-search methods are computed in replicate 0")
    else:
        ev = run_web_fold(ctx.dataset, int(ctx.fold), ctx.params["web"], ctx.data_dir, ctx.log,
                          like=ctx.like)
    return ev.output()
