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

Three methods, all O(l) extra space at most:

(a) ``direct_count``: the direct counting method of Sec. II.1: ascending sweep keeping
    count⁺(r) and xv⁺(r) for every level r of the documents below the bound ``z_i + 1``;
    l_i^+ = Σ_{r > y_i} count⁺(r) (II.2); a descending sweep for l_i^-.  O(l k) after the sort.
(b) ``joachims_count``: Algorithm (I) (Joachims 2006, Algorithm 2, rewritten by Lee & Lin),
    one pass over the query per level r, O(l k) time and O(l) space.  The loop over r runs over
    r = 1..k-1 (here 0..k_q-2): the printed "r = 2, …, k" leaves l^+ of level-1 documents unset
    and misses their contributions to l^- (a misprint; see the paper module).  The sums follow
    the same recursion: xv⁺ accumulates v_j as count⁺ does, and the running
    Σ_{s: y_s = r, z_s ≥ z_i} v_s starts at the level's total and drops by v_i as i moves.
(c) ``tree_count``: order-statistic tree (Tree-TRON): the same two sweeps, inserting each
    document crossing the bound into a balanced binary search tree keyed by level whose nodes
    keep the count and the sum of their subtree; "how many / what sum above (below) y_i" is one
    root-to-node walk.  The keys (the query's k_q levels) are known before the sweep, so the
    tree is built perfectly balanced (node of key range [lo, hi) is mid = (lo + hi) // 2) and
    never needs rebalancing: O(log k_q) ≤ O(log l) per insertion or query, O(l log l) per
    evaluation with the sort, independent of k.

``sort_within_queries`` is the one sort per function evaluation (stable merge sort of each
query's indices by z; adaptive: an ``order`` already sorted costs O(l)).

Every ``def`` checks the array lengths at entry in O(1) and returns -1, writing nothing, if
they are inconsistent; the workspaces are checked against k_q before each query (return -1
there, the earlier queries written).  With bounds checks off a mis-sized array would otherwise
read or write out of bounds.  The wrapper turns -1 into ``ValueError``.  Values (labels remapped to 0..k_q-1,
``order`` a permutation of each query, ``query_ptr`` non-decreasing) are the wrapper's job.
"""
from libc.stdint cimport int32_t, int64_t


# --- the one sort per evaluation --------------------------------------------------------------

cdef inline void _insertion_sort(const double[::1] z, int64_t[::1] a, Py_ssize_t lo,
                                 Py_ssize_t hi) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef int64_t t
    cdef double zt
    for i in range(lo + 1, hi):
        t = a[i]
        zt = z[t]
        j = i - 1
        while j >= lo and z[a[j]] > zt:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t


cdef inline void _merge(const double[::1] z, int64_t[::1] a, int64_t[::1] buf, Py_ssize_t lo,
                        Py_ssize_t mid, Py_ssize_t hi) noexcept nogil:
    cdef Py_ssize_t i = lo, j = mid, k = lo
    if z[a[mid - 1]] <= z[a[mid]]:
        return                         # already in order (adaptive)
    while i < mid and j < hi:
        if z[a[j]] < z[a[i]]:
            buf[k] = a[j]
            j += 1
        else:
            buf[k] = a[i]
            i += 1
        k += 1
    while i < mid:
        buf[k] = a[i]
        i += 1
        k += 1
    while j < hi:
        buf[k] = a[j]
        j += 1
        k += 1
    for k in range(lo, hi):
        a[k] = buf[k]


def sort_within_queries(const double[::1] z, const int64_t[::1] query_ptr, int64_t[::1] order,
                        int64_t[::1] buf):
    """Sort ``order[a:b]`` (document indices of query q = [a, b)) by ``z``, ascending, stably,
    for every query.  ``buf``: workspace of the same length.  Returns 0, or -1 if the shapes
    are inconsistent."""
    cdef Py_ssize_t n = z.shape[0]
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1
    cdef Py_ssize_t q, a, b, lo, width, mid, hi
    cdef Py_ssize_t RUN = 24
    if Q < 0 or order.shape[0] != n or buf.shape[0] != n or query_ptr[0] != 0 or query_ptr[Q] != n:
        return -1
    with nogil:
        for q in range(Q):
            a = query_ptr[q]
            b = query_ptr[q + 1]
            lo = a
            while lo < b:
                hi = lo + RUN if lo + RUN < b else b
                _insertion_sort(z, order, lo, hi)
                lo = hi
            width = RUN
            while width < b - a:
                lo = a
                while lo + width < b:
                    mid = lo + width
                    hi = mid + width if mid + width < b else b
                    _merge(z, order, buf, lo, mid, hi)
                    lo = hi
                width *= 2
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


# --- (a) direct counting, Sec. II.1 ----------------------------------------------------------

cdef inline void _direct_query(const double[::1] z, const double[::1] v,
                               const int32_t[::1] level, const int64_t[::1] order,
                               Py_ssize_t a, Py_ssize_t n, Py_ssize_t k, bint want_counts,
                               int64_t[::1] l_plus, int64_t[::1] l_minus,
                               double[::1] s_plus, double[::1] s_minus,
                               int64_t[::1] cnt, double[::1] sm) noexcept nogil:
    cdef Py_ssize_t i, j, r, oi, oj, yi
    cdef int64_t c
    cdef double s
    # ascending sweep: count⁺(r), xv⁺(r) over {j | 1 - z_j + z_i > 0}
    for r in range(k):
        cnt[r] = 0
        sm[r] = 0.0
    j = 0
    for i in range(n):
        oi = order[a + i]
        while j < n and 1.0 - z[order[a + j]] + z[oi] > 0:
            oj = order[a + j]
            cnt[level[oj]] += 1
            sm[level[oj]] += v[oj]
            j += 1
        yi = level[oi]
        c = 0
        s = 0.0
        for r in range(yi + 1, k):                      # (II.2)
            c += cnt[r]
            s += sm[r]
        if want_counts:
            l_plus[oi] = c
        s_plus[oi] = s
    # descending sweep: the same over {j | 1 - z_i + z_j > 0}
    for r in range(k):
        cnt[r] = 0
        sm[r] = 0.0
    j = n - 1
    for i in range(n - 1, -1, -1):
        oi = order[a + i]
        while j >= 0 and 1.0 - z[oi] + z[order[a + j]] > 0:
            oj = order[a + j]
            cnt[level[oj]] += 1
            sm[level[oj]] += v[oj]
            j -= 1
        yi = level[oi]
        c = 0
        s = 0.0
        for r in range(yi):
            c += cnt[r]
            s += sm[r]
        if want_counts:
            l_minus[oi] = c
        s_minus[oi] = s


def direct_count(const double[::1] z, const double[::1] v, const int32_t[::1] level,
                 const int32_t[::1] n_levels, const int64_t[::1] query_ptr,
                 const int64_t[::1] order, bint want_counts,
                 int64_t[::1] l_plus, int64_t[::1] l_minus,
                 double[::1] s_plus, double[::1] s_minus,
                 int64_t[::1] work_cnt, double[::1] work_sum):
    """Method (a), Sec. II.1.  Returns the number of pairs inside the margin (Σ l_i^-) if
    ``want_counts``, else 0; -1 if the shapes are inconsistent (nothing written, or, for a
    workspace shorter than a query's k_q, the queries before it)."""
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1
    cdef Py_ssize_t q, a, n, i
    cdef Py_ssize_t kw = work_cnt.shape[0] if work_cnt.shape[0] < work_sum.shape[0] else work_sum.shape[0]
    cdef int64_t total = 0
    cdef bint bad = False
    if _bad_shapes(z, v, level, n_levels, query_ptr, order, l_plus, l_minus, s_plus, s_minus):
        return -1
    with nogil:
        for q in range(Q):
            a = query_ptr[q]
            n = query_ptr[q + 1] - a
            if n_levels[q] > kw:
                bad = True
                break
            _direct_query(z, v, level, order, a, n, n_levels[q], want_counts,
                          l_plus, l_minus, s_plus, s_minus, work_cnt, work_sum)
            if want_counts:
                for i in range(a, a + n):
                    total += l_minus[i]
    return -1 if bad else total


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

def joachims_count(const double[::1] z, const double[::1] v, const int32_t[::1] level,
                   const int32_t[::1] n_levels, const int64_t[::1] query_ptr,
                   const int64_t[::1] order, bint want_counts,
                   int64_t[::1] l_plus, int64_t[::1] l_minus,
                   double[::1] s_plus, double[::1] s_minus):
    """Method (b), Algorithm (I) with r over all levels but the highest.  O(l) space: no
    per-level arrays.  Returns Σ l_i^- if ``want_counts``, else 0; -1 if the shapes are
    inconsistent (nothing written)."""
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1
    cdef Py_ssize_t q, a, n, k, r, i, j, oi, oj
    cdef int64_t cplus, cminus, total = 0
    cdef double splus, sminus
    if _bad_shapes(z, v, level, n_levels, query_ptr, order, l_plus, l_minus, s_plus, s_minus):
        return -1
    with nogil:
        for q in range(Q):
            a = query_ptr[q]
            n = query_ptr[q + 1] - a
            k = n_levels[q]
            for i in range(a, a + n):                      # step 1
                if want_counts:
                    l_plus[i] = 0
                    l_minus[i] = 0
                s_plus[i] = 0.0
                s_minus[i] = 0.0
            for r in range(k - 1):                         # step 4 (r = 1..k-1, 1-based)
                j = 0                                      # step 4.1
                cplus = 0
                splus = 0.0
                cminus = 0
                sminus = 0.0
                for i in range(a, a + n):
                    if level[i] == r:
                        cminus += 1
                        sminus += v[i]
                for i in range(n):                         # step 4.2
                    oi = order[a + i]
                    if level[oi] != r:
                        continue
                    while j < n and 1.0 - z[order[a + j]] + z[oi] > 0:   # step a
                        oj = order[a + j]
                        if level[oj] > r:
                            cplus += 1
                            splus += v[oj]
                            if want_counts:
                                l_minus[oj] += cminus
                            s_minus[oj] += sminus
                        j += 1
                    if want_counts:                        # step b
                        l_plus[oi] = cplus
                    s_plus[oi] = splus
                    cminus -= 1                            # step c
                    sminus -= v[oi]
            if want_counts:
                for i in range(a, a + n):
                    total += l_minus[i]
    return total


# --- (c) order-statistic tree -------------------------------------------------------------------

cdef inline void _tree_insert(int64_t[::1] cnt, double[::1] sm, Py_ssize_t k, Py_ssize_t key,
                              double value) noexcept nogil:
    cdef Py_ssize_t lo = 0, hi = k, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        cnt[mid] += 1
        sm[mid] += value
        if key == mid:
            return
        if key < mid:
            hi = mid
        else:
            lo = mid + 1


cdef inline void _tree_above(const int64_t[::1] cnt, const double[::1] sm, Py_ssize_t k,
                             Py_ssize_t key, int64_t *c_out, double *s_out) noexcept nogil:
    """Count and sum of the inserted items with key > ``key``."""
    cdef Py_ssize_t lo = 0, hi = k, mid, ch
    cdef int64_t c = 0
    cdef double s = 0.0
    while lo < hi:
        mid = (lo + hi) >> 1
        if key < mid:
            # node mid and its right subtree are above key: subtree(mid) minus left subtree
            c += cnt[mid]
            s += sm[mid]
            if lo < mid:
                ch = (lo + mid) >> 1
                c -= cnt[ch]
                s -= sm[ch]
            hi = mid
        elif key == mid:
            if mid + 1 < hi:
                ch = (mid + 1 + hi) >> 1
                c += cnt[ch]
                s += sm[ch]
            break
        else:
            lo = mid + 1
    c_out[0] = c
    s_out[0] = s


cdef inline void _tree_below(const int64_t[::1] cnt, const double[::1] sm, Py_ssize_t k,
                             Py_ssize_t key, int64_t *c_out, double *s_out) noexcept nogil:
    """Count and sum of the inserted items with key < ``key``."""
    cdef Py_ssize_t lo = 0, hi = k, mid, ch
    cdef int64_t c = 0
    cdef double s = 0.0
    while lo < hi:
        mid = (lo + hi) >> 1
        if key > mid:
            c += cnt[mid]
            s += sm[mid]
            if mid + 1 < hi:
                ch = (mid + 1 + hi) >> 1
                c -= cnt[ch]
                s -= sm[ch]
            lo = mid + 1
        elif key == mid:
            if lo < mid:
                ch = (lo + mid) >> 1
                c += cnt[ch]
                s += sm[ch]
            break
        else:
            hi = mid
    c_out[0] = c
    s_out[0] = s


def tree_count(const double[::1] z, const double[::1] v, const int32_t[::1] level,
               const int32_t[::1] n_levels, const int64_t[::1] query_ptr,
               const int64_t[::1] order, bint want_counts,
               int64_t[::1] l_plus, int64_t[::1] l_minus,
               double[::1] s_plus, double[::1] s_minus,
               int64_t[::1] work_cnt, double[::1] work_sum):
    """Method (c), order-statistic tree.  Returns Σ l_i^- if ``want_counts``, else 0; -1 if
    the shapes are inconsistent (nothing written, or, for a workspace shorter than a query's
    k_q, the queries before it)."""
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1
    cdef Py_ssize_t q, a, n, k, r, i, j, oi, oj
    cdef Py_ssize_t kw = work_cnt.shape[0] if work_cnt.shape[0] < work_sum.shape[0] else work_sum.shape[0]
    cdef int64_t c, total = 0
    cdef double s
    cdef bint bad = False
    if _bad_shapes(z, v, level, n_levels, query_ptr, order, l_plus, l_minus, s_plus, s_minus):
        return -1
    with nogil:
        for q in range(Q):
            a = query_ptr[q]
            n = query_ptr[q + 1] - a
            k = n_levels[q]
            if k > kw:
                bad = True
                break
            if k < 2:                                  # no pairs in this query
                for i in range(a, a + n):
                    if want_counts:
                        l_plus[i] = 0
                        l_minus[i] = 0
                    s_plus[i] = 0.0
                    s_minus[i] = 0.0
                continue
            for r in range(k):
                work_cnt[r] = 0
                work_sum[r] = 0.0
            j = 0
            for i in range(n):
                oi = order[a + i]
                while j < n and 1.0 - z[order[a + j]] + z[oi] > 0:
                    oj = order[a + j]
                    _tree_insert(work_cnt, work_sum, k, level[oj], v[oj])
                    j += 1
                _tree_above(work_cnt, work_sum, k, level[oi], &c, &s)
                if want_counts:
                    l_plus[oi] = c
                s_plus[oi] = s
            for r in range(k):
                work_cnt[r] = 0
                work_sum[r] = 0.0
            j = n - 1
            for i in range(n - 1, -1, -1):
                oi = order[a + i]
                while j >= 0 and 1.0 - z[oi] + z[order[a + j]] > 0:
                    oj = order[a + j]
                    _tree_insert(work_cnt, work_sum, k, level[oj], v[oj])
                    j -= 1
                _tree_below(work_cnt, work_sum, k, level[oi], &c, &s)
                if want_counts:
                    l_minus[oi] = c
                    total += c
                s_minus[oi] = s
    return -1 if bad else total
