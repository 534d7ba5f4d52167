"""Runner, cache and reports, on a fake paper: seeds from identity, caching and resumption,
failures never cached, missing data reported, verdicts, report files."""
import json

import pytest

import fakepaper
from repro import papers
from repro.spec import RunSpec
from repro.pipeline import Options, run_artifacts
from repro.judge.published import load, parse_number
from repro.run.runner import Runner


pytestmark = pytest.mark.usefixtures("fake_paper")     # conftest: registered, own cache


def table1():
    return papers.resolve("fakepaper.table1")[0]


def test_seed_depends_on_identity_only():
    a = RunSpec("p", "t", "d", 1, 0, "{}")
    assert a.seed == RunSpec("p", "t", "d", 1, 0, '{"grid":[1,2]}').seed
    assert a.seed != RunSpec("p", "t", "d", 2, 0, "{}").seed
    assert a.seed != RunSpec("p", "t", "d", 1, 1, "{}").seed


def test_results_are_cached_and_identical_across_jobs(tmp_path):
    specs = table1().runs()
    r1 = Runner(tmp_path, papers.task, jobs=1).run(specs)
    assert len(fakepaper.CALLS) == 3
    r2 = Runner(tmp_path, papers.task, jobs=1).run(specs)
    assert len(fakepaper.CALLS) == 3 and all(r.cached for r in r2.values())
    assert [r.output for r in r1.values()] == [r.output for r in r2.values()]
    r3 = Runner(tmp_path, papers.task, jobs=2, force=True).run(specs)      # recomputed in worker processes
    assert [r.output for r in r3.values()] == [r.output for r in r1.values()]


def test_failed_run_is_not_cached_and_others_resume(tmp_path):
    art = table1()
    bad = [RunSpec(s.paper, s.task, s.dataset, s.fold, s.repeat,
                   '{"fail_on":2,"x":2.0}') for s in art.runs()]
    res = Runner(tmp_path, papers.task).run(bad)
    assert [r.status for r in res.values()] == ["done", "failed", "done"]
    assert "planned failure" in res[bad[1]].why
    fakepaper.CALLS.clear()
    res = Runner(tmp_path, papers.task).run(bad)          # the interrupted/failed run is retried, not the others
    assert fakepaper.CALLS == [("noise", "synthetic", 2)]


def test_half_written_entry_is_never_read(tmp_path):
    spec = table1().runs()[0]
    runner = Runner(tmp_path, papers.task)
    runner.run([spec])
    path = runner.cache.entry_path(spec, runner.cache.key(spec))
    path.write_text(path.read_text()[:20])   # simulate a torn file under the real name
    fakepaper.CALLS.clear()
    assert runner.run([spec])[spec].cached is False and len(fakepaper.CALLS) == 1
    assert not list(path.parent.glob("*.tmp"))


def test_missing_data_is_not_run(tmp_path):
    spec = papers.resolve("fakepaper.table2")[0].runs()[0]
    res = Runner(tmp_path, papers.task).run([spec])[spec]
    assert res.status == "not run" and "data missing: MQ2007" in res.why
    assert fakepaper.CALLS == []


def test_published_file_and_verdicts():
    pub = load("fakepaper", fakepaper.PUBLISHED_PATH)
    v = {x.key: x for x in pub.values}
    assert v[("table1", "synthetic", "const", "x", "1")].decimals == 2
    assert parse_number("2^{10}") == 1024 and parse_number("22.44%") == 22.44
    assert parse_number("?") is None


@pytest.mark.slow
def test_pipeline_writes_records_meta_figures_and_pages(tmp_path):
    out = tmp_path / "reports"
    flats = run_artifacts(papers.resolve("fakepaper"),
                          Options(tmp_path, out, pdf=False, log=lambda *a, **k: None))
    t1 = {(r["metric"], r["fold"]): r for r in flats["fakepaper.table1"]}
    assert t1[("x", "1")]["verdict"] == "reproduced"
    # a constant 2 against the printed 2.1: d = −0.1 exactly, beyond the margin — deviates
    # (its interval is a point: d is known exactly)
    once = "deviates"
    assert t1[("x", "2")]["verdict"] == once and t1[("x", "2")]["d_ci90"][0] == \
        t1[("x", "2")]["d_ci90"][1]
    assert abs(t1[("x", "2")]["d"]) > t1[("x", "2")]["margin"]
    assert t1[("x", "2")]["explanation"] == "the paper printed 2.1 for a constant 2"
    assert t1[("x", "3")]["verdict"] == once
    assert t1[("u", "1")]["verdict"] == "ours only"
    t2 = flats["fakepaper.table2"]
    assert t2[0]["verdict"] == "not run" and t2[0]["reason"].startswith("data missing: MQ2007")
    t3 = flats["fakepaper.table3"]
    assert t3[0]["verdict"] == "not run" and t3[0]["reason"] == "not implemented yet"
    assert t3[0]["published"] == "0.5"
    on_disk = json.loads((out / "fakepaper" / "table1.json").read_text())
    assert on_disk == json.loads(json.dumps(flats["fakepaper.table1"]))
    for rec in on_disk:
        assert {"paper", "artifact", "dataset", "method", "metric", "fold", "value",
                "published", "diff", "verdict"} <= set(rec)
    meta = json.loads((out / "fakepaper" / "table1.meta.json").read_text())
    assert meta["figures"] == ["table1.svg"] and (out / "fakepaper" / "table1.svg").is_file()
    assert [r["seed"] for r in meta["runs"]] == [s.seed for s in table1().runs()]
    page = (out / "fakepaper" / "index.html").read_text()
    assert "A choice the paper left open." in page and "not implemented yet" in page
    assert (out / "index.html").is_file()


def test_report_only_keeps_existing_outputs_and_never_computes(tmp_path):
    out = tmp_path / "reports"
    run_artifacts(papers.resolve("fakepaper.table1"),
                  Options(tmp_path, out, pdf=False, log=lambda *a, **k: None))
    fakepaper.CALLS.clear()
    flats = run_artifacts(papers.resolve("fakepaper.table1"),
                          Options(tmp_path, out, pdf=False, report_only=True,
                                  log=lambda *a, **k: None))
    assert fakepaper.CALLS == []
    assert any(r["verdict"] == "reproduced" for r in flats["fakepaper.table1"])


def test_quick_overrides_folds():
    assert [s.fold for s in table1().runs(quick=True)] == [1]
    assert all(s.quick for s in table1().runs(quick=True))


def test_powers_are_compared_exactly_and_decimals_by_rounding():
    from repro.judge.published import PublishedValue
    from repro.judge.verdicts import Verdict, judge
    pv = lambda text: PublishedValue("t", None, None, None, None, text, "src")
    said = lambda value, text: Verdict(judge({"value": value}, pv(text)).outcome)
    assert said(256.0, "2^8") is Verdict.REPRODUCED
    assert said(0.5, "2^0") is Verdict.DEVIATES        # 2^-1 must not be reproduced by 2^0
    assert judge({"value": 256.0}, pv("2^8")).margin.value == 0.0          # a power is exact
    assert said(0.47224, "0.4722") is Verdict.REPRODUCED
    assert said(0.47226, "0.4722") is Verdict.DEVIATES
    assert said(22.444, "22.44") is Verdict.REPRODUCED
    assert judge({"value": 22.444}, pv("22.44")).margin.value == pytest.approx(0.005)


def test_dataset_not_run_without_published_values_still_gets_a_row(tmp_path):
    from dataclasses import replace
    art = papers.resolve("fakepaper.table2")[0].replace(datasets=("MQ2007", "TD2003"))
    from repro.judge.published import load
    from repro.pipeline import build_artifact
    from repro.run.runner import Runner
    res = list(Runner(tmp_path, papers.task).run(art.runs()).values())
    unavailable = {"MQ2007": "data missing: MQ2007", "TD2003": "data missing: TD2003"}
    flat = build_artifact(art, res, load("fakepaper", fakepaper.PUBLISHED_PATH), tmp_path / "o",
                          False, unavailable)
    td = [r for r in flat if r["dataset"] == "TD2003"]
    assert len(td) == 1 and td[0]["verdict"] == "not run"
    assert td[0]["reason"].startswith("data missing: TD2003")


def test_quick_mode_says_why_values_are_missing(tmp_path):
    flats = run_artifacts(papers.resolve("fakepaper.table1"),
                          Options(tmp_path, tmp_path / "q", quick=True, pdf=False,
                                  log=lambda *a, **k: None))
    by_fold = {r["fold"]: r for r in flats["fakepaper.table1"] if r["metric"] == "x"}
    assert by_fold["1"]["verdict"] == "reproduced"
    assert by_fold["2"]["verdict"] == "not run"
    assert by_fold["2"]["reason"] == "outside the --quick subset (reduced folds and grid)"


def test_nan_value_is_undefined_not_not_run():
    from repro.judge.published import load
    from repro.judge.verdicts import compare
    pub = load("fakepaper", fakepaper.PUBLISHED_PATH)
    rec = {"artifact": "table1", "dataset": "synthetic", "method": "const", "metric": "x",
           "fold": "1", "value": float("nan"), "why": "no pairs"}
    out = compare("fakepaper", "table1", [rec], pub, {})
    got = [r for r in out if r["fold"] == "1"][0]
    assert got["verdict"] == "undefined" and got["reason"] == "no pairs"


def test_real_data_wins_over_its_stand_in():
    from dataclasses import replace

    from repro.spec import RunSpec
    from repro.judge.assemble import gather_records
    from repro.run.runner import RunResult
    art = papers.resolve("fakepaper.table4")[0].replace(datasets=("MQ2007", "synthetic"),
                 stand_ins={"synthetic": "MQ2007"})
    spec = lambda ds: RunSpec("fakepaper", "task_map", ds, None, 0, "{}")
    out = {"records": [{"method": "m", "metric": "MAP", "value": 0.5, "fold": None}]}
    missing = RunResult(spec("MQ2007"), "not run", why="data missing: MQ2007")
    real = RunResult(spec("MQ2007"), "done", output={"records": [{"method": "m", "metric": "MAP",
                                                                  "value": 0.7, "fold": None}]})
    stand = RunResult(spec("synthetic"), "done", output=out)
    recs, not_run = gather_records(art, [missing, stand])
    assert [(r["dataset"], r["value"], r.get("stand_in")) for r in recs] == [("MQ2007", 0.5, True)]
    assert "MQ2007" not in not_run
    recs, _ = gather_records(art, [real, stand])
    assert [(r["dataset"], r["value"], r.get("stand_in")) for r in recs] == [("MQ2007", 0.7, None)]


def test_cache_key_follows_params_code_and_data_but_not_the_quick_flag(tmp_path, monkeypatch):
    import importlib.util
    import shutil as sh

    from repro.run import cache as cache_mod
    src = tmp_path / "fakecopy.py"
    sh.copy(fakepaper.__file__, src)
    spec_ = importlib.util.spec_from_file_location("fakecopy", src)
    mod = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(mod)
    papers.register(mod)                           # same paper id "fakepaper", file we can edit
    try:
        base = papers.resolve("fakepaper.table1")[0].runs()[0]
        r = Runner(tmp_path, papers.task)
        k0 = r.cache.key(base)
        other_params = RunSpec(base.paper, base.task, base.dataset, base.fold, 0, '{"x":3.0}')
        assert r.cache.key(other_params) != k0
        quick_twin = RunSpec(base.paper, base.task, base.dataset, base.fold, 0, base.params_json, True)
        assert r.cache.key(quick_twin) == k0             # --quick alone does not change the result
        src.write_text(src.read_text() + "\n# an edit\n")
        cache_mod.cached_code_key.cache_clear()
        assert r.cache.key(base) != k0                   # editing the paper's code invalidates
    finally:
        papers.register(fakepaper)
        cache_mod.cached_code_key.cache_clear()


def test_nan_survives_the_cache_and_reaches_the_report_as_undefined(tmp_path, monkeypatch):
    def task_nan(ctx):
        return {"records": [{"method": "const", "metric": "x", "value": float("nan"),
                             "fold": None, "why": "no pairs"}]}
    monkeypatch.setattr(fakepaper, "task_nan", task_nan, raising=False)
    from dataclasses import replace
    art = table1().replace(task="task_nan", figure=None, folds=(1,))
    spec = art.runs()[0]
    Runner(tmp_path, papers.task).run([spec])
    cached = Runner(tmp_path, papers.task, cache_only=True).run([spec])[spec]     # read back from disk
    from repro.judge.published import load
    from repro.pipeline import build_artifact
    flat = build_artifact(art, [cached], load("fakepaper", fakepaper.PUBLISHED_PATH),
                          tmp_path / "o", False)
    rec = [r for r in flat if r["metric"] == "x" and r["fold"] == "1"][0]
    assert rec["verdict"] == "undefined" and rec["reason"] == "no pairs"
    assert rec["value"] is None
    json.loads((tmp_path / "o" / "table1.json").read_text())           # standard JSON


def test_timing_runs_execute_alone_after_the_others(tmp_path, monkeypatch):
    from dataclasses import replace

    from repro.run import backends
    order = []
    real = backends.compute
    monkeypatch.setattr(backends, "compute",
                        lambda spec, key, d, tasks, log=None: order.append(spec.fold)
                        or real(spec, key, d, tasks))
    timed = table1().replace(timing=True, folds=(9,))
    specs = timed.runs() + table1().runs()
    assert [s.exclusive for s in specs] == [True, False, False, False]
    assert timed.runs()[0].identity == timed.replace(timing=False).runs()[0].identity
    Runner(tmp_path, papers.task, jobs=1).run(specs)
    assert order == [1, 2, 3, 9]


def test_specs_sharing_a_cache_key_run_once(tmp_path):
    """A run that two artifacts declare, once as a timing run (exclusive), has one result:
    computed once, so each artifact's run times are those of the cache entry."""
    from dataclasses import replace
    spec = table1().runs()[0]
    timed = replace(spec, exclusive=True)
    runner = Runner(tmp_path, papers.task, progress=False, log=lambda *a, **k: None)
    assert runner.cache.key(spec) == runner.cache.key(timed)
    res = runner.run([spec, timed])
    assert len(fakepaper.CALLS) == 1
    assert res[spec].seconds == res[timed].seconds and res[spec].output == res[timed].output
    assert res[spec].spec == spec and res[timed].spec == timed
    again = runner.run([spec, timed])
    assert again[spec].seconds == res[spec].seconds and again[spec].cached


def test_pooled_runs_start_longest_first_from_recorded_times(tmp_path, monkeypatch):
    """Runs start in decreasing order of the seconds they took at the last rendering (read
    from its ``*.runs.json``), runs without a recorded time first; the results are those of
    any order."""
    from repro.run import backends
    from repro.report.build import recorded_run_seconds
    order = []
    real = backends.compute
    monkeypatch.setattr(backends, "compute",
                        lambda spec, key, d, tasks, log=None: order.append(spec.fold)
                        or real(spec, key, d, tasks))
    specs = table1().runs()                       # folds 1, 2, 3
    reports = tmp_path / "reports" / "fakepaper"
    reports.mkdir(parents=True)
    (reports / "table1.runs.json").write_text(json.dumps({"runs": [
        {"run": specs[0].label, "seconds": 2.0}, {"run": specs[2].label, "seconds": 9.0},
        {"run": specs[0].label, "seconds": 1.0}]}))
    (reports / "broken.runs.json").write_text("{not json")
    hints = recorded_run_seconds(tmp_path / "reports")
    assert hints == {specs[0].label: 2.0, specs[2].label: 9.0}
    first = Runner(tmp_path, papers.task, jobs=1, expected=hints).run(specs)
    assert order == [2, 3, 1]                     # unrecorded, then 9 s, then 2 s
    plain = Runner(tmp_path, papers.task, jobs=1, force=True).run(specs)
    assert order[3:] == [1, 2, 3]                 # without hints: declaration order
    assert [r.output for r in first.values()] == [r.output for r in plain.values()]


@pytest.mark.parametrize("jobs", [1, 2])
def test_runs_a_follow_up_adds_join_the_batch_ahead_of_the_waiting_ones(tmp_path, jobs):
    """``follow`` sees the results so far after every run and adds runs to the same batch;
    they run (once, whatever follow says again) before the waiting runs of a higher rank;
    a second call finds every run cached and asks for none."""
    from dataclasses import replace
    specs = table1().runs()                     # folds 1, 2, 3
    first, extra = specs[0], replace(specs[0], repeat=5)
    seen = []

    def follow(results):
        seen.append(set(results))
        return [extra] if first in results else []

    def rank(spec):
        return 0 if spec == extra else 1 if spec == first else 2

    res = Runner(tmp_path, papers.task, jobs=jobs).run(specs, follow=follow, rank=rank)
    assert list(res) == specs + [extra] and all(r.status == "done" for r in res.values())
    assert res[extra].output != res[first].output             # its own seed (repeat 5)
    assert seen[0] == set() and any(first in s and extra not in s for s in seen)
    if jobs == 1:                              # here, in order: first, its follow-up, the rest
        assert fakepaper.CALLS == [("noise", "synthetic", f) for f in (1, 1, 2, 3)]
    fakepaper.CALLS.clear()
    again = Runner(tmp_path, papers.task, jobs=jobs).run(specs, follow=follow, rank=rank)
    assert not fakepaper.CALLS and all(r.cached for r in again.values())
    assert [r.output for r in again.values()] == [r.output for r in res.values()]


def test_a_follow_up_sharing_a_finished_run_s_key_gets_its_result(tmp_path):
    """A follow-up spec that only ``--quick`` tells apart from a run already finished has
    that run's result (one computation per cache key), not a missing one — also under
    ``--force``, where the cache is not looked up."""
    from dataclasses import replace
    (first,) = table1().runs()[:1]
    twin = replace(first, quick=True)

    def follow(results):
        return [twin] if first in results else []

    for force, calls in ((False, 1), (True, 2)):
        res = Runner(tmp_path, papers.task, jobs=1, force=force).run([first], follow=follow)
        assert list(res) == [first, twin] and len(fakepaper.CALLS) == calls
        assert res[twin].output == res[first].output and res[twin].spec == twin
