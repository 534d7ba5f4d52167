"""The working-set QP kernel of the n-slack structural SVM (``kernels/structsvm.pyx``) against
NumPy references (``reference_structsvm``: the dual by a general-purpose solver; here the
duality gap, w = Σ α ψ and a block's optimum written out), on random and edge-case inputs."""
import numpy as np
import pytest

import reference_structsvm as ref
from repro._kernels import structsvm as kern
from repro.errors import check_status


def working_sets(rng, m, d, cap, sizes=None, scale=1.0):
    """Kernel arrays for m blocks (block i: ``sizes[i]`` constraints), plus the blocks as lists."""
    sizes = rng.integers(1, cap + 1, m) if sizes is None else np.asarray(sizes)
    Psi = np.zeros((m, cap, d))
    delta = np.zeros((m, cap))
    for i, k in enumerate(sizes):
        Psi[i, :k] = scale * rng.normal(size=(k, d))
        delta[i, :k] = rng.random(k)
    G = np.einsum("ipf,iqf->ipq", Psi, Psi)
    return Psi, G, delta, np.zeros((m, cap)), sizes.astype(np.int64)


def solve(Psi, G, delta, alpha, counts, C, tol_gap=1e-12, max_sweeps=100000, only=-1,
          w=None, tol_block=1e-13):
    w = np.zeros(Psi.shape[2]) if w is None else w
    out = np.zeros(3)
    check_status(kern.solve_qp(Psi, G, delta, alpha, counts, float(C), w, float(tol_gap),
                               float(tol_block), int(max_sweeps), int(only), out),
                 "structsvm.solve_qp")
    return w, out


def blocks(Psi, delta, alpha, counts):
    return ([Psi[i, :k] for i, k in enumerate(counts)],
            [delta[i, :k] for i, k in enumerate(counts)],
            [alpha[i, :k] for i, k in enumerate(counts)])


def literal_gap(Pb, Db, Ab, C, w):
    """Σ_i [C ξ_i − Σ_p α_ip grad_ip], grad_ip = Δ_ip − w·ψ_ip, ξ_i = max(0, max_p grad_ip)."""
    total = 0.0
    for P, D, A in zip(Pb, Db, Ab):
        if len(D):
            g = D - P @ w
            total += C * max(0.0, float(g.max())) - float(A @ g)
    return total


@pytest.mark.parametrize("seed", range(6))
def test_full_solve_equals_the_general_solver(seed):
    rng = np.random.default_rng(seed)
    m, d, cap = int(rng.integers(1, 6)), int(rng.integers(1, 5)), 6
    Psi, G, delta, alpha, counts = working_sets(rng, m, d, cap)
    C = float(10 ** rng.uniform(-1.5, 1.5))
    w, out = solve(Psi, G, delta, alpha, counts, C)
    Pb, Db, Ab = blocks(Psi, delta, alpha, counts)
    assert all(np.all(a >= 0) and a.sum() <= C * (1 + 1e-12) for a in Ab)
    assert np.all(alpha[np.arange(cap)[None, :] >= counts[:, None]] == 0)   # padding untouched
    value, w_ref = ref.dual_value(Ab, Pb, Db)
    np.testing.assert_allclose(w, w_ref, rtol=0, atol=1e-12)
    assert value == pytest.approx(ref.solve_dual(Pb, Db, C), abs=1e-7)
    assert out[0] <= 1e-12 and out[0] == pytest.approx(literal_gap(Pb, Db, Ab, C, w), abs=1e-12)
    assert out[1] >= 1 and out[2] >= 1


def test_zero_sweeps_recompute_w_from_alpha_and_report_the_gap():
    """max_sweeps = 0: no step; w = Σ α ψ from the given (feasible) α, and its gap."""
    rng = np.random.default_rng(11)
    Psi, G, delta, alpha, counts = working_sets(rng, 4, 3, 5)
    C = 2.0
    for i, k in enumerate(counts):
        a = rng.random(k)
        alpha[i, :k] = C * a / (a.sum() + rng.random())          # Σ α_i < C
    before = alpha.copy()
    w, out = solve(Psi, G, delta, alpha, counts, C, tol_gap=0.0, max_sweeps=0,
                   w=np.full(3, 7.0))                            # w is recomputed, not read
    Pb, Db, Ab = blocks(Psi, delta, alpha, counts)
    assert np.array_equal(alpha, before)
    np.testing.assert_allclose(w, ref.dual_value(Ab, Pb, Db)[1], rtol=0, atol=1e-12)
    assert out[0] == pytest.approx(literal_gap(Pb, Db, Ab, C, w), abs=1e-12)
    assert out[1] == 0 and out[2] == 0


@pytest.mark.parametrize("C", [0.05, 1.0, 50.0])
def test_one_constraint_alone_is_the_clipped_newton_step(C):
    """One block, one constraint: max αΔ − ½α²‖ψ‖² over 0 ≤ α ≤ C, α = clip(Δ/‖ψ‖², 0, C)."""
    psi, dlt = np.array([0.6, -0.8, 1.5]), 0.9
    Psi = np.zeros((1, 2, 3))
    Psi[0, 0] = psi
    G = np.einsum("ipf,iqf->ipq", Psi, Psi)
    delta = np.array([[dlt, 0.0]])
    alpha = np.zeros((1, 2))
    w, out = solve(Psi, G, delta, alpha, np.array([1]), C)
    a = min(C, max(0.0, dlt / float(psi @ psi)))
    assert alpha[0, 0] == pytest.approx(a, rel=1e-15)
    np.testing.assert_allclose(w, a * psi, rtol=1e-15, atol=0)
    gap = C * max(0.0, dlt - float(w @ psi)) - a * (dlt - float(w @ psi))
    assert out[0] == pytest.approx(gap, abs=1e-15)


def test_negative_margin_constraints_keep_alpha_zero():
    """Δ ≤ w·ψ for every constraint at w = 0 (Δ ≤ 0): α = 0 is optimal, no step is taken."""
    rng = np.random.default_rng(3)
    Psi, G, delta, alpha, counts = working_sets(rng, 3, 2, 4)
    delta = -delta
    w, out = solve(Psi, G, delta, alpha, counts, 1.0)
    assert np.all(alpha == 0) and np.all(w == 0) and out[0] == 0 and out[2] == 0


def test_empty_blocks_and_zero_psi():
    """Blocks without constraints contribute nothing; a ψ = 0 constraint with Δ > 0 takes the
    block's whole mass C (the objective grows with it, w does not move)."""
    Psi = np.zeros((3, 2, 2))
    delta = np.zeros((3, 2))
    delta[1, 0] = 0.5                                            # block 1: ψ = 0, Δ = 0.5
    G = np.einsum("ipf,iqf->ipq", Psi, Psi)
    alpha = np.zeros((3, 2))
    C = 0.7
    w, out = solve(Psi, G, delta, alpha, np.array([0, 1, 0]), C)
    assert alpha[1, 0] == C and np.count_nonzero(alpha) == 1
    assert np.all(w == 0) and out[0] == 0.0
    w, out = solve(Psi, G, delta, np.zeros((3, 2)), np.array([0, 0, 0]), C)
    assert np.all(w == 0) and out[0] == 0.0 and out[1] == 0


def test_one_block_mode_solves_that_block_with_the_others_fixed():
    """only_block = i: SMO on block i from the given w (the other blocks' contribution): the
    block's optimum of max Σ_p α_p Δ_p − ½‖w_rest + Σ_p α_p ψ_p‖², Σ α_p ≤ C, written out
    with the reference solver on the shifted problem."""
    rng = np.random.default_rng(5)
    m, d, cap = 3, 4, 5
    Psi, G, delta, alpha, counts = working_sets(rng, m, d, cap, sizes=[3, 5, 2])
    C = 1.5
    w_rest = 0.3 * rng.normal(size=d)                            # as if other blocks held it
    w = w_rest.copy()
    others = alpha.copy()
    w, out = solve(Psi, G, delta, alpha, counts, C, only=1, w=w, tol_block=1e-13)
    assert np.array_equal(np.delete(alpha, 1, 0), np.delete(others, 1, 0))
    k = counts[1]
    a = alpha[1, :k]
    np.testing.assert_allclose(w, w_rest + a @ Psi[1, :k], rtol=0, atol=1e-12)
    # block optimum: Δ'_p = Δ_p − w_rest·ψ_p, and ½‖w_rest‖² is a constant
    shifted = ref.solve_dual([Psi[1, :k]], [delta[1, :k] - Psi[1, :k] @ w_rest], C)
    v = a @ Psi[1, :k]
    got = float(a @ (delta[1, :k] - Psi[1, :k] @ w_rest)) - 0.5 * float(v @ v)
    assert got == pytest.approx(shifted, abs=1e-8)
    g = delta[1, :k] - Psi[1, :k] @ w
    assert out[0] == pytest.approx(C * max(0.0, g.max()) - float(a @ g), abs=1e-12)


def test_sweep_budget_is_respected_and_reported():
    rng = np.random.default_rng(8)
    Psi, G, delta, alpha, counts = working_sets(rng, 5, 6, 6, scale=3.0)
    _, out = solve(Psi, G, delta, alpha, counts, 10.0, tol_gap=0.0, max_sweeps=2)
    assert out[1] == 2
    Pb, Db, Ab = blocks(Psi, delta, alpha, counts)
    w = ref.dual_value(Ab, Pb, Db)[1]
    assert out[0] == pytest.approx(literal_gap(Pb, Db, Ab, 10.0, w), abs=1e-10)


def test_inconsistent_shapes_are_refused_before_anything_is_written():
    rng = np.random.default_rng(0)
    Psi, G, delta, alpha, counts = working_sets(rng, 2, 3, 4)
    w, out = np.zeros(3), np.zeros(3)
    cases = [
        (Psi, G[:, :3], delta, alpha, counts, w, out, -1),       # Gram blocks of another cap
        (Psi, G, delta, alpha, counts, np.zeros(2), out, -1),     # w of another d
        (Psi, G, delta, alpha, np.array([1, 5]), w, out, -1),     # more constraints than cap
        (Psi, G, delta, alpha, counts, w, out, 2),                # only_block out of range
        (Psi, G, delta, alpha, counts, w, np.zeros(2), -1),       # out too short
    ]
    for P_, G_, D_, A_, c_, w_, o_, only in cases:
        keep = A_.copy()
        status = kern.solve_qp(P_, np.ascontiguousarray(G_), D_, A_, c_, 1.0, w_, 1e-9, 1e-9,
                               10, only, o_)
        assert status == -1 and np.array_equal(A_, keep)
        with pytest.raises(ValueError, match="structsvm.solve_qp: inconsistent array shapes"):
            check_status(status, "structsvm.solve_qp")


def numpy_max_step(xs, dxs):
    """The interior point's step bound as NumPy wrote it (before the kernel)."""
    t = 1.0
    for x, dx in zip(xs, dxs):
        neg = dx < 0
        if neg.any():
            t = min(t, float(np.min(-x[neg] / dx[neg])))
    return t


@pytest.mark.parametrize("seed", range(4))
def test_max_step_equals_the_numpy_expression_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    for trial in range(200):
        sizes = rng.integers(0, 40, 4)
        xs = [rng.random(n) * 10 ** rng.uniform(-6, 2) for n in sizes]
        dxs = [rng.normal(size=n) * 10 ** rng.uniform(-3, 3) for n in sizes]
        if trial % 7 == 0:                     # a pair with no negative direction
            dxs[trial % 4] = np.abs(dxs[trial % 4])
        if trial % 11 == 0 and sizes[1]:       # a NaN ratio: that pair is ignored
            xs[1][0], dxs[1][0] = np.nan, -1.0
        got = kern.max_step(*[a for pair in zip(xs, dxs) for a in pair])
        want = numpy_max_step(xs, dxs)
        assert got == want and np.signbit(got) == np.signbit(want)


def test_max_step_refuses_pairs_of_unequal_length():
    a, b = np.ones(3), -np.ones(2)
    assert kern.max_step(a, b, a, a, a, a, a, a) == -1.0
