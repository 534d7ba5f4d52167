"""repro.run.timing: exponent fits and the scaling sweep's bookkeeping (not speed: no test times
anything against a threshold)."""
import math

import numpy as np

from scipy import stats

from repro.run.timing import exponent_interval, fit_exponent, interleaved_sweep, scaling_sweep


def test_fit_exponent_recovers_a_power_law_and_skips_missing_points():
    x = [10, 20, 40, 80]
    assert abs(fit_exponent(x, [3 * v ** 1.5 for v in x]) - 1.5) < 1e-12
    assert abs(fit_exponent(x + [160], [v ** 2 for v in x] + [None]) - 2.0) < 1e-12
    assert math.isnan(fit_exponent([1], [1.0]))


def test_scaling_sweep_builds_once_per_point_times_each_contender_and_keeps_values():
    built, calls = [], {"a": 0, "b": 0}

    def make(p):
        built.append(p)
        return np.arange(p)

    def contender(name, scale):
        def prepare(problem):
            def call():
                calls[name] += 1
                return float(problem.sum()) * scale
            return call
        return prepare

    rows = scaling_sweep([3, 5], make, {"a": contender("a", 1.0), "b": contender("b", 2.0)},
                         repeats=2, min_total=0.0, skip=lambda name, p: name == "b" and p == 5)
    assert built == [3, 5]
    assert [r["point"] for r in rows] == [3, 5]
    assert rows[0]["values"] == {"a": 3.0, "b": 6.0}
    assert rows[1]["seconds"]["b"] is None and "b" not in rows[1]["values"]
    assert all(t > 0 for r in rows for t in r["seconds"].values() if t is not None)
    assert calls == {"a": 2 * 3, "b": 3}           # warm-up (the value) + 2 timed calls each


def test_interleaved_sweep_times_every_cell_once_per_round_in_alternating_order():
    order = []

    def contender(name):
        def prepare(problem):
            def call():
                order.append((name, problem))
                return problem * 10
            return call
        return prepare

    rows = interleaved_sweep([1, 2], lambda p: p, {"a": contender("a"), "b": contender("b")},
                             rounds=3, min_time=0.0, skip=lambda n, p: n == "b" and p == 2)
    assert [r["values"] for r in rows] == [{"a": 10, "b": 10}, {"a": 20}]
    assert rows[1]["seconds"]["b"] is None
    assert all(len(s) == 3 and min(s) > 0 for r in rows for s in r["seconds"].values()
               if s is not None)
    cells = [("a", 1), ("b", 1), ("a", 2)]
    # warm-up calls (one per cell, batch 1 with min_time 0), then forward, backward, forward
    assert order == cells + cells + cells[::-1] + cells


def test_exponent_interval_is_the_t_interval_of_the_per_round_fits():
    x = [100, 200, 400, 800]
    slopes = [1.9, 2.0, 2.15]
    seconds = [[1e-6 * v ** e for e in slopes] for v in x] + [None]
    out = exponent_interval(x + [1600], seconds)
    assert np.allclose(out["per_round"], slopes, atol=1e-12)
    m, s = np.mean(slopes), np.std(slopes, ddof=1) / np.sqrt(3)
    lo, hi = stats.t.interval(0.95, 2, loc=m, scale=s)
    assert abs(out["exponent"] - m) < 1e-12 and np.allclose(out["ci"], [lo, hi], atol=1e-12)
    one = exponent_interval(x, [[v ** 1.0] for v in x])
    assert abs(one["exponent"] - 1.0) < 1e-12 and all(math.isnan(b) for b in one["ci"])
