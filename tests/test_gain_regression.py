"""GainRegression: the ridge normal equations, checked against an independent least-squares
solve (augmented system) and on data whose gains are exactly linear in the features."""
import numpy as np
import pytest

from repro.errors import DataError
from repro.rankers import GainRegression


def test_equals_augmented_least_squares():
    rng = np.random.default_rng(3)
    X = rng.random((60, 4))
    y = rng.integers(0, 4, 60).astype(float)
    qid = np.repeat(np.arange(6), 10)
    C = 0.5
    m = GainRegression(C=C).fit(X, y, qid)
    # min ‖[X 1][w; b] − g‖² + ‖w‖²/C as one stacked least-squares problem (b unpenalised)
    g = 2.0 ** y - 1
    A = np.vstack([np.hstack([X, np.ones((60, 1))]),
                   np.hstack([np.eye(4) / np.sqrt(C), np.zeros((4, 1))])])
    sol = np.linalg.lstsq(A, np.concatenate([g, np.zeros(4)]), rcond=None)[0]
    np.testing.assert_allclose(m.coef_, sol[:4], rtol=1e-10, atol=1e-12)
    assert m.intercept_ == pytest.approx(sol[4], rel=1e-10, abs=1e-12)
    np.testing.assert_allclose(m.predict(X), X @ sol[:4], rtol=1e-10, atol=1e-12)


def test_recovers_exact_linear_gains_and_ranks_them():
    rng = np.random.default_rng(4)
    X = rng.random((40, 3))
    w = np.array([3.0, -1.0, 2.0])
    y = np.log2(X @ w + 5.0)            # gains 2^y − 1 = X·w + 4: exactly linear
    m = GainRegression(C=1e12).fit(X, y, np.zeros(40))
    np.testing.assert_allclose(m.coef_, w, rtol=1e-6)
    assert m.intercept_ == pytest.approx(4.0, rel=1e-6)
    g = GainRegression(C=1e12, target="grade").fit(X, y, np.zeros(40))
    assert not np.allclose(g.coef_, w, rtol=1e-3)   # the grade target is a different fit


@pytest.mark.parametrize("kw, msg", [({"C": 0.0}, "C"), ({"C": float("nan")}, "C"),
                                     ({"target": "ndcg"}, "target")])
def test_bad_arguments_are_named(kw, msg):
    with pytest.raises(ValueError, match=msg):
        GainRegression(**kw).fit(np.ones((3, 2)), np.zeros(3), np.zeros(3))


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
def test_overflowing_grade_is_refused():
    with pytest.raises(DataError, match="gain"):
        GainRegression().fit(np.ones((2, 1)), np.array([0.0, 2000.0]), np.zeros(2))
