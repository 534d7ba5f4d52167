"""What the pages say about claims, intervals and commands, and the page defects fixed with
them: the scoreboard of claims (index: key claims; paper page: all), counts in words without
capitals, each value's 95% interval and the commands that recompute it, the change list,
balanced column blocks with notes once per artifact, the reason an artifact cannot run, and a
benchmarks page whose units read as units."""
from __future__ import annotations

import html
import json
import re

import pytest

from repro.report import changes
from repro.report.tables import (LANDSCAPE_EM, Table, artifact_tables, column_blocks, fit)
from report_pages import CLAIMS_PAPER, REPORTS, claim_records, render_claims_paper


def _text(page: str) -> str:
    body = page.split("</style>")[-1]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    return render_claims_paper(tmp_path_factory.mktemp("claims"), pdf=False)


def _rows(html: str, table_class: str) -> list[str]:
    """The body rows of the first table of ``table_class`` (a claims table: its claims'
    rows, without the groups' header and test rows)."""
    start = html.index(f'<table class="{table_class}">')
    table = html[start:html.index("</table>", start)]
    body = table.split("</thead>")[1] if "</thead>" in table else table.split("<tbody>")[1]
    rows = re.findall(r"<tr[^>]*>.*?</tr>", body, re.S)
    return [r for r in rows if not re.match(r'<tr class="(gh|gt)"', r)]


def _groups(html: str) -> list[str]:
    """The claim groups (tbody elements) of the page's claims tables."""
    return re.findall(r'<tbody class="claim-group[^"]*" id="[^"]+">.*?</tbody>', html, re.S)


def _all_rows(html: str, table_class: str) -> list[str]:
    """The body rows of every table of ``table_class``, in the page's order."""
    rows, at = [], 0
    while f'<table class="{table_class}">' in html[at:]:
        at = html.index(f'<table class="{table_class}">', at)
        rows += _rows(html[at:], table_class)
        at += 1
    return rows


def test_paper_scoreboard_lists_every_claim_with_its_test(rendered):
    """Key claims first, in view; the others in a collapsed block; each row's test and every
    compared method's mean on hover."""
    page = (rendered / CLAIMS_PAPER / "index.html").read_text()
    rows = _all_rows(page, "claims")
    assert len(rows) == len(claim_records())
    outcomes = [re.search(r'class="l oc ([^" ]+)', r).group(1) for r in rows]
    assert outcomes == ["claim-replicated", "claim-reversed", "claim-replicated",
                        "claim-inconclusive", "claim-not-testable"]
    assert page.index('<details class="moreclaims">') < page.index('class="l oc claim-inconclusive')
    holds = _text(rows[0])
    # the paper's effect, ours with its interval, the ratio, p and the adjusted p
    assert "+0.011 +0.021 [+0.007, +0.035] 1.940 0.0031 0.0093 replicated" in holds
    assert "1,692 queries" in holds
    hover = html.unescape(re.search(r'<tr title="([^"]*)"', rows[0]).group(1))
    assert "effect ratio 1.940 [0.6500, 3.200]" in hover and "paper's effect 0.01100" in hover
    assert "data missing: Yahoo-set2" in _text(rows[4])
    assert "—" in _text(rows[4])                     # not testable: no effect shown
    web = _text(rows[2])                             # a claim tested on stand-in data
    assert "MQ2008 (stand-in for web)" in web and "(stand-in data)" in web
    assert "on-stand-in" in rows[2] and "alpha − beta" in web
    # one group per claim, its statement once, the key claim marked at its group
    groups = _groups(page)
    assert len(groups) == 4
    assert _text(page).count("alpha beats beta in NDCG@10") == 1
    assert 'class="claim-group key"' in groups[0] and "key claim" in groups[0]
    assert 'class="claim-group key"' in groups[1]          # key claims first
    assert 'class="claim-group key"' not in groups[2]


def test_index_shows_key_claims_and_its_paper_in_one_line(rendered):
    index = (rendered / "index.html").read_text()
    rows = _rows(index, "keyclaims")
    assert len(rows) == sum(1 for r in claim_records() if r.get("family") == "key")
    assert [re.search(r'class="gl" href="glossary.html#([^"]+)"', r).group(1)
            for r in rows] == ["replicated", "reversed", "replicated"]
    text = re.sub(r" ([,.;])", r"\1", _text(index))
    assert (f"{CLAIMS_PAPER} — 2 of 4 published values reproduced within the paper's "
            "resolution, 1 inconclusive, 1 deviates") in text
    assert text.index("Key claims") < text.index("Every comparison on one scale")


@pytest.mark.parametrize("page", ["index.html", f"{CLAIMS_PAPER}/index.html"])
def test_pages_print_no_capitalised_verdicts(rendered, page):
    text = _text((rendered / page).read_text())
    assert not re.search(r"\b(DEVIATES|INCONSISTENT|DEVIATE|REPRODUCED|INCONCLUSIVE|"
                         r"REPLICATED|REVERSED)\b", text)


def test_each_value_cell_carries_its_interval_and_commands(rendered):
    page = (rendered / CLAIMS_PAPER / "index.html").read_text()
    cell = html.unescape(re.search(r'<td class="c inconclusive" title="([^"]*)"', page).group(1))
    assert cell.startswith("inconclusive\n")
    assert ("d = Δ -0.00288, 90% interval [Δ -0.00928, Δ +0.00352] against ±δ = 0.005000 "
            "(one standard error of the value over the paper's test queries); equivalence bound "
            "0.009276 (1.9 δ); a perfect reproduction's bound here is 0.006396 (1.3 δ): no "
            "result could have been shown reproduced; noise: our mean over 5 seeds") in cell
    assert "recompute: python -m repro claimpaper.table1 --data-dir DATA --out my-reports/" \
        in cell
    assert "per-query values: python -m repro runs claimpaper.table1 --out runs/ " \
           "--data-dir DATA" in cell
    caption = re.search(r"<caption>Table 1 \(NDCG@10\)(.*?)</caption>", page, re.S).group(1)
    assert "<code>python -m repro claimpaper.table1 --data-dir DATA --out my-reports/</code>" \
        in caption
    assert "<code>python -m repro runs claimpaper.table1 --out runs/ --data-dir DATA</code>" \
        in caption
    assert "<th>interval of Δ (90%; two-stage: 94.55%)</th>" in page
    assert page.count("-0.00928") >= 2            # the cell's tooltip and the records list


def test_change_list_shows_old_and_new(rendered):
    page = (rendered / CLAIMS_PAPER / "index.html").read_text()
    rows = _rows(page, "changes")
    assert len(rows) == 1
    text = _text(rows[0])
    assert "0.43020 → 0.41910" in text and "reproduced → deviates" in text
    assert "beta" in text and "MQ2007" in text


def test_change_list_when_nothing_moved_and_when_long(tmp_path):
    out = render_claims_paper(tmp_path / "one", pdf=False, second=False)
    page = (out / CLAIMS_PAPER / "index.html").read_text()
    assert "No value or verdict change recorded" in page
    from repro.report.pages import render_paper
    from report_pages import claims_paper, table1_records
    from repro.judge.published import load
    from repro.report.build import write_artifact
    mod = claims_paper(tmp_path / "one")
    published = load(CLAIMS_PAPER, mod.PUBLISHED_PATH)
    for art, flat in ((mod.ARTIFACTS[0], table1_records()), (mod.ARTIFACTS[1], claim_records())):
        write_artifact(art, flat, [], [], [], published, out / CLAIMS_PAPER, False)
    render_paper(mod, out, [], pdf=False, log=lambda *a, **k: None)
    text = _text((out / CLAIMS_PAPER / "index.html").read_text())
    assert "No value or verdict change recorded" in text        # the same values again
    # a long list: the first rows shown, the rest collapsed
    data = changes.load(out / CLAIMS_PAPER)
    many = [{**r, "fold": str(i), "old_value": 0.1, "new_value": 0.2, "old_verdict": "reproduced",
             "new_verdict": "deviates", "published": "0.1"}
            for i, r in enumerate(table1_records() * 5)]
    data.setdefault("artifacts", {})["table1"] = {"since": "eeeeeeeeeeee", "n_changes": len(many),
                                   "changes": many}
    (out / CLAIMS_PAPER / changes.FILE).write_text(json.dumps(data))
    render_paper(mod, out, [], pdf=False, log=lambda *a, **k: None)
    page = (out / CLAIMS_PAPER / "index.html").read_text()
    from repro.report.pages import COLLAPSE_AFTER
    assert f"<summary>{len(many) - COLLAPSE_AFTER} more changes</summary>" in page
    assert len(re.findall(r"0\.10 → 0\.20", page)) == len(many)


# --- column blocks and notes --------------------------------------------------------------------

def test_column_blocks_are_balanced_never_one_column():
    label = 5.5
    widths = [(LANDSCAPE_EM - label) / 9 - 0.01] * 10   # nine fit a landscape page, ten not
    assert label + sum(widths[:9]) <= LANDSCAPE_EM < label + sum(widths)
    blocks = column_blocks(label, widths)
    assert blocks == [(0, 5), (5, 10)]
    narrow = [12.0] * 7 + [4.0]                    # a narrow extra column stays with others
    assert all(b - a > 1 for a, b in column_blocks(label, narrow))
    for a, b in column_blocks(label, [30.0] * 7):
        assert label + 30.0 * (b - a) <= LANDSCAPE_EM


def _three_tables(tmp_path):
    """Three published tables of ten long-named methods (as stevens2010 Figure 4), one row
    not run: lettered notes shared by all three tables."""
    from repro.judge.published import load
    from repro.judge.verdicts import Verdict
    REPRODUCED = Verdict.REPRODUCED.value
    methods = [f"method-num-{i:02d}x" for i in range(10)]
    lines = ["[tolerance]", "default = 0.0", ""]
    for m in ("m1", "m2", "m3"):
        lines += ["[[table]]", 'artifact = "fig"', f'source = "Figure 4, {m} block"',
                  f'metric = "{m}"', 'fold = "avg"', 'rows = "dataset"', 'cols = "method"',
                  "columns = [" + ", ".join(f'"{x}"' for x in methods) + "]",
                  "data = [" + ", ".join(f'["{d}", ' + ", ".join('"0.4410"' for _ in methods)
                                         + "]" for d in ("A", "B")) + "]", ""]
    toml = tmp_path / "p.toml"
    toml.write_text("\n".join(lines))
    pub = load("p", toml)
    flat = []
    for m in ("m1", "m2", "m3"):
        for x in methods:
            flat.append({"artifact": "fig", "dataset": "A", "method": x, "metric": m,
                         "fold": "avg", "value": None, "published": "0.4410", "diff": None,
                         "verdict": Verdict.NOT_RUN.value, "reason": "data missing: A"})
            flat.append({"artifact": "fig", "dataset": "B", "method": x, "metric": m,
                         "fold": "avg", "value": 0.44104, "published": "0.4410",
                         "diff": 0.00004, "verdict": REPRODUCED, "note": f"note of {x}"})
    return pub.layouts_for("fig"), flat


def test_split_tables_print_each_note_once_per_artifact(tmp_path):
    from repro.evidence.record import natural_key
    layouts, flat = _three_tables(tmp_path)
    tables, _ = artifact_tables("fig", flat, layouts, natural_key)
    assert len(tables) == 6                         # three tables, two blocks each
    assert all(len(t.columns) == 5 for t in tables)
    printed = [text for t in tables for _, text in t.notes]
    assert printed and len(printed) == len(set(printed))
    assert "not run: data missing: A" in printed
    assert [bool(t.notes or t.earlier) for t in tables] == [False, True] * 3
    assert all(t.earlier for t in tables[3::2])     # later tables refer to the notes above
    letters = {m for t in tables for r in t.rows for c in [r, *r["cells"]] for m in
               c["marks"].split(",") if m}
    assert letters and all(len(m) <= 2 for m in letters)
    # the reason common to a row is lettered at its label, not at each of its cells
    row_a = [r for t in tables for r in t.rows if r["label"] == "A"]
    assert row_a and all(r["marks"] and not any(c["marks"] for c in r["cells"]) for r in row_a)
    # a value's own note (its computed context) is in its tooltip, not a footnote
    assert "note of method-num-00x" not in printed
    assert any("note of method-num-00x" in c["title"] for t in tables for r in t.rows
               for c in r["cells"])


def test_a_table_that_fits_keeps_its_notes():
    t = Table("T", "x", ["a"], [{"label": "r", "ours_only": False,
                                "cells": [{"css": "reproduced", "chars": 4, "lines": [],
                                           "marks": "", "title": ""}]}], [("a", "n")])
    assert fit(t) == [t] and t.notes == [("a", "n")]


# --- an artifact that cannot run says why -------------------------------------------------------

def test_never_public_data_is_said_not_not_implemented(tmp_path):
    import types
    from repro import papers
    from repro.pipeline import build_artifact
    from repro.judge.published import load
    from repro.report.pages import render_paper
    mod = papers.module("stevens2010")
    art = [a for a in mod.ARTIFACTS if a.name == "figure10"][0]
    build_artifact(art, [], load("stevens2010"), tmp_path / "stevens2010", False)
    meta = json.loads((tmp_path / "stevens2010" / "figure10.meta.json").read_text())
    assert "never public" in meta["not_run"] and "corel5k" in meta["not_run"]
    page = render_paper(types.SimpleNamespace(PAPER=mod.PAPER, ARTIFACTS=[art]), tmp_path, [],
                        pdf=False, log=lambda *a, **k: None).read_text()
    box = re.search(r'<p class="notimpl">(.*?)</p>', page, re.S).group(1)
    assert box.startswith("Not run: data never public") and "Not implemented" not in page


# --- the benchmarks page ------------------------------------------------------------------------

GARBLED = (r"\bMB s\b", r"\beps\b", r"\bus\b", r"\(ε\)", r"\d s; \w+: \d", r"\bGiB\b.*\bGiB\b")


def _case(**kw):
    return {"group": "scale", "name": "case", "ours_s": 0.2222, "params": {"MB": 200.0,
            "eps": 0.001}, "peers_s": {"peer": 13.67}, "ratios": {"peer": 61.97},
            "ratio_min": {"peer": 46.87}, "ratio_max": {"peer": 62.41}, "repeats": 3,
            "load_average_before": [1.51, 1.08, 1.55], "load_average_after": [1.24, 1.07, 1.52],
            **kw}


def test_benchmark_units_read_as_units(tmp_path):
    from repro.report.benchmarks import render_benchmarks
    results = {"version": "0.1.0",
               "machine": {"cpu_model": "AMD EPYC 7B13", "platform": "Linux x86_64", "cpus": 2},
               "cases": [_case(throughput_MB_s={"ours": 899.8, "peer": 14.6},
                               throughput_MB_s_best={"ours": 914.3, "peer": 14.7},
                               per_matrix_us={"ours": 135.57}, cpu_s=8.53,
                               interpreter_rss_GiB=0.119, ours_default_eps_1e3_s=0.0381,
                               throughput_MB_per_cpu_s=381.0,
                               machine={"cpus": 2, "platform": "Linux x86_64"})]}
    path = tmp_path / "benchmarks.html"
    render_benchmarks(results, path)
    text = _text(path.read_text())
    for wrong in (r"\bMB s\b", r"\beps\b", r"\bus\b", r"\(ε\)", r"914\.3 s", r"machine: cpus"):
        assert not re.search(wrong, text), wrong
    for right in ("throughput best: ours: 914.3 MB/s", "throughput: ours: 899.8 MB/s",
                  "per matrix: ours: 135.6 µs", "CPU time: 8.53 s", "interpreter RSS: 0.119 GiB",
                  "ours default (ε = 1e-3): 38.1 ms", "381 MB per CPU-second", "ε = 0.001",
                  "size = 200 MB", "CPU AMD EPYC 7B13", "2 CPUs", "46.87–62.41 over 3 rounds",
                  "load 1.51 / 1.08 / 1.55 before, 1.24 / 1.07 / 1.52 after"):
        assert right in text, right


@pytest.mark.skipif(not (REPORTS / "benchmarks.json").is_file(), reason="no committed benchmarks")
def test_committed_benchmarks_read_as_units():
    """Every measurement of the committed benchmarks.json, as the page words it: no unit
    left in a name, the CPU model named, every ratio with its spread where the file has one."""
    from repro.report.benchmarks import benchmarks_context
    results = json.loads((REPORTS / "benchmarks.json").read_text())
    ctx = benchmarks_context(results)
    assert ctx["cpu_model"] and ctx["cpu_model"] != "not recorded"
    for case, raw in zip(ctx["cases"], results["cases"]):
        labels = [p.split(" = ")[0] for p in case["params"]] + [k for k, _ in case["other"]]
        for label in labels:           # units go with the values, not in the names
            for wrong in (r"\bMB s\b", r"\beps\b", r"\bus\b", r"\(ε\)", r"\bGiB\b",
                          r"\b1e\d"):
                assert not re.search(wrong, label.replace("(ε = 1e-", "")), (case["name"], label)
        values = " ".join([*case["params"], *(v for _, v in case["other"])])
        assert not re.search(r"\[\d|\d s: |machine: cpus", values), (case["name"], values)
        for p in case["peers"]:
            if (raw.get("ratio_min") or {}).get(p["name"]) is not None:
                assert re.fullmatch(r"\d+\.\d\d–\d+\.\d\d over \d+ rounds", p["spread"])
        if raw.get("load_average_before"):
            assert case["load"].startswith("load ")


def test_benchmark_peers_are_shown_apart_by_kind(tmp_path):
    """Other libraries in one table, our own plain variants of the same algorithm in another
    (the large ratios), with the machine's CPU model, CPUs and load against them."""
    from repro.report.benchmarks import benchmarks_context, peer_kinds, render_benchmarks
    case = _case(peers_s={"scikit-learn LinearSVC": 2.0, "the same, fit only": 1.5,
                          "pure-Python transcription": 30.0},
                 ratios={"scikit-learn LinearSVC": 9.0, "the same, fit only": 6.8,
                         "pure-Python transcription": 135.0})
    assert peer_kinds(case) == {"scikit-learn LinearSVC": "library",
                                "the same, fit only": "library",
                                "pure-Python transcription": "own"}
    assert peer_kinds({**case, "peer_kinds": {"pure-Python transcription": "library"}})[
        "pure-Python transcription"] == "library"
    results = {"machine": {"cpu_model": "AMD EPYC 7B13", "cpus": 2,
                           "load_average_before": [1.6, 1.5, 1.4]}, "cases": [case]}
    ctx = benchmarks_context(results)
    assert [t["kind"] for t in ctx["tables"]] == ["library", "own"]
    assert [p["name"] for p in ctx["tables"][1]["cases"][0]["peers"]] == \
        ["pure-Python transcription"]
    assert "on 2 CPUs: busy with other work" in ctx["machine_load"]
    path = tmp_path / "benchmarks.html"
    render_benchmarks(results, path)
    text = _text(path.read_text())
    assert text.index("Against other libraries") < text.index("×9.00") < \
        text.index("Against our own straightforward variants") < text.index("×135.00")
