# cython: language_level=3
"""Exact linear assignment (minimum cost) by shortest augmenting paths, for dense matrices and
for DORM's rank-2 matrices, one problem or a batch per nogil call.

Kernel of ``repro.rankers.assignment`` (which checks, coerces, allocates and maps
maximisation to minimisation).  Le & Smola (2007) Sec. 4.2-4.3: the most violated constraint
(8) is ``argmax_π Σ_i C_{i,π(i)}`` with ``C_ij = c_j g_i − a_j b_i`` (eq. 24; i a document, j a
position), a linear assignment problem (25) whose LP dual is (26); the paper used the
Jonker-Volgenant (1987) code.

Shortest augmenting paths (Jonker & Volgenant 1987, Sec. 3; the rectangular form of Crouse
2016, "On implementing 2D rectangular assignment algorithms", Alg. 4): keep duals u (rows),
v (columns) with reduced costs ``K_ij − u_i − v_j ≥ 0`` for every assigned row i and every j,
zero on assigned pairs; each free row is then assigned by one Dijkstra search over the
columns (``_augment``, a dense or a rank-2 row scan per step) followed by the dual update and
the flip of the path.  At the end every
row's reduced costs are non-negative and zero on its column: the LP optimality certificate
of (25)/(26), so the assignment is optimal (up to float64 rounding in the duals).

Starting points (the only difference between the entry points):

* ``solve_dense`` on a square matrix: the initialisation of Jonker & Volgenant (column
  reduction, reduction transfer, two rounds of augmenting row reduction, Sec. 4 of their
  paper), then augmentation of the rows it left free.  On a rectangular matrix (rows ≤
  columns; the wrapper transposes otherwise): u = v = 0 and every row augmented (Crouse).
* ``solve_rank2_batch`` (DORM, eq. 24, as a minimisation of ``K_ij = a_j b_i − c_j g_i``):
  entries are computed from the four vectors, never stored.  Rows with b_i = 0 and columns
  with a_j = 0 see the rank-1 cost ``−c_j g_i`` only, whose optimum is the sorted assignment
  (Theorem 2, Pólya-Littlewood-Hardy).  Let T = {j : a_j ≠ 0} (e.g. the top n positions of
  NDCG@n) and R = {i : b_i ≠ 0} (the relevant documents).  Documents are laid out in
  decreasing g; then either every position outside T keeps the document the layout puts
  there (if |T| ≤ |R|), or every document outside R keeps its layout position.  This partial
  assignment lies in the rank-1 block, where the telescoping duals
  ``v_{j_{k+1}} = v_{j_k} + (c_{j_k} − c_{j_{k+1}}) g_{i_{k+1}}``, ``u_i = K_ij − v_j`` are
  feasible because c is non-increasing and g is sorted (the exchange argument of Theorem 2);
  a free column gets ``v_j = min_i (K_ij − u_i)`` over the assigned rows.  Only
  ``min(|T|, |R|)`` rows are then augmented: O(min(|T|,|R|)·l²) instead of O(l³).

Dense rows are scanned two columns at a time (SSE2, or a plain two-lane fallback; every lane
computes exactly what the scalar expression computes, so the decisions, duals and results are
those of the one-column-at-a-time loops): the entry check (finite? largest magnitude?) runs
in the column reduction's pass over the matrix; augmenting row reduction takes the two
smallest reduced costs of a row branch-free and then the first column holding the smallest
by comparison; Dijkstra keeps its unsettled columns compacted by position with their
distances, v and predecessors, so that a row scan updates them branch-free and the column to
settle is found by comparison in a second pass.  The rank-2 search (:func:`_augment`) keeps
its unsettled columns the same way, with their a_j and c_j alongside, and computes each
entry in the lanes by the scalar expression of :func:`_k2`.

Forbidden entries: +inf in a dense matrix is an assignment that may not be used (the
wrapper maps −inf of a maximisation to it); such a matrix skips the JV initialisation (its
reductions assume finite entries) and every row is augmented from u = v = 0, where an
infinite shortest path means that no assignment avoids the forbidden entries (-1/-3).

Ties are canonical (:func:`_canonical`): of the optimal assignments, the result is the
lexicographically smallest ``col4row`` (dense: the column of row 0, then of row 1 …; rank-2:
the position of document 0, then of document 1 …), whatever path the search took — the
identity on a constant matrix.  It is found after the solve, on the optimal face that the
duals certify: the edges of reduced cost ≤ 64·ε·(rows + columns)·max|entry| (so ties within
the duals' rounding count as ties), by alternating cycles of such edges, row by row.  Inside
the search, Dijkstra takes the smallest reduced distance, preferring a free column on equal
distances (Crouse); that only affects speed now.  A square dense problem first checks, in one
pass, that its optimal face holds no other assignment (:func:`_unique_face`: the tight edges
off the assignment form no alternating cycle), which is the rule for distinct float entries;
only otherwise does the row-by-row pass run.
"""
from libc.math cimport INFINITY, fabs
from libc.float cimport DBL_EPSILON, DBL_MAX
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc

from simd2 cimport (msk2, msk2_bits, pd2, pd2_abs, pd2_add, pd2_eq, pd2_gather, pd2_hi, pd2_lo,
                   pd2_loadu, pd2_lt, pd2_max, pd2_min, pd2_mul, pd2_ngt, pd2_select, pd2_set1,
                   pd2_storeu, pd2_sub)
from stable_sort cimport stable_argsort


# SSE2 (simd2.pxd) for the scans of dense rows: two columns per instruction, each lane doing
# exactly the scalar operation (pd2_min/pd2_max are the scalar code's ``a < b ? a : b`` and
# ``a > b ? a : b``), so the results are the scalar code's bit for bit.


cdef struct Problem:
    int rank2                  # 0: dense matrix rows, 1: K_ij = a_j b_i − c_j g_i
    const double* C            # dense, row-major, nc columns
    const double* g
    const double* b
    const double* c
    const double* a
    Py_ssize_t nc


cdef struct Work:
    double* u
    double* v
    double* spc                # shortest path costs to the columns (settled ones: final)
    double* dist               # dense search: tentative distances of the unsettled columns,
    double* vpos               #   their v and their predecessor row (a float64, exact), by
    double* pred               #   position in ``remaining``; column reduction: pred = argmin row
    double* apos               # rank-2 search: a_j and c_j of the unsettled columns, by
    double* cpos               #   position in ``remaining``
    Py_ssize_t* path           # predecessor row of each column
    Py_ssize_t* col4row
    Py_ssize_t* row4col
    Py_ssize_t* remaining
    Py_ssize_t* sr_list        # rows scanned by the current search
    Py_ssize_t* sc_list        # columns settled by the current search
    Py_ssize_t* order          # rank-2: documents by decreasing g; dense: free rows
    Py_ssize_t* tmp            # sort scratch
    Py_ssize_t* stamp          # canonical pass: the row whose search last visited a column
    Py_ssize_t* estart         # uniqueness check: row i's tight edges are
    Py_ssize_t* edges          #   edges[estart[i]:estart[i+1]] (at most 4n in all)
    char* fixed                # canonical pass: columns of the rows already made canonical


cdef inline double _k2(const Problem* P, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    """One entry of the rank-2 cost, always computed by the same expression."""
    return P.a[j] * P.b[i] - P.c[j] * P.g[i]


cdef inline double _lane_min(pd2 x) noexcept nogil:
    """The smaller of the two lanes, as the scalar ``m = lo; if hi < m: m = hi``."""
    cdef double m = pd2_lo(x), h = pd2_hi(x)
    return h if h < m else m


cdef inline double _lane_max(pd2 x) noexcept nogil:
    """The larger of the two lanes, as the scalar ``m = lo; if hi > m: m = hi``."""
    cdef double m = pd2_lo(x), h = pd2_hi(x)
    return h if h > m else m


# --- scans of one dense row: h_j = row_j − v_j (as the scalar loops of JV compute it) --------

cdef inline double _min_h(const double* row, const double* v, Py_ssize_t lo,
                          Py_ssize_t hi) noexcept nogil:
    """min_{lo ≤ j < hi} (row_j − v_j), +inf if the range is empty.  (Of a +0 and a −0 the
    lanes may return the other one than the scalar loop: no comparison, and no non-zero
    result computed from it, can tell.)"""
    cdef pd2 a = pd2_set1(INFINITY), b = pd2_set1(INFINITY)
    cdef Py_ssize_t j = lo
    cdef double m, h
    while j + 4 <= hi:
        a = pd2_min(pd2_sub(pd2_loadu(row + j), pd2_loadu(v + j)), a)
        b = pd2_min(pd2_sub(pd2_loadu(row + j + 2), pd2_loadu(v + j + 2)), b)
        j += 4
    m = _lane_min(pd2_min(a, b))
    while j < hi:
        h = row[j] - v[j]
        if h < m:
            m = h
        j += 1
    return m


cdef inline void _two_smallest(const double* row, const double* v, Py_ssize_t n,
                               double* m1, double* m2) noexcept nogil:
    """The smallest and second smallest of row_j − v_j (as a multiset: equal when the
    minimum occurs twice), n ≥ 2, branch-free: per lane m2 = min(m2, max(m1, h)),
    m1 = min(m1, h) (four pairs of lanes, for the latency), then the lanes and the tail
    merged."""
    cdef pd2 a1 = pd2_set1(INFINITY), a2 = a1, b1 = a1, b2 = a1, c1 = a1, c2 = a1, d1 = a1
    cdef pd2 d2 = a1, x, y, z, w
    cdef Py_ssize_t j = 0
    cdef double s1, s2, t1, t2, h
    while j + 8 <= n:
        x = pd2_sub(pd2_loadu(row + j), pd2_loadu(v + j))
        y = pd2_sub(pd2_loadu(row + j + 2), pd2_loadu(v + j + 2))
        z = pd2_sub(pd2_loadu(row + j + 4), pd2_loadu(v + j + 4))
        w = pd2_sub(pd2_loadu(row + j + 6), pd2_loadu(v + j + 6))
        a2 = pd2_min(a2, pd2_max(a1, x))
        a1 = pd2_min(a1, x)
        b2 = pd2_min(b2, pd2_max(b1, y))
        b1 = pd2_min(b1, y)
        c2 = pd2_min(c2, pd2_max(c1, z))
        c1 = pd2_min(c1, z)
        d2 = pd2_min(d2, pd2_max(d1, w))
        d1 = pd2_min(d1, w)
        j += 8
    while j + 2 <= n:
        x = pd2_sub(pd2_loadu(row + j), pd2_loadu(v + j))
        a2 = pd2_min(a2, pd2_max(a1, x))
        a1 = pd2_min(a1, x)
        j += 2
    a2 = pd2_min(pd2_min(a2, b2), pd2_max(a1, b1))      # lanes of a ∪ b, c ∪ d, then all
    a1 = pd2_min(a1, b1)
    c2 = pd2_min(pd2_min(c2, d2), pd2_max(c1, d1))
    c1 = pd2_min(c1, d1)
    a2 = pd2_min(pd2_min(a2, c2), pd2_max(a1, c1))
    a1 = pd2_min(a1, c1)
    s1 = pd2_lo(a1)
    s2 = pd2_lo(a2)
    t1 = pd2_hi(a1)
    t2 = pd2_hi(a2)
    s2 = min(min(s2, t2), max(s1, t1))                   # lane 0 ∪ lane 1
    s1 = min(s1, t1)
    if j < n:
        h = row[j] - v[j]
        s2 = min(s2, max(s1, h))
        s1 = min(s1, h)
    m1[0] = s1
    m2[0] = s2


cdef inline Py_ssize_t _find_h(const double* row, const double* v, Py_ssize_t j, Py_ssize_t n,
                               double val) noexcept nogil:
    """The first column j' ≥ j with row_j' − v_j' == val (n if none)."""
    cdef pd2 t = pd2_set1(val)
    cdef int bits
    while j + 4 <= n:
        bits = (msk2_bits(pd2_eq(pd2_sub(pd2_loadu(row + j), pd2_loadu(v + j)), t))
                | (msk2_bits(pd2_eq(pd2_sub(pd2_loadu(row + j + 2), pd2_loadu(v + j + 2)), t))
                   << 2))
        if bits:
            while not bits & 1:
                bits >>= 1
                j += 1
            return j
        j += 4
    while j < n:
        if row[j] - v[j] == val:
            return j
        j += 1
    return n


cdef inline Py_ssize_t _settle_position(const double* dist, const Py_ssize_t* remaining,
                                        const Py_ssize_t* row4col, Py_ssize_t num_rem,
                                        double lowest) noexcept nogil:
    """The position of the column to settle: the first of distance ``lowest``, or the last
    free column (no row yet) among the positions of that distance; comparisons only, two
    positions per instruction."""
    cdef Py_ssize_t index = -1, it = 0
    cdef pd2 lo = pd2_set1(lowest)
    cdef int bits
    while it + 2 <= num_rem:
        bits = msk2_bits(pd2_eq(pd2_loadu(dist + it), lo))
        if bits:
            if bits & 1:
                if index < 0 or row4col[remaining[it]] == -1:
                    index = it
            if bits & 2:
                if index < 0 or row4col[remaining[it + 1]] == -1:
                    index = it + 1
        it += 2
    if it < num_rem and dist[it] == lowest:
        if index < 0 or row4col[remaining[it]] == -1:
            index = it
    return index


cdef inline Py_ssize_t _settle(Work* W, Py_ssize_t index, Py_ssize_t last,
                               Py_ssize_t n_sc) noexcept nogil:
    """Settle the column at position ``index`` (its distance is the new ``min_val``): record
    its distance, predecessor and place ``n_sc`` in the settled list, and move the last
    unsettled position ``last`` into its place (distance, v and predecessor; :func:`_augment`
    moves a rank-2 search's a and c).  Returns the column."""
    cdef Py_ssize_t j = W.remaining[index]
    W.spc[j] = W.dist[index]
    W.path[j] = <Py_ssize_t> W.pred[index]
    W.sc_list[n_sc] = j
    W.remaining[index] = W.remaining[last]
    W.dist[index] = W.dist[last]
    W.vpos[index] = W.vpos[last]
    W.pred[index] = W.pred[last]
    return j


cdef inline void _update_duals_and_flip(Work* W, Py_ssize_t cur, double min_val, Py_ssize_t n_sr,
                                        Py_ssize_t n_sc, Py_ssize_t sink) noexcept nogil:
    """The end of an augmentation from row ``cur``: the dual update (Crouse 2016, Alg. 4,
    lines 11-13) over the ``n_sr`` scanned rows and ``n_sc`` settled columns, then the flip of
    the alternating path that ends at column ``sink``."""
    cdef double* u = W.u
    cdef double* v = W.v
    cdef const double* spc = W.spc
    cdef Py_ssize_t* row4col = W.row4col
    cdef Py_ssize_t* col4row = W.col4row
    cdef Py_ssize_t it, i, j, tmp
    u[cur] += min_val
    for it in range(n_sr):
        i = W.sr_list[it]
        if i != cur:
            u[i] += min_val - spc[col4row[i]]
    for it in range(n_sc):
        j = W.sc_list[it]
        v[j] -= min_val - spc[j]
    j = sink
    while True:
        i = W.path[j]
        row4col[j] = i
        tmp = col4row[i]
        col4row[i] = j
        j = tmp
        if i == cur:
            break


cdef inline double _relax(double* dist, double* pred, Py_ssize_t it, double r, double di,
                          double lowest) noexcept nogil:
    """The scalar step of a row scan at position ``it``: distance ``r`` through row ``di``
    kept if shorter; returns the smaller of ``lowest`` and the position's distance."""
    if r < dist[it]:
        dist[it] = r
        pred[it] = di
    return dist[it] if dist[it] < lowest else lowest


cdef inline double _scan_dense_row(const double* row, Work* W, Py_ssize_t num_rem, double h,
                                   double di) noexcept nogil:
    """Relax the unsettled columns (positions ``< num_rem`` of ``remaining``) through dense row
    ``di`` (its entries ``row``): distance ``row_j + h − v_j`` (h = min_val − u_i), two columns
    per instruction, branch-free; returns the smallest distance."""
    cdef double* dist = W.dist
    cdef double* vpos = W.vpos
    cdef double* pred = W.pred
    cdef const Py_ssize_t* remaining = W.remaining
    cdef Py_ssize_t it = 0
    cdef double lowest
    cdef pd2 hv = pd2_set1(h), iv = pd2_set1(di), lo = pd2_set1(INFINITY), d, x
    cdef msk2 m
    while it + 2 <= num_rem:
        x = pd2_sub(pd2_add(pd2_gather(row + remaining[it], row + remaining[it + 1]), hv),
                    pd2_loadu(vpos + it))
        d = pd2_loadu(dist + it)
        m = pd2_lt(x, d)
        d = pd2_min(x, d)
        pd2_storeu(dist + it, d)
        pd2_storeu(pred + it, pd2_select(m, iv, pd2_loadu(pred + it)))
        lo = pd2_min(d, lo)
        it += 2
    lowest = _lane_min(lo)
    if it < num_rem:
        lowest = _relax(dist, pred, it, row[remaining[it]] + h - vpos[it], di, lowest)
    return lowest


cdef inline double _scan_rank2_row(const Problem* P, Work* W, Py_ssize_t num_rem, double h,
                                   Py_ssize_t i) noexcept nogil:
    """:func:`_scan_dense_row` for row ``i`` of a rank-2 problem, its entries computed on the
    fly as ``(a_j b_i − c_j g_i) + h − v_j``, the expression of :func:`_k2`, from the a and c of
    the unsettled columns kept by position (``apos``, ``cpos``); four columns per step."""
    cdef double* dist = W.dist
    cdef double* vpos = W.vpos
    cdef double* pred = W.pred
    cdef const double* apos = W.apos
    cdef const double* cpos = W.cpos
    cdef Py_ssize_t it = 0
    cdef double lowest, bi = P.b[i], gi = P.g[i], di = <double> i
    cdef pd2 hv = pd2_set1(h), iv = pd2_set1(di), bv = pd2_set1(bi), gv = pd2_set1(gi)
    cdef pd2 lo = pd2_set1(INFINITY), lo2, d, x, d2, x2
    cdef msk2 m, m2
    lo2 = lo
    while it + 4 <= num_rem:
        x = pd2_sub(pd2_add(pd2_sub(pd2_mul(pd2_loadu(apos + it), bv),
                                    pd2_mul(pd2_loadu(cpos + it), gv)), hv),
                    pd2_loadu(vpos + it))
        x2 = pd2_sub(pd2_add(pd2_sub(pd2_mul(pd2_loadu(apos + it + 2), bv),
                                     pd2_mul(pd2_loadu(cpos + it + 2), gv)), hv),
                     pd2_loadu(vpos + it + 2))
        d = pd2_loadu(dist + it)
        d2 = pd2_loadu(dist + it + 2)
        m = pd2_lt(x, d)
        m2 = pd2_lt(x2, d2)
        d = pd2_min(x, d)
        d2 = pd2_min(x2, d2)
        pd2_storeu(dist + it, d)
        pd2_storeu(dist + it + 2, d2)
        pd2_storeu(pred + it, pd2_select(m, iv, pd2_loadu(pred + it)))
        pd2_storeu(pred + it + 2, pd2_select(m2, iv, pd2_loadu(pred + it + 2)))
        lo = pd2_min(d, lo)
        lo2 = pd2_min(d2, lo2)
        it += 4
    lowest = _lane_min(pd2_min(lo, lo2))
    while it < num_rem:
        lowest = _relax(dist, pred, it, (apos[it] * bi - cpos[it] * gi) + h - vpos[it], di,
                        lowest)
        it += 1
    return lowest


cdef Py_ssize_t _augment(const Problem* P, Py_ssize_t nc, Py_ssize_t cur, Work* W) noexcept nogil:
    """Assign free row ``cur`` along a shortest augmenting path (Dijkstra on reduced costs),
    update the duals and flip the path.  Returns 0, or -1 if no finite path exists.

    The unsettled columns are kept compacted by position in ``remaining`` (a settled one is
    replaced by the last), with their distance, v and predecessor (and for a rank-2 problem
    their a and c) in parallel arrays, so that a row scan (:func:`_scan_dense_row`,
    :func:`_scan_rank2_row`) reads contiguous memory (a dense row's entries excepted) and
    updates branch-free.  The column settled next is the first position of smallest
    distance, or the last free column among the positions of that distance (Crouse's
    preference for a free column, in this scan order); it is found by a second, comparing
    pass."""
    cdef double* dist = W.dist
    cdef Py_ssize_t* row4col = W.row4col
    cdef Py_ssize_t num_rem = nc, n_sr = 0, n_sc = 0, index, j, i, sink = -1
    cdef double min_val = 0.0, lowest, h
    for j in range(nc):
        W.remaining[j] = j
        dist[j] = INFINITY
        W.vpos[j] = W.v[j]
        W.pred[j] = -1.0
    if P.rank2:
        for j in range(nc):
            W.apos[j] = P.a[j]
            W.cpos[j] = P.c[j]
    i = cur
    while sink == -1:
        W.sr_list[n_sr] = i
        n_sr += 1
        h = min_val - W.u[i]
        if P.rank2:
            lowest = _scan_rank2_row(P, W, num_rem, h, i)
        else:
            lowest = _scan_dense_row(P.C + i * nc, W, num_rem, h, <double> i)
        if not lowest < INFINITY:
            return -1
        index = _settle_position(dist, W.remaining, row4col, num_rem, lowest)
        min_val = dist[index]
        num_rem -= 1
        j = _settle(W, index, num_rem, n_sc)
        n_sc += 1
        if P.rank2:
            W.apos[index] = W.apos[num_rem]
            W.cpos[index] = W.cpos[num_rem]
        if row4col[j] == -1:
            sink = j
        else:
            i = row4col[j]
    _update_duals_and_flip(W, cur, min_val, n_sr, n_sc, sink)
    return 0


cdef inline double _cost(const Problem* P, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    """Entry (i, j) of the cost being minimised (dense row-major, or rank-2 as in _k2)."""
    if P.rank2:
        return P.a[j] * P.b[i] - P.c[j] * P.g[i]
    return P.C[i * P.nc + j]


cdef inline bint _tight(const Problem* P, Py_ssize_t nr, Work* W, Py_ssize_t k, Py_ssize_t j,
                        double tol) noexcept nogil:
    """Is (row k, column j) an edge of the optimal face: reduced cost K_kj − u_k − v_j ≤ tol?
    Rows k ≥ nr are the zero-cost dummy rows of a rectangular problem (u = 0)."""
    if k >= nr:
        return -W.v[j] <= tol
    return _cost(P, k, j) - W.v[j] <= W.u[k] + tol


cdef inline int _tight_r2(const Problem* P, const double* v, Py_ssize_t j, Py_ssize_t n,
                          double bk, double gk, double thr) noexcept nogil:
    """Bit t set iff column j + t (t < 4, j + t < n) is tight for the rank-2 row (b_k, g_k):
    not ``a_j b_k − c_j g_k − v_j > thr``, the scalar test of the canonical pass (four
    columns in two-lane steps, each lane that expression; the scalar test for a tail)."""
    cdef int bits = 0, t
    cdef pd2 bv, gv, tv
    if j + 4 <= n:
        bv = pd2_set1(bk)
        gv = pd2_set1(gk)
        tv = pd2_set1(thr)
        return (msk2_bits(pd2_ngt(pd2_sub(pd2_sub(pd2_mul(pd2_loadu(P.a + j), bv),
                                                  pd2_mul(pd2_loadu(P.c + j), gv)),
                                          pd2_loadu(v + j)), tv))
                | (msk2_bits(pd2_ngt(pd2_sub(pd2_sub(pd2_mul(pd2_loadu(P.a + j + 2), bv),
                                                     pd2_mul(pd2_loadu(P.c + j + 2), gv)),
                                             pd2_loadu(v + j + 2)), tv)) << 2))
    for t in range(n - j):
        if not P.a[j + t] * bk - P.c[j + t] * gk - v[j + t] > thr:
            bits |= 1 << t
    return bits


cdef inline bint _reach(Work* W, Py_ssize_t i, Py_ssize_t k, Py_ssize_t j2, Py_ssize_t m,
                        Py_ssize_t* tail) noexcept nogil:
    """Row i's search reaches column ``j2`` through the tight edge of row ``k``: the column is
    stamped with i and gets k as its predecessor; True if it is i's own column ``m`` (the
    cycle closes), else its owner joins the queue (``W.sr_list``, ``tail`` entries)."""
    W.stamp[j2] = i
    W.path[j2] = k
    if j2 == m:
        return True
    W.sr_list[tail[0]] = W.row4col[j2]
    tail[0] += 1
    return False


cdef bint _rematch(const Problem* P, Py_ssize_t nr, Py_ssize_t nc, Work* W, Py_ssize_t i,
                   Py_ssize_t j, double tol) noexcept nogil:
    """Can row i take column j (of the optimal face) while every row after i keeps one?  A
    breadth-first search for an alternating cycle of tight edges from j's owner back to i's
    column over the columns not fixed; if found, the cycle is flipped.  Columns reached are
    stamped with i: a column reached once in a failed search of row i cannot reach its
    column later either, so each column is scanned at most once per row.  A rank-2 row's
    tight columns are found four at a time (:func:`_tight_r2`; u and v do not change in the
    canonical pass, so tightness can be tested ahead) and then visited in increasing order,
    as the column-by-column loop visits them."""
    cdef Py_ssize_t m = W.col4row[i], head = 0, tail = 0, k, j2, jj, old, jb
    cdef int bits
    cdef Py_ssize_t* queue = W.sr_list
    cdef Py_ssize_t* pred = W.path
    cdef Py_ssize_t* stamp = W.stamp
    cdef char* fixed = W.fixed
    cdef const double* v = W.v
    cdef const double* row
    cdef double thr, gk, bk
    cdef bint found = 0
    stamp[j] = i
    pred[j] = i
    queue[tail] = W.row4col[j]
    tail += 1
    while head < tail and not found:
        k = queue[head]
        head += 1
        if k >= nr:
            thr = -tol
        else:
            thr = W.u[k] + tol
        if P.rank2 and k < nr:              # tight columns four at a time, in order
            bk = P.b[k]
            gk = P.g[k]
            jb = 0
            while jb < nc and not found:
                bits = _tight_r2(P, v, jb, nc, bk, gk, thr)
                j2 = jb
                while bits:
                    if (bits & 1 and not fixed[j2] and stamp[j2] != i
                            and _reach(W, i, k, j2, m, &tail)):
                        found = 1
                        break
                    bits >>= 1
                    j2 += 1
                jb += 4
            continue
        for j2 in range(nc):
            if k >= nr:
                if -v[j2] > tol:
                    continue
            elif P.C[k * nc + j2] - v[j2] > thr:
                continue
            if fixed[j2] or stamp[j2] == i:
                continue
            if _reach(W, i, k, j2, m, &tail):
                found = 1
                break
    if not found:
        return 0
    jj = m                                  # flip: each row on the cycle takes its new column
    while True:
        k = pred[jj]
        old = W.col4row[k]
        W.col4row[k] = jj
        W.row4col[jj] = k
        if k == i:
            break
        jj = old
    return 1


cdef void _canonical(const Problem* P, Py_ssize_t nr, Py_ssize_t nc, Work* W,
                     double tol) noexcept nogil:
    """Turn the optimal assignment in (col4row, row4col) into the canonical one: the
    lexicographically smallest ``col4row[0..nr-1]`` among the optimal assignments.

    The duals (u, v) left by the solver certify optimality; the optimal assignments are then
    exactly those that use only tight edges (reduced cost ≤ tol) and leave no column with
    v_j < −tol unassigned (complementary slackness).  With nr < nc, dummy rows of zero cost
    (u = 0) take the free columns, which makes both conditions "tight edges of a square
    problem".  Row by row, each row takes the smallest column it can take while the later
    rows keep an optimal assignment (an alternating cycle of tight edges, :func:`_rematch`);
    the duals stay valid throughout.  O(nr·nc) when the optimum is unique, O(nr·nc²) at worst
    (every entry equal costs O(nr·nc): each search ends at the first row it scans).  Rank-2
    rows test their columns before the current one four at a time (:func:`_tight_r2`), then
    try the tight ones in increasing order: the decisions of the column-by-column loop."""
    cdef Py_ssize_t i, j, m, d = nr, jb
    cdef double thr
    cdef int bits, done
    for j in range(nc):
        W.fixed[j] = 0
        W.stamp[j] = -1
        if W.row4col[j] == -1:
            W.row4col[j] = d
            W.col4row[d] = j
            d += 1
    cdef const double* v = W.v
    cdef const double* row
    cdef double gi, bi
    for i in range(nr):
        m = W.col4row[i]
        thr = W.u[i] + tol
        if P.rank2:                         # tight columns before m four at a time
            gi = P.g[i]
            bi = P.b[i]
            jb = 0
            done = 0
            while jb < m and not done:
                bits = _tight_r2(P, v, jb, m, bi, gi, thr)
                j = jb
                while bits:
                    if (bits & 1 and not W.fixed[j] and W.stamp[j] != i
                            and _rematch(P, nr, nc, W, i, j, tol)):
                        done = 1
                        break
                    bits >>= 1
                    j += 1
                jb += 4
        else:
            row = P.C + i * nc
            for j in range(m):
                if row[j] - v[j] > thr or W.fixed[j] or W.stamp[j] == i:
                    continue
                if _rematch(P, nr, nc, W, i, j, tol):
                    break
        W.fixed[W.col4row[i]] = 1


cdef bint _unique_face(const double* C, Py_ssize_t n, Work* W, double tol) noexcept nogil:
    """Is the assignment in (col4row, row4col) of a square dense problem the only one on the
    optimal face (then :func:`_canonical` would change nothing)?  Every change that
    :func:`_rematch` can make is an alternating cycle of tight edges (reduced cost ≤ tol, as
    :func:`_tight`): a directed cycle of the graph on the rows with an arc i → row4col[j] for
    every tight (i, j), j ≠ col4row[i].  One branch-free pass over the matrix collects the
    arcs; True if that graph has no cycle (Kahn's topological sort), False if it has one or
    more than 4n arcs (e.g. ties: the full canonical pass then decides)."""
    cdef const double* v = W.v
    cdef Py_ssize_t* edges = W.edges
    cdef Py_ssize_t* estart = W.estart
    cdef Py_ssize_t* indeg = W.stamp
    cdef Py_ssize_t* queue = W.sr_list
    cdef Py_ssize_t i, j, k, t, e, ne = 0, cap = 4 * n, head = 0, tail = 0
    cdef double thr
    cdef const double* row
    cdef pd2 tv
    cdef int bits
    for i in range(n):
        indeg[i] = 0
    for i in range(n):
        estart[i] = ne
        row = C + i * n
        thr = W.u[i] + tol
        tv = pd2_set1(thr)
        j = 0
        while j < n:
            if j + 4 <= n:
                bits = (msk2_bits(pd2_ngt(pd2_sub(pd2_loadu(row + j), pd2_loadu(v + j)), tv))
                        | (msk2_bits(pd2_ngt(pd2_sub(pd2_loadu(row + j + 2),
                                                     pd2_loadu(v + j + 2)), tv)) << 2))
            else:
                bits = 0
                for k in range(n - j):
                    if not row[j + k] - v[j + k] > thr:
                        bits |= 1 << k
            if bits:                        # rare: the row's own column, a tree edge, a tie
                k = j
                while bits:
                    if bits & 1 and k != W.col4row[i]:
                        if ne == cap:
                            return 0
                        t = W.row4col[k]
                        edges[ne] = t
                        ne += 1
                        indeg[t] += 1
                    bits >>= 1
                    k += 1
            j += 4
    estart[n] = ne
    for i in range(n):
        if indeg[i] == 0:
            queue[tail] = i
            tail += 1
    while head < tail:
        i = queue[head]
        head += 1
        for e in range(estart[i], estart[i + 1]):
            t = edges[e]
            indeg[t] -= 1
            if indeg[t] == 0:
                queue[tail] = t
                tail += 1
    return tail == n


cdef int _colred_scan(const double* C, Py_ssize_t n, double* v, double* arg,
                      double* big) noexcept nogil:
    """One pass over a square matrix: the column reduction of Jonker & Volgenant (v_j =
    min_i K_ij, ``arg[j]`` = the first minimising row, as a float64), scanned row by row for
    the cache, and the largest magnitude ``big``.  Returns 1 if every entry is finite, else 0
    (then v, arg and big are meaningless: the caller rescans with :func:`_scan`)."""
    cdef pd2 mx = pd2_set1(0.0), nf = pd2_set1(0.0), zero = pd2_set1(0.0), iv, x, d
    cdef Py_ssize_t i, j
    cdef double b, s = 0.0, e, t = 0.0
    cdef const double* row
    for j in range(n):
        v[j] = INFINITY
        arg[j] = 0.0
    for i in range(n):
        row = C + i * n
        iv = pd2_set1(<double> i)
        j = 0
        while j + 2 <= n:
            x = pd2_loadu(row + j)
            d = pd2_loadu(v + j)
            pd2_storeu(arg + j, pd2_select(pd2_lt(x, d), iv, pd2_loadu(arg + j)))
            pd2_storeu(v + j, pd2_min(x, d))
            mx = pd2_max(pd2_abs(x), mx)
            nf = pd2_add(nf, pd2_mul(x, zero))          # NaN once a non-finite entry is seen
            j += 2
        if j < n:
            e = row[j]
            if e < v[j]:
                v[j] = e
                arg[j] = <double> i
            s = s + e * 0.0
            if fabs(e) > t:
                t = fabs(e)
    b = _lane_max(mx)
    big[0] = t if t > b else b
    s = s + pd2_lo(nf) + pd2_hi(nf)
    return s == s


cdef int _scan_finite(const double* C, Py_ssize_t n, double* big) noexcept nogil:
    """The largest magnitude of n entries, branch-free; returns 1 if all are finite, else 0
    (then the caller rescans with :func:`_scan`)."""
    cdef pd2 mx = pd2_set1(0.0), nf = pd2_set1(0.0), zero = pd2_set1(0.0), x
    cdef Py_ssize_t k = 0
    cdef double b, s = 0.0
    while k + 2 <= n:
        x = pd2_loadu(C + k)
        mx = pd2_max(pd2_abs(x), mx)
        nf = pd2_add(nf, pd2_mul(x, zero))
        k += 2
    b = _lane_max(mx)
    if k < n:
        s = C[k] * 0.0
        if fabs(C[k]) > b:
            b = fabs(C[k])
    big[0] = b
    s = s + pd2_lo(nf) + pd2_hi(nf)
    return s == s


cdef Py_ssize_t _jv_init(const double* C, Py_ssize_t n, Work* W) noexcept nogil:
    """Jonker-Volgenant initialisation of a square problem, after the column reduction of
    :func:`_colred_scan` (v and ``W.pred`` = its minimising rows): a row keeps the first
    column it minimises, reduction transfer and two rounds of augmenting row reduction.
    Leaves duals (u, v) certifying the partial assignment (assigned column = a minimum of the
    row's reduced costs) and the free rows in ``W.order``; returns their number."""
    cdef double* v = W.v
    cdef double* u = W.u
    cdef Py_ssize_t* x = W.col4row
    cdef Py_ssize_t* y = W.row4col
    cdef Py_ssize_t* free_rows = W.order
    cdef Py_ssize_t* matches = W.remaining          # scratch
    cdef Py_ssize_t i, j, j1, imin, i0, k, numfree, prvnumfree, loopcnt, guard
    cdef double mn, h, umin, usubmin
    cdef const double* row
    for i in range(n):
        matches[i] = 0
        x[i] = -1
    # in decreasing column order, as JV, a row keeps the first column it minimises
    j = n - 1
    while j >= 0:
        imin = <Py_ssize_t> W.pred[j]
        y[j] = imin
        matches[imin] += 1
        if matches[imin] == 1:
            x[imin] = j
        else:
            y[j] = -1
        j -= 1
    # reduction transfer
    numfree = 0
    for i in range(n):
        if matches[i] == 0:
            free_rows[numfree] = i
            numfree += 1
        elif matches[i] == 1:
            j1 = x[i]
            row = C + i * n
            mn = _min_h(row, v, 0, j1)
            h = _min_h(row, v, j1 + 1, n)
            if h < mn:
                mn = h
            if mn < INFINITY:
                v[j1] = v[j1] - mn
    # augmenting row reduction, two rounds; a guard (3n + 64 row scans in all) bounds
    # the long reassignment chains that near-ties cause (the rows left go to augmentation).
    # Each row scan needs u1 = min_j (K_ij − v_j) at its first column j1, u2 = the minimum
    # over the other columns and, only if u2 = u1 and j1 is taken, u2's first column j2 (the
    # first after j1): the two smallest values branch-free, then the columns by comparison.
    # (The lane-wise minima may differ from the scalar scan's values in the sign of a zero
    # only, which changes no comparison and no non-zero result, hence no decision.)
    guard = 0
    loopcnt = 0
    while loopcnt < 2 and numfree > 0:
        loopcnt += 1
        k = 0
        prvnumfree = numfree
        numfree = 0
        while k < prvnumfree:
            i = free_rows[k]
            k += 1
            guard += 1
            if guard > 3 * n + 64:
                free_rows[numfree] = i
                numfree += 1
                continue
            row = C + i * n
            if n >= 2:
                _two_smallest(row, v, n, &umin, &usubmin)
                j1 = _find_h(row, v, 0, n, umin)
            else:
                j1 = 0
                umin = row[0] - v[0]
                usubmin = INFINITY
            i0 = y[j1]
            if umin < usubmin:
                v[j1] = v[j1] - (usubmin - umin)
            elif i0 > -1 and n >= 2:
                j1 = _find_h(row, v, j1 + 1, n, umin)       # j2: the minimum occurs twice
                i0 = y[j1]
            if i0 > -1:
                x[i0] = -1
            x[i] = j1
            y[j1] = i
            if i0 > -1:
                if umin < usubmin:
                    k -= 1
                    free_rows[k] = i0
                else:
                    free_rows[numfree] = i0
                    numfree += 1
    # duals of the assigned rows: u_i = K_{i,x_i} − v_{x_i} (the row minimum)
    numfree = 0
    for i in range(n):
        if x[i] >= 0:
            u[i] = C[i * n + x[i]] - v[x[i]]
        else:
            u[i] = 0.0
            free_rows[numfree] = i
            numfree += 1
    return numfree


cdef int _alloc(Work* W, Py_ssize_t n) noexcept nogil:
    """All work arrays in one allocation (freed by :func:`_free`)."""
    cdef char* block = <char*> malloc(n * (8 * sizeof(double) + 14 * sizeof(Py_ssize_t) + 1)
                                      + sizeof(Py_ssize_t) + 64)
    cdef double* d = <double*> block
    cdef Py_ssize_t* p
    W.u = d
    if block == NULL:
        return -1
    p = <Py_ssize_t*> (d + 8 * n)
    # n doubles each, then n indices each (4n edges, n + 1 starts), then n chars
    W.v, W.spc, W.dist, W.vpos = d + n, d + 2 * n, d + 3 * n, d + 4 * n
    W.pred, W.apos, W.cpos = d + 5 * n, d + 6 * n, d + 7 * n
    W.path, W.col4row, W.row4col, W.remaining = p, p + n, p + 2 * n, p + 3 * n
    W.sr_list, W.sc_list, W.order, W.tmp = p + 4 * n, p + 5 * n, p + 6 * n, p + 7 * n
    W.stamp, W.edges, W.estart = p + 8 * n, p + 9 * n, p + 13 * n
    W.fixed = <char*> (p + 14 * n + 1)
    return 0


cdef void _free(Work* W) noexcept nogil:
    free(W.u)
    W.u = NULL


cdef int _scan(const double* C, Py_ssize_t n, double* big, int* has_inf) noexcept nogil:
    """One pass over n entries: the largest finite magnitude, whether +inf (a forbidden
    entry) occurs; returns -4 on a NaN or −inf, else 0."""
    cdef Py_ssize_t k
    cdef double x, b = 0.0
    cdef int inf = 0
    for k in range(n):
        x = C[k]
        if x == INFINITY:
            inf = 1
        elif not fabs(x) <= DBL_MAX:
            return -4
        elif fabs(x) > b:
            b = fabs(x)
    big[0] = b
    has_inf[0] = inf
    return 0


cdef inline double _tolerance(double scale, Py_ssize_t nr, Py_ssize_t nc) noexcept nogil:
    """Reduced costs up to this are zero (tight) in the canonical pass: 64 ulps of the
    largest entry per row and column, above the rounding of the duals."""
    return 64.0 * DBL_EPSILON * (nr + nc) * scale


cdef Py_ssize_t _dense(const double* C, Py_ssize_t nr, Py_ssize_t nc, Work* W,
                       int64_t* out, int check_big) noexcept nogil:
    """Canonical minimum-cost assignment of every row of an nr×nc matrix (nr ≤ nc, entries
    finite or +inf = forbidden); ``out[i]`` = the column of row i.  Returns 0, -1 (no finite
    assignment), -4 (a NaN or −inf entry) or, if ``check_big``, -5 (entries too large:
    |entry|·(rows + columns + 2) overflows).  The entries are checked in the pass of the
    column reduction (square) or a pass of their own, branch-free; only a matrix with a
    non-finite entry is scanned again to tell +inf from the others."""
    cdef Problem P
    cdef Py_ssize_t i, j, nfree, f
    cdef double big
    cdef int has_inf = 0, finite
    P.rank2 = 0
    P.C = C
    P.nc = nc
    if nr == nc:
        finite = _colred_scan(C, nr, W.v, W.pred, &big)
    else:
        finite = _scan_finite(C, nr * nc, &big)
    if not finite and _scan(C, nr * nc, &big, &has_inf) < 0:
        return -4
    if check_big and not big * (nr + nc + 2) < DBL_MAX:
        return -5
    for j in range(nc):
        W.row4col[j] = -1
    if nr == nc and not has_inf:            # (JV's reductions assume finite entries)
        nfree = _jv_init(C, nr, W)
    else:
        nfree = nr
        for j in range(nc):
            W.v[j] = 0.0
        for i in range(nr):
            W.col4row[i] = -1
            W.u[i] = 0.0
            W.order[i] = i
    for f in range(nfree):
        if _augment(&P, nc, W.order[f], W) < 0:
            return -1
    if nr < nc or not _unique_face(C, nr, W, _tolerance(big, nr, nc)):
        _canonical(&P, nr, nc, W, _tolerance(big, nr, nc))
    for i in range(nr):
        out[i] = W.col4row[i]
    return 0


cdef Py_ssize_t _rank2(const double* g, const double* b, const double* c, const double* a,
                       Py_ssize_t l, Work* W, int64_t* out, int64_t* n_aug) noexcept nogil:
    """Minimum of Σ_i K_{i,π(i)}, K_ij = a_j b_i − c_j g_i, over permutations of l documents
    (c non-increasing; checked by the caller).  ``out[i]`` = the position of document i."""
    cdef Problem P
    cdef Py_ssize_t i, j, p, k, nT = 0, nR = 0, nfree = 0, prev_j = -1, prev_i = -1
    cdef int keep_tail
    cdef double mn, r
    cdef Py_ssize_t* order = W.order
    P.rank2 = 1
    P.g = g
    P.b = b
    P.c = c
    P.a = a
    P.nc = l
    cdef double ma = 0.0, mb = 0.0, mc = 0.0, mg = 0.0
    for j in range(l):
        if a[j] != 0.0:
            nT += 1
        if b[j] != 0.0:
            nR += 1
        ma = max(ma, fabs(a[j]))
        mb = max(mb, fabs(b[j]))
        mc = max(mc, fabs(c[j]))
        mg = max(mg, fabs(g[j]))
    for i in range(l):
        order[i] = i
    stable_argsort(g, order, W.tmp, 0, l, True, NULL)  # documents by decreasing g
    keep_tail = nT <= nR
    for i in range(l):
        W.col4row[i] = -1
        W.row4col[i] = -1
        W.u[i] = 0.0
    # partial assignment in the rank-1 block, with telescoping duals
    for p in range(l):
        i = order[p]
        if (keep_tail and a[p] == 0.0) or (not keep_tail and b[i] == 0.0):
            W.col4row[i] = p
            W.row4col[p] = i
            if prev_j < 0:
                W.v[p] = 0.0
            else:
                W.v[p] = W.v[prev_j] + (c[prev_j] - c[p]) * g[i]
            W.u[i] = _k2(&P, i, p) - W.v[p]
            prev_j = p
            prev_i = i
    # free columns: v_j = min over assigned rows of (K_ij − u_i); free rows in layout order
    for p in range(l):
        if W.row4col[p] == -1:
            mn = INFINITY
            for i in range(l):
                if W.col4row[i] >= 0:
                    r = _k2(&P, i, p) - W.u[i]
                    if r < mn:
                        mn = r
            W.v[p] = mn if mn < INFINITY else 0.0
    for p in range(l):
        i = order[p]
        if W.col4row[i] == -1:
            W.tmp[nfree] = i
            nfree += 1
    n_aug[0] = nfree
    for k in range(nfree):
        if _augment(&P, l, W.tmp[k], W) < 0:
            return -1
    _canonical(&P, l, l, W, _tolerance(ma * mb + mc * mg, l, l))
    for i in range(l):
        out[i] = W.col4row[i]
    return 0


def solve_dense(const double[:, ::1] cost, int64_t[::1] col_for_row):
    """Canonical minimum-cost assignment of every row of ``cost`` (rows ≤ columns; +inf marks
    a forbidden entry).  Writes ``col_for_row`` (one column per row, all distinct); returns
    ``(status, total cost)``, status 0, -1 (inconsistent shapes), -2 (out of memory), -3
    (no assignment avoids the forbidden entries), -4 (a NaN or −inf entry) or -5 (entries too
    large: |entry|·(rows + columns + 2) overflows; both checked here, in one pass)."""
    cdef Py_ssize_t nr = cost.shape[0], nc = cost.shape[1], i
    cdef Work W
    cdef Py_ssize_t status = 0
    cdef double s = 0.0, big = 0.0
    cdef int has_inf = 0
    if nr > nc or col_for_row.shape[0] != nr:
        return -1, 0.0
    if nr == 0:
        return 0, 0.0
    with nogil:
        if _alloc(&W, nc) < 0:              # (the entry checks still come first)
            status = _scan(&cost[0, 0], nr * nc, &big, &has_inf)
            if status == 0 and not big * (nr + nc + 2) < DBL_MAX:
                status = -5
            if status == 0:
                status = -2
        else:
            status = _dense(&cost[0, 0], nr, nc, &W, &col_for_row[0], 1)
            if status == -1:
                status = -3
            elif status == 0:
                for i in range(nr):
                    s = s + cost[i, col_for_row[i]]
        _free(&W)
    return status, s


def solve_dense_batch(const double[::1] costs, const int64_t[::1] cost_ptr,
                      const int64_t[::1] n_rows, const int64_t[::1] n_cols,
                      const int64_t[::1] row_ptr, int64_t[::1] col_for_row,
                      double[::1] value):
    """Problem t is the ``n_rows[t]`` × ``n_cols[t]`` row-major matrix
    ``costs[cost_ptr[t]:cost_ptr[t+1]]`` (rows ≤ columns; entries checked by the caller:
    finite or +inf = forbidden); its rows' columns (canonical, as :func:`solve_dense`) are
    written to ``col_for_row[row_ptr[t]:row_ptr[t+1]]`` and its total cost to ``value[t]``.
    All problems in one nogil call.
    Returns 0, -1 (inconsistent shapes or a NaN/−inf entry), -2 (out of memory) or -(3 + t)
    if no assignment of problem t avoids its forbidden entries."""
    cdef Py_ssize_t T = cost_ptr.shape[0] - 1, t, nmax = 1, nr, nc
    cdef Py_ssize_t status
    if (T < 0 or value.shape[0] != T or n_rows.shape[0] != T or n_cols.shape[0] != T or row_ptr.shape[0] != T + 1
            or (T > 0 and (cost_ptr[T] > costs.shape[0] or row_ptr[T] != col_for_row.shape[0]))):
        return -1
    for t in range(T):
        nr = n_rows[t]
        nc = n_cols[t]
        if (nr < 0 or nr > nc or cost_ptr[t + 1] - cost_ptr[t] != nr * nc
                or row_ptr[t + 1] - row_ptr[t] != nr):
            return -1
        if nc > nmax:
            nmax = nc
    if T == 0:
        return 0
    with nogil:
        status = _dense_batch(costs, cost_ptr, n_rows, n_cols, row_ptr, col_for_row, value,
                              nmax)
    return status


cdef Py_ssize_t _dense_batch(const double[::1] costs, const int64_t[::1] cost_ptr,
                             const int64_t[::1] n_rows, const int64_t[::1] n_cols,
                             const int64_t[::1] row_ptr, int64_t[::1] col_for_row,
                             double[::1] value, Py_ssize_t nmax) noexcept nogil:
    """The problems of :func:`solve_dense_batch` (shapes checked) in turn, in one work
    allocation for ``nmax`` columns; its status."""
    cdef Py_ssize_t t, i, f, nr, nc
    cdef Work W
    cdef double s
    if _alloc(&W, nmax) < 0:
        return -2
    for t in range(value.shape[0]):
        value[t] = 0.0
        nr = n_rows[t]
        nc = n_cols[t]
        if nr == 0:
            continue
        f = _dense(&costs[cost_ptr[t]], nr, nc, &W, &col_for_row[row_ptr[t]], 0)
        if f < 0:
            _free(&W)
            return -1 if f == -4 else -(3 + t)
        s = 0.0
        for i in range(nr):
            s = s + costs[cost_ptr[t] + i * nc + col_for_row[row_ptr[t] + i]]
        value[t] = s
    _free(&W)
    return 0


def solve_rank2_batch(const double[::1] g, const double[::1] b, const double[::1] c,
                      const double[::1] a, const int64_t[::1] query_ptr,
                      int64_t[::1] position, double[::1] value, int64_t[::1] n_augmented):
    """DORM's most violated constraints (eq. 24) for a batch of queries in one nogil call.

    Query q is documents ``query_ptr[q]:query_ptr[q+1]`` (l of them) with scores ``g`` and
    gains ``b``; ``c`` and ``a`` hold, at the same offsets, the weights of positions 1..l
    (``c`` non-increasing, checked by the caller).  Maximises Σ_i C_{i,π(i)},
    C_ij = c_j g_i − a_j b_i: writes each document's 0-based position to ``position`` (of
    the optimal permutations, the lexicographically smallest position vector), the
    maximum to ``value[q]`` and the number of augmenting paths to ``n_augmented[q]``.
    Returns 0, -1 (inconsistent shapes), -2 (out of memory) or -(3 + q) on failure at q."""
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1, q, l, nmax = 1, n = g.shape[0]
    cdef Py_ssize_t status
    if (Q < 0 or b.shape[0] != n or c.shape[0] != n or a.shape[0] != n
            or position.shape[0] != n or value.shape[0] != Q or n_augmented.shape[0] != Q
            or (Q > 0 and (query_ptr[0] != 0 or query_ptr[Q] != n))):
        return -1
    for q in range(Q):
        l = query_ptr[q + 1] - query_ptr[q]
        if l < 0:
            return -1
        if l > nmax:
            nmax = l
    if Q == 0:
        return 0
    with nogil:
        status = _rank2_batch(g, b, c, a, query_ptr, position, value, n_augmented, nmax)
    return status


cdef Py_ssize_t _rank2_batch(const double[::1] g, const double[::1] b, const double[::1] c,
                             const double[::1] a, const int64_t[::1] query_ptr,
                             int64_t[::1] position, double[::1] value,
                             int64_t[::1] n_augmented, Py_ssize_t nmax) noexcept nogil:
    """The queries of :func:`solve_rank2_batch` (shapes checked) in turn, in one work
    allocation for ``nmax`` documents; its status."""
    cdef Py_ssize_t q, lo, l, i
    cdef Work W
    cdef double s
    if _alloc(&W, nmax) < 0:
        return -2
    for q in range(value.shape[0]):
        lo = query_ptr[q]
        l = query_ptr[q + 1] - lo
        if l == 0:
            value[q] = 0.0
            n_augmented[q] = 0
            continue
        if _rank2(&g[lo], &b[lo], &c[lo], &a[lo], l, &W, &position[lo], &n_augmented[q]) < 0:
            _free(&W)
            return -(3 + q)
        s = 0.0
        for i in range(l):
            s = s + (c[lo + position[lo + i]] * g[lo + i] - a[lo + position[lo + i]] * b[lo + i])
        value[q] = s
    _free(&W)
    return 0

