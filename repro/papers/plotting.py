"""Figures: one paper-like style for the whole figure, and shared helpers (log-log timings with
fitted slopes, size ticks, a "runs done" note).

The style applies to everything drawn while :func:`style` is active — axes, legends, texts
and the saved file — and the report's figure step runs every figure function inside it, so
figure functions set no font sizes of their own.  Matplotlib runs with the Agg backend.
"""
from __future__ import annotations

import contextlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402

from ..run.timing import fit_exponent

STYLE = {
    "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "xtick.labelsize": 7,
    "ytick.labelsize": 7, "legend.fontsize": 7, "legend.framealpha": 0.85,
    "axes.grid": True, "grid.alpha": 0.3, "axes.spines.top": False,
    "axes.spines.right": False, "svg.hashsalt": "repro-rank", "svg.fonttype": "path",
    "figure.dpi": 100,
}

# Full column width of a report page, in inches (the HTML page and the PDF's text block).
FULL_WIDTH = 7.0


@contextlib.contextmanager
def style():
    """The suite's figure style, for the whole figure (creation, legends, saving)."""
    with plt.rc_context(STYLE):
        yield


def figure(ncols: int = 1, nrows: int = 1, width: float | None = None,
           height: float = 2.8):
    """A figure of ``nrows`` × ``ncols`` panels, ``width`` inches wide in all (default: the
    full column width); returns ``(fig, axes)`` with ``axes`` 2-d."""
    width = FULL_WIDTH if width is None else width
    with style():
        fig, axes = plt.subplots(nrows, ncols, figsize=(width, height * nrows), squeeze=False)
    return fig, axes


def loglog_with_slopes(ax, x, series: dict, xlabel: str, ylabel: str = "seconds",
                       fit_from=None) -> dict[str, float]:
    """Plot each ``name -> times`` (None = not measured) on log-log axes, labelled with its
    least-squares slope (over points with x ≥ ``fit_from`` if given); returns the slopes."""
    slopes = {}
    for i, (name, t) in enumerate(series.items()):
        pts = [(a, b) for a, b in zip(x, t) if b is not None]
        if not pts:
            continue
        xs, ts = zip(*pts)
        fit = [(a, b) for a, b in pts if fit_from is None or a >= fit_from]
        s = fit_exponent(*zip(*fit)) if len(fit) >= 2 else float("nan")
        slopes[name] = s
        ax.loglog(xs, ts, "o-", ms=3, color=f"C{i}", label=f"{name} (slope {s:.2f})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return slopes


def size_ticks(ax, values) -> None:
    """Ticks at exactly ``values`` on a log x axis, written 2.5k / 40k / 1.2M."""
    def fmt(v):
        v = float(v)
        if v >= 1e6:
            return f"{v / 1e6:g}M"
        if v >= 1e3:
            return f"{v / 1e3:g}k"
        return f"{v:g}"
    ax.set_xticks(list(values))
    ax.set_xticklabels([fmt(v) for v in values])
    ax.xaxis.set_minor_formatter(NullFormatter())


def runs_done(ax, done: int, total: int) -> None:
    """A note in the corner when only some of a figure's runs finished."""
    if done < total:
        ax.text(0.99, 0.01, f"{done} of {total} runs done", transform=ax.transAxes,
                ha="right", va="bottom", fontsize=6, color="0.4")


def legend_outside(ax, ncol: int = 1) -> None:
    """A legend below the axes, so that it never covers data."""
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=ncol, frameon=False)
