"""repro.run.timing: exponent fits and the scaling sweep's bookkeeping (not speed: no test times
anything against a threshold)."""
import math

import numpy as np

from repro.run.timing import fit_exponent, scaling_sweep


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
