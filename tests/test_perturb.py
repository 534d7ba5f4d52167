"""repro.data.perturb: the seeded relative jitter that measures a fit's sensitivity to
arithmetic."""
import numpy as np
import pytest
import scipy.sparse as sp

from repro.data.perturb import SCALE, jittered
from repro.data.queries import QueryData
from repro.errors import DataError


def _data(X):
    return QueryData(X, np.array([0.0, 1.0, 2.0, 0.0]), np.array([0, 2, 4]), np.array([7, 9]))


def test_dense_jitter_is_relative_seeded_and_keeps_zeros():
    X = np.array([[1.0, 0.0], [3.0, -2.0], [1e-300, 5.0], [0.0, 1e300]])
    d = _data(X)
    a, b = jittered(d, 3), jittered(d, 3)
    np.testing.assert_array_equal(a.X, b.X)                          # seeded
    assert not np.array_equal(a.X, jittered(d, 4).X)
    nz = X != 0
    rel = np.abs(a.X[nz] / X[nz] - 1.0)
    assert np.all(rel <= SCALE * (1 + 1e-3)) and np.any(rel > SCALE / 100)
    assert np.all(a.X[~nz] == 0) and a.X.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(X, d.X)                            # the input untouched
    for k in ("y", "query_ptr", "qids"):
        np.testing.assert_array_equal(getattr(a, k), getattr(d, k))
    assert jittered(d, None) is d                                    # replicate 0: the data


def test_sparse_jitter_keeps_the_pattern():
    X = sp.csr_matrix(np.array([[1.0, 0.0], [3.0, -2.0], [0.0, 5.0], [0.0, 1.0]]))
    a = jittered(_data(X), [1, 2], scale=1e-6)
    assert sp.issparse(a.X)
    np.testing.assert_array_equal(a.X.indices, X.indices)
    np.testing.assert_array_equal(a.X.indptr, X.indptr)
    assert np.all(np.abs(a.X.data / X.data - 1) <= 1e-6) and not np.array_equal(a.X.data, X.data)


@pytest.mark.parametrize("scale", [-1e-12, 0.5, float("nan")])
def test_refuses_a_jitter_that_is_not_small(scale):
    with pytest.raises(DataError, match="scale"):
        jittered(_data(np.ones((4, 2))), 1, scale=scale)
