"""Timing: single-threaded thread pools, best and alternating times, exponent fits, and the
scaling sweep every ``complexity`` artifact uses.

Conventions (stated in every figure that uses them):

* every thread pool (BLAS, OpenMP) is limited to one thread while timing
  (:func:`single_thread_blas`): the kernels are single-threaded, and on a small machine a
  peer's spinning BLAS threads would steal time from the next timed call;
* a scaling point is timed as the fastest of at least ``repeats`` calls after a warm-up
  (:func:`best_time`) — the least disturbed by concurrent load;
* a comparison of contenders on one problem times them alternately and keeps the median
  (:func:`time_alternating`), so drift and caching hit all alike;
* an empirical exponent is the least-squares slope of log time against log size
  (:func:`fit_exponent`);
* a time exponent with an interval comes from interleaved rounds
  (:func:`interleaved_sweep`): every round times every size once, one exponent is fitted per
  round, and the interval is the t interval over the rounds (:func:`exponent_interval`).
  A machine's load then widens the interval instead of bending one curve.
"""
from __future__ import annotations

import statistics
import time
from typing import Callable, Iterable

import numpy as np
from scipy import stats
from threadpoolctl import threadpool_limits


def single_thread_blas():
    """Context manager limiting BLAS and OpenMP pools to one thread."""
    return threadpool_limits(limits=1)


def best_time(fn: Callable[[], object], repeats: int, min_total: float = 0.5,
              warmup: int = 1) -> float:
    """Fastest of at least ``repeats`` timed calls (more, up to 50, while their total is under
    ``min_total`` seconds) after ``warmup`` calls."""
    for _ in range(warmup):
        fn()
    times: list[float] = []
    while len(times) < repeats or (sum(times) < min_total and len(times) < 50):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def time_alternating(fns: dict[str, Callable[[], object]], repeats: int = 7,
                     warmup: int = 1) -> dict[str, float]:
    """Median wall time of each callable, timed alternately (the order rotates each round)
    after ``warmup`` calls each."""
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    times: dict[str, list[float]] = {k: [] for k in fns}
    names = list(fns)
    for r in range(repeats):
        for k in names[r % len(names):] + names[:r % len(names)]:
            t0 = time.perf_counter()
            fns[k]()
            times[k].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def fit_exponent(x, t) -> float:
    """Least-squares slope of log t against log x (the empirical exponent); non-positive and
    missing (None) points are ignored."""
    pts = [(a, b) for a, b in zip(x, t) if a is not None and b is not None and a > 0 and b > 0]
    if len(pts) < 2:
        return float("nan")
    xs, ts = np.log(np.array(pts, dtype=float)).T
    return float(np.polyfit(xs, ts, 1)[0])


def scaling_sweep(points: Iterable, make: Callable[[object], object],
                  contenders: dict[str, Callable[[object], Callable[[], object]]],
                  repeats: int = 3, min_total: float = 0.5,
                  skip: Callable[[str, object], bool] | None = None,
                  log: Callable[[str], object] | None = None) -> list[dict]:
    """Time every contender at every point of a size sweep.

    ``make(point)`` builds the problem of a point once (untimed); ``contenders[name](problem)``
    prepares (untimed) and returns the call to time.  Each call is timed by
    :func:`best_time` after one warm-up call, whose result is kept as the contender's value
    (to check that the contenders compute the same thing).  ``skip(name, point)`` leaves a
    cell out (time ``None``), e.g. a quadratic peer beyond a memory budget.

    Returns one row per point: ``{"point", "seconds": {name: s or None}, "values": {…}}``.
    """
    rows = []
    for point in points:
        problem = make(point)
        seconds, values = {}, {}
        for name, prepare in contenders.items():
            if skip is not None and skip(name, point):
                seconds[name] = None
                continue
            call = prepare(problem)
            values[name] = call()                       # warm-up, and the value computed
            seconds[name] = best_time(call, repeats, min_total=min_total, warmup=0)
        rows.append({"point": point, "seconds": seconds, "values": values})
        if log is not None:
            log(f"{point}: " + ", ".join(f"{k} {v:.3g} s" for k, v in seconds.items()
                                         if v is not None))
    return rows


def fun_grad_hv(problem, w, d) -> Callable[[], dict]:
    """The call timed for a TRON problem: one f(w), ∇f(w) and ∇²f(w)d; returns the values."""
    def once():
        f = problem.fun(w)
        g = problem.grad(w)
        return {"f": f, "grad": g, "hv": problem.hv(d)}
    return once


def interleaved_sweep(points: Iterable, make: Callable[[object], object],
                      contenders: dict[str, Callable[[object], Callable[[], object]]],
                      rounds: int = 5, min_time: float = 0.05,
                      skip: Callable[[str, object], bool] | None = None,
                      log: Callable[[str], object] | None = None) -> list[dict]:
    """Time every contender at every point of a size sweep in ``rounds`` interleaved rounds.

    Every problem is built first (``make(point)``, untimed) and every call prepared
    (``contenders[name](problem)``, untimed); one warm-up call of each keeps its value (to
    check that the contenders compute the same thing) and sets the cell's batch: the number
    of calls that together take at least ``min_time`` seconds, so that no measurement is
    near the clock's resolution.  Then each round times every cell once — one batch, divided
    by its number of calls — the cells forward in even rounds and backward in odd ones, so
    that a change of the machine's load during the sweep hits every size alike instead of
    the largest ones only.  ``skip(name, point)`` leaves a cell out (``None``).

    Returns one row per point: ``{"point", "seconds": {name: [s per round] or None},
    "values": {name: value}}``.  Fit with :func:`exponent_interval`."""
    if rounds < 1:
        raise ValueError(f"interleaved_sweep: rounds must be ≥ 1, not {rounds}")
    points = list(points)
    cells, rows = [], []
    for point in points:
        problem = make(point)
        row = {"point": point, "seconds": {}, "values": {}}
        for name, prepare in contenders.items():
            if skip is not None and skip(name, point):
                row["seconds"][name] = None
                continue
            call = prepare(problem)
            t0 = time.perf_counter()
            row["values"][name] = call()                 # warm-up, and the value computed
            once = time.perf_counter() - t0
            batch = max(1, min(1000, int(np.ceil(min_time / max(once, 1e-9)))))
            row["seconds"][name] = []
            cells.append((row, name, call, batch))
        rows.append(row)
    for r in range(rounds):
        for row, name, call, batch in (cells if r % 2 == 0 else cells[::-1]):
            t0 = time.perf_counter()
            for _ in range(batch):
                call()
            row["seconds"][name].append((time.perf_counter() - t0) / batch)
        if log is not None:
            log(f"round {r + 1}/{rounds} done")
    return rows


def exponent_interval(x, seconds, level: float = 0.95) -> dict:
    """The time exponent of interleaved rounds: ``seconds[i][r]`` is the time of size
    ``x[i]`` in round ``r`` (None: not timed).  One exponent per round
    (:func:`fit_exponent` over the sizes timed), their mean and its t interval at ``level``
    over the rounds (``scipy.stats.t``; NaN bounds with fewer than two rounds).
    Returns ``{"exponent", "ci": [lo, hi], "per_round": [...]}``."""
    pts = [(a, s) for a, s in zip(x, seconds) if s is not None]
    n_rounds = min((len(s) for _, s in pts), default=0)
    per = [fit_exponent([a for a, _ in pts], [s[r] for _, s in pts]) for r in range(n_rounds)]
    per = [e for e in per if np.isfinite(e)]
    if not per:
        return {"exponent": float("nan"), "ci": [float("nan"), float("nan")], "per_round": []}
    mean = float(np.mean(per))
    if len(per) < 2:
        return {"exponent": mean, "ci": [float("nan"), float("nan")], "per_round": per}
    se = float(np.std(per, ddof=1)) / np.sqrt(len(per))
    h = float(stats.t.ppf(0.5 + level / 2, len(per) - 1)) * se
    return {"exponent": mean, "ci": [mean - h, mean + h], "per_round": per}
