"""scipy's own tests of ``scipy.optimize.linear_sum_assignment``
(``scipy/optimize/tests/test_linear_assignment.py`` and the shared cases of
``scipy/sparse/csgraph/tests/test_matching.py``, scipy 1.17) run against
:func:`repro.rankers.assignment.linear_assignment` through a shim with scipy's signature.

Deviations, messages aside: every refusal is a :class:`repro.errors.DataError` (a
``ValueError``), also for a string matrix, where scipy raises ``TypeError``.
"""
import numpy as np
import pytest
from numpy.testing import assert_array_equal
from scipy.sparse import random_array
from scipy.sparse.csgraph import min_weight_full_bipartite_matching

from repro.errors import DataError
from repro.rankers.assignment import linear_assignment


def lsa(cost, maximize=False):
    """scipy's interface: ``(row_ind, col_ind)`` with row_ind increasing."""
    return linear_assignment(cost, maximize=maximize).pairs()


def test_input_shape():
    with pytest.raises(ValueError, match="2-d"):
        lsa([1, 2, 3])


def test_input_object():
    from scipy.sparse._sputils import matrix
    C = [[1, 2, 3], [4, 5, 6]]
    assert_array_equal(lsa(C), lsa(np.asarray(C)))
    assert_array_equal(lsa(C), lsa(matrix(C)))


def test_input_bool():
    I = np.identity(3)
    assert_array_equal(lsa(I.astype(np.bool_)), lsa(I))


def test_input_string():
    with pytest.raises(DataError, match="real numbers"):
        lsa(np.identity(3).astype(str))


def test_input_nan():
    with pytest.raises(ValueError, match="nan"):
        lsa(np.diag([np.nan, 1, 1]))


def test_input_neginf():
    with pytest.raises(ValueError, match="-inf"):
        lsa(np.diag([1, -np.inf, 1]))


def test_input_inf():
    I = np.identity(3)
    I[:, 0] = np.inf
    with pytest.raises(ValueError, match="infeasible"):
        lsa(I)


def test_constant_cost_matrix():
    n = 8
    row_ind, col_ind = lsa(np.ones((n, n)))
    assert_array_equal(row_ind, np.arange(n))
    assert_array_equal(col_ind, np.arange(n))


@pytest.mark.parametrize("num_rows,num_cols", [(0, 0), (2, 0), (0, 3)])
def test_trivial_cost(num_rows, num_cols):
    row_ind, col_ind = lsa(np.empty(shape=(num_cols, num_rows)))
    assert len(row_ind) == 0
    assert len(col_ind) == 0


CASES = [
    ([[400, 150, 400], [400, 450, 600], [300, 225, 300]], [150, 400, 300]),
    ([[400, 150, 400, 1], [400, 450, 600, 2], [300, 225, 300, 3]], [150, 2, 300]),
    ([[10, 10, 8], [9, 8, 1], [9, 7, 4]], [10, 1, 7]),
    ([[10, 10, 8, 11], [9, 8, 1, 1], [9, 7, 4, 10]], [10, 1, 4]),
    ([[10, np.inf, np.inf], [np.inf, np.inf, 1], [np.inf, 7, np.inf]], [10, 1, 7]),
]


@pytest.mark.parametrize("sign", [-1, 1])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_small_inputs(sign, case):
    cost_matrix, expected_cost = CASES[case]
    maximize = sign == -1
    cost_matrix = sign * np.array(cost_matrix, dtype=float)
    expected_cost = sign * np.array(expected_cost)
    row_ind, col_ind = lsa(cost_matrix, maximize=maximize)
    assert_array_equal(row_ind, np.sort(row_ind))
    assert_array_equal(expected_cost, cost_matrix[row_ind, col_ind])
    cost_matrix = cost_matrix.T
    row_ind, col_ind = lsa(cost_matrix, maximize=maximize)
    assert_array_equal(row_ind, np.sort(row_ind))
    assert_array_equal(np.sort(expected_cost), np.sort(cost_matrix[row_ind, col_ind]))


def test_same_result_as_sparse_matching_on_many_sparse_inputs():
    """100 cases of 100×100 with 6 % allowed entries (+inf elsewhere), about a third of
    them infeasible: refused exactly when scipy's sparse full matching is, same optimum
    otherwise.  (scipy draws the positions unseeded; here they are seeded too.)"""
    rng = np.random.default_rng(12342309)
    infeasible = 0
    for _ in range(100):
        sparse = random_array((100, 100), density=0.06, rng=rng,
                              data_sampler=lambda size: rng.integers(1, 100, size))
        dense = np.full(sparse.shape, np.inf)
        dense[sparse.row, sparse.col] = sparse.data
        sparse = sparse.tocsr()
        try:
            row_ind, col_ind = lsa(dense)
            ours = dense[row_ind, col_ind].sum()
            ours_raises = False
        except ValueError:
            ours_raises = True
        try:
            row_ind, col_ind = min_weight_full_bipartite_matching(sparse)
            theirs = sparse[row_ind, col_ind].sum()
            theirs_raises = False
        except ValueError:
            theirs_raises = True
        assert ours_raises == theirs_raises
        infeasible += ours_raises
        if not ours_raises:
            assert ours == theirs
    assert 10 < infeasible < 90          # both kinds of case occur
