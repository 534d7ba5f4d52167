"""Report pages as a reader sees them: each HTML page loaded in headless Chromium (Debian's
chromium and chromium-driver, through selenium) at 1280 px wide, every <details> opened — no
element reaching beyond the viewport, every image decoded, every link resolving (files and
#anchors) — and the scoreboard of claims, a value cell's recompute command and the list of
changes there and legible.  Run on the committed reports, on a freshly rendered paper with a published table
far wider than a page (it must pass), and on a hand-made over-wide page (the checker must
report it)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from report_pages import (CLAIMS_PAPER, REPORTS, committed_pages, overwide_page, render_claims_paper,
                          render_wide_paper)

#: every test here drives a headless browser
pytestmark = pytest.mark.slow

WIDTH = 1280

_MEASURE = """
document.querySelectorAll('details').forEach(d => d.open = true);
const W = document.documentElement.clientWidth;
const wide = [];
for (const e of document.body.querySelectorAll('*')) {
  const r = e.getBoundingClientRect();
  if (r.width > 0 && (r.right > W + 0.5 || r.left < -0.5)) {
    wide.push(e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' ' +
              Math.round(r.left) + '..' + Math.round(r.right) + ' px: ' +
              (e.textContent || '').trim().slice(0, 60));
  }
}
const images = [...document.images].filter(i => !i.complete || i.naturalWidth === 0)
                                  .map(i => i.getAttribute('src'));
const links = [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'));
const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
return {viewport: W, scroll: document.documentElement.scrollWidth, wide: wide.slice(0, 10),
        n_wide: wide.length, images, links, ids};
"""


@pytest.fixture(scope="module")
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chrome or not driver_path:
        pytest.skip("no headless browser: install Debian's chromium and chromium-driver "
                    "(.ci/run does)")
    opts = Options()
    opts.binary_location = chrome
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--hide-scrollbars", f"--window-size={WIDTH},900", "--allow-file-access-from-files"):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(driver_path), options=opts)
    drv.set_page_load_timeout(30)
    yield drv
    drv.quit()


def _ids_of(path: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8", errors="replace")))


def check_page(driver, page: Path) -> list[str]:
    """Problems a reader would meet on ``page`` at 1280 px (empty list: none)."""
    driver.get(page.resolve().as_uri())
    got = driver.execute_script(_MEASURE)
    problems = []
    if got["n_wide"] or got["scroll"] > got["viewport"]:
        problems.append(f"{got['n_wide']} element(s) beyond the {got['viewport']} px viewport "
                        f"(page {got['scroll']} px wide): " + "; ".join(got["wide"]))
    for src in got["images"]:
        problems.append(f"image not decoded: {src}")
    for href in got["links"]:
        url = urlparse(href)
        if url.scheme in ("http", "https", "mailto"):
            continue                      # not reachable offline: reports have none
        target = page if not url.path else (page.parent / unquote(url.path)).resolve()
        if not target.exists():
            problems.append(f"broken link: {href}")
        elif url.fragment:
            ids = set(got["ids"]) if target == page.resolve() or not url.path else \
                _ids_of(target) if target.suffix == ".html" else set()
            if url.fragment not in ids:
                problems.append(f"link to a missing anchor: {href}")
    return problems


PAGES = committed_pages()


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(p.parents[1]))
                                             if p.parent.name != "reports" else p.name
                                             for p in PAGES])
def test_committed_page_reads_well(browser, page):
    assert check_page(browser, page) == []


def test_rendered_wide_table_fits(browser, tmp_path):
    """A published table of 40 columns is split into column blocks that fit: the fresh page
    (and its index) pass."""
    out = render_wide_paper(tmp_path, pdf=False)
    page = out / "widepaper" / "index.html"
    assert "columns 1–" in page.read_text()
    assert check_page(browser, page) == []
    assert check_page(browser, out / "index.html") == []


def test_checker_reports_an_overwide_page(browser, tmp_path):
    problems = check_page(browser, overwide_page(tmp_path))
    assert any("beyond the 1280 px viewport" in p for p in problems), problems
    assert any("image not decoded: missing.svg" in p for p in problems), problems
    assert any("broken link: nowhere.html" in p for p in problems), problems


_PARTS = """
const rows = [...document.querySelectorAll('#scoreboard table.claims tbody tr:not(.gh):not(.gt)')];
const outcome = rows.map(r => {
  const c = r.querySelector('td.oc');
  if (!c) return null;
  const words = [...c.querySelectorAll(':scope > .w')].map(w => w.textContent).join(' ');
  return [words || c.textContent.trim(), getComputedStyle(c).backgroundColor]; });
const cell = document.querySelector('td.c[title*="python -m repro"]');
const code = [...document.querySelectorAll('caption code')].map(c => c.textContent);
const changes = [...document.querySelectorAll('#changelist table.changes tbody tr')]
  .map(r => r.textContent.replace(/\\s+/g, ' ').trim());
const none = document.querySelector('#changelist .nochange');
const box = e => e ? e.getBoundingClientRect() : null;
return {outcome, title: cell ? cell.getAttribute('title') : null, code, changes,
        none: none ? none.textContent : null,
        board: box(document.querySelector('#scoreboard')),
        list: box(document.querySelector('#changelist'))};
"""


def new_parts(driver, page: Path) -> dict:
    """The scoreboard's outcome cells (text, colour), a value cell's tooltip, the caption
    commands and the change list, as the browser shows them."""
    driver.get(page.resolve().as_uri())
    return driver.execute_script(_PARTS)


def check_new_parts(got: dict) -> list[str]:
    problems = []
    if not got["outcome"] or any(o is None for o in got["outcome"]):
        problems.append("no scoreboard of claims with an outcome per row")
    elif len({bg for _, bg in got["outcome"]}) < len({t for t, _ in got["outcome"]}):
        problems.append(f"outcomes not told apart by colour: {got['outcome']}")
    if not got["title"] or "--data-dir DATA" not in got["title"]:
        problems.append(f"no value cell with its recompute command: {got['title']!r}")
    if not any(c.startswith("python -m repro ") for c in got["code"]):
        problems.append("no command in a table caption")
    if not got["changes"] and not got["none"]:
        problems.append("no change list and no 'no value or verdict changed' line")
    for name in ("board", "list"):
        if not got[name] or got[name]["height"] <= 0:
            problems.append(f"the {name} is not displayed")
    return problems


def test_rendered_claims_page_reads_well(browser, tmp_path):
    """A page rendered from records with intervals and claims, after a rendering in which one
    value moved: it reads well, and its scoreboard, cell commands and change list show."""
    out = render_claims_paper(tmp_path, pdf=False)
    page = out / CLAIMS_PAPER / "index.html"
    assert check_page(browser, page) == []
    assert check_page(browser, out / "index.html") == []
    got = new_parts(browser, page)
    assert check_new_parts(got) == []
    assert [t for t, _ in got["outcome"]] == ["holds", "contradicted", "not significant here",
                                              "not testable here"]
    assert len(got["changes"]) == 1 and "0.43020 → 0.41910" in got["changes"][0]
    assert "python -m repro runs claimpaper.table1 --out runs/ --data-dir DATA" in got["code"]
    index = new_parts(browser, out / "index.html")
    assert [t for t, _ in index["outcome"]] == ["holds", "contradicted"]      # key claims


PAPER_PAGES = [p for p in PAGES if p.name == "index.html" and p.parent.parent == REPORTS]


@pytest.mark.parametrize("page", PAPER_PAGES, ids=[p.parent.name for p in PAPER_PAGES])
def test_committed_paper_page_shows_claims_commands_and_changes(browser, page):
    if 'id="scoreboard"' not in page.read_text(encoding="utf-8"):
        pytest.skip(f"{page} was rendered before pages had a scoreboard (re-render it)")
    got = new_parts(browser, page)
    problems = check_new_parts(got)
    if "claims" not in page.read_text(encoding="utf-8").split('id="scoreboard"')[1][:200]:
        problems = [p for p in problems if "scoreboard" not in p and "colour" not in p]
    assert problems == []
