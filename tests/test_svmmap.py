"""SVM-MAP: the greedy most violated constraint against brute force; the cutting-plane
solver's stopping guarantee."""
import numpy as np
import pytest

import reference_svmmap as ref
from repro.data.synthetic import make_queries
from repro.errors import DataError
from repro.rankers import deltas
from repro.rankers.svmmap import SVMMAP, most_violated_ap
from repro.run.timing import single_thread_blas


@pytest.fixture(autouse=True)
def _one_blas_thread():
    """As in every run of the suite: BLAS threads would only fight over the cores."""
    with single_thread_blas():
        yield


@pytest.mark.parametrize("P,N", [(1, 1), (1, 4), (4, 1), (2, 3), (3, 3), (2, 5), (4, 3)])
def test_most_violated_equals_brute_force(P, N):
    rng = np.random.default_rng(P * 10 + N)
    for scale in (0.0, 0.3, 3.0):
        sg, sb = rng.normal(size=P) * scale, rng.normal(size=N) * scale
        wg, wb, dl, val = most_violated_ap(sg, sb)
        assert val == pytest.approx(ref.most_violated(sg, sb), abs=1e-12)
        # the returned wins are a ranking with that Δ and that value
        assert dl == pytest.approx(deltas.deltas(wg[None, :], N, "MAP")[0], abs=1e-12)
        assert wg.sum() == P * N - wb.sum()
        psi = (((2 * wg - N) * sg).sum() + ((2 * wb - P) * sb).sum()) / (P * N)
        assert val == pytest.approx(dl + psi, abs=1e-12)


def test_ties_in_scores():
    wg, wb, dl, val = most_violated_ap(np.zeros(3), np.zeros(3))
    assert val == pytest.approx(ref.most_violated(np.zeros(3), np.zeros(3)))


def true_slack(model, d):
    """(1/Q) Σ_q max_ȳ [Δ(ȳ) − wᵀδψ_q(ȳ)] at the model's w."""
    S = d.X @ model.coef_
    total, Q = 0.0, 0
    for q in range(d.n_queries):
        s, yq = S[d.query(q)], d.y[d.query(q)] >= 1
        if 0 < yq.sum() < yq.size:
            P, N = yq.sum(), (~yq).sum()
            _, _, _, val = most_violated_ap(s[yq], s[~yq])
            psi_q = (N * s[yq].sum() - P * s[~yq].sum()) / (P * N)     # wᵀψ(y_q)
            total += val - psi_q
            Q += 1
    return total / Q


@pytest.mark.parametrize("C", [0.1, 10.0])
def test_cutting_plane_stops_within_eps_of_the_true_slack(C):
    d = make_queries(8, (5, 12), 5, seed=1)
    m = SVMMAP(C=C, eps=1e-4).fit_data(d)
    assert m.result_.status == "converged"
    assert true_slack(m, d) <= m.result_.xi + 1e-4 + 1e-12
    # the objective improves on w = 0 (slack 1 there: Δ(ȳ) ≤ 1, ψ = 0)
    assert 0.5 * m.coef_ @ m.coef_ + C * true_slack(m, d) < C


def test_bad_input():
    X = np.random.default_rng(0).random((6, 2))
    with pytest.raises(DataError, match="no query has both"):
        SVMMAP().fit(X, np.zeros(6), np.zeros(6))
    with pytest.raises(DataError, match="C"):
        SVMMAP(C=0).fit(X, np.r_[np.ones(3), np.zeros(3)], np.zeros(6))
