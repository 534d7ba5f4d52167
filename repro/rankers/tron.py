"""Trust-region Newton method (TRON) for smooth unconstrained problems, as used by Lee & Lin
(2014) for linear RankSVM: the LIBLINEAR-1.9x ``tron.cpp`` of the authors' experiment code
(Lin, Weng & Keerthi 2008, Algorithm 2 with the truncated CG of Steihaug), step for step.

* Start at ``w_0`` (default 0) with Δ_0 = ‖∇f(w_0)‖; after the first step Δ = min(Δ, ‖s‖).
  A warm start (``w0`` given) keeps the stopping rule relative to ‖∇f(0)‖.
* Each outer iteration solves the trust-region subproblem by conjugate gradient (CG), using
  only Hessian-vector products, stopping when ‖r‖ ≤ ``cg_tol``·‖∇f(w_k)‖ (0.1) or when the
  step leaves the region (then it moves to the boundary along the last direction).
* A step is accepted iff actred > η0·prered; Δ is updated with η = (1e-4, 0.25, 0.75) and
  σ = (0.25, 0.5, 4) exactly as in ``tron.cpp``.
* Stop when ‖∇f(w_k)‖ ≤ ε‖∇f(0)‖ (Lee & Lin's default ε = 0.001 for rankSVM), after
  ``max_iter`` outer iterations (1000), or on the safeguards of ``tron.cpp`` (f < -1e32;
  actred ≤ 0 and prered ≤ 0; |actred|, |prered| ≤ 1e-12|f|).

The problem object provides ``fun(w) -> f``, ``grad(w) -> ∇f(w)`` (called right after
``fun`` at the same ``w``) and ``hv(d) -> ∇²f(w)d`` at the point of the last ``grad``.
Every inner product is :func:`.fixed_order.dot` (summed in index order, not by BLAS), so the
path does not depend on the BLAS kernel when the problem's products do not either.

Preconditioned variant (beyond the papers; :func:`tron` with ``precondition=True``): the CG
steps are preconditioned by the diagonal M = (1 − α) I + α diag(∇²f(w_k)), α = ``pcg_mix``
(0.01), re-formed at every accepted point (Hsia, Chiang & Lin, ACML 2018, "Preconditioned
conjugate gradient methods in truncated Newton frameworks for large-scale linear
classification": mixing with the identity keeps a poor diagonal from making the subproblem
much worse conditioned than no preconditioner), and the
trust region is measured in the M-norm ‖s‖_M = √(sᵀMs) — LIBLINEAR 2.2x's ``tron.cpp``
(``trpcg``, Δ_0 = √(gᵀMg)): the same stopping rule ‖∇f‖ ≤ ε‖∇f(0)‖, so the same optimum
within the tolerance, usually with fewer Hessian-vector products.  The problem then also
provides ``hessian_diagonal() -> diag(∇²f(w))`` (exact or estimated) at the point of the last
``grad``.  The default (``precondition=False``) is the unpreconditioned method above, untouched.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..errors import warn_at_limit
from .fixed_order import dot
from .progress import SolverResult, SolverTrace

ETA = (1e-4, 0.25, 0.75)
SIGMA = (0.25, 0.5, 4.0)


@dataclass(kw_only=True)
class TronResult(SolverResult):
    """``n_iter``: outer (Newton) iterations taken; ``status``: "converged" | "max_iter" | a
    safeguard message; ``history``: one dict per outer iteration."""
    gnorm: float
    gnorm0: float
    n_cg: int               # CG iterations in total (= Hessian-vector products)
    n_fun: int              # function evaluations
    preconditioned: bool = False

    @property
    def relative_gnorm(self) -> float:
        return self.gnorm / self.gnorm0 if self.gnorm0 > 0 else 0.0


def _trcg(hv, delta: float, g: np.ndarray, cg_tol: float):
    """Truncated CG on the trust region; returns ``(s, r, cg_iter)`` (r = -g - H s)."""
    s = np.zeros_like(g)
    r = -g
    d = r.copy()
    tol = cg_tol * math.sqrt(dot(g, g))
    rTr = dot(r, r)
    it = 0
    while True:
        if math.sqrt(dot(r, r)) <= tol:
            break
        it += 1
        Hd = hv(d)
        alpha = rTr / dot(d, Hd)
        s += alpha * d
        if math.sqrt(dot(s, s)) > delta:
            s -= alpha * d
            std = dot(s, d)
            sts = dot(s, s)
            dtd = dot(d, d)
            dsq = delta * delta
            rad = math.sqrt(std * std + dtd * (dsq - sts))
            alpha = (dsq - sts) / (std + rad) if std >= 0 else (rad - std) / dtd
            s += alpha * d
            r -= alpha * Hd
            break
        r -= alpha * Hd
        rnew = dot(r, r)
        beta = rnew / rTr
        d *= beta
        d += r
        rTr = rnew
    return s, r, it


def _trpcg(hv, delta: float, g: np.ndarray, M: np.ndarray, cg_tol: float):
    """Preconditioned truncated CG on the trust region ‖s‖_M ≤ Δ (LIBLINEAR 2.2x ``trpcg``);
    returns ``(s, r, cg_iter, reached the boundary)``."""
    s = np.zeros_like(g)
    r = -g
    z = r / M
    d = z.copy()
    zTr = dot(z, r)
    tol = cg_tol * math.sqrt(zTr)
    it = 0
    while it < max(g.shape[0], 5):
        if math.sqrt(zTr) <= tol:
            break
        it += 1
        Hd = hv(d)
        alpha = zTr / dot(d, Hd)
        s += alpha * d
        if math.sqrt(dot(s, (M * s))) > delta:
            s -= alpha * d
            std = dot(s, (M * d))
            sts = dot(s, (M * s))
            dtd = dot(d, (M * d))
            dsq = delta * delta
            rad = math.sqrt(std * std + dtd * (dsq - sts))
            alpha = (dsq - sts) / (std + rad) if std >= 0 else (rad - std) / dtd
            s += alpha * d
            r -= alpha * Hd
            return s, r, it, True
        r -= alpha * Hd
        z = r / M
        znew = dot(z, r)
        d *= znew / zTr
        d += z
        zTr = znew
    return s, r, it, False


def _radius(delta: float, f: float, fnew: float, gs: float, snorm: float, actred: float,
            prered: float, expand_at_boundary: bool = False) -> float:
    """The next trust-region radius (``tron.cpp``'s rules; ``expand_at_boundary``: LIBLINEAR
    2.2x's Δ ← σ3 Δ after a very successful step that reached the boundary)."""
    eta0, eta1, eta2 = ETA
    sigma1, sigma2, sigma3 = SIGMA
    if fnew - f - gs <= 0:
        alpha = sigma3
    else:
        alpha = max(sigma1, -0.5 * (gs / (fnew - f - gs)))
    if actred < eta0 * prered:
        return min(max(alpha, sigma1) * snorm, sigma2 * delta)
    if actred < eta1 * prered:
        return max(sigma1 * delta, min(alpha * snorm, sigma2 * delta))
    if actred < eta2 * prered:
        return max(sigma1 * delta, min(alpha * snorm, sigma3 * delta))
    if expand_at_boundary:
        return sigma3 * delta
    return max(delta, min(alpha * snorm, sigma3 * delta))


def _safeguard(f: float, actred: float, prered: float, preconditioned: bool = False) -> str:
    """``tron.cpp``'s stops after a step ("" to go on); LIBLINEAR 2.2x's PCG version stops on
    prered ≤ 0 alone."""
    if f < -1.0e32:
        return "f < -1e32"
    if preconditioned:
        if prered <= 0:
            return "prered <= 0"
    elif abs(actred) <= 0 and prered <= 0:
        return "actred and prered <= 0"
    if abs(actred) <= 1.0e-12 * abs(f) and abs(prered) <= 1.0e-12 * abs(f):
        return "actred and prered too small"
    return ""


def _preconditioner(problem, mix: float) -> np.ndarray:
    return (1.0 - mix) + mix * np.asarray(problem.hessian_diagonal(), dtype=np.float64)


def tron(problem, n: int | None = None, w0=None, eps: float = 1e-3, max_iter: int = 1000,
         cg_tol: float = 0.1, callback: Callable | None = None,
         keep_history: bool = True, precondition: bool = False,
         pcg_mix: float = 0.01) -> TronResult:
    """Minimise ``problem`` from ``w0`` (zeros of length ``n`` by default).  ``precondition``:
    diagonally preconditioned CG (module doc; ``pcg_mix`` the weight α of the diagonal).

    ``callback(info)``, if given, is called after every outer iteration with a dict: ``iter``,
    ``n_cg`` (cumulative CG iterations), ``f`` and ``gnorm`` at the current iterate, ``w``
    (a copy), ``accepted`` (whether this iteration's step was taken).  Called also once at the
    start (``iter`` 0).
    """
    eta0 = ETA[0]
    if w0 is None:
        if n is None:
            raise ValueError("tron: give n or w0")
        w = np.zeros(int(n))
    else:
        w = np.array(w0, dtype=np.float64, copy=True)
    trace = SolverTrace(callback, keep_history)
    n_fun = 0
    gnorm0 = None
    if w0 is not None:
        # warm start: the stopping rule stays relative to ‖∇f(0)‖, as from a cold start
        problem.fun(np.zeros_like(w))
        g0 = problem.grad(np.zeros_like(w))
        gnorm0 = math.sqrt(dot(g0, g0))
        n_fun += 1
    f = problem.fun(w)
    g = problem.grad(w)
    n_fun += 1
    delta = math.sqrt(dot(g, g))
    gnorm = delta
    gnorm0 = gnorm if gnorm0 is None else gnorm0
    total_cg = 0

    def report(it, accepted):
        trace(it, w, n_cg=total_cg, f=f, gnorm=gnorm, accepted=accepted)

    report(0, True)
    status = "converged" if gnorm <= eps * gnorm0 else "max_iter"
    if precondition:
        return _tron_pcg(problem, w, f, g, gnorm, gnorm0, n_fun, eps, max_iter, cg_tol,
                         pcg_mix, trace, status)
    it = 1
    outer = 0
    while it <= max_iter and gnorm > eps * gnorm0:
        s, r, cg_it = _trcg(problem.hv, delta, g, cg_tol)
        total_cg += cg_it
        outer += 1
        w_new = w + s
        gs = dot(g, s)
        prered = -0.5 * (gs - dot(s, r))
        fnew = problem.fun(w_new)
        n_fun += 1
        actred = f - fnew
        snorm = math.sqrt(dot(s, s))
        if it == 1:
            delta = min(delta, snorm)
        delta = _radius(delta, f, fnew, gs, snorm, actred, prered)
        accepted = actred > eta0 * prered
        if accepted:
            it += 1
            w = w_new
            f = fnew
            g = problem.grad(w)
            gnorm = math.sqrt(dot(g, g))
        report(outer, accepted)
        if accepted and gnorm <= eps * gnorm0:
            status = "converged"
            break
        stop = _safeguard(f, actred, prered)
        if stop:
            status = stop
            break
    else:
        if gnorm > eps * gnorm0:
            status = "max_iter"
    warn_at_limit("TRON", status, it - 1, f"‖∇f‖ = {gnorm:.3g} > eps·‖∇f(0)‖ = {eps * gnorm0:.3g}")
    return TronResult(w=w, f=float(f), gnorm=gnorm, gnorm0=gnorm0, n_iter=it - 1,
                      n_cg=total_cg, n_fun=n_fun, status=status,
                      seconds=trace.seconds, history=trace.history)


def _tron_pcg(problem, w, f, g, gnorm, gnorm0, n_fun, eps, max_iter, cg_tol, mix, trace,
              status) -> TronResult:
    """The outer loop with preconditioned CG (LIBLINEAR 2.2x ``tron.cpp``): Δ and the
    step lengths in the M-norm; the accepted-step and Δ rules of :func:`tron` otherwise, with
    LIBLINEAR's (Δ ← σ3 Δ when a very successful step reached the boundary)."""
    eta0 = ETA[0]
    if not 0.0 <= mix <= 1.0:
        raise ValueError(f"pcg_mix must be in [0, 1], got {mix!r}")
    M = _preconditioner(problem, mix)
    delta = math.sqrt(dot(g, (M * g)))
    total_cg = 0
    it = 1
    outer = 0
    adjusted = False
    while it <= max_iter and gnorm > eps * gnorm0:
        s, r, cg_it, boundary = _trpcg(problem.hv, delta, g, M, cg_tol)
        total_cg += cg_it
        outer += 1
        w_new = w + s
        gs = dot(g, s)
        prered = -0.5 * (gs - dot(s, r))
        fnew = problem.fun(w_new)
        n_fun += 1
        actred = f - fnew
        snorm = math.sqrt(dot(s, (M * s)))
        if it == 1 and not adjusted:
            delta = min(delta, snorm)
            adjusted = True
        delta = _radius(delta, f, fnew, gs, snorm, actred, prered, boundary)
        accepted = actred > eta0 * prered
        if accepted:
            it += 1
            w = w_new
            f = fnew
            g = problem.grad(w)
            gnorm = math.sqrt(dot(g, g))
            M = _preconditioner(problem, mix)
        trace(outer, w, n_cg=total_cg, f=f, gnorm=gnorm, accepted=accepted)
        if accepted and gnorm <= eps * gnorm0:
            status = "converged"
            break
        stop = _safeguard(f, actred, prered, preconditioned=True)
        if stop:
            status = stop
            break
    else:
        if gnorm > eps * gnorm0:
            status = "max_iter"
    return TronResult(w=w, f=float(f), gnorm=gnorm, gnorm0=gnorm0, n_iter=it - 1,
                      n_cg=total_cg, n_fun=n_fun, status=status, seconds=trace.seconds,
                      history=trace.history, preconditioned=True)
