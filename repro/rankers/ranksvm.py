"""L2-loss linear RankSVM solved by TRON with pair counting (Lee & Lin 2014, Tree-TRON).

Problem (3) of the main paper (the supplement's "L2-loss problem")::

    min_w  f(w) = ½ wᵀw + C Σ_{(i,j)∈P} max(0, 1 − wᵀ(x_i − x_j))²

with P the pairs of the same query with y_i > y_j (summed, not averaged; no bias term —
pairwise differences cancel it).  With z = Xw, l_i^±, γ_i^± and α_i^± of the supplement's
Sec. II (see :mod:`repro.rankers.pair_counting`), the function, gradient and generalized
Hessian-vector product never form pairs (main paper Sec. 3; the formulas of the authors'
``ranksvm.cpp``)::

    f(w)    = ½ wᵀw + C Σ_i [ z_i((l_i^+ + l_i^-) z_i − γ_i^+ − γ_i^- − 2(l_i^- − l_i^+)) + l_i^- ]
    ∇f(w)   = w + 2C Xᵀ[(l^+ + l^-)∘z − γ^+ − γ^- − (l^- − l^+)]
    ∇²f(w)d = d + 2C Xᵀ[(l^+ + l^-)∘(Xd) − α^+(w, d) − α^-(w, d)]

Each function evaluation computes Xw, sorts each query once and counts (l_i^±, γ_i^±); each
Hessian-vector product computes Xd and the sums α_i^± in the same order, then Xᵀ(·).

The Hessian is taken at the current iterate: a rejected trial point's sort and counts are
never used (the authors' tool keeps those of the last function evaluation, i.e. of a
rejected trial point after a rejection; the optimum is the same).
"""
from __future__ import annotations

from functools import cached_property

import numpy as np

from ..errors import DataError
from .base import LinearRanker, as_matrix, expand_grid, group_by_query
from .pair_counting import METHODS, Counts, PairCounter, count_pairs
from .tron import TronResult, tron


#: A dense X larger than this gets cache-blocked Hessian-vector products (smaller problems,
#: every test's included, keep the two-pass product and its exact rounding).
HV_BLOCKED_ABOVE = 256 << 20
#: Size of the X rows of one block (whole queries): about the per-core L2 cache.
HV_BLOCK_BYTES = 1 << 20


class _State:
    __slots__ = ("w", "z", "order", "counts")

    def __init__(self, w, z, order, counts):
        self.w, self.z, self.order, self.counts = w, z, order, counts


class L2RankSVMObjective:
    """f, ∇f and ∇²f·d of problem (3) on documents grouped by query (``query_ptr``)."""

    def __init__(self, X, y, query_ptr, C: float, method: str = "tree"):
        self.X = as_matrix(X)
        self.y = np.asarray(y, dtype=np.float64)
        if self.y.shape != (self.X.shape[0],):
            raise DataError(f"y: expected {self.X.shape[0]} labels, got shape {self.y.shape}")
        if not (C > 0 and np.isfinite(C)):
            raise ValueError(f"C must be positive and finite, got {C}")
        self.C = float(C)
        self.counter = PairCounter(self.y, query_ptr, method)
        self.query_ptr = self.counter.query_ptr
        self.n_features = self.X.shape[1]
        self._trial: _State | None = None      # last fun()
        self._point: _State | None = None      # last grad(): where hv() is taken
        self.n_fun = self.n_hv = 0

    @cached_property
    def n_pairs(self) -> int:
        """|P| (computed once: the labels are fixed)."""
        return count_pairs(self.y, self.query_ptr)

    def _evaluate(self, w) -> _State:
        w = np.array(w, dtype=np.float64, copy=True)
        z = np.ascontiguousarray(self.X @ w)
        pc = self.counter
        if self._point is not None:          # warm start the sort from the current order
            pc.order[:] = self._point.order
        pc.sort(z)
        counts = pc.count()
        return _State(w, z, pc.order.copy(), counts)

    def fun(self, w) -> float:
        st = self._evaluate(w)
        self._trial = st
        self.n_fun += 1
        c = st.counts
        lsum = (c.l_plus + c.l_minus).astype(np.float64)
        ate = (c.l_minus - c.l_plus).astype(np.float64)
        ataxw = lsum * st.z - c.s_plus - c.s_minus
        loss = float(st.z @ (ataxw - 2.0 * ate)) + float(c.l_minus.sum())
        return 0.5 * float(st.w @ st.w) + self.C * loss

    def grad(self, w) -> np.ndarray:
        st = self._trial
        if st is None or not np.array_equal(st.w, w):
            self.fun(w)
            st = self._trial
        self._point = st
        c = st.counts
        u = (c.l_plus + c.l_minus) * st.z - c.s_plus - c.s_minus - (c.l_minus - c.l_plus)
        return st.w + 2.0 * self.C * np.asarray(self.X.T @ u).ravel()

    def hv(self, d) -> np.ndarray:
        st = self._point
        if st is None:
            raise RuntimeError("hv: call grad(w) first")
        self.n_hv += 1
        if self._blocks is not None:
            return self._hv_blocked(np.asarray(d, dtype=np.float64), st)
        pc = self.counter
        xd = np.ascontiguousarray(self.X @ np.asarray(d, dtype=np.float64))
        pc.set_sorted(st.z, st.order, check=False)      # the sort of the point w (saved above)
        a = pc.count(xd, want_counts=False, out=self._hv_buffer())
        c = st.counts
        u = (c.l_plus + c.l_minus) * xd - a.s_plus - a.s_minus
        return d + 2.0 * self.C * np.asarray(self.X.T @ u).ravel()

    @cached_property
    def _blocks(self):
        """Row blocks (whole queries, about :data:`HV_BLOCK_BYTES` of X each) for the
        Hessian-vector product of a dense X larger than :data:`HV_BLOCKED_ABOVE`; None for
        smaller or sparse X (one pass of Xd, then one of Xᵀu)."""
        X = self.X
        if hasattr(X, "tocsr") or X.nbytes <= HV_BLOCKED_ABOVE:
            return None
        qp = self.query_ptr
        rows = max(1, HV_BLOCK_BYTES // max(1, X.shape[1] * X.itemsize))
        cuts = np.unique(np.searchsorted(qp, np.arange(rows, qp[-1], rows), side="left"))
        qcuts = np.unique(np.r_[0, cuts, qp.shape[0] - 1])
        blocks = []
        for qa, qb in zip(qcuts[:-1].tolist(), qcuts[1:].tolist()):
            a, b = int(qp[qa]), int(qp[qb])
            blocks.append((a, b, qa, qb, np.ascontiguousarray(qp[qa:qb + 1] - a)))
        starts = np.array([blk[0] for blk in blocks], dtype=np.int64)
        sizes = np.array([blk[1] - blk[0] for blk in blocks], dtype=np.int64)
        self._block_start = np.repeat(starts, sizes)
        self._block_buf = (np.empty(int(sizes.max())), np.empty(int(sizes.max())))
        self._local_order = (None, None)
        return blocks

    def _hv_blocked(self, d: np.ndarray, st: _State) -> np.ndarray:
        """∇²f(w)d as :meth:`hv`, one block of whole queries at a time: Xd, the sums α_i^±
        and the block's share of Xᵀu are computed while its rows are in cache, so X is read
        once per product instead of twice (the sums are the same; Xᵀu is summed block by
        block, which changes only its rounding)."""
        if self._local_order[0] is not st:               # each query's sort, block-relative
            self._local_order = (st, st.order - self._block_start)
        order = self._local_order[1]
        pc, X, c = self.counter, self.X, st.counts
        sp_buf, sm_buf = self._block_buf
        acc = np.zeros(self.n_features)
        for a, b, qa, qb, qp in self._blocks:
            Xb = X[a:b]
            xd = Xb @ d
            sp, sm = sp_buf[:b - a], sm_buf[:b - a]
            pc.block_sums(st.z[a:b], xd, a, b, qa, qb, qp, order[a:b], sp, sm)
            u = (c.l_plus[a:b] + c.l_minus[a:b]) * xd
            u -= sp
            u -= sm
            acc += Xb.T @ u
        return d + 2.0 * self.C * acc

    def _hv_buffer(self) -> Counts:
        if not hasattr(self, "_hvbuf"):
            n = self.counter.n
            self._hvbuf = Counts(None, None, np.empty(n), np.empty(n), None)
        return self._hvbuf

    def violations(self, w) -> int:
        """Pairs with 1 − wᵀ(x_i − x_j) > 0 (inside the margin or misordered): Σ_i l_i^-(w)."""
        return int(self._evaluate(w).counts.n_violations)

    def counts(self, w) -> Counts:
        return self._evaluate(w).counts


class RankSVM(LinearRanker):
    """L2-loss linear RankSVM (problem (3)) trained by TRON with pair counting.

    ``method``: ``"tree"`` (order-statistic tree, Tree-TRON; default), ``"direct"``
    (Sec. II.1) or ``"joachims"`` (Algorithm (I)).  ``eps``: stop when
    ‖∇f(w)‖ ≤ eps·‖∇f(0)‖ (Lee & Lin's default 0.001).  After ``fit``: ``coef_`` (w),
    ``result_`` (:class:`~repro.rankers.tron.TronResult`: f, iterations, CG iterations,
    history), ``n_pairs_``.

    :meth:`fit_grid` over ``C`` warm-starts each fit from the solution at the next smaller C
    (the grid is solved in increasing C; the models are yielded in grid order).
    """

    def __init__(self, C: float = 1.0, eps: float = 1e-3, method: str = "tree",
                 max_iter: int = 1000, callback=None):
        self.C, self.eps, self.method, self.max_iter = C, eps, method, max_iter
        self.callback = callback

    def _check_params(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {self.method!r}")
        if not self.eps > 0:
            raise ValueError(f"eps must be positive, got {self.eps}")
        if not (self.C > 0 and np.isfinite(self.C)):
            raise ValueError(f"C must be positive and finite, got {self.C}")

    def objective(self, X, y, qid) -> L2RankSVMObjective:
        """The problem object for data given as (X, y, qid) in any document order."""
        self._check_params()
        X = as_matrix(X)
        y, qid = self.check_Xy(X, y, qid)
        order, query_ptr, _ = group_by_query(qid)
        if not np.array_equal(order, np.arange(order.shape[0])):
            X = X[order]
            y = y[order]
        return L2RankSVMObjective(X, y, query_ptr, self.C, self.method)

    def _fit_grouped(self, X, y, query_ptr, w0=None) -> "RankSVM":
        self._check_params()
        obj = L2RankSVMObjective(X, y, query_ptr, self.C, self.method)
        self.result_: TronResult = tron(obj, n=obj.n_features, w0=w0, eps=self.eps,
                                        max_iter=self.max_iter, callback=self.callback)
        self.coef_ = self.result_.w
        self.n_pairs_ = obj.n_pairs
        self.objective_ = obj
        return self

    def fit_grid(self, data, grid):
        """Warm-started over C: candidates are solved in increasing C, each from the previous
        solution (same optimum within ``eps``; fewer Newton iterations), yielded in grid order."""
        cands = expand_grid(grid)
        if any(set(c) - {"C"} for c in cands):
            yield from super().fit_grid(data, cands)
            return
        self.check_Xy(data.X, data.y, np.zeros(data.n_docs))
        X = as_matrix(data.X)
        fitted, w = {}, None
        for i in sorted(range(len(cands)), key=lambda i: float(cands[i]["C"])):
            model = self.clone().set_params(**cands[i])
            model._fit_grouped(X, data.y, data.query_ptr, w0=w)
            w = model.coef_
            fitted[i] = model
        for i, c in enumerate(cands):
            yield c, fitted[i]

def all_pairs(y, query_ptr) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays ``(high, low)`` of every pair of the same query with y_high > y_low."""
    y = np.asarray(y, dtype=np.float64)
    qp = np.asarray(query_ptr, dtype=np.int64)
    H, L = [], []
    for q in range(qp.shape[0] - 1):
        a, b = int(qp[q]), int(qp[q + 1])
        yq = y[a:b]
        h, lo = np.nonzero(yq[:, None] > yq[None, :])
        H.append(h + a)
        L.append(lo + a)
    if not H:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(H).astype(np.int64), np.concatenate(L).astype(np.int64)


class ExplicitPairObjective:
    """The same f, ∇f, ∇²f·d with the p pairs formed once (index arrays), O(p) per
    evaluation after Xw — the "explicit pairs" approach (e.g. PRSVM, Chapelle & Keerthi 2010)
    that counting avoids.  Used as the peer of the complexity figure and the benchmark."""

    def __init__(self, X, y, query_ptr, C: float):
        self.X = as_matrix(X)
        self.C = float(C)
        self.H, self.L = all_pairs(y, query_ptr)
        self.n = self.X.shape[0]
        self.n_features = self.X.shape[1]
        self._trial = None
        self._act = None

    @property
    def n_pairs(self) -> int:
        return int(self.H.shape[0])

    def fun(self, w) -> float:
        w = np.asarray(w, dtype=np.float64)
        z = self.X @ w
        m = 1.0 - z[self.H] + z[self.L]
        act = np.flatnonzero(m > 0)
        self._trial = (w.copy(), act, m[act])
        return 0.5 * float(w @ w) + self.C * float(m[act] @ m[act])

    def grad(self, w) -> np.ndarray:
        if self._trial is None or not np.array_equal(self._trial[0], w):
            self.fun(w)
        w0, act, m = self._trial
        self._act = (self.H[act], self.L[act])
        u = np.bincount(self._act[1], m, self.n) - np.bincount(self._act[0], m, self.n)
        return w0 + 2.0 * self.C * np.asarray(self.X.T @ u).ravel()

    def hv(self, d) -> np.ndarray:
        h, lo = self._act
        xd = self.X @ np.asarray(d, dtype=np.float64)
        t = xd[h] - xd[lo]
        u = np.bincount(h, t, self.n) - np.bincount(lo, t, self.n)
        return d + 2.0 * self.C * np.asarray(self.X.T @ u).ravel()
