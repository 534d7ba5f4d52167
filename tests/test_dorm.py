"""DORM (Le & Smola 2007, Algorithm 2) and the SVMperf baselines: losses against hand-computed
values, the most violated constraint against brute force over all permutations / labellings,
the working-set QP against a general-purpose solver, and the stopping guarantees."""
import numpy as np
import pytest

import reference_structsvm as ref
from repro.data.queries import QueryData
from repro.data.synthetic import make_queries
from repro.errors import DataError
from repro.rankers.dorm import (DORM, DormOracle, ideal_weights, loss_vectors, measure,
                                mwta_truncation, position_weights, ranking_loss)
from repro.rankers.linear_svm import LinearSVM
from repro.rankers.single_feature import SingleFeature
from repro.rankers.structsvm import WorkingSets, solve_working_qp
from repro.rankers.svmperf import (PrecisionAtKOracle, PrecisionAtKSVM, ROCAreaOracle,
                                   ROCAreaSVM)

LOG2_3 = np.log2(3.0)


def positions_of(ranking):
    pos = np.empty(len(ranking), dtype=np.int64)
    pos[list(ranking)] = np.arange(len(ranking))
    return pos


# -- losses against hand-computed values ------------------------------------------------------

def test_ndcg_at_2_by_hand():
    labels = [2, 0, 1]
    a, b = loss_vectors("ndcg", labels, n=2)
    # ideal DCG@2 = 3/log2(2) + 1/log2(3); ranking (doc1, doc0, doc2): 0 + 3/log2(3)
    ideal = 3.0 + 1.0 / LOG2_3
    assert measure(a, b, positions_of([1, 0, 2])) == pytest.approx((3.0 / LOG2_3) / ideal)
    assert ranking_loss(a, b, positions_of([1, 0, 2])) == pytest.approx(1 - (3.0 / LOG2_3) / ideal)
    assert ranking_loss(a, b, positions_of([0, 2, 1])) == pytest.approx(0.0, abs=1e-15)
    assert list(a) == [1.0, 1.0 / LOG2_3, 0.0]          # a_i = 0 beyond the truncation


def test_mrr_wta_precision_eru_by_hand():
    labels = [1, 2, 0, 2]
    rank = [2, 0, 1, 3]                                 # top-label docs 1, 3 at ranks 3 and 4
    a, b = loss_vectors("mrr", labels)
    assert measure(a, b, positions_of(rank)) == pytest.approx((1 / 3 + 1 / 4) / 2)
    assert ranking_loss(a, b, positions_of(rank)) == pytest.approx((1 + 1 / 2) / 2 - 7 / 24)
    a, b = loss_vectors("wta", labels)
    assert measure(a, b, positions_of(rank)) == 0.0
    assert measure(a, b, positions_of([3, 0, 1, 2])) == 1.0
    a, b = loss_vectors("precision", labels, n=2, relevant_min=1)
    assert measure(a, b, positions_of(rank)) == pytest.approx(0.5)     # docs 2 (0), 0 (1)
    a, b = loss_vectors("eru", labels, eru_neutral=0.5, eru_halflife=3.0)
    # utilities max(r − 0.5, 0) = 0.5, 1.5, 0, 1.5; a_i = 2^{−(i−1)/2}
    got = 0 * 1 + 0.5 * 2 ** -0.5 + 1.5 * 2 ** -1 + 1.5 * 2 ** -1.5
    ideal = 1.5 + 1.5 * 2 ** -0.5 + 0.5 * 2 ** -1
    assert measure(a, b, positions_of(rank)) == pytest.approx(got / ideal)


def test_mwta_truncation_heuristic():
    assert mwta_truncation([0, 2, 1, 2]) == 3          # top 3 (2, 2, 1): two levels
    assert mwta_truncation([2, 1, 0]) == 3             # three levels
    assert mwta_truncation([2, 2, 2, 2, 1, 0]) == 5    # first lower level at position 5
    assert mwta_truncation([1, 1, 1]) == 3             # one level: the whole query
    a, _ = loss_vectors("mwta", [2, 2, 2, 2, 1, 0])
    assert np.count_nonzero(a) == 5


def test_position_weights():
    i = np.arange(1, 6)
    np.testing.assert_allclose(position_weights("(i+1)^-1", 5), 1 / (i + 1))
    np.testing.assert_allclose(position_weights("(i+1)^-1/2", 5), (i + 1) ** -0.5)
    np.testing.assert_allclose(position_weights("(i+1)^-0.25", 5), (i + 1) ** -0.25)
    np.testing.assert_allclose(position_weights("1/log(i+2)", 5), 1 / np.log(i + 2))
    c = position_weights("1/loglog(i+2)", 100)
    np.testing.assert_allclose(c[:2], 1 / np.log(np.log([3.0, 4.0])))
    assert np.all(c > 0) and np.all(np.diff(c) < 0)
    for bad in ("i^2", "(i+1)^-0", "1/log10(i)"):
        with pytest.raises(ValueError, match="scheme"):
            position_weights(bad, 3)


def test_ideal_weights_average_over_label_ties():
    c = np.array([0.5, 0.4, 0.3, 0.2])
    np.testing.assert_allclose(ideal_weights([1, 2, 1, 0], c), [0.35, 0.5, 0.35, 0.2])
    np.testing.assert_allclose(ideal_weights([1, 2, 1, 0], c, "stable"), [0.4, 0.5, 0.3, 0.2])


# -- most violated constraint = brute force ---------------------------------------------------

@pytest.mark.parametrize("loss", ["ndcg", "mrr", "wta", "mwta", "precision", "eru"])
def test_most_violated_constraint_equals_brute_force(loss):
    rng = np.random.default_rng(abs(hash(loss)) % 2**32)
    for trial in range(12):
        l = int(rng.integers(2, 7))
        labels = rng.integers(0, 3, l).astype(float)
        if np.ptp(labels) == 0:
            labels[0] += 1
        g = rng.normal(size=l) if trial % 3 else rng.integers(-1, 2, l).astype(float)
        X = np.eye(l)                                   # ψ's coefficients = ψ itself
        y = labels
        kw = dict(n=2, relevant_min=1.0, eru_neutral=0.5, eru_halflife=3.0)
        oracle = DormOracle(y, [0, l], loss, kw["n"], "(i+1)^-1", "average", 1.0, 0.5, 3.0)
        coef, delta = oracle(0, g)
        H = delta - float((coef @ X) @ g)
        c = position_weights("(i+1)^-1", l)
        cbar = ideal_weights(labels, c)
        want = ref.most_violated_permutation(
            loss, list(labels), g, c, cbar, n=kw["n"], relevant_min=1.0, eru_neutral=0.5,
            eru_halflife=3.0, mwta_n=mwta_truncation(labels))
        assert H == pytest.approx(want, abs=1e-12)


def test_roc_and_precision_oracles_equal_brute_force():
    rng = np.random.default_rng(3)
    for trial in range(20):
        l = int(rng.integers(2, 7))
        y = rng.integers(0, 2, l).astype(float)
        y[0], y[1] = 1.0, 0.0
        g = rng.normal(size=l) * (0.3 if trial % 2 else 1.0)
        rel = list(y >= 1)
        coef, delta = ROCAreaOracle(y, [0, l], 1.0)(0, g)
        if y.sum() * (l - y.sum()) <= 10:
            assert delta - coef @ g == pytest.approx(ref.most_violated_roc(rel, g), abs=1e-12)
        for k in (1, 2, 4, 10):
            coef, delta = PrecisionAtKOracle(y, [0, l], 1.0, k)(0, g)
            assert delta - coef @ g == pytest.approx(ref.most_violated_prec(rel, g, k),
                                                     abs=1e-12)


def test_roc_and_precision_oracles_keep_their_answers_when_asked_again():
    """The oracles keep per-query parts between calls: asked about several queries and
    score vectors in any order, each answer is that of a fresh oracle."""
    rng = np.random.default_rng(5)
    sizes = [5, 3, 8, 4]
    qp = np.concatenate([[0], np.cumsum(sizes)])
    y = rng.integers(0, 3, qp[-1]).astype(float)
    y[qp[:-1]], y[qp[:-1] + 1] = 2.0, 0.0
    shared = [ROCAreaOracle(y, qp, 1.0), PrecisionAtKOracle(y, qp, 1.0, 3)]
    for trial in range(12):
        q = int(rng.integers(0, len(sizes)))
        g = rng.normal(size=sizes[q])
        for oracle, fresh in zip(shared, (ROCAreaOracle(y, qp, 1.0),
                                          PrecisionAtKOracle(y, qp, 1.0, 3))):
            (c1, d1), (c2, d2) = oracle(q, g), fresh(q, g)
            assert np.array_equal(c1, c2) and d1 == d2


# -- the working-set QP and the stopping rule -------------------------------------------------

def test_working_set_qp_equals_general_solver():
    rng = np.random.default_rng(4)
    for trial in range(5):
        m, d = 4, 3
        ws = WorkingSets(m, d, cap=2)                   # grows on the way
        blocks_psi, blocks_delta = [], []
        for i in range(m):
            k = int(rng.integers(1, 6))
            P = rng.normal(size=(k, d))
            D = rng.random(k)
            for p in range(k):
                ws.add(i, P[p], D[p])
            blocks_psi.append(P)
            blocks_delta.append(D)
        C = float(10 ** rng.uniform(-1, 1))
        w = np.zeros(d)
        gap, _ = solve_working_qp(ws, C, w, tol_gap=1e-10)
        assert gap <= 1e-10
        alpha = [ws.alpha[i, :ws.counts[i]] for i in range(m)]
        assert all(np.all(a >= 0) and a.sum() <= C * (1 + 1e-12) for a in alpha)
        value, w_ref = ref.dual_value(alpha, blocks_psi, blocks_delta)
        np.testing.assert_allclose(w, w_ref, atol=1e-12)
        best = ref.solve_dual(blocks_psi, blocks_delta, C)
        assert value == pytest.approx(best, abs=1e-7)
        # the gap is primal − dual over the working sets, each term computed literally
        xi = [max(0.0, float(np.max(D - P @ w))) for P, D in zip(blocks_psi, blocks_delta)]
        primal = 0.5 * w @ w + C * sum(xi)
        assert primal - value == pytest.approx(gap, abs=1e-9)


@pytest.mark.parametrize("loss", ["ndcg", "mrr", "mwta"])
def test_dorm_stops_eps_feasible_with_qp_gap_below_tolerance(loss):
    d = make_queries(8, (3, 6), 4, n_levels=3, seed=5)
    eps = 0.01
    model = DORM(C=2.0, loss=loss, n=3, eps=eps).fit_data(d)
    r = model.result_
    assert r.status == "converged"
    assert r.gap_scaled <= 0.1 * eps                    # qp_tol = ε/10 on the loss scale
    # literal gap from the working sets: ½‖w‖² + C Σ ξ − (Σ αΔ − ½‖w‖²)
    ws, w = model.working_sets_, model.coef_
    alpha = [ws.alpha[i, :ws.counts[i]] for i in range(ws.m)]
    value, w_ref = ref.dual_value(alpha, [ws.Psi[i, :ws.counts[i]] for i in range(ws.m)],
                                  [ws.delta[i, :ws.counts[i]] for i in range(ws.m)])
    np.testing.assert_allclose(w, w_ref, atol=1e-10)
    primal = 0.5 * w @ w + 2.0 * r.xi.sum()
    assert (primal - value) / (2.0 * r.n_active) <= 0.1 * eps + 1e-12
    # every constraint of every permutation holds within ε (brute force over permutations)
    c = position_weights("(i+1)^-1", 10)
    for q in range(d.n_queries):
        lo, hi = d.query_ptr[q], d.query_ptr[q + 1]
        labels = d.y[lo:hi]
        if np.ptp(labels) == 0:
            continue
        g = d.X[lo:hi] @ w
        cq = c[:hi - lo]
        H = ref.most_violated_permutation(loss, list(labels), g, cq, ideal_weights(labels, cq),
                                          n=3, mwta_n=mwta_truncation(labels))
        assert H <= r.xi[q] + eps + 1e-9


def test_baselines_converge_with_small_gap():
    d = make_queries(10, (5, 12), 5, n_levels=3, seed=6)
    for model in (ROCAreaSVM(C=1.0), PrecisionAtKSVM(C=1.0, k=3)):
        r = model.fit_data(d).result_
        assert r.status == "converged" and r.gap_scaled <= 0.1 * model.eps
        assert r.max_violation <= model.eps


def test_dorm_learns_a_separable_ranking():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(200, 4))
    y = np.digitize(X @ np.array([1.0, -2.0, 0.5, 0.0]), [-1.0, 1.0]).astype(float)
    data = QueryData(X, y, np.arange(0, 201, 20), np.arange(10))
    for loss in ("ndcg", "mrr", "wta", "precision", "eru"):
        model = DORM(C=100.0, loss=loss).fit_data(data)
        s = model.predict(X)
        top = [np.argmax(s[q * 20:(q + 1) * 20]) for q in range(10)]
        assert all(y[q * 20 + t] == y[q * 20:(q + 1) * 20].max() for q, t in enumerate(top))


def test_linear_svm_is_the_l2_svm_optimum():
    from scipy.optimize import minimize
    d = make_queries(6, 10, 3, n_levels=2, seed=9)
    model = LinearSVM(C=0.7, eps=1e-10).fit_data(d)
    s = np.where(d.y >= 1, 1.0, -1.0)
    Xt = np.hstack([d.X, np.ones((d.n_docs, 1))])

    def f(w):
        m = np.maximum(0, 1 - s * (Xt @ w))
        return 0.5 * w @ w + 0.7 * m @ m
    best = minimize(f, np.zeros(4), method="BFGS", options={"gtol": 1e-10}).x
    np.testing.assert_allclose(np.r_[model.coef_, model.intercept_], best, atol=1e-5)
    np.testing.assert_allclose(model.predict(d.X), Xt @ best, atol=1e-5)


def test_single_feature_ranks_by_its_column():
    d = make_queries(3, 5, 4, seed=1)
    m = SingleFeature(feature=2).fit_data(d)
    np.testing.assert_array_equal(m.predict(d.X), d.X[:, 2])
    with pytest.raises(DataError, match="feature"):
        SingleFeature(feature=4).fit_data(d)


# -- bad input --------------------------------------------------------------------------------

def test_bad_input_is_a_clear_error():
    d = make_queries(4, 6, 3, seed=2)
    X = d.X.copy()
    X[3, 1] = np.nan
    with pytest.raises(DataError, match="document 3, feature 1"):
        DORM().fit(X, d.y, d.qid_per_doc)
    with pytest.raises(DataError, match="rows but y"):
        DORM().fit(d.X, d.y[:-1], d.qid_per_doc)
    with pytest.raises(DataError, match="nothing to learn"):
        DORM().fit(d.X, np.zeros(d.n_docs), d.qid_per_doc)
    with pytest.raises(ValueError, match="loss must be one of"):
        DORM(loss="map").fit_data(d)
    with pytest.raises(ValueError, match="scheme"):
        DORM(c="i").fit_data(d)
    with pytest.raises(ValueError, match="C must be positive"):
        DORM(C=0).fit_data(d)
    with pytest.raises(ValueError, match="ties"):
        DORM(ties="random").fit_data(d)
    model = DORM().fit_data(make_queries(4, 6, 3, n_levels=3, seed=2))
    with pytest.raises(DataError, match="expected 3 features"):
        model.predict(np.zeros((2, 4)))
    with pytest.raises(DataError, match="nothing to classify"):
        LinearSVM().fit(d.X, np.zeros(d.n_docs), d.qid_per_doc)


def test_latent_ties_choose_the_ideal_ordering_the_scores_prefer():
    d = make_queries(8, (4, 9), 4, n_levels=3, seed=12)
    model = DORM(C=1.0, ties="latent").fit_data(d)
    assert 1 <= model.n_outer_ <= 20
    oracle = DORM(ties="latent")._oracle(d.y, d.query_ptr)
    s = d.X @ model.coef_
    oracle.relabel(s)
    c = position_weights("(i+1)^-1", 9)
    for q in np.flatnonzero(oracle.active):
        lo, hi = d.query_ptr[q], d.query_ptr[q + 1]
        order = sorted(range(hi - lo), key=lambda i: (-d.y[lo + i], -s[lo + i], i))
        want = np.empty(hi - lo)
        want[order] = c[:hi - lo]
        np.testing.assert_array_equal(oracle.cbar[lo:hi], want)
    assert oracle.relabel(s) == {}                 # a second call changes nothing


@pytest.mark.parametrize("ties", ["average", "latent"])
def test_counted_augmentations_are_the_assignments_formula(monkeypatch, ties):
    """The fit's counted LAP augmentations are, call by call, min(|T|, |R|): positions with
    a_j ≠ 0 against relevant documents (b_i ≠ 0) — the rows the rank-2 solve augments, the
    rest laid out sorted; summed over every oracle call of the fit (the latent refits too)."""
    from repro.rankers.assignment import Rank2Solver
    want = []
    real = Rank2Solver.__call__

    def counting(self, g):
        want.append(min(int(np.count_nonzero(self.a)), int(np.count_nonzero(self.b))))
        return real(self, g)
    monkeypatch.setattr(Rank2Solver, "__call__", counting)
    d = make_queries(6, 12, 4, n_levels=3, seed=2)
    m = DORM(C=1.0, ties=ties).fit_data(d)
    assert m.result_.n_augmented == sum(want) > 0
