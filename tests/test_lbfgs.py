"""L-BFGS in fixed-order arithmetic (repro/rankers/lbfgs.py): minima of problems with a known
answer, the strong Wolfe conditions at every accepted step, the stopping rules, and the same
optimum as SciPy's L-BFGS-B on a convex conditional objective."""
import numpy as np
import pytest
from scipy.optimize import minimize

from repro.rankers.conditional import ConditionalObjective, ConditionalRanker
from repro.rankers.lbfgs import C1, C2, _cubic_min, minimize_lbfgs


def quadratic(A, b):
    def fun(x):
        return 0.5 * x @ A @ x - b @ x, A @ x - b
    return fun


def rosenbrock(x):
    f = 100.0 * (x[1] - x[0] ** 2) ** 2 + (1 - x[0]) ** 2
    g = np.array([-400.0 * x[0] * (x[1] - x[0] ** 2) - 2 * (1 - x[0]), 200.0 * (x[1] - x[0] ** 2)])
    return f, g


def test_quadratic_reaches_the_solution_of_the_linear_system():
    rng = np.random.default_rng(0)
    M = rng.standard_normal((8, 8))
    A = M @ M.T + 8 * np.eye(8)
    b = rng.standard_normal(8)
    res = minimize_lbfgs(quadratic(A, b), np.zeros(8), max_iter=200, gtol=1e-7, ftol=0.0)
    assert res.success and res.message == "gradient below gtol"
    assert np.allclose(res.x, np.linalg.solve(A, b), atol=1e-8)


def test_rosenbrock_from_the_classic_start():
    res = minimize_lbfgs(rosenbrock, np.array([-1.2, 1.0]), max_iter=500, gtol=1e-8, ftol=0.0)
    assert res.success
    assert np.allclose(res.x, [1.0, 1.0], atol=1e-6)


def test_every_accepted_step_satisfies_the_strong_wolfe_conditions():
    seen = []

    def fun(x):
        f, g = rosenbrock(x)
        seen.append((x.copy(), f, g))
        return f, g

    path = [np.array([-1.2, 1.0])]
    minimize_lbfgs(fun, path[0], max_iter=30, gtol=1e-8, ftol=0.0,
                   callback=lambda x, f: path.append(x.copy()))
    table = {tuple(x): (f, g) for x, f, g in seen}
    for x0, x1 in zip(path, path[1:]):
        f0, g0 = table[tuple(x0)]
        f1, g1 = table[tuple(x1)]
        s = x1 - x0
        assert f1 <= f0 + C1 * (g0 @ s) + 1e-12
        # |g1·d| ≤ −c₂ g0·d for d = s/α: the same inequality with s
        assert abs(g1 @ s) <= -C2 * (g0 @ s) + 1e-12


def test_stopping_rules():
    A, b = np.diag([1.0, 10.0, 100.0]), np.ones(3)
    res = minimize_lbfgs(quadratic(A, b), np.zeros(3), max_iter=1, gtol=0.0, ftol=0.0)
    assert (res.success, res.message, res.nit) == (False, "max_iter", 1)
    res = minimize_lbfgs(quadratic(A, b), np.linalg.solve(A, b), max_iter=5, gtol=1e-12, ftol=0)
    assert (res.nit, res.message) == (0, "gradient below gtol at the start")
    res = minimize_lbfgs(quadratic(A, b), np.zeros(3), max_iter=100, gtol=0.0, ftol=1e-3)
    assert res.message == "relative decrease below ftol"
    res = minimize_lbfgs(lambda x: (np.inf, np.ones(1)), np.zeros(1), max_iter=5, gtol=0,
                         ftol=0)
    assert not res.success and "not finite" in res.message


def test_cubic_step_stays_inside_its_interval():
    # f(a) = (a − 0.3)²: from (0, 0.09, −0.6) and (1, 0.49, 1.4) the cubic minimum is 0.3
    assert _cubic_min(0.0, 0.09, -0.6, 1.0, 0.49, 1.4) == pytest.approx(0.3)
    assert _cubic_min(0.0, 0.0, 1.0, 1.0, 1.0, 1.0) == 0.5        # a line: bisect
    a = _cubic_min(0.0, 1.0, -1e-9, 1.0, 0.0, -1e-9)
    assert 0.1 <= a <= 0.9


def test_same_optimum_as_scipy_on_a_convex_conditional_objective():
    """ConvexLoss (eq. 14) is convex: both solvers, stopped at a 10⁻⁹ relative gradient, reach
    the same minimum within that tolerance."""
    rng = np.random.default_rng(7)
    X = rng.standard_normal((600, 12))
    y = (X[:, 0] + 0.5 * rng.standard_normal(600) > 0.5).astype(float)
    qp = np.arange(0, 601, 20)
    r = ConditionalRanker("ConvexLoss", "NDCG", sample_size=40, random_state=3, C=1.0,
                          tol=1e-9, max_iter=2000)
    gf, sample, _ = r._prepare(X, y, qp)
    fun = ConditionalObjective(gf, sample, "ConvexLoss", "NDCG", 1.0, False, 10)
    f0, g0 = fun(np.zeros(12))
    gtol = 1e-9 * np.abs(g0).max()
    ours = minimize_lbfgs(fun, np.zeros(12), max_iter=2000, gtol=gtol, ftol=0.0)
    ref = minimize(fun, np.zeros(12), jac=True, method="L-BFGS-B",
                   options={"maxiter": 2000, "gtol": gtol, "ftol": 0.0})
    assert ours.success
    assert ours.f == pytest.approx(ref.fun, rel=1e-10)
    assert np.allclose(ours.x, ref.x, atol=1e-5)
