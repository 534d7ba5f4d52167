# cython: language_level=3
"""The most violated constraints of the per-query SVMperf baselines of Le & Smola (2007),
Table 1 (Joachims 2005, Sec. 4): ROCArea and Prec@k, one query at a time.

Kernel of ``repro.rankers.svmperf`` (whose oracles state the problems and check the inputs;
their former NumPy bodies are the reference of ``tests/test_svmperf_kernel.py``).  Every value
is the expression the NumPy body evaluated, in the same order (sequential prefix sums, as
``np.cumsum``; compiled with -ffp-contract=off), so the constraints are the same bits.

``roc_area``: ``swapped_gb = (g_g − ¼ < g_b + ¼)`` for every relevant g and irrelevant b;
coef_g = 2s·#swapped(g, ·), coef_b = −2s·#swapped(·, b); returns the number of swapped pairs.

``precision_at_k``: relevant and irrelevant documents each in decreasing score (stable: ties
in the given order), prefix sums of their scores, then the (a, b) maximising
loss[a, b] + (2·cp_a − cp_all) + (2·cn_b − cn_all) over ``allowed`` (the first in row-major
order among equal maxima); ψ's coefficients as :func:`precision_at_k` says.
"""
from libc.math cimport INFINITY
from libc.stdint cimport int64_t


def roc_area(const double[::1] g, const int64_t[::1] P, const int64_t[::1] N, double scale,
             double[::1] coef):
    """ROCArea's most violated labelling (Joachims 2005, Algorithm 3's ±¼ shift) of one
    query: writes ``coef`` (zeroed here) and returns the number of swapped pairs; −1 on
    inconsistent arrays."""
    cdef Py_ssize_t n = g.shape[0], i, j, total = 0, cnt
    cdef double gi
    if coef.shape[0] != n:
        return -1
    for i in range(P.shape[0]):
        if P[i] < 0 or P[i] >= n:
            return -1
    for j in range(N.shape[0]):
        if N[j] < 0 or N[j] >= n:
            return -1
    with nogil:
        for i in range(n):
            coef[i] = 0.0
        for i in range(P.shape[0]):
            gi = g[P[i]] - 0.25
            cnt = 0
            for j in range(N.shape[0]):
                if gi < g[N[j]] + 0.25:
                    cnt += 1
                    coef[N[j]] += 1.0
            coef[P[i]] = 2.0 * scale * <double>cnt
            total += cnt
        for j in range(N.shape[0]):
            coef[N[j]] = -2.0 * scale * coef[N[j]]
    return total


cdef void _sort_desc(const double[::1] g, int64_t[::1] idx) noexcept nogil:
    """``idx`` in decreasing g (stable: equal scores keep their order), by insertion (a
    query's documents: tens to a few hundred)."""
    cdef Py_ssize_t i, j, n = idx.shape[0]
    cdef int64_t v
    cdef double key
    for i in range(1, n):
        v = idx[i]
        key = -g[v]
        j = i - 1
        while j >= 0 and key < -g[idx[j]]:
            idx[j + 1] = idx[j]
            j -= 1
        idx[j + 1] = v


cdef void _prefix_sums(const double[::1] g, const int64_t[::1] idx, double[::1] out
                       ) noexcept nogil:
    """``out = [0, cumsum(g[idx])]`` with ``np.cumsum``'s bits: the first sum is g[idx[0]]
    itself (not 0 + g, whose sign differs at −0), then one addition per element in order."""
    cdef Py_ssize_t i, n = idx.shape[0]
    out[0] = 0.0
    if n == 0:
        return
    out[1] = g[idx[0]]
    for i in range(1, n):
        out[i + 1] = out[i] + g[idx[i]]


def precision_at_k(const double[::1] g, int64_t[::1] P, int64_t[::1] N,
                   const double[:, ::1] loss, const unsigned char[:, ::1] allowed,
                   double[::1] cp, double[::1] cn, double[::1] coef, int64_t[::1] out):
    """Prec@k's most violated labelling of one query.  ``P``, ``N``: the relevant and
    irrelevant documents (positions in the query), sorted here in place by decreasing score;
    ``loss``, ``allowed``: (|P|+1) × (|N|+1); ``cp``, ``cn``: workspaces of |P|+1 and |N|+1.
    Writes ``coef`` (2 for the relevant documents after the a best, labelled negative; −2
    for the b best irrelevant ones, labelled positive; 0 elsewhere) and ``out = (a, b)``.  Returns 0, −1 on
    inconsistent arrays, −3 if no (a, b) is allowed."""
    cdef Py_ssize_t n = g.shape[0], np_ = P.shape[0], nn = N.shape[0], a, b, ia = -1, ib = -1
    cdef double best = -INFINITY, v, sa, cpl, cnl
    if (loss.shape[0] != np_ + 1 or loss.shape[1] != nn + 1 or allowed.shape[0] != np_ + 1
            or allowed.shape[1] != nn + 1 or cp.shape[0] != np_ + 1 or cn.shape[0] != nn + 1
            or coef.shape[0] != n or out.shape[0] != 2):
        return -1
    for a in range(np_):
        if P[a] < 0 or P[a] >= n:
            return -1
    for b in range(nn):
        if N[b] < 0 or N[b] >= n:
            return -1
    with nogil:
        _sort_desc(g, P)
        _sort_desc(g, N)
        _prefix_sums(g, P, cp)
        _prefix_sums(g, N, cn)
        cpl = cp[np_]
        cnl = cn[nn]
        for a in range(np_ + 1):
            sa = 2.0 * cp[a] - cpl
            for b in range(nn + 1):
                if allowed[a, b]:
                    v = loss[a, b] + (sa + (2.0 * cn[b] - cnl))
                    if ia < 0 or v > best:
                        best = v
                        ia = a
                        ib = b
        if ia >= 0:
            for a in range(n):
                coef[a] = 0.0
            for a in range(ia, np_):
                coef[P[a]] = 2.0
            for b in range(ib):
                coef[N[b]] = -2.0
    if ia < 0:
        return -3
    out[0] = ia
    out[1] = ib
    return 0
