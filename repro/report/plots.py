"""Shared figure helpers (matplotlib, Agg backend): a paper-like style, log-log timing plots
with fitted slopes, curves with published points overlaid."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

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


def fitted_slope(x, t) -> float:
    """Least-squares slope of log t on log x (the empirical exponent)."""
    x, t = np.asarray(x, float), np.asarray(t, float)
    ok = (x > 0) & (t > 0)
    return float(np.polyfit(np.log(x[ok]), np.log(t[ok]), 1)[0])


def loglog_with_slopes(ax, x, series: dict, xlabel: str, ylabel: str = "seconds"):
    """Plot each ``name -> times`` on log-log axes, labelled with its fitted slope."""
    slopes = {}
    for name, t in series.items():
        s = fitted_slope(x, t)
        slopes[name] = s
        ax.loglog(x, t, "o-", ms=3, label=f"{name} (slope {s:.2f})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend()
    return slopes


def overlay_published(ax, x, y, label: str = "published", **kw):
    """Published points, drawn as open black markers over our curves."""
    ax.plot(x, y, linestyle="none", marker=kw.pop("marker", "s"), mfc="none", mec="black",
            label=label, **kw)
