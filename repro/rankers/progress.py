"""One solver-progress contract for every iterative solver of the suite.

A solver creates a :class:`SolverTrace` from the ``callback`` and ``keep_history`` arguments
its caller passed, and calls it once at the start (iteration 0) and once after every
iteration with the iteration number, the current iterate ``w`` and named scalars (``f``,
``gap``, ``n_cg``, …).  The trace adds the elapsed ``seconds``, keeps a history of the
scalars (without ``w``) if asked, and hands the caller's callback a dict with the scalars and
a copy of ``w``.  The callback's return value is ignored.

Every solver result carries the same fields (:class:`SolverResult`): the iterate ``w``, the
objective ``f``, ``n_iter``, ``status`` (``"converged"``, ``"max_iter"`` or a reason),
``seconds`` and ``history``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np


class SolverTrace:
    """Progress of one solver run: ``trace(it, w, f=…, …)`` after each iteration."""

    def __init__(self, callback: Callable[[dict], object] | None = None,
                 keep_history: bool = True):
        self.callback = callback
        self.keep_history = keep_history
        self.history: list[dict] = []
        self.t0 = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.t0

    def __call__(self, it: int, w: np.ndarray | None = None, **info) -> None:
        row = {"iter": int(it), **info, "seconds": self.seconds}
        if self.keep_history:
            self.history.append(dict(row))
        if self.callback is not None:
            if w is not None:
                row["w"] = np.array(w, copy=True)
            self.callback(row)


@dataclass
class SolverResult:
    """What every iterative solver returns (solvers may add fields in a subclass)."""
    w: np.ndarray
    f: float
    n_iter: int
    status: str
    seconds: float
    history: list = field(default_factory=list)
