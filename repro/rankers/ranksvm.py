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

A dense X above :data:`HV_BLOCKED_ABOVE` (256 MiB; MSLR-WEB30K size) is worked in fixed row
blocks of whole queries, optionally on several threads (``threads``), with the same numbers
for every thread count (:class:`L2RankSVMObjective`); smaller problems take the two-pass
products of :mod:`.fixed_order` (Xw, Xᵀu and the inner products summed in index order, not
by BLAS), whose rounding every reproduced value depends on and which no BLAS kernel changes.

The Hessian is taken at the current iterate: a rejected trial point's sort and counts are
never used (the authors' tool keeps those of the last function evaluation, i.e. of a
rejected trial point after a rejection; the optimum is the same).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import cached_property

import numpy as np

from ..errors import DataError
from .base import LinearRanker, as_matrix, expand_grid, group_by_query
from .fixed_order import dot, matvec, rmatvec
from .pair_counting import METHODS, Counts, PairCounter, count_pairs
from .pair_counting import METHOD_IDS
from .pair_counting import check_status as _check_status
from .pair_counting import kernel as _kernel
from .tron import TronResult, tron


#: TRON as in the paper, or with diagonally preconditioned CG (beyond the paper).
SOLVERS = ("tron", "pcg-tron")

#: A dense X larger than this is worked in row blocks of whole queries (smaller problems,
#: every test's included, keep the two-pass products and their exact rounding).
HV_BLOCKED_ABOVE = 256 << 20
#: Size of the X rows of one block (whole queries): about the per-core L2 cache.
HV_BLOCK_BYTES = 1 << 20


class _State:
    __slots__ = ("w", "z", "order", "counts", "lsum", "prep", "gpart")

    def __init__(self, w, z, order, counts, gpart=None):
        self.w, self.z, self.order, self.counts = w, z, order, counts
        self.gpart = gpart                  # blocked: the per-block partials of Xᵀu of ∇f
        self.lsum = None                    # l^+ + l^- as float64 (for hv), on first use
        self.prep = None                    # the tree's sweeps at this point (hv_prepare)

    def lsum_f64(self) -> np.ndarray:
        if self.lsum is None:
            c = self.counts
            self.lsum = (c.l_plus + c.l_minus).astype(np.float64)
        return self.lsum


def check_threads(threads) -> int:
    """``threads`` as a positive int (a :class:`ValueError` naming it otherwise)."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be an integer ≥ 1, got {threads!r}")
    return int(threads)


class L2RankSVMObjective:
    """f, ∇f and ∇²f·d of problem (3) on documents grouped by query (``query_ptr``).

    ``blocked``: work in fixed row blocks of whole queries (about :data:`HV_BLOCK_BYTES` of X
    each): Xw, the sort and the counts of f, Xᵀu of ∇f, and Xd, α^± and Xᵀu of ∇²f·d block by
    block, the per-block Xᵀu partial sums added in block order.  Default (None): for a dense
    X larger than :data:`HV_BLOCKED_ABOVE`; sparse X is never blocked.  ``threads``: the
    blocks are shared out among this many threads (BLAS and the counting kernels release the
    GIL); the blocks and the order of the final sums do not depend on it, so every thread
    count gives the same numbers bit for bit.  Unblocked, ``threads`` is not used.
    """

    def __init__(self, X, y, query_ptr, C: float, method: str = "tree", threads: int = 1,
                 blocked: bool | None = None):
        self.X = as_matrix(X)
        self.y = np.asarray(y, dtype=np.float64)
        if self.y.shape != (self.X.shape[0],):
            raise DataError(f"y: expected {self.X.shape[0]} labels, got shape {self.y.shape}")
        if not (C > 0 and np.isfinite(C)):
            raise ValueError(f"C must be positive and finite, got {C}")
        self.C = float(C)
        self.threads = check_threads(threads)
        self.counter = PairCounter(self.y, query_ptr, method)
        self.method_id = METHOD_IDS[method]
        self.query_ptr = self.counter.query_ptr
        self.n_features = self.X.shape[1]
        sparse = hasattr(self.X, "tocsr")
        self.blocked = (not sparse and self.X.nbytes > HV_BLOCKED_ABOVE) if blocked is None \
            else bool(blocked) and not sparse
        self._trial: _State | None = None      # last fun()
        self._point: _State | None = None      # last grad(): where hv() is taken
        self._pool = None
        self.n_fun = self.n_hv = 0

    @cached_property
    def n_pairs(self) -> int:
        """|P| (computed once: the labels are fixed)."""
        return count_pairs(self.y, self.query_ptr)

    def operations(self, w) -> dict[str, int]:
        """The counted operations of one f(w), ∇f(w) and ∇²f(w)d from a cold start (the
        documents in their stored order; :meth:`PairCounter.operations`): the sort's
        comparisons once, the sweeps' margin tests and level operations twice (the
        Hessian-vector product sums over the same sets at the same sort; the products with X,
        O(l n̄) for every method alike, are not counted).  ``"total"`` is their sum.  Nothing
        is evaluated: the objective's state and values are untouched."""
        z = matvec(self.X, w)
        one = PairCounter(self.y, self.query_ptr, self.counter.method).operations(z)
        ops = {"sort comparisons": one["sort comparisons"],
               "margin tests": 2 * one["margin tests"],
               "level operations": 2 * one["level operations"]}
        ops["total"] = sum(ops.values())
        return ops

    def _evaluate(self, w) -> _State:
        w = np.array(w, dtype=np.float64, copy=True)
        pc = self.counter
        if self._point is not None:          # warm start the sort from the current order
            pc.order[:] = self._point.order
        gpart = None
        if self.blocked:
            z, counts, gpart = self._evaluate_blocked(w)
        else:
            z = matvec(self.X, w)
            pc.sort(z)
            counts = pc.count()
        return _State(w, z, pc.order.copy(), counts, gpart)

    def fun(self, w) -> float:
        st = self._evaluate(w)
        self._trial = st
        self.n_fun += 1
        c = st.counts
        lsum = (c.l_plus + c.l_minus).astype(np.float64)
        ate = (c.l_minus - c.l_plus).astype(np.float64)
        ataxw = lsum * st.z - c.s_plus - c.s_minus
        loss = dot(st.z, ataxw - 2.0 * ate) + float(c.l_minus.sum())
        st.lsum = lsum
        return 0.5 * dot(st.w, st.w) + self.C * loss

    def grad(self, w) -> np.ndarray:
        st = self._trial
        if st is None or not np.array_equal(st.w, w):
            self.fun(w)
            st = self._trial
        self._point = st
        c = st.counts
        if self.blocked:                      # Xᵀu partials made with the counts (fun)
            return st.w + 2.0 * self.C * self._sum_partials(st.gpart)
        u = (c.l_plus + c.l_minus) * st.z - c.s_plus - c.s_minus - (c.l_minus - c.l_plus)
        return st.w + 2.0 * self.C * rmatvec(self.X, u)

    def hv(self, d) -> np.ndarray:
        st = self._point
        if st is None:
            raise RuntimeError("hv: call grad(w) first")
        self.n_hv += 1
        d = np.asarray(d, dtype=np.float64)
        if self.blocked:
            return self._hv_blocked(d, st)
        if self.method_id == _kernel.TREE and st.prep is None:
            self._prepare(st, [(0, self.query_ptr.shape[0] - 1)])
        xd = matvec(self.X, d)
        sp, sm, u = self._hv_buffers()
        # α^± at the point's sort (saved above), then u = (l^+ + l^-)∘Xd − α^+ − α^-
        self._hv_vector(st, xd, 0, self.query_ptr.shape[0] - 1, sp, sm, u,
                        self.counter._wc, self.counter._ws)
        return d + 2.0 * self.C * rmatvec(self.X, u)

    def _hv_vector(self, st, xd, q0, q1, sp, sm, u, wc, ws) -> None:
        """u of the Hessian-vector product for the queries q0:q1 (``xd`` and the outputs
        indexed from their first document).  The tree method replays the sweeps recorded at
        the point (:func:`hv_prepare`, done for these queries on first use); the others run
        the counting kernel.  The same α^± and u either way, bit for bit."""
        pc = self.counter
        if self.method_id != _kernel.TREE:
            _check_status(_kernel.hv_range(self.method_id, st.z, xd, pc.level, pc.n_levels,
                                           self.query_ptr, st.order, st.lsum_f64(), q0, q1,
                                           sp, sm, u, wc, ws), "hv_range")
            return
        if st.prep is None:
            raise RuntimeError("hv: the point's sweeps are not prepared")
        lev, up, down = st.prep
        _check_status(_kernel.hv_range_prepared(xd, pc.n_levels, self.query_ptr, st.order, lev,
                                                up, down, st.lsum_f64(), q0, q1, sp, sm, u,
                                                ws), "hv_range_prepared")

    def _prepare(self, st, ranges) -> None:
        """:func:`hv_prepare` at ``st`` for each (q0, q1) of ``ranges`` (tree method)."""
        if st.prep is None:
            n = self.counter.n
            st.prep = (np.empty(n, np.int32), np.empty(n, np.int64), np.empty(n, np.int64))
        pc = self.counter
        for q0, q1 in ranges:
            _check_status(_kernel.hv_prepare(st.z, pc.level, pc.n_levels, self.query_ptr,
                                             st.order, q0, q1, *st.prep), "hv_prepare")

    def _hv_buffers(self):
        if not hasattr(self, "_hvbuf"):
            n = self.counter.n
            self._hvbuf = (np.empty(n), np.empty(n), np.empty(n))
        return self._hvbuf

    # --- the blocked path ----------------------------------------------------------------

    @cached_property
    def _blocks(self):
        """Row blocks ``(a, b, qa, qb)`` of whole queries, about :data:`HV_BLOCK_BYTES` of X
        each, in row order (None unblocked).  They depend on X's shape and the query offsets
        only, never on ``threads``."""
        if not self.blocked:
            return None
        X = self.X
        qp = self.query_ptr
        rows = max(1, HV_BLOCK_BYTES // max(1, X.shape[1] * X.itemsize))
        cuts = np.unique(np.searchsorted(qp, np.arange(rows, qp[-1], rows), side="left"))
        qcuts = np.unique(np.r_[0, cuts, qp.shape[0] - 1])
        return [(int(qp[qa]), int(qp[qb]), qa, qb)
                for qa, qb in zip(qcuts[:-1].tolist(), qcuts[1:].tolist())]

    @cached_property
    def _workers(self):
        """Per thread: its blocks (a contiguous share, by rows) and its own workspaces."""
        blocks = self._blocks
        T = max(1, min(self.threads, len(blocks)))
        rows = np.array([b - a for a, b, _, _ in blocks] or [0], dtype=np.float64)
        share = np.searchsorted(np.cumsum(rows) / max(rows.sum(), 1.0) * T, np.arange(1, T),
                                side="left") + 1
        bounds = np.r_[0, share, len(blocks)].astype(int)
        kmax = self.counter._wc.shape[0]
        rmax = int(max(rows)) if len(blocks) else 0
        return [{"ids": range(int(lo), int(hi)), "wc": np.zeros(kmax, np.int64),
                 "ws": np.zeros(kmax), "xd": np.empty(rmax), "sp": np.empty(rmax),
                 "sm": np.empty(rmax), "u": np.empty(rmax)}
                for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo or not blocks]

    def _partials(self) -> np.ndarray:
        if not hasattr(self, "_P"):
            self._P = np.empty((len(self._blocks), self.n_features))
        return self._P

    def _run(self, job) -> list:
        """``job(worker)`` for every worker, the first in this thread; their results."""
        workers = self._workers
        if len(workers) == 1:
            return [job(workers[0])]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(len(workers) - 1,
                                            thread_name_prefix="ranksvm-block")
        futures = [self._pool.submit(job, wk) for wk in workers[1:]]
        first = job(workers[0])
        return [first] + [f.result() for f in futures]

    def close(self) -> None:
        """Stop the worker threads (they are started again if needed)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _sum_partials(self, P) -> np.ndarray:
        acc = np.empty(self.n_features)
        _check_status(_kernel.sum_rows(P, acc), "sum_rows")
        return acc

    def _evaluate_blocked(self, w):
        """Xw, each query's sort and the counts, block by block (the sort warm-started from
        ``counter.order``), and, while the block's rows are in cache, its share of the
        gradient's Xᵀu (u needs only the block's own queries' counts): ∇f at an accepted
        point then costs no further pass over X.  Returns ``(z, counts, partials)``."""
        pc, X, qp = self.counter, self.X, self.query_ptr
        n = pc.n
        z = np.empty(n)
        c = Counts(np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n), np.empty(n), None)
        mid = self.method_id
        P = np.empty((len(self._blocks), self.n_features))
        w = np.ascontiguousarray(w)            # X is C-contiguous float64 (as_matrix)
        table = self._block_table

        def job(wk) -> int:                    # one kernel call per thread, query by query
            t = _kernel.fun_blocks_fused(
                mid, X, w, pc.level, pc.n_levels, qp, pc.order, pc._buf, table,
                wk["ids"].start, wk["ids"].stop, z, c.l_plus, c.l_minus, c.s_plus,
                c.s_minus, wk["wc"], wk["ws"], P)
            _check_status(t, "fun_blocks_fused")
            return t

        totals = self._run(job)
        if not np.all(np.isfinite(z)):
            pc.sort(z)                           # raises, naming the document and query
        c.n_violations = int(sum(totals))
        return z, c, P

    @cached_property
    def _block_table(self) -> np.ndarray:
        """The blocks as an int64 array of rows ``(a, b, qa, qb)`` (for the fused kernel)."""
        return np.array(self._blocks, dtype=np.int64).reshape(-1, 4)

    def _hv_blocked(self, d: np.ndarray, st: _State) -> np.ndarray:
        """∇²f(w)d, one block of whole queries at a time: Xd, the sums α_i^± and the block's
        share of Xᵀu are computed while its rows are in cache, so X is read once per product
        instead of twice (the sums are the same; Xᵀu is summed block by block, which changes
        only its rounding).  The tree method does it query by query in one kernel call per
        thread (:func:`hv_blocks_fused`: no Python, hence no GIL, between blocks)."""
        X, blocks, P = self.X, self._blocks, self._partials()
        lsum = st.lsum_f64()
        if self.method_id == _kernel.TREE and st.prep is None:
            n = self.counter.n
            st.prep = (np.empty(n, np.int32), np.empty(n, np.int64), np.empty(n, np.int64))
            self._run(lambda wk: self._prepare(st, [blocks[i][2:] for i in wk["ids"]]))
        if self.method_id == _kernel.TREE:          # X is C-contiguous float64 (as_matrix)
            d = np.ascontiguousarray(d, dtype=np.float64)
            pc, table = self.counter, self._block_table
            lev, up, down = st.prep
            self._run(lambda wk: _check_status(_kernel.hv_blocks_fused(
                X, d, pc.n_levels, self.query_ptr, st.order, lev, up, down, lsum, table,
                wk["ids"].start, wk["ids"].stop, wk["xd"], wk["sp"], wk["sm"], wk["ws"], P),
                "hv_blocks_fused"))
            return d + 2.0 * self.C * self._sum_partials(P)

        def job(wk):
            for i in wk["ids"]:
                a, b, qa, qb = blocks[i]
                Xb = X[a:b]
                xd = wk["xd"][:b - a]
                xd[:] = Xb @ d
                u = wk["u"][:b - a]
                self._hv_vector(st, xd, qa, qb, wk["sp"], wk["sm"], u, wk["wc"], wk["ws"])
                P[i] = Xb.T @ u

        self._run(job)
        return d + 2.0 * self.C * self._sum_partials(P)

    # --- the diagonal preconditioner (TRON with precondition=True) -------------------------

    def _row_blocks(self):
        """Row blocks of whole queries for the preconditioner's passes: the fit's own blocks
        (and threads) when blocked, else blocks of about 8 MiB of X."""
        if self.blocked:
            return self._blocks
        qp = self.query_ptr
        rows = max(1, (8 << 20) // max(1, self.n_features * 8))
        cuts = np.unique(np.r_[0, np.searchsorted(qp, np.arange(rows, qp[-1], rows)),
                               qp.shape[0] - 1])
        return [(int(qp[qa]), int(qp[qb]), int(qa), int(qb))
                for qa, qb in zip(cuts[:-1].tolist(), cuts[1:].tolist()) if qb > qa]

    def _over_blocks(self, job) -> None:
        """``job(i)`` for every block of :meth:`_row_blocks` (shared out among the fit's
        threads when blocked; each block's result has its own slot, so the thread count
        changes nothing)."""
        blocks = self._row_blocks()
        if self.blocked:
            self._run(lambda wk: [job(i) for i in wk["ids"]])
        else:
            for i in range(len(blocks)):
                job(i)

    @cached_property
    def _query_means(self) -> np.ndarray:
        """Each query's mean document (Q × d, dense X): pairs are within a query, so
        centring each query leaves every difference x_i − x_j unchanged."""
        qp = self.query_ptr
        out = np.empty((qp.shape[0] - 1, self.n_features))
        blocks = self._row_blocks()

        def job(i):
            a, b, qa, qb = blocks[i]
            out[qa:qb] = np.add.reduceat(self.X[a:b], qp[qa:qb] - a, axis=0)
        self._over_blocks(job)
        return out / np.maximum(np.diff(qp), 1).astype(np.float64)[:, None]

    def hessian_diagonal(self) -> np.ndarray:
        """An estimate of diag ∇²f(w) at the point of the last :meth:`grad`, for TRON's
        preconditioner (``RankSVM(solver="pcg-tron")``).  Exactly, ∇²f = I + 2C XᵀAX with
        A = Σ_{active pairs} (e_i − e_j)(e_i − e_j)ᵀ (active: 1 − wᵀ(x_i − x_j) > 0), whose
        diagonal Σ_pairs (x_ik − x_jk)² costs d products with A.  With x̃ = x − (query
        mean), which leaves the differences unchanged, it is Σ_i (l_i^+ + l_i^-) x̃_ik² −
        2 Σ_pairs x̃_ik x̃_jk; the estimate keeps the first sum (A's diagonal: the counts at
        the point) and drops the cross sum, small for centred features (a query whose pairs
        are all active: (l − 1) Σ x̃² against the exact l Σ x̃²).  One pass over X (in the
        fit's blocks and threads when blocked; the same numbers for any thread count)."""
        st = self._point
        if st is None:
            raise RuntimeError("hessian_diagonal: call grad(w) first")
        deg = st.lsum_f64()
        qp = self.query_ptr
        if hasattr(self.X, "tocsr"):                  # sparse: expanded, X stays sparse
            import scipy.sparse as sp
            Q, n = qp.shape[0] - 1, int(qp[-1])
            qid = np.repeat(np.arange(Q), np.diff(qp))
            size = np.maximum(np.diff(qp), 1).astype(np.float64)
            mu = (sp.csr_matrix((np.ones(n), (qid, np.arange(n))), shape=(Q, n))
                  @ self.X).toarray() / size[:, None]
            sq = np.asarray(self.X.multiply(self.X).T @ deg).ravel()
            Bq = (sp.csr_matrix((deg, (qid, np.arange(n))), shape=(Q, n)) @ self.X).toarray()
            Lq = np.bincount(qid, deg, minlength=Q)
            diag = np.maximum(sq - 2.0 * np.einsum("qd,qd->d", mu, Bq) + (mu * mu).T @ Lq, 0.0)
            return 1.0 + 2.0 * self.C * diag
        mu = self._query_means
        blocks = self._row_blocks()
        P = np.empty((len(blocks), self.n_features))

        def job(i):
            a, b, qa, qb = blocks[i]
            D = self.X[a:b] - np.repeat(mu[qa:qb], np.diff(qp[qa:qb + 1]), axis=0)
            D *= D
            P[i] = deg[a:b] @ D
        self._over_blocks(job)
        return 1.0 + 2.0 * self.C * P.sum(axis=0)

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

    ``threads``: threads of one fit on a large dense X (see :class:`L2RankSVMObjective`:
    fixed blocks of whole queries, the same numbers for every thread count); 1 inside a
    process pool, the number of cores for a run alone.

    ``solver``: ``"tron"`` (the paper's TRON, default; every reproduction uses it) or
    ``"pcg-tron"`` (beyond the paper: TRON with diagonally preconditioned CG, Hsia, Chiang &
    Lin 2018, the diagonal estimated by :meth:`L2RankSVMObjective.hessian_diagonal` and mixed
    with the identity by ``pcg_mix``; see :mod:`repro.rankers.tron`): the same stopping rule,
    usually fewer Hessian-vector products.
    """

    def __init__(self, C: float = 1.0, eps: float = 1e-3, method: str = "tree",
                 max_iter: int = 1000, callback=None, threads: int = 1, solver: str = "tron",
                 pcg_mix: float = 0.01):
        self.C, self.eps, self.method, self.max_iter = C, eps, method, max_iter
        self.callback = callback
        self.threads = threads
        self.solver, self.pcg_mix = solver, pcg_mix

    def _check_params(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {self.method!r}")
        if not self.eps > 0:
            raise ValueError(f"eps must be positive, got {self.eps}")
        if not (self.C > 0 and np.isfinite(self.C)):
            raise ValueError(f"C must be positive and finite, got {self.C}")
        check_threads(self.threads)
        if self.solver not in SOLVERS:
            raise ValueError(f"solver must be one of {SOLVERS}, got {self.solver!r}")
        if not 0.0 <= float(self.pcg_mix) <= 1.0:
            raise ValueError(f"pcg_mix must be in [0, 1], got {self.pcg_mix!r}")

    def _solver_options(self) -> dict:
        """The keyword arguments of :func:`tron` for ``solver`` (none for the paper's)."""
        if self.solver == "pcg-tron":
            return {"precondition": True, "pcg_mix": float(self.pcg_mix)}
        return {}

    def objective(self, X, y, qid) -> L2RankSVMObjective:
        """The problem object for data given as (X, y, qid) in any document order."""
        self._check_params()
        X = as_matrix(X)
        y, qid = self.check_Xy(X, y, qid)
        order, query_ptr, _ = group_by_query(qid)
        if not np.array_equal(order, np.arange(order.shape[0])):
            X = X[order]
            y = y[order]
        return L2RankSVMObjective(X, y, query_ptr, self.C, self.method, self.threads)

    def _fit_grouped(self, X, y, query_ptr, w0=None) -> "RankSVM":
        self._check_params()
        obj = L2RankSVMObjective(X, y, query_ptr, self.C, self.method, self.threads)
        try:
            self.result_: TronResult = tron(obj, n=obj.n_features, w0=w0, eps=self.eps,
                                            max_iter=self.max_iter, callback=self.callback,
                                            **self._solver_options())
        finally:
            obj.close()
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

    def operations(self, w) -> dict[str, int]:
        """The pairs one f(w), ∇f(w) and ∇²f(w)d visit: every pair for f, the pairs inside the
        margin for ∇f and again for ∇²f·d (``"pair visits"``, also ``"total"``).  Counted from
        the margins at ``w``; the objective's state is untouched."""
        z = self.X @ np.asarray(w, dtype=np.float64)
        active = int(np.count_nonzero(1.0 - z[self.H] + z[self.L] > 0))
        visits = self.n_pairs + 2 * active
        return {"pair visits": visits, "total": visits}

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
