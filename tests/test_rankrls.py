"""RankRLS (eq. 3–6, Theorem 3.1) and the GreedyRankRLS ranker against brute force."""
import numpy as np
import pytest
import scipy.sparse as sp

import reference_lqo as ref
from repro.data.queries import QueryData
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
    # scikit-learn convention: the constructor stores, fit checks
    with pytest.raises(DataError, match="λ > 0"):
        RankRLS(-1.0).fit(X, y, qid)
    with pytest.raises(DataError, match="≥ 1"):
        GreedyRankRLS(1.0, k=0).fit(X, y, qid)
    X[0, 0] = np.nan
    with pytest.raises(DataError, match="nan at document 0, feature 0 is not finite"):
        RankRLS(1.0).fit(X, y, qid)
    X, y, qp, qid = data(6)
    with pytest.raises(DataError, match="feature columns"):
        RankRLS(1.0).fit(X, y, qid).predict(X[:, :3])
    with pytest.raises(DataError, match="rows"):
        GreedyRankRLS(1.0).fit(X, y[:-1], qid)


def test_fit_grid_equals_separate_fits():
    """RankRLS's grid shares one factorisation; greedy RankRLS's λ × k grid one path per λ:
    both equal separate fits, in grid order."""
    X, y, qp, qid = data(7)
    d = QueryData(X, y, qp, np.unique(qid))
    lams = [0.01, 1.0, 30.0]
    got = list(RankRLS().fit_grid(d, {"lam": lams}))
    assert [p["lam"] for p, _ in got] == lams
    for params, model in got:
        single = RankRLS(params["lam"]).fit(X, y, qid)
        assert model.lam == params["lam"]
        np.testing.assert_array_equal(model.coef_, single.coef_)
        np.testing.assert_allclose(model.lqo_residuals(), single.lqo_residuals(), atol=1e-12)
    grid = {"lam": [0.5, 4.0], "k": [1, 3, 2]}
    got = list(GreedyRankRLS().fit_grid(d, grid))
    assert [(p["lam"], p["k"]) for p, _ in got] == [(0.5, 1), (0.5, 3), (0.5, 2), (4.0, 1),
                                                     (4.0, 3), (4.0, 2)]
    for params, model in got:
        single = GreedyRankRLS(**params).fit(X, y, qid)
        assert model.k_ == single.k_ == params["k"]
        np.testing.assert_array_equal(model.selected_, single.selected_)
        np.testing.assert_allclose(model.coef_, single.coef_, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(model.predict(X), single.predict(X), rtol=1e-12, atol=1e-12)


def test_use_before_fit_is_refused():
    X, y, qp, qid = data(8)
    for call in (lambda: RankRLS(1.0).predict(X), lambda: RankRLS(1.0).lqo_residuals(),
                 lambda: RankRLS(1.0).lqo_predictions(), lambda: RankRLS(1.0).lqo_error()):
        with pytest.raises(RuntimeError, match="RankRLS: call fit first"):
            call()
    with pytest.raises(RuntimeError, match="GreedyRankRLS: call fit first"):
        GreedyRankRLS(1.0, k=2).predict(X)


@pytest.mark.parametrize("cls", [RankRLS, GreedyRankRLS])
def test_non_finite_input_names_document_and_feature(cls):
    X, y, qp, qid = data(9)
    perm = np.random.default_rng(1).permutation(len(y))       # ungrouped: input rows count
    Xp, yp, qidp = X[perm], y[perm], qid[perm]
    Xp[7, 3] = np.inf
    Xp[12, 1] = np.nan
    with pytest.raises(DataError, match="X: value inf at document 7, feature 3 is not finite"):
        cls(1.0).fit(Xp, yp, qidp)
    yp[5] = np.nan
    with pytest.raises(DataError, match="y: label nan at document 5 is not finite"):
        cls(1.0).fit(X[perm], yp, qidp)
    with pytest.raises(DataError, match="rows"):                # shape errors still first-class
        cls(1.0).fit(X, np.full(len(y) - 1, np.nan), qid)


def test_lqo_residuals_of_one_document_and_one_level_queries():
    sizes = [1, 5, 1, 4, 6, 1, 3]
    X, y, qp, qid = data(10, n=4, sizes=sizes)
    y[qp[3]:qp[4]] = 2.0                                        # query 3: one relevance level
    lam = 0.7
    model = RankRLS(lam).fit(X, y, qid)
    p = model.lqo_residuals()
    one_doc = [qp[q] for q, s in enumerate(sizes) if s == 1]
    assert np.all(p[one_doc] == 0)                              # contribute nothing
    # a one-level query has ŷ_Q = 0: its residual is minus its centred held-out predictions,
    # not zero (eq. 3 penalises score differences between equally relevant documents)
    refit = centre_by_query(ref.lqo_predictions(X, y, qp, lam), qp)
    Q3 = slice(qp[3], qp[4])
    np.testing.assert_allclose(p[Q3], -refit[Q3], atol=1e-10)
    assert np.max(np.abs(p[Q3])) > 1e-3
    for q in range(len(sizes)):
        lo, hi = qp[q], qp[q + 1]
        assert np.sum(p[lo:hi] ** 2) == pytest.approx(
            ref.held_out_loss(y[lo:hi] - ref.lqo_predictions(X, y, qp, lam)[lo:hi]),
            rel=1e-9, abs=1e-12)
    # every query with one level (every label equal): w = 0 and every residual is zero
    model = RankRLS(lam).fit(X, np.full(len(y), 3.0), qid)
    assert np.all(model.coef_ == 0) and np.all(model.lqo_residuals() == 0)
    assert model.lqo_error() == 0
    # only one-document queries: everything centres to zero
    X1, y1, _, qid1 = data(11, n=3, sizes=[1] * 5)
    model = RankRLS(lam).fit(X1, y1, qid1)
    assert np.all(model.lqo_residuals() == 0) and np.all(model.lqo_predictions() == 0)


@pytest.mark.parametrize("lam", [0.05, 3.0])
def test_lqo_error_equals_the_greedy_kernels_for_the_same_features(lam):
    sizes = [1, 5, 1, 4, 6, 2, 3]
    X, y, qp, qid = data(12, n=5, sizes=sizes)
    y[qp[1]:qp[2]] = 1.0                                        # one one-level query
    path = greedy_path(X, y, qp, lam, 5)
    for s in range(path.k):
        S = [int(f) for f in path.selected[:s]]
        for i in range(5):
            if i in S:
                assert np.isnan(path.candidate_errors[s, i])
                continue
            err = RankRLS(lam).fit(X[:, S + [i]], y, qid).lqo_error()
            assert err == pytest.approx(path.candidate_errors[s, i], rel=1e-9)
        err = RankRLS(lam).fit(X[:, S + [int(path.selected[s])]], y, qid).lqo_error()
        assert err == pytest.approx(path.lqo_errors[s], rel=1e-9)


def test_sparse_input():
    X, y, qp, qid = data(13, n=6)
    X[X < 3.0] = 0.0
    g = GreedyRankRLS(0.9, k=4).fit(X, y, qid)
    gs = GreedyRankRLS(0.9, k=4).fit(sp.csr_matrix(X), y, qid)
    assert np.array_equal(g.selected_, gs.selected_)
    for k in (1, 4):
        assert np.array_equal(gs.predict(sp.csr_matrix(X), k), g.predict(X, k))
    r = RankRLS(0.9).fit(sp.csr_matrix(X), y, qid)
    np.testing.assert_allclose(r.predict(sp.csr_matrix(X)), RankRLS(0.9).fit(X, y, qid).predict(X))
