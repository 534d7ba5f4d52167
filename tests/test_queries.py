"""QueryData, group_by_query and the synthetic generator."""
import numpy as np
import pytest
import scipy.sparse as sp

from repro.data.queries import QueryData
from repro.data.synthetic import make_queries
from repro.errors import DataError
from repro.rankers.base import group_by_query


def test_synthetic_is_seeded_and_shaped():
    a = make_queries(20, (1, 9), 7, n_levels=4, seed=5)
    b = make_queries(20, (1, 9), 7, n_levels=4, seed=5)
    c = make_queries(20, (1, 9), 7, n_levels=4, seed=6)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)
    assert a.n_queries == 20 and a.n_features == 7 and set(np.unique(a.y)) <= {0, 1, 2, 3}
    assert a.query_sizes.min() >= 1 and a.query_sizes.max() <= 9
    # rarest level is the highest (LETOR-like proportions)
    counts = np.bincount(a.y.astype(int), minlength=4)
    assert counts[0] > counts[3]


def test_synthetic_sparse_density():
    d = make_queries(10, 30, 50, density=0.1, sparse=True, seed=1)
    assert sp.issparse(d.X) and d.X.nnz == 300 * 5


def test_subset_concat_and_padding():
    d = make_queries(6, 3, 4, seed=0)
    s = d.subset([4, 1])
    assert s.n_queries == 2 and np.array_equal(s.X[:3], d.X[12:15])
    assert list(s.qids) == [d.qids[4], d.qids[1]]
    wide = s.with_features(6)
    assert wide.n_features == 6 and np.all(wide.X[:, 4:] == 0)
    both = QueryData.concat([d.subset([0]), wide])
    assert both.n_features == 6 and both.n_queries == 3 and list(both.query_ptr) == [0, 3, 6, 9]
    with pytest.raises(DataError, match="cannot shrink"):
        wide.with_features(2)


def test_query_data_validates_offsets():
    with pytest.raises(DataError, match="at least one document"):
        QueryData(np.zeros((2, 1)), np.zeros(2), np.array([0, 0, 2]), np.array([1, 2]))
    with pytest.raises(DataError, match="query_ptr"):
        QueryData(np.zeros((2, 1)), np.zeros(2), np.array([0, 1]), np.array([1]))


def test_group_by_query_is_stable_and_handles_scattered_ids():
    order, ptr, qids = group_by_query(np.array([7, 3, 7, 9, 3]))
    assert list(qids) == [7, 3, 9]
    assert list(order) == [0, 2, 1, 4, 3] and list(ptr) == [0, 2, 4, 5]
