"""RankRLS (eq. 3–6, Theorem 3.1) and the GreedyRankRLS ranker against brute force."""
import numpy as np
import pytest

import reference_lqo as ref
from repro.errors import DataError
from repro.rankers.lqo import centre_by_query, greedy_path
from repro.rankers.rankrls import GreedyRankRLS, RankRLS

SIZES = [6, 1, 9, 3, 7, 2, 5]


def data(seed, n=5, sizes=SIZES):
    rng = np.random.default_rng(seed)
    qp = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    m = int(qp[-1])
    X = rng.normal(size=(m, n)) + 3.0          # a non-zero mean: centring matters
    y = rng.integers(0, 3, m).astype(float)
    qid = np.repeat(100 + np.arange(len(sizes)) * 7, sizes)
    return X, y, qp, qid


@pytest.mark.parametrize("lam", [1e-4, 1.0, 100.0])
def test_fit_is_the_minimiser_of_eq3(lam):
    X, y, qp, qid = data(1)
    model = RankRLS(lam).fit(X, y, qid)
    np.testing.assert_allclose(model.coef_, ref.rankrls_pairs(X, y, qp, lam), rtol=1e-9,
                               atol=1e-12)
    np.testing.assert_allclose(model.predict(X), X @ model.coef_)


@pytest.mark.parametrize("lam", [1e-3, 2.0])
def test_lqo_predictions_equal_refits(lam):
    X, y, qp, qid = data(2)
    model = RankRLS(lam).fit(X, y, qid)
    refit = ref.lqo_predictions(X, y, qp, lam)
    # Theorem 3.1 gives the refitted models' predictions on the centred held-out features
    np.testing.assert_allclose(model.lqo_predictions(), centre_by_query(refit, qp), atol=1e-10)
    assert model.lqo_error() == pytest.approx(ref.lqo_error(X, y, qp, lam, range(5)), rel=1e-10)


def test_documents_need_not_be_grouped():
    X, y, qp, qid = data(3)
    perm = np.random.default_rng(0).permutation(len(y))
    a = RankRLS(0.5).fit(X, y, qid)
    b = RankRLS(0.5).fit(X[perm], y[perm], qid[perm])
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-10)
    np.testing.assert_allclose(b.lqo_predictions(), a.lqo_predictions()[perm], atol=1e-10)
    g1 = GreedyRankRLS(0.5, k=3).fit(X, y, qid)
    g2 = GreedyRankRLS(0.5, k=3).fit(X[perm], y[perm], qid[perm])
    assert list(g1.selected_) == list(g2.selected_)
    np.testing.assert_allclose(g1.coef_, g2.coef_, rtol=1e-10)


def test_greedy_ranker_uses_the_path():
    X, y, qp, qid = data(4, n=6)
    g = GreedyRankRLS(1.5, k=4).fit(X, y, qid)
    path = greedy_path(X, y, qp, 1.5, 4)
    assert list(g.selected_) == list(path.selected)
    np.testing.assert_array_equal(g.lqo_errors_, path.lqo_errors)
    for k in (1, 2, 4):
        feats, w = path.prefix(k)
        np.testing.assert_allclose(g.predict(X, k), X[:, feats] @ w)
    np.testing.assert_allclose(g.predict(X), X @ g.coef_)
    assert np.count_nonzero(g.coef_) == 4
    # selecting every feature gives RankRLS on all features
    full = GreedyRankRLS(1.5).fit(X, y, qid)
    np.testing.assert_allclose(full.coef_, RankRLS(1.5).fit(X, y, qid).coef_, rtol=1e-9)
    # the greedy LQO error of the full set is RankRLS's LQO error (eq. 7)
    assert full.lqo_errors_[-1] == pytest.approx(RankRLS(1.5).fit(X, y, qid).lqo_error(),
                                                 rel=1e-9)


def test_edge_cases():
    X, y, qp, qid = data(5, sizes=[1, 1, 4])
    y[:] = 1.0                                                  # one relevance level
    model = RankRLS(1.0).fit(X, y, qid)
    assert np.all(model.coef_ == 0) and model.lqo_error() == 0
    with pytest.raises(DataError, match="λ > 0"):
        RankRLS(-1.0)
    with pytest.raises(DataError, match="≥ 1"):
        GreedyRankRLS(1.0, k=0)
    with pytest.raises(DataError, match="NaN"):
        X[0, 0] = np.nan
        RankRLS(1.0).fit(X, y, qid)
    X, y, qp, qid = data(6)
    with pytest.raises(DataError, match="feature columns"):
        RankRLS(1.0).fit(X, y, qid).predict(X[:, :3])
    with pytest.raises(DataError, match="rows"):
        GreedyRankRLS(1.0).fit(X, y[:-1], qid)


def test_fit_lambdas_equals_separate_fits():
    X, y, qp, qid = data(7)
    lams = [0.01, 1.0, 30.0]
    for model, lam in zip(RankRLS.fit_lambdas(X, y, qid, lams), lams):
        single = RankRLS(lam).fit(X, y, qid)
        assert model.lam == lam
        np.testing.assert_array_equal(model.coef_, single.coef_)
        np.testing.assert_allclose(model.lqo_residuals(), single.lqo_residuals(), atol=1e-12)
