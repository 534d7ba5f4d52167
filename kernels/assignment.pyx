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
columns (``_augment``) followed by the dual update and the flip of the path.  At the end every
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
distances (Crouse); that only affects speed now.
"""
from libc.math cimport INFINITY, fabs
from libc.float cimport DBL_EPSILON, DBL_MAX
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc


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
    double* spc                # shortest path costs to the columns
    Py_ssize_t* path           # predecessor row of each column
    Py_ssize_t* col4row
    Py_ssize_t* row4col
    Py_ssize_t* remaining
    Py_ssize_t* sr_list        # rows scanned by the current search
    Py_ssize_t* sc_list        # columns settled by the current search
    Py_ssize_t* order          # rank-2: documents by decreasing g; dense: free rows
    Py_ssize_t* tmp            # merge sort scratch
    Py_ssize_t* stamp          # canonical pass: the row whose search last visited a column
    char* SR
    char* fixed                # canonical pass: columns of the rows already made canonical


cdef inline double _k2(const Problem* P, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    """One entry of the rank-2 cost, always computed by the same expression."""
    return P.a[j] * P.b[i] - P.c[j] * P.g[i]


cdef Py_ssize_t _augment(Problem* P, Py_ssize_t nc, Py_ssize_t cur, Work* W) noexcept nogil:
    """Assign free row ``cur`` along a shortest augmenting path (Dijkstra on reduced costs),
    update the duals and flip the path.  Returns 0, or -1 if no finite path exists."""
    cdef double* u = W.u
    cdef double* v = W.v
    cdef double* spc = W.spc
    cdef Py_ssize_t* row4col = W.row4col
    cdef Py_ssize_t* col4row = W.col4row
    cdef Py_ssize_t* remaining = W.remaining
    cdef Py_ssize_t num_rem = nc, n_sr = 0, n_sc = 0, it, index, j, i, sink = -1, tmp
    cdef double min_val = 0.0, lowest, r, h, s, bi, gi
    cdef const double* row
    for j in range(nc):
        remaining[j] = j
        spc[j] = INFINITY
    i = cur
    while sink == -1:
        W.SR[i] = 1
        W.sr_list[n_sr] = i
        n_sr += 1
        h = min_val - u[i]
        index = -1
        lowest = INFINITY
        if P.rank2 == 0:
            row = P.C + i * nc
            for it in range(num_rem):
                j = remaining[it]
                r = row[j] + h - v[j]
                if r < spc[j]:
                    W.path[j] = i
                    spc[j] = r
                s = spc[j]
                if s < lowest or (s == lowest and row4col[j] == -1):
                    lowest = s
                    index = it
        else:                  # rank-2 entries computed on the fly, as _k2 does
            bi = P.b[i]
            gi = P.g[i]
            for it in range(num_rem):
                j = remaining[it]
                r = (P.a[j] * bi - P.c[j] * gi) + h - v[j]
                if r < spc[j]:
                    W.path[j] = i
                    spc[j] = r
                s = spc[j]
                if s < lowest or (s == lowest and row4col[j] == -1):
                    lowest = s
                    index = it
        if index < 0 or lowest == INFINITY:
            for it in range(n_sr):
                W.SR[W.sr_list[it]] = 0
            return -1
        min_val = lowest
        j = remaining[index]
        W.sc_list[n_sc] = j
        n_sc += 1
        num_rem -= 1
        remaining[index] = remaining[num_rem]
        if row4col[j] == -1:
            sink = j
        else:
            i = row4col[j]
    # dual update (Crouse 2016, Alg. 4, lines 11-13)
    u[cur] += min_val
    for it in range(n_sr):
        i = W.sr_list[it]
        W.SR[i] = 0
        if i != cur:
            u[i] += min_val - spc[col4row[i]]
    for it in range(n_sc):
        j = W.sc_list[it]
        v[j] -= min_val - spc[j]
    # flip the alternating path
    j = sink
    while True:
        i = W.path[j]
        row4col[j] = i
        tmp = col4row[i]
        col4row[i] = j
        j = tmp
        if i == cur:
            break
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


cdef bint _rematch(const Problem* P, Py_ssize_t nr, Py_ssize_t nc, Work* W, Py_ssize_t i,
                   Py_ssize_t j, double tol) noexcept nogil:
    """Can row i take column j (of the optimal face) while every row after i keeps one?  A
    breadth-first search for an alternating cycle of tight edges from j's owner back to i's
    column over the columns not fixed; if found, the cycle is flipped.  Columns reached are
    stamped with i: a column reached once in a failed search of row i cannot reach its
    column later either, so each column is scanned at most once per row."""
    cdef Py_ssize_t m = W.col4row[i], head = 0, tail = 0, k, j2, jj, old
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
        for j2 in range(nc):
            if k >= nr:
                if -v[j2] > tol:
                    continue
            elif P.rank2:
                if P.a[j2] * P.b[k] - P.c[j2] * P.g[k] - v[j2] > thr:
                    continue
            elif P.C[k * nc + j2] - v[j2] > thr:
                continue
            if fixed[j2] or stamp[j2] == i:
                continue
            stamp[j2] = i
            pred[j2] = k
            if j2 == m:
                found = 1
                break
            queue[tail] = W.row4col[j2]
            tail += 1
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
    (every entry equal costs O(nr·nc): each search ends at the first row it scans)."""
    cdef Py_ssize_t i, j, m, d = nr
    cdef double thr
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
        if P.rank2:
            gi = P.g[i]
            bi = P.b[i]
            for j in range(m):
                if (P.a[j] * bi - P.c[j] * gi - v[j] > thr or W.fixed[j]
                        or W.stamp[j] == i):
                    continue
                if _rematch(P, nr, nc, W, i, j, tol):
                    break
        else:
            row = P.C + i * nc
            for j in range(m):
                if row[j] - v[j] > thr or W.fixed[j] or W.stamp[j] == i:
                    continue
                if _rematch(P, nr, nc, W, i, j, tol):
                    break
        W.fixed[W.col4row[i]] = 1


cdef Py_ssize_t _jv_init(const double* C, Py_ssize_t n, Work* W) noexcept nogil:
    """Jonker-Volgenant initialisation of a square problem: column reduction, reduction
    transfer and two rounds of augmenting row reduction.  Leaves duals (u, v) certifying the
    partial assignment (assigned column = a minimum of the row's reduced costs) and the free
    rows in ``W.order``; returns their number."""
    cdef double* v = W.v
    cdef double* u = W.u
    cdef Py_ssize_t* x = W.col4row
    cdef Py_ssize_t* y = W.row4col
    cdef Py_ssize_t* free_rows = W.order
    cdef Py_ssize_t* matches = W.remaining          # scratch
    cdef Py_ssize_t i, j, j1, j2, imin, i0, k, numfree, prvnumfree, loopcnt, guard, jb
    cdef double mn, h, umin, usubmin, h0, h1, h2, h3
    cdef const double* row
    for i in range(n):
        matches[i] = 0
        x[i] = -1
    # column reduction: v_j = min_i K_ij (first minimising row), scanned row by row for the
    # cache; then, in decreasing column order as JV, a row keeps the first column it minimises
    for j in range(n):
        v[j] = INFINITY
        y[j] = 0
    for i in range(n):
        row = C + i * n
        for j in range(n):
            if row[j] < v[j]:
                v[j] = row[j]
                y[j] = i
    j = n - 1
    while j >= 0:
        imin = y[j]
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
            mn = INFINITY
            for j in range(j1):
                h = row[j] - v[j]
                if h < mn:
                    mn = h
            for j in range(j1 + 1, n):
                h = row[j] - v[j]
                if h < mn:
                    mn = h
            if mn < INFINITY:
                v[j1] = v[j1] - mn
    # augmenting row reduction, two rounds; a guard (3n + 64 row scans in all) bounds
    # the long reassignment chains that near-ties cause (the rows left go to augmentation)
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
            umin = row[0] - v[0]
            j1 = 0
            j2 = -1
            usubmin = INFINITY
            j = 1
            while j + 4 <= n:                # blocks of 4: one branch unless one may count
                h0 = row[j] - v[j]
                h1 = row[j + 1] - v[j + 1]
                h2 = row[j + 2] - v[j + 2]
                h3 = row[j + 3] - v[j + 3]
                if h1 < h0:
                    h0 = h1
                if h3 < h2:
                    h2 = h3
                if h2 < h0:
                    h0 = h2
                if h0 < usubmin:
                    for jb in range(j, j + 4):
                        h = row[jb] - v[jb]
                        if h < usubmin:
                            if h >= umin:
                                usubmin = h
                                j2 = jb
                            else:
                                usubmin = umin
                                umin = h
                                j2 = j1
                                j1 = jb
                j += 4
            while j < n:
                h = row[j] - v[j]
                if h < usubmin:
                    if h >= umin:
                        usubmin = h
                        j2 = j
                    else:
                        usubmin = umin
                        umin = h
                        j2 = j1
                        j1 = j
                j += 1
            i0 = y[j1]
            if umin < usubmin:
                v[j1] = v[j1] - (usubmin - umin)
            elif i0 > -1 and j2 >= 0:
                j1 = j2
                i0 = y[j2]
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
    cdef char* block = <char*> malloc(n * (4 * sizeof(double) + 9 * sizeof(Py_ssize_t) + 2) + 64)
    W.u = <double*> block
    if block == NULL:
        return -1
    W.v = W.u + n
    W.spc = W.v + n
    W.path = <Py_ssize_t*> (W.spc + n)
    W.col4row = W.path + n
    W.row4col = W.col4row + n
    W.remaining = W.row4col + n
    W.sr_list = W.remaining + n
    W.sc_list = W.sr_list + n
    W.order = W.sc_list + n
    W.tmp = W.order + n
    W.stamp = W.tmp + n
    W.SR = <char*> (W.stamp + n)
    W.fixed = W.SR + n
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
                       int64_t* out, double big, int has_inf) noexcept nogil:
    """Canonical minimum-cost assignment of every row of an nr×nc matrix (nr ≤ nc, entries
    finite or +inf = forbidden, ``big`` the largest finite magnitude); ``out[i]`` = the
    column of row i.  Returns 0 or -1 (no finite assignment)."""
    cdef Problem P
    cdef Py_ssize_t i, j, nfree, f
    P.rank2 = 0
    P.C = C
    P.nc = nc
    for j in range(nc):
        W.row4col[j] = -1
        W.v[j] = 0.0
    for i in range(nr):
        W.SR[i] = 0
    if nr == nc and not has_inf:            # (JV's reductions assume finite entries)
        nfree = _jv_init(C, nr, W)
    else:
        nfree = nr
        for i in range(nr):
            W.col4row[i] = -1
            W.u[i] = 0.0
            W.order[i] = i
    for f in range(nfree):
        if _augment(&P, nc, W.order[f], W) < 0:
            return -1
    _canonical(&P, nr, nc, W, _tolerance(big, nr, nc))
    for i in range(nr):
        out[i] = W.col4row[i]
    return 0


cdef void _argsort_desc(const double* key, Py_ssize_t n, Py_ssize_t* idx,
                        Py_ssize_t* tmp) noexcept nogil:
    """Stable merge sort of 0..n-1 by decreasing key (equal keys keep increasing index)."""
    cdef Py_ssize_t width = 1, lo, mid, hi, a, b, k, i
    for i in range(n):
        idx[i] = i
    while width < n:
        lo = 0
        while lo < n:
            mid = lo + width
            if mid > n:
                mid = n
            hi = lo + 2 * width
            if hi > n:
                hi = n
            a = lo
            b = mid
            k = lo
            while a < mid and b < hi:
                if key[idx[b]] > key[idx[a]]:
                    tmp[k] = idx[b]
                    b += 1
                else:
                    tmp[k] = idx[a]
                    a += 1
                k += 1
            while a < mid:
                tmp[k] = idx[a]
                a += 1
                k += 1
            while b < hi:
                tmp[k] = idx[b]
                b += 1
                k += 1
            lo = hi
        for i in range(n):
            idx[i] = tmp[i]
        width *= 2


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
    _argsort_desc(g, l, order, W.tmp)
    keep_tail = nT <= nR
    for i in range(l):
        W.SR[i] = 0
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
        status = _scan(&cost[0, 0], nr * nc, &big, &has_inf)
        if status == 0 and not big * (nr + nc + 2) < DBL_MAX:
            status = -5
    if status < 0:
        return status, 0.0
    with nogil:
        if _alloc(&W, nc) < 0:
            status = -2
        else:
            status = _dense(&cost[0, 0], nr, nc, &W, &col_for_row[0], big, has_inf)
            if status < 0:
                status = -3
            else:
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
    cdef Py_ssize_t T = cost_ptr.shape[0] - 1, t, nmax = 1, nr, nc, i
    cdef Work W
    cdef Py_ssize_t status = 0
    cdef double s, big
    cdef int has_inf
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
        if _alloc(&W, nmax) < 0:
            status = -2
        else:
            for t in range(T):
                value[t] = 0.0
                nr = n_rows[t]
                nc = n_cols[t]
                if nr == 0:
                    continue
                if _scan(&costs[cost_ptr[t]], nr * nc, &big, &has_inf) < 0:
                    status = -1
                    break
                if _dense(&costs[cost_ptr[t]], nr, nc, &W, &col_for_row[row_ptr[t]],
                          big, has_inf) < 0:
                    status = -(3 + t)
                    break
                s = 0.0
                for i in range(nr):
                    s = s + costs[cost_ptr[t] + i * nc + col_for_row[row_ptr[t] + i]]
                value[t] = s
        _free(&W)
    return status


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
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1, q, lo, l, i, nmax = 1, n = g.shape[0]
    cdef Work W
    cdef Py_ssize_t status = 0
    cdef double s
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
        if _alloc(&W, nmax) < 0:
            status = -2
        else:
            for q in range(Q):
                lo = query_ptr[q]
                l = query_ptr[q + 1] - lo
                if l == 0:
                    value[q] = 0.0
                    n_augmented[q] = 0
                    continue
                if _rank2(&g[lo], &b[lo], &c[lo], &a[lo], l, &W, &position[lo],
                          &n_augmented[q]) < 0:
                    status = -(3 + q)
                    break
                s = 0.0
                for i in range(l):
                    s = s + (c[lo + position[lo + i]] * g[lo + i]
                             - a[lo + position[lo + i]] * b[lo + i])
                value[q] = s
        _free(&W)
    return status

