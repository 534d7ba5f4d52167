"""The three counting kernels (supplement Sec. II.1, Algorithm (I), order-statistic tree) against
the O(l²) pair loop, on random data with ties in scores and labels, one-document queries and
queries with a single relevance level."""
import numpy as np
import pytest

from reference_pair_counting import sv_counts as ref_counts
from repro._kernels import pair_counting as kern
from repro.errors import DataError
from repro.rankers.pair_counting import (METHODS, Counts, PairCounter, count_pairs,
                                         direct_count_trace, relevance_levels, sv_counts)


def random_case(rng, n_queries=12, max_docs=25, n_levels=4, tie_scores=True):
    sizes = rng.integers(1, max_docs + 1, n_queries)
    sizes[0] = 1                                   # a one-document query
    qp = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    n = int(qp[-1])
    y = rng.integers(0, n_levels, n).astype(float)
    if n_queries > 2:
        y[qp[1]:qp[2]] = 2.0                       # a query with a single relevance level
    if tie_scores:                                 # half-integers: many ties and |z_i - z_j| = 1
        z = rng.integers(-4, 5, n) / 2.0
    else:
        z = rng.normal(size=n)
    v = rng.normal(size=n)
    return z, y, qp, v


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", range(12))
def test_counts_equal_pair_loop(method, seed):
    rng = np.random.default_rng(seed)
    z, y, qp, v = random_case(rng, n_levels=int(rng.integers(1, 7)), tie_scores=seed % 3 != 0)
    lp, lm, sp, sm = ref_counts(z, y, qp, v)
    c = sv_counts(z, y, qp, v, method=method)
    np.testing.assert_array_equal(c.l_plus, lp)
    np.testing.assert_array_equal(c.l_minus, lm)
    np.testing.assert_allclose(c.s_plus, sp, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(c.s_minus, sm, rtol=1e-12, atol=1e-12)
    assert c.n_violations == lm.sum() == lp.sum()
    # default v = z gives γ^±
    _, _, gp, gm = ref_counts(z, y, qp)
    g = sv_counts(z, y, qp, method=method)
    np.testing.assert_allclose(g.s_plus, gp, atol=1e-12)
    np.testing.assert_allclose(g.s_minus, gm, atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_large_query_many_levels(method):
    """One 300-document query with up to 60 levels (labels as in the -list sets)."""
    rng = np.random.default_rng(7)
    z = np.round(rng.normal(size=300) * 3, 1)
    y = rng.integers(0, 60, 300).astype(float)
    qp = np.array([0, 300])
    v = rng.normal(size=300)
    lp, lm, sp, sm = ref_counts(z, y, qp, v)
    c = sv_counts(z, y, qp, v, method=method)
    np.testing.assert_array_equal(c.l_plus, lp)
    np.testing.assert_array_equal(c.l_minus, lm)
    np.testing.assert_allclose(c.s_plus, sp, atol=1e-10)
    np.testing.assert_allclose(c.s_minus, sm, atol=1e-10)


@pytest.mark.parametrize("method", METHODS)
def test_no_pairs(method):
    """One-document queries only, or a single level: every count and sum is 0."""
    z = np.array([0.3, -1.0, 2.0, 2.0])
    for y, qp in ((np.array([1.0, 0.0, 2.0, 1.0]), np.array([0, 1, 2, 3, 4])),
                  (np.full(4, 3.0), np.array([0, 4]))):
        c = sv_counts(z, y, qp, method=method)
        assert c.n_violations == 0
        assert not c.l_plus.any() and not c.l_minus.any()
        assert not c.s_plus.any() and not c.s_minus.any()


def test_methods_agree_and_hv_reuses_sort():
    rng = np.random.default_rng(3)
    z, y, qp, v = random_case(rng, n_queries=30, max_docs=60, n_levels=5)
    out = {}
    for m in METHODS:
        pc = PairCounter(y, qp, m)
        pc.sort(z)
        first = pc.count()
        again = pc.count(v, want_counts=False)     # α^± at the same sort
        out[m] = (first.l_plus, first.l_minus, again.s_plus, again.s_minus)
        assert again.l_plus is None and again.n_violations is None
    for m in METHODS[1:]:
        for a, b in zip(out[m], out[METHODS[0]]):
            np.testing.assert_allclose(a, b, atol=1e-12)


def test_sort_within_queries():
    rng = np.random.default_rng(0)
    z, y, qp, _ = random_case(rng, n_queries=40, max_docs=120)
    order = np.arange(z.size, dtype=np.int64)
    rng.shuffle(order[qp[3]:qp[4]])                  # any starting permutation per query
    buf = np.empty_like(order)
    kern.sort_within_queries(z, qp, order, buf)
    for q in range(len(qp) - 1):
        seg = order[qp[q]:qp[q + 1]]
        assert sorted(seg) == list(range(qp[q], qp[q + 1]))
        assert np.all(np.diff(z[seg]) >= 0)
    order = np.arange(z.size, dtype=np.int64)          # stable from the identity
    assert kern.sort_within_queries(z, qp, order, buf) == 0
    qdoc = np.repeat(np.arange(len(qp) - 1), np.diff(qp))
    np.testing.assert_array_equal(order, np.lexsort((z, qdoc)))


def test_relevance_levels_and_pair_count():
    y = np.array([0, 2, 2, 5, 1, 1, 3, 0.5, 7], float)
    qp = np.array([0, 4, 6, 7, 9])
    level, k = relevance_levels(y, qp)
    np.testing.assert_array_equal(level, [0, 1, 1, 2, 0, 0, 0, 0, 1])
    np.testing.assert_array_equal(k, [3, 1, 1, 2])
    assert count_pairs(y, qp) == 5 + 0 + 0 + 1


def test_worked_example_section_II1():
    """Sec. II.1: sorted scores −0.9 … 1.6, K = {1, 2, 3}; labels reconstructed (y_6 unknown:
    every choice gives the printed numbers)."""
    z = [-0.9, -0.7, -0.1, 0.15, 0.2, 1.6]
    for y6 in (1, 2, 3):
        cp, lp = direct_count_trace(z, [2, 1, 2, 3, 3, y6])
        assert tuple(cp[0]) == (1, 2, 0) and lp[0] == 0
        assert tuple(cp[1]) == (1, 2, 2) and lp[1] == 4


def test_bad_input():
    with pytest.raises(DataError, match="document 1 .query 0. is not finite"):
        sv_counts([0.0, np.nan], [1.0, 0.0], [0, 2])
    with pytest.raises(DataError, match="document 2 .query 1."):
        sv_counts([0.0, 1.0, np.inf], [1.0, 0.0, 1.0], [0, 2, 3])
    with pytest.raises(DataError):
        sv_counts([0.0, 1.0], [1.0, np.nan], [0, 2])
    with pytest.raises(DataError):
        sv_counts([0.0, 1.0], [1.0, 0.0], [0, 1])
    with pytest.raises(ValueError):
        PairCounter([1.0, 0.0], [0, 2], method="bubble")


def test_algorithm_I_loop_range_misprint():
    """Algorithm (I) as printed (r = 2..k) leaves level-1 documents' l^+ at 0 and misses their
    contributions to l^-; r = 1..k−1 (what the kernel runs) gives the pair loop's counts."""
    from reference_pair_counting import joachims_algorithm_I
    rng = np.random.default_rng(5)
    wrong = 0
    for _ in range(30):
        n = int(rng.integers(2, 30))
        z = rng.integers(-4, 5, n) / 2.0
        y = rng.integers(0, 4, n).astype(float)
        lp, lm, _, _ = ref_counts(z, y, np.array([0, n]))
        cp, cm = joachims_algorithm_I(z, y, "corrected")
        np.testing.assert_array_equal(cp, lp)
        np.testing.assert_array_equal(cm, lm)
        pp, pm = joachims_algorithm_I(z, y, "printed")
        wrong += not (np.array_equal(pp, lp) and np.array_equal(pm, lm))
    assert wrong > 20


def test_kernels_reject_mis_sized_arrays():
    """O(1) shape checks at each kernel's entry: a mis-sized array gives -1 (nothing written
    out of bounds), which the wrapper turns into ValueError."""
    rng = np.random.default_rng(11)
    z, y, qp, v = random_case(rng, n_queries=6, max_docs=10, n_levels=4)
    n = z.size
    pc = PairCounter(y, qp, "tree")
    pc.sort(z)
    for method in METHODS:
        pc.method = method
        short = Counts(np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n - 1),
                       np.empty(n), None)
        with pytest.raises(ValueError, match="inconsistent array shapes"):
            pc.count(out=short)
        short = Counts(np.empty(n, np.int64), np.empty(n - 1, np.int64), np.empty(n),
                       np.empty(n), None)
        with pytest.raises(ValueError, match="inconsistent array shapes"):
            pc.count(out=short)
        ok = pc.count(out=Counts(np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n),
                                 np.empty(n), None))
        np.testing.assert_array_equal(ok.l_minus, ref_counts(z, y, qp)[1])
    lev, k = pc.level, pc.n_levels
    o = pc.order
    i64 = lambda m: np.zeros(m, np.int64)           # noqa: E731
    f64 = np.zeros
    good = dict(lp=i64(n), lm=i64(n), sp=f64(n), sm=f64(n))
    for name in ("lp", "lm", "sp", "sm", "v", "level", "order", "n_levels", "qp"):
        a = dict(good, v=v, level=lev, order=o, n_levels=k, qp=qp)
        a[name] = a[name][:-1]
        args = (z, a["v"], a["level"], a["n_levels"], a["qp"], a["order"], True,
                a["lp"], a["lm"], a["sp"], a["sm"])
        for method in (kern.DIRECT, kern.JOACHIMS, kern.TREE):
            assert kern.count_all(method, *args, i64(4), f64(4)) == -1, (name, method)
    args = (z, v, lev, k, qp, o, True, good["lp"], good["lm"], good["sp"], good["sm"])
    kmax = int(k.max())
    assert kmax >= 2
    for w_cnt, w_sum in ((i64(kmax - 1), f64(kmax)), (i64(kmax), f64(kmax - 1))):
        assert kern.count_all(kern.DIRECT, *args, w_cnt, w_sum) == -1          # workspace < k_q
        assert kern.count_all(kern.TREE, *args, w_cnt, w_sum) == -1
    for method in (kern.DIRECT, kern.TREE):
        assert kern.count_all(method, *args, i64(0), f64(0)) == -1            # no workspace
    assert kern.count_all(3, *args, i64(kmax), f64(kmax)) == -1               # no such method
    n_pairs = ref_counts(z, y, qp)[1].sum()
    assert kern.count_all(kern.JOACHIMS, *args, i64(0), f64(0)) == n_pairs   # needs none
    assert kern.count_all(kern.TREE, *args, i64(kmax), f64(kmax)) == n_pairs
    order = np.arange(n, dtype=np.int64)
    assert kern.sort_within_queries(z, qp, order, np.empty(n - 1, np.int64)) == -1
    assert kern.sort_within_queries(z, qp, order[:-1].copy(), np.empty(n, np.int64)) == -1
    assert kern.sort_within_queries(z[:-1].copy(), qp, order, np.empty(n, np.int64)) == -1
    np.testing.assert_array_equal(order, np.arange(n))             # untouched
    zz = np.sort(z[:5])
    lvl = np.zeros(5, np.int32)
    assert kern.direct_count_trace(zz, lvl, 2, np.zeros((5, 3), np.int64), i64(5)) == -1
    assert kern.direct_count_trace(zz, lvl, 2, np.zeros((4, 2), np.int64), i64(5)) == -1
    assert kern.direct_count_trace(zz, lvl, 2, np.zeros((5, 2), np.int64), i64(4)) == -1


def test_set_sorted_reuses_a_saved_sort():
    """set_sorted(z, order): count() at a saved (z, order) after another sort equals count()
    right after sort(z); inconsistent orders are refused."""
    rng = np.random.default_rng(12)
    z, y, qp, v = random_case(rng, n_queries=10, max_docs=20, n_levels=4)
    for method in METHODS:
        pc = PairCounter(y, qp, method)
        order = pc.sort(z).copy()
        first = pc.count(v)
        pc.sort(rng.normal(size=z.size))                  # another point in between
        pc.set_sorted(z, order)
        again = pc.count(v)
        for a, b in ((first.l_plus, again.l_plus), (first.s_plus, again.s_plus),
                     (first.s_minus, again.s_minus)):
            np.testing.assert_array_equal(a, b)
    z = np.array([0.5, -1.0, 2.0, 0.3, 0.1])
    pc = PairCounter([0.0, 1.0, 2.0, 1.0, 0.0], [0, 3, 5])
    order = pc.sort(z).copy()
    np.testing.assert_array_equal(order, [1, 0, 2, 4, 3])
    for bad, why in (([1, 0, 4, 2, 3], "permutation"),      # a document of another query
                     ([1, 0, 0, 4, 3], "permutation"),      # a repeated document
                     ([1, 0, 2, 4, 5], "permutation"),      # out of range
                     ([0, 1, 2, 4, 3], "does not sort")):   # not ascending in z
        with pytest.raises(DataError, match=why):
            pc.set_sorted(z, np.array(bad))
    with pytest.raises(DataError):
        pc.set_sorted(z[:-1], order[:-1])
    with pytest.raises(DataError, match="document 3"):
        pc.set_sorted(np.where(np.arange(z.size) == 3, np.nan, z), order)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", range(4))
def test_query_ranges_equal_the_whole_set_bit_for_bit(method, seed):
    """count_range / sort_query_range / hv_range on any partition into ranges of whole queries
    (outputs indexed from the range's first document) give exactly the whole-set values, and
    hv_range's u is NumPy's (l⁺ + l⁻)·xd − α⁺ − α⁻ bit for bit."""
    rng = np.random.default_rng(100 + seed)
    z, y, qp, v = random_case(rng, n_queries=15, n_levels=int(rng.integers(2, 6)),
                              tie_scores=seed % 2 == 0)
    n, Q = z.size, qp.size - 1
    mid = {"direct": kern.DIRECT, "joachims": kern.JOACHIMS, "tree": kern.TREE}[method]
    pc = PairCounter(y, qp, method)
    whole_order = pc.sort(z).copy()
    whole = pc.count(v)
    cuts = np.unique(np.r_[0, np.sort(rng.choice(np.arange(1, Q), 4, replace=False)), Q])
    order = np.arange(n, dtype=np.int64)
    buf = np.empty(n, np.int64)
    lp, lm, sp, sm = (np.full(n, -7, np.int64), np.full(n, -7, np.int64), np.full(n, np.nan),
                      np.full(n, np.nan))
    total = 0
    wc, ws = np.zeros(8, np.int64), np.zeros(8)
    for q0, q1 in zip(cuts[:-1][::-1], cuts[1:][::-1]):            # any order of ranges
        a, b = qp[q0], qp[q1]
        assert kern.sort_query_range(z, qp, order, buf, q0, q1) == 0
        t = kern.count_range(mid, z, v[a:b].copy(), pc.level, pc.n_levels, qp, order, q0, q1,
                             True, lp[a:b], lm[a:b], sp[a:b], sm[a:b], wc, ws)
        assert t == whole.l_minus[a:b].sum()
        total += t
    np.testing.assert_array_equal(order, whole_order)
    for got, want in ((lp, whole.l_plus), (lm, whole.l_minus), (sp, whole.s_plus),
                      (sm, whole.s_minus)):
        np.testing.assert_array_equal(got, want)
    assert total == whole.n_violations
    lsum = (whole.l_plus + whole.l_minus).astype(np.float64)
    u_ref = (whole.l_plus + whole.l_minus) * v - whole.s_plus - whole.s_minus
    u = np.full(n, np.nan)
    for q0, q1 in zip(cuts[:-1], cuts[1:]):
        a, b = qp[q0], qp[q1]
        assert kern.hv_range(mid, z, v[a:b].copy(), pc.level, pc.n_levels, qp, order, lsum,
                             q0, q1, np.empty(b - a), np.empty(b - a), u[a:b], wc, ws) == 0
    np.testing.assert_array_equal(u, u_ref)


def test_range_kernels_reject_bad_ranges_and_shapes():
    rng = np.random.default_rng(12)
    z, y, qp, v = random_case(rng, n_queries=6, max_docs=10, n_levels=4)
    n, Q = z.size, qp.size - 1
    pc = PairCounter(y, qp, "tree")
    o = pc.sort(z)
    f, i = np.zeros, (lambda m: np.zeros(m, np.int64))              # noqa: E731
    lsum = f(n)
    nb = int(qp[3] - qp[1])
    for q0, q1 in ((-1, 2), (2, 1), (0, Q + 1)):
        assert kern.count_range(kern.TREE, z, v, pc.level, pc.n_levels, qp, o, q0, q1, True,
                                i(n), i(n), f(n), f(n), i(4), f(4)) == -1
        assert kern.sort_query_range(z, qp, o.copy(), i(n), q0, q1) == -1
        assert kern.hv_range(kern.TREE, z, v, pc.level, pc.n_levels, qp, o, lsum, q0, q1,
                             f(n), f(n), f(n), i(4), f(4)) == -1
    short = (nb - 1, nb, nb, nb, nb)
    for k in range(5):                       # v, l_plus, l_minus, s_plus, s_minus too short
        m = [nb] * 5
        m[k] = short[0]
        assert kern.count_range(kern.TREE, z, v[:m[0]].copy(), pc.level, pc.n_levels, qp, o,
                                1, 3, True, i(m[1]), i(m[2]), f(m[3]), f(m[4]), i(4),
                                f(4)) == -1
    assert kern.count_range(3, z, v, pc.level, pc.n_levels, qp, o, 0, Q, True, i(n), i(n),
                            f(n), f(n), i(4), f(4)) == -1              # no such method
    assert kern.count_range(kern.TREE, z, v, pc.level, pc.n_levels, qp, o, 0, Q, True, i(n),
                            i(n), f(n), f(n), i(1), f(1)) == -1        # workspace < k_q
    for k in range(4):                       # xd, s_plus, s_minus, u too short
        m = [nb] * 4
        m[k] = nb - 1
        assert kern.hv_range(kern.TREE, z, v[:m[0]].copy(), pc.level, pc.n_levels, qp, o,
                             lsum, 1, 3, f(m[1]), f(m[2]), f(m[3]), i(4), f(4)) == -1
    assert kern.hv_range(kern.TREE, z, v, pc.level, pc.n_levels, qp, o, lsum[:-1].copy(), 0,
                         Q, f(n), f(n), f(n), i(4), f(4)) == -1
    # without counts the count arrays are not needed
    assert kern.count_range(kern.TREE, z, v, pc.level, pc.n_levels, qp, o, 0, Q, False, i(0),
                            i(0), f(n), f(n), i(4), f(4)) == 0
    # sum_rows: rows added in order from 0.0, as acc += p does
    P = rng.normal(size=(7, 5)) * 10.0 ** rng.integers(-8, 8, size=(7, 5))
    acc = np.zeros(5)
    for p in P:
        acc += p
    out = np.empty(5)
    assert kern.sum_rows(P, out) == 0
    np.testing.assert_array_equal(out, acc)
    assert kern.sum_rows(P, np.empty(4)) == -1


@pytest.mark.parametrize("n_levels", [1, 2, 3, 4, 7, 16, 17, 40])
def test_prepared_hessian_sweeps_equal_the_tree_bit_for_bit(n_levels):
    """hv_prepare + hv_range_prepared (k = 2, 3 in registers, 4..16 from tables, more by the
    tree walks) give exactly the α^± and u of hv_range (the tree kernel), at several points,
    with ties and one-level queries."""
    rng = np.random.default_rng(300 + n_levels)
    sizes = rng.integers(1, 60, 25)
    qp = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    n, Q = int(qp[-1]), qp.size - 1
    y = rng.integers(0, n_levels, n).astype(float)
    y[qp[2]:qp[3]] = 0.0                                            # a one-level query
    pc = PairCounter(y, qp, "tree")
    wc, ws = np.zeros(64, np.int64), np.zeros(64)
    for tie in (True, False):
        z = rng.integers(-6, 7, n) / 2.0 if tie else rng.normal(size=n) * 2
        order = pc.sort(z).copy()
        c = pc.count()
        lsum = (c.l_plus + c.l_minus).astype(np.float64)
        lev, up, down = np.empty(n, np.int32), np.empty(n, np.int64), np.empty(n, np.int64)
        assert kern.hv_prepare(z, pc.level, pc.n_levels, qp, order, 0, Q, lev, up, down) == 0
        for _ in range(3):
            xd = rng.normal(size=n) * 10.0 ** rng.integers(-3, 4)
            want = [np.empty(n) for _ in range(3)]
            assert kern.hv_range(kern.TREE, z, xd, pc.level, pc.n_levels, qp, order, lsum, 0,
                                 Q, *want, wc, ws) == 0
            for q0, q1 in ((0, Q), (3, 11)):
                a, b = qp[q0], qp[q1]
                got = [np.full(b - a, np.nan) for _ in range(3)]
                assert kern.hv_range_prepared(xd[a:b].copy(), pc.n_levels, qp, order, lev, up,
                                              down, lsum, q0, q1, *got, ws) == 0
                for g, w in zip(got, want):
                    np.testing.assert_array_equal(g, w[a:b])
    bad = np.empty(n - 1)
    assert kern.hv_range_prepared(xd, pc.n_levels, qp, order, lev, up, down, lsum, 0, Q,
                                  np.empty(n), bad, np.empty(n), ws) == -1
    assert kern.hv_prepare(z, pc.level, pc.n_levels, qp, order, 0, Q, lev, up[:-1].copy(),
                           down) == -1
    if n_levels > 16:                                               # walks need the workspace
        assert kern.hv_range_prepared(xd, pc.n_levels, qp, order, lev, up, down, lsum, 0, Q,
                                      np.empty(n), np.empty(n), np.empty(n), ws[:2].copy()) == -1


def test_grad_u_is_numpys_formula_bit_for_bit():
    rng = np.random.default_rng(40)
    n = 1001
    lp, lm = rng.integers(0, 10 ** 6, n), rng.integers(0, 10 ** 6, n)
    z = rng.normal(size=n) * 10.0 ** rng.integers(-5, 5, n)
    sp, sm = rng.normal(size=n) * 1e3, rng.normal(size=n) * 1e3
    u = np.empty(n)
    assert kern.grad_u(lp, lm, z, sp, sm, u) == 0
    np.testing.assert_array_equal(u, (lp + lm) * z - sp - sm - (lm - lp))
    assert kern.grad_u(lp, lm, z, sp, sm, np.empty(n - 1)) == -1


# --- counted operations ----------------------------------------------------------------------

from reference_pair_counting import operation_counts as ref_operations  # noqa: E402
from reference_pair_counting import sort_comparisons as ref_sort_comparisons  # noqa: E402


def _ops(method, z, y, qp, order=None):
    return tuple(PairCounter(y, qp, method).operations(z, order).values())


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", range(8))
def test_operation_counts_equal_the_reference(method, seed):
    rng = np.random.default_rng(seed)
    z, y, qp, _ = random_case(rng, n_queries=6, max_docs=120,
                              n_levels=int(rng.integers(1, 9)), tie_scores=seed % 2 == 0)
    assert _ops(method, z, y, qp) == ref_operations(method, z, y, qp)
    order = np.concatenate([rng.permutation(np.arange(a, b)) for a, b in zip(qp[:-1], qp[1:])])
    assert _ops(method, z, y, qp, order) == ref_operations(method, z, y, qp, order)


@pytest.mark.parametrize("method", METHODS)
def test_operation_counts_of_edge_cases(method):
    one = _ops(method, np.array([0.3]), np.array([1.0]), np.array([0, 1]))
    assert one == ref_operations(method, [0.3], [1.0], [0, 1])
    # l = 1: no comparison; (a) sweeps the document in once per sweep (one test, one
    # update); (b) has no level to run, (c) no pair (one level) and skips the query
    assert one == ((0, 2, 2) if method == "direct" else (0, 0, 0))
    z = np.zeros(30)                             # all tied scores: every pair in the margin
    y = np.repeat([0.0, 1.0, 2.0], 10)
    assert _ops(method, z, y, np.array([0, 30])) == ref_operations(method, z, y, [0, 30])
    ones = np.ones(30)                           # one level: (c) skips the query
    got = _ops(method, z, ones, np.array([0, 30]))
    assert got == ref_operations(method, z, ones, [0, 30])
    assert got[2] == {"direct": 60, "joachims": 0, "tree": 0}[method]


def test_sort_comparisons_are_the_sorts_and_leave_the_order_sorted():
    rng = np.random.default_rng(3)
    z = rng.normal(size=500)
    y = rng.integers(0, 3, 500).astype(float)
    qp = np.array([0, 500])
    # sorted input: 21 runs by insertion (23 comparisons each, 19 in the last) and 20 merges
    # skipped after one comparison each (10, 5, 3, 1, 1 per width)
    srt = np.argsort(z, kind="stable")
    assert _ops("tree", z, y, qp, srt)[0] == ref_sort_comparisons(z[srt]) == 20 * 23 + 19 + (10 + 5 + 3 + 1 + 1)
    pc = PairCounter(y, qp, "tree")
    order = np.arange(500, dtype=np.int64)
    ops = np.zeros(3, np.int64)
    assert kern.operation_counts(kern.TREE, z, pc.level, pc.n_levels, qp, order,
                                 np.empty(500, np.int64), ops) == 0
    assert np.array_equal(order, srt) and ops[0] == ref_sort_comparisons(z)
    assert kern.operation_counts(kern.TREE, z, pc.level, pc.n_levels, qp, order,
                                 np.empty(500, np.int64), np.zeros(2, np.int64)) == -1
    with pytest.raises(DataError, match="finite"):
        pc.operations(np.full(500, np.nan))
