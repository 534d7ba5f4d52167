"""Figures of pahikkala2010: validation curves (Figures 1–4) and the complexity figure."""
from __future__ import annotations

import numpy as np

from ..plotting import family_colours, figure, legend_outside, size_ticks

FIGURE_METRIC = {"figure1": "MAP", "figure2": "MeanNDCG", "figure3": "MAP", "figure4": "MeanNDCG"}


def figure_validation(art, results, flat, published):
    """Average validation metric over the folds against k, one curve per λ (Figures 1–4): λ
    by a sequential colour map with a colour bar (eleven curves that a legend could not tell
    apart), each curve's best k as a dot, the best curve of all labelled directly."""
    metric = FIGURE_METRIC[art.name]
    done = [r for r in results.values() if r.status == "done"]
    if not done:
        return {}
    folds = [r.output for r in sorted(done, key=lambda r: str(r.spec.fold))]
    k_max = min(r["k_max"] for r in folds)
    exps = sorted(folds[0]["curves"], key=int)
    fig, axes = figure(height=3.4)
    ax = axes[0, 0]
    colours, mappable = family_colours(exps)
    ks = np.arange(1, k_max + 1)
    best = None
    for e in exps:
        avg = np.mean([r["curves"][e][metric][:k_max] for r in folds], axis=0)
        ax.plot(ks, avg, "-", lw=1.0, color=colours[e])
        j = int(np.argmax(avg))
        ax.plot(ks[j], avg[j], "o", ms=3, color=colours[e])
        if best is None or avg[j] > best[2]:
            best = (e, ks[j], avg[j])
    if best is not None:
        ax.annotate(f"best: λ = 2^{best[0]}, k = {best[1]}", (best[1], best[2]),
                    xytext=(18, -16), textcoords="offset points", fontsize=7,
                    arrowprops={"arrowstyle": "-", "color": "0.4", "lw": 0.6})
    bar = fig.colorbar(mappable, ax=ax, ticks=range(len(exps)), pad=0.02, fraction=0.05)
    bar.ax.set_yticklabels([f"2^{e}" for e in exps])
    bar.set_label("λ (RankRLS regularisation)")
    ax.set_xlabel("number of selected features k")
    ax.set_ylabel(f"average validation {metric}")
    ax.set_title(f"{done[0].spec.dataset}: average over {len(folds)} validation fold(s); "
                 f"dots: best k per λ")
    return {"": fig}


def _recorded(flat, metric: str):
    return next((r.get("value") for r in flat if r.get("metric") == metric
                 and r.get("value") is not None), None)


def figure_complexity(art, results, flat, published):
    """Wall time against m, n and k (log-log), each curve labelled with the exponent the page
    judges (the records' values, so that figure and table say the same): in m and n the
    slope of the total time; in k the slope of the steps t(k) − t(1) against k − 1 (the claim
    is about the k steps of O(mn); the O(mn) set-up is t(1)), the total time beside it.  The
    slope 1 that the paper's O(kmn) claims is drawn through each curve's first point (the
    published claim, marked gid="published" so that the caption says it is overlaid)."""
    done = [r for r in results.values() if r.status == "done"]
    if not done:
        return {}
    timings = done[0].output["timings"]
    fig, axes = figure(ncols=3, height=3.5)
    labels = {"m": "documents m", "n": "features n", "k": "selected features k"}
    for ax, axis in zip(axes[0], ("m", "n", "k")):
        rows = timings[axis]
        x = [r["docs"] if axis == "m" else r[axis] for r in rows]
        t = [r["ours"] for r in rows]
        base = t[x.index(1)] if axis == "k" and 1 in x else None
        steps = [(k - 1, tk - base) for k, tk in zip(x, t)
                 if base is not None and k > 1 and tk > base]
        if axis == "k" and steps:
            judged, total = _recorded(flat, "exponent in k"), _recorded(
                flat, "exponent in k (total time, with the O(mn) set-up)")
            ax.loglog(*zip(*steps), "o-", ms=3, color="C0",
                      label="steps t(k) − t(1) vs k − 1"
                      + (f":\nslope {judged:.2f} (judged)" if judged is not None else ""))
            ax.loglog(x, t, "s:", ms=2.5, color="C1", lw=0.9,
                      label="total time t(k)" + (f": slope {total:.2f}" if total is not None
                                                 else ""))
            x0, t0 = steps[0]
            ref_x = [a for a, _ in steps]
            ax.loglog(ref_x, [t0 * xi / x0 for xi in ref_x], "--", lw=0.9, color="0.45",
                      gid="published", label="claimed O(kmn): slope 1")
            ax.set_xlabel("selected features k (steps: k − 1)")
            ax.set_ylabel("seconds")
        else:
            judged = _recorded(flat, f"exponent in {axis}")
            ax.loglog(x, t, "o-", ms=3, color="C0",
                      label="ours" + (f": slope {judged:.2f} (judged)"
                                      if judged is not None else ""))
            if t and t[0] is not None:
                ax.loglog(x, [t[0] * xi / x[0] for xi in x], "--", lw=0.9, color="0.45",
                          gid="published", label="claimed O(kmn): slope 1")
            ax.set_xlabel(labels[axis])
            ax.set_ylabel("seconds")
        size_ticks(ax, x)
        legend_outside(ax)                      # under the axes: never over a curve
        fixed = {k: v for k, v in rows[0]["config"].items() if k != axis}
        ax.set_title(", ".join(f"{k} = {v}" for k, v in fixed.items()))
    fig.tight_layout()
    return {"": fig}
