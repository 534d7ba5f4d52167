"""Figures of dubey2009: Figure 3 (ours beside the published column), the Sec. 5.3 studies
(Figures 4–8, on stand-in data unless HP2004 is supplied), sampler throughput and complexity."""
from __future__ import annotations

import numpy as np

from ..plotting import figure, legend_outside, loglog_with_slopes, note, runs_done
from .names import FLOOR, METHODS, METRICS as _METRICS, skew_label

#: Figure 3's subtables in the order the paper prints them
PRINTED = ("NDCG@1", "NDCG@5", "NDCG@10", "MAP")


def _done(results) -> list:
    return [r for r in results.values() if r.status == "done"]


def _sens_outputs(art, results) -> dict[str, list[dict]]:
    """Sensitivity outputs per plotted dataset label (HP2004 wins over its stand-ins)."""
    done = [r for r in _done(results) if "sensitivity" in (r.output or {})]
    real = {r.spec.dataset for r in done if r.spec.dataset not in art.stand_ins}
    out: dict[str, list[dict]] = {}
    for r in sorted(done, key=lambda r: (r.spec.dataset, str(r.spec.fold))):
        ds = r.spec.dataset
        if ds in art.stand_ins and art.stand_ins[ds] in real:
            continue
        label = f"{ds} (stand-in for {art.stand_ins[ds]})" if ds in art.stand_ins else ds
        out.setdefault(label, []).append(r.output["sensitivity"])
    return out


def figure_figure3(art, results, flat, published):
    """Per metric: our fold means (paper definitions; LETOR 3.0 script as open markers) and
    the published value (red crosses, marked ``gid="published"`` so that the page's caption
    says the plot draws them), one row per method; the all-equal floor as a vertical line."""
    rows = [r for r in flat if r.get("fold") == "avg" and r.get("value") is not None
            and r.get("dataset") != "microaverage"]
    if not rows:
        return {}
    figs = {}
    for ds in sorted({r["dataset"] for r in rows}):
        recs = [r for r in rows if r["dataset"] == ds]
        methods = sorted(dict.fromkeys(r["method"] for r in recs if r["method"] != FLOOR),
                         key=lambda m: (METHODS.index(m) if m in METHODS else len(METHODS), m))
        fig, axes = figure(ncols=4, height=3.6)
        for ax, metric in zip(axes[0], [m for m in PRINTED if m in _METRICS]):
            cell = {r["method"]: r for r in recs if r["metric"] == metric}
            ys = np.arange(len(methods))[::-1]
            for y, m in zip(ys, methods):
                r = cell.get(m)
                if r is None:
                    continue
                ax.plot(r["value"], y, "o", color="C0", ms=4,
                        label="ours (paper's definitions)" if y == ys[0] else None)
                if r.get("LETOR_3.0") is not None:
                    ax.plot(r["LETOR_3.0"], y, "o", mfc="none", color="C2", ms=4,
                            label="ours (LETOR 3.0 script)" if y == ys[0] else None)
                if r.get("published") is not None:
                    try:
                        ax.plot(float(r["published"]), y, "x", color="C3", ms=5,
                                gid="published",   # the page's caption says it is drawn
                                label="published" if y == ys[0] else None)
                    except ValueError:
                        pass
            floor = next((r for r in recs if r["method"] == FLOOR
                          and r["metric"] == metric), None)
            if floor is not None:
                ax.axvline(floor["value"], color="0.5", lw=0.8, ls="--",
                           label="all-equal scores (file order)")
            ax.set_yticks(ys)
            ax.set_yticklabels(methods if ax is axes[0, 0] else [])
            ax.set_title(f"{ds}: {metric}")
        legend_outside(axes[0, 1], ncol=4)
        fig.subplots_adjust(left=0.17, right=0.99, wspace=0.08, bottom=0.2)
        figs[ds] = fig
    return figs


def _means(art, results, key: str) -> dict:
    """``{label: {setting: {metric: (mean over folds, mean sd over samples)}}}`` of a Sec. 5.3
    study from the run outputs (the folds that ran)."""
    out = {}
    for label, folds in _sens_outputs(art, results).items():
        pts = {}
        for setting in folds[0][key]:
            cell = {}
            for metric in ("MAP", "NDCG@10"):
                vals, sds = [], []
                for f in folds:
                    v = f[key][setting]
                    reps = v if isinstance(v, list) else [v]
                    vals.append(np.mean([r[metric] for r in reps]))
                    sds.append(np.std([r[metric] for r in reps], ddof=1) if len(reps) > 1 else 0.0)
                cell[metric] = (float(np.mean(vals)), float(np.mean(sds)))
            pts[setting] = cell
        out[label] = pts
    return out


def _title(ax, results):
    n = sum("sensitivity" in (r.output or {}) for r in _done(results))   # the studies' runs
    ax.set_title(f"fold means over the folds that ran ({n} run(s))", fontsize=7)


def figure_sample_size(art, results, flat, published):
    """Figure 4: test MAP and NDCG@10 against |Ŷ| (fold means; bars: sd over sample seeds),
    one row per dataset."""
    ser = _means(art, results, "figure4")
    if not ser:
        return {}
    fig, axes = figure(ncols=2, nrows=len(ser), height=2.3)
    for row, (label, pts) in enumerate(sorted(ser.items())):
        xs = sorted(pts, key=int)
        for col, metric in enumerate(("MAP", "NDCG@10")):
            ax = axes[row, col]
            ax.errorbar([int(x) for x in xs], [pts[x][metric][0] for x in xs],
                        yerr=[pts[x][metric][1] for x in xs], fmt="o-", ms=3, capsize=2,
                        color=f"C{row}")
            ax.set_xscale("log")
            ax.set_xlabel("|Ŷ| (states drawn per query)")
            ax.set_ylabel(f"test {metric}")
            ax.set_title(f"{label}; bars: sd over the sample seeds", fontsize=7)
    fig.tight_layout()
    return {"": fig}


def _ci_of(flat, dataset: str, method: str, metric: str):
    """The 95% bootstrap interval over the test queries of a record computed on ``dataset``
    (the data used: a stand-in's records carry the paper's label)."""
    for r in flat:
        if (r.get("data_used") or r.get("dataset")) == dataset and r.get("method") == method \
                and r.get("metric") == metric and r.get("fold") == "avg":
            ci = r.get("query_ci95")
            return ci if ci and None not in ci else None
    return None


def figure_skew(art, results, flat, published):
    """Figure 5: accuracy against the probability of restarting at Δ = 0 (0.9: skewed toward
    Δ = 0, 0.5: balanced, 0.1: skewed toward Δ = 1), one row per dataset; bars: each value's
    95% bootstrap interval over the test queries, so that a difference smaller than them
    reads as small as it is."""
    ser = _means(art, results, "figure5")
    if not ser:
        return {}
    fig, axes = figure(ncols=2, nrows=len(ser), height=2.3)
    for row, (label, pts) in enumerate(sorted(ser.items())):
        xs = sorted(pts, key=float)
        used = label.split(" ")[0]
        for col, metric in enumerate(("MAP", "NDCG@10")):
            ax = axes[row, col]
            y = [pts[x][metric][0] for x in xs]
            cis = [_ci_of(flat, used, skew_label(float(x)), metric) for x in xs]
            if all(cis):
                err = [[v - ci[0] for v, ci in zip(y, cis)], [ci[1] - v for v, ci in zip(y, cis)]]
                ax.errorbar([float(x) for x in xs], y, yerr=err, fmt="o-", ms=4, capsize=3,
                            color=f"C{row}")
            else:
                ax.plot([float(x) for x in xs], y, "o-", ms=4, color=f"C{row}")
            ax.set_xticks([float(x) for x in xs])
            ax.set_xlabel("Pr(restart at Δ = 0)  (else at Δ = 1)")
            ax.set_ylabel(f"test {metric}")
            ax.set_title(label, fontsize=7)
    note(fig, "Bars: 95% bootstrap interval of each value over the test queries (the "
              "claims' paired tests compare the settings query by query).")
    fig.tight_layout()
    return {"": fig}


def figure_restart_k(art, results, flat, published):
    """Figure 6: accuracy against k of Pr(restart) ∝ exp(kΔ); published HP2004 points."""
    ser = _means(art, results, "figure6")
    if not ser:
        return {}
    fig, axes = figure(ncols=2, height=2.8)
    for ax, metric in zip(axes[0], ("MAP", "NDCG@10")):
        for i, (label, pts) in enumerate(sorted(ser.items())):
            xs = sorted(pts, key=float)
            ax.plot([float(x) for x in xs], [pts[x][metric][0] for x in xs], "o-", ms=3,
                    color=f"C{i}", label=label)
        pub = sorted((int(v.method[2:]), v.value) for v in published.for_artifact("figure6")
                     if v.metric == metric and v.value is not None)
        if pub:
            ax.plot(*zip(*pub), "x--", color="C3", ms=5, lw=0.8, gid="published",
                    label="published (HP2004)")
        ax.set_xlabel("k  (Pr(restart y) ∝ exp(k Δ(y)))")
        ax.set_ylabel(f"test {metric}")
    _title(axes[0, 0], results)
    legend_outside(axes[0, 0], ncol=3)
    fig.tight_layout()
    return {"": fig}


def figure_smear(art, results, flat, published):
    """Figure 7: density of the sampled Δ for walks from the three restart seeds (summed over
    training queries and folds); one row per dataset, one column per Δ."""
    outs = _sens_outputs(art, results)
    if not outs:
        return {}
    kinds = ("AUC", "MAP", "NDCG")
    fig, axes = figure(ncols=3, nrows=len(outs), height=2.4)
    for row, (label, folds) in enumerate(sorted(outs.items())):
        bins = np.array(folds[0]["figure7"]["bins"])
        mids = 0.5 * (bins[1:] + bins[:-1])
        for col, kind in enumerate(kinds):
            ax = axes[row, col]
            for i, seed in enumerate(folds[0]["figure7"]["hist"]):
                h = np.sum([f["figure7"]["hist"][seed][kind] for f in folds], axis=0)
                ax.step(mids, h / max(h.sum(), 1), where="mid", color=f"C{i}",
                        label=f"restart {seed}")
            ax.set_xlabel(f"Δ_{kind}")
            ax.set_ylabel("fraction of states")
            ax.set_title(label, fontsize=7)
    legend_outside(axes[-1, 1], ncol=3)
    fig.tight_layout()
    return {"": fig}


def figure_dominance(art, results, flat, published):
    """Figure 8: wᵀφ(x, y) and wᵀδφ_q(y) (averaged over the first 10 L-BFGS iterations)
    against Δ_NDCG(y), 10 queries × 10 rankings per fold; the line y = Δ for scale."""
    outs = _sens_outputs(art, results)
    if not outs:
        return {}
    fig, axes = figure(ncols=2, nrows=len(outs), height=2.6)
    for row, (label, folds) in enumerate(sorted(outs.items())):
        pts = [p for f in folds for p in f["figure8"]["points"]]
        d = np.array([p["delta"] for p in pts])
        for col, (key, name) in enumerate((("wphi", "wᵀφ(x, y)"), ("wdphi", "wᵀδφ_q(y)"))):
            ax = axes[row, col]
            ax.scatter(d, [p[key] for p in pts], s=5, c=[p["query"] for p in pts],
                       cmap="viridis", alpha=0.8)
            ax.plot([0, 1], [0, 1], color="C3", lw=0.8, label="y = Δ")
            ax.set_yscale("symlog", linthresh=1.0)
            ax.set_xlabel("Δ_NDCG(y)")
            ax.set_ylabel(f"{name}, iterations 1–10")
            ax.set_title(label, fontsize=7)
            ax.legend(loc="best")
    fig.tight_layout()
    return {"": fig}


def figure_throughput(art, results, flat, published):
    """Sampler throughput per OHSUMED training query against n⁺n⁻."""
    done = _done(results)
    if not done:
        return {}
    rows = done[0].output["queries"]
    x = np.array([r["n_pos"] * r["n_neg"] for r in rows], dtype=float)
    lit_a = np.array([r["literal"]["attempts"] / r["literal"]["seconds"] for r in rows])
    lit_m = np.array([r["literal"]["moves"] / r["literal"]["seconds"] for r in rows])
    rf_m = np.array([r["rejection_free"]["moves"] / r["rejection_free"]["seconds"] for r in rows])
    fig, axes = figure(ncols=2, height=2.9)
    ax = axes[0, 0]
    ax.loglog(x, lit_a, ".", color="C1", label="literal: attempts / s")
    ax.loglog(x, lit_m, "o", ms=3, color="C0", label="literal: accepted moves / s")
    ax.loglog(x, rf_m, "s", ms=3, color="C2", label="rejection-free: moves / s")
    ax.set_xlabel("n⁺n⁻ of the query")
    ax.set_ylabel("per second")
    legend_outside(ax, ncol=1)
    ax = axes[0, 1]
    ax.loglog(x, rf_m / lit_m, "o", ms=3, color="C2", label="rejection-free / literal (moves/s)")
    ax.loglog(x, [r["literal"]["attempts"] / max(r["literal"]["moves"], 1) for r in rows], ".",
              color="C1", label="literal: attempts per accepted move")
    ax.set_xlabel("n⁺n⁻ of the query")
    legend_outside(ax, ncol=1)
    fig.tight_layout()
    return {"": fig}


def figure_complexity(art, results, flat, published):
    done = _done(results)
    if not done:
        return {}
    t = done[0].output["timings"]
    fig, axes = figure(ncols=2, height=2.9)
    ax = axes[0, 0]
    loglog_with_slopes(ax, [r["rows"] for r in t["sample_size"]],
                       {"ConvexLoss_NDCG objective + gradient": [r["seconds"] for r in t["sample_size"]]},
                       "sampled rankings Σ_q |Ŷ_q| (distinct)")
    ax.legend(loc="upper left")
    ax = axes[0, 1]
    x = [r["pairs"] for r in t["pairs"]]
    loglog_with_slopes(ax, x, {"ExpGain_AUC (closed form)": [r["ExpGain_AUC"] for r in t["pairs"]],
                               "ConvexLoss_NDCG (sampled)": [r["ConvexLoss"] for r in t["pairs"]],
                               "drawing Ŷ (rejection-free)": [r["sampler"] for r in t["pairs"]]},
                       "Σ_q n⁺n⁻ (good-bad pairs)")
    ax.legend(loc="upper left")
    runs_done(ax, len(done), len(results))
    fig.tight_layout()
    return {"": fig}
