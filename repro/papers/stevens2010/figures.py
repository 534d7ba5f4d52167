"""Figures of stevens2010: the λ studies (Figures 9, 13–15 on the Corel5k stand-in, 17 on
RCV1), per-topic comparison with PAMIR (Figure 18) and the complexity figure."""
from __future__ import annotations

import numpy as np

from ..plotting import count_ticks, figure, loglog_with_slopes, size_ticks

REG_LABEL = {"l1": "ℓ1", "l2": "ℓ2²"}


def _output(results):
    done = [r for r in results.values() if r.status == "done"]
    return done[0].output if done else None


def _reuters_output(results):
    """The Reuters run of replicate 0 as one output: its parts' per-topic values merged (each
    part fitted some of the methods), the other fields of the part that has them."""
    done = [r for r in results.values() if r.status == "done" and r.spec.repeat == 0]
    if not done:
        return None
    out = {}
    for r in done:
        for k, v in r.output.items():
            if k == "per_topic":
                for topic, methods in v.items():
                    out.setdefault(k, {}).setdefault(topic, {}).update(methods)
            elif v is not None and k not in out:
                out[k] = v
    return out


def _by_reg(rows, key):
    out = {}
    for r in rows:
        out.setdefault(r["reg"], []).append((r["lam"], r[key]))
    return {reg: sorted(v) for reg, v in out.items()}


def _lam_panel(ax, series: dict, ylabel: str, mark=None):
    for reg, pts in series.items():
        lam, v = zip(*pts)
        ax.semilogx(lam, v, "o-", ms=3, label=REG_LABEL.get(reg, reg))
    if mark is not None:
        ax.axvline(mark, color="0.5", lw=0.8, ls=":")
    ax.set_xlabel("regularisation weight λ")
    ax.set_ylabel(ylabel)
    ax.legend()


def figure_google_cv(art, results, flat, published):
    """Figure 9: validation domination loss and AP against λ, mean over the ten keywords."""
    out = _output(results)
    if out is None:
        return {}
    fig, axes = figure(ncols=2, height=2.8)
    curves = out["curves"]
    for ax, key, label in ((axes[0, 0], "validation_loss", "validation domination loss"),
                           (axes[0, 1], "validation_AP", "validation AP")):
        _lam_panel(ax, {reg: [(c["lam"], c[key]) for c in cs] for reg, cs in curves.items()},
                   label, out["chosen"]["lam"])
    axes[0, 0].set_title(f"Corel5k stand-in, {len(out['keywords'])} keywords; dotted: λ "
                         f"chosen ({REG_LABEL[out['chosen']['reg']]})")
    fig.tight_layout()
    return {"": fig}


def _single_rows(out):
    return [r for r in out["rows"] if r["keyword"] == out["single"]]


def figure_google_single_lambda(art, results, flat, published):
    """Figure 13: test loss and AP of one keyword's model against λ."""
    out = _output(results)
    if out is None:
        return {}
    rows = _single_rows(out)
    fig, axes = figure(ncols=2, height=2.8)
    _lam_panel(axes[0, 0], _by_reg(rows, "test_loss"), "test domination loss")
    _lam_panel(axes[0, 1], _by_reg(rows, "test_AP"), "test AP")
    axes[0, 0].set_title(f"Corel5k stand-in, keyword '{out['single']}'")
    fig.tight_layout()
    return {"": fig}


def figure_google_single_density(art, results, flat, published):
    """Figure 14: weight density and iterations to convergence against λ."""
    out = _output(results)
    if out is None:
        return {}
    rows = _single_rows(out)
    fig, axes = figure(ncols=2, height=2.8)
    _lam_panel(axes[0, 0], _by_reg(rows, "density"), "weight density")
    _lam_panel(axes[0, 1], _by_reg(rows, "iterations"), "iterations (coordinate updates)")
    axes[0, 0].set_title(f"Corel5k stand-in, keyword '{out['single']}'")
    fig.tight_layout()
    return {"": fig}


def _course_panels(axes, course, metrics, title):
    it = [c["iterations"] for c in course]
    for ax, (key, label) in zip(axes, metrics):
        ax.plot(it, [c[key] for c in course], "-", lw=1.0)
        count_ticks(ax, "x")                   # 0, 50k, 100k: labels that never collide
        ax.set_xlabel("iterations (coordinate updates)")
        ax.set_ylabel(label)
    axes[0].set_title(title)


def figure_google_course(art, results, flat, published):
    """Figure 15: test loss and AP over the course of training at the best λ."""
    out = _output(results)
    if out is None:
        return {}
    b = out["best_single"]
    fig, axes = figure(ncols=2, height=2.8)
    _course_panels(axes[0], out["course"], (("test_loss", "test domination loss"),
                                            ("test_AP", "test AP")),
                   f"keyword '{out['single']}', λ = {b['lam']:g} ({REG_LABEL[b['reg']]}); "
                   f"one point per sweep")
    fig.tight_layout()
    return {"": fig}


def figure_reuters_single(art, results, flat, published):
    """Figure 17: one topic — test AP and loss against λ; AP and loss during training."""
    out = _reuters_output(results)
    if out is None or out.get("single") is None:
        return {}
    s = out["single"]
    fig, axes = figure(ncols=2, nrows=2, height=2.6)
    _lam_panel(axes[0, 0], _by_reg(s["sweep"], "AP"), "test AP", s["best"]["lam"])
    _lam_panel(axes[0, 1], _by_reg(s["sweep"], "test_loss"), "test domination loss")
    axes[0, 0].set_title(f"RCV1 stand-in, topic {s['topic']} (index {s['index']})")
    _course_panels(axes[1], s["course"], (("AP", "test AP"), ("test_loss", "test loss")),
                   f"training at λ = {s['best']['lam']:g} ({REG_LABEL[s['best']['reg']]})")
    fig.tight_layout()
    return {"": fig}


def figure_reuters_topics(art, results, flat, published):
    """Figure 18: per-topic AP of Domination Rank against PAMIR, and the difference against
    the topic index (topics by decreasing training frequency)."""
    out = _reuters_output(results)
    if out is None:
        return {}
    per = out["per_topic"]
    pamir = "PAMIR-100M" if "PAMIR-100M" in next(iter(per.values())) else \
        [m for m in next(iter(per.values())) if m.startswith("PAMIR")][-1]
    topics = sorted(per, key=lambda t: -out["train_frequency"][t])
    dr = np.array([per[t]["DR-FeatureSelection"]["AP"] for t in topics])
    pm = np.array([per[t][pamir]["AP"] for t in topics])
    fig, axes = figure(ncols=2, height=3.0)
    ax = axes[0, 0]
    ax.plot(pm, dr, "o", ms=2.5)
    ax.plot([0, 1], [0, 1], "-", color="0.5", lw=0.8)
    ax.set_xlabel(f"{pamir} test AP")
    ax.set_ylabel("Domination Rank test AP")
    ax.set_title(f"RCV1 stand-in, {len(topics)} topics")
    ax = axes[0, 1]
    ax.bar(np.arange(1, len(topics) + 1), dr - pm, width=0.9)
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_xlabel("topic index (decreasing training frequency)")
    ax.set_ylabel(f"AP(DR) − AP({pamir})")
    fig.tight_layout()
    return {"": fig}


def figure_complexity(art, results, flat, published):
    out = _output(results)
    if out is None:
        return {}
    t = out["timings"]
    fig, axes = figure(ncols=2, height=2.9)
    x = [r["nnz"] for r in t["n"]]
    loglog_with_slopes(axes[0, 0], x, {"one sweep (ours)": [r["seconds"] for r in t["n"]]},
                       "non-zeros (∝ instances)")
    size_ticks(axes[0, 0], x)
    axes[0, 0].legend(loc="upper left")
    axes[0, 0].set_title("2 layers, 500 features")
    k = [r["layers"] for r in t["layers"]]
    axes[0, 1].plot(k, [r["seconds"] for r in t["layers"]], "o-", ms=3)
    axes[0, 1].set_ylim(bottom=0)
    axes[0, 1].set_xlabel("layers K")
    axes[0, 1].set_ylabel("seconds per sweep")
    axes[0, 1].set_title(f"{t['layers'][0]['n']} instances")
    fig.tight_layout()
    return {"": fig}
