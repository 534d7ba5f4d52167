"""The domination-loss kernel (Stevens 2010, Alg. 1–7) against the plain-NumPy reference:
loss = brute-force pairs (eq. 5), gradient, curvature bounds, every single-coordinate update;
monotone objective; no overflow with huge margins; solver rules; bad input."""
import numpy as np
import pytest
import scipy.sparse as sp

import reference_domination as ref
from repro._kernels import domination as _dom_kernel
from repro._kernels import exp_values
from repro.errors import DataError
from repro.rankers.domination import (ColumnData, DominationProblem, DominationRank,
                                      regulariser, relevance_rank, steps_for)


def problem_data(seed, n=36, d=7, levels=2, n_groups=3, sparse=False, density=0.45):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if sparse:
        X[rng.random((n, d)) > density] = 0.0
        X[:, 3] = 0.0                          # a feature absent from every instance
    y = rng.integers(0, levels, n).astype(float)
    groups = rng.integers(0, n_groups, n)
    return X, y, groups


CASES = [(K, sparse, reg, margin) for K in (2, 3) for sparse in (False, True)
         for reg in ("l1", "l2") for margin in (0.0, 0.8)]


@pytest.mark.parametrize("K,sparse,reg,margin", CASES)
def test_kernel_equals_reference(K, sparse, reg, margin):
    X, y, groups = problem_data(10 * K + sparse, levels=K, sparse=sparse)
    s = margin * y
    P = DominationProblem(sp.csr_matrix(X) if sparse else X, y, groups, s)
    np.testing.assert_allclose(P.beta, ref.beta(X, y, groups), rtol=1e-14, atol=0)
    w0 = np.random.default_rng(1).normal(size=X.shape[1]) * 0.4
    P.reset(w0)
    assert P.loss() == pytest.approx(ref.loss(X, y, groups, s, w0), rel=1e-12)
    np.testing.assert_allclose(P.gradient(), ref.gradient(X, y, groups, s, w0),
                               rtol=1e-10, atol=1e-12)
    coords = np.concatenate([np.arange(X.shape[1])] * 3 + [[5, 5, 0, 2]])
    lam = 0.6
    g, delta = P.steps(coords, lam, reg, record=True)
    g_ref, d_ref, _, w_ref = ref.coordinate_descent(X, y, groups, s, lam, reg, coords, w0)
    np.testing.assert_allclose(g, g_ref, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(delta, d_ref, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(P.w, w_ref, rtol=1e-9, atol=1e-12)
    # a larger weight exercises the first case of the ℓ1 rule (δ = −w_r: w_r set to 0)
    coords2 = np.arange(X.shape[1])
    g2, d2 = P.steps(coords2, 8.0, reg, record=True)
    g2_ref, d2_ref, _, w2_ref = ref.coordinate_descent(X, y, groups, s, 8.0, reg, coords2, w_ref)
    np.testing.assert_allclose(g2, g2_ref, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(P.w, w2_ref, rtol=1e-9, atol=1e-12)
    if reg == "l1":
        assert np.any(P.w == 0.0) and np.array_equal(P.w == 0.0, w2_ref == 0.0)


def test_loss_is_the_pairwise_sum_of_eq5():
    """eq. 5 written out pair by pair for a 3-layer group, against the kernel."""
    X, y, groups = problem_data(3, n=12, d=4, levels=3, n_groups=1)
    s = 0.5 * y
    w = np.array([0.3, -1.2, 0.8, 2.0])
    total = 0.0
    for i in range(len(y)):
        terms = [np.exp(X[j] @ w - X[i] @ w + s[i] - s[j]) for j in range(len(y)) if y[j] < y[i]]
        if terms:
            total += np.log1p(sum(terms))
    P = DominationProblem(X, y, None, s)
    P.reset(w)
    assert P.loss() == pytest.approx(total, rel=1e-13)


@pytest.mark.parametrize("reg,lam", [("l1", 0.0), ("l1", 0.5), ("l1", 5.0), ("l2", 0.0),
                                     ("l2", 0.5), ("l2", 5.0)])
@pytest.mark.parametrize("K", [2, 3])
def test_no_step_increases_the_regularised_loss(reg, lam, K):
    X, y, groups = problem_data(7 + K, n=60, d=8, levels=K, sparse=True, density=0.6)
    P = DominationProblem(sp.csc_matrix(X), y, groups, 0.3 * y)
    P.reset(np.random.default_rng(2).normal(size=8))
    f = P.loss() + lam * regulariser(P.w, reg)
    for r in np.tile(np.arange(8), 12):
        P.steps([r], lam, reg)
        fn = P.loss() + lam * regulariser(P.w, reg)
        assert fn <= f + 1e-12 * abs(f)
        f = fn
    assert f == pytest.approx(ref.loss(X, y, groups, 0.3 * y, P.w) + lam * regulariser(P.w, reg),
                              rel=1e-10)


@pytest.mark.parametrize("scale", [1e3, 1e5])
def test_huge_margins_give_no_overflow(scale):
    """w·x of ±10⁵ and s = 200·r (§8.3.2) overflow a naive e^{w·x}; the cached state does not."""
    X, y, groups = problem_data(4, n=40, d=5, levels=3)
    s = 200.0 * y
    w = np.random.default_rng(5).normal(size=5) * scale
    with np.errstate(over="raise"):
        with pytest.raises(FloatingPointError):
            np.exp(X @ w)                                 # the naive computation overflows
    P = DominationProblem(X, y, groups, s)
    P.reset(w)
    assert np.isfinite(P.loss())
    assert P.loss() == pytest.approx(ref.loss(X, y, groups, s, w), rel=1e-12)
    np.testing.assert_allclose(P.gradient(), ref.gradient(X, y, groups, s, w),
                               rtol=1e-9, atol=1e-9 * scale)
    g, delta = P.steps(np.tile(np.arange(5), 4), 0.1, "l2", record=True)
    assert np.all(np.isfinite(g)) and np.all(np.isfinite(delta)) and np.all(np.isfinite(P.w))
    assert P.loss() == pytest.approx(ref.loss(X, y, groups, s, P.w), rel=1e-10)


def test_cached_state_stays_exact_over_a_long_run():
    """After hundreds of sweeps (recentring on cancellation), the cached loss and gradient
    equal a fresh computation from the final weights."""
    X, y, groups = problem_data(8, n=80, d=6, levels=3, sparse=True, density=0.5)
    P = DominationProblem(sp.csr_matrix(X), y, groups, None)
    P.steps(np.tile(np.arange(6), 400), 1e-3, "l2")
    cached_loss, cached_grad = P.loss(), P.gradient()
    P.reset(P.w.copy())
    assert cached_loss == pytest.approx(P.loss(), rel=1e-10)
    np.testing.assert_allclose(cached_grad, P.gradient(), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("sparse", [False, True])
def test_cancellation_recentres_the_block(sparse):
    """One negative dominates its block's partition sum (margin 1000 above the others); a
    step that pulls it down cancels T_b to rounding noise.  The kernel must notice (T_b below
    its rounding bound) and recompute the block, so loss and gradient stay exact."""
    n = 30
    X = np.zeros((n, 3))
    X[:, 1] = np.linspace(0, 1, n)
    X[0, 0] = 10.0                      # a negative with a huge score under w_0 = 100
    X[:, 2] = np.random.default_rng(0).random(n)
    y = np.zeros(n)
    y[-8:] = 1.0
    P = DominationProblem(sp.csr_matrix(X) if sparse else X, y)
    w0 = np.array([100.0, 0.5, -0.2])
    P.reset(w0)
    c_before = P._c.copy()
    P.steps([0], 1e6, "l2")              # δ ≈ −w_0: the dominant term drops by e^{−1000}
    assert abs(P.w[0]) < 0.1
    assert not np.array_equal(P._c, c_before)                 # the block was recentred
    assert P.loss() == pytest.approx(ref.loss(X, y, np.zeros(n), np.zeros(n), P.w), rel=1e-12)
    np.testing.assert_allclose(P.gradient(), ref.gradient(X, y, np.zeros(n), np.zeros(n), P.w),
                               rtol=1e-10, atol=1e-12)


def test_sparse_and_dense_columns_agree():
    X, y, groups = problem_data(9, n=50, d=6, levels=3, sparse=True)
    a = DominationProblem(X, y, groups).solve(0.3, "l1", tol=1e-8)
    b = DominationProblem(sp.csr_matrix(X), y, groups).solve(0.3, "l1", tol=1e-8)
    np.testing.assert_allclose(a.w, b.w, rtol=1e-10, atol=1e-12)
    assert a.n_sweeps == b.n_sweeps


def test_solve_stops_by_the_sweep_rule():
    X, y, groups = problem_data(11, n=70, d=6, levels=3)
    res = DominationProblem(X, y, groups).solve(0.5, "l2", tol=1e-3)
    f = np.array([h["f"] for h in res.history])
    dec = -np.diff(f)
    assert res.status == "converged"
    assert np.all(dec >= -1e-12 * f[0])
    assert dec[-1] <= 1e-3 * dec[0] and np.all(dec[:-1] > 1e-3 * dec[0])
    assert res.n_iter == res.n_sweeps * 6
    capped = DominationProblem(X, y, groups).solve(0.5, "l2", tol=0.0, max_iter=15)
    assert capped.status == "max_iter" and capped.n_iter == 15


@pytest.mark.parametrize("induction,max_iter", [(None, None), (None, 40), (2, None), (3, 25)])
def test_callback_path_equals_kernel_loop(induction, max_iter):
    """With a callback the sweeps run one kernel call each (w after every sweep); without,
    the kernel loops: the same arithmetic, so the same weights, sweeps and history."""
    X, y, groups = problem_data(15, n=70, d=8, levels=3, sparse=True, density=0.5)
    P = DominationProblem(sp.csr_matrix(X), y, groups, 0.2 * y)
    a = P.solve(0.3, "l1", tol=1e-3, max_iter=max_iter, induction=induction)
    seen = []
    b = P.solve(0.3, "l1", tol=1e-3, max_iter=max_iter, induction=induction,
                callback=lambda row: seen.append(row))
    assert np.array_equal(a.w, b.w) and a.n_sweeps == b.n_sweeps and a.n_iter == b.n_iter
    assert a.status == b.status and a.rounds == b.rounds
    assert [h["f"] for h in a.history] == [h["f"] for h in b.history]
    assert all("w" in row for row in seen[1:]) and len(seen) == b.n_sweeps + 1
    if max_iter is not None:
        assert b.status == "max_iter" and b.n_iter == max_iter
    # the history's objective is the regularised loss of the final weights
    assert a.f == pytest.approx(ref.loss(X, y, groups, 0.2 * y, a.w) + 0.3 * np.abs(a.w).sum(),
                                rel=1e-10)


def test_feature_induction_chooses_by_bound_9():
    X, y, groups = problem_data(12, n=60, d=10, levels=2, sparse=True, density=0.5)
    lam, reg, alpha = 0.4, "l1", 3
    P = DominationProblem(X, y, groups)
    res = P.solve(lam, reg, tol=1e-6, induction=alpha)
    g0 = ref.gradient(X, y, groups, np.zeros(len(y)), np.zeros(10))
    b = ref.beta(X, y, groups)
    d0 = np.array([ref.step(g0[r], b[r], 0.0, lam, reg) for r in range(10)])
    gain = -d0 * g0 - 0.5 * b * d0 ** 2                     # eq. (9)
    first = [r for r in np.lexsort((np.arange(10), -gain)) if d0[r] != 0][:alpha]
    assert list(res.chosen[:alpha]) == first
    assert res.rounds >= 1 and res.status == "converged"
    assert set(np.flatnonzero(res.w)) <= set(res.chosen)
    assert 3 not in res.chosen                               # the all-zero feature
    np.testing.assert_allclose(steps_for(g0, b, np.zeros(10), lam, reg), d0, atol=1e-15)


def test_negative_sampling_is_seeded_and_keeps_a_fraction():
    rng = np.random.default_rng(0)
    X = sp.random(400, 30, density=0.1, random_state=1, format="csr")
    y = (rng.random(400) < 0.1).astype(float)
    n_neg = int((y == 0).sum())
    a = DominationProblem(X, y, None, None, sample_negatives=0.1, seed=7)
    b = DominationProblem(X, y, None, None, sample_negatives=0.1, seed=7)
    c = DominationProblem(X, y, None, None, sample_negatives=0.1, seed=8)
    assert np.array_equal(a.included, b.included) and not np.array_equal(a.included, c.included)
    assert a.included.size == int((y > 0).sum()) + round(0.1 * n_neg)
    # the problem on the kept rows equals one built from those rows directly
    direct = DominationProblem(X[a.included], y[a.included])
    np.testing.assert_allclose(a.solve(0.1, "l2").w, direct.solve(0.1, "l2").w, rtol=1e-12)


def test_relevance_rank_within_groups():
    y = np.array([3., 1., 1., 7., 0., 7.])
    g = np.array([0, 0, 1, 1, 1, 0])
    assert list(relevance_rank(y, g)) == [1, 0, 1, 2, 0, 2]


def test_groups_with_one_level_take_no_part():
    X, y, groups = problem_data(13, n=30, d=4, levels=2)
    y2, g2 = np.append(y, [1.0, 1.0]), np.append(groups, [9, 9])
    X2 = np.vstack([X, np.ones((2, 4)) * 5])
    a = DominationProblem(X, y, groups).solve(0.2, "l2", tol=1e-9)
    b = DominationProblem(X2, y2, g2).solve(0.2, "l2", tol=1e-9)
    np.testing.assert_allclose(a.w, b.w, rtol=1e-12)


def test_ranker_variants():
    rng = np.random.default_rng(3)
    n = 90
    X = rng.random((n, 5))
    y = np.clip(np.round(X @ [2, -1, 0, 1, 0] + rng.normal(0, .3, n)), 0, 2)
    qid = np.repeat([1, 2, 3], 30)
    pooled = DominationRank(lam=0.1).fit(X, y, qid)
    query = DominationRank(lam=0.1, grouping="query").fit(X, y, qid)
    flat = DominationRank(lam=0.1, layers="binary").fit(X, y, qid)
    # pooled = one group over all documents; flat = binary labels
    P = DominationProblem(X, y)
    np.testing.assert_allclose(pooled.coef_, P.solve(0.1, "l2").w)
    np.testing.assert_allclose(flat.coef_, DominationProblem(X, (y > 0) * 1.0).solve(0.1).w)
    assert not np.allclose(pooled.coef_, query.coef_)
    assert pooled.predict(X).shape == (n,)
    margin = DominationRank(lam=0.1, margin=0.5).fit(X, y, qid)
    np.testing.assert_allclose(margin.coef_, DominationProblem(X, y, None, 0.5 * y).solve(0.1).w)


def test_bad_input_is_refused_with_a_clear_error():
    X, y, groups = problem_data(14, n=20, d=3)
    with pytest.raises(DataError, match="not finite"):
        Xn = X.copy()
        Xn[2, 1] = np.nan
        DominationProblem(Xn, y)
    with pytest.raises(DataError, match="document 4, feature 2"):
        Xs = sp.csr_matrix(X)
        Xs[4, 2] = np.inf
        DominationProblem(Xs, y)
    with pytest.raises(DataError, match="levels"):
        DominationProblem(X, y[:-1])
    with pytest.raises(DataError, match="two relevance levels"):
        DominationProblem(X, np.ones(20))
    with pytest.raises(DataError, match="groups"):
        DominationProblem(X, y, groups[:5])
    with pytest.raises(DataError, match="margin"):
        DominationProblem(X, y, None, np.full(20, np.nan))
    with pytest.raises(DataError, match="sample_negatives"):
        DominationProblem(X, y, sample_negatives=0.0)
    with pytest.raises(DataError, match="seed"):
        DominationProblem(X, y, sample_negatives=0.5)
    P = DominationProblem(X, y)
    with pytest.raises(DataError, match="lam"):
        P.solve(-1.0)
    with pytest.raises(DataError, match="reg"):
        P.solve(1.0, "l3")
    with pytest.raises(DataError, match="induction"):
        P.solve(1.0, induction=0)
    with pytest.raises(DataError, match="coords"):
        P.reset()
        P.steps([0, 3], 1.0, "l2")
    with pytest.raises(DataError, match="X"):
        ColumnData.from_matrix(np.zeros((0, 3)))
    qid = np.repeat([1, 2], 10)
    with pytest.raises(DataError, match="margin"):
        DominationRank(margin=-1).fit(X, y, qid)
    with pytest.raises(DataError, match="layers"):
        DominationRank(layers="three").fit(X, y, qid)
    with pytest.raises(DataError, match="grouping"):
        DominationRank(grouping="doc").fit(X, y, qid)
    with pytest.raises(DataError, match="feature columns"):
        DominationRank().fit(X, y, qid).predict(X[:, :2])


def lane_sum(values) -> float:
    """The kernel's fixed-order sum of a block's terms: lane k adds the terms k, k+4, k+8, …
    in that order; the lanes combined as (lane0 + lane1) + (lane2 + lane3)."""
    lanes = [0.0, 0.0, 0.0, 0.0]
    for k, v in enumerate(values):
        lanes[k % 4] = lanes[k % 4] + v
    return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3])


@pytest.mark.parametrize("scale", [0.3, 3e3])
def test_refresh_sigmas_are_the_scalar_quotients_summed_in_lanes(scale):
    """The refresh computes σ_i = 1/(1 + E_i f_b) four at a time in SIMD lanes: every σ_i of
    an instance with E_i > 0 is the scalar quotient's bits, and S_b is the fixed-order lane
    sum of the σ_i (``lane_sum``; blocks of sizes that are not multiples of 4; huge weights
    leave some E_i = 0, the slow path, between fast ones)."""
    X, y, groups = problem_data(21, n=75, d=6, levels=3, n_groups=2, sparse=True)
    P = DominationProblem(sp.csr_matrix(X), y, groups)
    P.reset(np.random.default_rng(2).normal(size=6) * scale)
    P.gradient()                                    # a refresh with S
    B, R, work = P.n_blocks, P._R, P._work
    f, S = work[1 * B:2 * B], work[2 * B:3 * B]     # W_F, W_S of the kernel's work array
    slow = 0
    for g in range(P.n_groups):
        for b in range(P.gptr[g] + 1, P.gptr[g + 1]):
            rows = P.rows[P.bptr[b]:P.bptr[b + 1]]
            E, sig = R["E"][rows], R["sig"][rows]
            fast = E > 0
            slow += int(np.sum(~fast))
            assert np.array_equal(sig[fast], 1.0 / (1.0 + E[fast] * f[b]))
            assert lane_sum(sig.tolist()) == S[b]
    assert (slow > 0) == (scale > 1)


def test_dense_block_sums_are_lane_sums():
    """For a dense X the step computes S_b and μ_b in one pass, in the same lanes: after a
    step that leaves w unchanged (a feature that is zero everywhere), S_b is the lane sum of
    the quotients 1/(1 + E_i f_b) and μ_b (shifted by c_b) the lane sum of E_i x_ir."""
    X, y, groups = problem_data(23, n=83, d=6, levels=3, n_groups=2, sparse=True)
    P = DominationProblem(X, y, groups)             # dense: X is an ndarray
    w = np.random.default_rng(4).normal(size=6) * 0.3
    w[3] = 0.0
    P.reset(w)
    assert P.steps(np.array([3]), 1.0, "l2") == 0   # column 3 is zero: g = 0, δ = 0
    B, R, work = P.n_blocks, P._R, P._work
    f, S, mu = work[1 * B:2 * B], work[2 * B:3 * B], work[5 * B:6 * B]
    Xk = X[P.rows]                                  # the kernel's instances, in block order
    for g in range(P.n_groups):
        for b in range(P.gptr[g], P.gptr[g + 1]):
            pos = np.arange(P.bptr[b], P.bptr[b + 1])
            E = R["E"][P.rows[pos]]
            assert mu[b] == lane_sum((E * Xk[pos, 3]).tolist()) == 0.0
            if b > P.gptr[g]:
                assert np.all(E > 0)
                assert S[b] == lane_sum((1.0 / (1.0 + E * f[b])).tolist())
    P.steps(np.array([0]), 1.0, "l2")               # a real step: μ_b of column 0 …
    P.reset(P.w)                                    # … is checked against the reference
    np.testing.assert_allclose(P.gradient(), ref.gradient(X, y, groups, np.zeros(83), P.w),
                               rtol=1e-10, atol=1e-12)


def test_top_candidates_are_the_lexsort_order():
    """Feature induction's choice (the α largest bounds, ties to the lower index) without
    sorting every candidate: the lexsort's first α."""
    from repro.rankers.domination import _top
    rng = np.random.default_rng(3)
    for trial in range(500):
        n = int(rng.integers(1, 200))
        cand = np.sort(rng.choice(1000, n, replace=False))
        gain = rng.choice([0.5, 1.0, 2.0], n) if trial % 2 else rng.random(n)
        k = int(rng.integers(1, 40))
        assert np.array_equal(_top(cand, gain, k), cand[np.lexsort((cand, -gain))][:k])


def test_row_subsets_and_curvature_bounds_of_sparse_columns():
    """take_rows (through a CSR copy) gives the canonical CSC of the rows in the given order,
    array for array; column_max_sq the per-group maxima of x² (groups −1 ignored)."""
    rng = np.random.default_rng(4)
    X = sp.random(60, 9, density=0.3, random_state=5, format="csr") - 0.5 * sp.random(
        60, 9, density=0.2, random_state=6, format="csr")
    cols = ColumnData.from_matrix(X)
    rows = rng.permutation(60)[:41]
    got, want = cols.take_rows(rows), ColumnData.from_matrix(X.tocsc()[rows])
    for k in ("data", "indices", "indptr"):
        a, b = getattr(got, k), getattr(want, k)
        assert a.dtype == b.dtype and np.array_equal(a, b)
    A = X.toarray()[rows]
    for n_groups in (1, 3):
        rg = rng.integers(-1, n_groups, rows.size) if n_groups > 1 else np.zeros(rows.size, int)
        B = got.column_max_sq(rg, n_groups)
        for g in range(n_groups):
            sq = A[rg == g] ** 2
            assert np.array_equal(B[g], sq.max(axis=0) if sq.size else np.zeros(9))


@pytest.mark.parametrize("reg", ["l1", "l2"])
def test_dense_and_sparse_X_give_the_same_bits(reg):
    """The lanes of every block sum are fixed by the instances' positions (a zero x_ir adds
    +0), so the dense pass and the sparse gradient give the same solve, bit for bit: the
    same weights, objective history and iterations (blocks of sizes not multiples of 4,
    features absent from most instances, one absent from all)."""
    X, y, groups = problem_data(31, n=157, d=9, levels=3, n_groups=3, sparse=True,
                                density=0.3)
    a = DominationProblem(X, y, groups, 0.2 * y).solve(0.05, reg, tol=1e-6)
    b = DominationProblem(sp.csr_matrix(X), y, groups, 0.2 * y).solve(0.05, reg, tol=1e-6)
    assert a.n_sweeps > 3
    assert np.array_equal(a.w, b.w) and a.n_iter == b.n_iter
    assert [h["f"] for h in a.history] == [h["f"] for h in b.history]


@pytest.mark.skipif(not exp_values.avx2_usable(), reason="the CPU has no AVX2")
@pytest.mark.parametrize("sparse", [False, True])
def test_baseline_and_avx2_lane_loops_give_the_same_bits(sparse):
    """The lane loops are built for the x86-64 baseline and for AVX2 and chosen at run time;
    each lane computes the scalar expression in a fixed order, so a machine without AVX2 gets
    the same solve, bit for bit (weights, objective history, iterations)."""
    X, y, groups = problem_data(37, n=203, d=11, levels=3, n_groups=4, sparse=True,
                                density=0.4)
    X = sp.csr_matrix(X) if sparse else X
    runs = []
    for allowed in (False, True):
        before = _dom_kernel.use_avx2(allowed)
        try:
            runs.append(DominationProblem(X, y, groups, 0.2 * y).solve(0.05, "l2", tol=1e-7))
        finally:
            _dom_kernel.use_avx2(before)
    a, b = runs
    assert a.n_sweeps > 3
    assert np.array_equal(a.w, b.w) and a.n_iter == b.n_iter
    assert [h["f"] for h in a.history] == [h["f"] for h in b.history]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("reg", ["l1", "l2"])
def test_counted_visits_are_the_columns_read(sparse, reg):
    """The kernel's count of stored values read: each step's column once for its gradient
    and once more when its step is non-zero (δ from a recorded run of the same steps), the
    values unchanged by counting."""
    X, y, groups = problem_data(7, levels=3, sparse=sparse)
    stored = (np.diff(sp.csc_matrix(X).indptr) if sparse
              else np.full(X.shape[1], X.shape[0]))
    coords = np.concatenate([np.arange(X.shape[1])] * 2 + [[5, 0, 3]])
    w0 = np.random.default_rng(2).normal(size=X.shape[1]) * 0.4
    runs = []
    for counted in (False, True):
        P = DominationProblem(sp.csr_matrix(X) if sparse else X, y, groups)
        P.reset(w0)
        visits = np.zeros(1, dtype=np.int64) if counted else None
        lam = 50.0 if reg == "l1" else 2.0          # ℓ1: w set to 0, then zero steps
        g, delta = P.steps(coords, lam, reg, record=True, visits=visits)
        runs.append((g, delta, P.w.copy(), visits))
    assert all(np.array_equal(a, b) for a, b in zip(runs[0][:3], runs[1][:3]))
    delta = runs[1][1]
    want = int(stored[coords].sum() + stored[coords][delta != 0].sum())
    assert runs[1][3][0] == want
    assert (delta != 0).any() and ((delta == 0).any() or reg == "l2")   # both branches
