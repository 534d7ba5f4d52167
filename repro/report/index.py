"""The index page, the answer in one screen: one line per paper in words, the reproduction
matrix (a bar per table and figure, :mod:`.matrix`), the key claims of every paper one row
each, then one forest plot of every comparison in units of its margin (:mod:`.overview`);
its definitions are on the glossary page (:mod:`.glossary`), written beside it; and the
index's PDF."""
from __future__ import annotations

from pathlib import Path

from .build import TIMING_DIR, read_artifact
from .glossary import render_glossary
from .matrix import paper_line, paper_matrix
from .overview import FOREST_FILE, write_forest
from .pdf import can_render, pending_pdfs, write_page
from .render import common, footer_css, template
from .scoreboard import claim_row, claims_of
from .standins import declared_stand_ins, stand_ins_of
from .verdicts import Tally

#: the index's PDF, beside it
INDEX_PDF = "index.pdf"
def key_claim_rows(claims: list[dict]) -> list[dict]:
    """The key claims (``family`` "key") of every paper, one row each in plain words: the
    claim with its data and measure, the paper's effect, ours with its 95% interval, their
    ratio and the outcome (its glossary anchor)."""
    rows = []
    for c in claims:
        if c.get("family") != "key":
            continue
        on = ", ".join(x for x in (c["dataset"], c["measure"]) if x)
        rows.append({"paper": c["paper"], "statement": c["statement"], "on": on,
                     "href": c["href"], "paper_effect": c["paper_effect"] or "—",
                     "ours": c["effect"] + (f" {c['ci']}" if c["ci"] else ""),
                     "ratio": c["ratio"] or "—", "outcome": c["outcome"], "css": c["css"],
                     "anchor": c["anchor"], "stand_in": c["stand_in"]})
    return rows


def index_context(paper_mods, out_root: Path, pending=()) -> dict:
    """The index's context; ``pending``: the PDFs being rendered beside their pages (linked
    already, so that the first render of the index is its final one)."""
    out_root = Path(out_root)
    papers, every_claim, total = [], [], Tally()
    for mod in paper_mods:
        pid = mod.PAPER.id
        out_dir = out_root / pid
        declared = declared_stand_ins(pid, getattr(mod, "PUBLISHED_PATH", None))

        def read(art, out_dir=out_dir):
            return read_artifact(out_dir / (TIMING_DIR if art.timing else ""), art.name)
        rows, tally, datasets, offsets = paper_matrix(mod, read, f"{pid}/")
        total += tally
        marks = []
        for art in mod.ARTIFACTS:
            got = None if art.timing else read(art)
            if got is not None:
                marks += [r["data_mark"] for r in got[0] if r.get("data_mark")]
                every_claim += [claim_row(r, f"{pid}/index.html#{art.name}",
                                          stand_ins_of(got[1], declared))
                                for r in claims_of(got[0])]
        page = (out_dir / "index.html").is_file()
        papers.append({"id": pid, "title": mod.PAPER.title,
                       "page": f"{pid}/index.html" if page else None,
                       "pdf": f"{pid}/{pid}.pdf" if (out_dir / f"{pid}.pdf").is_file() or (
                           out_dir / f"{pid}.pdf" in set(pending) and can_render()) else None,
                       "timing": f"{pid}/{TIMING_DIR}/index.html"
                       if (out_dir / TIMING_DIR / "index.html").is_file() else None,
                       "line": paper_line(tally, datasets, "", offsets) if rows else
                       "not rendered into this directory",
                       "marks": list(dict.fromkeys(marks)),
                       "matrix": rows, "counts": tally.row()})
    return {"papers": papers, "key_claims": key_claim_rows(every_claim),
            "total": total.row(), "forest": FOREST_FILE if (out_root / FOREST_FILE).is_file()
            else None,
            "benchmarks": (out_root / "benchmarks.html").is_file()}


def render_index(paper_mods, out_root: Path, pdf: bool = False, log=print,
                 pdf_later: "list | PdfQueue | None" = None,
                 written: list | None = None) -> Path:
    """The index page and, with ``pdf``, its PDF ``index.pdf`` (rendered here, or its
    ``(page, pdf)`` appended to ``pdf_later``, a list or a :class:`.pdf.PdfQueue`); without, an
    index PDF that no longer matches the page is removed (said)."""
    render_glossary(out_root, log, written)
    write_forest(paper_mods, out_root, written)
    html = template("index.html.j2").render(**index_context(paper_mods, out_root, pending_pdfs(pdf_later)),
                                            **common(),
                                            footer=footer_css("repro-rank reports"))
    path = Path(out_root) / "index.html"
    write_page(html, path, Path(out_root) / INDEX_PDF, pdf, log, pdf_later, written)
    return path
