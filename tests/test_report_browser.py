"""Report pages as a reader sees them: each HTML page loaded in headless Chromium (Debian's
chromium and chromium-driver, through selenium) at 1280 px wide, every <details> opened — no
element reaching beyond the viewport, every image decoded, every id unique and every link
resolving (files and #anchors) — and the scoreboard of claims, a value cell's recompute
command and the list of changes there and legible; the index leading with its answer (the
headline and each paper's figure in the first screen), stand-in data named on the
scoreboard, and numbers in one notation.
Run on the committed reports, on a freshly rendered paper with a published table
far wider than a page (it must pass), and on a hand-made over-wide page (the checker must
report it)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from report_pages import (CLAIMS_PAPER, REPORTS, committed_pages, overwide_page,
                          render_claims_paper, render_wide_paper, rendered_with_verdict_legend)

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
    drv.set_page_load_timeout(60)
    yield drv
    drv.quit()


_SETTLED = """
return window.__reproPrevious === undefined && document.readyState === 'complete';
"""


def open_page(driver, page: Path) -> None:
    """Load ``page`` and wait until the browser reports it complete (parsed, its images
    loaded or failed: a broken one still fails the checks). On a loaded machine
    chromedriver's get() can return while the new page is still 'loading' (seen: 8 of a
    page's ids present), and the checks would read half a page — a CI run once reported the
    forest plot 'not decoded' that way. The marker tells the new document from the old."""
    from selenium.webdriver.support.ui import WebDriverWait
    driver.execute_script("window.__reproPrevious = true;")
    driver.get(page.resolve().as_uri())
    WebDriverWait(driver, 60, poll_frequency=0.05).until(lambda d: d.execute_script(_SETTLED))


def _ids_of(path: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8", errors="replace")))


def check_page(driver, page: Path) -> list[str]:
    """Problems a reader would meet on ``page`` at 1280 px (empty list: none)."""
    open_page(driver, page)
    got = driver.execute_script(_MEASURE)
    problems = []
    if got["n_wide"] or got["scroll"] > got["viewport"]:
        problems.append(f"{got['n_wide']} element(s) beyond the {got['viewport']} px viewport "
                        f"(page {got['scroll']} px wide): " + "; ".join(got["wide"]))
    for src in got["images"]:
        problems.append(f"image not decoded: {src}")
    dup = sorted({i for i in got["ids"] if got["ids"].count(i) > 1})
    if dup:
        problems.append(f"duplicate id(s): {', '.join(dup[:8])}")
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
    problems = check_page(browser, page)
    text = page.read_text(encoding="utf-8")
    if not rendered_with_verdict_legend(text):
        # rendered before every section had an id of its own: re-rendering fixes
        # the one duplicate it had (a page section and the "claims" artifact)
        problems = [p for p in problems if not p.startswith("duplicate id(s): claims")]
    assert problems == []


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
document.querySelectorAll('details').forEach(d => d.open = true);
const rows = [...document.querySelectorAll(
  '#scoreboard table.claims tbody tr:not(.gh):not(.gt), table.keyclaims tbody tr')];
const outcome = rows.map(r => {
  const c = r.querySelector('td.oc');
  if (!c) return null;
  const link = c.querySelector('a.gl');
  const words = link ? link.textContent.trim()
                     : [...c.querySelectorAll(':scope > .w')].map(w => w.textContent).join(' ');
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
    open_page(driver, page)
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
    assert [t for t, _ in got["outcome"]] == ["replicated", "reversed", "replicated",
                                              "inconclusive", "not testable here"]
    assert len(got["changes"]) == 1 and "0.43020 → 0.41910" in got["changes"][0]
    assert "python -m repro runs claimpaper.table1 --out runs/ --data-dir DATA" in got["code"]
    index = new_parts(browser, out / "index.html")
    assert [t for t, _ in index["outcome"]] == ["replicated", "reversed", "replicated"]  # key


PAPER_PAGES = [p for p in PAGES if p.name == "index.html" and p.parent.parent == REPORTS]


def test_every_paper_has_a_committed_page():
    """The committed-page tests below run once per page: none missing, none skipped."""
    from repro import papers
    assert {p.parent.name for p in PAPER_PAGES} == set(papers.paper_ids())


@pytest.mark.parametrize("page", PAPER_PAGES, ids=[p.parent.name for p in PAPER_PAGES])
def test_committed_paper_page_shows_claims_commands_and_changes(browser, page):
    assert 'id="scoreboard"' in page.read_text(encoding="utf-8"), \
        f"{page} has no scoreboard (rendered before pages had one, or the marker was lost)"
    got = new_parts(browser, page)
    problems = check_new_parts(got)
    if "claims" not in page.read_text(encoding="utf-8").split('id="scoreboard"')[1][:200]:
        problems = [p for p in problems if "scoreboard" not in p and "colour" not in p]
    assert problems == []


# --- the answer first, stand-ins named, one formatter -----------------------------------------

_ANSWER = """
window.scrollTo(0, 0);
const H = window.innerHeight;
const answer = document.querySelector('#answer');
const figs = [...document.querySelectorAll('figure.forest img')]
    .filter(i => i.offsetParent !== null);            // on screen (the print copy is hidden)
const box = e => e.getBoundingClientRect();
const matrix = document.querySelector('#matrix');
const claims = document.querySelector('#sec-key-claims');
return {height: H, answer: answer ? box(answer).bottom : null,
        answer_text: answer ? answer.textContent.trim() : '',
        figures: figs.map(i => ({src: i.getAttribute('src'), top: box(i).top,
                                 decoded: i.complete && i.naturalWidth > 0})),
        matrix: matrix ? box(matrix).bottom : null, claims: claims ? box(claims).top : null};
"""


def check_answer_first(driver, index: Path) -> list[str]:
    """At 1400 × 900: the per-paper lines (#answer) end in the first screen; then the
    reproduction matrix, the key claims and the forest plot (one on screen, decoded; the
    print copy under the matrix is for index.pdf's first page), in that order."""
    driver.set_window_size(1400, 900)
    try:
        open_page(driver, index)
        got = driver.execute_script(_ANSWER)
    finally:
        driver.set_window_size(WIDTH, 900)
    problems = []
    if got["answer"] is None or got["answer"] > got["height"]:
        problems.append(f"the headline does not end in the first screen: {got['answer']}")
    if len(got["figures"]) != 1:
        problems.append(f"{len(got['figures'])} forest plots (one wanted)")
    problems += [f"figure not decoded: {f['src']}" for f in got["figures"] if not f["decoded"]]
    if got["matrix"] is None or got["claims"] is None:
        problems.append("no reproduction matrix or no key claims")
    elif got["claims"] < got["matrix"] or any(f["top"] < got["claims"] for f in got["figures"]):
        problems.append("not in the order lines, matrix, key claims, forest plot")
    return problems


_READING = """
const txt = e => e ? e.textContent.replace(/\\s+/g, ' ').trim() : '';
const rows = [...document.querySelectorAll(
  'table.claims tbody tr:not(.gh):not(.gt), table.keyclaims tbody tr')];
const claims = rows.map(r => ({data: txt(r.cells[0]),
                               numbers: (r.closest('table').classList.contains('keyclaims')
                                         ? [1, 2, 3] : [3, 4, 5]).map(i => txt(r.cells[i])),
                               oc: r.querySelector('td.oc') ? r.querySelector('td.oc').className
                                   : '', outcome: txt(r.querySelector('td.oc'))}));
const labels = [...document.querySelectorAll('table.grid td.rl')].map(txt);
const body = document.body.innerText;
return {claims, labels, backticks: (body.match(/`/g) || []).length,
        plus0: (body.match(/(^|[^\\w.])\\+0(?![.\\d])/g) || []).length};
"""


def check_reading(driver, page: Path) -> list[str]:
    """One formatter, as the page reads: a claim's effect, interval and p in fixed-point
    notation (no '8.388e-05' beside '0.0001031'), no '+0', no literal backtick, no source
    line reference in a row label; every claim row on stand-in data says so."""
    open_page(driver, page)
    got = driver.execute_script(_READING)
    problems = []
    expo = re.compile(r"\d(\.\d+)?e[-+]?\d")
    for c in got["claims"]:
        if any(expo.search(n) for n in c["numbers"]):
            problems.append(f"exponent notation in a claim row: {c['numbers']}")
        if "(stand-in for" in c["data"] and ("on-stand-in" not in c["oc"]
                                             or "(stand-in data)" not in c["outcome"]):
            problems.append(f"a claim on stand-in data not marked so: {c}")
    problems += [f"line reference in a row label: {lab}" for lab in got["labels"]
                 if re.search(r"\((txt:|lines? )\d", lab)]
    if got["backticks"]:
        problems.append(f"{got['backticks']} literal backtick(s)")
    if got["plus0"]:
        problems.append(f"{got['plus0']} '+0'")
    return problems


def test_rendered_index_leads_with_the_answer_and_names_stand_ins(browser, tmp_path):
    """A freshly rendered paper with a claim on stand-in data: the index's headline and the
    paper's figure in the first screen, the stand-in claim marked on both scoreboards, and
    numbers in one notation on both pages."""
    out = render_claims_paper(tmp_path, pdf=False)
    assert check_answer_first(browser, out / "index.html") == []
    for page in (out / "index.html", out / CLAIMS_PAPER / "index.html"):
        assert check_reading(browser, page) == []
        got = browser.execute_script(_READING)
        assert any("(stand-in for web)" in c["data"] for c in got["claims"]), page


def test_checkers_catch_a_buried_answer_and_numbers_in_two_notations(browser, tmp_path):
    page = tmp_path / "bad.html"
    page.write_text(
        '<!DOCTYPE html><html><body><div style="height: 1200px">scoreboard first</div>'
        '<div id="answer">late</div><figure class="forest">'
        '<img src="missing.svg"></figure><p id="x">a `code` +0</p><p id="x"></p>'
        '<table class="claims"><tbody><tr><td>OHSUMED (stand-in for HP2004)</td><td></td>'
        '<td></td><td>-8.388e-05</td><td>[-1e-3, 2e-3]</td><td>0.5</td>'
        '<td class="oc claim-replicated">replicated</td></tr></tbody></table>'
        '<table class="grid"><tr><td class="rl">SVMmap (txt:392)</td></tr></table>'
        '</body></html>', encoding="utf-8")
    answer = check_answer_first(browser, page)
    assert any("headline does not end in the first screen" in p for p in answer), answer
    assert any("figure not decoded" in p for p in answer), answer
    reading = check_reading(browser, page)
    for want in ("exponent notation", "not marked so", "line reference", "backtick", "'+0'"):
        assert any(want in p for p in reading), (want, reading)
    assert any("duplicate id(s): x" in p for p in check_page(browser, page))


INDEX = REPORTS / "index.html"


def test_committed_index_leads_with_the_answer(browser):
    assert INDEX.is_file(), f"no committed index: {INDEX}"
    assert 'id="answer"' in INDEX.read_text(encoding="utf-8"), \
        f"{INDEX} does not lead with the answer (rendered before it did, or the marker was lost)"
    assert check_answer_first(browser, INDEX) == []


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(p.parents[1]))
                                             if p.parent.name != "reports" else p.name
                                             for p in PAGES])
def test_committed_page_reads_in_one_notation(browser, page):
    text = page.read_text(encoding="utf-8")
    assert rendered_with_verdict_legend(text), \
        f"{page} lacks the marks of the one number formatter (re-render it, or they were lost)"
    assert check_reading(browser, page) == []


def test_committed_scoreboard_names_stand_in_data(browser):
    """lesmola2007's web-search claims are tested on stand-ins (MQ2008 and OHSUMED): the
    index's scoreboard names them so, and marks their outcome."""
    assert INDEX.is_file(), f"no committed index: {INDEX}"
    assert 'id="answer"' in INDEX.read_text(encoding="utf-8"), \
        f"{INDEX} does not lead with the answer (rendered before it named stand-ins, or the " \
        "marker was lost)"
    open_page(browser, INDEX)
    got = browser.execute_script(_READING)
    stand_in = [c for c in got["claims"] if "(stand-in for" in c["data"]]
    assert stand_in and all("on-stand-in" in c["oc"] for c in stand_in)
    assert any("OHSUMED (stand-in for" in c["data"] for c in stand_in)


_FIRST_SCREEN = """
const box = e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
return {lines: [...document.querySelectorAll('ul.paperlines li')].map(box),
        rows: [...document.querySelectorAll('#matrix a.mx-row')].map(box),
        segs: [...document.querySelectorAll('#matrix .mx-seg')].map(s => [s.getAttribute('title'),
               getComputedStyle(s).backgroundColor]),
        height: window.innerHeight, width: document.documentElement.clientWidth};
"""


def first_screen(driver, page: Path, width: int = 1400, height: int = 900) -> dict:
    """Where the index's per-paper lines and matrix rows are, in a window of ``width`` ×
    ``height`` (the viewport's own size is measured)."""
    driver.set_window_size(width, height)
    try:
        open_page(driver, page)
        return driver.execute_script(_FIRST_SCREEN)
    finally:
        driver.set_window_size(WIDTH, 900)


def first_screen_problems(got: dict, papers: int) -> list[str]:
    out = []
    if len(got["lines"]) != papers:
        out.append(f"{len(got['lines'])} per-paper lines for {papers} papers")
    if not got["rows"]:
        out.append("no reproduction matrix")
    for what in ("lines", "rows"):
        below = [b for b in got[what] if b[1] > got["height"] + 0.5 or b[3] > got["width"] + 0.5]
        if below:
            out.append(f"{len(below)} of the {what} outside the first screen "
                       f"({got['width']}×{got['height']}): {below[:3]}")
    colours = {}
    for title, bg in got["segs"]:
        colours.setdefault(title.split(" ", 1)[1], set()).add(bg)
    if len({bg for c in colours.values() for bg in c}) < len(colours):
        out.append(f"matrix segments not told apart by colour: {colours}")
    return out


def test_index_first_screen_holds_the_lines_and_the_matrix(browser, tmp_path):
    """At 1400×900 the index's first screen holds one line per paper and every row of the
    reproduction matrix (element positions); the committed index too, once rendered by this
    code."""
    out = render_claims_paper(tmp_path, pdf=False)
    assert first_screen_problems(first_screen(browser, out / "index.html"), 1) == []
    index = REPORTS / "index.html"
    if index.is_file() and 'class="paperlines"' in index.read_text():
        papers = len([p for p in REPORTS.iterdir() if (p / "index.html").is_file()])
        assert first_screen_problems(first_screen(browser, index), papers) == []


def test_first_screen_checker_reports_a_matrix_below_the_screen(browser, tmp_path):
    out = render_claims_paper(tmp_path, pdf=False)
    page = out / "index.html"
    html = page.read_text()
    page.write_text(html.replace('<div class="matrix" id="matrix">',
                                 '<div style="height: 2000px"></div><div class="matrix" '
                                 'id="matrix">'))
    got = first_screen_problems(first_screen(browser, page), 1)
    assert any("rows outside the first screen" in p for p in got), got



# --- phone width ---------------------------------------------------------------------------------

PHONE = 420

_PHONE = """
document.querySelectorAll('details').forEach(d => d.open = true);
const W = document.documentElement.clientWidth;
const cut = [];
for (const e of document.body.querySelectorAll('img, p, h1, h2, h3, li, figure, .tbl')) {
  const r = e.getBoundingClientRect();
  let inBox = false;
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const o = getComputedStyle(a).overflowX;
    if (o === 'auto' || o === 'scroll') { inBox = true; break; }
  }
  if (!inBox && r.width > 0 && r.right > W + 0.5)
    cut.push(e.tagName.toLowerCase() + ' ' + Math.round(r.right) + ' px: ' +
             (e.textContent || e.getAttribute('src') || '').trim().slice(0, 50));
}
return {viewport: W, body: document.body.scrollWidth, page: document.documentElement.scrollWidth,
        cut: cut.slice(0, 8), n_cut: cut.length};
"""


def check_phone(driver, page: Path) -> list[str]:
    """What a reader on a 420 px screen would meet: a page wider than the screen (it scrolls
    sideways), or an element outside a scrolling box reaching beyond it (cut off)."""
    driver.set_window_size(PHONE, 900)
    try:
        open_page(driver, page)
        got = driver.execute_script(_PHONE)
    finally:
        driver.set_window_size(WIDTH, 900)
    problems = []
    if got["viewport"] > PHONE:
        problems.append(f"the window is {got['viewport']} px wide, not {PHONE}")
    if max(got["body"], got["page"]) > got["viewport"]:
        problems.append(f"page {max(got['body'], got['page'])} px wide on a "
                        f"{got['viewport']} px screen")
    if got["n_cut"]:
        problems.append(f"{got['n_cut']} element(s) cut off: " + "; ".join(got["cut"]))
    return problems


def test_rendered_pages_reflow_at_phone_width(browser, tmp_path):
    out = render_claims_paper(tmp_path, pdf=False)
    for page in (out / "index.html", out / CLAIMS_PAPER / "index.html"):
        assert check_phone(browser, page) == [], page


def test_the_phone_checker_finds_a_page_wider_than_the_screen(browser, tmp_path):
    from repro.report.render import css
    page = tmp_path / "wide.html"
    page.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" '
                    f'content="width=device-width, initial-scale=1"><style>{css()}</style>'
                    '</head><body><h2 style="width: 900px">a fixed 900 px heading</h2>'
                    '<p style="white-space: nowrap">' + "word " * 80 + "</p></body></html>",
                    encoding="utf-8")
    problems = check_phone(browser, page)
    assert any("px wide on a" in p for p in problems), problems
    assert any("cut off" in p for p in problems), problems


PHONE_PAGES = [p for p in committed_pages() if p.name == "index.html"
               and p.parent.name != "timing"]


@pytest.mark.parametrize("page", PHONE_PAGES, ids=[p.parent.name for p in PHONE_PAGES])
def test_committed_page_reflows_at_phone_width(browser, page):
    assert check_phone(browser, page) == []
