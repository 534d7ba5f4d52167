"""The reports' word budget, read as a reader sees each page (closed details show only their
summary): the index holds at most 600 visible words; no page shows a transcript line number
("(lines 582–589)", "(l.445–448)") or a source file's name in its visible text; each verdict
word of the index links to the glossary page, which defines it.  Checked on a freshly rendered
paper and on the committed reports rendered by the current code (older renderings are not
held to it)."""
from __future__ import annotations

import re

import pytest

from report_pages import (CLAIMS_PAPER, REPORTS, committed_pages, render_claims_paper,
                          visible_text, visible_words)
from repro.report.render import code, visible

#: the index's budget of visible words
INDEX_WORDS = 600
LINE_REF = re.compile(r"\(l(ines?|\.)\s*\d")
SOURCE_FILE = re.compile(r"\.pyx|\.py\b|\.toml|tests/")


def problems(html: str, index: bool = False) -> list[str]:
    """What breaks the word budget on a page: too many words (the index), a line reference,
    a source file's name."""
    text = visible_text(html)
    out = [f"line reference: …{text[max(0, m.start() - 40):m.end() + 20]}…"
           for m in LINE_REF.finditer(text)]
    out += [f"source file: …{text[max(0, m.start() - 40):m.end() + 20]}…"
            for m in SOURCE_FILE.finditer(text)]
    if index and visible_words(html) > INDEX_WORDS:
        out.append(f"{visible_words(html)} visible words on the index (at most {INDEX_WORDS})")
    return out


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    return render_claims_paper(tmp_path_factory.mktemp("words"), pdf=False)


def test_visible_prose_leaves_out_line_numbers_and_the_data_pointer():
    assert visible("Figure 4, NDCG@5 block (lines 582-589)") == "Figure 4, NDCG@5 block"
    assert visible("Table 1 (l.445–448), row x") == "Table 1, row x"
    assert str(code("data missing: TD2003 (see `python -m repro data`)")) == \
        "data missing: TD2003"
    assert visible("ranks (lines are layers)") == "ranks (lines are layers)"


def test_visible_text_hides_closed_details_but_not_their_summary():
    html = ("<html><head><style>p{}</style></head><body><p>one two</p><details><summary>"
            "three</summary><p>hidden words</p><details><summary>nested</summary></details>"
            "</details><p>four</p></body></html>")
    assert visible_text(html) == "one two three four"
    assert visible_words(html) == 4


def test_rendered_pages_keep_to_the_budget(rendered):
    index = (rendered / "index.html").read_text()
    page = (rendered / CLAIMS_PAPER / "index.html").read_text()
    assert problems(index, index=True) == []
    assert problems(page) == []
    assert "transcribed from the paper's text." in visible_text(page)   # the note, without
                                                                         # its line numbers
    assert problems("<body><p>see tests/test_lqo.py (lines 5–7)</p></body>") != []


def test_index_links_every_verdict_word_to_the_glossary(rendered):
    index = (rendered / "index.html").read_text()
    glossary = (rendered / "glossary.html").read_text()
    anchors = set(re.findall(r'href="glossary.html#([^"]+)"', index))
    assert {"reproduced", "inconclusive", "deviates", "replicated", "reversed"} <= anchors
    ids = set(re.findall(r'<dt id="([^"]+)"', glossary))
    assert anchors <= ids
    # the index defines nothing itself: no definition of "reproduced" on it
    assert "two one-sided tests" not in visible_text(index)
    assert "two one-sided tests" in visible_text(glossary)


def _rendered_by_this_code(html: str) -> bool:
    """Pages rendered since the glossary page exists (older ones are not held to it)."""
    return "glossary.html" in html


def test_committed_pages_keep_to_the_budget():
    """Every committed page rendered by this code (after the next rendering: all of them)."""
    found = {str(p.relative_to(REPORTS)): problems(p.read_text(),
                                                   index=p == REPORTS / "index.html")
             for p in committed_pages() if _rendered_by_this_code(p.read_text())}
    assert {k: v for k, v in found.items() if v} == {}
