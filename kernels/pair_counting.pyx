# cython: language_level=3
"""l_i^±, and sums of a vector over SV_i^±, without forming pairs (Lee & Lin 2014, supplement
Sec. II; main paper Sec. 3, Tree-TRON).

Kernel of ``repro.rankers.pair_counting`` (which checks the inputs, remaps the labels and
documents the conventions).  With ``z = Xw`` and, for document ``i`` of a query,

    SV_i^+ = { j | y_j > y_i, 1 - z_j + z_i > 0 }      (pairs (j, i) inside the margin)
    SV_i^- = { j | y_j < y_i, 1 - z_i + z_j > 0 }      (pairs (i, j) inside the margin)

every function here fills ``l_plus[i] = |SV_i^+|``, ``l_minus[i] = |SV_i^-|`` (if
``want_counts``), ``s_plus[i] = Σ_{j∈SV_i^+} v_j`` and ``s_minus[i] = Σ_{j∈SV_i^-} v_j``.
With ``v = z`` the sums are γ_i^± (function and gradient); with ``v = Xd`` they are
α_i^±(w, d) of (II.3) (Hessian-vector product).  The margin test is written
``1 - z_high + z_low > 0`` everywhere — the expression of the authors' tool — so that every
method and the O(l²) reference agree bit for bit on which pairs count.

Inputs, per document (global index): ``z``, ``v``, ``level`` (the document's relevance level
remapped to 0..k_q-1 within its query); per query: ``query_ptr`` offsets and ``n_levels``
(k_q); ``order``: for each query, its document indices sorted by ``z`` ascending (any order
among ties).  Outputs are caller-allocated, indexed by document.  Workspaces ``work_cnt`` /
``work_sum`` need at least max_q k_q entries (methods (a) and (c)).

Three methods (``method`` of ``count_all``, ``count_range`` and ``hv_range``), all O(l)
extra space at most:

(a) ``DIRECT``: the direct counting method of Sec. II.1: ascending sweep keeping
    count⁺(r) and xv⁺(r) for every level r of the documents below the bound ``z_i + 1``;
    l_i^+ = Σ_{r > y_i} count⁺(r) (II.2); a descending sweep for l_i^-.  O(l k) after the sort.
(b) ``JOACHIMS``: Algorithm (I) (Joachims 2006, Algorithm 2, rewritten by Lee & Lin),
    one pass over the query per level r, O(l k) time and O(l) space.  The loop over r runs over
    r = 1..k-1 (here 0..k_q-2): the printed "r = 2, …, k" leaves l^+ of level-1 documents unset
    and misses their contributions to l^- (a misprint; see the paper module).  The sums follow
    the same recursion: xv⁺ accumulates v_j as count⁺ does, and the running
    Σ_{s: y_s = r, z_s ≥ z_i} v_s starts at the level's total and drops by v_i as i moves.
(c) ``TREE``: order-statistic tree (Tree-TRON): the same two sweeps, inserting each
    document crossing the bound into a balanced binary search tree keyed by level whose nodes
    keep the count and the sum of their subtree; "how many / what sum above (below) y_i" is one
    root-to-node walk.  The keys (the query's k_q levels) are known before the sweep, so the
    tree is built perfectly balanced (node of key range [lo, hi) is mid = (lo + hi) // 2) and
    never needs rebalancing: O(log k_q) ≤ O(log l) per insertion or query, O(l log l) per
    evaluation with the sort, independent of k.

Every method also runs on a range of whole queries (``count_range``, ``sort_query_range``,
``hv_range``; ``count_all`` and ``sort_within_queries`` are the range 0:Q), with the same
arithmetic per query, so any partition of the queries into ranges — e.g. blocks worked by
several threads — gives the same values bit for bit.  ``hv_prepare`` / ``hv_range_prepared``
replay the tree's sweeps at a fixed point for the Hessian-vector products (same sums, fewer
operations).  ``fun_blocks_fused`` / ``hv_blocks_fused`` do whole blocks of a large dense X (the
wrapper's blocked path) query by query in one pass: Xw or Xd of the query's rows, the sort and
counts (or the replayed sweeps), u, and Σ u_i x_i into the block's partial sum while the rows
are in cache — X read once per evaluation, no Python between blocks.

``sort_within_queries`` is the one sort per function evaluation (stable merge sort of each
query's indices by z; adaptive: an ``order`` already sorted costs O(l)).

Every ``def`` checks the array lengths at entry in O(1) and returns -1, writing nothing, if
they are inconsistent; the workspaces are checked against k_q before each query (return -1
there, the earlier queries written).  With bounds checks off a mis-sized array would otherwise
read or write out of bounds.  The wrapper turns -1 into ``ValueError``.  Values (labels remapped to 0..k_q-1,
``order`` a permutation of each query, ``query_ptr`` non-decreasing) are the wrapper's job.
"""
from libc.stdint cimport int32_t, int64_t

from simd2 cimport pd2, pd2_add, pd2_loadu, pd2_mul, pd2_set1, pd2_storeu, pd2_sum, pd2_zero
from stable_sort cimport stable_argsort


# --- the one sort per evaluation --------------------------------------------------------------

cdef void _sort_range(const double* z, const int64_t* qp, int64_t* order, int64_t* buf,
                      Py_ssize_t q0, Py_ssize_t q1) noexcept nogil:
    cdef Py_ssize_t q
    for q in range(q0, q1):
        stable_argsort(z, order, buf, qp[q], qp[q + 1], False, NULL)


def sort_within_queries(const double[::1] z, const int64_t[::1] query_ptr, int64_t[::1] order,
                        int64_t[::1] buf):
    """Sort ``order[a:b]`` (document indices of query q = [a, b)) by ``z``, ascending, stably,
    for every query.  ``buf``: workspace of the same length.  Returns 0, or -1 if the shapes
    are inconsistent."""
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1
    return sort_query_range(z, query_ptr, order, buf, 0, Q)


def sort_query_range(const double[::1] z, const int64_t[::1] query_ptr, int64_t[::1] order,
                     int64_t[::1] buf, Py_ssize_t q0, Py_ssize_t q1):
    """:func:`sort_within_queries` for the queries ``q0:q1`` only (their documents
    ``query_ptr[q0]:query_ptr[q1]`` of ``order`` and ``buf``; nothing else is touched, so
    disjoint query ranges can be sorted at the same time).  Returns 0, or -1 if the shapes
    are inconsistent."""
    cdef Py_ssize_t n = z.shape[0]
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1
    if (Q < 0 or order.shape[0] != n or buf.shape[0] != n or query_ptr[0] != 0
            or query_ptr[Q] != n or q0 < 0 or q1 > Q or q0 > q1):
        return -1
    if n == 0 or q0 == q1:
        return 0
    with nogil:
        _sort_range(&z[0], &query_ptr[0], &order[0], &buf[0], q0, q1)
    return 0


# --- shape checks ------------------------------------------------------------------------------

cdef inline bint _bad_shapes(const double[::1] z, const double[::1] v,
                             const int32_t[::1] level, const int32_t[::1] n_levels,
                             const int64_t[::1] query_ptr, const int64_t[::1] order,
                             int64_t[::1] l_plus, int64_t[::1] l_minus,
                             double[::1] s_plus, double[::1] s_minus) noexcept:
    """True if the per-document arrays do not all have length n = len(z), ``n_levels`` is not
    one per query or ``query_ptr`` does not span [0, n]: O(1)."""
    cdef Py_ssize_t n = z.shape[0]
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1
    return (Q < 0 or n_levels.shape[0] != Q or query_ptr[0] != 0 or query_ptr[Q] != n
            or v.shape[0] != n or level.shape[0] != n or order.shape[0] != n
            or l_plus.shape[0] != n or l_minus.shape[0] != n
            or s_plus.shape[0] != n or s_minus.shape[0] != n)


# Per-query counting, on raw pointers.  ``z``, ``level`` and ``order`` are indexed by global
# document index; ``v`` and the outputs ``lp``, ``lm``, ``sp``, ``sm`` by global index minus
# ``base`` (a block of whole queries starting at document ``base``).  ``lp``/``lm`` are only
# touched if ``want_counts``.  Each returns Σ l_i^- of the query (0 without counts).

DIRECT, JOACHIMS, TREE = 0, 1, 2         # ``method`` of count_range and hv_range


# --- (a) direct counting, Sec. II.1 ----------------------------------------------------------

# The two sweeps are :func:`_sweep_query` (below, with the tree's): per level, count⁺(r) and
# xv⁺(r) of the documents swept in, summed over the levels above (II.2) or below a document's.


def direct_count_trace(const double[::1] z, const int32_t[::1] level, Py_ssize_t k,
                       int64_t[:, ::1] count_plus, int64_t[::1] l_plus):
    """The ascending sweep of Sec. II.1 on one query whose documents are already sorted by z
    (the worked example): ``count_plus[i, r]`` = count⁺(r) when the sweep is at i, and
    ``l_plus[i]`` by (II.2).  Returns 0, or -1 if the shapes are inconsistent."""
    cdef Py_ssize_t n = z.shape[0]
    cdef Py_ssize_t i, j = 0, r
    cdef int64_t c
    if (n < 1 or k < 0 or level.shape[0] != n or l_plus.shape[0] != n
            or count_plus.shape[0] != n or count_plus.shape[1] != k):
        return -1
    with nogil:
        for r in range(k):
            count_plus[0, r] = 0
        for i in range(n):
            if i > 0:
                for r in range(k):
                    count_plus[i, r] = count_plus[i - 1, r]
            while j < n and 1.0 - z[j] + z[i] > 0:
                count_plus[i, level[j]] += 1
                j += 1
            c = 0
            for r in range(level[i] + 1, k):
                c += count_plus[i, r]
            l_plus[i] = c
    return 0


# --- (b) Joachims (2006), Algorithm (I) --------------------------------------------------------

cdef int64_t _joachims_query(const double* z, const double* v, const int32_t* level,
                             const int64_t* order, Py_ssize_t a, Py_ssize_t n, Py_ssize_t k,
                             bint want_counts, Py_ssize_t base, int64_t* l_plus,
                             int64_t* l_minus, double* s_plus, double* s_minus) noexcept nogil:
    cdef Py_ssize_t r, i, j, oi, oj
    cdef int64_t cplus, cminus, total = 0
    cdef double splus, sminus
    for i in range(a, a + n):                      # step 1
        if want_counts:
            l_plus[i - base] = 0
            l_minus[i - base] = 0
        s_plus[i - base] = 0.0
        s_minus[i - base] = 0.0
    for r in range(k - 1):                         # step 4 (r = 1..k-1, 1-based)
        j = 0                                      # step 4.1
        cplus = 0
        splus = 0.0
        cminus = 0
        sminus = 0.0
        for i in range(a, a + n):
            if level[i] == r:
                cminus += 1
                sminus += v[i - base]
        for i in range(n):                         # step 4.2
            oi = order[a + i]
            if level[oi] != r:
                continue
            while j < n and 1.0 - z[order[a + j]] + z[oi] > 0:   # step a
                oj = order[a + j]
                if level[oj] > r:
                    cplus += 1
                    splus += v[oj - base]
                    if want_counts:
                        l_minus[oj - base] += cminus
                    s_minus[oj - base] += sminus
                j += 1
            if want_counts:                        # step b
                l_plus[oi - base] = cplus
            s_plus[oi - base] = splus
            cminus -= 1                            # step c
            sminus -= v[oi - base]
    if want_counts:
        for i in range(a, a + n):
            total += l_minus[i - base]
    return total


# --- (c) order-statistic tree -------------------------------------------------------------------

cdef inline void _tree_insert(int64_t* cnt, double* sm, Py_ssize_t k, Py_ssize_t key,
                              double value) noexcept nogil:
    """Insert an item of ``key`` and ``value``: the count (unless ``cnt`` is NULL) and sum of
    every node on its path grow."""
    cdef Py_ssize_t lo = 0, hi = k, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if cnt != NULL:
            cnt[mid] += 1
        sm[mid] += value
        if key == mid:
            return
        if key < mid:
            hi = mid
        else:
            lo = mid + 1


cdef inline Py_ssize_t _child(bint left, Py_ssize_t lo, Py_ssize_t mid,
                             Py_ssize_t hi) noexcept nogil:
    """The left (right) child of node ``mid`` of key range [lo, hi), -1 if it has none."""
    if left:
        return (lo + mid) >> 1 if lo < mid else -1
    return (mid + 1 + hi) >> 1 if mid + 1 < hi else -1


cdef inline void _tree_side(bint above, const int64_t* cnt, const double* sm, Py_ssize_t k,
                            Py_ssize_t key, int64_t *c_out, double *s_out) noexcept nogil:
    """Count and sum of the inserted items with key > ``key`` (``above``) or key < ``key``,
    on the walk to ``key``'s node: a node on the wanted side of ``key`` adds its subtree minus
    its child on ``key``'s side; ``key``'s node adds its child on the wanted side.  ``cnt``
    NULL: the sum only (``c_out`` left alone).  ``above`` is a constant at each call site."""
    cdef Py_ssize_t lo = 0, hi = k, mid, ch
    cdef int64_t c = 0
    cdef double s = 0.0
    while lo < hi:
        mid = (lo + hi) >> 1
        if key == mid:
            ch = _child(not above, lo, mid, hi)
            if ch >= 0:
                if cnt != NULL:
                    c += cnt[ch]
                s += sm[ch]
            break
        if (key < mid) == above:
            if cnt != NULL:
                c += cnt[mid]
            s += sm[mid]
            ch = _child(key < mid, lo, mid, hi)
            if ch >= 0:
                if cnt != NULL:
                    c -= cnt[ch]
                s -= sm[ch]
        if key < mid:
            hi = mid
        else:
            lo = mid + 1
    if cnt != NULL:
        c_out[0] = c
    s_out[0] = s


cdef inline bint _in_margin(bint up, const double* z, Py_ssize_t oi,
                            Py_ssize_t oj) noexcept nogil:
    """Whether the sweep at document ``oi`` takes document ``oj`` in: the pair (high, low) =
    (oj, oi) in the ascending sweep (``up``), (oi, oj) in the descending one, is inside the
    margin, ``1 - z_high + z_low > 0`` (the one expression of every method)."""
    if up:
        return 1.0 - z[oj] + z[oi] > 0
    return 1.0 - z[oi] + z[oj] > 0


cdef inline int64_t _sweep(bint up, bint tree, const double* z, const double* v,
                           const int32_t* level, const int64_t* order, Py_ssize_t a,
                           Py_ssize_t n, Py_ssize_t k, bint want_counts, Py_ssize_t base,
                           int64_t* l_out, double* s_out, int64_t* cnt,
                           double* sm) noexcept nogil:
    """One sweep of :func:`_sweep_query`: ascending (``up``: l_i^+, γ_i^+ from the levels
    above y_i) or descending (l_i^-, γ_i^- from the levels below), into ``l_out`` (if
    ``want_counts``) and ``s_out``.  Returns the sum of the counts written (0 without)."""
    cdef Py_ssize_t r, t, i, j, oi, oj, yi, step = 1 if up else -1
    cdef int64_t c = 0, total = 0
    cdef double s
    for r in range(k):
        cnt[r] = 0
        sm[r] = 0.0
    j = 0 if up else n - 1
    for t in range(n):
        i = t if up else n - 1 - t
        oi = order[a + i]
        while (j < n if up else j >= 0) and _in_margin(up, z, oi, order[a + j]):
            oj = order[a + j]
            if tree:
                _tree_insert(cnt, sm, k, level[oj], v[oj - base])
            else:
                cnt[level[oj]] += 1
                sm[level[oj]] += v[oj - base]
            j += step
        yi = level[oi]
        if tree:
            _tree_side(up, cnt, sm, k, yi, &c, &s)
        else:
            c = 0
            s = 0.0
            for r in range(yi + 1 if up else 0, k if up else yi):      # (II.2)
                c += cnt[r]
                s += sm[r]
        if want_counts:
            l_out[oi - base] = c
            total += c
        s_out[oi - base] = s
    return total


cdef inline int64_t _sweep_query(bint tree, const double* z, const double* v,
                                 const int32_t* level, const int64_t* order, Py_ssize_t a,
                                 Py_ssize_t n, Py_ssize_t k, bint want_counts, Py_ssize_t base,
                                 int64_t* l_plus, int64_t* l_minus, double* s_plus,
                                 double* s_minus, int64_t* cnt, double* sm) noexcept nogil:
    """Sec. II.1's ascending sweep over {j | 1 - z_j + z_i > 0} (l_i^+, γ_i^+) and descending
    sweep over {j | 1 - z_i + z_j > 0} (l_i^-, γ_i^-) of one query, the documents swept in
    kept by level in ``cnt``/``sm`` (k of each): (a) ``tree`` False, per level, a document's
    counts summed over the levels above or below it (O(k)); (c) ``tree`` True, in the
    order-statistic tree (O(log k)).  ``tree`` is a constant at each call site."""
    cdef Py_ssize_t i
    if tree and k < 2:                         # no pairs in this query
        for i in range(a, a + n):
            if want_counts:
                l_plus[i - base] = 0
                l_minus[i - base] = 0
            s_plus[i - base] = 0.0
            s_minus[i - base] = 0.0
        return 0
    _sweep(True, tree, z, v, level, order, a, n, k, want_counts, base, l_plus, s_plus, cnt, sm)
    return _sweep(False, tree, z, v, level, order, a, n, k, want_counts, base, l_minus,
                  s_minus, cnt, sm)


# --- every method over a range of whole queries -----------------------------------------------

cdef int64_t _count_range(int method, const double* z, const double* v, const int32_t* level,
                          const int32_t* n_levels, const int64_t* qp, const int64_t* order,
                          Py_ssize_t q0, Py_ssize_t q1, bint want_counts, int64_t* lp,
                          int64_t* lm, double* sp, double* sm, int64_t* wc, double* ws,
                          Py_ssize_t kw) noexcept nogil:
    """Method ``method`` (0 direct, 1 joachims, 2 tree) on queries q0:q1, outputs relative to
    ``qp[q0]``.  Σ l_i^- (0 without counts), or -1 at the first query whose k_q exceeds the
    workspace ``kw`` (methods (a) and (c); the earlier queries written)."""
    cdef Py_ssize_t q, a, n, k
    cdef Py_ssize_t base = qp[q0]
    cdef int64_t total = 0
    for q in range(q0, q1):
        a = qp[q]
        n = qp[q + 1] - a
        k = n_levels[q]
        if method == 1:
            total += _joachims_query(z, v, level, order, a, n, k, want_counts, base,
                                     lp, lm, sp, sm)
            continue
        if k > kw:
            return -1
        if method == 0:
            total += _sweep_query(False, z, v, level, order, a, n, k, want_counts, base,
                                  lp, lm, sp, sm, wc, ws)
        else:
            total += _sweep_query(True, z, v, level, order, a, n, k, want_counts, base,
                                  lp, lm, sp, sm, wc, ws)
    return total


cdef inline Py_ssize_t _work_len(const int64_t[::1] work_cnt,
                                const double[::1] work_sum) noexcept:
    """The levels the workspaces of methods (a) and (c) hold: the shorter one's length."""
    return work_cnt.shape[0] if work_cnt.shape[0] < work_sum.shape[0] else work_sum.shape[0]


def count_all(int method, const double[::1] z, const double[::1] v, const int32_t[::1] level,
              const int32_t[::1] n_levels, const int64_t[::1] query_ptr,
              const int64_t[::1] order, bint want_counts,
              int64_t[::1] l_plus, int64_t[::1] l_minus,
              double[::1] s_plus, double[::1] s_minus,
              int64_t[::1] work_cnt, double[::1] work_sum):
    """Method ``method`` (``DIRECT``, ``JOACHIMS``, ``TREE``) on the whole set: every query,
    the arithmetic of :func:`count_range`, the outputs indexed by document.  ``work_cnt`` /
    ``work_sum``: at least max k_q entries for (a) and (c); (b) needs no per-level arrays
    (O(l) space) and leaves them alone (they may be empty).  Returns the number of pairs
    inside the margin (Σ l_i^-) if ``want_counts``, else 0; -1 if the shapes are
    inconsistent or ``method`` is unknown (nothing written, or, for a workspace shorter than
    a query's k_q, the queries before it)."""
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1, kw = _work_len(work_cnt, work_sum)
    cdef int64_t total
    if (_bad_shapes(z, v, level, n_levels, query_ptr, order, l_plus, l_minus, s_plus, s_minus)
            or not 0 <= method <= 2 or (method != 1 and kw < 1 and z.shape[0] > 0)):
        return -1
    if z.shape[0] == 0:
        return 0
    if method == 1:
        kw = 0
    with nogil:
        total = _count_range(method, &z[0], &v[0], &level[0], &n_levels[0], &query_ptr[0],
                             &order[0], 0, Q, want_counts, &l_plus[0], &l_minus[0],
                             &s_plus[0], &s_minus[0], &work_cnt[0] if kw > 0 else NULL,
                             &work_sum[0] if kw > 0 else NULL, kw)
    return total


cdef bint _bad_range(const double[::1] z, const int32_t[::1] level,
                     const int32_t[::1] n_levels, const int64_t[::1] query_ptr,
                     const int64_t[::1] order, Py_ssize_t q0, Py_ssize_t q1) noexcept:
    cdef Py_ssize_t n = z.shape[0]
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1
    return (Q < 0 or n_levels.shape[0] != Q or query_ptr[0] != 0 or query_ptr[Q] != n
            or level.shape[0] != n or order.shape[0] != n or q0 < 0 or q1 > Q or q0 > q1)


cpdef int64_t count_range(int method, const double[::1] z, const double[::1] v,
                          const int32_t[::1] level, const int32_t[::1] n_levels,
                          const int64_t[::1] query_ptr, const int64_t[::1] order,
                          Py_ssize_t q0, Py_ssize_t q1, bint want_counts,
                          int64_t[::1] l_plus, int64_t[::1] l_minus,
                          double[::1] s_plus, double[::1] s_minus,
                          int64_t[::1] work_cnt, double[::1] work_sum):
    """Method ``method`` (``DIRECT``, ``JOACHIMS``, ``TREE``) on the queries ``q0:q1`` only,
    the same arithmetic per query as :func:`count_all` (so any partition into query
    ranges gives the same values, bit for bit).  ``z``, ``level``, ``order`` (global
    document indices), ``n_levels`` and ``query_ptr`` are those of the whole set; ``v`` and
    the outputs are those of the range's documents only, indexed from ``query_ptr[q0]`` (at
    least ``query_ptr[q1] - query_ptr[q0]`` long; ``l_plus``/``l_minus`` are not touched and
    may be empty without ``want_counts``).  Nothing outside the range is read or written, so
    disjoint ranges may run at the same time (each with its own workspaces).  Returns
    Σ l_i^- over the range (0 without counts), or -1 if the shapes are inconsistent."""
    cdef Py_ssize_t nb, kw = _work_len(work_cnt, work_sum)
    cdef int64_t total
    if _bad_range(z, level, n_levels, query_ptr, order, q0, q1) or not 0 <= method <= 2:
        return -1
    nb = query_ptr[q1] - query_ptr[q0]
    if (v.shape[0] < nb or s_plus.shape[0] < nb or s_minus.shape[0] < nb
            or (want_counts and (l_plus.shape[0] < nb or l_minus.shape[0] < nb))
            or (method != 1 and kw < 1 and nb > 0)):
        return -1
    if nb == 0:
        return 0
    with nogil:
        total = _count_range(method, &z[0], &v[0], &level[0], &n_levels[0], &query_ptr[0],
                             &order[0], q0, q1, want_counts,
                             &l_plus[0] if want_counts else NULL,
                             &l_minus[0] if want_counts else NULL,
                             &s_plus[0], &s_minus[0],
                             &work_cnt[0] if kw > 0 else NULL,
                             &work_sum[0] if kw > 0 else NULL, kw)
    return total


def hv_range(int method, const double[::1] z, const double[::1] xd,
             const int32_t[::1] level, const int32_t[::1] n_levels,
             const int64_t[::1] query_ptr, const int64_t[::1] order, const double[::1] lsum,
             Py_ssize_t q0, Py_ssize_t q1, double[::1] s_plus, double[::1] s_minus,
             double[::1] u, int64_t[::1] work_cnt, double[::1] work_sum):
    """The vector of the generalized Hessian-vector product for the queries ``q0:q1``:
    α_i^± (sums of ``xd`` = Xd over SV_i^± as :func:`count_range` computes them, into
    ``s_plus`` and ``s_minus``), then ``u_i = lsum_i·xd_i − α_i^+ − α_i^-`` (``lsum`` =
    l^+ + l^- of the point as float64, whole set) in that order of operations, so that ``u``
    equals NumPy's ``(l_plus + l_minus) * xd - s_plus - s_minus`` bit for bit.  ``xd``,
    ``s_plus``, ``s_minus`` and ``u`` are indexed from ``query_ptr[q0]`` as in
    :func:`count_range`.  Returns 0, or -1 if the shapes are inconsistent."""
    cdef Py_ssize_t i, nb, base
    if _bad_range(z, level, n_levels, query_ptr, order, q0, q1) or lsum.shape[0] != z.shape[0]:
        return -1
    base = query_ptr[q0]
    nb = query_ptr[q1] - base
    if (u.shape[0] < nb or count_range(method, z, xd, level, n_levels, query_ptr, order, q0, q1,
                                       False, work_cnt[:0], work_cnt[:0], s_plus, s_minus,
                                       work_cnt, work_sum) < 0):
        return -1
    with nogil:
        for i in range(nb):
            u[i] = lsum[base + i] * xd[i] - s_plus[i] - s_minus[i]
    return 0


def sum_rows(const double[:, ::1] P, double[::1] out):
    """``out = P[0] + P[1] + …`` summed row after row from 0.0 (the order of
    ``acc = zeros(); for p in P: acc += p``), whatever computed the rows.  Returns 0, or -1
    if the shapes are inconsistent."""
    cdef Py_ssize_t b, j, nb = P.shape[0], nf = P.shape[1]
    if out.shape[0] != nf:
        return -1
    with nogil:
        for j in range(nf):
            out[j] = 0.0
        for b in range(nb):
            for j in range(nf):
                out[j] += P[b, j]
    return 0


# --- Hessian-vector products at a fixed point, method (c) -------------------------------------
#
# Between two function evaluations every Hessian-vector product sweeps the same sorted order
# with the same margin tests; only the values v = Xd change.  ``hv_prepare`` records, once per
# point, each sorted position's level and where each sweep's insertion loop stops; then
# ``hv_range_prepared`` replays the sweeps of ``_sweep_query`` (tree) without the score comparisons
# (and without the counts, already known: the tree functions above with ``cnt`` NULL): the
# same insertions in the same order, so the same sums bit for bit.

# Small trees (k ≤ KTAB levels) without data-dependent branches: for each k and key, the
# nodes an insertion walks through (padded to the tree's depth with a sink node k that is
# never read) and the signed nodes a query adds up, in the walk's order (padded with +node
# k + 1, which stays 0.0).  Adding +0.0 leaves a sum unchanged unless it is -0.0, which these
# sums never are (they start at +0.0 and in round-to-nearest x + y or x − y is -0.0 only if x
# is), and s + (−1)·x is s − x: the same results as the walks above, bit for bit.
cdef enum:
    KTAB = 16
    DMAX = 5                 # depth of the balanced tree of 16 keys
    QMAX = 10                # 2 · DMAX signed terms per query at most

cdef int _tab_depth[KTAB + 1]
cdef int _tab_ins[KTAB + 1][KTAB + 1][DMAX]
cdef int _tab_above[KTAB + 1][KTAB + 1][QMAX]
cdef double _tab_above_sign[KTAB + 1][KTAB + 1][QMAX]
cdef int _tab_below[KTAB + 1][KTAB + 1][QMAX]
cdef double _tab_below_sign[KTAB + 1][KTAB + 1][QMAX]


def _walks(k, key):
    """The insertion path and the above / below terms of ``key`` in the tree of k keys (the
    walks of _tree_insert and _tree_side, written out)."""
    cdef int nodes[64]
    path = [nodes[t] for t in range(_walk(k, key, nodes))]
    above, lo, hi = [], 0, k
    while lo < hi:
        mid = (lo + hi) >> 1
        if key < mid:
            above.append((mid, 1.0))
            if lo < mid:
                above.append(((lo + mid) >> 1, -1.0))
            hi = mid
        elif key == mid:
            if mid + 1 < hi:
                above.append(((mid + 1 + hi) >> 1, 1.0))
            break
        else:
            lo = mid + 1
    below, lo, hi = [], 0, k
    while lo < hi:
        mid = (lo + hi) >> 1
        if key > mid:
            below.append((mid, 1.0))
            if mid + 1 < hi:
                below.append(((mid + 1 + hi) >> 1, -1.0))
            lo = mid + 1
        elif key == mid:
            if lo < mid:
                below.append(((lo + mid) >> 1, 1.0))
            break
        else:
            hi = mid
    return path, above, below


def _build_tables():
    cdef int k, key, t
    for k in range(2, KTAB + 1):
        walks = [_walks(k, key) for key in range(k)]
        depth = max(len(w[0]) for w in walks)
        walks.append(([], [], []))          # key k: no insertion (sink), no query (0.0)
        assert depth <= DMAX and max(max(len(w[1]), len(w[2])) for w in walks) <= 2 * depth
        _tab_depth[k] = depth
        for key in range(k + 1):
            path, above, below = walks[key]
            for t in range(DMAX):
                _tab_ins[k][key][t] = path[t] if t < len(path) else k
            for t in range(QMAX):
                _tab_above[k][key][t] = above[t][0] if t < len(above) else k + 1
                _tab_above_sign[k][key][t] = above[t][1] if t < len(above) else 1.0
                _tab_below[k][key][t] = below[t][0] if t < len(below) else k + 1
                _tab_below_sign[k][key][t] = below[t][1] if t < len(below) else 1.0


_build_tables()


cdef void _tree_hv_query(const double* v, const int32_t* lev, const int64_t* order,
                         const int64_t* up, const int64_t* down, Py_ssize_t a, Py_ssize_t n,
                         Py_ssize_t k, Py_ssize_t base, double* s_plus, double* s_minus,
                         double* sm) noexcept nogil:
    """The two sweeps of ``_sweep_query`` (tree; sums only) of one query from its recorded sweep
    stops (:func:`_hv_sweep`)."""
    cdef Py_ssize_t p
    if k < 2:
        for p in range(a, a + n):
            s_plus[p - base] = 0.0
            s_minus[p - base] = 0.0
        return
    _hv_sweep(True, v, lev, order, up, a, n, k, base, s_plus, sm)
    _hv_sweep(False, v, lev, order, down, a, n, k, base, s_minus, sm)


cdef inline double _small_tree_side(bint above, Py_ssize_t k, Py_ssize_t key, double r0,
                                    double r1, double r2) noexcept nogil:
    """Sum above (below) ``key`` in the tree of k = 2 or 3 keys from its node sums: r1 the
    root (every key), r0 node 0 (key 0), r2 node 2 (key 2, k = 3 only)."""
    if above:
        if k == 2:      # above(0) = root − node 0, above(1) = 0
            return ((0.0 + r1) - r0) if key == 0 else 0.0
        # above(0) = root − node 0, above(1) = node 2, above(2) = 0
        return ((0.0 + r1) - r0) if key == 0 else ((0.0 + r2) if key == 1 else 0.0)
    if k == 2:          # below(0) = 0, below(1) = node 0
        return (0.0 + r0) if key == 1 else 0.0
    # below(0) = 0, below(1) = node 0, below(2) = root − node 2
    return (0.0 + r0) if key == 1 else (((0.0 + r1) - r2) if key == 2 else 0.0)


cdef inline void _hv_sweep(bint asc, const double* v, const int32_t* lev, const int64_t* order,
                           const int64_t* stop, Py_ssize_t a, Py_ssize_t n, Py_ssize_t k,
                           Py_ssize_t base, double* s_out, double* sm) noexcept nogil:
    """One sweep of :func:`_tree_hv_query` (k ≥ 2), ascending (``asc``: sums above each
    document, from the stops ``up``) or descending (below, ``down``): k = 2 and 3 with the node
    sums in registers (the walks written out, branch-free), 4..KTAB from the tables, more
    levels by the tree walks.  ``asc`` is a constant at each call site."""
    cdef Py_ssize_t r, t, u, p, j, e, D, QL, key, step = 1 if asc else -1
    cdef double x, s, r0 = 0.0, r1 = 0.0, r2 = 0.0
    cdef double st[KTAB + 2]
    cdef const int* path
    cdef const int* nodes
    cdef const double* sign
    j = a if asc else a + n - 1
    if k <= 3:
        for t in range(n):
            p = a + t if asc else a + n - 1 - t
            e = stop[p]
            while (j < e if asc else j > e):
                x = v[order[j] - base]
                key = lev[j]
                r1 += x
                r0 += x if key == 0 else 0.0
                r2 += x if key == 2 else 0.0
                j += step
            s_out[order[p] - base] = _small_tree_side(asc, k, lev[p], r0, r1, r2)
    elif k <= KTAB:
        D = _tab_depth[k]
        QL = 2 * D
        for r in range(k + 2):
            st[r] = 0.0
        for t in range(n):
            p = a + t if asc else a + n - 1 - t
            e = stop[p]
            while (j < e if asc else j > e):
                x = v[order[j] - base]
                path = &_tab_ins[k][lev[j]][0]
                for u in range(D):
                    st[path[u]] += x
                j += step
            key = lev[p]
            nodes = &_tab_above[k][key][0] if asc else &_tab_below[k][key][0]
            sign = &_tab_above_sign[k][key][0] if asc else &_tab_below_sign[k][key][0]
            s = 0.0
            for u in range(QL):
                s = s + sign[u] * st[nodes[u]]
            s_out[order[p] - base] = s
    else:
        for r in range(k):
            sm[r] = 0.0
        for t in range(n):
            p = a + t if asc else a + n - 1 - t
            e = stop[p]
            while (j < e if asc else j > e):
                _tree_insert(NULL, sm, k, lev[j], v[order[j] - base])
                j += step
            _tree_side(asc, NULL, sm, k, lev[p], NULL, &s)
            s_out[order[p] - base] = s


def hv_prepare(const double[::1] z, const int32_t[::1] level, const int32_t[::1] n_levels,
               const int64_t[::1] query_ptr, const int64_t[::1] order, Py_ssize_t q0,
               Py_ssize_t q1, int32_t[::1] lev_sorted, int64_t[::1] up, int64_t[::1] down):
    """For the documents of queries ``q0:q1`` (global positions p of the sorted ``order``):
    ``lev_sorted[p] = level[order[p]]``, ``up[p]`` = the position where the ascending sweep's
    insertions stop before position p is queried, ``down[p]`` the same for the descending
    sweep (all three of length n, only the range written).  Returns 0, or -1 if the shapes
    are inconsistent."""
    cdef Py_ssize_t q, a, n, i, j
    if (_bad_range(z, level, n_levels, query_ptr, order, q0, q1)
            or lev_sorted.shape[0] != z.shape[0] or up.shape[0] != z.shape[0]
            or down.shape[0] != z.shape[0]):
        return -1
    with nogil:
        for q in range(q0, q1):
            a = query_ptr[q]
            n = query_ptr[q + 1] - a
            j = 0
            for i in range(n):
                lev_sorted[a + i] = level[order[a + i]]
                while j < n and 1.0 - z[order[a + j]] + z[order[a + i]] > 0:
                    j += 1
                up[a + i] = a + j
            j = n - 1
            for i in range(n - 1, -1, -1):
                while j >= 0 and 1.0 - z[order[a + i]] + z[order[a + j]] > 0:
                    j -= 1
                down[a + i] = a + j
    return 0


def hv_range_prepared(const double[::1] xd, const int32_t[::1] n_levels,
                      const int64_t[::1] query_ptr, const int64_t[::1] order,
                      const int32_t[::1] lev_sorted, const int64_t[::1] up,
                      const int64_t[::1] down, const double[::1] lsum, Py_ssize_t q0,
                      Py_ssize_t q1, double[::1] s_plus, double[::1] s_minus, double[::1] u,
                      double[::1] work_sum):
    """:func:`hv_range` for method (c) from the arrays of :func:`hv_prepare` at the same
    point (and ``order``): the same α^± and ``u``, bit for bit.  ``work_sum``: at least
    max k_q entries.  Returns 0, or -1 if the shapes are inconsistent."""
    cdef Py_ssize_t q, i, nb, base, n = order.shape[0], Q = query_ptr.shape[0] - 1
    if (Q < 0 or n_levels.shape[0] != Q or query_ptr[0] != 0 or query_ptr[Q] != n
            or q0 < 0 or q1 > Q or q0 > q1 or lev_sorted.shape[0] != n or up.shape[0] != n
            or down.shape[0] != n or lsum.shape[0] != n):
        return -1
    base = query_ptr[q0]
    nb = query_ptr[q1] - base
    if (xd.shape[0] < nb or s_plus.shape[0] < nb or s_minus.shape[0] < nb
            or u.shape[0] < nb):
        return -1
    if nb == 0:
        return 0
    for q in range(q0, q1):
        if n_levels[q] > KTAB and n_levels[q] > work_sum.shape[0]:
            return -1
    with nogil:
        for q in range(q0, q1):
            _tree_hv_query(&xd[0], &lev_sorted[0], &order[0], &up[0], &down[0],
                           query_ptr[q], query_ptr[q + 1] - query_ptr[q], n_levels[q], base,
                           &s_plus[0], &s_minus[0],
                           &work_sum[0] if work_sum.shape[0] > 0 else NULL)
        for i in range(nb):
            u[i] = lsum[base + i] * xd[i] - s_plus[i] - s_minus[i]
    return 0


cdef inline double _grad_u(int64_t lp, int64_t lm, double z, double sp, double sm) noexcept nogil:
    """One entry of the gradient's u, in NumPy's order of operations (see :func:`grad_u`)."""
    return ((<double>(lp + lm) * z - sp) - sm) - <double>(lm - lp)


def grad_u(const int64_t[::1] l_plus, const int64_t[::1] l_minus, const double[::1] z,
           const double[::1] s_plus, const double[::1] s_minus, double[::1] u):
    """The vector of the gradient, ``u = (l⁺ + l⁻)·z − γ⁺ − γ⁻ − (l⁻ − l⁺)``, in NumPy's
    order of operations (``(l_plus + l_minus) * z - s_plus - s_minus - (l_minus - l_plus)``,
    the integers converted to float64 where NumPy converts them), so bit for bit the same.
    All arrays of one length.  Returns 0, or -1 if the shapes are inconsistent."""
    cdef Py_ssize_t i, n = z.shape[0]
    if (l_plus.shape[0] != n or l_minus.shape[0] != n or s_plus.shape[0] != n
            or s_minus.shape[0] != n or u.shape[0] != n):
        return -1
    with nogil:
        for i in range(n):
            u[i] = _grad_u(l_plus[i], l_minus[i], z[i], s_plus[i], s_minus[i])
    return 0


# --- the blocked Hessian-vector product in one pass over X -------------------------------------

# SSE2 (simd2.pxd): each lane does exactly its scalar operation (a multiplication, then an
# addition; no fused multiply-add), so the sums below have one fixed order whatever compiles
# them.


cdef inline double _row_dot(const double* x, const double* d, Py_ssize_t n) noexcept nogil:
    """x·d in eight partial sums (element i in sum i mod 8 while eight remain; the rest in a
    scalar tail), added as ((s0+s1) + (s2+s3)) + ((s4+s5) + (s6+s7)) + tail: a fixed order."""
    cdef pd2 a0 = pd2_zero(), a1 = pd2_zero(), a2 = pd2_zero(), a3 = pd2_zero()
    cdef Py_ssize_t i = 0
    cdef double t = 0.0
    while i + 8 <= n:
        a0 = pd2_add(a0, pd2_mul(pd2_loadu(&x[i]), pd2_loadu(&d[i])))
        a1 = pd2_add(a1, pd2_mul(pd2_loadu(&x[i + 2]), pd2_loadu(&d[i + 2])))
        a2 = pd2_add(a2, pd2_mul(pd2_loadu(&x[i + 4]), pd2_loadu(&d[i + 4])))
        a3 = pd2_add(a3, pd2_mul(pd2_loadu(&x[i + 6]), pd2_loadu(&d[i + 6])))
        i = i + 8
    while i < n:
        t = t + x[i] * d[i]
        i = i + 1
    return ((pd2_sum(a0) + pd2_sum(a1)) + (pd2_sum(a2) + pd2_sum(a3))) + t


cdef inline void _row_axpy(double* acc, double u, const double* x, Py_ssize_t n) noexcept nogil:
    """acc[f] += u·x[f] for every f (two at a time; each element its own sum)."""
    cdef pd2 uu = pd2_set1(u)
    cdef Py_ssize_t f = 0
    while f + 2 <= n:
        pd2_storeu(&acc[f], pd2_add(pd2_loadu(&acc[f]), pd2_mul(uu, pd2_loadu(&x[f]))))
        f = f + 2
    if f < n:
        acc[f] = acc[f] + u * x[f]


cdef bint _bad_block_table(const int64_t[:, ::1] blocks, Py_ssize_t b0, Py_ssize_t b1,
                           const int64_t[::1] query_ptr, Py_ssize_t nf,
                           const double[:, ::1] P) noexcept:
    """Whether ``blocks[b0:b1]`` are not rows ``(a, b, qa, qb)`` of whole queries (documents
    a:b = queries qa:qb) or ``P`` is not one row of ``nf`` partial sums per block."""
    cdef Py_ssize_t blk, Q = query_ptr.shape[0] - 1
    if (blocks.shape[1] != 4 or b0 < 0 or b1 > blocks.shape[0] or b0 > b1
            or P.shape[0] != blocks.shape[0] or P.shape[1] != nf):
        return True
    for blk in range(b0, b1):
        if (blocks[blk, 2] < 0 or blocks[blk, 3] > Q or blocks[blk, 2] > blocks[blk, 3]
                or query_ptr[blocks[blk, 2]] != blocks[blk, 0]
                or query_ptr[blocks[blk, 3]] != blocks[blk, 1]):
            return True
    return False


cdef inline double* _block_row(double[:, ::1] P, Py_ssize_t blk, Py_ssize_t nf) noexcept nogil:
    """Block ``blk``'s row of partial sums, set to 0.0 (the sum then runs row after row)."""
    cdef double* acc = &P[blk, 0]
    cdef Py_ssize_t f
    for f in range(nf):
        acc[f] = 0.0
    return acc


def hv_blocks_fused(const double[:, ::1] X, const double[::1] d, const int32_t[::1] n_levels,
                    const int64_t[::1] query_ptr, const int64_t[::1] order,
                    const int32_t[::1] lev_sorted, const int64_t[::1] up,
                    const int64_t[::1] down, const double[::1] lsum,
                    const int64_t[:, ::1] blocks, Py_ssize_t b0, Py_ssize_t b1,
                    double[::1] xd, double[::1] s_plus, double[::1] s_minus,
                    double[::1] work_sum, double[:, ::1] P):
    """The blocked ∇²f·d of method (c) for blocks ``b0 … b1−1`` (rows ``(a, b, qa, qb)`` of
    ``blocks``: documents a:b, queries qa:qb), query by query in one pass over X: the query's
    Xd (:func:`_row_dot`), its α^± by the prepared sweeps (the arithmetic of
    :func:`hv_range_prepared`), u = (l⁺ + l⁻)∘Xd − α⁺ − α⁻, and Σ_i u_i x_i added to
    ``P[block]`` row after row from 0 — while the query's rows are still in cache, so X is
    read from memory once per product and no Python runs between blocks.  Every sum has a
    fixed order within its block, so any split of the blocks among threads gives the same
    ``P`` bit for bit.  ``xd``, ``s_plus``, ``s_minus``: ≥ the largest block's documents;
    ``work_sum`` ≥ max k_q.  Returns 0, or -1 if the shapes are inconsistent."""
    cdef Py_ssize_t n = order.shape[0], Q = query_ptr.shape[0] - 1, nf = X.shape[1]
    cdef Py_ssize_t blk, a, b, qa, qb, q, lo, hi, i
    cdef double ui
    cdef double* acc
    cdef const double* x
    if (Q < 0 or n_levels.shape[0] != Q or query_ptr[0] != 0 or query_ptr[Q] != n
            or X.shape[0] != n or d.shape[0] != nf or lev_sorted.shape[0] != n
            or up.shape[0] != n or down.shape[0] != n or lsum.shape[0] != n
            or _bad_block_table(blocks, b0, b1, query_ptr, nf, P)):
        return -1
    for blk in range(b0, b1):
        a, b, qa, qb = blocks[blk, 0], blocks[blk, 1], blocks[blk, 2], blocks[blk, 3]
        if xd.shape[0] < b - a or s_plus.shape[0] < b - a or s_minus.shape[0] < b - a:
            return -1
        for q in range(qa, qb):
            if n_levels[q] > KTAB and n_levels[q] > work_sum.shape[0]:
                return -1
    with nogil:
        for blk in range(b0, b1):
            a = blocks[blk, 0]
            acc = _block_row(P, blk, nf)
            for q in range(blocks[blk, 2], blocks[blk, 3]):
                lo = query_ptr[q]
                hi = query_ptr[q + 1]
                for i in range(lo, hi):
                    xd[i - a] = _row_dot(&X[i, 0], &d[0], nf)
                _tree_hv_query(&xd[0], &lev_sorted[0], &order[0], &up[0], &down[0], lo, hi - lo,
                               n_levels[q], a, &s_plus[0], &s_minus[0],
                               &work_sum[0] if work_sum.shape[0] > 0 else NULL)
                for i in range(lo, hi):
                    ui = lsum[i] * xd[i - a] - s_plus[i - a] - s_minus[i - a]
                    _row_axpy(acc, ui, &X[i, 0], nf)
    return 0


def fun_blocks_fused(int method, const double[:, ::1] X, const double[::1] w,
                     const int32_t[::1] level, const int32_t[::1] n_levels,
                     const int64_t[::1] query_ptr, int64_t[::1] order, int64_t[::1] buf,
                     const int64_t[:, ::1] blocks, Py_ssize_t b0, Py_ssize_t b1,
                     double[::1] z, int64_t[::1] l_plus, int64_t[::1] l_minus,
                     double[::1] s_plus, double[::1] s_minus, int64_t[::1] work_cnt,
                     double[::1] work_sum, double[:, ::1] P):
    """The blocked f and ∇f of method ``method`` for blocks ``b0 … b1−1`` (rows
    ``(a, b, qa, qb)`` of ``blocks``), query by query in one pass over X: the query's
    z = Xw (:func:`_row_dot`), its sort (warm-started from ``order``), l^± and γ^± (the
    arithmetic of :func:`count_range` per query), the gradient's u (that of :func:`grad_u`)
    and Σ_i u_i x_i added to ``P[block]`` row after row from 0 — X read from memory once and
    no Python between blocks; fixed orders, so any split of the blocks among threads gives
    the same values bit for bit.  ``z``, the counts and sums: whole-set arrays (only the
    blocks' documents written).  Returns Σ l_i^- over the blocks, or -1 if the shapes are
    inconsistent (or a query's k_q exceeds the workspaces)."""
    cdef Py_ssize_t n = order.shape[0], Q = query_ptr.shape[0] - 1, nf = X.shape[1]
    cdef Py_ssize_t blk, q, lo, hi, i
    cdef Py_ssize_t kw = _work_len(work_cnt, work_sum)
    cdef int64_t total = 0, t = 0
    cdef double ui
    cdef double* acc
    if (Q < 0 or not 0 <= method <= 2 or n_levels.shape[0] != Q or query_ptr[0] != 0
            or query_ptr[Q] != n or X.shape[0] != n or w.shape[0] != nf
            or level.shape[0] != n or buf.shape[0] != n or z.shape[0] != n
            or l_plus.shape[0] != n or l_minus.shape[0] != n or s_plus.shape[0] != n
            or s_minus.shape[0] != n or (method != 1 and kw < 1 and n > 0)
            or _bad_block_table(blocks, b0, b1, query_ptr, nf, P)):
        return -1
    with nogil:
        for blk in range(b0, b1):
            acc = _block_row(P, blk, nf)
            for q in range(blocks[blk, 2], blocks[blk, 3]):
                lo = query_ptr[q]
                hi = query_ptr[q + 1]
                if hi == lo:
                    continue
                for i in range(lo, hi):
                    z[i] = _row_dot(&X[i, 0], &w[0], nf)
                _sort_range(&z[0], &query_ptr[0], &order[0], &buf[0], q, q + 1)
                t = _count_range(method, &z[0], &z[lo], &level[0], &n_levels[0],
                                 &query_ptr[0], &order[0], q, q + 1, True, &l_plus[lo],
                                 &l_minus[lo], &s_plus[lo], &s_minus[lo],
                                 &work_cnt[0] if kw > 0 else NULL,
                                 &work_sum[0] if kw > 0 else NULL, kw)
                if t < 0:
                    total = -1
                    break
                total += t
                for i in range(lo, hi):
                    ui = _grad_u(l_plus[i], l_minus[i], z[i], s_plus[i], s_minus[i])
                    _row_axpy(acc, ui, &X[i, 0], nf)
            if total < 0:
                break
    return total


# --- counted operations --------------------------------------------------------------------
#
# ``operation_counts`` replays one function evaluation's sort and counting sweeps of a method
# and counts their dominant operations instead of summing: the sort is the one sort with its
# counter (stable_sort.pxd), the sweeps' replays follow the loops above step for step (the
# same margin tests, the same insertions and walks); tests/reference_pair_counting.py counts
# the same by brute force.

cdef inline void _counted_argsort(const double* key, int64_t* idx, int64_t* buf,
                                  Py_ssize_t lo, Py_ssize_t hi, int64_t* c) noexcept nogil:
    """The sort of ``_sort_range`` with every key comparison counted into ``c``: the one
    ``stable_argsort`` (stable_sort.pxd) with its counter."""
    stable_argsort(key, idx, buf, lo, hi, False, c)


cdef inline int64_t _walk(Py_ssize_t k, Py_ssize_t key, int* path) noexcept nogil:
    """Nodes on the path to ``key`` in the tree of k keys (written to ``path`` unless it is
    NULL): the iterations of the loops of ``_tree_insert`` and ``_tree_side`` alike (each
    walks towards ``key`` and stops at its node)."""
    cdef Py_ssize_t lo = 0, hi = k, mid
    cdef int64_t c = 0
    while lo < hi:
        mid = (lo + hi) >> 1
        if path != NULL:
            path[c] = <int> mid
        c += 1
        if key == mid:
            break
        if key < mid:
            hi = mid
        else:
            lo = mid + 1
    return c


cdef void _count_query_ops(int method, const double* z, const int32_t* level,
                           const int64_t* order, Py_ssize_t a, Py_ssize_t n, Py_ssize_t k,
                           int64_t* ops) noexcept nogil:
    """The margin tests (``ops[1]``) and level operations (``ops[2]``) of one query's
    counting by ``method``: (a) one counter update per document swept in and one per level
    summed at a document (II.2); (b) per level r, the two passes over the query's documents;
    (c) the tree nodes an insertion or a query walks through."""
    cdef Py_ssize_t r, i, j, oi
    if method == 1:                                 # _joachims_query
        for r in range(k - 1):
            ops[2] += 2 * n
            j = 0
            for i in range(n):
                oi = order[a + i]
                if level[oi] != r:
                    continue
                while j < n:
                    ops[1] += 1
                    if not 1.0 - z[order[a + j]] + z[oi] > 0:
                        break
                    j += 1
        return
    if method == 2 and k < 2:                       # _sweep_query: no pairs, nothing swept
        return
    _count_sweep_ops(True, method, z, level, order, a, n, k, ops)
    _count_sweep_ops(False, method, z, level, order, a, n, k, ops)


cdef inline void _count_sweep_ops(bint up, int method, const double* z, const int32_t* level,
                                  const int64_t* order, Py_ssize_t a, Py_ssize_t n,
                                  Py_ssize_t k, int64_t* ops) noexcept nogil:
    """The operations of one sweep of ``_sweep`` (ascending if ``up``) by method (a) or (c)."""
    cdef Py_ssize_t t, i, j, oi, step = 1 if up else -1
    j = 0 if up else n - 1
    for t in range(n):
        i = t if up else n - 1 - t
        oi = order[a + i]
        while (j < n if up else j >= 0):
            ops[1] += 1
            if not _in_margin(up, z, oi, order[a + j]):
                break
            ops[2] += _walk(k, level[order[a + j]], NULL) if method == 2 else 1
            j += step
        if method == 2:
            ops[2] += _walk(k, level[oi], NULL)
        else:
            ops[2] += k - 1 - level[oi] if up else level[oi]


def operation_counts(int method, const double[::1] z, const int32_t[::1] level,
                     const int32_t[::1] n_levels, const int64_t[::1] query_ptr,
                     int64_t[::1] order, int64_t[::1] buf, int64_t[::1] ops):
    """The operations of one counting pass of ``method`` at scores ``z``, added to ``ops``:
    ``ops[0]`` the key comparisons of the sort of each query (that of
    :func:`sort_within_queries`, warm-started from ``order``, which is left sorted),
    ``ops[1]`` the margin tests ``1 - z_high + z_low > 0`` of the sweeps, ``ops[2]`` the
    level operations (see ``_count_query_ops``).  Nothing is summed: the values are those
    of :func:`count_range`, the operations the ones it does.  Returns 0, or -1 if the
    shapes are inconsistent (``ops`` needs 3 entries, ``buf`` n)."""
    cdef Py_ssize_t n = z.shape[0], Q = query_ptr.shape[0] - 1, q
    if (_bad_range(z, level, n_levels, query_ptr, order, 0, Q if Q >= 0 else 0)
            or buf.shape[0] != n or ops.shape[0] < 3 or not 0 <= method <= 2):
        return -1
    if n == 0:
        return 0
    with nogil:
        for q in range(Q):
            _counted_argsort(&z[0], &order[0], &buf[0], query_ptr[q], query_ptr[q + 1],
                             &ops[0])
            _count_query_ops(method, &z[0], &level[0], &order[0], query_ptr[q],
                             query_ptr[q + 1] - query_ptr[q], n_levels[q], &ops[0])
    return 0
