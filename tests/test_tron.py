"""TRON (repro.rankers.tron) on problems with known solutions."""
import numpy as np
import pytest
from scipy.optimize import minimize

from repro.rankers.tron import tron


class Quadratic:
    def __init__(self, A, b):
        self.A, self.b = A, b

    def fun(self, w):
        return 0.5 * w @ self.A @ w - self.b @ w

    def grad(self, w):
        return self.A @ w - self.b

    def hv(self, d):
        return self.A @ d


class Logistic:
    """L2-regularised logistic regression (LIBLINEAR's l2r_lr_fun)."""

    def __init__(self, X, y, C):
        self.X, self.y, self.C = X, y, C

    def fun(self, w):
        self.w = w.copy()
        yz = self.y * (self.X @ w)
        return 0.5 * w @ w + self.C * np.sum(np.logaddexp(0.0, -yz))

    def grad(self, w):
        z = 1.0 / (1.0 + np.exp(-self.y * (self.X @ w)))
        self.D = z * (1 - z)
        return w + self.C * self.X.T @ ((z - 1) * self.y)

    def hv(self, d):
        return d + self.C * self.X.T @ (self.D * (self.X @ d))


def test_quadratic_exact_solution():
    rng = np.random.default_rng(0)
    M = rng.normal(size=(8, 8))
    A = M @ M.T + 0.5 * np.eye(8)
    b = rng.normal(size=8)
    res = tron(Quadratic(A, b), n=8, eps=1e-8)
    np.testing.assert_allclose(res.w, np.linalg.solve(A, b), rtol=1e-7, atol=1e-9)
    # converged, or stopped by tron.cpp's safeguard |actred|, |prered| ≤ 1e-12 |f| just before
    assert res.status in ("converged", "actred and prered too small")
    assert res.gnorm <= 1e-6 * res.gnorm0


def test_logistic_matches_scipy_and_history():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 6))
    y = np.sign(X @ rng.normal(size=6) + 0.3 * rng.normal(size=200))
    prob = Logistic(X, y, C=2.0)
    seen = []
    res = tron(prob, n=6, eps=1e-9, callback=lambda info: seen.append(info))
    ref = minimize(prob.fun, np.zeros(6), jac=lambda w: prob.grad(w), method="BFGS",
                   options={"gtol": 1e-10})
    assert res.f == pytest.approx(ref.fun, rel=1e-10)
    # callback: iteration 0 at w = 0, then one call per outer iteration; f never increases
    assert seen[0]["iter"] == 0 and not seen[0]["w"].any()
    fs = [s["f"] for s in seen]
    assert all(b <= a for a, b in zip(fs, fs[1:]))
    assert seen[-1]["n_cg"] == res.n_cg and len(res.history) == len(seen)
    assert res.n_iter == sum(s["accepted"] for s in seen[1:])


def test_default_tolerance_and_start_at_optimum():
    rng = np.random.default_rng(2)
    M = rng.normal(size=(5, 5))
    A = M @ M.T + np.eye(5)
    b = rng.normal(size=5)
    res = tron(Quadratic(A, b), n=5)                        # ε = 0.001
    assert res.gnorm <= 1e-3 * res.gnorm0
    at_opt = tron(Quadratic(A, np.zeros(5)), n=5)         # ∇f(0) = 0: nothing to do
    assert at_opt.n_iter == 0 and at_opt.n_cg == 0 and at_opt.status == "converged"
    with pytest.raises(ValueError):
        tron(Quadratic(A, b))


def test_max_iter():
    """An ill-conditioned quadratic that needs more than 2 Newton iterations at ε = 1e-14:
    both allowed iterations are taken (accepted), then TRON stops with status "max_iter"."""
    rng = np.random.default_rng(3)
    M = rng.normal(size=(30, 30))
    A = M @ M.T + 1e-3 * np.eye(30)
    prob = Quadratic(A, rng.normal(size=30))
    res = tron(prob, n=30, eps=1e-14, max_iter=2)
    assert res.status == "max_iter"
    assert res.n_iter == 2 and res.n_fun == 3
    assert [bool(h["accepted"]) for h in res.history] == [True, True, True]
    assert res.gnorm > 1e-14 * res.gnorm0
    none = tron(prob, n=30, eps=1e-14, max_iter=0)          # no iteration allowed at all
    assert none.status == "max_iter" and none.n_iter == 0 and none.n_cg == 0
    assert not none.w.any() and none.n_fun == 1


class DiagQuadratic(Quadratic):
    """A quadratic that also gives its Hessian's diagonal (for the preconditioned TRON)."""

    def hessian_diagonal(self):
        return np.diag(self.A).copy()


def test_preconditioned_tron_solves_a_badly_scaled_quadratic_with_fewer_products():
    rng = np.random.default_rng(3)
    M = rng.normal(size=(30, 30))
    scale = np.logspace(0, 3, 30)                       # diagonal scales over 3 decades
    A = (M @ M.T / 30 + np.eye(30)) * np.sqrt(np.outer(scale, scale))
    b = rng.normal(size=30) * np.sqrt(scale)
    plain = tron(DiagQuadratic(A, b), n=30, eps=1e-8)
    pcg = tron(DiagQuadratic(A, b), n=30, eps=1e-8, precondition=True, pcg_mix=1.0)
    np.testing.assert_allclose(pcg.w, np.linalg.solve(A, b), rtol=1e-6, atol=1e-8)
    assert pcg.preconditioned and not plain.preconditioned
    assert pcg.gnorm <= 1e-8 * pcg.gnorm0 or pcg.status == "actred and prered too small"
    assert pcg.n_cg < plain.n_cg / 2


def test_preconditioned_tron_matches_scipy_on_logistic_regression():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 7)) * np.array([1, 10, 0.1, 3, 1, 30, 0.5])
    y = np.sign(X @ rng.normal(size=7) + 0.3 * rng.normal(size=300))

    class DiagLogistic(Logistic):
        def hessian_diagonal(self):
            return 1.0 + self.C * (self.D @ (self.X * self.X))
    prob = DiagLogistic(X, y, C=2.0)
    res = tron(prob, n=7, eps=1e-8, precondition=True)
    ref = minimize(prob.fun, np.zeros(7), jac=prob.grad, method="L-BFGS-B",
                   options={"gtol": 1e-10, "ftol": 1e-15, "maxiter": 10000})
    assert res.f == pytest.approx(ref.fun, rel=1e-9)
    with pytest.raises(ValueError, match="pcg_mix"):
        tron(prob, n=7, precondition=True, pcg_mix=1.5)
