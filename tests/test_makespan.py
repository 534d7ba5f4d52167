"""The makespan a run command prints from its report directory's recorded run times, and the
suite's ``runs.json`` it writes only when every artifact was built."""
import json

import pytest

from repro import papers
from repro.cli.main import main
from repro.cli.makespan import MAKESPAN_FILE, recorded_runs, report_makespan, whole_suite
from repro.pipeline.extend import RANK_DECIDING, RANK_OTHER, RANK_SECOND
from repro.run.schedule import RecordedRun
from repro.data import catalog as cat

pytestmark = pytest.mark.usefixtures("fake_paper")


@pytest.fixture
def table4_run(tmp_path, monkeypatch, capsys):
    """fakepaper.table4 run into a fresh --out; (out, what the command printed)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cat, "REGISTERED", {})     # no user sets registered
    monkeypatch.setattr(cat, "ALLOWED", set())    # nor allowances
    out = tmp_path / "out"
    assert main(["fakepaper.table4", "--data-dir", str(tmp_path), "--out", str(out),
                 "--no-pdf"]) == 0
    return out, capsys.readouterr().out


def test_a_target_command_prints_the_makespan_and_writes_no_suite_file(table4_run):
    out, said = table4_run
    runs = json.loads((out / "fakepaper" / "table4.runs.json").read_text())["runs"]
    assert [r["status"] for r in runs] == ["done"]
    assert "makespan from the recorded run times (1 runs" in said
    assert "   16 cores:" in said and "   64 cores:" in said
    assert not (out / MAKESPAN_FILE).exists()
    assert not whole_suite(papers.resolve("fakepaper.table4"))


def test_the_whole_suite_writes_runs_json_once(table4_run):
    out, _ = table4_run
    every = papers.resolve("all")
    assert whole_suite(every)
    seconds = json.loads((out / "fakepaper" / "table4.runs.json").read_text())["runs"][0][
        "seconds"]
    got = report_makespan(every, out, log=lambda m: None)
    assert got["runs"] == 1 and got["work_seconds"] == seconds
    assert got["cores"]["16"]["makespan_seconds"] == seconds
    body = json.loads((out / MAKESPAN_FILE).read_text())
    assert set(body["cores"]) == {"4", "8", "16", "64"}
    assert body["runs_without_time"] > 0 and body["longest_run"]["run"].startswith("fakepaper/")
    before = (out / MAKESPAN_FILE).stat().st_mtime_ns
    report_makespan(every, out, log=lambda m: None)
    assert (out / MAKESPAN_FILE).stat().st_mtime_ns == before        # same bytes: untouched


def test_times_of_a_runs_file_of_other_runs_are_not_used(table4_run):
    out, _ = table4_run
    art = papers.resolve("fakepaper.table4")
    assert len(recorded_runs(art, out)[0]) == 1
    path = out / "fakepaper" / "table4.runs.json"
    body = json.loads(path.read_text())
    body["runs"][0]["run"] = "fakepaper/another/run"
    path.write_text(json.dumps(body))
    assert recorded_runs(art, out) == ([], 1)
    assert report_makespan(art, out, log=lambda m: None) is None


def test_a_run_two_artifacts_declare_counts_once(tmp_path):
    """stevens2010's Figure 5 declares Figure 4's LETOR runs (Figure 4 has the reference runs
    besides): each is one job, timed by the first artifact's record."""
    f4, f5 = (papers.resolve(f"stevens2010.{n}")[0] for n in ("figure4", "figure5"))
    assert {s.label for s in f5.runs()} < {s.label for s in f4.runs()}
    d = tmp_path / "stevens2010"
    d.mkdir()
    for art, t in ((f4, 2.0), (f5, 3.0)):
        (d / f"{art.name}.runs.json").write_text(json.dumps({"runs": [
            {"run": s.label, "status": "done", "seconds": t} for s in art.runs()]}))
    runs, untimed = recorded_runs([f4, f5], tmp_path)
    assert untimed == 0 and len(runs) == len(f4.runs())
    assert {r.seconds for r in runs} == {2.0}                  # the first artifact's record


def test_a_second_stage_runs_after_the_first_and_is_read_from_the_runs_file(tmp_path):
    """dubey2009's Figure 3 has a second stage (repro.pipeline.extend): its runs file lists
    the first stage's runs, then the extension's; the makespan reads both, the extension's as
    second-stage jobs, which start only when every first-stage job is done."""
    from repro.pipeline.extend import every_extension
    from repro.run.schedule import list_schedule, run_jobs
    f3 = papers.resolve("dubey2009.figure3")[0]
    first = f3.runs()
    more = [s for s in every_extension(f3, False) if s.dataset == "OHSUMED"][:2]
    assert more and all(s.repeat >= f3.layout.repeats for s in more)
    d = tmp_path / "dubey2009"
    d.mkdir()
    (d / "figure3.runs.json").write_text(json.dumps({"runs": [
        {"run": s.label, "status": "done", "seconds": 1.0} for s in first + more]}))
    runs, untimed = recorded_runs([f3], tmp_path)
    assert untimed == 0 and len(runs) == len(first) + 2
    assert [r.name for r in runs if r.rank == RANK_SECOND] == [s.label for s in more]
    assert {r.rank for r in runs[:len(first)]} == {RANK_DECIDING}      # it may ask for one
    assert all(set(r.after) == {s.label for s in first} for r in runs[len(first):])
    jobs = run_jobs([RecordedRun("a", 5.0), RecordedRun("b", 1.0),
                     RecordedRun("c", 1.0, after=("a",))])
    assert list_schedule(jobs, 4) == 6.0          # c waits for a: 5 + 1, not 5
    assert list_schedule(run_jobs([RecordedRun("a", 5.0), RecordedRun("b", 1.0),
                                   RecordedRun("c", 1.0)]), 4) == 5.0


def test_a_second_stage_waits_only_for_the_first_stage_of_the_artifact_that_asked(tmp_path):
    """lesmola2007's Table 1 runs beside dubey2009's Figure 3: Figure 3's second stage waits
    for Figure 3's first stage alone, and the first stages that may ask for a second stage
    rank before the other runs."""
    from repro.pipeline.extend import every_extension
    f3, t1 = (papers.resolve(n)[0] for n in ("dubey2009.figure3", "lesmola2007.table1"))
    other = papers.resolve("stevens2010.figure4")[0]
    more = [s for s in every_extension(f3, False) if s.dataset == "OHSUMED"][:1]
    for art, extra in ((f3, more), (t1, []), (other, [])):
        d = tmp_path / art.paper
        d.mkdir(exist_ok=True)
        (d / f"{art.name}.runs.json").write_text(json.dumps({"runs": [
            {"run": s.label, "status": "done", "seconds": 1.0} for s in art.runs() + extra]}))
    runs, _ = recorded_runs([f3, t1, other], tmp_path)
    by = {r.name: r for r in runs}
    assert set(by[more[0].label].after) == {s.label for s in f3.runs()}
    assert {by[s.label].rank for s in t1.runs()} == {RANK_DECIDING}
    assert {by[s.label].rank for s in other.runs()} == {RANK_OTHER}
