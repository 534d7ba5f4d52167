"""RankBoost (factorised RankBoost.B) against plain RankBoost on explicit pairs."""
import numpy as np
import pytest

import reference_rankboost as ref
from repro.data.synthetic import make_queries
from repro.errors import DataError
from repro.rankers.rankboost import RankBoost


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rounds_equal_the_explicit_pair_reference(seed):
    d = make_queries(7, (4, 11), 5, n_levels=3, seed=seed)
    d.y[d.query(0)] = 0.0                      # a query without goods is skipped
    r = RankBoost(n_rounds=12).fit_data(d)
    want = ref.rankboost(d.X, d.y, d.query_ptr, 12)
    assert list(r.features_) == [f for f, _, _ in want]
    np.testing.assert_allclose(r.thresholds_, [t for _, t, _ in want], rtol=1e-14)
    np.testing.assert_allclose(r.alphas_, [a for _, _, a in want], rtol=1e-9)
    np.testing.assert_allclose(r.predict(d.X), ref.score(want, d.X), rtol=1e-9, atol=1e-12)


def test_first_round_by_hand():
    # one query, one feature: goods at 3 and 1, bads at 2 and 0; threshold 2.5 puts one good
    # above everything: r = (2 pairs with h(g) − h(b) = 1)/4 = 0.5; threshold 1.5 (h = 1 for
    # 3 and 2): pairs (b=2,g=3): 0, (b=0,g=3): 1, (b=2,g=1): −1, (b=0,g=1): 0 → r = 0;
    # threshold 0.5: r = (1 + 1)/4 − 0 … = 0.5 as well; ties keep the highest threshold.
    X = np.array([[3.0], [2.0], [1.0], [0.0]])
    y = np.array([1.0, 0.0, 1.0, 0.0])
    r = RankBoost(n_rounds=1).fit(X, y, np.zeros(4))
    assert r.thresholds_[0] == 2.5 and r.alphas_[0] == pytest.approx(0.5 * np.log(3.0))


def test_fit_grid_prefixes_equal_separate_fits():
    d = make_queries(6, (5, 9), 4, seed=4)
    got = list(RankBoost().fit_grid(d, {"n_rounds": [3, 10]}))
    for params, model in got:
        single = RankBoost(**params).fit_data(d)
        np.testing.assert_array_equal(model.features_, single.features_)
        np.testing.assert_allclose(model.predict(d.X), single.predict(d.X), rtol=1e-12)


def test_bad_input():
    X = np.random.default_rng(0).random((6, 2))
    with pytest.raises(DataError, match="no query has both"):
        RankBoost().fit(X, np.zeros(6), np.zeros(6))
    with pytest.raises(DataError, match="n_rounds"):
        RankBoost(n_rounds=0).fit(X, np.r_[np.ones(3), np.zeros(3)], np.zeros(6))
