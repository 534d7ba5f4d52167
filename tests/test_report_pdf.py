"""PDF reports as a reader sees them: nothing drawn beyond the page (text, table borders and
fills, images: the bounds of every page object, read back with pypdfium2 — PDFium, the PDF
engine of Chromium), and every value of the page's tables present in the PDF's text (nothing
cut).  Run on the committed PDFs, on a freshly rendered paper with a
published table far wider than a page (it must pass), and on an over-wide page (the checker
must report it)."""
from __future__ import annotations

import html
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from report_pages import (CLAIMS_PAPER, REPORTS, committed_pdfs, overwide_page,
                          render_claims_paper, render_wide_paper, rendered_with_verdict_legend)

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
    for shown in ("replicated", "reversed", "inconclusive", "0.0031", "[+0.007,+0.035]",
                  "python-mreproclaimpaper.table1--data-dirDATA--outmy-reports/",
                  "python-mreprorunsclaimpaper.table1--outruns/--data-dirDATA",
                  "0.43020→0.41910", "reproduced→deviates"):
        assert shown in text, shown


MAIN_PDFS = [p for p in PDFS if p.parent.parent == REPORTS]


def test_every_paper_has_a_committed_pdf():
    """The committed-PDF tests below run once per PDF: none missing, none skipped."""
    from repro import papers
    assert {p.parent.name for p in MAIN_PDFS} == set(papers.paper_ids())


@pytest.mark.parametrize("pdf", MAIN_PDFS, ids=[p.name for p in MAIN_PDFS])
def test_committed_pdf_shows_commands(pdf):
    page = _page_of(pdf)
    assert 'id="scoreboard"' in page.read_text(encoding="utf-8"), \
        f"{page} has no scoreboard (rendered before pages had one, or the marker was lost)"
    text = pdf_text(pdf)
    assert f"python-mrepro{pdf.parent.name}." in text
    assert "Whatchangedsincethepreviousrendering" in text


# --- legible text, headings with their content, an index PDF, relative links, the
# same bytes from any checkout -------------------------------------------------------------------

#: the page footer (provenance, page number) is set apart from the body, in the bottom margin
FOOTER_PT = 45.0
#: the smallest body text a PDF page may have
BODY_PT = 7.9


def small_text(pdf_path: Path, floor: float = BODY_PT) -> list[str]:
    """Pages with body text under ``floor`` points (the size as drawn: the font size times
    the text matrix's scale), the footer band excluded: "page 3: 118 characters at 7.0 pt
    ('python -m repro …')"."""
    import ctypes
    import math
    raw = pdfium.raw
    problems = []
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        for n, page in enumerate(pdf, 1):
            tp = page.get_textpage()
            small: dict[float, list] = {}
            for i in range(tp.count_chars()):
                if raw.FPDFText_IsGenerated(tp, i) or chr(raw.FPDFText_GetUnicode(tp, i)).isspace():
                    continue
                left, bottom, right, top = tp.get_charbox(i)
                if bottom < FOOTER_PT:
                    continue
                m = raw.FS_MATRIX()
                raw.FPDFText_GetMatrix(tp, i, ctypes.byref(m))
                size = raw.FPDFText_GetFontSize(tp, i) * math.sqrt(abs(m.a * m.d - m.b * m.c))
                if size < floor:
                    small.setdefault(round(size, 1), []).append((left, bottom, right, top))
            for size, boxes in sorted(small.items()):
                l, b, r, t = boxes[0]
                problems.append(f"page {n}: {len(boxes)} characters at {size} pt "
                                f"({tp.get_text_bounded(l - 60, b, r + 160, t)[:50]!r})")
    finally:
        pdf.close()
    return problems


def _headings(html_path: Path) -> list[str]:
    """The section headings (h2) a PDF prints, in order."""
    text = re.sub(r"<details.*?</details>", "", html_path.read_text(encoding="utf-8"), flags=re.S)
    return [re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]+>", "", h)))
            for h in re.findall(r"<h2[^>]*>(.*?)</h2>", text, re.S)]


def headings_left_alone(pdf_path: Path, html_path: Path, after: int = 200) -> list[str]:
    """Headings that end a page: in the page's lowest quarter, with fewer than ``after``
    characters of their section after them on the page (their table or figure went to the
    next one); found in order through the pages."""
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        pages, feet = [], []
        for page in pdf:
            w, h = page.get_size()
            tp = page.get_textpage()
            pages.append(re.sub(r"\s+", "", tp.get_text_bounded(0, FOOTER_PT, w, h)))
            feet.append(re.sub(r"\s+", "", tp.get_text_bounded(
                0, FOOTER_PT, w, FOOTER_PT + 0.25 * (h - FOOTER_PT))))
    finally:
        pdf.close()
    problems, k = [], 0
    heads = _headings(html_path)
    for n, head in enumerate(heads):
        key = head[:50]
        while k < len(pages) and key not in pages[k]:
            k += 1
        if k >= len(pages):
            break
        rest = len(pages[k]) - pages[k].index(key) - len(head)
        ended = n + 1 < len(heads) and k + 1 < len(pages) and \
            pages[k + 1].startswith(heads[n + 1][:20])        # a short section, complete
        if rest < after and k < len(pages) - 1 and head[:20] in feet[k] and not ended:
            problems.append(f"page {k + 1} ends with the heading {head[:40]!r} "
                            f"({rest} characters after it)")
    return problems


def pdf_links(pdf_path: Path) -> list[str]:
    """The URIs a PDF's links point to."""
    import ctypes
    raw = pdfium.raw
    out = []
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        for page in pdf:
            pos, link = ctypes.c_int(0), raw.FPDF_LINK()
            while raw.FPDFLink_Enumerate(page, ctypes.byref(pos), ctypes.byref(link)):
                action = raw.FPDFLink_GetAction(link)
                if not action:
                    continue                          # a destination inside the PDF
                n = raw.FPDFAction_GetURIPath(pdf, action, None, 0)
                buf = ctypes.create_string_buffer(n)
                raw.FPDFAction_GetURIPath(pdf, action, buf, n)
                out.append(buf.value.decode("latin-1"))
    finally:
        pdf.close()
    return out


def check_print(pdf_path: Path, html_path: Path) -> list[str]:
    """What a printed page must not have: body text under 8 pt, a heading alone at the foot
    of a page, a link that only works on the machine that rendered it."""
    return (small_text(pdf_path) + headings_left_alone(pdf_path, html_path)
            + [f"absolute link {u}" for u in pdf_links(pdf_path)
               if re.match(r"(file:|/)", u) or "://" in u and not u.startswith("http")])


def _rendered_with_verdict_legend(page: Path) -> bool:
    return rendered_with_verdict_legend(page.read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("pdf", PDFS + [p for p in [REPORTS / "index.pdf"] if p.is_file()],
                         ids=[p.name for p in PDFS] + (["index.pdf"] if (REPORTS / "index.pdf")
                                                       .is_file() else []))
def test_committed_pdf_prints_legibly(pdf):
    page = pdf.parent / "index.html"
    assert _rendered_with_verdict_legend(page), \
        f"{page} lacks the marks of its PDF's print rules (re-render it, or they were lost)"
    assert check_print(pdf, page) == []


def test_committed_reports_have_an_index_pdf():
    index = REPORTS / "index.html"
    assert index.is_file(), f"no committed index: {index}"
    assert 'id="answer"' in index.read_text(encoding="utf-8"), \
        f"{index} does not lead with the answer (rendered before it did, or the marker was lost)"
    assert (REPORTS / "index.pdf").is_file()


@pytest.mark.slow
def test_rendered_claims_pdfs_print_legibly_with_an_index_pdf(tmp_path):
    """A page with claims and its index: no text under 8 pt, no heading alone at a page's
    foot, links relative (the index PDF is written beside the index)."""
    pytest.importorskip("weasyprint")
    out = render_claims_paper(tmp_path, pdf=True)
    pdf = out / CLAIMS_PAPER / f"{CLAIMS_PAPER}.pdf"
    assert check_print(pdf, out / CLAIMS_PAPER / "index.html") == []
    assert (out / "index.pdf").is_file()
    assert check_print(out / "index.pdf", out / "index.html") == []
    assert check_pdf(out / "index.pdf", out / "index.html") == []
    assert f"{CLAIMS_PAPER}/index.html" in " ".join(pdf_links(out / "index.pdf"))


def test_the_checker_finds_small_text_and_absolute_links(tmp_path):
    weasyprint = pytest.importorskip("weasyprint")
    page = tmp_path / "small.html"
    page.write_text('<!DOCTYPE html><html><body><div style="height: 23cm">filler</div>'
                    '<h2 style="break-after: page">Alone at the foot</h2><div>'
                    '<p style="font-size: 6pt">tiny text</p></div>'
                    f'<a href="{(tmp_path / "x.html").as_uri()}">absolute</a></body></html>',
                    encoding="utf-8")
    pdf = tmp_path / "small.pdf"
    pdf.write_bytes(weasyprint.HTML(filename=str(page)).write_pdf())
    problems = check_print(pdf, page)
    assert any("at 6.0 pt" in p for p in problems), problems
    assert any("ends with the heading 'Aloneatthefoot'" in p for p in problems), problems
    assert any(p.startswith("absolute link file:") for p in problems), problems


_RENDER = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from report_pages import render_claims_paper
render_claims_paper(Path(sys.argv[1]), pdf=True)
"""


def _checkout(root: Path) -> Path:
    """A checkout of this source tree at ``root``: the package copied and committed with a
    fixed author, committer and date, so that two checkouts are the same commit."""
    import os
    import shutil
    import subprocess
    src = Path(__file__).resolve().parent.parent / "repro"
    shutil.copytree(src, root / "repro", ignore=shutil.ignore_patterns("__pycache__", "*.c"))
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "GIT_AUTHOR_DATE": "2001-02-03T04:05:06+00:00",
           "GIT_COMMITTER_DATE": "2001-02-03T04:05:06+00:00"}
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"],
                ["git", "commit", "-q", "-m", "checkout"]):
        subprocess.run(cmd, cwd=root, env=env, check=True, capture_output=True)
    return root


@pytest.mark.slow
def test_pdfs_from_two_checkouts_at_different_paths_are_byte_identical(tmp_path):
    """The same commit checked out at two paths of different lengths renders the same page
    into a directory of its own: its PDF and the index PDF are the same bytes (no absolute
    path, no date, no file URI in them)."""
    import os
    import subprocess
    import sys
    pytest.importorskip("weasyprint")
    got = []
    for name in ("a", "a-second-checkout-at-a-much-longer-path"):
        root = _checkout(tmp_path / name)
        env = {**os.environ, "PYTHONPATH": str(root)}
        subprocess.run([sys.executable, "-c", _RENDER, str(root / "render"),
                        str(Path(__file__).resolve().parent)], cwd=root, env=env, check=True,
                       capture_output=True)
        out = root / "render" / "out"
        got.append({p.relative_to(out).as_posix(): p.read_bytes()
                    for p in sorted(out.glob("**/*.pdf"))})
    assert set(got[0]) == {f"{CLAIMS_PAPER}/{CLAIMS_PAPER}.pdf", "index.pdf"}
    assert got[0] == got[1]


# --- no number or header word split across lines (pdftotext -layout) ----------------------------

_NUMBER = re.compile(r"[−+\-]?\.?\d[\d.,/%]*\d|\d")


def layout_text(pdf_path: Path) -> str:
    """The PDF's text as ``pdftotext -layout`` lays it out (poppler): one line per printed
    line, so that a token broken over two lines is found whole on none."""
    import shutil
    import subprocess
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed (Debian's poppler-utils)")
    return subprocess.run(["pdftotext", "-layout", str(pdf_path), "-"], check=True,
                          capture_output=True, text=True).stdout


class _Visible(HTMLParser):
    """The text a PDF of the page shows (outside <details>, .screen-only, <sup>, styles)."""

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "meta", "link", "col", "wbr", "hr", "input"):
            return
        cls = dict(attrs).get("class") or ""
        self.stack.append((tag, tag in ("details", "style", "script", "title", "sup")
                           or "screen-only" in cls))
        self.parts.append(" ")

    def handle_endtag(self, tag):
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break
        self.parts.append(" ")

    def handle_data(self, data):
        if not any(h for _, h in self.stack):
            self.parts.append(data)


def split_tokens(pdf_path: Path, html_path: Path) -> list[str]:
    """The numbers of the page's tables and the words of their headers (as the PDF shows
    them: outside <details> and .screen-only) that the PDF's laid-out text holds whole fewer
    times than the page shows them — split across lines ("335" / "0", "rec" / "ord" / "s"):
    a number as often as the tables have it, a header word as often as the whole page does."""
    page = html_path.read_text(encoding="utf-8")
    p = _TableText()
    p.feed(page)
    numbers = Counter(n for cell in p.cells for tok in cell.split() for n in _NUMBER.findall(tok))
    heads = set()
    for m in re.finditer(r"<th\b.*?</th>", page, re.S):
        h = _TableText()
        h.feed(f"<table><tr>{m.group(0)}</tr></table>")
        heads.update(w for c in h.cells for w in re.findall(r"[A-Za-z]{4,}", c))
    v = _Visible()
    v.feed(page)
    shown = " ".join("".join(v.parts).split())
    lines = layout_text(pdf_path)
    # the PDF's numbers tokenised as the tables' are (a range "13-15" is "13" and "-15" on
    # both sides): a number split across lines is found whole fewer times
    printed = Counter(n for tok in lines.split() for n in _NUMBER.findall(tok))
    bad = []
    for tok, n in sorted(numbers.items()):
        got = printed[tok]
        if got < n:
            bad.append(f"{tok!r} ({got} of {n} whole)")
    for word in sorted(heads):
        pat = rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])"
        n, got = len(re.findall(pat, shown)), len(re.findall(pat, lines))
        if got < n:
            bad.append(f"{word!r} ({got} of {n} whole)")
    return bad


@pytest.mark.slow
@pytest.mark.parametrize("pdf", PDFS + [p for p in [REPORTS / "index.pdf"] if p.is_file()],
                         ids=[p.name for p in PDFS] + (["index.pdf"] if (REPORTS / "index.pdf")
                                                       .is_file() else []))
def test_committed_pdf_splits_no_number_or_header_word(pdf):
    assert split_tokens(pdf, pdf.parent / "index.html") == []


@pytest.mark.slow
def test_rendered_counts_tables_print_whole(tmp_path):
    pytest.importorskip("weasyprint")
    out = render_claims_paper(tmp_path, pdf=True)
    for pdf, page in ((out / "index.pdf", out / "index.html"),
                      (out / CLAIMS_PAPER / f"{CLAIMS_PAPER}.pdf", out / CLAIMS_PAPER / "index.html")):
        assert split_tokens(pdf, page) == []
        text = layout_text(pdf)
        assert re.search(r"\brec = records\b", text) and re.search(r"\brep = reproduced\b", text)


@pytest.mark.slow
def test_the_split_checker_finds_broken_numbers_and_headers(tmp_path):
    weasyprint = pytest.importorskip("weasyprint")
    from repro.report.render import css as _css
    page = tmp_path / "narrow.html"
    page.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{_css()}'
                    "table.n { width: 1.2cm; table-layout: fixed; } table.n th, table.n td "
                    "{ overflow-wrap: anywhere; }</style></head><body><table class=\"n\"><thead>"
                    "<tr><th>records</th><th>deviate</th></tr></thead><tbody><tr><td>33509</td>"
                    "<td>50021</td></tr></tbody></table></body></html>", encoding="utf-8")
    pdf = tmp_path / "narrow.pdf"
    pdf.write_bytes(weasyprint.HTML(filename=str(page)).write_pdf())
    bad = " ".join(split_tokens(pdf, page))
    assert "'33509'" in bad and "'records'" in bad, bad


def test_committed_index_pdf_first_page_holds_the_lines_the_matrix_and_the_forest_plot():
    """index.pdf page 1: every paper's line, every paper's matrix rows and the forest plot
    (drawn there: its SVG's shapes and glyphs are the page's path objects)."""
    pdf_path, svg = REPORTS / "index.pdf", REPORTS / "forest.svg"
    assert pdf_path.is_file() and svg.is_file()
    html_text = (REPORTS / "index.html").read_text(encoding="utf-8")
    assert html_text.index('id="forest-print"') < html_text.index('id="sec-key-claims"')
    shapes = svg.read_text(encoding="utf-8").count("<path") + \
        svg.read_text(encoding="utf-8").count("<use")
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        page = pdf[0]
        text = page.get_textpage().get_text_range()
        paths = sum(1 for o in page.get_objects(max_depth=4) if o.type == 2)
    finally:
        pdf.close()
    for pid in re.findall(r'<li id="paper-([a-z0-9]+)"', html_text):
        assert f"{pid} —" in text, f"page 1 lacks {pid}'s line"
    assert "Table 10" in text and "Figure 16" in text             # the matrix's rows
    assert paths >= 0.8 * shapes, f"page 1 draws {paths} paths; the forest plot has {shapes}"


def test_the_pdf_source_leaves_out_only_blocks_print_hides(monkeypatch):
    """The committed leelin2014 page has its per-value records in collapsed blocks that print
    hides: its PDF source leaves them out and the PDF has the bytes of the whole page's."""
    from weasyprint import HTML

    from repro.report import pdf as P
    page = REPORTS / "leelin2014" / "index.html"
    text = page.read_text(encoding="utf-8")
    src = P.pdf_source(page)
    assert 'class="records"' in text and 'class="records"' not in src
    assert 'class="foot"' in src and len(src) < len(text) / 1.5
    with P._fixed_dates():
        short = HTML(string=src, base_url=None).write_pdf()
        monkeypatch.setattr(P, "without_unprinted_details", lambda html: html)
        whole = HTML(string=P.pdf_source(page), base_url=None).write_pdf()
    assert short == whole


def test_unprinted_details_nested_and_unbalanced():
    from repro.report.pdf import without_unprinted_details as strip
    page = ('<p>a</p><details class="records"><summary>s</summary><details>in</details>'
            '<table><tr><td>1</td></tr></table></details><details class="foot x"><summary>f'
            '</summary><details class="moreclaims">m</details>kept</details>'
            '<details>plain</details><p>b</p>')
    assert strip(page) == ('<p>a</p><details class="foot x"><summary>f</summary>kept'
                           '</details><p>b</p>')
    broken = '<p>a</p><details class="records"><details>x</details>'
    assert strip(broken) == broken                      # unbalanced: the page as it is
    assert strip('<p>no blocks</p>') == '<p>no blocks</p>'
