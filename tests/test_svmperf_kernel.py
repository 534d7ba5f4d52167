"""The SVMperf oracles' kernel (``kernels/svmperf.pyx``) against its NumPy reference
(``tests/reference_svmperf.py``, the oracles' former bodies): the same bits, on random queries,
ties of scores, signed zeros, one document of a class, k beyond the query and large scores."""
import numpy as np
import pytest

from repro.errors import DataError
from repro.rankers.svmperf import PrecisionAtKOracle, ROCAreaOracle

import reference_svmperf as ref


def _queries(rng, trials):
    for t in range(trials):
        l = int(rng.integers(2, 40 if t % 3 else 6))
        y = (rng.random(l) < rng.uniform(0.1, 0.9)).astype(float)
        y[0], y[-1] = 1.0, 0.0                       # both classes
        kind = t % 5
        if kind == 0:
            g = rng.normal(size=l)
        elif kind == 1:                               # many ties
            g = rng.integers(-2, 3, l).astype(float) * 0.25
        elif kind == 2:                               # signed zeros and ties at zero
            g = np.where(rng.random(l) < 0.5, 0.0, -0.0) + (rng.random(l) < 0.3) * rng.normal(size=l)
        elif kind == 3:                               # large magnitudes
            g = rng.normal(size=l) * 1e12
        else:                                         # a single relevant document
            y[:] = 0.0
            y[int(rng.integers(0, l))] = 1.0
            g = rng.normal(size=l)
        yield y, g


def _same(a, b):
    (ca, da), (cb, db) = a, b
    return ca.tobytes() == cb.tobytes() and np.float64(da).tobytes() == np.float64(db).tobytes()


def test_roc_area_equals_reference_bit_for_bit():
    rng = np.random.default_rng(11)
    for y, g in _queries(rng, 300):
        P, N = np.flatnonzero(y >= 1), np.flatnonzero(y < 1)
        assert _same(ROCAreaOracle(y, [0, y.size], 1.0)(0, g), ref.roc_area(g, P, N))


@pytest.mark.parametrize("k", [1, 3, 10, 1000])
def test_precision_at_k_equals_reference_bit_for_bit(k):
    rng = np.random.default_rng(12 + k)
    for y, g in _queries(rng, 300):
        P, N = np.flatnonzero(y >= 1), np.flatnonzero(y < 1)
        oracle = PrecisionAtKOracle(y, [0, y.size], 1.0, k)
        table = oracle.losses(0)
        assert _same(oracle(0, g), ref.precision_at_k(g, P, N, *table))
        assert _same(oracle(0, g[::-1].copy()), ref.precision_at_k(g[::-1].copy(), P, N, *table))


def test_precision_loss_table_is_one_minus_precision_over_the_allowed_pairs():
    """The table both the kernel and its reference take: Δ(a, b) = 1 − a/(a + b) for a true
    and b false positives, allowed where a + b ≥ k and Δ > 0; by hand for 2 relevant and 3
    irrelevant documents, k = 2, and with k beyond the query (cut to its 5 documents)."""
    y = np.array([1.0, 0.0, 1.0, 0.0, 0.0])
    loss, allowed = PrecisionAtKOracle(y, [0, 5], 1.0, 2).losses(0)
    want = np.array([[np.nan, 1.0, 1.0, 1.0],
                     [0.0, 1 / 2, 2 / 3, 3 / 4],
                     [0.0, 1 / 3, 2 / 4, 3 / 5]])
    assert np.allclose(loss, want, rtol=0, atol=1e-15, equal_nan=True)
    assert allowed.astype(bool).tolist() == [[False, False, True, True],
                                             [False, True, True, True],
                                             [False, True, True, True]]
    _, cut = PrecisionAtKOracle(y, [0, 5], 1.0, 1000).losses(0)
    assert np.flatnonzero(cut.astype(bool)).tolist() == [11]          # (a, b) = (2, 3) only


def test_oracles_name_a_wrong_number_of_scores():
    y = np.array([1.0, 0.0, 0.0])
    for oracle in (ROCAreaOracle(y, [0, 3], 1.0), PrecisionAtKOracle(y, [0, 3], 1.0, 2)):
        with pytest.raises(DataError, match="expected 3 scores"):
            oracle(0, np.zeros(4))
