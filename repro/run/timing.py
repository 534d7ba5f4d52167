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
  (:func:`fit_exponent`).
"""
from __future__ import annotations

import statistics
import time
from typing import Callable, Iterable

import numpy as np
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
