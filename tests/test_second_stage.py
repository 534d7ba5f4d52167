"""The two-stage replicate design in the pipeline (repro.pipeline.extend): after 3
replicates, the runs behind a value left inconclusive that 8 replicates would decide get
replicates 3-7 (only the parts computing it); the value is then judged on all 8 with the
design's interval levels; a decided value's runs get none; --quick has no second stage."""
import json

import pytest

from repro import papers
from repro.cli.main import main
from repro.judge.design import POCOCK_DEVIATE, POCOCK_REPRODUCE, SINGLE_STAGE_LEVELS, levels

pytestmark = pytest.mark.usefixtures("fake_paper")


def _records(out):
    recs = json.loads((out / "fakepaper" / "table7.json").read_text())
    return {r["method"]: r for r in recs if r.get("metric") == "MAP" and r.get("fold") == "1"}


def test_only_the_undecided_value_gets_a_second_stage(fake_paper, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["fakepaper.table7", "--data-dir", str(tmp_path), "--out", str(out),
                 "--no-pdf"]) == 0
    said = capsys.readouterr().out
    calls = [c for c in fake_paper.CALLS if c[0] == "design"]
    assert sorted(r for _, part, r in calls if part == "a") == sorted(list(range(8)) * 2)
    assert sorted(r for _, part, r in calls if part == "b") == [0, 0, 1, 1, 2, 2]
    assert "second stage: 1 value(s)" in said
    got = _records(out)
    assert got["open"]["replicates"] == 8 and got["open"]["verdict"] == "reproduced"
    assert got["open"]["interval_levels"] == [POCOCK_REPRODUCE, POCOCK_DEVIATE]
    assert got["far"]["replicates"] == 3 and got["far"]["verdict"] == "deviates"
    assert got["exact"]["replicates"] == 8 and got["exact"]["verdict"] == "reproduced"
    # the fold means: each with the replicates of its own runs (8 extended, 3 not)
    recs = json.loads((out / "fakepaper" / "table7.json").read_text())
    avg = {r["method"]: r for r in recs if r.get("fold") == "avg"}
    assert len(avg["open"]["replicate_values"]) == 8 and avg["open"]["replicates"] == 8
    assert len(avg["far"]["replicate_values"]) == 3 and avg["far"]["replicates"] == 3
    runs = json.loads((out / "fakepaper" / "table7.runs.json").read_text())["runs"]
    assert [r["run"].rsplit("/", 3)[-3:] for r in runs][-10:] == [
        [f"fold{f}", f"rep{r}", "a"] for f in (1, 2) for r in range(3, 8)]
    # the same command again: every run from the cache, the same records
    fake_paper.CALLS.clear()
    assert main(["fakepaper.table7", "--data-dir", str(tmp_path), "--out", str(out),
                 "--no-pdf"]) == 0
    assert not [c for c in fake_paper.CALLS if c[0] == "design"]
    assert _records(out) == got


def test_the_first_stage_decision_is_recorded(fake_paper, tmp_path):
    """On the first stage alone (--report-only with only its runs cached) the open value is
    inconclusive and asks for the second stage: the record says so (verdicts as data)."""
    from repro.pipeline import Options
    from repro.pipeline.extend import SecondStage
    from repro.pipeline.execute import execute
    from repro.pipeline.stage import published_values
    art = papers.resolve("fakepaper.table7")[0]
    opts = Options(tmp_path, tmp_path / "out", pdf=False, log=lambda m: None)
    results = execute(art.runs(False), opts)
    stage = SecondStage([art], opts, lambda p: published_values(p, [art], opts))
    more = stage.follow(results)
    (rec,) = stage.asked["fakepaper.table7"]
    assert rec["method"] == "open" and rec["verdict"] == "inconclusive"
    assert rec["second_stage"] is True and rec["replicates"] == 3
    assert {g[4] for g in stage.extended} == {"a"}
    assert sorted((s.part, s.fold, s.repeat) for s in more) == [
        ("a", f, r) for f in sorted({s.fold for s in more}) for r in range(3, 8)]
    assert stage.follow(results) == more and list(stage.judged) == ["fakepaper.table7"]


def test_quick_runs_have_no_second_stage(fake_paper, tmp_path):
    out = tmp_path / "out"
    assert main(["fakepaper.table7", "--quick", "--data-dir", str(tmp_path), "--out", str(out),
                 "--no-pdf"]) == 0
    calls = [c for c in fake_paper.CALLS if c[0] == "design"]
    assert sorted(r for _, _, r in calls) == [0, 0, 0, 0, 1, 1, 1, 1]
    got = _records(out)
    assert got["open"]["interval_levels"] == list(SINGLE_STAGE_LEVELS)


def test_levels_follow_the_declared_design():
    assert levels(8, 3) == levels(8, 8) == (POCOCK_REPRODUCE, POCOCK_DEVIATE)
    assert levels(0, 3) == levels(8, 2) == SINGLE_STAGE_LEVELS
    with pytest.raises(ValueError, match="extend_to"):
        levels(6, 3)
