"""The n-slack pass kernel (``repro._kernels.nslack``): the slacks and one pass of Algorithm 2
against plain-loop references (tests/reference_structsvm.py), and the whole solver against
the pass written in Python."""
import numpy as np
import pytest

import reference_structsvm as ref
from repro._kernels import nslack
from repro.data.synthetic import make_queries
from repro.rankers.dorm import DORM
from repro.rankers.structsvm import WorkingSets, canonical_order, n_slack, solve_block
from repro.rankers.svmperf import PrecisionAtKSVM, ROCAreaSVM


def working_sets(seed, m=6, d=4):
    rng = np.random.default_rng(seed)
    ws = WorkingSets(m, d, cap=2)
    for i in range(m):
        for _ in range(int(rng.integers(0, 5))):           # grows past cap, empty blocks too
            ws.add(i, rng.normal(size=d), float(rng.random()))
    return ws, rng.normal(size=d)


def test_slacks_equal_the_reference():
    ws, w = working_sets(0)
    out = np.empty(ws.m)
    assert nslack.slacks(ws.Psi, ws.delta, ws.counts, w, out) == 0
    want = [ref.slack(ws.Psi[i, :ws.counts[i]], ws.delta[i, :ws.counts[i]], w)
            for i in range(ws.m)]
    np.testing.assert_allclose(out, want, rtol=1e-13, atol=1e-15)
    assert nslack.slacks(ws.Psi, ws.delta, ws.counts, w, np.empty(ws.m + 1)) == -1


def _problem(model, seed):
    s = make_queries(12, (4, 9), 5, n_levels=3, seed=seed)
    X, y, qp, _, oracle = model._prepare(s.X, s.y, s.query_ptr)
    return X, qp, oracle


@pytest.mark.parametrize("model", [DORM(C=1.0), ROCAreaSVM(C=1.0), PrecisionAtKSVM(C=1.0, k=3)])
def test_pass_equals_the_reference_loop(model):
    X, qp, oracle = _problem(model, 4)
    active = np.flatnonzero(oracle.active).astype(np.int64)
    C, tol = 1.0, 1e-3
    runs = []
    for kernel in (True, False):
        ws, w = WorkingSets(qp.shape[0] - 1, X.shape[1]), np.zeros(X.shape[1])
        total = []
        for _ in range(3):                                   # three passes from w = 0
            if kernel:
                out = np.zeros(5)
                assert nslack.run_pass(oracle, X, qp, active, ws, w, 0.01,
                                       lambda ws_, i, w_: solve_block(ws_, i, C, w_, tol),
                                       out) == 0
                total.append((int(out[0]), out[1]))
                assert int(out[4]) == active.size
            else:
                total.append(ref.n_slack_pass(oracle, X, qp, active, ws, w, 0.01,
                                              lambda ws_, i, w_: solve_block(ws_, i, C, w_, tol)))
        runs.append((total, ws, w))
    (ka, kws, kw), (ra, rws, rw) = runs
    assert [a for a, _ in ka] == [a for a, _ in ra] and ka[0][0] > 0
    np.testing.assert_allclose([v for _, v in ka], [v for _, v in ra], rtol=1e-12, atol=1e-14)
    assert np.array_equal(kws.counts, rws.counts)
    np.testing.assert_allclose(kw, rw, rtol=1e-12, atol=1e-14)


def test_bad_arrays_are_refused():
    model = DORM(C=1.0)
    X, qp, oracle = _problem(model, 5)
    ws = WorkingSets(qp.shape[0] - 1, X.shape[1])
    bad_w = np.zeros(X.shape[1] + 1)
    out = np.zeros(5)
    active = np.flatnonzero(oracle.active).astype(np.int64)
    assert nslack.run_pass(oracle, X, qp, active, ws, bad_w, 0.01, None, out) == -1
    assert nslack.run_pass(oracle, X, qp, active, ws, np.zeros(X.shape[1]), 0.01, None,
                           np.zeros(4)) == -1


def test_canonical_order_remembered_by_value_never_by_object():
    """The memo of the canonical order answers by the values of X, y and the offsets: a
    changed array in place gets its own order, and the caller may change what it got."""
    from repro.rankers.structsvm import _canonical_order
    rng = np.random.default_rng(8)
    X = rng.integers(0, 3, (30, 2)).astype(float)
    y = rng.integers(0, 3, 30).astype(float)
    qp = np.array([0, 7, 20, 30])
    first = canonical_order(X, y, qp)
    first[0][:] = 0                                    # the caller's own copy
    for _ in range(2):
        got, want = canonical_order(X, y, qp), _canonical_order(X, y, qp)
        assert all(np.array_equal(a, b) for a, b in zip(got, want))
        X[::-1] = X.copy()                             # changed in place: a new order


def test_canonical_order_memo_stays_within_its_budget(monkeypatch):
    import repro.rankers.structsvm as S
    monkeypatch.setattr(S, "_CANONICAL_MEMO", [])
    monkeypatch.setattr(S, "_CANONICAL_KEEP", 2)
    monkeypatch.setattr(S, "_CANONICAL_BYTES", 2000)
    rng = np.random.default_rng(9)
    qp = np.array([0, 4, 10])
    for n_feat in (1, 2, 3, 40):              # 40 features: 3.3 kB of inputs, not remembered
        X = rng.random((10, n_feat))
        canonical_order(X, rng.random(10), qp)
        assert len(S._CANONICAL_MEMO) <= 2
        assert sum(a.nbytes for e in S._CANONICAL_MEMO for a in e[0]) <= 2000
    assert [e[0][0].shape[1] for e in S._CANONICAL_MEMO] == [3, 2]
