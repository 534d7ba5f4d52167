"""Figures of leelin2014: Figure (II) and the complexity figure."""
from __future__ import annotations

from ..plotting import figure, legend_outside, method_colour, method_colours, size_ticks


def figure_ii(art, results, flat, published):
    """One figure per data set, its three panels (relative function value, pairwise accuracy,
    NDCG against iterations) in a 2 × 2 grid at full width — the fourth cell holds the
    legend — so that each panel reads at the size of the page; every curve inside its axes."""
    done = [r for r in results.values() if r.status == "done"]
    figs = {}
    for res in done:
        o = res.output
        ds = res.spec.dataset
        fig, grid = figure(2, 2, height=2.6)
        axes = [grid[0, 0], grid[0, 1], grid[1, 0]]
        tr = o["tron"][1:] or o["tron"]          # iterates after the first Newton step
        fstar = o["tron_fstar"]
        dflt = o["tron"][o["tron_default_index"]]
        cg = [max(c["cg"], 1) for c in tr]
        ax = axes[0]
        rel = [((c["f"] - fstar) / fstar, x) for c, x in zip(tr, cg)]
        ax.loglog([x for r, x in rel if r > 0], [r for r, x in rel if r > 0], "o-", ms=2.5,
                  color=method_colour("Tree-TRON (L2 loss)"), label="Tree-TRON (L2 loss)")
        if "cp" in o:
            cp = o["cp"][1:]
            cst = o["cp_fstar"]
            relc = [((c["f"] - cst) / cst, c["iter"]) for c in cp]
            ax.loglog([x for r, x in relc if r > 0], [r for r, x in relc if r > 0], "-",
                      lw=1, color=method_colour("cutting plane (L1 loss)"),
                      label="cutting plane (L1 loss)")
        ax.axhline(max((dflt["f"] - fstar) / fstar, 1e-16), color="k", ls="--", lw=0.8,
                   label="Tree-TRON default stopping")
        ax.set_ylabel("relative function value")
        cs = f"C = {o['C_L2']}" + (f" (TRON), {o['C_L1']} (cutting plane)" if "cp" in o else "")
        ax.set_title(f"{ds}: {cs}")
        for ax, key in ((axes[1], "pairwise accuracy"), (axes[2], "NDCG")):
            if key not in tr[0]:
                ax.text(0.5, 0.5, f"{key}: not used for {ds}\n(labels are ranks)",
                        ha="center", va="center", transform=ax.transAxes)
                ax.set_axis_off()
                continue
            ax.semilogx(cg, [c[key] for c in tr], "o-", ms=2.5,
                        color=method_colour("Tree-TRON (L2 loss)"))
            vals = [c[key] for c in tr] + [dflt[key]]
            if "cp" in o:
                pts = [c for c in o["cp"][1:] if key in c]
                ax.semilogx([max(c["iter"], 1) for c in pts], [c[key] for c in pts], "-", lw=1,
                            color=method_colour("cutting plane (L1 loss)"))
                vals += [c[key] for c in pts]
            ax.axhline(dflt[key], color="k", ls="--", lw=0.8)
            pad = 0.03 * (max(vals) - min(vals) or 1.0)
            ax.set_ylim(min(vals) - pad, max(vals) + pad)    # every curve inside the axes
            ax.set_ylabel(f"{key} (test)" if key != "NDCG" else
                          ("NDCG@10 (Yahoo)" if ds.startswith("Yahoo") else "mean NDCG (LETOR)"))
            ax.set_title(ds)
        for ax in axes:
            if ax.axison:
                ax.set_xlabel("iterations (CG iterations for Tree-TRON)")
        handles, labels = axes[0].get_legend_handles_labels()
        grid[1, 1].set_axis_off()
        grid[1, 1].legend(handles, labels, loc="center", frameon=False)
        fig.tight_layout()
        figs[ds] = fig
    return figs


def _recorded(flat, method: str, metric: str):
    return next((r for r in flat if r.get("method") == method and r.get("metric") == metric
                 and r.get("value") is not None), None)


def figure_complexity(art, results, flat, published):
    """One row per number of levels k: the counted operations of one f + ∇f + Hv (left:
    what the page judges) and its median time over the interleaved rounds (right, beside),
    against l on log-log axes; each curve labelled with its exponent from the records (so
    that figure and table say the same; times with their 95 % interval over the rounds)."""
    res = next((r for r in results.values() if r.status == "done"), None)
    if res is None:
        return {}
    o = res.output
    sizes = o["sizes"]
    ks = o.get("levels", list(o["curves"]))
    fig, axes = figure(2, len(ks), height=3.0)
    names = {"direct": "(a) direct", "joachims": "(b) Joachims", "tree": "(c) tree",
             "pairs": "explicit pairs"}
    from .complexity import LABELS
    colour = method_colours(names.values())
    for row, k in zip(axes, ks):
        for col, (ax, data, what, unit) in enumerate((
                (row[0], o.get("counts", {}).get(k), "exponent", "operations"),
                (row[1], o["curves"][k], "time exponent", "seconds"))):
            if data is None:
                ax.set_axis_off()
                continue
            for i, m in enumerate(names):
                pts = [(l, v) for l, v in zip(sizes, data[m]) if v is not None]
                if not pts:
                    continue
                rec = _recorded(flat, LABELS[m], f"{what} in l (k = {k})")
                lab = names[m]
                if rec is not None:
                    ci = rec.get("ci95")
                    lab += f" ({rec['value']:.2f}" + (
                        f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci and all(
                            c == c for c in ci) else "") + ")"
                ax.loglog(*zip(*pts), "o-", ms=3, color=colour[names[m]], label=lab)
            size_ticks(ax, sizes)
            kt = "k = l" if k == "l" else f"k = {k}"
            ax.set_title(f"{kt}: " + ("operations (judged)" if col == 0 else
                                      "time (beside, median of rounds)"))
            ax.set_xlabel("documents l")
            ax.set_ylabel(unit + " per f + ∇f + Hv")
            legend_outside(ax, ncol=2)
    fig.tight_layout()
    return {"": fig}
