# cython: language_level=3
"""The pass of Algorithm 2 of the n-slack structural SVM (Le & Smola 2007, Sec. 2.4), in
Cython: the loop over the queries, each query's slack and violation, the working-set
bookkeeping and the block solve.

Kernel of ``repro.rankers.structsvm`` (whose :func:`n_slack` calls :func:`run_pass` once per
pass and states the algorithm).  Python is called only for what is not a loop of numbers:
the oracle (a Python object: DORM's assignment, the SVMperf oracles), the two matrix-vector
products X_i w and coefᵀX_i (numpy's BLAS, as before, so ψ and the scores keep their bits),
the growth of the working sets and the Gram row of an added constraint (``ws.add``: BLAS),
and the block solve (the ``structsvm`` kernel).  The slack ξ_i = max(0, max_p Δ_ip − w·ψ_ip)
and w·ψ of the new constraint are sequential sums here (BLAS ddot/dgemv before: their last
bits may differ; they decide only ``viol > ε`` and the reported ξ).
"""
from libc.stdint cimport int64_t

import time


cdef inline double _dot(const double* x, const double* y, Py_ssize_t n) noexcept nogil:
    cdef double s = 0.0
    cdef Py_ssize_t f
    for f in range(n):
        s = s + x[f] * y[f]
    return s


cdef double _slack(const double[:, :, ::1] Psi, const double[:, ::1] delta, Py_ssize_t i,
                   Py_ssize_t k, const double* w, Py_ssize_t d) noexcept nogil:
    """max(0, max_{p<k} Δ_ip − w·ψ_ip)."""
    cdef double xi = 0.0, h
    cdef Py_ssize_t p
    for p in range(k):
        h = delta[i, p] - _dot(&Psi[i, p, 0], w, d)
        if h > xi:
            xi = h
    return xi


def slacks(const double[:, :, ::1] Psi, const double[:, ::1] delta,
           const int64_t[::1] counts, const double[::1] w, double[::1] out):
    """ξ_i of every block at w into ``out``.  Returns 0, or −1 on inconsistent shapes."""
    cdef Py_ssize_t m = Psi.shape[0], d = Psi.shape[2], i
    if (delta.shape[0] != m or delta.shape[1] != Psi.shape[1] or counts.shape[0] != m
            or w.shape[0] != d or out.shape[0] != m):
        return -1
    for i in range(m):
        if counts[i] < 0 or counts[i] > Psi.shape[1]:
            return -1
    with nogil:
        for i in range(m):
            out[i] = _slack(Psi, delta, i, counts[i], &w[0], d)
    return 0


def run_pass(object oracle, object X, const int64_t[::1] query_ptr,
             const int64_t[::1] active, object ws, object w_arr, double eps,
             object solve_block, double[::1] out):
    """One pass of Algorithm 2 over the ``active`` queries, in order: z* from
    ``oracle(i, X_i w)`` as ``(coef, Δ)``, ψ = coefᵀX_i, H = Δ − w·ψ, viol = H − ξ_i; if
    viol > ε, ``ws.add(i, ψ, Δ)`` and ``solve_block(ws, i, w)`` (which updates w in place and
    returns its SMO steps); ``w_arr`` a float64 array (d).  ``out`` (5): constraints added, max violation, SMO steps,
    seconds in the oracle (with the two products), oracle calls.  Returns 0, or −1 on
    inconsistent shapes."""
    cdef double[::1] w = w_arr
    cdef Py_ssize_t d = w.shape[0], j, i, lo, hi, added = 0, steps = 0, calls = 0
    cdef double viol, max_viol = -float("inf"), H, xi, delta, t_oracle = 0.0, t0
    cdef double[::1] psi
    cdef double[:, :, ::1] Psi
    cdef double[:, ::1] deltas
    cdef int64_t[::1] counts
    if (out.shape[0] < 5 or query_ptr.shape[0] < 1 or X.shape[1] != d
            or query_ptr[query_ptr.shape[0] - 1] > X.shape[0] or ws.Psi.shape[2] != d
            or ws.Psi.shape[0] != query_ptr.shape[0] - 1):
        return -1
    for j in range(active.shape[0]):
        if active[j] < 0 or active[j] >= query_ptr.shape[0] - 1:
            return -1
    perf = time.perf_counter
    for j in range(active.shape[0]):
        i = active[j]
        lo = query_ptr[i]
        hi = query_ptr[i + 1]
        Xi = X[lo:hi]
        t0 = perf()
        coef, delta_obj = oracle(i, Xi @ w_arr)
        psi_arr = coef @ Xi
        t_oracle += perf() - t0
        calls += 1
        delta = delta_obj
        psi = psi_arr
        if psi.shape[0] != d:
            return -1
        Psi = ws.Psi
        deltas = ws.delta
        counts = ws.counts
        H = delta - _dot(&psi[0], &w[0], d)
        xi = _slack(Psi, deltas, i, counts[i], &w[0], d)
        viol = H - xi
        if viol > max_viol:
            max_viol = viol
        if viol > eps:
            ws.add(i, psi_arr, delta)
            steps += solve_block(ws, i, w_arr)
            added += 1
    out[0] = added
    out[1] = max_viol
    out[2] = steps
    out[3] = t_oracle
    out[4] = calls
    return 0
