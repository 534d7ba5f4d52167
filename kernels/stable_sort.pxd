# cython: language_level=3
"""The kernels' sort: a stable sort of an index array by the keys it points to
(``key[idx[lo]], key[idx[lo + 1]], …``), ascending or descending — equal keys keep their
order in ``idx``.  Runs of ``RUN`` indices are sorted by insertion, then merged bottom-up
through ``buf`` (workspace as long as ``idx``); a merge of two runs already in order is
skipped, so a nearly sorted ``idx`` (a warm start) costs little more than one pass.
``descending`` is a constant at every call site: the compiler drops the other branch.
``count``: NULL, or a counter that every key comparison increments (the "already in order"
test of a merge included) — the dominant operations of the sort, counted by the same code
that sorts (``pair_counting.operation_counts``); NULL at a call site costs nothing."""

from libc.stdint cimport int64_t


ctypedef fused index_t:
    int64_t
    Py_ssize_t


cdef inline bint _before(const double* key, index_t x, index_t y, bint descending,
                         int64_t* count) noexcept nogil:
    """Index ``x`` must come before index ``y`` (its key is strictly first)."""
    if count != NULL:
        count[0] += 1
    if descending:
        return key[x] > key[y]
    return key[x] < key[y]


cdef inline bint _not_after(const double* key, index_t x, index_t y,
                            bint descending, int64_t* count) noexcept nogil:
    """Index ``x`` may stay before index ``y`` (as the keys compare, NaN included)."""
    if count != NULL:
        count[0] += 1
    if descending:
        return key[x] >= key[y]
    return key[x] <= key[y]


cdef inline void _insertion_sort(const double* key, index_t* idx, Py_ssize_t lo, Py_ssize_t hi,
                                 bint descending, int64_t* count) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef index_t t
    for i in range(lo + 1, hi):
        t = idx[i]
        j = i - 1
        while j >= lo and _before(key, t, idx[j], descending, count):
            idx[j + 1] = idx[j]
            j -= 1
        idx[j + 1] = t


cdef inline void _merge(const double* key, index_t* idx, index_t* buf, Py_ssize_t lo,
                        Py_ssize_t mid, Py_ssize_t hi, bint descending,
                        int64_t* count) noexcept nogil:
    cdef Py_ssize_t i = lo, j = mid, k = lo
    if _not_after(key, idx[mid - 1], idx[mid], descending, count):
        return                         # already in order
    while i < mid and j < hi:
        if _before(key, idx[j], idx[i], descending, count):
            buf[k] = idx[j]
            j += 1
        else:
            buf[k] = idx[i]
            i += 1
        k += 1
    while i < mid:
        buf[k] = idx[i]
        i += 1
        k += 1
    while j < hi:
        buf[k] = idx[j]
        j += 1
        k += 1
    for k in range(lo, hi):
        idx[k] = buf[k]


cdef inline void stable_argsort(const double* key, index_t* idx, index_t* buf, Py_ssize_t lo,
                                Py_ssize_t hi, bint descending, int64_t* count) noexcept nogil:
    """Sort ``idx[lo:hi]`` stably by ``key`` (ascending, or descending); ``count``: see the
    module's docstring."""
    cdef Py_ssize_t RUN = 24, start, end, width, mid
    start = lo
    while start < hi:
        end = start + RUN if start + RUN < hi else hi
        _insertion_sort(key, idx, start, end, descending, count)
        start = end
    width = RUN
    while width < hi - lo:
        start = lo
        while start + width < hi:
            mid = start + width
            end = mid + width if mid + width < hi else hi
            _merge(key, idx, buf, start, mid, end, descending, count)
            start = end
        width *= 2
