"""Exact linear assignment (wrapper of the ``repro._kernels.assignment`` kernel).

Le & Smola (2007), Sec. 4.2-4.3: DORM's most violated constraint (8) is the linear assignment
problem (24)/(25), ``argmax_π Σ_i C_{i,π(i)}`` with ``C_ij = c_j g_i − a_j b_i``.  This module
solves

* :func:`linear_assignment` — one dense matrix, square or rectangular, minimum (default) or
  maximum cost: every row of the smaller side gets a distinct column (like
  ``scipy.optimize.linear_sum_assignment``);
* :func:`linear_assignment_batch` — many dense matrices of any sizes in one kernel call;
* :func:`rank2_assignment` — DORM's structured matrices given by their four vectors, for all
  queries of a data set in one kernel call (the structure is exploited: see the kernel).

Checks (a :class:`~repro.errors.DataError` naming the argument): a matrix must be 2-d and
real, without NaN; an infinite entry is a forbidden assignment (+inf when minimising, −inf
when maximising, as in ``scipy.optimize.linear_sum_assignment``; the other sign is refused)
and a matrix whose every assignment uses one is refused as infeasible; the finite magnitudes
must leave the sums of the shortest-path search finite (|entry| · (rows + columns + 2) below
the float64 maximum).  The vectors of a rank-2 problem must be finite, 1-d, of the documents'
length, with ``c`` non-increasing within each query.  Costs are converted to C-contiguous
float64 (a copy only when needed).

Ties are broken canonically: of the optimal assignments, every function returns the
lexicographically smallest (``col_for_row`` for a matrix — the identity on a constant
matrix —, each query's ``position`` vector for :func:`rank2_assignment`), whatever path the
solver took; see :func:`linear_assignment` for the tolerance that decides "optimal".
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels import assignment as _kernel
from ..data.queries import check_query_ptr
from ..errors import DataError, check_status

_MAX = np.finfo(np.float64).max


@dataclass(slots=True)
class Assignment:
    """``col_for_row[i]``: the column assigned to row i (-1 for the rows left out when there
    are more rows than columns); ``value``: the total cost of the assigned entries."""
    col_for_row: np.ndarray
    value: float

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, cols)`` of the assigned entries, rows increasing (scipy's layout)."""
        rows = np.flatnonzero(self.col_for_row >= 0)
        return rows, self.col_for_row[rows]


def _check_matrix(cost, name: str, maximize: bool = False) -> np.ndarray:
    """``cost`` as a C-contiguous float64 matrix, or a :class:`DataError` naming the entry at
    fault: NaN, or the infinity of the wrong sign (−inf when minimising, +inf when
    maximising; the other one marks a forbidden assignment)."""
    C = cost if type(cost) is np.ndarray else np.asarray(cost)
    if C.ndim != 2:
        raise DataError(f"{name}: expected a 2-d cost matrix, got shape {C.shape}")
    if C.dtype != np.float64:
        if not (np.issubdtype(C.dtype, np.number) or C.dtype == bool) or np.iscomplexobj(C):
            raise DataError(f"{name}: expected real numbers, got dtype {C.dtype}")
    C = np.ascontiguousarray(C, dtype=np.float64)
    if C.size:
        lo, hi = float(C.min()), float(C.max())          # NaN propagates; no temporaries
        big = max(-lo, hi)
        if not big * (C.shape[0] + C.shape[1] + 2) < _MAX:
            forbidden = -np.inf if maximize else np.inf
            bad = ~np.isfinite(C) & (C != forbidden)
            if bad.any():
                r, c = (int(i) for i in np.argwhere(bad)[0])
                allowed = ("-inf marks a forbidden assignment when maximising" if maximize
                           else "+inf marks a forbidden assignment when minimising")
                raise DataError(f"{name}: entry ({r}, {c}) is {C[r, c]}; costs must be finite "
                                f"({allowed})")
            finite = np.isfinite(C)
            big = float(np.max(np.abs(C[finite]))) if finite.any() else 0.0
            if not big * (C.shape[0] + C.shape[1] + 2) < _MAX:
                raise DataError(f"{name}: entries up to {big:.3g} are too large for an exact "
                                f"float64 solve of a {C.shape[0]}×{C.shape[1]} problem")
    return C


def _check(status: int, what: str, infeasible=None) -> int:
    """:func:`repro.errors.check_status` with the assignment kernels' own codes: -(3 + t) is
    a failure of problem t — with ``infeasible`` (t ↦ the problem's name) no assignment
    avoids its forbidden entries (:class:`DataError`), without it the shortest-path search
    found no finite path (``FloatingPointError``)."""
    def own(code: int):
        if code > -3:
            return None
        if infeasible is not None:
            return _infeasible(infeasible(-code - 3))
        return FloatingPointError(f"{what}: the shortest-path search found no finite path "
                                  f"(problem {-code - 3}); costs must be finite")
    return check_status(status, what, own)


def _infeasible(name: str) -> DataError:
    return DataError(f"{name}: the cost matrix is infeasible: no assignment of every "
                     f"row (or column, whichever are fewer) avoids the forbidden (infinite) "
                     f"entries")


def linear_assignment(cost, maximize: bool = False) -> Assignment:
    """Optimal assignment of the rows (or, if there are more rows than columns, of the
    columns) of ``cost``: minimum total cost, or maximum with ``maximize=True``.

    Forbidden assignments are infinite entries, +inf when minimising and −inf when
    maximising (as ``scipy.optimize.linear_sum_assignment``); a matrix on which every
    assignment uses one is infeasible (:class:`DataError`), as is a NaN or an infinity of
    the other sign.

    Ties: of the optimal assignments, the one returned is the lexicographically smallest
    ``col_for_row`` (row 0 gets the smallest column it can have in an optimal assignment,
    then row 1 …), so a constant matrix gives the identity, and the result depends on the
    matrix only, not on how the solver reached the optimum.  With more rows than columns
    the rule applies to the transpose (the row of each column, column by column).
    "Optimal" is decided on reduced costs with a tolerance of 64 ulps of the largest
    entry per row and column (``64·ε·(rows + columns)·max|entry|``): exact whenever
    distinct assignment totals differ by more than that, e.g. integer costs below 2^40."""
    if (type(cost) is np.ndarray and cost.dtype == np.float64 and cost.ndim == 2
            and cost.flags.c_contiguous and not maximize and 0 < cost.shape[0] <= cost.shape[1]):
        out = np.empty(cost.shape[0], dtype=np.int64)   # fast path: the kernel checks entries
        status, total = _kernel.solve_dense(cost, out)
        if status not in (-4, -5):      # a NaN or −inf entry: the checks below name it
            _check(status, "linear_assignment", lambda t: "cost")
            return Assignment(out, total)
    C = _check_matrix(cost, "cost", maximize)
    nr, nc = C.shape
    work = -C if maximize else C
    transposed = nr > nc
    if transposed:
        work = np.ascontiguousarray(work.T)
    out = np.empty(work.shape[0], dtype=np.int64)
    status, total = _kernel.solve_dense(work, out)
    _check(status, "linear_assignment", lambda t: "cost")
    if maximize:
        total = -total
    if not transposed:
        return Assignment(out, total)
    col_for_row = np.full(nr, -1, dtype=np.int64)
    col_for_row[out] = np.arange(nc)
    return Assignment(col_for_row, total)


def linear_assignment_batch(costs, maximize: bool = False) -> list[Assignment]:
    """:func:`linear_assignment` of every matrix of ``costs`` (a sequence of 2-d arrays of
    any shapes, or a 3-d array), solved in one kernel call."""
    mats = [_check_matrix(C, f"costs[{t}]", maximize) for t, C in enumerate(costs)]
    trans = [C.shape[0] > C.shape[1] for C in mats]
    work = [(-C if maximize else C) for C in mats]
    work = [np.ascontiguousarray(W.T) if t else W for W, t in zip(work, trans)]
    n_rows = np.array([W.shape[0] for W in work], dtype=np.int64)
    n_cols = np.array([W.shape[1] for W in work], dtype=np.int64)
    cost_ptr = np.concatenate([[0], np.cumsum(n_rows * n_cols)]).astype(np.int64)
    row_ptr = np.concatenate([[0], np.cumsum(n_rows)]).astype(np.int64)
    flat = (np.concatenate([W.ravel() for W in work]) if work else np.zeros(0))
    out = np.empty(int(row_ptr[-1]), dtype=np.int64)
    value = np.empty(len(work))
    status = _kernel.solve_dense_batch(np.ascontiguousarray(flat), cost_ptr, n_rows, n_cols,
                                       row_ptr, out, value)
    _check(status, "linear_assignment_batch", lambda t: f"costs[{t}]")
    result = []
    for t, C in enumerate(mats):
        o = out[row_ptr[t]:row_ptr[t + 1]]
        total = -float(value[t]) if maximize else float(value[t])
        if trans[t]:
            cfr = np.full(C.shape[0], -1, dtype=np.int64)
            cfr[o] = np.arange(C.shape[1])
        else:
            cfr = o.copy()
        result.append(Assignment(cfr, total))
    return result


@dataclass
class Rank2Assignment:
    """Per document its 0-based position within its query (``position``); per query the
    maximum of Σ_i C_{i,π(i)} (``value``) and the number of augmenting paths the kernel
    needed (``n_augmented``; the rest of the assignment came from the sorted layout)."""
    position: np.ndarray
    value: np.ndarray
    n_augmented: np.ndarray


def _vector(x, n: int, name: str) -> np.ndarray:
    v = np.ascontiguousarray(x, dtype=np.float64)
    if v.shape != (n,):
        raise DataError(f"{name}: expected {n} values (one per document), got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        k = int(np.flatnonzero(~np.isfinite(v))[0])
        raise DataError(f"{name}: value {v[k]} at document {k} is not finite")
    return v


class Rank2Solver:
    """Eq. 24 for one query, solved again and again for new scores: ``b``, ``c`` and ``a``
    are fixed (float64, C-contiguous, one query's, as :func:`rank2_assignment` with
    ``check_input=False`` takes them) and the output arrays are made once.  A call with the
    query's scores ``g`` returns ``(position, n_augmented)`` — :func:`rank2_assignment`'s, the
    same kernel — with ``position`` a buffer that the next call overwrites.  For the inner
    loop of DORM's oracle, where the wrapper's per-call set-up cost more than small queries'
    assignments."""

    __slots__ = ("b", "c", "a", "ptr", "position", "value", "n_augmented")

    def __init__(self, b: np.ndarray, c: np.ndarray, a: np.ndarray):
        self.b, self.c, self.a = b, c, a
        n = b.shape[0]
        if c.shape != (n,) or a.shape != (n,):
            raise ValueError(f"Rank2Solver: b, c, a of one query (shapes {b.shape}, "
                             f"{c.shape}, {a.shape})")
        self.ptr = np.array([0, n], dtype=np.int64)
        self.position = np.empty(n, dtype=np.int64)
        self.value = np.empty(1)
        self.n_augmented = np.empty(1, dtype=np.int64)

    def __call__(self, g: np.ndarray) -> tuple[np.ndarray, int]:
        status = _kernel.solve_rank2_batch(g, self.b, self.c, self.a, self.ptr, self.position,
                                           self.value, self.n_augmented)
        if status:
            _check(status, "rank2_assignment")
        return self.position, int(self.n_augmented[0])


def rank2_assignment(g, b, c, a, query_ptr, check_input: bool = True) -> Rank2Assignment:
    """Maximise Σ_i (c_{π(i)} g_i − a_{π(i)} b_i) over the permutations π of each query
    (eq. 24).  ``g`` (scores) and ``b`` (gains) are per document; ``c`` and ``a`` hold, at the
    same offsets, the weights of positions 1..l of each query (``c`` non-increasing within a
    query).  ``check_input=False`` skips the checks (inner loops that built the arrays).

    Ties: each query's ``position`` is the lexicographically smallest of its optimal
    permutations (document 0 at the first position it can take in an optimum, then document
    1 …; tolerance as in :func:`linear_assignment`, with the largest entry bounded by
    max|a|·max|b| + max|c|·max|g| of the query)."""
    if check_input:
        g = np.ascontiguousarray(g, dtype=np.float64)
        if g.ndim != 1:
            raise DataError(f"g: expected a 1-d array of scores, got shape {g.shape}")
        n = g.shape[0]
        g = _vector(g, n, "g")
        b, c, a = (_vector(x, n, name) for x, name in ((b, "b"), (c, "c"), (a, "a")))
        query_ptr = check_query_ptr(query_ptr, n)
        inc = np.flatnonzero(np.diff(c) > 0)
        if inc.size:
            starts = query_ptr[1:-1]
            bad = inc[~np.isin(inc + 1, starts)]
            if bad.size:
                k = int(bad[0])
                raise DataError(f"c: the position weights must be non-increasing within a "
                                f"query; c[{k + 1}] = {c[k + 1]} > c[{k}] = {c[k]}")
        s = max(float(np.max(np.abs(g))) * float(np.max(np.abs(c))) if n else 0.0,
                float(np.max(np.abs(a))) * float(np.max(np.abs(b))) if n else 0.0)
        sizes = np.diff(query_ptr)
        if n and 2.0 * s * (2 * int(sizes.max()) + 2) >= _MAX:
            raise DataError("g, b, c, a: entries too large for an exact float64 solve")
    n = g.shape[0]
    Q = query_ptr.shape[0] - 1
    pos = np.empty(n, dtype=np.int64)
    val = np.empty(Q)
    naug = np.empty(Q, dtype=np.int64)
    _check(_kernel.solve_rank2_batch(g, b, c, a, query_ptr, pos, val, naug),
           "rank2_assignment")
    return Rank2Assignment(pos, val, naug)
