"""The benchmark timing protocol (repro.bench.common): interleaved rounds with a rotating order,
per-round ratios and their spread, the machine's CPU model and load recorded with each case.
A fake clock makes every time known in advance."""
import pytest

from repro.bench import common


class FakeClock:
    """Time advances only when a contender runs: by the next of its scripted durations."""

    def __init__(self, script: dict[str, list[float]]):
        self.now, self.script, self.calls = 0.0, {k: list(v) for k, v in script.items()}, []

    def __call__(self):
        return self.now

    def contender(self, name):
        def run():
            self.calls.append(name)
            self.now += self.script[name].pop(0)
        return run


def test_rounds_interleave_with_a_rotating_order_after_the_warmup():
    clock = FakeClock({"ours": [9, 1, 2, 4], "peer": [9, 3, 8, 4], "other": [9, 1, 1, 1]})
    fns = {k: clock.contender(k) for k in ("ours", "peer", "other")}
    t = common.interleaved(fns, repeats=3, warmup=1, clock=clock)
    assert clock.calls == ["ours", "peer", "other",                  # warm-up (not timed)
                           "ours", "peer", "other", "peer", "other", "ours",
                           "other", "ours", "peer"]
    assert t.times == {"ours": [1, 2, 4], "peer": [3, 8, 4], "other": [1, 1, 1]}
    assert t.ratios("peer") == [3.0, 4.0, 1.0] and t.repeats == 3


def test_a_case_stores_medians_and_the_spread_of_per_round_ratios():
    clock = FakeClock({"ours": [1, 2, 4, 1, 10], "peer": [3, 8, 4, 2, 10]})
    fns = {k: clock.contender(k) for k in ("ours", "peer")}
    t = common.interleaved(fns, repeats=5, warmup=0, clock=clock)
    row = common.case("c", {"n": 1}, t, note="x")
    assert row["ours_s"] == 2 and row["peers_s"] == {"peer": 4}
    # per-round ratios 3, 4, 1, 2, 1: their median, not the ratio of the medians (2)
    assert row["ratios"] == {"peer": 2.0} and row["ratio_median"] == {"peer": 2.0}
    assert row["ratio_min"] == {"peer": 1.0} and row["ratio_max"] == {"peer": 4.0}
    assert row["time_min_s"] == {"ours": 1, "peer": 2}
    assert row["time_max_s"] == {"ours": 10, "peer": 10}
    assert row["repeats"] == 5 and row["note"] == "x" and row["protocol"] == common.PROTOCOL
    assert row["cpu_model"] == common.cpu_model() and row["cpu_model"]
    for key in ("load_average_before", "load_average_after"):
        assert row[key] is None or len(row[key]) == 3


def test_plain_times_still_make_a_case():
    row = common.case("c", {}, {"ours": 2.0, "peer": 5.0})
    assert row["ratios"] == {"peer": 2.5} and row["ours_s"] == 2.0 and "repeats" not in row


def test_cpu_model_reads_proc_cpuinfo(tmp_path, monkeypatch):
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: X\nmodel name\t: Example CPU 9000\n")
    real = common.Path
    monkeypatch.setattr(common, "Path", lambda p: info if p == "/proc/cpuinfo" else real(p))
    common.cpu_model.cache_clear()
    try:
        assert common.cpu_model() == "Example CPU 9000"
    finally:
        monkeypatch.undo()
        common.cpu_model.cache_clear()


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="no contender named 'ours'"):
        common.interleaved({"peer": lambda: None})
    with pytest.raises(ValueError, match="repeats must be ≥ 1"):
        common.interleaved({"ours": lambda: None}, repeats=0)


def test_render_only_rewrites_the_page_from_the_json_and_runs_nothing(tmp_path, monkeypatch):
    import json
    from repro.bench import command
    monkeypatch.setattr(command, "GROUPS", {})           # any group run would fail
    results = {"version": "0", "machine": {"cpu_model": "Test CPU 9000"},
               "cases": [{"group": "lqo", "name": "greedy LQO", "params": {"m": 20000},
                          "ours_s": 0.02, "peers_s": {"NumPy": 0.1}, "ratios": {"NumPy": 5.0}}]}
    (tmp_path / "benchmarks.json").write_text(json.dumps(results))
    assert command.main(["--render-only", "--out", str(tmp_path)]) == 0
    page = (tmp_path / "benchmarks.html").read_text()
    assert "Test CPU 9000" in page and "greedy LQO" in page
    assert json.loads((tmp_path / "benchmarks.json").read_text()) == results
    with pytest.raises(SystemExit):
        command.main(["--render-only", "lqo", "--out", str(tmp_path)])
