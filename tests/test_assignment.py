"""The linear assignment kernel against brute force over all permutations (n ≤ 7) and against
scipy's optimum, on random, integer-tied, all-equal, huge and DORM-structured matrices."""
import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

import reference_assignment as ref
from repro.errors import DataError
from repro.rankers.assignment import (linear_assignment, linear_assignment_batch,
                                      rank2_assignment)


def close(got, want, C):
    """Objective equal to 1e-12 relative (scale: the largest entry times the size)."""
    scale = max(1.0, float(np.max(np.abs(C))) * min(np.shape(C))) if np.size(C) else 1.0
    assert abs(got - want) <= 1e-12 * scale, (got, want)


def matrices(rng, nr, nc):
    yield "random", rng.normal(size=(nr, nc))
    yield "integer ties", rng.integers(0, 3, (nr, nc)).astype(float)
    yield "all equal", np.full((nr, nc), -2.5)
    yield "huge", rng.choice([-1.0, 1.0], (nr, nc)) * 10.0 ** rng.integers(-3, 150, (nr, nc))
    yield "rank 2", (np.outer(rng.normal(size=nr), rng.normal(size=nc))
                     - np.outer(rng.integers(0, 3, nr), rng.random(nc)))


SHAPES = [(1, 1), (2, 2), (3, 3), (5, 5), (7, 7), (2, 5), (4, 7), (6, 3), (7, 1)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("maximize", [False, True])
def test_dense_equals_brute_force_and_scipy(shape, maximize):
    rng = np.random.default_rng(hash(shape) % 2**32)
    for _ in range(3):
        for kind, C in matrices(rng, *shape):
            got = linear_assignment(C, maximize=maximize)
            value = ref.assignment_value(C, got.col_for_row)
            close(value, got.value, C)
            close(got.value, ref.brute_force(C, maximize), C)
            r, c = linear_sum_assignment(C, maximize=maximize)
            close(got.value, C[r, c].sum(), C)


@pytest.mark.parametrize("n", [20, 60, 150])
def test_dense_large_equals_scipy(n):
    rng = np.random.default_rng(n)
    for shape in [(n, n), (n // 2, n), (n, n // 3)]:
        for kind, C in matrices(rng, *shape):
            for maximize in (False, True):
                got = linear_assignment(C, maximize=maximize)
                close(ref.assignment_value(C, got.col_for_row), got.value, C)
                r, c = linear_sum_assignment(C, maximize=maximize)
                close(got.value, C[r, c].sum(), C)


def test_pairs_layout_matches_scipy_on_a_unique_optimum():
    C = np.array([[4.0, 1, 3], [2, 0, 5], [3, 2, 2]])
    rows, cols = linear_assignment(C).pairs()
    r, c = linear_sum_assignment(C)
    assert np.array_equal(rows, r) and np.array_equal(cols, c)
    T = np.array([[4.0, 2], [1, 0], [0, 5]])                  # 3 rows, 2 columns
    rows, cols = linear_assignment(T).pairs()
    r, c = linear_sum_assignment(T)
    assert np.array_equal(rows, r) and np.array_equal(cols, c)


def test_batch_equals_single_solves():
    rng = np.random.default_rng(7)
    mats = [C for shape in SHAPES + [(30, 30), (10, 40)] for _, C in matrices(rng, *shape)]
    for maximize in (False, True):
        batch = linear_assignment_batch(mats, maximize=maximize)
        assert len(batch) == len(mats)
        for C, got in zip(mats, batch):
            single = linear_assignment(C, maximize=maximize)
            assert np.array_equal(got.col_for_row, single.col_for_row)
            assert got.value == single.value
    assert linear_assignment_batch([]) == []


def dorm_problem(rng, l, n_top, levels=3, ties=False, scheme="ndcg"):
    g = (rng.integers(0, 2, l).astype(float) if ties else rng.normal(size=l))
    r = rng.integers(0, levels, l).astype(float)
    pos = np.arange(1, l + 1)
    c = 1.0 / (pos + 1.0)
    if scheme == "ndcg":
        a = np.where(pos <= n_top, 1.0 / np.log2(pos + 1.0), 0.0)
        b = 2.0 ** r - 1.0
    elif scheme == "mrr":
        a = 1.0 / pos
        b = (r == r.max()).astype(float)
        b[np.flatnonzero(b)[1:]] = 0.0
    else:                                   # wta
        a = (pos == 1).astype(float)
        b = (r == r.max()).astype(float)
    return g, b, c, a


@pytest.mark.parametrize("scheme", ["ndcg", "mrr", "wta"])
def test_rank2_equals_brute_force(scheme):
    rng = np.random.default_rng(11)
    for l in range(1, 8):
        for n_top in range(0, l + 1):
            for ties in (False, True):
                g, b, c, a = dorm_problem(rng, l, n_top, ties=ties, scheme=scheme)
                got = rank2_assignment(g, b, c, a, [0, l])
                C = ref.dorm_matrix(g, b, c, a)
                assert sorted(got.position) == list(range(l))
                close(ref.assignment_value(C, got.position), got.value[0], C)
                close(got.value[0], ref.brute_force(C, maximize=True), C)


def test_rank2_batch_equals_scipy_on_dorm_sized_queries():
    rng = np.random.default_rng(5)
    parts = [dorm_problem(rng, int(l), 10, levels=5, ties=(q % 3 == 0))
             for q, l in enumerate(rng.integers(5, 130, 25))]
    parts.append((np.zeros(40), *dorm_problem(rng, 40, 10)[1:]))         # w = 0: all tied
    sizes = [len(p[0]) for p in parts]
    qp = np.concatenate([[0], np.cumsum(sizes)])
    g, b, c, a = (np.concatenate([p[k] for p in parts]) for k in range(4))
    got = rank2_assignment(g, b, c, a, qp)
    for q, p in enumerate(parts):
        C = ref.dorm_matrix(*p)
        pos = got.position[qp[q]:qp[q + 1]]
        close(ref.assignment_value(C, pos), got.value[q], C)
        r, col = linear_sum_assignment(C, maximize=True)
        close(got.value[q], C[r, col].sum(), C)
        # dense solve of the same matrix agrees too
        close(linear_assignment(C, maximize=True).value, got.value[q], C)
    # only min(|T|, |R|) rows needed an augmenting path
    assert np.all(got.n_augmented <= 10)


def test_rank2_solver_of_one_query_equals_the_batch_call():
    """:class:`Rank2Solver` (DORM's oracle, one query solved again for new scores) gives the
    batch wrapper's positions and augmentation counts, whatever it solved before."""
    from repro.rankers.assignment import Rank2Solver
    rng = np.random.default_rng(8)
    for l in (1, 2, 7, 60):
        _, b, c, a = dorm_problem(rng, l, 10, levels=3, ties=True)
        solve = Rank2Solver(b, c, a)
        for trial in range(6):
            g = rng.normal(size=l) if trial % 3 else np.zeros(l)
            want = rank2_assignment(g, b, c, a, [0, l])
            pos, n_aug = solve(g)
            assert np.array_equal(pos, want.position) and n_aug == want.n_augmented[0]
    with pytest.raises(ValueError, match="one query"):
        Rank2Solver(b, c[:-1], a)


def test_rank2_structure_choice_mrr_needs_one_path():
    rng = np.random.default_rng(2)
    g, b, c, a = dorm_problem(rng, 50, 0, scheme="mrr")
    got = rank2_assignment(g, b, c, a, [0, 50])
    assert got.n_augmented[0] == 1          # |R| = 1 relevant document, |T| = 50 positions
    C = ref.dorm_matrix(g, b, c, a)
    r, col = linear_sum_assignment(C, maximize=True)
    close(got.value[0], C[r, col].sum(), C)


@pytest.mark.parametrize("bad, match", [
    (np.array([[1.0, np.nan], [0, 1]]), r"entry \(0, 1\) is nan"),
    (np.array([[1.0, 2], [-np.inf, 1]]), r"entry \(1, 0\) is -inf.*\+inf marks a forbidden"),
    (np.array([[1.0, 2], [np.inf, np.inf]]), r"infeasible"),
    (np.array([[1e308, np.inf], [0, 1]]), "too large"),
    (np.array([1.0, 2, 3]), "2-d"),
    (np.zeros((2, 2, 2)), "2-d"),
    (np.array([[1e308, 0], [0, 1]]), "too large"),
    (np.array([["a", "b"]]), "real numbers"),
])
def test_bad_matrices_are_clear_errors(bad, match):
    with pytest.raises(DataError, match=match):
        linear_assignment(bad)
    with pytest.raises(DataError, match=match.replace("cost", "costs")):
        linear_assignment_batch([np.eye(2), bad])


def test_maximize_refuses_plus_inf_and_nan():
    with pytest.raises(DataError, match=r"entry \(0, 0\) is inf.*-inf marks a forbidden"):
        linear_assignment(np.array([[np.inf, 0], [0, 1]]), maximize=True)
    with pytest.raises(DataError, match=r"entry \(1, 1\) is nan"):
        linear_assignment(np.array([[-np.inf, 0], [0, np.nan]]), maximize=True)
    with pytest.raises(DataError, match="costs\\[1\\]: the cost matrix is infeasible"):
        linear_assignment_batch([np.eye(2), np.full((2, 3), -np.inf)], maximize=True)


def test_bad_rank2_input_is_a_clear_error():
    g, b, c, a = np.zeros(4), np.ones(4), np.array([0.5, 0.4, 0.3, 0.2]), np.ones(4)
    with pytest.raises(DataError, match="g: value nan at document 2"):
        rank2_assignment([0, 0, np.nan, 0], b, c, a, [0, 4])
    with pytest.raises(DataError, match="b: expected 4 values"):
        rank2_assignment(g, b[:3], c, a, [0, 4])
    with pytest.raises(DataError, match="non-increasing"):
        rank2_assignment(g, b, c[::-1], a, [0, 4])
    with pytest.raises(DataError, match="query_ptr"):
        rank2_assignment(g, b, c, a, [0, 3])
    # c may rise from one query to the next
    got = rank2_assignment(g, b, np.array([0.5, 0.4, 0.9, 0.1]), a, [0, 2, 4])
    assert sorted(got.position[:2]) == [0, 1] and sorted(got.position[2:]) == [0, 1]


def test_empty_matrix():
    got = linear_assignment(np.zeros((0, 3)))
    assert got.col_for_row.shape == (0,) and got.value == 0.0


# ---- canonical ties and forbidden entries -------------------------------------------------

def tied(rng, nr, nc, p_forbidden=0.0, levels=3):
    """Integer costs (exact sums, many ties), some entries forbidden (+inf)."""
    C = rng.integers(0, levels, (nr, nc)).astype(float)
    C[rng.random((nr, nc)) < p_forbidden] = np.inf
    return C


@pytest.mark.parametrize("shape", SHAPES + [(1, 6), (6, 1), (3, 7)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_ties_give_the_lexicographically_smallest_optimum(shape):
    rng = np.random.default_rng(sum(shape) * 31 + shape[0])
    for trial in range(12):
        p = (0.0, 0.3, 0.6)[trial % 3]
        C = tied(rng, *shape, p_forbidden=p, levels=2 + trial % 3)
        for maximize in (False, True):
            M = -C if maximize else C
            want = ref.canonical_brute_force(M, maximize)
            if want is None:
                with pytest.raises(DataError, match="infeasible"):
                    linear_assignment(M, maximize=maximize)
                continue
            got = linear_assignment(M, maximize=maximize)
            assert np.array_equal(got.col_for_row, want[0]), (M, got.col_for_row, want[0])
            assert got.value == want[1]
            batch = linear_assignment_batch([np.eye(2), M], maximize=maximize)[1]
            assert np.array_equal(batch.col_for_row, want[0]) and batch.value == want[1]


@pytest.mark.parametrize("shape", [(20, 20), (40, 40), (15, 35), (30, 12)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_ties_canonical_on_larger_matrices(shape):
    rng = np.random.default_rng(shape[0] * 100 + shape[1])
    for p, levels in ((0.0, 2), (0.0, 4), (0.5, 3)):
        C = tied(rng, *shape, p_forbidden=p, levels=levels)
        for maximize in (False, True):
            M = -C if maximize else C
            T = M.T if shape[0] > shape[1] else M
            want = ref.canonical_by_fixing(T, maximize)
            got = linear_assignment(T, maximize=maximize)
            assert np.array_equal(got.col_for_row, want[0])
            assert got.value == want[1]
            if shape[0] > shape[1]:                # the tall matrix: the rule on the transpose
                tall = linear_assignment(M, maximize=maximize)
                rows, cols = tall.pairs()
                assert np.array_equal(rows[np.argsort(cols)], want[0])


def test_constant_and_permuted_ties():
    for n in (1, 2, 8, 50, 200):
        got = linear_assignment(np.full((n, n), 3.25))
        assert np.array_equal(got.col_for_row, np.arange(n))
        assert np.array_equal(linear_assignment(np.zeros((n, n)), maximize=True).col_for_row,
                              np.arange(n))
    # the canonical answer does not depend on where the solver's path went: a block matrix
    # whose optimum is any permutation within each block, rows and columns shuffled
    rng = np.random.default_rng(3)
    blocks = np.kron(np.eye(4), np.ones((5, 5))) * -1.0
    for _ in range(5):
        pr, pc = rng.permutation(20), rng.permutation(20)
        B = blocks[pr][:, pc]
        got = linear_assignment(B).col_for_row
        want = ref.canonical_by_fixing(B)[0]
        assert np.array_equal(got, want)


def test_ties_within_rounding_are_ties():
    """Equal rows built from non-dyadic numbers: the duals of the two rows may differ in
    the last bits, and the rule still sees the tie."""
    rng = np.random.default_rng(4)
    for n in (6, 30, 90):
        base = rng.random((n // 3, n)) * 0.1 + np.pi
        C = base[rng.integers(0, n // 3, n)]          # rows repeated in shuffled order
        got = linear_assignment(C)
        # a row equal to an earlier row never has a smaller column than it
        first = {}
        for i in range(n):
            key = C[i].tobytes()
            if key in first:
                assert got.col_for_row[i] > got.col_for_row[first[key]]
            else:
                first[key] = i
        r, c = linear_sum_assignment(C)
        close(got.value, C[r, c].sum(), C)


def dyadic_problem(rng, l):
    """DORM-shaped (eq. 24) with exact arithmetic: dyadic weights, integer scores/gains."""
    g = rng.integers(-2, 3, l).astype(float)
    b = rng.integers(0, 3, l).astype(float)
    c = np.sort(2.0 ** -rng.integers(0, 4, l))[::-1]
    a = np.where(np.arange(l) < rng.integers(0, l + 1), 2.0 ** -rng.integers(0, 3, l), 0.0)
    return g, b, c, a


def test_rank2_ties_canonical():
    rng = np.random.default_rng(17)
    for l in range(1, 8):
        for _ in range(25):
            g, b, c, a = dyadic_problem(rng, l)
            got = rank2_assignment(g, b, c, a, [0, l])
            C = ref.dorm_matrix(g, b, c, a)
            want = ref.canonical_brute_force(C, maximize=True)
            assert np.array_equal(got.position, want[0]), (g, b, c, a)
            assert got.value[0] == want[1]
    # DORM's own weights (not exact): ties within rounding, g all zero (w = 0) or tied
    for l in range(2, 8):
        for n_top in range(0, l + 1):
            g, b, c, a = dorm_problem(rng, l, n_top, ties=True)
            got = rank2_assignment(g, b, c, a, [0, l])
            want = ref.canonical_brute_force(ref.dorm_matrix(g, b, c, a), True, tol=1e-9)
            assert np.array_equal(got.position, want[0])
            got0 = rank2_assignment(np.zeros(l), b, c, a, [0, l])
            want0 = ref.canonical_brute_force(ref.dorm_matrix(np.zeros(l), b, c, a), True,
                                              tol=1e-9)
            assert np.array_equal(got0.position, want0[0])


def test_rank2_canonical_equals_dense_canonical_on_dorm_sized_queries():
    rng = np.random.default_rng(23)
    for q in range(12):
        l = int(rng.integers(10, 60))
        g, b, c, a = dyadic_problem(rng, l)
        got = rank2_assignment(g, b, c, a, [0, l])
        C = ref.dorm_matrix(g, b, c, a)
        dense = linear_assignment(C, maximize=True)
        assert np.array_equal(got.position, dense.col_for_row)
        assert np.array_equal(got.position, ref.canonical_by_fixing(C, maximize=True)[0])
