"""The dense kernel's fast paths (kernels/assignment.pyx): two-column scans with a scalar tail
(every size from 1 up, odd and even), the entry check fused into the column reduction (a
non-finite or huge entry anywhere, the last column of an odd size included), the search's
compacted columns, and the shortcut that skips the canonical pass when the optimal face has
a single assignment, which must still hand over to that pass on a single tie.  The rank-2
search keeps its columns compacted the same way (four columns per step, a scalar tail): every
size, ties, and a batch of mixed sizes sharing the work arrays."""
import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

import reference_assignment as ref
from repro.errors import DataError
from repro.rankers.assignment import (linear_assignment, linear_assignment_batch,
                                      rank2_assignment)


@pytest.mark.parametrize("n", list(range(1, 14)) + [31, 32, 33, 65])
def test_distinct_entries_every_size(n):
    """Distinct float entries: the optimum is unique, so the answer is scipy's (and its total
    the sum in row order)."""
    rng = np.random.default_rng(1000 + n)
    for shape in [(n, n), (n, n + 1), (n, 2 * n + 3)]:
        for _ in range(4):
            C = rng.random(shape)
            got = linear_assignment(C)
            r, c = linear_sum_assignment(C)
            assert np.array_equal(got.col_for_row, c)
            assert got.value == ref.assignment_value(C, c)


@pytest.mark.parametrize("n", [2, 3, 5, 8, 9, 17, 30])
def test_one_tie_is_found(n):
    """Distinct integers with the optimum made two-fold by one exchange: rows p < q swap
    their columns at no cost.  The shortcut must see the alternating cycle and leave the
    choice to the canonical pass (the lexicographically smaller of the two)."""
    rng = np.random.default_rng(n)
    for _ in range(6):
        C = rng.permutation(n * n).reshape(n, n).astype(float) * 4.0
        r, c = linear_sum_assignment(C)
        p, q = sorted(rng.choice(n, 2, replace=False))
        C[p, c[q]] = C[p, c[p]] + C[q, c[q]] - C[q, c[p]]   # exact: small integers
        want = ref.canonical_by_fixing(C)
        got = linear_assignment(C)
        assert np.array_equal(got.col_for_row, want[0])
        assert got.value == want[1]
        if n <= 5:
            assert np.array_equal(got.col_for_row, ref.canonical_brute_force(C)[0])


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 15, 16])
def test_signed_zeros_and_small_integers(n):
    """+0 and −0 compare equal: either may come out of a two-lane minimum, and no decision
    may depend on which."""
    rng = np.random.default_rng(50 + n)
    for _ in range(8):
        C = rng.integers(0, 3, (n, n)).astype(float)
        C[C == 0] *= rng.choice([-1.0, 1.0], int(np.sum(C == 0)))
        got = linear_assignment(C)
        want = ref.canonical_brute_force(C) if n <= 6 else ref.canonical_by_fixing(C)
        assert np.array_equal(got.col_for_row, want[0])
        assert got.value == want[1]


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7])
def test_forbidden_entry_anywhere(n):
    """+inf in any cell of a square matrix (the odd sizes put one in the scalar tail): the
    fused check must fall back to the forbidden-entry solve, whose answer is canonical."""
    rng = np.random.default_rng(70 + n)
    for i in range(n):
        for j in range(n):
            C = rng.integers(0, 3, (n, n)).astype(float)
            C[i, j] = np.inf
            want = ref.canonical_brute_force(C)
            if want is None:
                with pytest.raises(DataError, match="infeasible"):
                    linear_assignment(C)
                continue
            got = linear_assignment(C)
            assert np.array_equal(got.col_for_row, want[0])
            assert got.value == want[1]
            batch = linear_assignment_batch([C, np.eye(3)])[0]
            assert np.array_equal(batch.col_for_row, want[0])


@pytest.mark.parametrize("n", [1, 3, 4, 5])
@pytest.mark.parametrize("bad", [np.nan, -np.inf, 1e308])
def test_bad_entry_anywhere_is_refused(n, bad):
    """NaN, −inf (when minimising) and entries too large for the search, in every cell."""
    for i in range(n):
        for j in range(n):
            C = np.ones((n, n))
            C[i, j] = bad
            with pytest.raises(DataError):
                linear_assignment(C)
            with pytest.raises(DataError):
                linear_assignment(C[:, ::-1].copy())


def test_many_tight_edges_without_ties():
    """Rows that differ by a constant and columns that differ by a constant (C_ij = r_i +
    c_j) make every assignment optimal: the identity, whatever the constants."""
    rng = np.random.default_rng(9)
    for n in (2, 3, 10, 41):
        r = rng.integers(-5, 5, n).astype(float)
        c = rng.integers(-5, 5, n).astype(float)
        got = linear_assignment(np.add.outer(r, c))
        assert np.array_equal(got.col_for_row, np.arange(n))


def _rank2_problem(rng, l, n_top, kind):
    """DORM's weights (eq. 24): c_j = 1/(j+1), a_j = NDCG discounts on the top n_top (zero
    beyond), gains b from a few label levels; g distinct, rounded (ties) or all equal."""
    y = rng.integers(0, 3, l).astype(float)
    b = 2.0 ** y - 1.0
    c = 1.0 / (np.arange(l) + 1.0)
    a = np.where(np.arange(l) < n_top, 1.0 / np.log2(np.arange(l) + 2.0), 0.0)
    g = {"distinct": rng.standard_normal(l), "rounded": np.round(rng.standard_normal(l), 1),
         "equal": np.full(l, 0.25)}[kind]
    return g, b, c, a


@pytest.mark.parametrize("l", list(range(1, 14)) + [31, 32, 33, 34, 65])
def test_rank2_search_every_size(l):
    """The rank-2 search's four-column steps and scalar tail, at every remainder: the same
    canonical positions as the dense solve of the same matrix (and the optimum)."""
    rng = np.random.default_rng(300 + l)
    for kind in ("distinct", "rounded", "equal"):
        for n_top in sorted({0, 1, min(3, l), min(10, l), l}):
            g, b, c, a = _rank2_problem(rng, l, n_top, kind)
            got = rank2_assignment(g, b, c, a, [0, l])
            C = ref.dorm_matrix(g, b, c, a)
            dense = linear_assignment(C, maximize=True)
            assert np.array_equal(got.position, dense.col_for_row), (kind, n_top)
            r, col = linear_sum_assignment(C, maximize=True)
            assert abs(got.value[0] - C[r, col].sum()) <= 1e-12 * max(1.0, np.abs(C).max()) * l


def test_rank2_batch_of_mixed_sizes_is_per_query():
    """One batch whose queries, big and small, share the compacted work arrays: each query's
    answer is the one it gets alone."""
    rng = np.random.default_rng(31)
    parts = [_rank2_problem(rng, int(l), int(rng.integers(0, l + 1)),
                            ("distinct", "rounded", "equal")[q % 3])
             for q, l in enumerate(rng.integers(1, 70, 40))]
    qp = np.concatenate([[0], np.cumsum([len(p[0]) for p in parts])])
    g, b, c, a = (np.concatenate([p[k] for p in parts]) for k in range(4))
    got = rank2_assignment(g, b, c, a, qp)
    for q, p in enumerate(parts):
        alone = rank2_assignment(*p, [0, len(p[0])])
        assert np.array_equal(got.position[qp[q]:qp[q + 1]], alone.position)
        assert got.value[q] == alone.value[0]
        assert got.n_augmented[q] == alone.n_augmented[0]
