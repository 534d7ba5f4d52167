"""Helpers of the report tests: the committed pages, and pages rendered on purpose (a paper
with a published table far wider than a page; a hand-made page with an over-wide table)."""
from __future__ import annotations

import os
import types
from pathlib import Path

from repro.experiment import Artifact, Paper

# The committed reports, or another report directory to check (REPRO_CHECK_REPORTS=DIR).
REPORTS = Path(os.environ.get("REPRO_CHECK_REPORTS")
               or Path(__file__).resolve().parent.parent / "reports")


def committed_pages() -> list[Path]:
    """Every HTML page of the committed reports."""
    if not REPORTS.is_dir():
        return []
    return sorted(REPORTS.glob("*.html")) + sorted(REPORTS.glob("*/index.html")) + \
        sorted(REPORTS.glob("*/timing/index.html"))


def committed_pdfs() -> list[Path]:
    return sorted(REPORTS.glob("*/*.pdf")) + sorted(REPORTS.glob("*/timing/*.pdf"))


WIDE_COLUMNS = [f"set{i:02d}" for i in range(1, 41)]


def wide_paper(tmp: Path) -> types.ModuleType:
    """A paper whose one published table has 40 columns of 4-decimal values (far wider than a
    landscape page), plus a small table: its pages must still fit."""
    toml = tmp / "widepaper.toml"
    rows = []
    for r, method in enumerate(("alpha", "beta-method", "gamma")):
        cells = ", ".join(f'"0.{(r * 41 + j) % 9000 + 1000:04d}"' for j in range(len(WIDE_COLUMNS)))
        rows.append(f'  ["{method}", {cells}],')
    toml.write_text("\n".join([
        "[tolerance]", "default = 0.0", "",
        "[[table]]", 'artifact = "table1"', 'source = "Table 1 (forty data sets)"',
        'metric = "MAP"', 'rows = "method"', 'cols = "dataset"',
        "columns = [" + ", ".join(f'"{c}"' for c in WIDE_COLUMNS) + "]",
        "data = [", *rows, "]", "",
        "[[table]]", 'artifact = "table2"', 'source = "Table 2"', 'dataset = "set01"',
        'rows = "metric"', 'cols = "method"', 'columns = ["alpha", "gamma"]',
        'data = [["MAP", "0.5000", "0.25"], ["NDCG@10", "0.6100", "0.33"]]', ""]),
        encoding="utf-8")
    mod = types.ModuleType("widepaper")
    mod.PAPER = Paper(id="widepaper", title="A paper with a very wide table", authors="A. Tester",
                      venue="tests", text="none.txt")
    mod.PUBLISHED_PATH = toml
    mod.NOTES = ["Nothing is implemented: every value is 'not run'."]
    mod.ARTIFACTS = [Artifact("widepaper", "table1", "Forty data sets", datasets=("synthetic",)),
                     Artifact("widepaper", "table2", "A small table", datasets=("synthetic",))]
    return mod


def render_wide_paper(tmp: Path, pdf: bool) -> Path:
    """Write the wide paper's JSON, page (and PDF) into ``tmp/out``; returns the out dir."""
    from repro.published import load
    from repro.assemble import build_artifact
    from repro.report.html import render_index, render_paper
    mod = wide_paper(tmp)
    out = tmp / "out"
    published = load("widepaper", mod.PUBLISHED_PATH)
    for art in mod.ARTIFACTS:
        build_artifact(art, [], published, out / "widepaper", False)
    render_paper(mod, out, mod.NOTES, pdf=pdf, log=lambda *a, **k: None)
    render_index([mod], out)
    return out


def overwide_page(tmp: Path) -> Path:
    """A hand-made page with the suite's style and a table of 60 long numbers per row in one
    unbreakable line (what the old renderer produced for wide tables), a missing image and a
    broken link: every checker must report it."""
    from repro.report.html import _css
    cells = "".join(f"<td>{1234567.891 + i:.3f}</td>" for i in range(60))
    html = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{_css()}'
            f"table.bad td {{ white-space: nowrap; }}</style></head><body>"
            f"<h1>Over-wide</h1><table class=\"bad\"><thead><tr>"
            + "".join(f"<th>c{i}</th>" for i in range(60)) + "</tr></thead><tbody><tr>"
            + cells + "</tr></tbody></table>"
            '<img src="missing.svg" alt="missing"><a href="nowhere.html">broken</a>'
            "</body></html>")
    path = tmp / "overwide.html"
    path.write_text(html, encoding="utf-8")
    return path
