"""l_i^±(w) and sums over SV_i^±(w) for linear RankSVM without forming pairs (Lee & Lin 2014,
supplement Sec. II; main paper Sec. 3).  Wrapper of the kernel ``repro._kernels.pair_counting``.

Definitions (supplement Sec. II.1), for a document ``i`` of a query, ``z = Xw``:

* ``SV_i^+(w) = {j | y_j > y_i, z_j < z_i + 1}``, ``l_i^+ = |SV_i^+|``;
* ``SV_i^-(w) = {j | y_j < y_i, z_j > z_i - 1}``, ``l_i^- = |SV_i^-|``;
* ``γ_i^± = Σ_{j∈SV_i^±} z_j`` and ``α_i^±(w, v) = Σ_{j∈SV_i^±} x_jᵀv`` (II.3, where the
  supplement misprints ``x_iᵀv`` inside the sum).

"Inside the margin" is tested as ``1 - z_high + z_low > 0`` (the authors' tool's expression);
all methods and the O(l²) reference use it, so they agree on every pair even at rounding
boundaries.  Labels are remapped within each query to levels 0..k_q-1 (the tool's ``int_y``);
only their order matters.  Queries with one document or one relevance level have no pairs:
their counts and sums are 0.

Methods (``method=``): ``"direct"`` — Sec. II.1, O(l log l + l k); ``"joachims"`` —
Algorithm (I), O(l log l + l k) time, O(l) space; ``"tree"`` — order-statistic tree of
Tree-TRON, O(l log l) (independent of k).  See the kernel's docstring.

The kernels check array lengths at entry and return -1 when they are inconsistent; the
wrappers here raise ``ValueError`` then (:func:`repro.errors.check_status`; it cannot happen
with the arrays they allocate).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels import pair_counting as _kernel
from ..data.queries import check_query_ptr
from ..errors import DataError
from ..errors import check_status as _check_status

METHODS = ("direct", "joachims", "tree")
#: The kernel's number for each method (``count_range`` / ``hv_range``).
METHOD_IDS = {"direct": _kernel.DIRECT, "joachims": _kernel.JOACHIMS, "tree": _kernel.TREE}
#: The kernel module itself, for callers that work on ranges of queries (``count_range``,
#: ``sort_query_range``, ``hv_range``: see the kernel's docstring).
kernel = _kernel


def relevance_levels(y, query_ptr) -> tuple[np.ndarray, np.ndarray]:
    """``(level, n_levels)``: each document's label replaced by its rank among the distinct
    labels of its query (0 = lowest), and the number of distinct labels k_q of each query."""
    y = np.asarray(y, dtype=np.float64)
    qp = check_query_ptr(query_ptr, y.shape[0])
    if not np.all(np.isfinite(y)):
        bad = int(np.flatnonzero(~np.isfinite(y))[0])
        raise DataError(f"y: label {y[bad]} of document {bad} is not finite")
    Q = qp.shape[0] - 1
    qdoc = np.repeat(np.arange(Q), np.diff(qp))
    order = np.lexsort((y, qdoc))
    ys = y[order]
    new = np.ones(y.shape[0], dtype=bool)
    new[1:] = ys[1:] != ys[:-1]
    new[qp[:-1]] = True                    # (query starts are positions in sorted order too)
    rank = np.cumsum(new) - 1              # global index of the (query, label) class
    first = rank[qp[:-1]]                  # class index of each query's lowest label
    level = np.empty(y.shape[0], dtype=np.int32)
    level[order] = (rank - np.repeat(first, np.diff(qp))).astype(np.int32)
    n_levels = np.empty(Q, dtype=np.int32)
    n_levels[:] = np.append(first[1:], rank[-1] + 1) - first
    return level, n_levels


def count_pairs(y, query_ptr) -> int:
    """|P|: pairs (i, j) of the same query with y_i > y_j."""
    level, n_levels = relevance_levels(y, query_ptr)
    qp = np.asarray(query_ptr, dtype=np.int64)
    Q = qp.shape[0] - 1
    qdoc = np.repeat(np.arange(Q), np.diff(qp))
    per = np.bincount(qdoc * (int(n_levels.max()) if Q else 1) + level,
                      minlength=Q * (int(n_levels.max()) if Q else 1)).astype(np.int64)
    sizes = np.diff(qp).astype(np.int64)
    return int(((sizes ** 2).sum() - (per ** 2).sum()) // 2)


@dataclass
class Counts:
    """Result of one counting pass (arrays indexed by document)."""
    l_plus: np.ndarray | None
    l_minus: np.ndarray | None
    s_plus: np.ndarray
    s_minus: np.ndarray
    n_violations: int | None    # Σ l_i^- = pairs inside the margin (None if not counted)


class PairCounter:
    """Counting for one data set (labels fixed): levels, workspaces and the per-query sort
    order of the last ``sort(z)``, reused by every ``count`` until the next sort (the sort is
    done once per function evaluation, the Hessian-vector products reuse it: Sec. II.1, (II.4)).
    """

    def __init__(self, y, query_ptr, method: str = "tree"):
        if method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {method!r}")
        self.method = method
        self.query_ptr = check_query_ptr(query_ptr, np.asarray(y).shape[0])
        self.level, self.n_levels = relevance_levels(y, self.query_ptr)
        self.n = self.level.shape[0]
        kmax = int(self.n_levels.max())
        self._wc = np.zeros(kmax, dtype=np.int64)
        self._ws = np.zeros(kmax, dtype=np.float64)
        self._buf = np.empty(self.n, dtype=np.int64)
        self.order = np.arange(self.n, dtype=np.int64)
        self._z = None

    def sort(self, z: np.ndarray) -> np.ndarray:
        """Sort each query by ``z`` (warm-started from the previous order) and keep ``z``."""
        z = np.ascontiguousarray(z, dtype=np.float64)
        if z.shape != (self.n,):
            raise DataError(f"z: expected {self.n} values, got shape {z.shape}")
        if not np.all(np.isfinite(z)):
            bad = int(np.flatnonzero(~np.isfinite(z))[0])
            q = int(np.searchsorted(self.query_ptr, bad, side="right")) - 1
            raise DataError(f"z: score {z[bad]} of document {bad} (query {q}) is not finite "
                            "(NaN or infinity in w or X?)")
        _check(_kernel.sort_within_queries(z, self.query_ptr, self.order, self._buf),
               "sort_within_queries")
        self._z = z
        return self.order

    def set_sorted(self, z: np.ndarray, order: np.ndarray, check: bool = True) -> None:
        """Make ``(z, order)`` the state used by :meth:`count`, without sorting: ``order`` must
        hold each query's documents sorted by ``z`` ascending, e.g. the ``order`` (copied) and
        ``z`` of an earlier :meth:`sort`.  Lets the Hessian-vector products of a point reuse its
        sort after other points were evaluated (the α_i^± of (II.3) at w).  ``check``: verify
        the shapes, that ``order`` permutes each query's documents and sorts it by ``z``
        (O(l)); skip only for a pair saved from :meth:`sort`."""
        z = np.ascontiguousarray(z, dtype=np.float64)
        order = np.ascontiguousarray(order, dtype=np.int64)
        if z.shape != (self.n,) or order.shape != (self.n,):
            raise DataError(f"set_sorted: expected z and order of {self.n} values, got shapes "
                            f"{z.shape} and {order.shape}")
        if check:
            qdoc = np.repeat(np.arange(self.query_ptr.shape[0] - 1), np.diff(self.query_ptr))
            if (order.size and (order.min() < 0 or order.max() >= self.n
                                or not np.array_equal(qdoc[order], qdoc)
                                or np.bincount(order, minlength=self.n).max() != 1)):
                raise DataError("set_sorted: order is not a permutation of each query's "
                                "documents")
            if not np.all(np.isfinite(z)):
                bad = int(np.flatnonzero(~np.isfinite(z))[0])
                raise DataError(f"set_sorted: score {z[bad]} of document {bad} is not finite")
            zs = z[order]
            same_q = qdoc[1:] == qdoc[:-1]
            if np.any((zs[1:] < zs[:-1]) & same_q):
                raise DataError("set_sorted: order does not sort each query by z")
        self.order[:] = order
        self._z = z

    def count(self, v: np.ndarray | None = None, want_counts: bool = True,
              out: Counts | None = None) -> Counts:
        """l_i^± (if ``want_counts``) and the sums of ``v`` (default: z itself, giving γ_i^±)
        over SV_i^± at the ``z`` of the last :meth:`sort`."""
        if self._z is None:
            raise RuntimeError("PairCounter.count: call sort(z) first")
        z = self._z
        v = z if v is None else np.ascontiguousarray(v, dtype=np.float64)
        if v.shape != (self.n,):
            raise DataError(f"v: expected {self.n} values, got shape {v.shape}")
        if out is None:
            n = self.n
            out = Counts(np.empty(n, np.int64) if want_counts else None,
                         np.empty(n, np.int64) if want_counts else None,
                         np.empty(n), np.empty(n), None)
        lp = out.l_plus if want_counts else self._dummy_counts()
        lm = out.l_minus if want_counts else lp
        tot = self._run(z, v, self.level, self.n_levels, self.query_ptr, self.order,
                        want_counts, lp, lm, out.s_plus, out.s_minus)
        out.n_violations = int(tot) if want_counts else None
        return out

    def _run(self, z, v, level, n_levels, query_ptr, order, want_counts, lp, lm, sp, sm):
        tot = _kernel.count_all(METHOD_IDS[self.method], z, v, level, n_levels, query_ptr, order,
                                want_counts, lp, lm, sp, sm, self._wc, self._ws)
        _check(tot, f"{self.method} counting")
        return tot

    def operations(self, z: np.ndarray, order: np.ndarray | None = None) -> dict[str, int]:
        """The operations one counting pass of this method does at scores ``z``, counted by
        the kernel's ``operation_counts`` (a replay of the sort and the sweeps; nothing here
        changes): ``"sort comparisons"`` (the per-query sort, warm-started from ``order``;
        default: a fresh counter's, the documents in their stored order), ``"margin tests"``
        and ``"level operations"`` (per-level counter updates and sums (a), document visits
        per level (b), tree node visits (c)).  Deterministic: the same on every machine."""
        z = np.ascontiguousarray(z, dtype=np.float64)
        if z.shape != (self.n,) or not np.all(np.isfinite(z)):
            raise DataError(f"z: expected {self.n} finite values, got shape {z.shape}")
        work = np.arange(self.n, dtype=np.int64) if order is None else \
            np.array(order, dtype=np.int64)
        if work.shape != (self.n,):
            raise DataError(f"order: expected {self.n} indices, got shape {work.shape}")
        ops = np.zeros(3, dtype=np.int64)
        _check(_kernel.operation_counts(METHOD_IDS[self.method], z, self.level, self.n_levels,
                                        self.query_ptr, work, np.empty(self.n, np.int64), ops),
               "operation_counts")
        return {"sort comparisons": int(ops[0]), "margin tests": int(ops[1]),
                "level operations": int(ops[2])}

    def _dummy_counts(self) -> np.ndarray:
        if not hasattr(self, "_dummy"):
            self._dummy = np.zeros(self.n, dtype=np.int64)
        return self._dummy


def check_status(status: int, kernel: str) -> int:
    """:func:`repro.errors.check_status` of the ``pair_counting`` kernel ``kernel``."""
    return _check_status(status, f"pair_counting.{kernel}")


_check = check_status


def sv_counts(z, y, query_ptr, v=None, method: str = "tree") -> Counts:
    """One-off l_i^±, and sums of ``v`` (default z: γ_i^±) over SV_i^± (checks its inputs)."""
    pc = PairCounter(y, query_ptr, method)
    pc.sort(z)
    return pc.count(v)


def direct_count_trace(z_sorted, y) -> tuple[np.ndarray, np.ndarray]:
    """The ascending sweep of Sec. II.1 on one query given in ascending score order:
    ``(count_plus, l_plus)`` with ``count_plus[i, r]`` = count⁺ of level r (levels in label
    order) when the sweep is at document i.  For the worked example of Sec. II.1."""
    z = np.ascontiguousarray(z_sorted, dtype=np.float64)
    if z.ndim != 1 or z.size == 0 or np.any(np.diff(z) < 0) or not np.all(np.isfinite(z)):
        raise DataError("z_sorted: expected finite scores in ascending order")
    level, n_levels = relevance_levels(y, [0, z.size])
    k = int(n_levels[0])
    count_plus = np.zeros((z.size, k), dtype=np.int64)
    l_plus = np.zeros(z.size, dtype=np.int64)
    _check(_kernel.direct_count_trace(z, level, k, count_plus, l_plus), "direct_count_trace")
    return count_plus, l_plus
