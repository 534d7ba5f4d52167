"""L-BFGS with a strong-Wolfe line search, every inner product in a fixed order.

The limited-memory BFGS direction by the two-loop recursion (Nocedal 1980; Liu & Nocedal 1989;
Nocedal & Wright 2006, Alg. 7.4, initial scaling γ = sᵀy / yᵀy of the newest pair) and a step
that satisfies the strong Wolfe conditions (Nocedal & Wright 2006, Alg. 3.5–3.6: bracketing,
then zoom by safeguarded cubic interpolation; c₁ = 10⁻⁴, c₂ = 0.9).  Stopping as SciPy's
L-BFGS-B states it: max|∇f| ≤ ``gtol``, or a relative decrease
(f_k − f_{k+1}) / max(|f_k|, |f_{k+1}|, 1) ≤ ``ftol``, or ``max_iter`` iterations.

Why not SciPy's L-BFGS-B: its inner products go to BLAS, whose summation order depends on the
kernel OpenBLAS picks for the machine; on a non-convex objective (Dubey et al.'s ExpGain and L₃)
a last-bit difference in one direction sends the path to another local minimum, so the same
command gave another fit on another machine.  Here every inner product is
:func:`.fixed_order.dot` and every other operation elementwise, so the path depends only on the
objective's values (which the caller must compute without BLAS as well).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .fixed_order import dot

C1, C2 = 1e-4, 0.9
#: evaluations one line search may spend (bracketing and zoom together)
LINE_SEARCH_EVALUATIONS = 40


@dataclass
class LbfgsResult:
    x: np.ndarray
    f: float
    g: np.ndarray
    nit: int
    nfev: int
    success: bool
    message: str


def _direction(g: np.ndarray, S: list, Y: list, rho: list) -> np.ndarray:
    """−H g by the two-loop recursion over the stored pairs (oldest first in the lists)."""
    q = g.copy()
    alpha = [0.0] * len(S)
    for i in range(len(S) - 1, -1, -1):
        alpha[i] = rho[i] * dot(S[i], q)
        q -= alpha[i] * Y[i]
    if S:
        q *= dot(S[-1], Y[-1]) / dot(Y[-1], Y[-1])
    for i in range(len(S)):
        beta = rho[i] * dot(Y[i], q)
        q += (alpha[i] - beta) * S[i]
    return -q


def _cubic_min(a_lo, f_lo, g_lo, a_hi, f_hi, g_hi) -> float:
    """The minimiser of the cubic through both ends (value and slope), kept at least 10 % of
    the interval away from either end; the midpoint where the cubic has no usable minimum."""
    lo, hi = min(a_lo, a_hi), max(a_lo, a_hi)
    mid = 0.5 * (a_lo + a_hi)
    if a_lo == a_hi:
        return mid
    d1 = g_lo + g_hi - 3.0 * (f_lo - f_hi) / (a_lo - a_hi)
    disc = d1 * d1 - g_lo * g_hi
    if not (math.isfinite(disc) and disc >= 0.0):
        return mid
    d2 = math.copysign(math.sqrt(disc), a_hi - a_lo)
    den = g_hi - g_lo + 2.0 * d2
    if den == 0.0 or not math.isfinite(den):
        return mid
    a = a_hi - (a_hi - a_lo) * (g_hi + d2 - d1) / den
    margin = 0.1 * (hi - lo)
    if not math.isfinite(a) or a < lo + margin or a > hi - margin:
        return mid
    return a


def _line_search(fun, x, f0, g0, d, a1):
    """A step α along ``d`` with the strong Wolfe conditions; returns (α, f, g, evaluations)
    or (None, …) if none was found within :data:`LINE_SEARCH_EVALUATIONS`."""
    gd0 = dot(g0, d)
    n_ev = 0

    def at(a):
        nonlocal n_ev
        n_ev += 1
        f, g = fun(x + a * d)
        f = float(f)
        return f, g, (dot(g, d) if math.isfinite(f) else math.nan)

    def sufficient(a, f):
        return math.isfinite(f) and f <= f0 + C1 * a * gd0

    def zoom(lo, hi):
        # lo, hi: (α, f, g, slope); lo satisfies sufficient decrease and has the lower f
        while n_ev < LINE_SEARCH_EVALUATIONS:
            a = _cubic_min(lo[0], lo[1], lo[3], hi[0], hi[1], hi[3]) \
                if math.isfinite(hi[1]) and math.isfinite(hi[3]) else 0.5 * (lo[0] + hi[0])
            if a == lo[0] or a == hi[0]:
                break
            f, g, gd = at(a)
            if not sufficient(a, f) or f >= lo[1]:
                hi = (a, f, g, gd)
            else:
                if abs(gd) <= -C2 * gd0:
                    return a, f, g
                if gd * (hi[0] - lo[0]) >= 0:
                    hi = lo
                lo = (a, f, g, gd)
        if lo[0] > 0:                    # sufficient decrease holds there: take it
            return lo[0], lo[1], lo[2]
        return None, None, None

    prev = (0.0, f0, g0, gd0)
    a = a1
    while n_ev < LINE_SEARCH_EVALUATIONS:
        f, g, gd = at(a)
        if not sufficient(a, f) or (prev[0] > 0 and f >= prev[1]):
            res = zoom(prev, (a, f, g, gd))
            return (*res, n_ev)
        if abs(gd) <= -C2 * gd0:
            return a, f, g, n_ev
        if gd >= 0:
            res = zoom((a, f, g, gd), prev)
            return (*res, n_ev)
        prev = (a, f, g, gd)
        a *= 2.0
    return None, None, None, n_ev


def minimize_lbfgs(fun: Callable, x0, *, max_iter: int, gtol: float, ftol: float,
                   memory: int = 10, f0g0: tuple | None = None,
                   callback: Callable | None = None) -> LbfgsResult:
    """Minimise ``fun`` (returning f and ∇f) from ``x0``; ``f0g0``: f and ∇f at x0 if known;
    ``callback(x, f)`` after every iteration."""
    x = np.array(x0, dtype=np.float64, copy=True)
    f, g = f0g0 if f0g0 is not None else fun(x)
    f, g = float(f), np.asarray(g, dtype=np.float64)
    nfev = 0 if f0g0 is not None else 1
    S, Y, rho = [], [], []
    if not math.isfinite(f):
        return LbfgsResult(x, f, g, 0, nfev, False, "objective not finite at the start")
    if float(np.abs(g).max(initial=0.0)) <= gtol:
        return LbfgsResult(x, f, g, 0, nfev, True, "gradient below gtol at the start")
    for k in range(int(max_iter)):
        d = _direction(g, S, Y, rho)
        if not dot(g, d) < 0.0:             # not a descent direction: forget the pairs
            S, Y, rho = [], [], []
            d = -g
        a1 = 1.0 if S else min(1.0, 1.0 / math.sqrt(dot(g, g)))
        a, f_new, g_new, n_ev = _line_search(fun, x, f, g, d, a1)
        nfev += n_ev
        if a is None:
            if S:                           # retry from steepest descent once
                S, Y, rho = [], [], []
                continue
            return LbfgsResult(x, f, g, k, nfev, False, "line search found no step")
        s = a * d
        x_new = x + s
        g_new = np.asarray(g_new, dtype=np.float64)
        y = g_new - g
        sy = dot(s, y)
        if sy > 1e-10 * dot(y, y):          # curvature pair kept only if positive
            S.append(s)
            Y.append(y)
            rho.append(1.0 / sy)
            if len(S) > memory:
                S.pop(0), Y.pop(0), rho.pop(0)
        decrease = f - f_new
        x, f, g = x_new, float(f_new), g_new
        if callback is not None:
            callback(x, f)
        if float(np.abs(g).max()) <= gtol:
            return LbfgsResult(x, f, g, k + 1, nfev, True, "gradient below gtol")
        if decrease <= ftol * max(abs(f + decrease), abs(f), 1.0):
            return LbfgsResult(x, f, g, k + 1, nfev, True, "relative decrease below ftol")
    return LbfgsResult(x, f, g, int(max_iter), nfev, False, "max_iter")
