"""What changed since the last rendering (repro.report.changes): values compared at 10
significant digits and verdicts as text, keyed by paper/artifact/dataset/method/metric/fold;
``changes.json`` rewritten only when something moved (a rerun with nothing changed leaves it —
and the page — byte-identical); the commit compared with is the one the previous rendering
names (its meta file, else its page)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from repro.spec import Artifact, RunLayout
from repro.run.provenance import source_state
from repro.report import changes
from repro.report.build import record_changes
from report_pages import (CLAIMS_PAPER, claims_paper, render_claims_paper, table1_records,
                          table1_tables)


def _rec(value, verdict="reproduced", **kw):
    return {"paper": "p", "artifact": "t", "dataset": "D", "method": "m", "metric": "MAP",
            "fold": "1", "value": value, "verdict": verdict, "published": "0.30", **kw}


def test_values_are_compared_at_ten_significant_digits():
    assert changes.differences([_rec(0.1 + 0.2)], [_rec(0.3)]) == []          # 4e-17 apart
    assert changes.differences([_rec(0.3)], [_rec(0.3 + 1e-12)]) == []
    moved = changes.differences([_rec(0.3)], [_rec(0.3000001)])
    assert len(moved) == 1 and moved[0]["old_value"] == 0.3 and moved[0]["new_value"] == 0.3000001
    assert changes.differences([_rec(float("nan"))], [_rec(float("nan"))]) == []
    assert changes.differences([_rec(3)], [_rec(3.0)]) == []


def test_a_verdict_change_alone_is_a_change_and_records_are_keyed():
    old = [_rec(0.3), _rec(0.5, fold="2")]
    new = [_rec(0.5, fold="2", verdict="deviates"), _rec(0.3)]            # order does not matter
    moved = changes.differences(old, new)
    assert [(m["fold"], m["old_verdict"], m["new_verdict"]) for m in moved] == \
        [("2", "reproduced", "deviates")]


def test_added_and_removed_records_are_changes():
    moved = changes.differences([_rec(0.3), _rec(0.4, fold="2")], [_rec(0.3), _rec(0.6, fold="3")])
    sides = {m["fold"]: (m["old_value"], m["new_value"]) for m in moved}
    assert sides == {"3": (None, 0.6), "2": (0.4, None)}


def _previous(out: Path, flat: list[dict], meta: dict | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "t.json").write_text(json.dumps(flat))
    if meta is not None:
        (out / "t.meta.json").write_text(json.dumps(meta))


def test_record_names_the_commit_of_the_previous_rendering(tmp_path):
    _previous(tmp_path, [_rec(0.3)], {"provenance": {"short": "0123456789ab"}})
    assert changes.record(tmp_path, "t", [_rec(0.4, verdict="deviates")], "p", now="ba9876543210")
    entry = json.loads((tmp_path / changes.FILE).read_text())["artifacts"]["t"]
    assert entry["since"] == "0123456789ab" and entry["rendered_at"] == "ba9876543210"
    (c,) = entry["changes"]
    assert (c["old_value"], c["new_value"], c["old_verdict"], c["new_verdict"]) == \
        (0.3, 0.4, "reproduced", "deviates")


def test_an_older_rendering_without_provenance_is_named_by_its_page(tmp_path):
    _previous(tmp_path, [_rec(0.3)], {"title": "t"})
    (tmp_path / "index.html").write_text('<p class="meta origin">repro-rank 0.1.0, commit '
                                         'f5f97f70695f of 2026-11-25; rendered on …</p>')
    changes.record(tmp_path, "t", [_rec(0.4)], "p")
    assert changes.load(tmp_path)["artifacts"]["t"]["since"] == "f5f97f70695f"


def test_nothing_moved_leaves_the_entries_and_the_bytes_untouched(tmp_path):
    _previous(tmp_path, [_rec(0.3)], {"provenance": {"short": "aaaaaaaaaaaa"}})
    changes.record(tmp_path, "t", [_rec(0.4)], "p")
    path = tmp_path / changes.FILE
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    # the new rendering is now on disk; a rerun compares it with itself
    _previous(tmp_path, [_rec(0.4)], {"provenance": {"short": "bbbbbbbbbbbb"}})
    assert changes.record(tmp_path, "t", [_rec(0.4 + 1e-15)], "p") is False
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    assert changes.load(tmp_path)["artifacts"]["t"]["since"] == "aaaaaaaaaaaa"   # kept


def test_a_comparison_without_change_writes_nothing(tmp_path):
    _previous(tmp_path, [_rec(0.3)], {"provenance": {"short": "cccccccccccc"}})
    assert changes.record(tmp_path, "t", [_rec(0.3)], "p") is False
    assert not (tmp_path / changes.FILE).exists()
    assert changes.record(tmp_path, "t", [_rec(0.4)], "p") is True
    assert changes.load(tmp_path)["artifacts"]["t"]["since"] == "cccccccccccc"


def test_no_previous_rendering_and_timing_artifacts_record_nothing(tmp_path):
    assert changes.record(tmp_path, "t", [_rec(0.3)], "p") is False
    assert not (tmp_path / changes.FILE).exists()
    _previous(tmp_path, [_rec(0.3)], {})
    timing = Artifact(
        "p", "t", "times",
        layout=RunLayout(timing=True))
    assert record_changes(tmp_path, timing, [_rec(9.9)]) is False
    assert not (tmp_path / changes.FILE).exists()


def test_write_artifact_records_the_change_and_a_rerun_is_byte_identical(tmp_path):
    out = render_claims_paper(tmp_path, pdf=False)
    paper_dir = out / CLAIMS_PAPER
    meta = json.loads((paper_dir / "table1.meta.json").read_text())
    assert meta["provenance"]["commit"] == source_state()["commit"]
    data = changes.load(paper_dir)
    (moved,) = data["artifacts"]["table1"]["changes"]      # the 1e-13 shift is not a change
    assert (moved["method"], moved["dataset"]) == ("beta", "MQ2007")
    assert "claims" not in data["artifacts"]                   # nothing moved there
    snapshot = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in paper_dir.iterdir()
                if p.name in (changes.FILE, "index.html")}
    # the same command again: the later rendering compared with itself
    from repro.judge.published import load
    from repro.report.build import write_artifact
    from repro.report.pages import render_paper
    mod = claims_paper(tmp_path)
    published = load(CLAIMS_PAPER, mod.PUBLISHED_PATH)
    write_artifact(mod.ARTIFACTS[0], table1_records(True), table1_tables(), [], [], published,
                   paper_dir, False)
    render_paper(mod, out, mod.NOTES, pdf=False, log=lambda *a, **k: None)
    again = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in paper_dir.iterdir()
             if p.name in (changes.FILE, "index.html")}
    assert again == snapshot


def test_page_entries_format_old_and_new(tmp_path):
    _previous(tmp_path, [_rec(0.3)], {"provenance": {"short": "dddddddddddd"}})
    changes.record(tmp_path, "t", [_rec(0.41, verdict="deviates")], "p")
    from repro.report.format import fmt_value, where
    got = changes.page_entries(tmp_path, ["t"], fmt_value, where)
    (a,) = got["artifacts"]
    assert got["n"] == 1 and a["since"] == "dddddddddddd"
    assert a["rows"][0]["value"] == "0.300 → 0.410"
    assert a["rows"][0]["verdict"] == "reproduced → deviates"
    assert os.path.basename(str(tmp_path / changes.FILE)) == "changes.json"


def test_the_list_is_against_the_previous_rendering_of_another_commit(tmp_path):
    """A rendering at a new commit that moves nothing replaces the old list by "no change
    since <the previous rendering's commit>"; a rerun at that commit writes no byte."""
    _previous(tmp_path, [_rec(0.3)], {"provenance": {"short": "aaaaaaaaaaaa"}})
    changes.record(tmp_path, "t", [_rec(0.4)], "p", now="bbbbbbbbbbbb")
    assert changes.load(tmp_path)["artifacts"]["t"]["n_changes"] == 1
    _previous(tmp_path, [_rec(0.4)], {"provenance": {"short": "bbbbbbbbbbbb"}})
    assert changes.record(tmp_path, "t", [_rec(0.4)], "p", now="cccccccccccc") is True
    entry = changes.load(tmp_path)["artifacts"]["t"]
    assert entry == {"since": "bbbbbbbbbbbb", "n_changes": 0, "changes": []}
    got = changes.page_entries(tmp_path, ["t"], str, str)
    assert got["n"] == 0 and got["since"] == ["bbbbbbbbbbbb"] and got["recorded"]
    path = tmp_path / changes.FILE
    before = path.read_bytes()
    _previous(tmp_path, [_rec(0.4)], {"provenance": {"short": "cccccccccccc"}})
    assert changes.record(tmp_path, "t", [_rec(0.4)], "p", now="cccccccccccc") is False
    assert path.read_bytes() == before
