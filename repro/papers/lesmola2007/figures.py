"""Figures of lesmola2007: Figures 1–7 on the web-search stand-ins, the curve over C of Table 1,
and the complexity figure.  Each web panel is one stand-in data set, titled by what it is
(:func:`~.names.shown_as`: "MQ2008 (stand-in for the paper's web-search data)"); values are
fold means (records with fold "avg") unless a figure says otherwise.  Figure 2's note — why
MQ2008's NDCG@n falls at n = 9–10 — is written from the records (:func:`short_query_note`)
and printed as the figure's caption on the page."""
from __future__ import annotations

import numpy as np

from ..plotting import (figure, legend_outside, loglog_with_slopes, method_colours, note,
                        runs_done, size_ticks)
from .names import (C_SERIES, CHOSEN_C, FIGURE2_METHODS, NDCG10, NDCG_AT, OPTIMISM,
                    SCHEMES_LABEL, SHORT, TEST_QUERIES, UCI_METHODS, UCI_REFERENCE, nested,
                    ndcg_long, shown_as)


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
        ax.set_title(f"{shown_as(r.spec.dataset)} ({s.size} queries)")
        ax.legend()
    fig.tight_layout()
    return {"": fig}


def short_queries(flat, dataset) -> tuple[int, dict[int, int]] | None:
    """``(test queries, {n: test queries with fewer than n documents})`` of ``dataset``, summed
    over the folds' records (every test query once: the folds' test splits partition the
    queries); None without them."""
    per_fold = [r for r in flat if r.get("dataset") == dataset and r.get("method") == "data"
                and r.get("fold") not in (None, "avg") and r.get("value") is not None]
    total = sum(int(r["value"]) for r in per_fold if r["metric"] == TEST_QUERIES)
    if not total:
        return None
    return total, {n: sum(int(r["value"]) for r in per_fold if r["metric"] == SHORT.format(n=n))
                   for n in range(1, len(NDCG_AT) + 1)}


def short_query_note(flat, dataset) -> str:
    """Why NDCG@n falls with n on ``dataset``, from its records: the test queries with fewer
    than n documents (NDCG@n = 0 for them under the official LETOR 4.0 evaluation) at the step
    where most queries become too short, and the fold-mean NDCG@n of each method over all
    queries against over the queries with ≥ n documents there.  Empty if no query is short."""
    got = short_queries(flat, dataset)
    if got is None or not any(got[1].values()):
        return ""
    total, short = got
    n = max(range(2, len(NDCG_AT) + 1), key=lambda k: (short[k] - short[k - 1], -k))
    parts = []
    for m in FIGURE2_METHODS:
        vals = [(_avg(flat, dataset, m, f"NDCG@{k}"), _avg(flat, dataset, m, ndcg_long(k)))
                for k in (n - 1, n)]
        if all(v is not None for pair in vals for v in pair):
            parts.append(f"{m} {vals[0][0]:.1f} → {vals[1][0]:.1f} (dotted: "
                         f"{vals[0][1]:.1f} → {vals[1][1]:.1f})")
    shares = ", ".join(f"n = {k}: {short[k]} ({100.0 * short[k] / total:.1f}%)"
                       for k in range(1, len(NDCG_AT) + 1) if short[k])
    return (f"{shown_as(dataset)}: the official LETOR 4.0 evaluation scores NDCG@n = 0 for a "
            f"query with fewer than n documents. Of its {total} test queries, those with fewer "
            f"than n documents: {shares}. The largest step is from n = {n - 1} to n = {n}, "
            "where NDCG@n falls: " + "; ".join(parts) + ". Dotted: NDCG@n over the queries "
            "with at least n documents only (fold means).")


def figure_ndcg_at_n(art, results, flat, published):
    ds, fig, axes = _panels(flat)
    if not ds:
        return {}
    methods = [m for m in dict.fromkeys(r["method"] for r in flat if r.get("fold") == "avg")
               if m != "data"]
    notes = []
    colour = method_colours(methods)
    for ax, d in zip(axes, ds):
        short = short_query_note(flat, d)
        for m in methods:
            y = [_avg(flat, d, m, name) for name in NDCG_AT]
            if all(v is not None for v in y):
                ax.plot(range(1, 11), y, "o-", ms=3, color=colour[m], label=m,
                        lw=2 if m.startswith("DORM") else 1)
            long_y = [_avg(flat, d, m, ndcg_long(k)) for k in range(1, 11)]
            if short and all(v is not None for v in long_y):
                ax.plot(range(1, 11), long_y, ":", color=colour[m], lw=1)
        ax.set_xlabel("truncation level n" + (" (dotted: queries of ≥ n documents)"
                                              if short else ""))
        ax.set_ylabel("test NDCG@n (×100), fold mean")
        ax.set_title(shown_as(d))
        legend_outside(ax, ncol=2)
        if short:
            notes.append(short)
    runs_done(axes[0], len(_done(results)), len(results))
    for text in notes:              # the page's caption, legible at any size
        note(fig, text)
    return {"": fig}


def figure_c_curve(art, results, flat, published):
    """Table 1's curve over C: per UCI set, each method's fold-mean NDCG@10 at every C (the
    curve the literal selection takes the maximum of, marked ★), its nested cross-validation
    value (dashed) and, in the legend, the chosen C (the grid's edge said) and the optimism."""
    curve = [r for r in flat if r.get("series") == C_SERIES and r.get("value") is not None]
    ds = list(dict.fromkeys(r["dataset"] for r in curve))
    if not ds:
        return {}
    fig, axes = figure(nrows=len(ds), width=7.0, height=2.3)
    edge = max(float(r["fitted_C"]) for r in curve)

    def one(d, m, metric):
        return next((r["value"] for r in flat if r.get("dataset") == d and r.get("method") == m
                     and r.get("metric") == metric and r.get("fold") is None
                     and r.get("value") is not None), None)
    colour = method_colours((*UCI_METHODS, UCI_REFERENCE))
    for ax, d in zip(axes[:, 0], ds):
        for m in (*UCI_METHODS, UCI_REFERENCE):
            pts = sorted((float(r["fitted_C"]), r["value"]) for r in curve
                         if r["dataset"] == d and r["method"] == m)
            if not pts:
                continue
            chosen, lit = one(d, m, CHOSEN_C), one(d, m, NDCG10)
            label = "reference (least squares)" if m == UCI_REFERENCE else m
            if chosen is not None:
                label += f": C = {chosen:g}" + (" (the grid's edge)" if chosen >= edge else "")
            opt = one(d, m, OPTIMISM)
            if opt is not None:
                label += f", optimism {opt:+.2f}"
            ax.plot(*zip(*pts), "o-", ms=3, color=colour[m], label=label,
                    lw=2 if m == "DORM" else 1)
            if chosen is not None and lit is not None:
                ax.plot([chosen], [lit], "*", ms=9, color=colour[m])
            nest = one(d, nested(m), NDCG10)
            if nest is not None:
                ax.axhline(nest, ls="--", lw=0.8, color=colour[m])
        ax.axvline(edge, color="0.6", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_ylabel("NDCG@10 (×100)")
        ax.set_title(f"{d}: fold mean at each C (★ literal choice; dashed: nested CV)")
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    axes[-1, 0].set_xlabel("C (dotted: the grid's upper edge)")
    fig.tight_layout()
    runs_done(axes[0, 0], len(_done(results)), len(results))
    return {"": fig}


def figure_by_size(art, results, flat, published):
    series = art.judging.select["series"][0]
    measure = series[:-len(" by m")]
    ds, fig, axes = _panels(flat)
    if not ds:
        return {}
    methods = list(dict.fromkeys(r["method"] for r in flat if r.get("fold") == "avg"))
    colour = method_colours(methods)
    for ax, d in zip(axes, ds):
        sizes = list(dict.fromkeys(r["metric"][len(measure) + 4:-1] for r in flat
                                   if r.get("dataset") == d and r.get("fold") == "avg"))
        n_all = _n_train(results, d, art)
        xs = [n_all if s == "all" else float(s) for s in sizes]
        order = np.argsort(xs)
        for m in methods:
            y = [_avg(flat, d, m, f"{measure} (m={s})") for s in sizes]
            pts = [(xs[j], y[j]) for j in order if y[j] is not None and xs[j] is not None]
            if pts:
                ax.plot(*zip(*pts), "o-", ms=3, color=colour[m], label=m,
                        lw=2 if m.startswith("DORM") else 1)
        ax.set_xlabel("training queries m (first m of the fold)")
        ax.set_ylabel({"NDCG@10": "test NDCG@10 (×100)", "MRR": "test MRR (×100)",
                       "WTA correct": "correct test queries (WTA)"}[measure] + ", fold mean")
        ax.set_title(shown_as(d))
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
        ax.set_title(shown_as(d))
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
        colour = method_colours(m for _, m in rows)
        # on a log axis a bar cannot start at 0: it starts at a common base below the
        # smallest time (the bars' lengths on the page then compare ratios)
        base = min(v for v, _ in rows if v > 0) / 3.0
        ax.barh([m for _, m in rows], [v - base for v, _ in rows], left=base,
                color=[colour[m] for _, m in rows])
        ax.set_xscale("log")
        ax.set_xlim(base, None)
        ax.set_xlabel("seconds to fit and validate the grid of C (fold mean)")
        ax.set_title(shown_as(d))
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
