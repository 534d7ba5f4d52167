"""What report pages say: headlines and totals that add up to the JSON, the paper's own table
layouts, verdict kinds (reproduction / consistency check / derived value) and tolerances read
from the TOML, byte-identical pages and records across runs (run times only in sidecars,
timing artifacts apart), an index without broken links in a fresh directory, and a readable
benchmarks page."""
from __future__ import annotations

import json
import re
import time
import types
from collections import Counter
from pathlib import Path

import pytest

import fakepaper
from repro import papers
from repro.spec import Artifact, RunLayout
from repro.evidence.record import record
from repro.pipeline import Options, run_artifacts
from repro.evidence.record import check_fields
from repro.judge.equivalence import outcome_at
from repro.judge.published import PublishedValue, load
from repro.judge.verdicts import Verdict, category, compare, judge
from repro.report.verdicts import BUCKETS, RERUN, Tally, bucket, headline
from report_pages import REPORTS, claim_records, table1_records

QUIET = dict(log=lambda *a, **k: None)


pytestmark = pytest.mark.usefixtures("fake_paper")     # conftest: registered, own cache


# --- verdicts and tolerances from the TOML ------------------------------------------------------

def _pv(text):
    return PublishedValue("complexity", "synthetic", "m", "exponent", None, text, "src")


def test_claimed_exponent_uses_its_declared_margin_not_integer_rounding():
    """An exponent derived from an O(·) claim is judged against the declared margin (0.15,
    no rounding floor): 1.4 against "1" is beyond it — the old ±0.5 of the integer's rounding
    would have called it equal — and a derived value is never "reproduced"."""
    rule = {"tol": 0.15, "rounding": False, "why": "O(m) claim"}
    assert judge({"value": 1.4}, _pv("1")).outcome == "reproduced"        # rounding: ±0.5
    assert judge({"value": 1.4}, _pv("1"), rule).outcome == "deviates"
    assert judge({"value": 1.1}, _pv("1"), rule).outcome == "reproduced"
    assert judge({"value": 2.0}, _pv("1"), rule).outcome == "deviates"
    e = judge({"value": 1.1}, _pv("1"), rule)
    assert category("derived", False, e.outcome) is Verdict.DERIVED
    assert e.margin.basis == "declared" and e.margin.value == 0.15
    assert category("consistency", False, judge({"value": 4.0}, _pv("4")).outcome) \
        is Verdict.CONSISTENT
    assert category("consistency", False, judge({"value": 5.0}, _pv("4")).outcome) \
        is Verdict.INCONSISTENT


@pytest.mark.parametrize("paper", ["pahikkala2010", "leelin2014"])
def test_complexity_exponents_are_derived_values_within_015(paper):
    pub = load(paper)
    rec = {"artifact": "complexity", "dataset": "synthetic", "method": "x", "metric": "y"}
    tol, why = pub.tolerance(rec)
    assert tol == 0.15 and why and pub.rule(rec)["rounding"] is False
    assert pub.kind(rec)[0] == "derived"


def test_leelin_section_ii_is_a_consistency_check_and_table_i_a_reproduction():
    pub = load("leelin2014")
    ex = [v for v in pub.values if v.artifact == "sectionII"]
    recs = [dict(zip(("artifact", "dataset", "method", "metric", "fold"), v.key),
                 value=v.value) for v in ex]
    out = compare("leelin2014", "sectionII", recs, pub, {})
    assert {r["verdict"] for r in out} == {Verdict.CONSISTENT.value}
    assert all(r["kind"] == "consistency" and "rebuilt" in r["kind_why"] for r in out)
    row = {"artifact": "tableI", "dataset": "MQ2008", "method": "TRON, C = 2^20",
           "metric": "zero dual variables (%)", "fold": "1", "value": 22.4385}
    (got,) = [r for r in compare("leelin2014", "tableI", [row], pub, {})
              if r.get("value") is not None]
    assert got["verdict"] == Verdict.REPRODUCED.value and got["margin_basis"] == "rounding"


# --- the paper's own table layouts --------------------------------------------------------------

def test_layouts_follow_the_toml_tables():
    pub = load("pahikkala2010")
    t1 = pub.layouts_for("table1")[0]
    assert (t1.rows_field, t1.cols_field, t1.columns) == ("metric", "fold", ["1", "2", "3", "4", "5"])
    assert [r.label for r in t1.rows][:3] == ["λ", "k", "selected 1"]
    leelin = load("leelin2014")
    table_i = [t for t in leelin.layouts_for("tableI") if t.source == "Table (I)"][0]
    assert [r.value for r in table_i.rows] == ["MQ2007", "MQ2008", "Yahoo-set2", "MQ2007-list",
                                              "MQ2008-list"]        # three entries, one table
    dubey = load("dubey2009")
    map_table = [t for t in dubey.layouts_for("figure3") if t.source.endswith("subtable MAP")][0]
    rows = {r.value: r for r in map_table.rows}
    assert "ListNet" in rows and sum(k is not None for k in rows["ListNet"].cells) == 2


def _fake_layout_pages(tmp_path):
    out = tmp_path / "reports"
    run_artifacts(papers.resolve("fakepaper"), Options(tmp_path, out, pdf=False, **QUIET))
    return out


@pytest.mark.slow
def test_tables_are_laid_out_as_printed_with_notes_once(tmp_path):
    page = (_fake_layout_pages(tmp_path) / "fakepaper" / "index.html").read_text()
    caption = page.index("<caption>Table 1<")
    table = page[caption:page.index("</table>", caption)]
    labels = [re.sub(r"<[^>]+>", "", m) for m in re.findall(r'<td class="rl[^"]*">(.*?)</td>',
                                                           table)]
    assert labels == ["Fold 1", "Fold 2", "Fold 3"]       # the paper's row labels, in order
    assert "(2.00)" in table and "(2.1)" in table and "Δ ±0" in table
    why = "the paper printed 2.1 for a constant 2"
    text = re.sub(r"<[^>]+>", "", page)
    assert text.count(why) == 2            # once under the table, once in the records list


# --- headlines and totals -----------------------------------------------------------------------

def _records(root: Path) -> list[dict]:
    out = []
    for f in sorted(root.glob("*/*.json")):
        if f.name.endswith((".meta.json", ".runs.json")):
            continue
        data = json.loads(f.read_text())
        if isinstance(data, list):
            out += data
    return out


def _index_totals(index_html: str) -> dict[str, int]:
    total = re.search(r'<tr class="total">(.*?)</tr>', index_html, re.S).group(1)
    return {b: int(n) for b, n in re.findall(r'data-bucket="([^"]+)">(\d+)<', total)}


def check_index_totals(root: Path) -> None:
    recs = _records(root)
    totals = _index_totals((root / "index.html").read_text())
    counts = Counter(bucket(r) for r in recs)
    assert totals["records"] == len(recs)
    assert sum(totals.get(b, 0) for b in BUCKETS) == len(recs)
    for b in BUCKETS:
        assert totals.get(b, 0) == counts[b], b
    not_run = sum(1 for r in recs if r["verdict"] == Verdict.NOT_RUN.value
                  and r.get("published") is not None
                  and r.get("kind") != "shown")        # shown, never compared: not counted
    assert totals["not run"] == not_run


@pytest.mark.skipif(not (REPORTS / "index.html").is_file(), reason="no committed reports")
def test_committed_index_totals_equal_counts_over_the_json():
    check_index_totals(REPORTS)


@pytest.mark.slow
def test_fresh_index_totals_equal_counts_over_the_json(tmp_path):
    check_index_totals(_fake_layout_pages(tmp_path))


def test_headline_says_when_nothing_is_reproduced():
    flat = [{"verdict": "not run", "reason": "not implemented yet", "published": "0.5"},
            {"verdict": "baseline", "published": "0.4"}]
    lines = headline(Tally().add(flat))
    assert lines[0] == ("Nothing reproduced yet: none of the 1 comparable published values "
                        "has a reproduced counterpart.")
    assert "1 not run: not implemented yet" in lines[1]
    derived = flat + [{"verdict": "derived", "equivalence": "reproduced", "published": "1",
                       "value": 1.1}]
    lines = headline(Tally().add(derived))
    assert lines[0] == "No value rerun on the paper's own data: 1 derived value."


def _rule(verdict, bound, dev, margin=0.01):
    return {"verdict": verdict, "published": "0.5", "value": 0.4, "equivalence": verdict,
            "equivalence_bound": bound, "deviation_bound": dev, "margin": margin}


def test_headline_counts_the_rule_s_verdicts_and_their_counts_at_other_margins():
    """The first sentence: reproduced / inconclusive / deviates of the values rerun on the
    paper's data, and the counts at ½δ and 2δ from each value's two bounds; columns and
    claims are not comparable values; stand-ins, checks and derived values said apart."""
    flat = [_rule("reproduced", 0.004, 0.0), _rule("reproduced", 0.008, 0.0),
            _rule("inconclusive", 0.015, 0.0), _rule("inconclusive", 0.03, 0.015),
            _rule("deviates", 0.05, 0.012), _rule("deviates", 0.08, 0.03),
            {"verdict": "stand-in", "equivalence": "deviates", "published": "0.5"},
            {"verdict": "column", "published": None, "value": -0.03, "column": True},
            {"verdict": "claim", "outcome": "replicated", "published": None}]
    t = Tally().add(flat)
    assert (t.reproduced, t.rerun, t.comparable, t.records) == (2, 6, 7, 9)
    half = Counter(outcome_at(r["equivalence_bound"], r["deviation_bound"], 0.005)
                   for r in flat[:6])
    twice = Counter(outcome_at(r["equivalence_bound"], r["deviation_bound"], 0.02)
                    for r in flat[:6])
    assert (half["reproduced"], half["deviates"]) == (1, 3)
    assert (twice["reproduced"], twice["deviates"]) == (3, 1)
    first, *rest = headline(t)
    got = FIRST.fullmatch(first)
    assert got, first
    assert [int(g) for g in got.groups()] == [2, 6, 2, 2, 1, 3, 3, 1]
    assert "1 on stand-in data (1 beyond ±δ of the published value)" in rest[0]


FIRST = re.compile(r"(\d+) of (\d+) published values rerun on the paper's data reproduced within "
                   r"the paper's resolution, (\d+) inconclusive, (\d+) deviate \(at half the "
                   r"margin: (\d+) reproduced, (\d+) deviate; at twice: (\d+) reproduced, "
                   r"(\d+) deviate\)\.")


@pytest.mark.skipif(not (REPORTS / "index.html").is_file(), reason="no committed reports")
@pytest.mark.parametrize("paper", ["stevens2010", "dubey2009", "lesmola2007", "leelin2014",
                                   "pahikkala2010"])
def test_committed_first_sentence_counts_the_pages_records(paper):
    """The first sentence of a committed paper page (or one of ``REPRO_CHECK_REPORTS=DIR``)
    gives the counts of the records beside it, counted here one by one: reproduced,
    inconclusive and deviating values rerun on the paper's data, and the same at ½δ and 2δ
    from each value's bounds; a page with nothing rerun says so first."""
    import html
    if not (REPORTS / paper / "index.html").is_file():
        pytest.skip(f"{paper} not rendered into {REPORTS}")
    text = html.unescape((REPORTS / paper / "index.html").read_text())
    first = re.search(r'<p class="first">([^<]*)</p>', text).group(1)
    recs = [r for r in _records(REPORTS) if r["paper"] == paper]
    counts = Counter(bucket(r) for r in recs)
    if not any(counts[b] for b in RERUN):
        assert first.startswith(("Nothing reproduced yet", "No value rerun",
                                 "No comparable")), first
        assert "0.0 s" not in text
        return
    got = FIRST.fullmatch(first)
    assert got, first
    rerun = [r for r in recs if bucket(r) in RERUN]
    at = {k: Counter(outcome_at(float(r["equivalence_bound"]), float(r["deviation_bound"]),
                                k * float(r["margin"])) for r in rerun) for k in (0.5, 2.0)}
    assert [int(g) for g in got.groups()] == [
        counts["reproduced"], len(rerun), counts["inconclusive"], counts["deviates"],
        at[0.5]["reproduced"], at[0.5]["deviates"], at[2.0]["reproduced"], at[2.0]["deviates"]]


def test_the_helper_records_are_judged_records_of_the_closed_schema():
    """The records the report tests render (report_pages) are what the judge writes: codes,
    the rule's fields, fields every category declares."""
    vals = table1_records()
    assert [r["verdict"] for r in vals] == ["reproduced", "inconclusive", "reproduced",
                                            "reproduced"]
    assert table1_records(second=True)[2]["verdict"] == "deviates"
    for r in vals + claim_records():
        check_fields(r)
        bucket(r)


# --- determinism, sidecars, timing apart, fresh directories -------------------------------------

CLOCK = []


def task_clock(ctx):
    """A timing task: its value changes on every run."""
    CLOCK.append(1)
    return {"records": [record("ours", "seconds", time.perf_counter() + len(CLOCK))]}


@pytest.fixture
def timed_paper(fake_paper):
    mod = types.ModuleType("fakepaper")
    for name in dir(fakepaper):
        if not name.startswith("__"):
            setattr(mod, name, getattr(fakepaper, name))
    mod.task_clock = task_clock
    mod.ARTIFACTS = list(fakepaper.ARTIFACTS) + [
        Artifact(
            "fakepaper", "speed", "Measured time", kind="figure", task="task_clock",
            layout=RunLayout(datasets=("synthetic",), timing=True))]
    papers.register(mod)
    yield mod
    papers.unregister("fakepaper")


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.mark.slow
def test_pages_and_records_are_byte_identical_across_runs_and_jobs(timed_paper, tmp_path,
                                                                   monkeypatch):
    a, b = tmp_path / "a", tmp_path / "b"
    run_artifacts(papers.resolve("fakepaper"), Options(tmp_path, a, pdf=False, jobs=1, **QUIET))
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache2"))       # empty cache
    run_artifacts(papers.resolve("fakepaper"), Options(tmp_path, b, pdf=False, jobs=2, **QUIET))
    ta, tb = _tree(a), _tree(b)
    assert ta.keys() == tb.keys()
    differ = {k for k in ta if ta[k] != tb[k]}
    assert differ and all(k.endswith(".runs.json") or "/timing/" in k for k in differ), differ
    page = ta["fakepaper/index.html"].decode()
    assert not re.search(r"\b\d+\.\d+ s\b|cached|finished", page)
    meta = json.loads(ta["fakepaper/table1.meta.json"])
    assert all(set(r) == {"run", "status", "why", "seed"} for r in meta["runs"])
    runs = json.loads(ta["fakepaper/table1.runs.json"])
    assert all("seconds" in r and "finished" in r for r in runs["runs"])
    assert 'href="table1.runs.json"' in page


@pytest.mark.slow
def test_timing_artifacts_are_kept_apart(timed_paper, tmp_path):
    out = tmp_path / "out"
    run_artifacts(papers.resolve("fakepaper"), Options(tmp_path, out, pdf=False, **QUIET))
    main = (out / "fakepaper" / "index.html").read_bytes()
    first = json.loads((out / "fakepaper" / "timing" / "speed.json").read_text())
    run_artifacts(papers.resolve("fakepaper.speed"),
                  Options(tmp_path, out, pdf=False, force=True, **QUIET))
    again = json.loads((out / "fakepaper" / "timing" / "speed.json").read_text())
    assert first[0]["value"] != again[0]["value"]          # measured: changes
    assert (out / "fakepaper" / "index.html").read_bytes() == main
    assert not (out / "fakepaper" / "speed.json").exists()
    timing_page = (out / "fakepaper" / "timing" / "index.html").read_text()
    assert 'id="speed"' in timing_page and 'href="timing/index.html#speed"' in main.decode()


@pytest.mark.slow
def test_fresh_out_directory_index_links_only_what_exists(tmp_path):
    out = _fake_layout_pages(tmp_path)
    index = (out / "index.html").read_text()
    hrefs = re.findall(r'href="([^"#]+)', index)
    assert hrefs and all((out / h).exists() for h in hrefs), hrefs
    assert "pahikkala2010/index.html" not in index and "benchmarks.html" not in index
    assert "not rendered into this directory" in index


def test_unrun_artifact_shows_no_stand_in_and_no_time(tmp_path):
    from dataclasses import replace
    from repro.pipeline import build_artifact
    art = papers.resolve("fakepaper.table3")[0].replace(datasets=("synthetic",),
                 stand_ins={"synthetic": "MQ2007"})
    build_artifact(art, [], load("fakepaper", fakepaper.PUBLISHED_PATH), tmp_path / "fakepaper",
                   False)
    meta = json.loads((tmp_path / "fakepaper" / "table3.meta.json").read_text())
    assert meta["datasets"][0]["status"] == "not run" and meta["datasets"][0]["stand_in_for"] is None
    from repro.report.pages import render_paper
    page = render_paper(types.SimpleNamespace(PAPER=fakepaper.PAPER, ARTIFACTS=[art],
                                              PUBLISHED_PATH=fakepaper.PUBLISHED_PATH),
                        tmp_path, [], pdf=False, **QUIET).read_text()
    assert "stand-in for" not in page and "0.0 s" not in page and "not implemented yet" in page


# --- figures ------------------------------------------------------------------------------------

@pytest.mark.slow
def test_caption_says_published_values_are_overlaid_only_where_they_are(tmp_path):
    import matplotlib.pyplot as plt
    from repro.report.build import shows_published
    fig, ax = plt.subplots()
    ax.plot([1, 2], [1, 2])
    assert not shows_published(fig)
    ax.plot([1, 2], [1, 2], gid="published")
    assert shows_published(fig)
    plt.close(fig)
    page = (_fake_layout_pages(tmp_path) / "fakepaper" / "index.html").read_text()
    assert "the published values are not drawn" in page and "overlaid" not in page


# --- the benchmarks page ------------------------------------------------------------------------

def test_benchmarks_page_is_a_readable_table(tmp_path):
    from repro.report.benchmarks import render_benchmarks
    results = {"version": "0.1.0", "machine": {"platform": "Linux-x", "cpus": 2, "python": "3.11",
                                               "numpy": "2.0", "processor": "x86_64"},
               "cases": [{"group": "tron", "name": "case A", "params": {"l": 64000, "eps": 1e-6},
                          "ours_s": 0.012345678901234, "peers_s": {"direct": 0.00876543210987},
                          "ratios": {"direct": 0.710012345678}, "exponents": {"a": 1.123456789},
                          "note": "k = 5"}]}
    path = tmp_path / "benchmarks.html"
    render_benchmarks(results, path)
    page = path.read_text()
    text = re.sub(r"<[^>]+>", " ", page.split("</style>")[-1])
    assert "{" not in text and not re.search(r"\d\.\d{7,}", text)
    assert "×0.71" in page and re.search(r'class="why">ratio ×0\.71, below 1', page)
    origin = re.search(r'<p class="meta origin">([^<]*)</p>', page).group(1)
    assert re.search(r"commit \S+", origin)
    assert "Linux-x" in page and "12.3 ms" in page


def test_benchmarks_page_colours_only_a_slower_ratio(tmp_path):
    # a ratio above 1 and an empty ratio cell (a case without a peer) are uncoloured; only a
    # ratio below 1 is marked; the load average is grey context, never the warning colour
    from repro.report.benchmarks import render_benchmarks
    from repro.report.render import css
    load = {"load_average_before": [3.5, 3.0, 2.0], "load_average_after": [3.9, 3.1, 2.1]}
    results = {"machine": {"cpus": 2}, "cases": [
        {"group": "g", "name": "fast", "ours_s": 0.01, "peers_s": {"NumPy": 0.1},
         "ratios": {"NumPy": 10.0}, **load},
        {"group": "g", "name": "slow", "ours_s": 0.01, "peers_s": {"NumPy": 0.005},
         "ratios": {"NumPy": 0.5}, **load},
        {"group": "g", "name": "alone", "ours_s": 0.01, **load}]}
    path = tmp_path / "benchmarks.html"
    render_benchmarks(results, path)
    body = path.read_text().split("</style>")[-1]
    cells = re.findall(r'<td( class="[^"]*")?>(×[\d.]+)', body)
    assert sorted(cells) == [("", "×10.00"), (' class="slower"', "×0.50")]
    assert "agrees" not in body and re.search(r"<td></td>|<td><span", body)
    assert "<td class=\"slower\"></td>" not in body and not re.search(r'<td class="[^"]+"></td>', body)
    loads = re.findall(r'<span class="(\w+)">load 3\.5', body)
    assert loads and set(loads) == {"ctx"}
    assert "table.bench .ctx" in css() and "td.slower" in css()


@pytest.mark.skipif(not (REPORTS / "benchmarks.json").is_file(), reason="no committed benchmarks")
def test_committed_benchmarks_page_names_its_origin():
    page = (REPORTS / "benchmarks.html").read_text()
    text = re.sub(r"<[^>]+>", " ", page.split("</style>")[-1])
    assert "{" not in text and not re.search(r"\d\.\d{7,}", text)
    origin = re.search(r'<p class="meta origin">([^<]*)</p>', page).group(1)
    assert re.search(r"commit [0-9a-f]{12}(?!\+)", origin), origin
    ratios = re.findall(r"×(\d+\.\d+)", text)
    assert ratios
    for r in ratios:                   # every ratio below 1 carries its own explanation
        assert float(r) >= 1 or re.search(rf'class="why">ratio ×{re.escape(r)}, below 1: \S', page), r


# --- the commands a page shows ------------------------------------------------------------------

def test_page_commands_name_out_options_and_per_query_only_where_there_are_tables(tmp_path):
    """The recompute command writes into a directory of the reader's own (--out), repeats the
    options the page was made with (--on, --ranker), and a per-query command is offered only
    for an artifact with per-query values on the paper's data."""
    from repro.evidence import SIDECAR_SUFFIX
    from repro.report.build import command_options
    from repro.report.commands import commands, page_options
    from repro.report.pages import artifact_commands
    from repro.spec import Artifact, ReferenceRanker, RunLayout
    rr = ReferenceRanker("tiny (user method, not in the paper)", params={
        "label": "tiny", "class": "mymod:TinyRidge", "params": {"alpha": 1.0},
        "param_grid": {"alpha": [0.1, 1.0]}})
    art = Artifact(
        "pahikkala2010", "table7", "t",
        layout=RunLayout(datasets=("mine",), like={"mine": "MQ2008"}, rankers=(rr,)))
    opts = command_options(art, [{"dataset": "mine", "mark": "user data: mine (unverified)"}])
    assert opts == ["--on mine --dataset mine=PATH",
                    "--ranker 'tiny=mymod:TinyRidge:{\"alpha\":1.0,\"param_grid\":"
                    "{\"alpha\":[0.1,1.0]}}'"]
    meta = {"options": opts}
    (tmp_path / f"table7{SIDECAR_SUFFIX}").write_bytes(b"")
    cmds = artifact_commands(art, tmp_path, meta)
    assert cmds["recompute"] == ("python -m repro pahikkala2010.table7 --on mine --dataset "
                                 "mine=PATH --ranker 'tiny=mymod:TinyRidge:{\"alpha\":1.0,"
                                 "\"param_grid\":{\"alpha\":[0.1,1.0]}}' --data-dir DATA "
                                 "--out my-reports/")
    assert cmds["runs"] == ""                 # on the user's data: no per-query command
    plain = Artifact(
        "leelin2014", "sectionII", "t")
    assert artifact_commands(plain, tmp_path, {})["runs"] == ""      # no sidecar: none
    assert commands("p", "a")["runs"] == "python -m repro runs p.a --out runs/ --data-dir DATA"
    assert page_options({"datasets": [{"dataset": "mine", "like": "MQ2008"}]}) == ["--on mine"]
    assert command_options(Artifact(
        "p", "a", "t"), [{"dataset": "MQ2008"}]) == []


def test_benchmarks_page_names_the_commit_its_measurements_timed():
    from repro.report.benchmarks import measured_at
    assert measured_at([{"commit": "abc1234"}] * 3) == "commit abc1234"
    assert measured_at([{"commit": "abc1234"}, {"commit": "def5678"}, {"commit": "def5678"}]) \
        == "commits abc1234 (1 case), def5678 (2 cases)"
    assert measured_at([{"commit": "abc1234"}, {}]) == \
        "abc1234 (1 case), an earlier commit, not recorded (1 case)"
    assert measured_at([{}, {}]) == "an earlier commit, not recorded (2 cases)"
