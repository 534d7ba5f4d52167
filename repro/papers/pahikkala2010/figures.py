"""Figures of pahikkala2010: validation curves (Figures 1–4) and the complexity figure."""
from __future__ import annotations

import matplotlib
import numpy as np

from ..plotting import figure, legend_outside, loglog_with_slopes, size_ticks

FIGURE_METRIC = {"figure1": "MAP", "figure2": "MeanNDCG", "figure3": "MAP", "figure4": "MeanNDCG"}


def figure_validation(art, results, flat, published):
    """Average validation metric over the folds against k, one curve per λ (Figures 1–4)."""
    metric = FIGURE_METRIC[art.name]
    done = [r for r in results.values() if r.status == "done"]
    if not done:
        return {}
    folds = [r.output for r in sorted(done, key=lambda r: str(r.spec.fold))]
    k_max = min(r["k_max"] for r in folds)
    exps = sorted(folds[0]["curves"], key=int)
    fig, axes = figure(height=3.4)
    ax = axes[0, 0]
    cmap = matplotlib.colormaps["viridis"]
    ks = np.arange(1, k_max + 1)
    for i, e in enumerate(exps):
        avg = np.mean([r["curves"][e][metric][:k_max] for r in folds], axis=0)
        color = cmap(i / max(1, len(exps) - 1))
        ax.plot(ks, avg, "-", lw=1.0, color=color, label=f"λ = 2^{e}")
        j = int(np.argmax(avg))
        ax.plot(ks[j], avg[j], "o", ms=3, color=color)
    ax.set_xlabel("number of selected features k")
    ax.set_ylabel(f"average validation {metric}")
    ax.set_title(f"{done[0].spec.dataset}: average over {len(folds)} validation fold(s); "
                 f"dots: best k per λ")
    legend_outside(ax, ncol=6)
    return {"": fig}


def figure_complexity(art, results, flat, published):
    """Wall time against m, n and k (log-log, fitted slopes), with the slope 1 that the
    paper's O(kmn) claims drawn through each curve's first point (the published claim,
    marked gid="published" so that the caption says it is overlaid)."""
    done = [r for r in results.values() if r.status == "done"]
    if not done:
        return {}
    timings = done[0].output["timings"]
    fig, axes = figure(ncols=3, height=3.2)
    labels = {"m": "documents m", "n": "features n", "k": "selected features k"}
    for ax, axis in zip(axes[0], ("m", "n", "k")):
        rows = timings[axis]
        x = [r["docs"] if axis == "m" else r[axis] for r in rows]
        t = [r["ours"] for r in rows]
        loglog_with_slopes(ax, x, {"ours (Cython)": t}, labels[axis])
        if t and t[0] is not None:
            ref = [t[0] * xi / x[0] for xi in x]
            ax.loglog(x, ref, "--", lw=0.9, color="0.45", gid="published",
                      label="claimed O(kmn): slope 1")
        size_ticks(ax, x)
        legend_outside(ax)
        fixed = {k: v for k, v in rows[0]["config"].items() if k != axis}
        ax.set_title(", ".join(f"{k} = {v}" for k, v in fixed.items()))
    fig.tight_layout()
    return {"": fig}
