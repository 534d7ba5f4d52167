"""SVM-MAP (Yue, Finley, Radlinski, Joachims, SIGIR 2007): a structural SVM whose loss is
Δ_AP = 1 − AP — the SVMMAP baseline of Dubey et al. (2009), Sec. 5.1.2.

Joint feature map (Yue et al. eq. 3), binary relevance within a query (good = label ≥
``relevance_threshold``): ψ(x_q, y) = (1/(n⁺n⁻)) Σ_gb y_gb (x_g − x_b) — φ_po with its scale.
Training problem, in the 1-slack form that SVMstruct 3.x solves (Joachims, Finley, Yu 2009;
same optimum as Yue et al.'s n-slack problem with C/n):

    min_w,ξ ½‖w‖² + C ξ   s.t. ∀(ȳ_1…ȳ_Q): (1/Q) Σ_q wᵀδψ_q(ȳ_q) ≥ (1/Q) Σ_q Δ_AP(ȳ_q) − ξ,

δψ_q(ȳ) = ψ(x_q, y_q) − ψ(x_q, ȳ), Q the queries with both classes.  Cutting planes: at w the
most violated ȳ_q of every query (below) gives the plane a = (1/Q) Σ_q δψ_q(ȳ_q),
b = (1/Q) Σ_q Δ(ȳ_q); the working-set dual, max_β Σ β_t b_t − ½‖Σ β_t a_t‖² over
{β ≥ 0, Σ β = C} (a zero plane stands for ξ ≥ 0), is solved with β = Cγ by
:func:`repro.rankers.cutting_plane.simplex_qp` (max γᵀb − ½ γᵀ(C AᵀA)γ over the simplex),
w = C Σ γ_t a_t.  Stop when the new plane is violated by at most ξ + ``eps`` (SVMstruct's -e,
default 0.001) or after ``max_iter`` planes.

Most violated constraint (Yue et al. Sec. 4.2, Algorithm 2): argmax_ȳ Δ_AP(ȳ) + wᵀψ(x_q, ȳ).
With the goods sorted by score s_1 ≥ … ≥ s_P and the bads t_1 ≥ … ≥ t_N, an optimal ȳ keeps
both orders and is an interleaving: bad j below k_j goods.  AP telescopes,
i/(i + c_i) = 1 + Σ_{j ≤ c_i} [i/(i+j) − i/(i+j−1)], c_i = #{j: k_j < i}, so the objective is
Σ_j f_j(k_j) + const with

    f_j(k) = −(1/P) Σ_{i>k} [i/(i+j) − i/(i+j−1)] + (1/(PN)) [Σ_{i≤k} (s_i − t_j) − Σ_{i>k} (s_i − t_j)]

and each bad's position is chosen independently (the increments f_j(k) − f_j(k−1) grow with
j, so the largest maximisers are non-decreasing in j and form a valid interleaving; derived,
as Yue et al. prove).  O(PN) per query.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import DataError, warn_at_limit
from .base import LinearRanker, dense_matrix
from .cutting_plane import simplex_qp
from .progress import SolverResult, SolverTrace


def most_violated_ap(s_good: np.ndarray, s_bad: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
    """The ranking maximising Δ_AP(ȳ) + wᵀψ(ȳ) for scores of the goods and bads of a query.

    Returns ``(wins_good, wins_bad, delta, value)``: the wins of ȳ (bads each good beats,
    goods each bad beats) in the input order, Δ_AP(ȳ) and Δ + wᵀψ(ȳ)."""
    s_good = np.asarray(s_good, dtype=np.float64)
    s_bad = np.asarray(s_bad, dtype=np.float64)
    P, N = s_good.shape[0], s_bad.shape[0]
    og = np.argsort(-s_good, kind="stable")
    ob = np.argsort(-s_bad, kind="stable")
    s, t = s_good[og], s_bad[ob]
    i = np.arange(1, P + 1, dtype=np.float64)[None, :]          # 1..P
    j = np.arange(1, N + 1, dtype=np.float64)[:, None]          # 1..N
    dap = i / (i + j) - i / (i + j - 1)                          # N × P, term of good i, bad j
    margin = s[None, :] - t[:, None]                             # s_i − t_j
    # f_j(k) for k = 0..P: tail sums over i > k
    tail_ap = np.concatenate([np.cumsum(dap[:, ::-1], axis=1)[:, ::-1], np.zeros((N, 1))], axis=1)
    head_m = np.concatenate([np.zeros((N, 1)), np.cumsum(margin, axis=1)], axis=1)
    tail_m = margin.sum(axis=1, keepdims=True) - head_m
    f = -tail_ap / P + (head_m - tail_m) / (P * N)
    # largest maximiser of each row (non-decreasing in j)
    k = P - np.argmax(f[:, ::-1], axis=1)
    wins_good = np.empty(P, dtype=np.int64)
    wins_bad = np.empty(N, dtype=np.int64)
    wins_good[og] = (k[None, :] >= np.arange(1, P + 1)[:, None]).sum(axis=1)
    wins_bad[ob] = P - k
    c = (k[None, :] < np.arange(1, P + 1)[:, None]).sum(axis=1)   # bads above good i
    ap = float(np.mean(np.arange(1, P + 1) / (np.arange(1, P + 1) + c)))
    psi = (float(((2 * wins_good - N) * s_good).sum()) + float(((2 * wins_bad - P) * s_bad).sum()))
    return wins_good, wins_bad, 1.0 - ap, 1.0 - ap + psi / (P * N)


@dataclass(kw_only=True)
class CuttingPlaneResult(SolverResult):
    """``xi``: the slack of the working set at w; ``violation``: of the last plane."""
    xi: float
    violation: float


class SVMMAP(LinearRanker):
    """Structural SVM for MAP (see the module docstring).  After ``fit``: ``coef_``,
    ``result_`` (:class:`CuttingPlaneResult`), ``n_queries_used_``."""

    def __init__(self, C: float = 1.0, eps: float = 1e-3, max_iter: int = 500,
                 relevance_threshold: float = 1.0, callback=None):
        self.C, self.eps, self.max_iter = C, eps, max_iter
        self.relevance_threshold, self.callback = relevance_threshold, callback

    def _fit_grouped(self, X, y, query_ptr) -> "SVMMAP":
        C = float(self.C)
        if not (C > 0 and math.isfinite(C)):
            raise DataError(f"C: must be positive and finite, got {self.C}")
        if not float(self.eps) > 0 or int(self.max_iter) < 1:
            raise DataError(f"eps must be > 0 and max_iter ≥ 1, got {self.eps}, {self.max_iter}")
        X = dense_matrix(X)
        good = np.asarray(y) >= float(self.relevance_threshold)
        queries = []
        for q in range(len(query_ptr) - 1):
            lo, hi = int(query_ptr[q]), int(query_ptr[q + 1])
            g = np.flatnonzero(good[lo:hi]) + lo
            b = np.flatnonzero(~good[lo:hi]) + lo
            if g.size and b.size:
                queries.append((g, b))
        if not queries:
            raise DataError(f"y: no query has both a good (label ≥ {self.relevance_threshold:g}) "
                            "and a bad document; nothing to learn from")
        Q = len(queries)
        n, d = X.shape
        trace = SolverTrace(self.callback)
        w = np.zeros(d)
        planes, offsets = [np.zeros(d)], [0.0]
        status, xi, viol = "max_iter", 0.0, math.inf
        it = 0
        for it in range(1, int(self.max_iter) + 1):
            S = X @ w
            coef = np.zeros(n)
            delta = 0.0
            for g, b in queries:
                wg, wb, dl, _ = most_violated_ap(S[g], S[b])
                P, N = g.size, b.size
                # δψ = ψ(y_q) − ψ(ȳ): coefficients 2(N − wins_g)/(PN) on goods, −2 wins_b/(PN)
                coef[g] += 2.0 * (N - wg) / (P * N)
                coef[b] -= 2.0 * wb / (P * N)
                delta += dl
            a = X.T @ coef / Q
            bq = delta / Q
            viol = bq - float(a @ w)
            xi = max(0.0, max(o - float(p @ w) for p, o in zip(planes, offsets)))
            trace(it - 1, w, f=0.5 * float(w @ w) + C * max(xi, viol), xi=xi, violation=viol)
            if viol <= xi + float(self.eps):
                status = "converged"
                break
            planes.append(a)
            offsets.append(bq)
            A = np.column_stack(planes)
            gamma, _, _ = simplex_qp(C * (A.T @ A), np.array(offsets), tol=1e-12)
            w = C * (A @ gamma)
        warn_at_limit("SVM-MAP (cutting plane)", status, it,
                      f"violation {viol:.3g} > ξ + eps = {xi + float(self.eps):.3g}")
        self.coef_ = w
        self.n_queries_used_ = Q
        self.result_ = CuttingPlaneResult(w=w, f=0.5 * float(w @ w) + C * max(xi, viol),
                                          n_iter=it, status=status, seconds=trace.seconds,
                                          history=trace.history, xi=xi, violation=viol)
        return self

