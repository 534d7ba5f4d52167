"""Cutting-plane (bundle) linear RankSVM with L1 loss — the TreeRankSVM baseline of Lee & Lin
(2014), supplement Sec. III (Airola, Pahikkala & Salakoski 2011, "Training linear ranking SVMs
in linearithmic time using red-black trees").

TreeRankSVM solves problem (2) of Lee & Lin,

    min_w ½ wᵀw + C Σ_{(i,j)∈P} max(0, 1 − wᵀ(x_i − x_j)),

written as the regularised risk J(w) = λ/2 ‖w‖² + R(w) with R(w) = (1/p) Σ_P hinge and
λ = 1/(C p) (the authors' scripts pass ``regparam = 1/(C · num_pairs)``), by the bundle method
BMRM (Teo et al. 2010) in its 1-slack form: at iterate w_t a cutting plane
R(w) ≥ a_tᵀw + b_t is added, a_t ∈ ∂R(w_t), b_t = R(w_t) − a_tᵀw_t, and

    w_{t+1} = argmin_w λ/2 ‖w‖² + max_{i ≤ t} (a_iᵀw + b_i),

solved in its dual over the simplex, β ∈ Δ_t: max bᵀβ − (1/2λ) ‖Aβ‖², w = −Aβ/λ.  The
subgradient and the risk come from the same counting as Tree-TRON (:mod:`.pair_counting`):
with z = Xw, R(w) = (1/p) Σ_i [l_i^- + z_i (l_i^+ − l_i^-)] and a = (1/p) Xᵀ(l^+ − l^-), in
O(l log l) per iteration without forming pairs (Airola et al. use red-black trees to the same
end).  It stops when the gap min_{i≤t} J(w_i) − J_t(w_{t+1}) ≤ ``eps`` (on the scale of J,
i.e. of an average pair loss) or after ``max_iter`` iterations.

The reduced dual QP is solved by a primal-dual interior-point method (TreeRankSVM called
cvxopt's, also an interior-point QP solver) to a complementarity gap of ``eps``/100.  Planes
whose dual weight has stayed below ``1e-8`` for ``prune_after`` consecutive iterations (50)
are dropped from the bundle, as cutting-plane codes (SVMperf, BMRM) do to keep the QP small;
a dropped plane is still a valid lower bound, so the reported gap stays an upper bound of
J(w_best) − min J.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

from ..errors import warn_at_limit
from .base import LinearRanker, as_matrix
from .progress import SolverResult, SolverTrace
from .pair_counting import METHODS, PairCounter, count_pairs


def simplex_qp(Q: np.ndarray, b: np.ndarray, tol: float = 1e-10,
               max_iter: int = 200) -> tuple[np.ndarray, float, int]:
    """Maximise bᵀβ − ½ βᵀQβ over the simplex {β ≥ 0, Σβ = 1} (Q symmetric PSD) by a
    primal-dual interior-point method (Mehrotra predictor-corrector; each Newton system by a
    Cholesky factorisation of Q + diag(s/β) and a Schur complement for the equality).

    Returns ``(beta, value, iterations)``; ``beta`` is feasible, so ``value`` is a lower bound
    of the maximum, within about ``tol`` (= βᵀs, the complementarity gap) of it."""
    t = b.shape[0]
    c = -np.asarray(b, dtype=np.float64)
    e = np.ones(t)
    beta = e / t
    g = Q @ beta + c
    nu = float(g.min()) - 1.0
    s = g - nu
    scale = 1.0 + float(np.abs(Q).max()) + float(np.abs(c).max())
    it = 0
    for it in range(1, max_iter + 1):
        rd = Q @ beta + c - nu * e - s
        gap = float(beta @ s)
        if gap <= tol and float(np.abs(rd).max()) <= 1e-11 * scale:
            break
        mu = gap / t
        M = Q + np.diag(s / beta)
        M[np.diag_indices(t)] += 1e-15 * scale
        F = sla.cho_factor(M, check_finite=False)
        Me = sla.cho_solve(F, e, check_finite=False)
        eMe = float(e @ Me)
        rp = float(beta.sum()) - 1.0

        def newton(rc):
            Mh = sla.cho_solve(F, -rd - rc / beta, check_finite=False)
            dnu = (-rp - float(e @ Mh)) / eMe
            db = Mh + dnu * Me
            return db, dnu, (-rc - s * db) / beta

        def max_step(db, ds):
            a = 1.0
            for x, dx in ((beta, db), (s, ds)):
                neg = dx < 0
                if neg.any():
                    a = min(a, float(np.min(-x[neg] / dx[neg])))
            return a

        db, dnu, ds = newton(beta * s)                      # predictor (affine scaling)
        a = max_step(db, ds)
        mu_aff = float((beta + a * db) @ (s + a * ds)) / t
        sigma = (mu_aff / mu) ** 3 if mu > 0 else 0.0
        db, dnu, ds = newton(beta * s + db * ds - sigma * mu)  # corrector
        a = min(1.0, 0.99 * max_step(db, ds))
        beta = beta + a * db
        s = s + a * ds
        nu = nu + a * dnu
    else:
        warn_at_limit("the simplex QP's interior-point method", "max_iter", it)
    beta = np.maximum(beta, 0.0)
    beta /= beta.sum()
    return beta, float(b @ beta - 0.5 * beta @ (Q @ beta)), it


@dataclass(kw_only=True)
class BundleResult(SolverResult):
    """``f``: problem (2) at w; ``gap``: the final gap (scale of J = problem (2) / (C p))."""
    gap: float


class L1RankRisk:
    """R(w) = (1/p) Σ_P max(0, 1 − wᵀ(x_i − x_j)) and a subgradient, by pair counting."""

    def __init__(self, X, y, query_ptr, method: str = "tree"):
        self.X = as_matrix(X)
        self.counter = PairCounter(y, query_ptr, method)
        self.n_pairs = count_pairs(y, self.counter.query_ptr)

    def risk_and_subgradient(self, w) -> tuple[float, np.ndarray, float]:
        """``(R(w), a, hinge_sum)`` with a ∈ ∂R(w)."""
        z = np.ascontiguousarray(self.X @ w)
        self.counter.sort(z)
        c = self.counter.count()
        lp, lm = c.l_plus, c.l_minus
        hinge = float(lm.sum()) + float(z @ (lp - lm))
        p = max(self.n_pairs, 1)
        a = np.asarray(self.X.T @ (lp - lm).astype(np.float64)).ravel() / p
        return hinge / p, a, hinge


def bundle_method(risk: L1RankRisk, C: float, eps: float = 1e-6, max_iter: int = 1000,
                  callback=None, keep_history: bool = True,
                  prune_after: int = 50) -> BundleResult:
    """BMRM on J(w) = λ/2‖w‖² + R(w), λ = 1/(C p).  ``callback(info)`` after each iteration
    (``iter``, ``f`` = problem (2) at the new iterate, ``gap``, ``n_planes``, ``w``), and once
    at w = 0 (iteration 0)."""
    p = max(risk.n_pairs, 1)
    lam = 1.0 / (C * p)
    n = risk.X.shape[1]
    w = np.zeros(n)
    planes: list[np.ndarray] = []
    offsets: list[float] = []
    idle: list[int] = []
    best = math.inf
    trace = SolverTrace(callback, keep_history)
    status = "max_iter"
    gap = math.inf
    R, a, hinge = risk.risk_and_subgradient(w)

    def report(it, f, gap, w):
        trace(it, w, f=f, gap=gap, n_planes=len(planes))

    f = 0.5 * float(w @ w) + C * hinge
    report(0, f, gap, w)
    it = 0
    for it in range(1, max_iter + 1):
        best = min(best, 0.5 * lam * float(w @ w) + R)
        planes.append(a)                             # R(v) ≥ aᵀv + R(w) − aᵀw
        offsets.append(R - float(a @ w))
        idle.append(0)
        A = np.column_stack(planes)
        beta, dual, _ = simplex_qp((A.T @ A) / lam, np.array(offsets), tol=eps / 100.0)
        w = -(A @ beta) / lam
        gap = best - dual
        idle = [0 if bi > 1e-8 else k + 1 for bi, k in zip(beta, idle)]
        keep = [i for i, k in enumerate(idle) if k < prune_after]
        if len(keep) < len(planes):
            planes = [planes[i] for i in keep]
            offsets = [offsets[i] for i in keep]
            idle = [idle[i] for i in keep]
        R, a, hinge = risk.risk_and_subgradient(w)
        f = 0.5 * float(w @ w) + C * hinge
        report(it, f, gap, w)
        if gap <= eps:
            status = "converged"
            break
    warn_at_limit("BMRM (cutting plane)", status, it, f"gap {gap:.3g} > eps = {eps:g}")
    return BundleResult(w=w, f=f, n_iter=it, gap=gap, status=status,
                        seconds=trace.seconds, history=trace.history)


class CuttingPlaneRankSVM(LinearRanker):
    """L1-loss linear RankSVM (problem (2)) by the 1-slack bundle method of TreeRankSVM.

    After ``fit``: ``coef_`` (w), ``result_`` (:class:`BundleResult`), ``n_pairs_``."""

    def __init__(self, C: float = 1.0, eps: float = 1e-6, max_iter: int = 1000,
                 method: str = "tree", callback=None):
        self.C, self.eps, self.max_iter, self.method = C, eps, max_iter, method
        self.callback = callback

    def _fit_grouped(self, X, y, query_ptr) -> "CuttingPlaneRankSVM":
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {self.method!r}")
        if not (self.C > 0 and math.isfinite(self.C)):
            raise ValueError(f"C must be positive and finite, got {self.C}")
        risk = L1RankRisk(as_matrix(X), y, query_ptr, self.method)
        self.result_ = bundle_method(risk, self.C, self.eps, self.max_iter, self.callback)
        self.coef_ = self.result_.w
        self.n_pairs_ = risk.n_pairs
        return self

