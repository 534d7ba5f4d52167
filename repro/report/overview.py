"""The answer of a paper at a glance (``<paper>/overview.svg``, on the index and at the top of
the paper's page): every value compared with a published number as d = ours − published in units of its margin
δ (the paper's resolution: one scale for every paper), with the 90% interval of d, coloured
by verdict (a forest plot,
grouped by artifact in the paper's order; timing artifacts last, with their complexity
verdicts only),
and under it the paper's tested claims as a strip of outcomes, one mark per claim and data
set, grouped by claim.

Drawn from the artifacts' JSON files only (as the pages are), in the verdict colours of
:mod:`.palette`, with the suite's figure style; deterministic SVG (:func:`.build.save_figure`).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from ..evidence.record import defined
from ..papers.plotting import plt, style
from .build import TIMING_DIR, save_figure
from .format import fmt_general, where
from .palette import fill, mark, short
from .scoreboard import claim_row, claims_of, declared_order, group_claims
from .standins import declared_stand_ins, stand_ins_of
from .verdicts import bucket, verdict_class

OVERVIEW_FILE = "overview.svg"
#: differences beyond this many margins are drawn at the edge, as arrows
CAP = 12.0
#: buckets whose values are drawn: a published number compared with ours
DRAWN = ("reproduced", "inconclusive", "deviates", "stand-in", "unverified", "check",
         "derived")
#: timing artifacts enter only with a complexity verdict of the equivalence rule (their
#: measured times and exponents are on the timing page)
TIMED = ("reproduced", "inconclusive", "deviates")
WIDTH = 5.6            # inches: two figures side by side on a wide index page


@dataclass
class Point:
    group: str
    css: str
    rel: float                      # (ours − published) / |published|, in %
    lo: float | None
    hi: float | None
    label: str


def _rel(x: float, pub: float) -> float:
    return 100.0 * (x - pub) / abs(pub)


def points(flat: list[dict], group: str, drawn=DRAWN) -> list[Point]:
    """The values of one artifact compared with a published number (its bucket is one of
    ``drawn``), as d = ours − published in units of its margin δ, with the 90% interval of
    d: one scale for every paper."""
    out = []
    for r in flat:
        d, m = r.get("d"), r.get("margin")
        if not _num(d) or not _num(m) or float(m) <= 0 or bucket(r) not in drawn:
            continue
        ci = r.get("d_ci90")
        lo = hi = None
        if isinstance(ci, (list, tuple)) and len(ci) == 2 and all(_num(x) for x in ci):
            lo, hi = float(ci[0]) / float(m), float(ci[1]) / float(m)
        out.append(Point(group, verdict_class(r), float(d) / float(m), lo, hi, where(r)))
    return out


_num = defined             # the one definedness rule (repro.evidence.record)


def artifact_name(name: str) -> str:
    """"table1" → "Table 1", "figureII" → "Figure II", "sectionII" → "Section II"."""
    m = re.fullmatch(r"(table|figure|section)(\w+)", name)
    return f"{m.group(1).capitalize()} {m.group(2)}" if m else name


def _read(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return data if isinstance(data, list) else []


def _meta(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def paper_evidence(paper_mod, out_root: Path) -> tuple[list[Point], list[dict]]:
    """(compared values, tested claims) of a paper as rendered into ``out_root``: the claims
    as scoreboard rows, in the paper's order (:func:`.scoreboard.group_claims`)."""
    pid = paper_mod.PAPER.id
    declared = declared_stand_ins(pid, getattr(paper_mod, "PUBLISHED_PATH", None))
    pts, rows, datasets, metrics = [], [], [], []
    arts = [a for a in paper_mod.ARTIFACTS if not a.timing] + \
        [a for a in paper_mod.ARTIFACTS if a.timing]
    for art in arts:
        base = Path(out_root) / pid / (TIMING_DIR if art.timing else "")
        flat = _read(base / f"{art.name}.json")
        meta = _meta(base / f"{art.name}.meta.json")
        datasets += [d["dataset"] for d in meta.get("datasets", [])]
        metrics += list(meta.get("metrics", []))
        group = artifact_name(art.name) + (" (timing)" if art.timing else "")
        pts += points(flat, group, TIMED if art.timing else DRAWN)
        rows += [claim_row(r, "", stand_ins_of(meta, declared)) for r in claims_of(flat)]
    order = [pat for art in paper_mod.ARTIFACTS for pat in declared_order(art)]
    groups = group_claims(rows, order, list(dict.fromkeys(datasets)),
                          list(dict.fromkeys(metrics)))
    return pts, [r for g in groups for r in g["rows"]]


def draw(title: str, pts: list[Point], claims: list[dict]):
    """The figure: the forest of relative differences and the strip of claim outcomes, laid
    out in inches (title, legend, forest, its axis label, the strip) so that no part covers
    another."""
    groups = list(dict.fromkeys(p.group for p in pts))
    n = len(pts)
    row = min(0.075, 3.2 / max(n, 1))
    counts: dict[str, int] = {}
    for p in pts:
        counts[p.css] = counts.get(p.css, 0) + 1
    ncol = 3
    legend_h = 0.17 * -(-len(counts) // ncol) if counts else 0.0
    forest_h = max(0.8, n * row + 0.17 * len(groups)) if pts else 0.3
    heights = {"title": 0.3, "legend": legend_h + 0.05, "forest": forest_h, "xlabel": 0.48,
               "strip": 0.86 if claims else 0.32}
    height = sum(heights.values())
    left, right = 1.35, 0.18

    def box(bottom_in, h_in):
        return [left / WIDTH, bottom_in / height, 1 - (left + right) / WIDTH, h_in / height]
    with style():
        fig = plt.figure(figsize=(WIDTH, height))
        ax = fig.add_axes(box(heights["strip"] + heights["xlabel"], forest_h))
        sx = fig.add_axes(box(0.06, heights["strip"] - 0.52 if claims else 0.2))
    fig.text(0.01, 1 - 0.06 / height, title, ha="left", va="top", fontsize=8.5,
             fontweight="bold")
    _forest(ax, pts, groups, lim=_limit(pts))
    if counts:
        handles = [plt.Line2D([], [], ls="", marker="o", ms=4, color=mark(c),
                              label=f"{short(c)} ({k})") for c, k in counts.items()]
        fig.legend(handles=handles, loc="upper left", ncol=ncol, frameon=False,
                   fontsize=7, handletextpad=0.2, columnspacing=1.2, borderaxespad=0,
                   bbox_to_anchor=(0.01, 1 - heights["title"] / height))
    _strip(sx, claims)
    return fig


def _limit(pts: list[Point]) -> float:
    """The x range ±lim (in margins): set by the values on the paper's data (stand-ins beyond
    it are drawn as arrows at the edge), at least ±2 δ, at most ±:data:`CAP` δ."""
    own = [p for p in pts if p.css not in ("stand-in", "unverified")] or pts
    ext = [abs(x) for p in own for x in (p.rel, p.lo, p.hi) if x is not None]
    return min(CAP, max(2.0, 1.15 * max(ext))) if ext else CAP


def _forest(ax, pts: list[Point], groups: list[str], lim: float) -> None:
    if not pts:
        ax.axis("off")
        ax.text(0.0, 0.5, "no value compared with a published number", transform=ax.transAxes,
                va="center", fontsize=7.5, color="0.35")
        return
    y, ticks, labels = 0.0, [], []
    for g in groups:
        members = sorted((p for p in pts if p.group == g), key=lambda p: p.rel)
        start = y
        for p in members:
            c = mark(p.css)
            if p.lo is not None and p.hi is not None and p.hi > p.lo:
                ax.plot([max(-lim, p.lo), min(lim, p.hi)], [y, y], "-", color=c, lw=0.9,
                        alpha=0.75, solid_capstyle="butt")
            if abs(p.rel) > lim:
                ax.plot([math.copysign(lim, p.rel)], [y], ">" if p.rel > 0 else "<", color=c,
                        ms=3.5, clip_on=False)
            else:
                ax.plot([p.rel], [y], "o", color=c, ms=2.6, mew=0)
            y += 1
        ticks.append((start + y - 1) / 2)
        labels.append(f"{g} ({len(members)})")
        ax.axhspan(start - 0.5, y - 0.5, color="0.93" if len(ticks) % 2 else "white", lw=0,
                   zorder=-2)
        y += 0.8
    ax.axvline(0, color="0.25", lw=0.8, zorder=-1)
    for x in (-1, 1):
        ax.axvline(x, color="0.45", lw=0.7, ls="--", zorder=-1)
    ax.set_xlim(-lim, lim)
    ax.set_ylim(y - 0.3, -0.7)
    ax.set_yticks(ticks)
    ax.set_yticklabels(labels)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="y", visible=False)
    beyond = sum(1 for p in pts if abs(p.rel) > lim)
    arrows = f"; arrows: {beyond} beyond ±{fmt_general(round(lim))} δ" if beyond else ""
    # two lines: on one, the words with the arrows' count ran past a paper page's figure
    ax.set_xlabel(f"(ours − published) / δ\n(bars: 90% interval, two-stage 94.55%; "
                  f"dashed: ±δ{arrows})",
                  fontsize=7)


def _strip(ax, claims: list[dict]) -> None:
    ax.set_yticks([])
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    ax.grid(False)
    if not claims:
        ax.axis("off")
        ax.text(0.0, 0.5, "claims: none judged by a test", transform=ax.transAxes,
                va="center", fontsize=7.5, color="0.35")
        return
    x, gap, last, counts = 0.0, 0.6, None, {}
    for c in claims:
        if last is not None and (c["artifact"], c["statement"]) != last:
            x += gap
        last = (c["artifact"], c["statement"])
        col = mark(c["css"])
        ax.add_patch(plt.Rectangle((x, 0), 0.86, 1, facecolor=fill(c["css"]) if c["stand_in"]
                                   else col, edgecolor=col, lw=0.5,
                                   hatch="//////" if c["stand_in"] else None))
        if c["key"]:
            ax.add_patch(plt.Rectangle((x, 0), 0.86, 1, facecolor="none", edgecolor="black",
                                       lw=1.0))
        counts[c["outcome"]] = counts.get(c["outcome"], 0) + 1
        x += 1
    ax.set_xlim(-0.3, max(x, 20))
    ax.set_ylim(0, 1)
    ax.set_xticks([])
    ax.spines["bottom"].set_visible(False)
    words = ", ".join(f"{counts[o]} {o}" for o in dict.fromkeys(
        c["outcome"] for c in claims) if counts.get(o))
    extra = []
    if any(c["key"] for c in claims):
        extra.append("outlined: key claims")
    if any(c["stand_in"] for c in claims):
        extra.append("hatched: on stand-in data")
    fig = ax.figure
    box = ax.get_position()
    fig.text(0.01, box.y1 + 0.04 / fig.get_figheight(),
             f"Claims: {len(claims)} tested, one mark per data set and measure, grouped by "
             f"claim in the paper's order\n{words}"
             + (f"\n{'; '.join(extra)}" if extra else ""),
             fontsize=6.8, ha="left", va="bottom", linespacing=1.35)
    ax.set_ylabel("")


def write_overview(paper_mod, out_root: Path, written: list | None = None) -> Path | None:
    """``<out>/<paper>/overview.svg`` from the paper's rendered artifacts (None, and no file,
    when none is rendered there); ``written`` receives ``(path, whether its bytes changed)``."""
    pid = paper_mod.PAPER.id
    base = Path(out_root) / pid
    if not any((base / f"{a.name}.json").is_file() or
               (base / TIMING_DIR / f"{a.name}.json").is_file() for a in paper_mod.ARTIFACTS):
        return None
    pts, claims = paper_evidence(paper_mod, out_root)
    fig = draw(f"{pid}: every value compared with a published one, and the claims", pts,
               claims)
    path = base / OVERVIEW_FILE
    changed = save_figure(fig, path, tight=False)
    if written is not None:
        written.append((path, changed))
    return path


#: the site's one forest plot, at the report's root
FOREST_FILE = "forest.svg"
#: its x range, in margins: values beyond are printed as numbers at the edge
FOREST_LIM = 6.0
#: buckets on the paper's data (the first panel) and on stand-in data (the second)
OWN = ("reproduced", "inconclusive", "deviates", "check", "derived", "unverified")
STAND_IN = ("stand-in",)


def site_points(paper_mods, out_root: Path) -> tuple[list[Point], list[Point]]:
    """(values on the paper's data, values on stand-in data) of every paper rendered into
    ``out_root``, grouped "paper · artifact"."""
    own, stand = [], []
    for mod in paper_mods:
        pid = mod.PAPER.id
        for art in mod.ARTIFACTS:
            base = Path(out_root) / pid / (TIMING_DIR if art.timing else "")
            flat = _read(base / f"{art.name}.json")
            group = f"{pid} · {artifact_name(art.name)}"
            own += points(flat, group, TIMED if art.timing else OWN)
            if not art.timing:
                stand += points(flat, group, STAND_IN)
    return own, stand


#: values beyond the axis printed as numbers beside a row (then "… n more": more would run
#: past the figure's right edge)
BEYOND_SHOWN = 3


def _beyond_text(values: list[float]) -> str:
    """Values beyond the axis, as numbers: "+85, +22, +14" (the largest first, at most
    :data:`BEYOND_SHOWN`, then "… n more")."""
    vals = sorted(values, key=abs, reverse=True)
    k = BEYOND_SHOWN
    shown = ", ".join(("+" if v > 0 else "") + fmt_general(round(v, 0 if abs(v) >= 10 else 1))
                      for v in vals[:k])
    return shown + (f" … {len(vals) - k} more" if len(vals) > k else "")


def _panel(ax, pts: list[Point], lim: float, title: str | None) -> None:
    """One panel: a row per group, each value a dot (jittered inside its row) with its 90%
    interval; values beyond ±lim printed as numbers right of the axis."""
    groups = list(dict.fromkeys(p.group for p in pts))
    labels = []
    for i, g in enumerate(groups):
        members = sorted((p for p in pts if p.group == g), key=lambda p: p.rel)
        k = len(members)
        for j, p in enumerate(members):
            y = i + (0.0 if k == 1 else -0.32 + 0.64 * j / (k - 1))
            c = mark(p.css)
            if p.lo is not None and p.hi is not None and p.hi > p.lo:
                ax.plot([max(-lim, p.lo), min(lim, p.hi)], [y, y], "-", color=c, lw=0.5,
                        alpha=0.5, solid_capstyle="butt")
            if abs(p.rel) <= lim:
                ax.plot([p.rel], [y], "o", color=c, ms=2.2, mew=0, alpha=0.85)
            else:
                ax.plot([math.copysign(lim, p.rel)], [y], ">" if p.rel > 0 else "<",
                        color=c, ms=3, clip_on=False)
        out = [p.rel for p in members if abs(p.rel) > lim]
        if out:
            ax.text(lim * 1.04, i, _beyond_text(out), fontsize=6, va="center", ha="left",
                    color="0.2", clip_on=False)
        labels.append(f"{g} ({k})")
        if i % 2 == 0:
            ax.axhspan(i - 0.5, i + 0.5, color="0.94", lw=0, zorder=-2)
    ax.axvline(0, color="0.25", lw=0.8, zorder=-1)
    for x in (-1, 1):
        ax.axvline(x, color="0.45", lw=0.7, ls="--", zorder=-1)
    ax.set_xlim(-lim, lim)
    ax.set_ylim(len(groups) - 0.5, -0.5)
    ax.set_yticks(range(len(groups)))
    ax.set_yticklabels(labels, fontsize=6.5)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="y", visible=False)
    if title:
        ax.set_title(title, fontsize=7.5, loc="left")


def draw_forest(own: list[Point], stand: list[Point], lim: float = FOREST_LIM):
    """The site's forest plot: every comparison on the paper's data, d in units of its
    margin δ (one scale for every paper), and below it, in a panel of its own, the values
    on stand-in data; dots coloured by verdict."""
    panels = [(own, "On the paper's data: (ours − published) / δ, 90% interval (two-stage: 94.55%) "
                    f"(dashed: ±δ; beyond ±{fmt_general(lim)} δ: printed as numbers)")]
    if stand:
        panels.append((stand, "On stand-in data (not reproductions): the same difference "
                              "from the paper's number, in its δ"))
    rows = [len({p.group for p in pts}) for pts, _ in panels]
    row_h, gap, width = 0.2, 0.75, 8.4
    left, right = 2.1, 1.7
    height = sum(max(r, 1) * row_h for r in rows) + gap * len(panels) + 0.35
    counts: dict[str, int] = {}
    for pts, _ in panels:
        for p in pts:
            counts[p.css] = counts.get(p.css, 0) + 1
    with style():
        fig = plt.figure(figsize=(width, height))
    top = height - 0.35
    for (pts, title), r in zip(panels, rows):
        h = max(r, 1) * row_h
        bottom = top - gap + 0.35 - h
        ax = fig.add_axes([left / width, bottom / height, 1 - (left + right) / width,
                           h / height])
        if pts:
            _panel(ax, pts, lim, None)
            # from the figure's left edge: over the axes alone, the words ran past its right
            fig.text(0.01, (bottom + h + 0.07) / height, title, fontsize=7.5, ha="left",
                     va="bottom")
        else:
            ax.axis("off")
        top = bottom - 0.4
    if counts:
        handles = [plt.Line2D([], [], ls="", marker="o", ms=4, color=mark(c),
                              label=f"{short(c)} ({k})") for c, k in counts.items()]
        fig.legend(handles=handles, loc="upper left", ncol=len(handles), frameon=False,
                   fontsize=7, handletextpad=0.2, columnspacing=1.2, borderaxespad=0,
                   bbox_to_anchor=(0.01, 1 - 0.04 / height))
    return fig


def write_forest(paper_mods, out_root: Path, written: list | None = None) -> Path | None:
    """``<out>/forest.svg``, the site's forest plot (None, and no file, when no value is
    compared)."""
    own, stand = site_points(paper_mods, out_root)
    if not own and not stand:
        return None
    path = Path(out_root) / FOREST_FILE
    changed = save_figure(draw_forest(own, stand), path, tight=False)
    if written is not None:
        written.append((path, changed))
    return path
