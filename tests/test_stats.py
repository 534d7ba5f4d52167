"""Intervals and paired tests on per-query evidence (repro.judge.stats): checked against direct
computations with scipy.stats and against hand-computed values."""
import numpy as np
import pytest
from scipy import stats as st

from repro.judge.stats import holm, interval, paired, reproduction_measures, trend


def test_interval_is_seeded_and_covers_the_mean_of_fold_means():
    rng = np.random.default_rng(0)
    folds = [rng.random(40), rng.random(35) + 0.2, rng.random(50)]
    lo, hi = interval(folds, seed=3)
    assert (lo, hi) == interval(folds, seed=3)                 # same evidence, same interval
    mean = np.mean([f.mean() for f in folds])
    assert lo < mean < hi
    # stratified: width close to the normal approximation of the mean of independent means
    se = np.sqrt(sum(f.var(ddof=1) / f.size for f in folds)) / len(folds)
    assert hi - lo == pytest.approx(2 * 1.96 * se, rel=0.2)


def test_interval_of_constant_values_is_a_point_and_too_few_values_have_none():
    assert interval([[0.5, 0.5], [0.25, 0.25]], seed=1) == (0.375, 0.375)
    assert interval([[0.5], [0.2, 0.3]], seed=1) is None
    assert interval([[0.5, None, 0.7]], seed=1) is not None     # undefined values dropped


def test_paired_matches_scipy_and_its_significance():
    rng = np.random.default_rng(1)
    b = rng.random(60)
    a = b + 0.05 + 0.02 * rng.standard_normal(60)
    got = paired(a, b, seed=5)
    assert got.p_value == pytest.approx(st.ttest_rel(a, b).pvalue)
    assert got.effect == pytest.approx(np.mean(a - b))
    assert got.ci95[0] < got.effect < got.ci95[1]
    assert got.significant                         # the sign and adjustment: the claim's
    noise = paired(b + 0.001 * rng.standard_normal(60), b, seed=5)
    assert not paired(b, b, seed=5).significant
    assert noise.n_queries == 60
    w = paired(a, b, seed=5, test="wilcoxon")
    assert w.p_value == pytest.approx(st.wilcoxon(a - b, zero_method="zsplit").pvalue)


def test_trend_is_spearman_over_pooled_values():
    x = [1, 1, 2, 2, 3, 3]
    y = [0.1, 0.2, 0.3, 0.25, 0.5, 0.4]
    rho, p, n = trend(x, y)
    ref = st.spearmanr(x, y)
    assert (rho, p, n) == (pytest.approx(ref.statistic), pytest.approx(ref.pvalue), 6)


def test_holm_by_hand():
    # p sorted: 0.01 (×3 = 0.03), 0.02 (×2 = 0.04), 0.04 (×1 = 0.04)
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])


def test_reproduction_measures_by_hand():
    m = reproduction_measures(ours_adv=0.44, ours_base=0.42, pub_adv=0.55, pub_base=0.50)
    assert m["effect_ratio"] == pytest.approx(0.02 / 0.05)      # the gain at 40 % of its size
    assert m["delta_ri"] == pytest.approx(0.02 / 0.42 - 0.05 / 0.50)


def test_paired_values_equal_up_to_rounding_are_not_a_difference():
    from repro.judge.stats import paired
    rng = np.random.default_rng(5)
    a = rng.random(50)
    b = a + rng.normal(0, 1e-17, 50)          # the same values summed in another order
    res = paired(a, b, seed=1)
    assert res.p_value == 1.0 and res.effect == 0.0 and not res.significant
