"""The RankSVM objective by counting equals the explicit-pair objective; TRON solves it; the
cutting-plane baseline solves problem (2); MQ2008 Fold1 acceptance numbers."""
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize

from reference_pair_counting import PairObjective, hinge_subgradient
from repro.errors import DataError
from repro.rankers.cutting_plane import CuttingPlaneRankSVM, L1RankRisk, simplex_qp
from repro.rankers.pair_counting import METHODS
from repro.rankers.ranksvm import (ExplicitPairObjective, L2RankSVMObjective, RankSVM,
                                  as_matrix)


def small_data(seed, n_features=5, sparse=False):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 15, 10)
    qp = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    n = int(qp[-1])
    X = np.round(rng.normal(size=(n, n_features)), 1)           # ties in scores
    y = rng.integers(0, 4, n).astype(float)
    y[qp[1]:qp[2]] = 1.0                                         # a single-level query
    return (sp.csr_matrix(X) if sparse else X), y, qp


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("sparse", [False, True])
def test_objective_equals_explicit_pairs(method, sparse):
    for seed in range(4):
        X, y, qp = small_data(seed, sparse=sparse)
        C = 0.7
        obj = L2RankSVMObjective(X, y, qp, C, method)
        ref = PairObjective(X, y, qp, C)
        peer = ExplicitPairObjective(X, y, qp, C)
        rng = np.random.default_rng(seed + 10)
        for scale in (0.0, 0.3, 2.0):
            w = rng.normal(size=5) * scale
            d = rng.normal(size=5)
            f = obj.fun(w)
            g = obj.grad(w)
            hv = obj.hv(d)
            assert f == pytest.approx(ref.fun(w), rel=1e-12, abs=1e-12)
            np.testing.assert_allclose(g, ref.grad(w), rtol=1e-10, atol=1e-10)
            np.testing.assert_allclose(hv, ref.hv(w, d), rtol=1e-10, atol=1e-10)
            assert peer.fun(w) == pytest.approx(f, rel=1e-12, abs=1e-12)
            np.testing.assert_allclose(peer.grad(w), g, rtol=1e-10, atol=1e-10)
            np.testing.assert_allclose(peer.hv(d), hv, rtol=1e-10, atol=1e-10)
            assert obj.violations(w) == int(np.sum(ref.margins(w) > 0))


def test_hessian_at_current_point_after_rejected_trial():
    X, y, qp = small_data(5)
    obj = L2RankSVMObjective(X, y, qp, 1.0)
    ref = PairObjective(X, y, qp, 1.0)
    w1 = np.full(5, 0.2)
    w2 = np.full(5, -3.0)
    d = np.arange(5.0)
    obj.fun(w1)
    obj.grad(w1)
    obj.fun(w2)                           # a trial point that TRON rejects
    np.testing.assert_allclose(obj.hv(d), ref.hv(w1, d), rtol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_tron_reaches_pairwise_optimum(method):
    X, y, qp = small_data(8)
    ref = PairObjective(X, y, qp, 2.0)
    best = minimize(ref.fun, np.zeros(5), jac=ref.grad, hessp=ref.hv, method="trust-ncg",
                    options={"gtol": 1e-11})
    qid = np.repeat(np.arange(len(qp) - 1), np.diff(qp))
    m = RankSVM(C=2.0, eps=1e-10, method=method).fit(X, y, qid)
    assert m.result_.f == pytest.approx(best.fun, rel=1e-10)
    assert m.n_pairs_ == len(ref.H)
    np.testing.assert_allclose(m.predict(X), X @ m.coef_)


def test_document_order_does_not_matter():
    X, y, qp = small_data(9)
    qid = np.repeat(np.arange(len(qp) - 1) * 7 + 3, np.diff(qp))
    perm = np.random.default_rng(0).permutation(len(y))
    a = RankSVM(C=1.0, eps=1e-9).fit(X, y, qid)
    b = RankSVM(C=1.0, eps=1e-9).fit(X[perm], y[perm], qid[perm])
    assert a.result_.f == pytest.approx(b.result_.f, rel=1e-10)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-6, atol=1e-8)


def test_no_pairs_and_bad_input():
    X = np.ones((4, 2))
    m = RankSVM().fit(X, [1.0, 1.0, 0.0, 2.0], [1, 1, 2, 3])   # single level / one-document
    assert not m.coef_.any() and m.n_pairs_ == 0
    with pytest.raises(DataError):
        RankSVM().fit(np.array([[np.nan, 1.0], [0.0, 1.0]]), [1.0, 0.0], [1, 1])
    with pytest.raises(DataError):
        RankSVM().fit(X, [1.0, np.nan, 0.0, 2.0], [1, 1, 2, 3])
    with pytest.raises(DataError):
        RankSVM().fit(X, [1.0, 0.0], [1, 1])
    with pytest.raises(ValueError):
        RankSVM(method="sorting").fit(X, [1.0, 1.0, 0.0, 2.0], [1, 1, 2, 3])
    with pytest.raises(RuntimeError):
        RankSVM().predict(X)


@pytest.mark.parametrize("sparse", [False, True])
def test_non_finite_X_names_document_and_feature(sparse):
    X = np.arange(12.0).reshape(4, 3) + 1.0
    X[2, 1] = np.inf
    X[3, 0] = np.nan
    with pytest.raises(DataError, match="value inf at document 2, feature 1 is not finite"):
        as_matrix(sp.csr_matrix(X) if sparse else X)


def test_n_pairs_computed_once(monkeypatch):
    from repro.rankers import ranksvm
    X, y, qp = small_data(3)
    obj = L2RankSVMObjective(X, y, qp, 1.0)
    calls = []
    real = ranksvm.count_pairs
    monkeypatch.setattr(ranksvm, "count_pairs", lambda *a: calls.append(1) or real(*a))
    assert obj.n_pairs == obj.n_pairs == len(PairObjective(X, y, qp, 1.0).H)
    assert len(calls) == 1


# --- the cutting-plane baseline (problem (2)) --------------------------------------------------

def test_l1_risk_and_subgradient_equal_explicit_pairs():
    X, y, qp = small_data(11)
    risk = L1RankRisk(X, y, qp)
    w = np.random.default_rng(1).normal(size=5)
    R, a, hinge = risk.risk_and_subgradient(w)
    g_ref, h_ref = hinge_subgradient(X, y, qp, w)
    assert hinge == pytest.approx(h_ref, rel=1e-12)
    assert R == pytest.approx(h_ref / risk.n_pairs, rel=1e-12)
    np.testing.assert_allclose(a * risk.n_pairs, g_ref, rtol=1e-10, atol=1e-10)


def test_simplex_qp_optimality():
    rng = np.random.default_rng(4)
    A = rng.normal(size=(3, 12))
    Q = A.T @ A / 1e-3                         # low rank and badly scaled, as in the bundle
    b = rng.normal(size=12)
    beta, val, _ = simplex_qp(Q, b, tol=1e-12)
    assert beta.min() >= 0 and beta.sum() == pytest.approx(1.0)
    g = b - Q @ beta                            # KKT: support has the largest gradient
    assert g.max() - g[beta > 1e-6].min() <= 1e-6 * np.abs(Q).max()
    for _ in range(200):                        # no feasible point does better
        p = rng.dirichlet(np.ones(12) * 0.3)
        assert b @ p - 0.5 * p @ Q @ p <= val + 1e-9


def test_cutting_plane_solves_problem_2():
    X, y, qp = small_data(12)
    ref = PairObjective(X, y, qp, 0.5)
    best = minimize(ref.l1_fun, np.zeros(5), method="Nelder-Mead",
                    options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 40000, "maxfev": 40000})
    qid = np.repeat(np.arange(len(qp) - 1), np.diff(qp))
    m = CuttingPlaneRankSVM(C=0.5, eps=1e-9, max_iter=500).fit(X, y, qid)
    assert m.result_.status == "converged"
    assert ref.l1_fun(m.coef_) == pytest.approx(m.result_.f, rel=1e-12)
    assert m.result_.f <= best.fun * (1 + 1e-6)
    # the gap certifies: f(w) − min f ≤ gap · C p
    assert m.result_.f - best.fun <= m.result_.gap * 0.5 * m.n_pairs_ + 1e-9


# --- MQ2008 Fold1 train (acceptance) -------------------------------------------------------------

@pytest.fixture(scope="module")
def mq2008(data_root):
    from repro.data.load import load_letor
    return load_letor("MQ2008", 1, "train", data_root)


OPT_C1 = 29566.52285         # optimum of problem (3), MQ2008 Fold1 train, C = 1


@pytest.mark.slow
def test_mq2008_optimum_and_sklearn_explicit_pairs(mq2008):
    from sklearn.svm import LinearSVC
    d = mq2008
    ref = PairObjective(d.X, d.y, d.query_ptr, 1.0)
    assert len(ref.H) == 52325
    fs = {}
    for method in METHODS:
        m = RankSVM(C=1.0, eps=1e-8, method=method).fit(d.X, d.y, d.qid_per_doc)
        fs[method] = ref.fun(m.coef_)
        assert m.result_.f == pytest.approx(fs[method], rel=1e-12)
    sign = np.where(np.arange(len(ref.H)) % 2 == 0, 1.0, -1.0)   # two classes for LinearSVC
    svc = LinearSVC(C=1.0, loss="squared_hinge", dual=False, fit_intercept=False, tol=1e-8,
                    max_iter=100000).fit(ref.D * sign[:, None], sign)
    f_peer = ref.fun(svc.coef_.ravel())
    for method, f in fs.items():
        assert abs(f - f_peer) / f_peer < 1e-6, method
        assert abs(f - OPT_C1) / OPT_C1 < 1e-6, method


def test_mq2008_default_tolerance(mq2008):
    d = mq2008
    m = RankSVM(C=1.0).fit(d.X, d.y, d.qid_per_doc)          # ε = 0.001, Lee & Lin's default
    assert m.result_.status == "converged"
    assert m.result_.relative_gnorm <= 1e-3
    assert (m.result_.f - OPT_C1) / OPT_C1 < 1e-3


def test_all_finite_needs_no_copy_and_survives_overflowing_sums():
    from repro.rankers.base import all_finite
    assert all_finite(np.full((4, 3), 1e308))                 # the sum overflows: checked again
    assert not all_finite(np.array([[1.0, np.nan]]))
    assert not all_finite(np.array([np.inf, -np.inf]))          # the sum is NaN, not inf
    assert all_finite(np.zeros((0, 5)))
    X = np.ones((6, 2))
    X[4, 1] = np.inf
    with pytest.raises(DataError, match="document 4, feature 1"):
        RankSVM().fit(X, np.arange(6.0), np.zeros(6))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("block_bytes", [1, 300, 5000])
def test_cache_blocked_hessian_products_equal_two_pass_ones(method, block_bytes, monkeypatch):
    """Large dense X gets Hv block by block (whole queries per block: one query, a few, or
    many); the products equal the two-pass ones up to rounding, and so does the TRON fit."""
    from repro.rankers import ranksvm
    from repro.rankers.tron import tron
    rng = np.random.default_rng(5)
    sizes = rng.integers(1, 30, size=40)                       # one-document queries too
    qp = np.r_[0, np.cumsum(sizes)]
    X = rng.normal(size=(qp[-1], 6))
    y = rng.integers(0, 4, size=qp[-1]).astype(float)
    w, d = rng.normal(size=6), rng.normal(size=6)
    plain = L2RankSVMObjective(X, y, qp, 0.7, method)
    assert plain._blocks is None                               # small data: untouched
    plain.fun(w), plain.grad(w)
    monkeypatch.setattr(ranksvm, "HV_BLOCKED_ABOVE", 0)
    monkeypatch.setattr(ranksvm, "HV_BLOCK_BYTES", block_bytes)
    blocked = L2RankSVMObjective(X, y, qp, 0.7, method)
    assert blocked._blocks is not None and blocked._blocks[-1][1] == qp[-1]
    blocked.fun(w + 1.0), blocked.grad(w + 1.0)                # another point first
    blocked.fun(w), blocked.grad(w)
    for v in (d, -2 * d, np.ones(6)):
        np.testing.assert_allclose(blocked.hv(v), plain.hv(v), rtol=1e-12, atol=1e-12)
    a = tron(L2RankSVMObjective(X, y, qp, 0.7, method), n=6, eps=1e-8)
    b = tron(blocked, n=6, eps=1e-8)
    np.testing.assert_allclose(b.w, a.w, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("method", METHODS)
def test_threads_give_identical_fits(method, monkeypatch):
    """The blocked objective over fixed blocks of whole queries: 1, 2 and 3 threads give the
    same f, ∇f, ∇²f·d, w and iteration counts bit for bit (the blocks do not depend on the
    thread count; the partial sums are added in block order)."""
    from repro.rankers import ranksvm
    from repro.rankers.tron import tron
    monkeypatch.setattr(ranksvm, "HV_BLOCK_BYTES", 6 * 8 * 25)    # ~25 rows per block
    rng = np.random.default_rng(21)
    sizes = rng.integers(1, 40, size=60)
    qp = np.r_[0, np.cumsum(sizes)]
    X = np.round(rng.normal(size=(qp[-1], 6)), 2)
    y = rng.integers(0, 5, size=qp[-1]).astype(float)
    w, d = rng.normal(size=6), rng.normal(size=6)
    runs = {}
    for threads in (1, 2, 3):
        obj = L2RankSVMObjective(X, y, qp, 0.3, method, threads=threads, blocked=True)
        assert len(obj._blocks) > 10 and len(obj._workers) == threads
        vals = (obj.fun(w), obj.grad(w), obj.hv(d), obj.hv(-3 * d))
        res = tron(obj, n=6, eps=1e-7, keep_history=False)
        obj.close()
        runs[threads] = (vals, res)
    (f1, g1, h1, k1), r1 = runs[1]
    plain = L2RankSVMObjective(X, y, qp, 0.3, method)
    assert not plain.blocked
    np.testing.assert_allclose(f1, plain.fun(w), rtol=1e-13)
    np.testing.assert_allclose(g1, plain.grad(w), rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(h1, plain.hv(d), rtol=1e-11, atol=1e-11)
    for threads in (2, 3):
        (f, g, h, k), r = runs[threads]
        assert f == f1
        for a, b in ((g, g1), (h, h1), (k, k1), (r.w, r1.w)):
            np.testing.assert_array_equal(a, b)
        assert (r.n_iter, r.n_cg, r.n_fun, r.f) == (r1.n_iter, r1.n_cg, r1.n_fun, r1.f)
    # the ranker passes threads through; a bad value is refused, naming it
    qid = np.repeat(np.arange(60), sizes)
    m = RankSVM(C=0.3, eps=1e-7, method=method, threads=2).fit(X, y, qid)
    assert m.coef_.shape == (6,)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="threads"):
            RankSVM(threads=bad).fit(X, y, qid)


def _exact_hessian_diagonal(obj, d):
    return np.array([obj.hv(np.eye(d)[k])[k] for k in range(d)])


@pytest.mark.parametrize("sparse", [False, True])
def test_hessian_diagonal_estimate(sparse):
    """The preconditioner's diagonal is its definition (1 + 2C Σ_i deg_i x̃_i², x̃ centred
    per query, deg = l⁺ + l⁻ at the point), dense and sparse alike, and close to the exact
    diagonal of ∇²f (from Hessian-vector products with unit vectors)."""
    X, y, qp = small_data(11, sparse=sparse)
    w = np.random.default_rng(2).normal(size=5) * 0.2
    obj = L2RankSVMObjective(X, y, qp, 0.7)
    obj.fun(w), obj.grad(w)
    est = obj.hessian_diagonal()
    # the definition: 1 + 2C Σ_i deg_i (x_i − mean of its query)²
    Xd = X.toarray() if sparse else X
    c = obj.counts(w)
    deg = (c.l_plus + c.l_minus).astype(float)
    want = np.zeros(5)
    for q in range(qp.shape[0] - 1):
        Z = Xd[qp[q]:qp[q + 1]] - Xd[qp[q]:qp[q + 1]].mean(axis=0)
        want += deg[qp[q]:qp[q + 1]] @ (Z * Z)
    np.testing.assert_allclose(est, 1.0 + 1.4 * want, rtol=1e-12)
    exact = _exact_hessian_diagonal(obj, 5)
    assert np.all(est / exact > 0.6) and np.all(est / exact < 1.5)


def test_hessian_diagonal_blocked_and_threads_are_the_same(monkeypatch):
    from repro.rankers import ranksvm
    monkeypatch.setattr(ranksvm, "HV_BLOCK_BYTES", 6 * 8 * 25)
    rng = np.random.default_rng(8)
    qp = np.r_[0, np.cumsum(rng.integers(1, 40, size=50))]
    X = rng.normal(size=(qp[-1], 6)) + 5.0                     # offsets: centring matters
    y = rng.integers(0, 4, size=qp[-1]).astype(float)
    w = rng.normal(size=6)
    out = []
    for threads, blocked in ((1, None), (1, True), (2, True), (3, True)):
        obj = L2RankSVMObjective(X, y, qp, 1.3, threads=threads, blocked=blocked)
        obj.fun(w), obj.grad(w)
        out.append(obj.hessian_diagonal())
        obj.close()
    np.testing.assert_allclose(out[1], out[0], rtol=1e-12)
    assert all(np.array_equal(o, out[1]) for o in out[2:])   # thread count: bit for bit


def test_pcg_tron_reaches_the_same_optimum(mq2008):
    """RankSVM(solver="pcg-tron") on MQ2008 Fold1 at C = 1: the optimum within the stopping
    tolerance, fewer Hessian-vector products; the default solver's fit is untouched."""
    d = mq2008
    pcg = RankSVM(C=1.0, solver="pcg-tron").fit(d.X, d.y, d.qid_per_doc)
    assert pcg.result_.status == "converged" and pcg.result_.preconditioned
    assert pcg.result_.relative_gnorm <= 1e-3
    assert (pcg.result_.f - OPT_C1) / OPT_C1 < 1e-3
    tight = RankSVM(C=1.0, eps=1e-8, solver="pcg-tron").fit(d.X, d.y, d.qid_per_doc)
    assert abs(tight.result_.f - OPT_C1) / OPT_C1 < 1e-6
    plain = RankSVM(C=1.0).fit(d.X, d.y, d.qid_per_doc)
    assert pcg.result_.n_cg < plain.result_.n_cg
    from repro.rankers.ranksvm import L2RankSVMObjective as Obj
    from repro.rankers.tron import tron
    direct = tron(Obj(d.X, d.y, d.query_ptr, 1.0), n=d.X.shape[1])   # the paper's TRON
    assert np.array_equal(plain.coef_, direct.w) and not plain.result_.preconditioned
    with pytest.raises(ValueError, match="solver"):
        RankSVM(solver="newton").fit(d.X, d.y, d.qid_per_doc)


@pytest.mark.parametrize("method", METHODS)
def test_operations_of_one_evaluation_and_no_state_change(method):
    from reference_pair_counting import operation_counts, pairs
    X, y, qp = small_data(3)
    w = np.random.default_rng(1).normal(size=5)
    d = np.ones(5)
    obj = L2RankSVMObjective(X, y, qp, 0.7, method)
    before = (obj.fun(w), obj.grad(w), obj.hv(d))
    ops = obj.operations(w)
    s, t, lv = operation_counts(method, X @ w, y, qp)
    assert ops == {"sort comparisons": s, "margin tests": 2 * t, "level operations": 2 * lv,
                   "total": s + 2 * t + 2 * lv}
    after = (obj.fun(w), obj.grad(w), obj.hv(d))
    assert before[0] == after[0] and all(np.array_equal(a, b)
                                         for a, b in zip(before[1:], after[1:]))
    # explicit pairs: every pair for f, those inside the margin for ∇f and ∇²f·d
    peer = ExplicitPairObjective(X, y, qp, 0.7)
    H, L = pairs(y, qp)
    active = int(np.sum(1.0 - X[H] @ w + X[L] @ w > 0))
    assert peer.operations(w)["pair visits"] == len(H) + 2 * active
    assert peer.operations(np.zeros(5))["total"] == 3 * len(H)     # w = 0: all inside
