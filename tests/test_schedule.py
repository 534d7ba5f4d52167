"""The makespan of runs on wider machines (repro.run.schedule): list scheduling, longest first
among the ready runs, on small DAGs computed by hand, and its two bounds."""
import numpy as np
import pytest

from repro.run.schedule import (Job, greedy_bound, list_schedule, longest_chain, lower_bound,
                                makespans, run_jobs, summary_lines, RecordedRun)


def test_independent_jobs_longest_first_by_hand():
    """5, 4 start at 0; a 3 at 4 (ends 7) and at 5 (ends 8); the last 3 at 7: ends 10 — one
    more than the optimum 9 (5+4 | 3+3+3), which is the lower bound W/m."""
    jobs = [Job(n, s) for n, s in zip("abcde", (3, 5, 3, 4, 3))]
    assert list_schedule(jobs, 2) == 10
    assert lower_bound(jobs, 2) == 9
    assert list_schedule(jobs, 1) == 18
    assert list_schedule(jobs, 5) == 5 == lower_bound(jobs, 5)
    assert list_schedule(jobs, 64) == 5


def test_dependencies_by_hand():
    """b(3) and a(2) at 0; c(4, after a) at 2 → 6; d(1, after b) at 3 → 4; e(2, after c and d)
    at 6 → 8 = the chain a → c → e."""
    jobs = [Job("a", 2), Job("b", 3), Job("c", 4, ("a",)), Job("d", 1, ("b",)),
            Job("e", 2, ("c", "d"))]
    assert longest_chain(jobs) == 8
    assert list_schedule(jobs, 2) == 8 == lower_bound(jobs, 2)
    assert list_schedule(jobs, 1) == 12
    # a dependency listed before the job that needs it or after: the same schedule
    assert list_schedule(jobs[::-1], 2) == 8


def test_ready_job_waits_for_a_free_core_then_longest_first():
    """One core: x(1) first (the only ready job), then of y(2) and z(5), both ready, z: the
    order changes no total on one core, but on two cores y and z start together at 1."""
    jobs = [Job("x", 1), Job("y", 2, ("x",)), Job("z", 5, ("x",))]
    assert list_schedule(jobs, 1) == 8
    assert list_schedule(jobs, 2) == 6 == longest_chain(jobs)


def test_timing_runs_run_alone_after_the_others():
    """Pooled 4, 2, 2 end at 4 on four cores; the timing runs 1 and 3 follow alone: 8."""
    jobs = run_jobs([RecordedRun("p1", 4), RecordedRun("t1", 1, True), RecordedRun("p2", 2),
                     RecordedRun("p3", 2), RecordedRun("t2", 3, True)])
    assert [j.name for j in jobs] == ["p1", "p2", "p3", "t1", "t2"]
    assert jobs[3].after == ("p1", "p2", "p3") and jobs[4].after == ("t1",)
    assert list_schedule(jobs, 4) == 8 == longest_chain(jobs)
    assert list_schedule(jobs, 2) == 8           # 4 | 2+2, then 1, 3
    assert list_schedule(jobs, 1) == 12


@pytest.mark.parametrize("seed", range(20))
def test_lower_bound_le_makespan_le_greedy_bound_on_random_dags(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    jobs = []
    for i in range(n):
        deps = tuple(f"j{k}" for k in range(i) if rng.random() < 3 / (i + 1))
        jobs.append(Job(f"j{i}", float(rng.exponential(10)), deps))
    for m in (1, 2, 3, 4, 8, 16, 64):
        t = list_schedule(jobs, m)
        assert lower_bound(jobs, m) <= t + 1e-9
        assert t <= greedy_bound(jobs, m) + 1e-9
    assert list_schedule(jobs, 1) == pytest.approx(sum(j.seconds for j in jobs))


def test_makespans_reports_each_width_and_words_it():
    jobs = [Job("a", 120), Job("b", 60), Job("c", 60), Job("d", 30, ("a",))]
    got = makespans(jobs, cores=(1, 2))
    assert got["runs"] == 4 and got["work_seconds"] == 270
    assert got["longest_chain_seconds"] == 150
    assert got["longest_run"] == {"run": "a", "seconds": 120}
    assert got["cores"]["1"] == {"makespan_seconds": 270, "lower_bound_seconds": 270}
    assert got["cores"]["2"] == {"makespan_seconds": 150, "lower_bound_seconds": 150}
    lines = summary_lines(got)
    assert "4.5 CPU-minutes" in lines[0] and "longest run 120 s: a" in lines[0]
    assert lines[1] == "    1 cores: 4:30 by list scheduling, at least 4:30"


def test_bad_input_is_refused_naming_it():
    with pytest.raises(ValueError, match="cycle"):
        list_schedule([Job("a", 1, ("b",)), Job("b", 1, ("a",))], 2)
    with pytest.raises(ValueError, match="unknown job"):
        list_schedule([Job("a", 1, ("zz",))], 2)
    with pytest.raises(ValueError, match="given twice"):
        list_schedule([Job("a", 1), Job("a", 2)], 2)
    with pytest.raises(ValueError, match="cores"):
        list_schedule([Job("a", 1)], 0)
    with pytest.raises(ValueError, match="'a': seconds"):
        lower_bound([Job("a", float("nan"))], 2)


def test_the_lowest_rank_starts_first_among_the_ready_jobs():
    """a (1 s) decides d (4 s, after a); b and c (2 s) are independent.  On two cores with
    a's rank first: a | b, d at 1 → 5, c after b → 4: 5.  Longest first alone would start b
    and c, then a at 2, d at 3 → 7."""
    runs = [RecordedRun("b", 2, rank=2), RecordedRun("c", 2, rank=2),
            RecordedRun("a", 1, rank=1), RecordedRun("d", 4, rank=0, after=("a", "untimed"))]
    jobs = run_jobs(runs)
    assert jobs[3].after == ("a",)                 # a run without a time is left out
    assert list_schedule(jobs, 2) == 5
    assert list_schedule([Job(j.name, j.seconds, j.after) for j in jobs], 2) == 7
