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
    (np.array([[1.0, 2], [np.inf, 1]]), r"entry \(1, 0\) is inf"),
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
