"""n-slack structural SVM with column generation (Le & Smola 2007, Algorithm 1/2, Sec. 2.4;
Tsochantaridis et al. 2005), for rankers whose structured output is a query's labelling.

Problem (5)/(27), linear kernel, one slack per query i:

    min_{w,ξ} ½‖w‖² + C Σ_i ξ_i   s.t.  w·ψ_i(z) ≥ Δ_i(z) − ξ_i,  ξ_i ≥ 0,  for every z,

with ψ_i(z) = Φ(x_i, z_i) − Φ(x_i, z) (the paper's Φ(x_i, z) in Algorithm 2 read as this
difference, and its violation test reading Δ(y_i, z*)).  An *oracle* gives, for query i and
scores g = X_i w, the most violated z (8) as ``(coef, Δ)`` with ψ = X_iᵀ coef.

Algorithm 2, as implemented by :func:`n_slack`: S_i = ∅, w = 0; repeat a pass over the
queries i = 1..m: z* from the oracle at the current w; ξ_i = max(0, max_{z∈S_i} (Δ − w·ψ));
if Δ(z*) − w·ψ(z*) > ξ_i + ε, add z* to S_i and re-optimise the dual (7) over α_i (block i,
SMO to a KKT violation ≤ ``qp_tol``).  At the end of every pass that added a constraint the
dual over all working sets is solved until its duality gap ≤ ``qp_tol``·C·m (the gap on the
scale of an average loss, like ε): warm-started SMO sweeps over the blocks (10 at most),
then, if the gap is still larger, an interior-point method (:func:`interior_point_qp`).
Stop after a pass that added nothing.  At the stop every constraint (not only the working
sets') holds within ε at w, and the working-set QP is solved to the stated gap.  (Updating
α_i alone after each addition, without the full solve, needed 5–10 times more passes on the
UCI sets.)  Queries whose loss is identically 0 (one relevance level; the oracle says
which) have no constraint: for them any z is a minimiser of Δ, and choosing z_i as the one w
ranks first makes ξ_i = 0 (Lemma 1 with z_0 = z_i).

The pass over the queries runs in the ``nslack`` kernel (Python only for the oracle, the
products X_i w and coefᵀX_i, an added constraint's Gram row and the block solve); it
computes ξ_i and w·ψ by sequential sums (BLAS before: the last bits of those values moved,
which can change a decision only where a violation is within rounding of ε).

Counters reported (Table 2 of the paper): ``n_sv`` (constraints with α > 0 that are tight,
over all queries; :meth:`WorkingSets.n_sv`),
``n_iter`` (passes over the queries, the last one included), the seconds in the oracle, in its
kernel, and in the QP.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .._kernels import nslack as _nslack
from .._kernels import structsvm as _kernel
from ..errors import DataError, check_status, warn_at_limit
from .base import Ranker, dense_matrix, expand_grid
from .progress import SolverResult, SolverTrace


@dataclass(kw_only=True)
class StructResult(SolverResult):
    """``gap``: duality gap of the working-set QP at the stop (problem (5) scale), ``gap_scaled``
    = gap / (C m); ``max_violation``: max_i (H_i(z*) − ξ_i) in the last pass (≤ ε when
    converged); ``xi``: slacks per query (working sets)."""
    gap: float
    gap_scaled: float
    max_violation: float
    n_constraints: int
    n_sv: int
    n_oracle: int
    n_qp_steps: int
    seconds_oracle: float
    seconds_kernel: float
    seconds_qp: float
    n_active: int
    xi: np.ndarray = field(default_factory=lambda: np.zeros(0))
    n_augmented: int = 0        # the oracle's counted operations (``oracle.augmentations``)

    @property
    def qp_share(self) -> float:
        """Share of the training time spent in the QP (Table 2's "% in QP" / 100)."""
        return self.seconds_qp / self.seconds if self.seconds > 0 else 0.0


class WorkingSets:
    """S_i for every query: ψ (m × cap × d), their Gram blocks, Δ and α, grown on demand."""

    def __init__(self, m: int, d: int, cap: int = 8):
        self.m, self.d, self.cap = m, d, cap
        self.Psi = np.zeros((m, cap, d))
        self.G = np.zeros((m, cap, cap))
        self.delta = np.zeros((m, cap))
        self.alpha = np.zeros((m, cap))
        self.counts = np.zeros(m, dtype=np.int64)

    def _grow(self) -> None:
        cap = 2 * self.cap
        for name in ("Psi", "G", "delta", "alpha"):
            old = getattr(self, name)
            shape = (self.m, cap) + ((self.d,) if name == "Psi" else (cap,) if name == "G" else ())
            new = np.zeros(shape)
            new[(slice(None), slice(0, self.cap)) + ((slice(None),) if name == "Psi" else
                                                      (slice(0, self.cap),) if name == "G"
                                                      else ())] = old
            setattr(self, name, new)
        self.cap = cap

    def add(self, i: int, psi: np.ndarray, delta: float) -> None:
        k = int(self.counts[i])
        if k == self.cap:
            self._grow()
        self.Psi[i, k] = psi
        gk = self.Psi[i, :k + 1] @ psi
        self.G[i, k, :k + 1] = gk
        self.G[i, :k + 1, k] = gk
        self.delta[i, k] = delta
        self.alpha[i, k] = 0.0
        self.counts[i] = k + 1

    def slack(self, i: int, w: np.ndarray) -> float:
        k = int(self.counts[i])
        if k == 0:
            return 0.0
        return max(0.0, float(np.max(self.delta[i, :k] - self.Psi[i, :k] @ w)))

    def shift(self, i: int, d: np.ndarray) -> None:
        """Add ``d`` to every ψ of block i (a new Φ(x_i, z_i)), and refresh its Gram block."""
        k = int(self.counts[i])
        if k:
            self.Psi[i, :k] += d
            self.G[i, :k, :k] = self.Psi[i, :k] @ self.Psi[i, :k].T

    def copy_scaled(self, factor: float) -> "WorkingSets":
        """A copy with α multiplied by ``factor`` (≤ 1 keeps Σα ≤ C feasible for a smaller C)."""
        ws = WorkingSets.__new__(WorkingSets)
        ws.m, ws.d, ws.cap = self.m, self.d, self.cap
        ws.Psi, ws.G, ws.delta = self.Psi.copy(), self.G.copy(), self.delta.copy()
        ws.alpha = self.alpha * factor
        ws.counts = self.counts.copy()
        return ws

    def n_sv(self, w: np.ndarray, tol: float) -> int:
        """Support vectors: constraints with α > 0 that are tight in their block,
        Δ − w·ψ ≥ ξ_i − ``tol`` (complementary slackness at the tolerance the QP was solved
        to; an interior-point α is positive but tiny on the others)."""
        n = 0
        for i in range(self.m):
            k = int(self.counts[i])
            if k:
                h = self.delta[i, :k] - self.Psi[i, :k] @ w
                xi = max(0.0, float(h.max()))
                n += int(np.count_nonzero((self.alpha[i, :k] > 0) & (h >= xi - tol)))
        return n


def _certificate(Psi, delta, starts, alpha, C):
    """(gap, w) of a feasible α (the working-set duality gap, block terms summed); the
    constraints of a block are contiguous, block b starting at ``starts[b]``."""
    w = alpha @ Psi
    grad = delta - Psi @ w
    xi = np.maximum(np.maximum.reduceat(grad, starts), 0.0)
    return C * float(xi.sum()) - float(alpha @ grad), w


def _feasible(alpha, block, m, C):
    a = np.maximum(alpha, 0.0)
    tot = np.bincount(block, a, minlength=m)
    over = tot > C
    if over.any():
        a = a * np.where(over, C / np.where(over, tot, 1.0), 1.0)[block]
    return a


_LAPACK: dict = {}


def _lapack():
    """LAPACK's dpotrf and dpotrs, the routines ``scipy.linalg.cho_factor`` and ``cho_solve``
    call (looked up once, as they look them up): called directly, the same routine on the
    same arrays gives the same bits without the wrappers' per-call checks."""
    if not _LAPACK:
        import scipy.linalg as sla
        one = np.eye(1)
        _LAPACK["potrf"], _LAPACK["potrs"] = sla.get_lapack_funcs(("potrf", "potrs"), (one,))
    return _LAPACK["potrf"], _LAPACK["potrs"]


def _cho_factor(a):
    """``scipy.linalg.cho_factor(a, check_finite=False)[0]`` (upper factor)."""
    c, info = _lapack()[0](a, lower=0, overwrite_a=0, clean=0)
    if info > 0:
        raise np.linalg.LinAlgError(f"{info}-th leading minor of the array is not positive "
                                    f"definite")
    if info < 0:
        raise ValueError(f"illegal value in the {-info}-th argument of potrf")
    return c


def _cho_solve(c, b):
    """``scipy.linalg.cho_solve((c, False), b, check_finite=False)``."""
    x, info = _lapack()[1](c, b, lower=0, overwrite_b=0)
    if info != 0:
        raise ValueError(f"illegal value in {-info}th argument of internal potrs")
    return x


def _max_step(xs, dxs) -> float:
    """The largest t ≤ 1 keeping every x + t·dx ≥ 0 over the four pairs (x, dx) of ``xs`` and
    ``dxs``: ``t = min(t, float(np.min(-x[dx < 0] / dx[dx < 0])))`` for each pair with some
    dx < 0, from t = 1 (the ``structsvm`` kernel's ``max_step``, one call instead of some 30
    NumPy ones; a pair whose ratios include a NaN leaves t as ``min(t, nan)`` does)."""
    x0, x1, x2, x3 = (np.ascontiguousarray(x, dtype=np.float64) for x in xs)
    d0, d1, d2, d3 = (np.ascontiguousarray(x, dtype=np.float64) for x in dxs)
    t = _kernel.max_step(x0, d0, x1, d1, x2, d2, x3, d3)
    if t < 0.0:
        raise ValueError("interior point: iterate and direction of unequal lengths "
                         "(internal error)")
    return t


def interior_point_qp(Psi, delta, block, m, C, tol_gap, max_iter=60):
    """The working-set dual (7) by a primal-dual interior-point method (Mehrotra
    predictor-corrector), in minimisation form ½αᵀΨΨᵀα − Δᵀα, α ≥ 0, Bα + σ = C, σ ≥ 0
    (B: block indicators; the constraints of a block are contiguous).  The Newton system is
    reduced to the m block multipliers, with (ΨΨᵀ + D)⁻¹ applied by the Woodbury identity
    (rank d ≪ K): O(K d² + m² d + m³) per iteration.  Stops as soon as the projected iterate
    is a feasible α whose duality gap (the certificate of :func:`_certificate`) is ≤
    ``tol_gap``.  Returns ``(alpha, gap, iters)``."""
    K, d = Psi.shape
    starts = np.flatnonzero(np.concatenate(([True], block[1:] != block[:-1])))
    sizes = np.diff(np.append(starts, K)).astype(np.float64)
    al = C / (sizes[block] + 1.0)
    sg = C - np.add.reduceat(al, starts)
    za = np.ones(K)
    zs = np.ones(m)
    y = -zs.copy()
    n = K + m
    best = (None, np.inf)
    it = 0
    PsiT = Psi.T
    diag = np.diag_indices(d)
    for it in range(1, max_iter + 1):
        cand = _feasible(al, block, m, C)
        gap, w = _certificate(Psi, delta, starts, cand, C)
        if gap < best[1]:
            best = (cand, gap)
        if gap <= tol_gap:
            break
        rda = Psi @ (al @ Psi) - delta - y[block] - za
        rds = -y - zs
        rp = np.add.reduceat(al, starts) + sg - C
        mu = (al @ za + sg @ zs) / n
        Da, Ds = za / al, zs / sg
        Pt = Psi / Da[:, None]                                   # D⁻¹Ψ
        M = PsiT @ Pt
        M[diag] += 1.0
        U = np.add.reduceat(Pt, starts, axis=0)
        try:
            Mf = _cho_factor(M)
            S = np.diag(np.add.reduceat(1.0 / Da, starts) + 1.0 / Ds)
            S -= U @ _cho_solve(Mf, U.T)
            Sf = _cho_factor(S)
        except (np.linalg.LinAlgError, ValueError):
            break

        def winv(v):                                            # (ΨΨᵀ + D)⁻¹ v
            t = v / Da
            return t - Pt @ _cho_solve(Mf, PsiT @ t)

        def newton(rca, rcs):
            ra = -rda - rca / al
            rs = -rds - rcs / sg
            wa = winv(ra)
            rhs = -rp - np.add.reduceat(wa, starts) - rs / Ds
            dy = _cho_solve(Sf, rhs)
            da = wa + winv(dy[block])
            ds = (rs + dy) / Ds
            dza = -(rca + za * da) / al
            dzs = -(rcs + zs * ds) / sg
            return da, ds, dy, dza, dzs

        da, ds, dy, dza, dzs = newton(al * za, sg * zs)          # predictor
        t = _max_step((al, sg, za, zs), (da, ds, dza, dzs))
        mu_aff = ((al + t * da) @ (za + t * dza) + (sg + t * ds) @ (zs + t * dzs)) / n
        sig = (mu_aff / mu) ** 3
        da, ds, dy, dza, dzs = newton(al * za + da * dza - sig * mu,
                                      sg * zs + ds * dzs - sig * mu)   # corrector
        t = min(1.0, 0.995 * _max_step((al, sg, za, zs), (da, ds, dza, dzs)))
        al, sg, y, za, zs = al + t * da, sg + t * ds, y + t * dy, za + t * dza, zs + t * dzs
    return best[0], best[1], it


def solve_working_qp(ws: WorkingSets, C: float, w: np.ndarray, tol_gap: float,
                     max_sweeps: int = 100000) -> tuple[float, int]:
    """Dual (7) over all working sets until gap ≤ ``tol_gap`` (absolute); α and w updated in
    place.  The interior-point method (:func:`interior_point_qp`) does the work; SMO block
    sweeps (the kernel) finish the job if it stopped short of the tolerance.  Returns
    ``(gap, SMO steps)``."""
    total = int(ws.counts.sum())
    if total:                 # every constraint (i, p), p < counts[i], in order of (i, p)
        ii = np.repeat(np.arange(ws.m), ws.counts)
        pp = np.arange(total) - np.repeat(np.cumsum(ws.counts) - ws.counts, ws.counts)
        nonempty, block = np.unique(ii, return_inverse=True)
        Psi, delta = ws.Psi[ii, pp], ws.delta[ii, pp]
        alpha, gap, _ = interior_point_qp(Psi, delta, block, nonempty.size, float(C), tol_gap)
        if alpha is not None:
            ws.alpha[ii, pp] = alpha
    gap, steps = smo_sweeps(ws, C, w, tol_gap, max_sweeps)
    if gap > tol_gap:
        warn_at_limit("the working-set QP's SMO sweeps", "max_sweeps", max_sweeps,
                      f"gap {gap:.3g} > {tol_gap:.3g}")
    return gap, steps


def _check_qp_status(status: int) -> None:
    """The kernel's status (:func:`repro.errors.check_status`: -1 inconsistent working-set
    arrays, -2 out of memory)."""
    check_status(status, "structsvm.solve_qp")


def smo_sweeps(ws: WorkingSets, C: float, w: np.ndarray, tol_gap: float,
               sweeps: int) -> tuple[float, int]:
    """At most ``sweeps`` SMO sweeps over the blocks (the kernel), stopping early at gap ≤
    ``tol_gap``; α and w updated in place.  Returns ``(gap, SMO steps)``."""
    out = np.zeros(3)
    m_active = max(1, int(np.count_nonzero(ws.counts)))
    status = _kernel.solve_qp(ws.Psi, ws.G, ws.delta, ws.alpha, ws.counts, float(C), w,
                              float(tol_gap), float(tol_gap) / (2.0 * m_active * C),
                              int(sweeps), -1, out)
    _check_qp_status(status)
    return float(out[0]), int(out[2])


def solve_block(ws: WorkingSets, i: int, C: float, w: np.ndarray, tol: float) -> int:
    """Dual (7) over α_i only (SMO to a KKT violation ≤ ``tol``); w updated in place."""
    out = np.zeros(3)
    status = _kernel.solve_qp(ws.Psi, ws.G, ws.delta, ws.alpha, ws.counts, float(C), w,
                              0.0, float(tol), 0, int(i), out)
    _check_qp_status(status)
    return int(out[2])


def _slacks(ws: WorkingSets, w: np.ndarray) -> np.ndarray:
    """ξ_i of every query at w (the ``nslack`` kernel)."""
    out = np.empty(ws.m)
    if _nslack.slacks(ws.Psi, ws.delta, ws.counts, w, out) < 0:
        raise ValueError("n-slack slacks: inconsistent arrays (internal error)")
    return out


def n_slack(X: np.ndarray, query_ptr: np.ndarray, oracle, C: float, eps: float,
            qp_tol: float, max_iter: int = 1000, callback=None, keep_history: bool = True,
            warm: WorkingSets | None = None,
            sweeps_per_pass: int = 10) -> tuple[StructResult, WorkingSets]:
    """Algorithm 2 (see the module doc).  ``oracle.active[i]``: whether query i has a
    non-constant loss; ``oracle(i, g) -> (coef, Δ)``; ``oracle.kernel_seconds`` (optional):
    seconds spent in its kernel so far; ``oracle.augmentations`` (optional): the operations
    its kernel counted so far (DORM: augmenting paths).  ``warm``: working sets (with feasible α) to start
    from.  Returns the result and the final working sets."""
    query_ptr = np.ascontiguousarray(query_ptr, dtype=np.int64)
    m = query_ptr.shape[0] - 1
    d = X.shape[1]
    ws = warm if warm is not None else WorkingSets(m, d)
    active = np.ascontiguousarray(np.flatnonzero(oracle.active), dtype=np.int64)
    n_active = int(active.size)
    tol_gap = qp_tol * C * max(n_active, 1)
    trace = SolverTrace(callback, keep_history)
    t_qp = t_oracle = 0.0
    kernel0 = getattr(oracle, "kernel_seconds", 0.0)
    aug0 = getattr(oracle, "augmentations", 0)
    steps = 0
    w = np.zeros(d)
    gap = 0.0
    solved = not ws.counts.any()          # w = 0 solves an empty working set
    if warm is not None and ws.counts.any():
        t = time.perf_counter()
        gap, s = solve_working_qp(ws, C, w, tol_gap)
        t_qp += time.perf_counter() - t
        steps += s
        solved = True
    trace(0, w, f=0.5 * float(w @ w), gap=gap, n_constraints=int(ws.counts.sum()))
    status = "max_iter"
    it = 0
    n_oracle = 0
    max_viol = np.inf
    timers = {"qp": 0.0}

    def block(ws_, i, w_):                    # Algorithm 2's re-optimisation over α_i
        t = time.perf_counter()
        s = solve_block(ws_, i, C, w_, qp_tol)
        timers["qp"] += time.perf_counter() - t
        return s

    counters = np.zeros(5)
    for it in range(1, max_iter + 1):
        # the pass over the queries (the kernel's loop; the oracle and the products in numpy)
        timers["qp"] = 0.0
        if _nslack.run_pass(oracle, X, query_ptr, active, ws, w, float(eps), block,
                            counters) < 0:
            raise ValueError("n-slack pass: inconsistent arrays (internal error)")
        added, max_viol = int(counters[0]), float(counters[1])
        steps += int(counters[2])
        t_oracle += float(counters[3])
        n_oracle += int(counters[4])
        t_qp += timers["qp"]
        stop = False
        if added:              # the whole QP: warm-started SMO sweeps, else interior point
            t = time.perf_counter()
            gap, s = smo_sweeps(ws, C, w, tol_gap, sweeps_per_pass)
            if gap > tol_gap:
                gap, s2 = solve_working_qp(ws, C, w, tol_gap)
                s += s2
            t_qp += time.perf_counter() - t
            steps += s
            solved = gap <= tol_gap
        elif solved:
            stop = True
        else:                  # nothing added at this w: solve the whole QP, then check again
            t = time.perf_counter()
            gap, s = solve_working_qp(ws, C, w, tol_gap)
            t_qp += time.perf_counter() - t
            steps += s
            solved = True
        xi = _slacks(ws, w)
        f = 0.5 * float(w @ w) + C * float(xi.sum())
        trace(it, w, f=f, gap=gap, added=added, max_violation=max_viol,
              n_constraints=int(ws.counts.sum()))
        if stop:
            status = "converged"
            break
    xi = _slacks(ws, w)
    f = 0.5 * float(w @ w) + C * float(xi.sum())
    result = StructResult(
        w=w, f=f, n_iter=it, status=status, seconds=trace.seconds, history=trace.history,
        gap=gap, gap_scaled=gap / (C * max(n_active, 1)), max_violation=float(max_viol),
        n_constraints=int(ws.counts.sum()), n_sv=ws.n_sv(w, qp_tol), n_oracle=n_oracle,
        n_qp_steps=steps, seconds_oracle=t_oracle,
        seconds_kernel=getattr(oracle, "kernel_seconds", 0.0) - kernel0, seconds_qp=t_qp,
        n_augmented=getattr(oracle, "augmentations", 0) - aug0,
        n_active=n_active, xi=xi)
    return result, ws


#: the canonical orders last computed, most recent first, each with copies of its inputs: the
#: methods of a study fit the same training sets one after the other (a Table 1 fold fits
#: three structural rankers on the fold's training queries and on 5 inner splits of them, a
#: web-search fold a dozen on each training size), and the order is a function of the values
#: of X, y and the offsets alone.  At most ``_CANONICAL_KEEP`` entries and
#: ``_CANONICAL_BYTES`` of copied inputs (larger inputs are not remembered).
_CANONICAL_MEMO: list = []
_CANONICAL_KEEP = 8
_CANONICAL_BYTES = 64 << 20


def _same_arrays(a: tuple, b: tuple) -> bool:
    return all(x.shape == z.shape and x.dtype == z.dtype and np.array_equal(x, z)
               for x, z in zip(a, b))


def canonical_order(X: np.ndarray, y: np.ndarray, query_ptr):
    """:func:`_canonical_order`, remembered for the last few inputs (compared by value; the
    arrays returned are the caller's own)."""
    key = (np.asarray(X), np.asarray(y), np.asarray(query_ptr, dtype=np.int64))
    for k, (seen, out) in enumerate(_CANONICAL_MEMO):
        if _same_arrays(seen, key):
            _CANONICAL_MEMO.insert(0, _CANONICAL_MEMO.pop(k))
            return tuple(a.copy() for a in out)
    out = _canonical_order(*key)
    size = sum(a.nbytes for a in key)
    if size <= _CANONICAL_BYTES:
        _CANONICAL_MEMO.insert(0, (tuple(a.copy() for a in key), out))
        while (len(_CANONICAL_MEMO) > _CANONICAL_KEEP
               or sum(a.nbytes for e in _CANONICAL_MEMO for a in e[0]) > _CANONICAL_BYTES):
            _CANONICAL_MEMO.pop()
    return tuple(a.copy() for a in out)


def _canonical_order(X: np.ndarray, y: np.ndarray, query_ptr):
    """``(rows, query_ptr, queries)``: documents sorted within each query by label (descending), then by
    the features (lexicographically), and queries sorted by (size, first document's label and
    features, last document's), with the new offsets and the original index of each query.  Algorithm 2 visits queries in order and
    the oracles break ties among equal scores by document order (at w = 0 every score ties),
    so training in this order makes the fitted model a function of the set of queries, not of
    the order the documents or queries were given in (identical documents are
    interchangeable)."""
    qp = np.asarray(query_ptr, dtype=np.int64)
    sizes = np.diff(qp)
    qidx = np.repeat(np.arange(sizes.shape[0]), sizes)
    rows = np.lexsort([X[:, j] for j in range(X.shape[1] - 1, -1, -1)] + [-y, qidx])
    first, last = rows[qp[:-1]], rows[qp[1:] - 1]
    keys = ([X[last, j] for j in range(X.shape[1] - 1, -1, -1)] + [-y[last]]
            + [X[first, j] for j in range(X.shape[1] - 1, -1, -1)] + [-y[first], sizes])
    qorder = np.lexsort(keys)
    rows = np.concatenate([rows[qp[q]:qp[q + 1]] for q in qorder]) if qorder.size else rows
    return rows, np.concatenate([[0], np.cumsum(sizes[qorder])]).astype(np.int64), qorder


class StructuralRanker:
    """Mixin of the linear rankers trained by :func:`n_slack` (listed before
    :class:`~repro.rankers.base.Ranker` in the bases); subclasses give the oracle
    (``_oracle(y, query_ptr)``) and store ``C``, ``eps``, ``qp_tol``, ``max_iter``,
    ``callback``.  After ``fit``: ``coef_`` (w), ``result_`` (:class:`StructResult`),
    ``working_sets_`` (block i = query ``query_order_[i]`` of the input; ``result_.xi`` is in
    the input's query order).  Documents are put in :func:`canonical_order` within each query before
    training (the result does not depend on their input order).  :meth:`fit_grid` over C warm-starts each fit from the working sets
    (and α, feasible since C grows) of the next smaller C."""

    def _oracle(self, y, query_ptr):
        raise NotImplementedError

    def _check_struct_params(self) -> float:
        if not (isinstance(self.C, (int, float, np.floating)) and np.isfinite(self.C)
                and self.C > 0):
            raise ValueError(f"C must be positive and finite, got {self.C!r}")
        if not self.eps > 0:
            raise ValueError(f"eps must be positive, got {self.eps!r}")
        qp_tol = 0.1 * self.eps if self.qp_tol is None else self.qp_tol
        if not qp_tol > 0:
            raise ValueError(f"qp_tol must be positive, got {self.qp_tol!r}")
        if int(self.max_iter) < 1:
            raise ValueError(f"max_iter must be at least 1, got {self.max_iter!r}")
        return float(qp_tol)

    def _prepare(self, X, y, query_ptr) -> tuple:
        """``(X, y, query_ptr, query order, oracle)`` of a training set in canonical order:
        what every fit on it shares (the oracle depends on the loss parameters, not on C)."""
        X = dense_matrix(X)
        y = np.asarray(y, dtype=np.float64)
        canon, query_ptr, qorder = canonical_order(X, y, query_ptr)
        X, y = X[canon], y[canon]
        oracle = self._oracle(y, np.asarray(query_ptr))
        if not np.any(oracle.active):
            raise DataError(f"y: no query has a loss that depends on the ranking (e.g. two "
                            f"relevance levels) — nothing to learn for {type(self).__name__}")
        return X, y, np.asarray(query_ptr, dtype=np.int64), qorder, oracle

    def _fit_grouped(self, X, y, query_ptr, warm: WorkingSets | None = None,
                     prepared: tuple | None = None):
        """``prepared``: :meth:`_prepare` of this training set by a model with the same
        parameters apart from C (what :meth:`fit_grid` passes, so that the canonical order
        and the oracle are made once per grid, not once per C)."""
        qp_tol = self._check_struct_params()
        X, y, qp, qorder, oracle = (prepared if prepared is not None
                                    else self._prepare(X, y, query_ptr))
        self.result_, self.working_sets_ = n_slack(
            X, qp, oracle, float(self.C), float(self.eps), qp_tol, int(self.max_iter),
            self.callback, warm=warm)
        self.n_outer_ = 1
        # latent ideal orderings (CCCP): re-choose z_i as the ideal ordering the current w
        # prefers, shift the working sets to it and solve again, until no z_i changes
        while getattr(oracle, "latent", False) and self.n_outer_ < 20:
            changes = oracle.relabel(X @ self.result_.w)
            if not changes:
                break
            ws = self.working_sets_
            for q, dc in changes.items():
                ws.shift(q, dc @ X[qp[q]:qp[q + 1]])
            seconds, augmented = self.result_.seconds, self.result_.n_augmented
            self.result_, self.working_sets_ = n_slack(
                X, qp, oracle, float(self.C), float(self.eps), qp_tol, int(self.max_iter),
                self.callback, warm=ws)
            self.result_.seconds += seconds
            self.result_.n_augmented += augmented
            self.n_outer_ += 1
        warn_at_limit("the n-slack cutting plane", self.result_.status, self.result_.n_iter)
        xi = np.empty_like(self.result_.xi)
        xi[qorder] = self.result_.xi                       # back to the input query order
        self.result_.xi = xi
        self.query_order_ = qorder
        self.coef_ = self.result_.w
        self.n_features_ = X.shape[1]
        return self

    def fit_grid(self, data, grid):
        cands = expand_grid(grid)
        if any(set(c) - {"C"} for c in cands) or getattr(self, "ties", None) == "latent":
            yield from Ranker.fit_grid(self, data, cands)      # (latent z_i: no warm start)
            return
        self.check_Xy(data.X, data.y, np.zeros(data.n_docs))
        X = dense_matrix(data.X)
        fitted, ws, prepared = {}, None, None
        for i in sorted(range(len(cands)), key=lambda i: float(cands[i]["C"])):
            model = self.clone().set_params(**cands[i])
            warm = ws.copy_scaled(1.0) if ws is not None else None
            if prepared is None:          # the candidates differ in C only (checked above)
                prepared = model._prepare(X, data.y, data.query_ptr)
            model._fit_grouped(X, data.y, data.query_ptr, warm=warm, prepared=prepared)
            ws = model.working_sets_
            fitted[i] = model
        for i, c in enumerate(cands):
            yield c, fitted[i]
