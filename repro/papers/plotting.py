"""Figures: one paper-like style for the whole figure, and shared helpers (log-log timings with
fitted slopes, size ticks, compact count ticks, a colour bar for a family of curves, a note
the page prints as the figure's caption — "30 of 40 runs done" among them — rather than text
drawn over the data).

The style applies to everything drawn while :func:`style` is active — axes, legends, texts
and the saved file — and the report's figure step runs every figure function inside it, so
figure functions set no font sizes of their own.  Matplotlib runs with the Agg backend.
"""
from __future__ import annotations

import contextlib
import zlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullFormatter  # noqa: E402

from ..run.timing import fit_exponent

#: One colour per method wherever a figure of the site draws it (every figure takes a
#: method's colour from :func:`method_colours`, never from the order it happens to draw in).
#: The paper's own method in reds and oranges, the baselines in blues, greens and greys.
METHOD_COLOURS = {
    # lesmola2007: DORM and its baselines
    "DORM": "#d62728", "DORM (NDCG)": "#d62728", "DORM (MRR)": "#ff7f0e",
    "DORM (NDCG, c=(i+1)^-1)": "#e377c2", "DORM (WTA)": "#8c564b", "DORM (mWTA)": "#bcbd22",
    "DORM fit": "#d62728",
    "ROCArea": "#1f77b4", "SVM": "#2ca02c", "RSVM": "#9467bd", "BM25": "#7f7f7f",
    "Precision@10": "#17becf", "Prec@10": "#17becf", "Precision@3": "#0b6e75",
    "least squares on the gains (reference, not in the paper)": "#393b79",
    # leelin2014
    "Tree-TRON (L2 loss)": "#1f77b4", "cutting plane (L1 loss)": "#d62728",
}
#: colours of methods the map does not name: a stable choice by name, the next free one when
#: a figure already uses it (never two methods of one figure in one colour)
SPARE_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                 "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39",
                 "#7b4173", "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363")


def method_colours(names) -> dict[str, str]:
    """The colour of each of ``names`` (the methods one figure draws): the site's colour of a
    method :data:`METHOD_COLOURS` names; for another name a colour chosen by a hash of the
    name (the same in every figure), or the next colour no other method of this figure has."""
    names = list(dict.fromkeys(names))
    out = {n: METHOD_COLOURS[n] for n in names if n in METHOD_COLOURS}
    used = set(out.values())
    for n in names:
        if n in out:
            continue
        i = zlib.crc32(n.encode("utf-8")) % len(SPARE_COLOURS)
        for k in range(len(SPARE_COLOURS)):
            c = SPARE_COLOURS[(i + k) % len(SPARE_COLOURS)]
            if c not in used:
                break
        out[n] = c
        used.add(c)
    return out


def method_colour(name: str) -> str:
    """The colour of one method (:func:`method_colours` of it alone)."""
    return method_colours([name])[name]

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
    colour = method_colours(series)
    for name, t in series.items():
        pts = [(a, b) for a, b in zip(x, t) if b is not None]
        if not pts:
            continue
        xs, ts = zip(*pts)
        fit = [(a, b) for a, b in pts if fit_from is None or a >= fit_from]
        s = fit_exponent(*zip(*fit)) if len(fit) >= 2 else float("nan")
        slopes[name] = s
        ax.loglog(xs, ts, "o-", ms=3, color=colour[name], label=f"{name} (slope {s:.2f})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return slopes


def size_ticks(ax, values) -> None:
    """Ticks at exactly ``values`` on a log x axis, written 2.5k / 40k / 1.2M."""
    ax.set_xticks(list(values))
    ax.set_xticklabels([short_number(v) for v in values])
    ax.xaxis.set_minor_formatter(NullFormatter())


#: the attribute a figure's caption note is kept in (the report's figure step reads it)
NOTE_ATTR = "repro_note"


def note(fig, text: str) -> None:
    """A sentence the page prints under the figure (its caption), legible at any size and
    never drawn over the data; several notes are joined."""
    if text:
        old = getattr(fig, NOTE_ATTR, "")
        setattr(fig, NOTE_ATTR, f"{old} {text}".strip() if old else text)


def note_of(fig) -> str:
    """The figure's caption note ("" without one)."""
    return getattr(fig, NOTE_ATTR, "")


def runs_done(ax, done: int, total: int) -> None:
    """When only some of a figure's runs finished, the figure's caption says so."""
    if done < total:
        note(ax.figure, f"{done} of {total} runs done: the curves show the runs that finished.")


def short_number(v: float) -> str:
    """A tick label of a count: 2.5k, 40k, 1.2M (one way for every figure)."""
    v = float(v)
    a = abs(v)
    if a >= 1e6:
        return f"{v / 1e6:g}M"
    if a >= 1e3:
        return f"{v / 1e3:g}k"
    return f"{v:g}"


def count_ticks(ax, axis: str = "x", nbins: int = 5) -> None:
    """At most ``nbins`` ticks on a linear count axis, labelled 0, 50k, 100k: long numbers
    never run into each other."""
    target = ax.xaxis if axis == "x" else ax.yaxis
    target.set_major_locator(MaxNLocator(nbins=nbins, integer=True))
    target.set_major_formatter(FuncFormatter(lambda v, _: short_number(v)))


def family_colours(values, cmap: str = "viridis"):
    """Colours of a family of curves indexed by ``values`` (a sequential colour map, in
    order) and the colour bar's mappable: ``(colour of each value, mappable, boundaries)``."""
    import numpy as np
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import BoundaryNorm
    vals = list(values)
    cm = matplotlib.colormaps[cmap].resampled(max(len(vals), 2))
    bounds = np.arange(len(vals) + 1) - 0.5
    norm = BoundaryNorm(bounds, cm.N)
    sm = ScalarMappable(norm=norm, cmap=cm)
    return {v: cm(i / max(len(vals) - 1, 1)) for i, v in enumerate(vals)}, sm


def legend_outside(ax, ncol: int = 1) -> None:
    """A legend below the axes, so that it never covers data."""
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=ncol, frameon=False)
