"""The conditional-model objectives (kernel ``conditional``) against literal pair-matrix
references, their gradients against finite differences, and the rankers on toy data."""
import numpy as np
import pytest

import reference_conditional as ref
import reference_swap_sampler as rss
from repro.data.synthetic import make_queries
from repro.errors import DataError
from repro.rankers import deltas
from repro.rankers.conditional import (OBJECTIVES, ConditionalObjective, ConditionalRanker,
                                       draw_sample, good_first)
from repro.run.timing import single_thread_blas


@pytest.fixture(autouse=True)
def _one_blas_thread():
    """As in every run of the suite: BLAS threads would only fight over the cores."""
    with single_thread_blas():
        yield


SPECS = [(obj, kind) for obj in OBJECTIVES for kind in deltas.KINDS]


def small_data(seed=0, sizes=((2, 3), (3, 4), (1, 5), (4, 2)), d=4):
    """Queries with the given (n⁺, n⁻); goods listed after bads to exercise the reordering."""
    rng = np.random.default_rng(seed)
    X, y, ptr = [], [], [0]
    for p, n in sizes:
        X.append(rng.random((p + n, d)))
        y.append(np.r_[np.zeros(n), rng.integers(1, 3, p)])
        ptr.append(ptr[-1] + p + n)
    return np.vstack(X), np.concatenate(y), np.array(ptr)


def sample_rankings(gf, sample, q):
    return [rss.y_from_wins(row, int(gf.n_pos[q])) for row in sample.query_wins(gf, q)]


def test_deltas_equal_the_definitions():
    for n_pos, n_neg in [(1, 4), (2, 3), (3, 3), (4, 2)]:
        states = rss.all_valid(n_pos, n_neg)
        W = np.array(list(states))[:, :n_pos]
        for kind, k in [("AUC", 10), ("MAP", 10), ("NDCG", 10), ("NDCG", 3), ("NDCG", 1)]:
            want = [ref.gain(y, kind, k) for y in states.values()]
            np.testing.assert_allclose(deltas.gains(W, n_neg, kind, k), want, rtol=1e-13)


def test_gains_of_extremes_and_hand_values():
    # goods at ranks 0 and 2 of 4 (wins: 2 and 1 bads beaten): AP = (1/1 + 2/3)/2
    W = np.array([[2, 1]])
    assert deltas.gains(W, 2, "MAP")[0] == pytest.approx((1 + 2 / 3) / 2)
    assert deltas.gains(W, 2, "AUC")[0] == pytest.approx(3 / 4)
    assert deltas.gains(W, 2, "NDCG", 10)[0] == pytest.approx((1 + 1 / np.log2(3)) / 2)
    assert deltas.deltas(np.array([[2, 2]]), 2, "MAP")[0] == 0.0
    assert deltas.deltas(np.array([[0, 0]]), 2, "NDCG", 2)[0] == 1.0


@pytest.mark.parametrize("phi_scale", [False, True])
@pytest.mark.parametrize("objective,kind", SPECS)
def test_objective_equals_the_literal_formula(objective, kind, phi_scale):
    X, y, ptr = small_data()
    gf = good_first(X, y, ptr)
    sample = draw_sample(gf, 12, 3, restart_skew=0.6, rng=1)
    fun = ConditionalObjective(gf, sample, objective, kind, C=2.0, phi_scale=phi_scale)
    w = np.random.default_rng(2).normal(size=X.shape[1])
    f, _ = fun(w)
    want = float(w @ w) / 2.0
    for q in range(gf.n_queries):
        lo, hi = gf.query_ptr[q], gf.query_ptr[q + 1]
        p, n = int(gf.n_pos[q]), int(hi - lo - gf.n_pos[q])
        s = 1.0 / (p * n) if phi_scale else 1.0
        Xq = gf.X[lo:hi]
        if objective == "ExpGain" and kind == "AUC":
            want += ref.expgain_auc_hypercube(Xq, p, w, s)
        else:
            ys = sample_rankings(gf, sample, q)
            assert np.array_equal(ys[0], np.ones((p, n)))            # y_q first
            want += ref.query_objective(Xq, ys, w, objective, kind, s)
    assert f == pytest.approx(want, rel=1e-10)


@pytest.mark.parametrize("objective,kind", SPECS)
def test_gradients_equal_finite_differences(objective, kind):
    X, y, ptr = small_data(seed=4, sizes=((3, 7), (5, 4), (2, 9)), d=6)
    gf = good_first(X, y, ptr)
    sample = draw_sample(gf, 40, 5, restart_skew=0.7, rng=3)
    fun = ConditionalObjective(gf, sample, objective, kind, C=5.0, phi_scale=True)
    rng = np.random.default_rng(5)
    for w in (np.zeros(6), rng.normal(size=6) * 3.0):
        _, g = fun(w)
        h = 1e-6 * max(1.0, float(np.abs(w).max()))
        fd = np.array([(fun(w + h * e)[0] - fun(w - h * e)[0]) / (2 * h) for e in np.eye(6)])
        assert np.linalg.norm(fd - g) <= 1e-6 * np.linalg.norm(g)


@pytest.mark.parametrize("n_pos,n_neg", [(1, 12), (2, 6), (3, 4), (4, 3), (6, 2), (2, 5)])
def test_expgain_auc_closed_form_equals_hypercube_enumeration(n_pos, n_neg):
    rng = np.random.default_rng(n_pos * 13 + n_neg)
    Xq = rng.random((n_pos + n_neg, 3))
    gf = good_first(Xq, np.r_[np.ones(n_pos), np.zeros(n_neg)], [0, n_pos + n_neg])
    for scale in (False, True):
        fun = ConditionalObjective(gf, None, "ExpGain", "AUC", C=1e300, phi_scale=scale)
        w = rng.normal(size=3) * 2
        s = 1.0 / (n_pos * n_neg) if scale else 1.0
        assert fun(w)[0] == pytest.approx(ref.expgain_auc_hypercube(Xq, n_pos, w, s), rel=1e-11)


def separable(seed=0):
    d = make_queries(8, (6, 12), 5, n_levels=2, noise=0.0, level_probs=[0.6, 0.4], seed=seed)
    return d


@pytest.mark.parametrize("objective", ["MLE", "ConvexLoss"])
def test_separable_toy_reaches_zero_training_loss(objective):
    """Without noise the labels are a threshold of a linear score.  With walks of one move
    from y_q the sample holds every single flip of y_q, whose margin is 2(S_g − S_b): the
    convex objectives drive the training loss to zero by ordering every good-bad pair."""
    d = separable()
    r = ConditionalRanker(objective, "MAP", C=1e8, sample_size=400, walk_length=1,
                          restart_skew=1.0, max_iter=3000, tol=1e-12).fit_data(d)
    gf = good_first(d.X, d.y, d.query_ptr)
    for q in range(gf.n_queries):      # every single flip of y_q is in the sample
        assert r.sample_.sizes[q] == 1 + gf.n_pos[q] * gf.n_neg[q]
    fun = ConditionalObjective(gf, r.sample_, objective, "MAP", C=1e8)
    start = fun.loss(gf.X @ np.zeros(d.n_features))[0]
    end = fun.loss(gf.X @ r.coef_)[0]
    assert start > 1.0 and end < 1e-3 * start
    # the expected direction: every training pair ordered correctly
    s = d.X @ r.coef_
    for q in range(d.n_queries):
        sl, yl = s[d.query(q)], d.y[d.query(q)]
        if 0 < (yl >= 1).sum() < len(yl):
            assert sl[yl >= 1].min() > sl[yl < 1].max()


@pytest.mark.parametrize("objective", ["MLE", "ConvexLoss"])
def test_longer_walks_give_positive_margins_on_the_sample(objective):
    """Sec. 3: the MLE "leads to positive values of wᵀδφ_q(y')": on separable data every
    sampled ranking y' ≠ y_q ends up with wᵀδφ_q(y') > 0 and the loss near zero."""
    d = separable(seed=3)
    r = ConditionalRanker(objective, "NDCG", C=1e8, sample_size=80, walk_length=6,
                          max_iter=3000, tol=1e-12).fit_data(d)
    gf = good_first(d.X, d.y, d.query_ptr)
    S = gf.X @ r.coef_
    for q in range(gf.n_queries):
        W = r.sample_.query_wins(gf, q).astype(float)
        Sq = S[gf.query_ptr[q]:gf.query_ptr[q + 1]]
        u = 2 * W @ Sq                     # wᵀφ up to a constant shared by the query
        assert np.all(u[0] - u[1:] > 0)
    fun = ConditionalObjective(gf, r.sample_, objective, "NDCG", C=1e8)
    assert fun.loss(S)[0] < 1e-3 * fun.loss(0 * S)[0]


def test_fit_grid_of_a_nonconvex_objective_shares_one_sample_and_equals_separate_fits():
    d = make_queries(6, (5, 10), 4, seed=2)
    grid = {"C": [0.1, 10.0]}
    got = list(ConditionalRanker("L3", "NDCG", sample_size=30, n_inits=2).fit_grid(d, grid))
    assert got[0][1].sample_ is got[1][1].sample_
    for params, model in got:
        single = ConditionalRanker("L3", "NDCG", sample_size=30, n_inits=2,
                                   **params).fit_data(d)
        np.testing.assert_allclose(model.coef_, single.coef_, rtol=1e-12)


@pytest.mark.parametrize("objective,delta", [("MLE", "AUC"), ("ConvexLoss", "NDCG"),
                                             ("ConvexLoss", "MAP")])
def test_a_warm_started_convex_grid_reaches_the_cold_minimum_within_the_stopping_tolerance(
        objective, delta):
    """A convex objective's grid is fitted from the smallest C up, each fit warm-started from
    the one before (in grid order out): its objective at every C equals a cold fit's within
    what the stopping rule leaves — f is 2/C-strongly convex, so f(w) − f* ≤ ‖∇f(w)‖² C/4 for
    either fit — and the first fit (no warm start) is the cold one."""
    d = make_queries(10, (6, 14), 6, seed=5)
    grid = {"C": [10.0, 0.01, 1.0, 100.0]}                # not sorted: results in grid order
    r = ConditionalRanker(objective, delta, sample_size=40, tol=1e-6)
    got = list(r.fit_grid(d, grid))
    assert [p["C"] for p, _ in got] == grid["C"]
    for params, warm in got:
        cold = ConditionalRanker(objective, delta, sample_size=40, tol=1e-6,
                                 **params).fit_data(d)
        gf = good_first(d.X, d.y, d.query_ptr)
        fun = ConditionalObjective(gf, cold.sample_, objective, delta, params["C"])
        (fw, gw), (fc, gc) = fun(warm.coef_), fun(cold.coef_)
        slack = params["C"] / 4 * max(float(gw @ gw), float(gc @ gc))
        assert abs(fw - fc) <= slack + 1e-12 * abs(fc)
        assert warm.result_.status == "converged"
        if params["C"] == 0.01:                            # the path's first fit: cold
            np.testing.assert_array_equal(warm.coef_, cold.coef_)


def test_a_shared_sample_cache_draws_once_and_changes_no_fit():
    """Rankers of a fold given one SampleCache: one sample Ŷ for every sampled objective (the
    same draw as their own), the closed form and other sampler settings or seeds apart, and
    every fit (including the random starts drawn after the sample) bit-identical to a fit
    that draws its own."""
    from repro.rankers.conditional import SampleCache
    d = make_queries(6, (5, 10), 4, seed=3)
    cache = SampleCache()
    specs = [("MLE", "AUC", {}), ("ExpGain", "MAP", {"n_inits": 2}), ("L3", "NDCG", {"n_inits": 2}),
             ("ExpGain", "AUC", {"n_inits": 2}), ("ConvexLoss", "NDCG", {"restart_skew": 0.5}),
             ("ConvexLoss", "MAP", {"random_state": 1})]
    got = {}
    for obj, kind, kw in specs:
        shared = ConditionalRanker(obj, kind, C=10.0, sample_size=30, sample_cache=cache,
                                   **kw).fit_data(d)
        alone = ConditionalRanker(obj, kind, C=10.0, sample_size=30, **kw).fit_data(d)
        assert np.array_equal(shared.coef_, alone.coef_), (obj, kind)
        assert shared.result_.f_inits == alone.result_.f_inits
        got[obj, kind] = shared.sample_
    assert got["MLE", "AUC"] is got["ExpGain", "MAP"] is got["L3", "NDCG"]
    assert got["ExpGain", "AUC"] is None
    assert got["ConvexLoss", "NDCG"] is not got["MLE", "AUC"]
    assert got["ConvexLoss", "MAP"] is not got["MLE", "AUC"]
    # other data (not the same arrays): drawn anew
    other = make_queries(6, (5, 10), 4, seed=3)
    r = ConditionalRanker("MLE", "AUC", C=10.0, sample_size=30, sample_cache=cache).fit_data(other)
    assert r.sample_ is not got["MLE", "AUC"]


@pytest.mark.parametrize("collide", [False, True])
def test_first_equal_rows_finds_each_rows_first_copy(monkeypatch, collide):
    """The deduplication of the sample: for every row, the first row equal to it (a dict of
    the rows' bytes as reference); with every hash equal (all collide) the byte comparison
    gives the same answer."""
    from repro.rankers import conditional as cond
    if collide:
        monkeypatch.setattr(cond, "_ROW_HASH", np.zeros(4096, dtype=np.uint64))
    rng = np.random.default_rng(4)
    for n_rows, n_cols in ((1, 3), (50, 4), (300, 7), (40, 1)):
        W = rng.integers(0, 3, (n_rows, n_cols)).astype(np.int32)
        seen = {}
        want = [seen.setdefault(row.tobytes(), i) for i, row in enumerate(W)]
        assert cond.first_equal_rows(W).tolist() == want


def test_nonconvex_objectives_keep_the_best_start():
    d = make_queries(6, (5, 10), 4, seed=7)
    r = ConditionalRanker("ExpGain", "MAP", C=10.0, n_inits=3, sample_size=40).fit_data(d)
    assert len(r.result_.f_inits) == 3
    assert r.result_.f == min(r.result_.f_inits)
    assert r.method_name == "ExpGain_MAP"
    assert ConditionalRanker("L3", "AUC").method_name == "L_3_AUC"


def test_single_level_queries_are_skipped_and_bad_input_refused():
    X, y, ptr = small_data()
    y2 = np.r_[y, [0, 0, 0]]
    X2 = np.vstack([X, np.ones((3, X.shape[1]))])
    r = ConditionalRanker("MLE", sample_size=10).fit(X2, y2, np.repeat(np.arange(5), np.diff(np.r_[ptr, ptr[-1] + 3])))
    assert r.n_queries_skipped_ == 1 and r.n_queries_used_ == 4
    with pytest.raises(DataError, match="no query has both"):
        ConditionalRanker().fit(X, np.zeros_like(y), np.repeat(np.arange(4), np.diff(ptr)))
    with pytest.raises(DataError, match="objective"):
        ConditionalRanker(objective="Hinge").fit(X, y, np.repeat(np.arange(4), np.diff(ptr)))
    with pytest.raises(DataError, match="C"):
        ConditionalRanker(C=-1.0).fit(X, y, np.repeat(np.arange(4), np.diff(ptr)))
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(DataError, match="document 3, feature 1"):
        ConditionalRanker().fit(Xn, y, np.repeat(np.arange(4), np.diff(ptr)))


@pytest.mark.parametrize("dedup", [True, False])
def test_sample_forest_links_each_ranking_to_its_parent_by_one_move(dedup):
    X, y, ptr = small_data(seed=8, sizes=((3, 6), (2, 9), (5, 5)))
    gf = good_first(X, y, ptr)
    s = draw_sample(gf, 80, 6, restart_skew=0.6, deduplicate=dedup, rng=2)
    for q in range(gf.n_queries):
        W = s.query_wins(gf, q)
        lo = s.row_ptr[q]
        par, dn, up = (a[lo:s.row_ptr[q + 1]] for a in (s.parent, s.down, s.up))
        assert par[0] == -1 and np.array_equal(W[0][:gf.n_pos[q]], np.full(gf.n_pos[q], gf.n_neg[q]))
        for j in range(1, W.shape[0]):
            if par[j] < 0:
                continue                      # a restart state (a root)
            assert par[j] < j
            diff = W[j] - W[par[j]]
            want = np.zeros_like(diff)
            want[dn[j]] -= 1
            want[up[j]] += 1
            assert np.array_equal(diff, want)
        if dedup:
            assert len({r.tobytes() for r in W}) == W.shape[0]
