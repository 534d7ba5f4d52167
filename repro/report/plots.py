"""Shared figure helpers (matplotlib, Agg backend): a paper-like style and log-log timing
plots with fitted slopes."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..bench import fit_exponent  # noqa: E402

STYLE = {"font.size": 9, "axes.grid": True, "grid.alpha": 0.3, "legend.fontsize": 7,
         "axes.spines.top": False, "axes.spines.right": False, "svg.hashsalt": "repro-rank"}


def figure(ncols: int = 1, nrows: int = 1, width: float = 4.2, height: float = 3.0):
    """A figure with paper-like style; returns ``(fig, axes)``."""
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                                 squeeze=False)
    for ax in axes.ravel():
        ax.grid(True, alpha=0.3)
    return fig, axes


def loglog_with_slopes(ax, x, series: dict, xlabel: str, ylabel: str = "seconds"):
    """Plot each ``name -> times`` on log-log axes, labelled with its fitted slope."""
    slopes = {}
    for name, t in series.items():
        s = fit_exponent(x, t)
        slopes[name] = s
        ax.loglog(x, t, "o-", ms=3, label=f"{name} (slope {s:.2f})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend()
    return slopes
