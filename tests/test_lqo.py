"""The greedy RankRLS kernel (Algorithm 1) against brute-force leave-query-out refits."""
import numpy as np
import pytest
import scipy.sparse as sp

import reference_lqo as ref
from repro.errors import DataError
from repro.rankers.lqo import GreedyLQO, centre_by_query, centre_transpose, greedy_path


def make(sizes, n, seed, constant=(), within_constant=(), duplicate=None, levels=3):
    rng = np.random.default_rng(seed)
    qp = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    m = int(qp[-1])
    X = rng.normal(size=(m, n))
    for j in constant:                     # the same value for every document
        X[:, j] = 0.7
    for j in within_constant:              # constant inside each query, varying across
        X[:, j] = np.repeat(rng.normal(size=len(sizes)), sizes)
    if duplicate is not None:
        X[:, duplicate[1]] = X[:, duplicate[0]]
    y = rng.integers(0, levels, m).astype(float)
    return X, y, qp


def close(a, b, rtol=1e-8):
    a, b = np.asarray(a, float), np.asarray(b, float)
    assert np.array_equal(np.isnan(a), np.isnan(b))
    ok = ~np.isnan(a)
    assert np.all(np.abs(a[ok] - b[ok]) <= rtol * np.maximum(1.0, np.abs(b[ok]))), \
        np.max(np.abs(a[ok] - b[ok]))


UNEVEN = [5, 1, 8, 3, 1, 12, 2, 6, 4]          # includes one-document queries


@pytest.mark.parametrize("lam", [1e-3, 0.7, 50.0])
def test_every_candidate_error_equals_refits(lam):
    X, y, qp = make(UNEVEN, 7, seed=1, constant=(2,), within_constant=(5,))
    path = greedy_path(X, y, qp, lam, k=7)
    for s in range(path.k):
        want = ref.candidate_errors(X, y, qp, lam, [int(f) for f in path.selected[:s]])
        close(path.candidate_errors[s], want)
        # the kernel's choice is the brute-force minimiser (up to exact ties in theory,
        # which the constant features create: their errors equal to rounding)
        b = path.selected[s]
        assert want[b] <= np.nanmin(want) + 1e-9 * max(1.0, abs(np.nanmin(want)))
        close(path.lqo_errors[s], want[b])


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_path_equals_bruteforce_greedy(seed):
    rng = np.random.default_rng(seed)
    sizes = list(rng.integers(1, 10, 10))
    X, y, qp = make(sizes, 6, seed)
    want_sel, want_err = ref.greedy(X, y, qp, 1.3, 6)
    path = greedy_path(X, y, qp, 1.3, 6)
    assert list(path.selected) == want_sel
    close(path.lqo_errors, want_err)


def test_prefix_weights_are_rankrls_on_prefix():
    X, y, qp = make(UNEVEN, 6, seed=5, constant=(4,))
    lam = 0.9
    path = greedy_path(X, y, qp, lam)
    for k in range(1, path.k + 1):
        feats, w = path.prefix(k)
        close(w, ref.rankrls_pairs(X[:, feats], y, qp, lam), rtol=1e-9)
        assert np.all(path.weights[k - 1, k:] == 0)
        np.testing.assert_allclose(path.scores(X, k), X[:, feats] @ w)
        assert np.count_nonzero(path.coef(k)) <= k


def test_constant_features_change_nothing_and_get_zero_weight():
    X, y, qp = make(UNEVEN, 5, seed=6, constant=(1,), within_constant=(3,))
    path = greedy_path(X, y, qp, 1.0)
    e0 = np.sum(centre_by_query(y, qp) ** 2)        # S = ∅: every prediction is 0
    # a constant feature leaves the LQO error where it was (e_i = e(S)) ...
    assert path.candidate_errors[0, 1] == pytest.approx(e0, rel=1e-12)
    assert path.candidate_errors[0, 3] == pytest.approx(e0, rel=1e-12)
    # ... and has weight 0 once selected
    for f in (1, 3):
        s = list(path.selected).index(f)
        assert abs(path.weights[-1, s]) < 1e-12


def test_duplicate_features_tie_to_the_lower_index():
    X, y, qp = make(UNEVEN, 5, seed=7, duplicate=(3, 1))
    path = greedy_path(X, y, qp, 1.0, 5)
    assert path.candidate_errors[0, 1] == path.candidate_errors[0, 3]   # bit-identical
    sel = list(path.selected)
    assert sel.index(1) < sel.index(3)


def test_single_query_and_single_document_queries():
    # one query: holding it out leaves nothing to train on, so every error is ‖ŷ‖²
    X, y, qp = make([9], 4, seed=8)
    path = greedy_path(X, y, qp, 1.0, 3)
    e0 = np.sum(centre_by_query(y, qp) ** 2)
    close(path.candidate_errors[0], np.full(4, e0))
    close(path.candidate_errors[0], ref.candidate_errors(X, y, qp, 1.0, []))
    close(path.lqo_errors, np.full(3, e0))                  # (tied up to rounding)
    # only one-document queries: everything centres to zero
    X, y, qp = make([1] * 6, 3, seed=9)
    path = greedy_path(X, y, qp, 1.0)
    assert list(path.selected) == [0, 1, 2]
    assert np.all(path.lqo_errors == 0) and np.all(path.weights == 0)


def test_one_relevance_level_and_one_feature():
    X, y, qp = make(UNEVEN, 1, seed=10, levels=1)            # every label 0
    path = greedy_path(X, y, qp, 1.0)
    assert path.k == 1 and path.lqo_errors[0] == 0 and path.weights[0, 0] == 0


def test_reusing_caches_across_lambdas_gives_fresh_results():
    X, y, qp = make(UNEVEN, 6, seed=11)
    g = GreedyLQO(X, y, qp)
    a1 = g.path(0.5, 4)
    g.path(30.0, 6)
    a2 = g.path(0.5, 4)
    assert np.array_equal(a1.selected, a2.selected)
    assert np.array_equal(a1.candidate_errors, a2.candidate_errors, equal_nan=True)
    assert np.array_equal(a1.weights, a2.weights)


def test_k_is_clipped_to_the_number_of_features():
    X, y, qp = make(UNEVEN, 3, seed=12)
    assert greedy_path(X, y, qp, 1.0, k=10).k == 3


@pytest.mark.parametrize("bad, match", [
    (dict(lam=0.0), "λ > 0"), (dict(lam=np.nan), "λ > 0"), (dict(k=0), "≥ 1"),
    (dict(qp=[0, 3, 3, 52]), "query_ptr"), (dict(qp=[0, 10]), "query_ptr"),
    (dict(nan=True), "nan at document 4, feature 1 is not finite"),
    (dict(ynan=True), "label inf at document 2 is not finite"),
])
def test_bad_input_is_refused(bad, match):
    X, y, qp = make(UNEVEN, 3, seed=13)
    if bad.get("nan"):
        X[4, 1] = np.nan
    if bad.get("ynan"):
        y[2] = np.inf
    with pytest.raises(DataError, match=match):
        greedy_path(X, y, bad.get("qp", qp), bad.get("lam", 1.0), bad.get("k", 2))


def test_bad_shapes_and_prefixes_are_refused():
    X, y, qp = make(UNEVEN, 3, seed=13)
    with pytest.raises(DataError, match="labels"):
        greedy_path(X, y[:-1], qp, 1.0)
    path = greedy_path(X, y, qp, 1.0, 2)
    with pytest.raises(DataError, match="1..2"):
        path.prefix(3)


def test_kernel_refuses_inconsistent_shapes():
    from repro._kernels import lqo as kernel
    X, y, qp = make(UNEVEN, 3, seed=14)
    g = GreedyLQO(X, y, qp)
    n, m, Q = 3, len(y), len(qp) - 1
    args = [g.Xh, g.yh, g.query_ptr, 1.0, np.empty((n, m)), np.empty((n, m)), np.empty(m),
            np.empty(m), np.empty(11 * Q + 2 * n), np.zeros(2, np.int64), np.zeros(2),
            np.zeros((2, n)), np.zeros((2, 2))]
    assert kernel.greedy_select(*args) == 2
    bad = list(args)
    bad[4] = np.empty((n, m - 1))
    assert kernel.greedy_select(*bad) == -1
    bad = list(args)
    bad[8] = np.empty(10 * Q)
    assert kernel.greedy_select(*bad) == -1
    bad = list(args)
    bad[2] = np.array([1] + list(qp[1:]), np.int64)        # offsets not starting at 0
    assert kernel.greedy_select(*bad) == -1
    # the wrapper turns the status into a ValueError (a cache of the wrong size)
    g._C = np.empty((n, m - 1))
    with pytest.raises(ValueError, match="inconsistent array shapes"):
        g.path(1.0, 2)


def test_centre_transpose_checks_shapes():
    from repro._kernels import lqo as kernel
    X, y, qp = make(UNEVEN, 4, seed=15)
    m, n = X.shape
    out = centre_transpose(X, qp)
    assert out.shape == (n, m) and out.flags.c_contiguous
    np.testing.assert_allclose(out, centre_by_query(X, qp).T, atol=1e-14)
    for shape in [(n, m - 1), (n - 1, m), (m, n)]:                # mis-sized outputs
        with pytest.raises(ValueError, match="inconsistent shapes"):
            centre_transpose(X, qp, np.zeros(shape))
        assert kernel.centre_transpose(X, qp, np.empty(n), np.zeros(shape)) == -1
    assert kernel.centre_transpose(X, qp, np.empty(n - 1), np.empty((n, m))) == -1   # scratch
    assert kernel.centre_transpose(X, qp[:-1], np.empty(n), np.empty((n, m))) == -1  # ≠ m
    assert kernel.centre_transpose(X, qp[:1], np.empty(n), np.empty((n, m))) == -1   # Q = 0
    o = np.full((n, m), 7.0)
    assert kernel.centre_transpose(X, np.r_[1, qp[1:]], np.empty(n), o) == -1
    assert np.all(o == 7.0)                                       # nothing written


def test_any_layout_and_stride_gives_the_same_path():
    X, y, qp = make(UNEVEN, 6, seed=16)
    want = greedy_path(X, y, qp, 0.8, 4)
    big = np.zeros((X.shape[0], 2 * X.shape[1]))
    big[:, ::2] = X
    ylong = np.zeros(2 * len(y))
    ylong[::2] = y
    for Xv, yv in [(np.asfortranarray(X), y), (big[:, ::2], y), (X, ylong[::2]),
                   (np.asfortranarray(X), ylong[::2]), (X.tolist(), y.astype(np.int64))]:
        assert not (Xv is X and yv is y)
        got = greedy_path(Xv, yv, qp, 0.8, 4)
        assert np.array_equal(got.selected, want.selected)
        assert np.array_equal(got.lqo_errors, want.lqo_errors)
        assert np.array_equal(got.weights, want.weights)
        assert np.array_equal(got.scores(Xv, 3), want.scores(X, 3))


def test_sparse_input_and_scores():
    X, y, qp = make(UNEVEN, 6, seed=17)
    X[np.abs(X) < 0.8] = 0.0
    want = greedy_path(X, y, qp, 1.1, 5)
    for fmt in (sp.csr_matrix, sp.csc_matrix, sp.csr_array):
        got = greedy_path(fmt(X), y, qp, 1.1, 5)
        assert np.array_equal(got.selected, want.selected)
        assert np.array_equal(got.weights, want.weights)
        for k in (1, 3, 5):      # the same product as on dense X (bit-identical)
            s = want.scores(fmt(X), k)
            assert s.shape == (X.shape[0],) and np.array_equal(s, want.scores(X, k))
    with pytest.raises(DataError, match="feature columns"):
        want.scores(sp.csr_matrix(X[:, :4]), 2)


def test_single_level_queries_in_a_mixed_set_equal_refits():
    # a query whose labels are all equal still contributes its held-out score spread;
    # one-document queries contribute nothing: the kernel matches brute-force refits
    X, y, qp = make([4, 1, 5, 3, 1, 6], 4, seed=18)
    y[0:4] = 2.0                           # query 0: one relevance level
    y[10:13] = 0.0                         # query 3: one relevance level
    path = greedy_path(X, y, qp, 0.6, 4)
    for s in range(path.k):
        close(path.candidate_errors[s],
              ref.candidate_errors(X, y, qp, 0.6, [int(f) for f in path.selected[:s]]))


@pytest.mark.parametrize("sizes,n,k", [(UNEVEN, 7, 7), ([1], 1, 1), ([2, 3], 4, 2),
                                       ([6] * 5, 9, 4)])
def test_operation_count_equals_the_formula(sizes, n, k):
    X, y, qp = make(sizes, n, seed=5)
    path = greedy_path(X, y, qp, 0.9, k)
    assert path.operations == ref.operations(int(qp[-1]), n, k)


def test_counting_changes_no_value_and_accumulates():
    X, y, qp = make(UNEVEN, 6, seed=6)
    g = GreedyLQO(X, y, qp)
    outs = []
    for ops in (None, np.array([5, 7], dtype=np.int64)):
        n, m, k = 6, int(qp[-1]), 4
        arrays = (np.zeros(k, np.int64), np.zeros(k), np.zeros((k, n)), np.zeros((k, k)))
        args = (g.Xh, g.yh, g.query_ptr, 0.5, np.empty((n, m)), np.empty((n, m)),
                np.empty(m), np.empty(m), np.empty(11 * (len(qp) - 1) + 2 * n), *arrays)
        from repro._kernels import lqo as kernel
        assert (kernel.greedy_select(*args) if ops is None
                else kernel.greedy_select(*args, ops)) == k
        outs.append(arrays)
        if ops is not None:
            want = ref.operations(m, n, k)
            assert list(ops) == [5 + want["multiply-adds"], 7 + want["cache writes"]]
            assert kernel.greedy_select(*args, np.zeros(1, np.int64)) == -1   # too short
    for a, b in zip(*outs):
        assert np.array_equal(a, b)
