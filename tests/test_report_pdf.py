"""PDF reports as a reader sees them: nothing drawn beyond the page (text, table borders and
fills, images: the bounds of every page object, read back with pypdfium2 — PDFium, the PDF
engine of Chromium), and every value of the page's tables present in the PDF's text (nothing
cut).  Run on the committed PDFs, on a freshly rendered paper with a
published table far wider than a page (it must pass), and on an over-wide page (the checker
must report it)."""
from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from report_pages import (CLAIMS_PAPER, REPORTS, committed_pdfs, overwide_page, render_claims_paper,
                          render_wide_paper)

pdfium = pytest.importorskip("pypdfium2", reason="pypdfium2 is not installed "
                                                 "(pip install -e '.[test]')")

SLACK = 0.5          # points


class _TableText(HTMLParser):
    """Text of every table cell a PDF shows: tables outside <details> (the PDF omits them)
    and outside .screen-only, without footnote letters (<sup>)."""

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.cells: list[str] = []
        self._cell: list[str] | None = None

    def _hidden(self) -> bool:
        return any(h for _, h in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "meta", "link", "col", "wbr", "hr", "input"):
            return
        if self._cell is not None:
            self._cell.append(" ")        # spans of a cell are lines of their own
        cls = dict(attrs).get("class") or ""
        hidden = tag in ("details", "sup", "style", "script", "title") or "screen-only" in cls
        self.stack.append((tag, hidden))
        if tag in ("td", "th") and not self._hidden():
            self._cell = []

    def handle_endtag(self, tag):
        if self._cell is not None:
            self._cell.append(" ")
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None and not self._hidden():
            self._cell.append(data)


def table_values(html_path: Path) -> Counter:
    """Every token of every table cell of the page (a multiset)."""
    p = _TableText()
    p.feed(html_path.read_text(encoding="utf-8"))
    return Counter(tok for c in p.cells for tok in c.split())


def check_pdf(pdf_path: Path, html_path: Path | None) -> list[str]:
    """Problems of a PDF: objects beyond a page, table values missing from its text."""
    problems, text = [], []
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        for n, page in enumerate(pdf, 1):
            w, h = page.get_size()
            out = []
            for obj in page.get_objects(max_depth=8):
                left, bottom, right, top = obj.get_bounds()
                if left < -SLACK or right > w + SLACK or bottom < -SLACK or top > h + SLACK:
                    out.append(right)
            tp = page.get_textpage()
            text.append(tp.get_text_range())
            if out:
                problems.append(f"page {n}: {len(out)} object(s) beyond the page box "
                                f"({w:.0f}×{h:.0f} pt), reaching x = {max(out):.0f} pt")
    finally:
        pdf.close()
    if html_path is not None:
        flat = re.sub(r"\s+", "", "".join(text))
        missing = []
        for tok, n in table_values(html_path).items():
            if flat.count(tok) < n:
                missing.append(f"{tok!r} ({flat.count(tok)} of {n})")
        if missing:
            problems.append(f"{len(missing)} table value(s) missing from the PDF text: "
                            + ", ".join(missing[:12]))
    return problems


def _page_of(pdf: Path) -> Path:
    return pdf.parent / "index.html"


PDFS = committed_pdfs()


@pytest.mark.slow
@pytest.mark.parametrize("pdf", PDFS, ids=[p.name for p in PDFS])
def test_committed_pdf_typesets(pdf):
    assert check_pdf(pdf, _page_of(pdf)) == []


@pytest.mark.slow
def test_rendered_wide_table_fits_the_pages(tmp_path):
    pytest.importorskip("weasyprint")
    out = render_wide_paper(tmp_path, pdf=True)
    pdf = out / "widepaper" / "widepaper.pdf"
    assert check_pdf(pdf, out / "widepaper" / "index.html") == []
    assert table_values(out / "widepaper" / "index.html")["(0.1039)"] == 1   # alpha, set40


@pytest.mark.slow
def test_checker_reports_an_overwide_table(tmp_path):
    weasyprint = pytest.importorskip("weasyprint")
    page = overwide_page(tmp_path)
    pdf = tmp_path / "overwide.pdf"
    pdf.write_bytes(weasyprint.HTML(filename=str(page)).write_pdf())
    problems = check_pdf(pdf, page)
    assert any("beyond the page box" in p for p in problems), problems


def pdf_text(pdf_path: Path) -> str:
    """The PDF's text without white space (lines broken anywhere)."""
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        return re.sub(r"\s+", "", "".join(p.get_textpage().get_text_range() for p in pdf))
    finally:
        pdf.close()


@pytest.mark.slow
def test_rendered_claims_pdf_shows_scoreboard_commands_and_changes(tmp_path):
    """The PDF of a page with claims, intervals and a change: it typesets (nothing beyond a
    page, every table value present), with the scoreboard's outcomes and p-values, the
    per-artifact commands under the table captions, and the change old → new."""
    pytest.importorskip("weasyprint")
    out = render_claims_paper(tmp_path, pdf=True)
    page = out / CLAIMS_PAPER / "index.html"
    pdf = out / CLAIMS_PAPER / f"{CLAIMS_PAPER}.pdf"
    assert check_pdf(pdf, page) == []
    text = pdf_text(pdf)
    for shown in ("holds", "contradicted", "notsignificanthere", "0.0031", "[+0.0071,+0.0352]",
                  "python-mreproclaimpaper.table1--data-dirDATA",
                  "python-mreprorunsclaimpaper.table1--outruns/--data-dirDATA",
                  "0.43020→0.41910", "agrees(paper'srounding)→deviates"):
        assert shown in text, shown


MAIN_PDFS = [p for p in PDFS if p.parent.parent == REPORTS]


@pytest.mark.parametrize("pdf", MAIN_PDFS, ids=[p.name for p in MAIN_PDFS])
def test_committed_pdf_shows_commands(pdf):
    page = _page_of(pdf)
    if 'id="scoreboard"' not in page.read_text(encoding="utf-8"):
        pytest.skip(f"{page} was rendered before pages had a scoreboard (re-render it)")
    text = pdf_text(pdf)
    assert f"python-mrepro{pdf.parent.name}." in text
    assert "Whatchangedsincethelastrendering" in text
