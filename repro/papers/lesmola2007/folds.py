"""The fold task shared by Table 1, Figures 2–7, Table 2 and the claims: one run per (dataset,
fold), the UCI study (:mod:`.uci`) or the web-search study (:mod:`.web`) by dataset.

One task serves both studies because the claims artifact checks claims of both and an
artifact names one task; so the two studies share a code key (editing one reruns the other's
folds too)."""
from __future__ import annotations

from .names import UCI
from .uci import run_uci_fold
from .web import run_web_fold


def task_fold(ctx) -> dict:
    """One fold: the UCI protocol (Table 1) or the web-search protocol (Figures 2–7,
    Table 2), by dataset (``ctx.like``: the paper's dataset a user's set stands in for under
    ``--on``, else the dataset itself)."""
    if ctx.like in UCI:
        p = ctx.params["uci"]
        ev = run_uci_fold(ctx.dataset, int(ctx.fold), p, ctx.data_dir, ctx.log)
        ev.detail["folds"] = int(p["folds"])
    else:
        ev = run_web_fold(ctx.dataset, int(ctx.fold), ctx.params["web"], ctx.data_dir, ctx.log,
                          like=ctx.like)
    return ev.output()
