"""Figures of lesmola2007: Figures 1–7 on the web-search stand-ins, and the complexity figure.
Each panel is one stand-in data set; values are fold means (records with fold "avg") unless
a figure says otherwise."""
from __future__ import annotations

import numpy as np

from ...plotting import figure, legend_outside, loglog_with_slopes, runs_done, size_ticks
from .names import NDCG_AT, SCHEMES_LABEL


def _done(results):
    return [r for r in results.values() if r.status == "done"]


def _datasets(flat):
    return [d for d in dict.fromkeys(r.get("dataset") for r in flat
                                     if r.get("value") is not None and r.get("fold") == "avg")]


def _avg(flat, dataset, method, metric):
    for r in flat:
        if (r.get("dataset") == dataset and r.get("method") == method
                and r.get("metric") == metric and r.get("fold") == "avg"):
            return r.get("value")
    return None


def _n_train(results, dataset_label, art):
    """Mean number of training queries of the folds (the x position of m = all)."""
    vals = [r.output["n_train"] for r in _done(results)
            if art.stand_ins.get(r.spec.dataset, r.spec.dataset) == dataset_label
            and "n_train" in r.output]
    return float(np.mean(vals)) if vals else None


def _panels(flat):
    ds = _datasets(flat)
    fig, axes = figure(ncols=max(1, len(ds)), height=3.2)
    return ds, fig, axes[0]


def figure_docs_per_query(art, results, flat, published):
    done = _done(results)
    if not done:
        return {}
    fig, axes = figure(ncols=len(done), height=2.8)
    for ax, r in zip(axes[0], done):
        s = np.array(r.output["sizes"])
        ax.hist(s, bins=np.arange(0, s.max() + 10, 5), color="C0")
        ax.axvline(np.median(s), color="C3", lw=1, label=f"median {np.median(s):g}")
        ax.axvline(50, color="0.5", lw=1, ls="--", label="paper: median ≈ 50")
        ax.set_xlabel("documents per query")
        ax.set_ylabel("queries")
        ax.set_title(f"{r.spec.dataset} ({s.size} queries)")
        ax.legend()
    fig.tight_layout()
    return {"": fig}


def figure_ndcg_at_n(art, results, flat, published):
    ds, fig, axes = _panels(flat)
    if not ds:
        return {}
    methods = list(dict.fromkeys(r["method"] for r in flat if r.get("fold") == "avg"))
    for ax, d in zip(axes, ds):
        for i, m in enumerate(methods):
            y = [_avg(flat, d, m, name) for name in NDCG_AT]
            if all(v is not None for v in y):
                ax.plot(range(1, 11), y, "o-", ms=3, color=f"C{i}", label=m,
                        lw=2 if m.startswith("DORM") else 1)
        ax.set_xlabel("truncation level n")
        ax.set_ylabel("test NDCG@n (×100), fold mean")
        ax.set_title(d)
        legend_outside(ax, ncol=3)
    runs_done(axes[0], len(_done(results)), len(results))
    return {"": fig}


def figure_by_size(art, results, flat, published):
    series = art.select["series"][0]
    measure = series[:-len(" by m")]
    ds, fig, axes = _panels(flat)
    if not ds:
        return {}
    methods = list(dict.fromkeys(r["method"] for r in flat if r.get("fold") == "avg"))
    for ax, d in zip(axes, ds):
        sizes = list(dict.fromkeys(r["metric"][len(measure) + 4:-1] for r in flat
                                   if r.get("dataset") == d and r.get("fold") == "avg"))
        n_all = _n_train(results, d, art)
        xs = [n_all if s == "all" else float(s) for s in sizes]
        order = np.argsort(xs)
        for i, m in enumerate(methods):
            y = [_avg(flat, d, m, f"{measure} (m={s})") for s in sizes]
            pts = [(xs[j], y[j]) for j in order if y[j] is not None and xs[j] is not None]
            if pts:
                ax.plot(*zip(*pts), "o-", ms=3, color=f"C{i}", label=m,
                        lw=2 if m.startswith("DORM") else 1)
        ax.set_xlabel("training queries m (first m of the fold)")
        ax.set_ylabel({"NDCG@10": "test NDCG@10 (×100)", "MRR": "test MRR (×100)",
                       "WTA correct": "correct test queries (WTA)"}[measure] + ", fold mean")
        ax.set_title(d)
        legend_outside(ax, ncol=2)
    runs_done(axes[0], len(_done(results)), len(results))
    return {"": fig}


def figure_c_spread(art, results, flat, published):
    rows = [r for r in flat if r.get("method") == SCHEMES_LABEL and r.get("value") is not None]
    if not rows:
        return {}
    ds = list(dict.fromkeys(r["dataset"] for r in rows))
    fig, axes = figure(ncols=len(ds), height=3.0)
    for ax, d in zip(axes[0], ds):
        pts = sorted((1.0 / np.sqrt(r["m"]), r["value"]) for r in rows
                     if r["dataset"] == d and r.get("m"))
        x, y = zip(*pts)
        ax.plot(x, y, "o-", ms=4, color="C0", label="max − min over the 8 schemes")
        if len(x) >= 2:
            k = float(np.dot(x, y) / np.dot(x, x))
            ax.plot([0, max(x)], [0, k * max(x)], "--", color="0.5", lw=1,
                    label=f"∝ 1/√m (least squares, {k:.1f})")
        ax.set_xlabel("1/√m")
        ax.set_ylabel("max difference in test NDCG@10 (×100)")
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.set_title(d)
        ax.legend()
    fig.tight_layout()
    return {"": fig}


def figure_runtime(art, results, flat, published):
    ds, fig, axes = _panels(flat)
    if not ds:
        return {}
    for ax, d in zip(axes, ds):
        rows = [(r["value"], r["method"]) for r in flat if r.get("dataset") == d
                and r.get("fold") == "avg" and r.get("value") is not None]
        rows.sort()
        if not rows:
            continue
        # on a log axis a bar cannot start at 0: it starts at a common base below the
        # smallest time (the bars' lengths on the page then compare ratios)
        base = min(v for v, _ in rows if v > 0) / 3.0
        ax.barh([m for _, m in rows], [v - base for v, _ in rows], left=base,
                color=["C3" if m.startswith("DORM") else "C0" for _, m in rows])
        ax.set_xscale("log")
        ax.set_xlim(base, None)
        ax.set_xlabel("seconds to fit and validate the grid of C (fold mean)")
        ax.set_title(d)
    fig.tight_layout()
    return {"": fig}


def figure_complexity(art, results, flat, published):
    done = _done(results)
    if not done:
        return {}
    rows = done[0].output["rows"]
    fig, axes = figure(ncols=2, height=3.0)
    for ax, axis, label in zip(axes[0], ("queries", "docs"),
                               ("queries m (50 documents each)",
                                "documents per query l (100 queries)")):
        x = [r[axis] for r in rows[axis]]
        loglog_with_slopes(ax, x, {"DORM fit": [r["seconds"] for r in rows[axis]]}, label)
        size_ticks(ax, x)
        ax2 = ax.twinx()
        ax2.plot(x, [r["kernel_share"] for r in rows[axis]], "s--", ms=3, color="C2",
                 label="% in assignment kernel")
        ax2.plot(x, [r["qp_share"] for r in rows[axis]], "^--", ms=3, color="C4",
                 label="% in QP")
        ax2.set_ylim(0, 100)
        ax2.set_ylabel("% of the fit")
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, loc="upper left")
    fig.tight_layout()
    return {"": fig}
