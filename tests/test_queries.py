"""QueryData, group_by_query and the synthetic generator."""
import numpy as np
import pytest
import scipy.sparse as sp

from repro.data.queries import QueryData, remove_conflicts
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


def test_subset_docs_drops_emptied_queries():
    d = make_queries(3, 3, 2, seed=0)
    d.docids = np.arange(9)
    keep = np.array([1, 0, 1, 0, 0, 0, 0, 1, 1], bool)
    s = d.subset_docs(keep, "kept")
    assert s.source == "kept" and list(s.qids) == [d.qids[0], d.qids[2]]
    assert list(s.query_ptr) == [0, 2, 4] and list(s.docids) == [0, 2, 7, 8]
    assert np.array_equal(s.X, d.X[keep]) and s.X.flags.c_contiguous
    with pytest.raises(DataError, match="one boolean per document"):
        d.subset_docs(keep[:-1])
    sparse = QueryData(sp.csr_matrix(d.X), d.y, d.query_ptr, d.qids)
    assert np.array_equal(sparse.subset_docs(keep).X.toarray(), d.X[keep])


def test_remove_conflicts_by_hand():
    X = np.array([[1.0, 0], [1.0, 0], [0, 1.0], [2.0, 2], [5.0, 5], [5.0, 5], [6.0, 6]])
    y = np.array([1.0, 0, 0, 1, 0, 2, 0])            # q1: docs 0,1 conflict; q2: 4,5 conflict
    d = QueryData(X, y, [0, 4, 7], np.array([1, 2]), source="toy")
    out, info = remove_conflicts(d)
    assert info == {"conflict_groups": 2, "conflicting_documents": 4,
                    "queries_without_good": 1, "documents": 7, "queries": 2}
    assert out.n_queries == 1 and np.array_equal(out.y, [0.0, 1.0])   # q2 keeps a bad doc only
    assert out.source == "toy (cleaned)" and list(out.qids) == [1]
    # identical vectors with the same binary label (1 and 2) are no conflict; threshold moves it
    d = QueryData(X[:2], np.array([1.0, 2.0]), [0, 2], np.array([1]))
    assert remove_conflicts(d)[0].n_docs == 2
    with pytest.raises(DataError, match="no document"):        # 1 and 2 now conflict
        remove_conflicts(d, threshold=2.0)
    d = QueryData(X[:3], np.array([1.0, 2.0, 2.0]), [0, 3], np.array([1]))
    assert remove_conflicts(d, threshold=2.0)[1]["conflicting_documents"] == 2


def test_query_data_validates_offsets():
    with pytest.raises(DataError, match="at least one document"):
        QueryData(np.zeros((2, 1)), np.zeros(2), np.array([0, 0, 2]), np.array([1, 2]))
    with pytest.raises(DataError, match="query_ptr"):
        QueryData(np.zeros((2, 1)), np.zeros(2), np.array([0, 1]), np.array([1]))


def test_group_by_query_is_stable_and_handles_scattered_ids():
    order, ptr, qids = group_by_query(np.array([7, 3, 7, 9, 3]))
    assert list(qids) == [7, 3, 9]
    assert list(order) == [0, 2, 1, 4, 3] and list(ptr) == [0, 2, 4, 5]
