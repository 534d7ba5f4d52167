"""One palette: verdict colours that differ from each other, legends that do not repeat their
own words, and each method drawn in one colour in every figure of the site (read back from
the SVGs: matplotlib writes each legend entry's text as a comment after its line or patch)."""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from repro.judge.verdicts import Outcome, Verdict
from repro.papers.plotting import METHOD_COLOURS, figure, method_colour, method_colours
from repro.report import palette
from repro.report.verdicts import css_of, outcome_class

from report_pages import REPORTS


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def _distance(a: str, b: str) -> float:
    return sum((x - y) ** 2 for x, y in zip(_rgb(a), _rgb(b))) ** 0.5


def _pairs_too_close(classes: list[str], which: int, least: float) -> list[str]:
    cols = {c: palette.colours(c)[which] for c in classes}
    return [f"{a} {cols[a]} ~ {b} {cols[b]}" for i, a in enumerate(classes)
            for b in classes[i + 1:] if _distance(cols[a], cols[b]) < least]


def test_verdict_colours_differ_from_each_other():
    codes = [css_of(v.value) for v in Verdict if v is not Verdict.CLAIM]
    assert all(c in palette.PALETTE for c in codes)
    assert _pairs_too_close(codes, 1, 40.0) == []        # marks: dots and bars of figures
    assert _pairs_too_close(codes, 0, 5.0) == []         # fills: table cells
    # "consistent" and "reproduced" were the same green
    assert _distance(palette.mark("consistent"), palette.mark("reproduced")) > 80


def test_claim_outcome_colours_differ_from_each_other():
    outcomes = [outcome_class(o.value) for o in Outcome]
    assert _pairs_too_close(outcomes, 1, 40.0) == []
    assert _pairs_too_close(outcomes, 0, 5.0) == []


def test_a_legend_never_repeats_its_own_word():
    # "[not run] not run (the reason is given)" said "not run" twice
    for c in palette.MEANING:
        word = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", palette.short(c))}
        said = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", palette.meaning(c))}
        assert not word & said, (c, palette.short(c), palette.meaning(c))


def test_a_method_has_one_colour_in_every_figure():
    # lesmola2007's Figures 3, 5, 6 drew ROCArea red, purple, brown (colours by drawing order)
    fig3 = method_colours(["BM25", "DORM (NDCG)", "Precision@10", "ROCArea", "RSVM", "SVM"])
    fig5 = method_colours(["BM25", "DORM (MRR)", "DORM (NDCG, c=(i+1)^-1)", "Precision@3",
                           "ROCArea", "RSVM", "SVM"])
    fig6 = method_colours(["BM25", "DORM (NDCG)", "DORM (WTA)", "DORM (mWTA)", "Precision@3",
                           "ROCArea", "SVM"])
    for m in ("ROCArea", "BM25", "SVM"):
        assert fig3[m] == fig5[m] == fig6[m] == method_colour(m) == METHOD_COLOURS[m]
    assert fig3["DORM (NDCG)"] == fig6["DORM (NDCG)"]
    for fig in (fig3, fig5, fig6):
        assert len(set(fig.values())) == len(fig)       # never two methods in one colour


def test_an_unnamed_method_keeps_its_colour_unless_the_figure_has_it_already():
    alone = method_colour("some new ranker")
    assert alone == method_colour("some new ranker")
    other = next(m for m, c in METHOD_COLOURS.items() if c != alone)
    assert method_colours([other, "some new ranker"])["some new ranker"] == alone
    # a name whose own colour is ROCArea's gets another one beside ROCArea
    clash = next(f"r{i}" for i in range(1000) if method_colour(f"r{i}") == METHOD_COLOURS["ROCArea"])
    both = method_colours(["ROCArea", clash])
    assert both["ROCArea"] == METHOD_COLOURS["ROCArea"] != both[clash]
    names = [f"m{i}" for i in range(15)] + ["m0", "m1"]
    got = method_colours(names)
    assert len(set(got.values())) == len(got) == 15
    assert method_colours(names) == got                  # the same on every call


# --- the SVGs of a rendering --------------------------------------------------------------------

_ENTRY = re.compile(r'<g id="(?:line2d|patch)_\d+">\s*<path[^>]*?style="([^"]*)"'
                    r'|<!-- (.*?) -->', re.S)


def legend_entries(svg: str) -> list[tuple[str, str]]:
    """(label, colour) of every legend entry of a matplotlib SVG: the colour of the line
    (its stroke) or patch (its fill) drawn just before the label's text."""
    out = []
    for block in re.findall(r'<g id="legend_\d+">(.*?)\n  </g>\n', svg, re.S):
        colour = None
        for style, label in _ENTRY.findall(block):
            if style:
                m = (re.search(r"stroke: (#[0-9a-f]{6})", style)
                     or re.search(r"fill: (#[0-9a-f]{6})", style))
                colour = m.group(1) if m else colour
            elif label and colour:
                out.append((label, colour))
                colour = None
    return out


def method_of(label: str) -> str:
    """A legend label's method: "ROCArea: C = 1, optimism +0.02" → "ROCArea", "DORM fit
    (slope 1.02)" → "DORM fit", "deviates (25)" → "deviates"."""
    label = re.sub(r" \((?:slope [^)]*|\d+)\)$", "", label)
    return label.split(": ")[0].strip()


def colours_by_method(paths) -> dict[str, dict[str, list[str]]]:
    """method → colour → the SVG files that draw it so."""
    seen: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for p in paths:
        for label, colour in legend_entries(Path(p).read_text(encoding="utf-8")):
            seen[method_of(label)][colour].append(Path(p).name)
    return seen


def _mixed(seen) -> dict:
    return {m: dict(c) for m, c in seen.items() if len(c) > 1}


def test_the_svg_reader_finds_two_colours_of_one_method(tmp_path):
    import matplotlib.pyplot as plt
    for name, colour in (("a.svg", "#1f77b4"), ("b.svg", "#d62728")):
        fig, ax = figure()
        ax[0, 0].plot([1, 2], [1, 2], color=colour, label="ROCArea: C = 1")
        ax[0, 0].bar([1], [1], color="#2ca02c", label="SVM (slope 1.00)")
        ax[0, 0].legend()
        fig.savefig(tmp_path / name)
        plt.close(fig)
    seen = colours_by_method(sorted(tmp_path.glob("*.svg")))
    assert dict(seen["SVM"]) == {"#2ca02c": ["a.svg", "b.svg"]}
    assert _mixed(seen) == {"ROCArea": {"#1f77b4": ["a.svg"], "#d62728": ["b.svg"]}}


SVGS = sorted(REPORTS.glob("*/*.svg")) + sorted(REPORTS.glob("*/timing/*.svg"))


@pytest.mark.skipif(not SVGS, reason="no rendered report (REPRO_CHECK_REPORTS=DIR)")
def test_every_method_is_drawn_in_one_colour_across_the_site():
    seen = colours_by_method(SVGS)
    assert "ROCArea" in seen and "DORM (NDCG)" in seen
    assert _mixed(seen) == {}
