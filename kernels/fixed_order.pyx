# cython: language_level=3
"""Inner products and matrix-vector products in a fixed order of arithmetic.

Kernel of ``repro.rankers.fixed_order``.  BLAS sums a dot product in an order its kernel
chooses (one accumulator per SIMD lane, a lane count per instruction set), so the last bits of
Xw change with ``OPENBLAS_CORETYPE``; a fit that follows those bits (a non-convex L-BFGS path,
a stopping test near its tolerance) then lands elsewhere.  These loops sum in index order,
without contraction into FMAs (built with ``-ffp-contract=off``), so their bits depend on the
inputs alone:

    dot      a·b = (((a₀b₀ + a₁b₁) + a₂b₂) + …)
    matvec   (Xw)_i = Σ_j X_ij w_j, j = 0, 1, … in order (eight rows' chains interleaved:
             each row's sum keeps its order)
    rmatvec  (Xᵀv)_j = Σ_i v_i X_ij, i = 0, 1, … in order (row by row: each column's sum is
             its own chain, so vectorising across j keeps every sum's order; four rows'
             terms added to it in row order at each load of out_j)

Checks and coercion are the wrapper's; the loops assume matching, C-contiguous arrays."""
cimport cython


@cython.boundscheck(False)
@cython.wraparound(False)
cpdef double dot(const double[::1] a, const double[::1] b) noexcept nogil:
    cdef Py_ssize_t i, n = a.shape[0]
    cdef double s = 0.0
    for i in range(n):
        s = s + a[i] * b[i]
    return s


@cython.boundscheck(False)
@cython.wraparound(False)
cpdef void matvec(const double[:, ::1] X, const double[::1] w, double[::1] out) noexcept nogil:
    # eight rows at a time: eight independent chains, each summed in feature order (the same
    # bits as one row at a time), so that an add does not wait for the one before it
    cdef Py_ssize_t i, j, k, n = X.shape[0], d = X.shape[1], n8 = n - n % 8
    cdef double s, wj
    cdef double acc[8]
    cdef const double* r
    if d == 0:
        for i in range(n):
            out[i] = 0.0
        return
    for i in range(0, n8, 8):
        r = &X[i, 0]
        for k in range(8):
            acc[k] = 0.0
        for j in range(d):
            wj = w[j]
            for k in range(8):
                acc[k] = acc[k] + r[k * d + j] * wj
        for k in range(8):
            out[i + k] = acc[k]
    for i in range(n8, n):
        s = 0.0
        for j in range(d):
            s = s + X[i, j] * w[j]
        out[i] = s


@cython.boundscheck(False)
@cython.wraparound(False)
cpdef void rmatvec(const double[:, ::1] X, const double[::1] v, double[::1] out) noexcept nogil:
    cdef Py_ssize_t i, j, n = X.shape[0], d = X.shape[1]
    cdef double vi
    for j in range(d):
        out[j] = 0.0
    # four rows at a time: out[j] takes their four terms in row order (the same bits as one
    # row at a time) with one load and store of out[j] instead of four
    cdef Py_ssize_t n4 = n - n % 4
    cdef double v0, v1, v2, v3
    cdef const double* r0
    cdef const double* r1
    cdef const double* r2
    cdef const double* r3
    if d == 0:
        return
    for i in range(0, n4, 4):
        r0 = &X[i, 0]
        r1 = r0 + d
        r2 = r1 + d
        r3 = r2 + d
        v0 = v[i]
        v1 = v[i + 1]
        v2 = v[i + 2]
        v3 = v[i + 3]
        for j in range(d):
            out[j] = (((out[j] + v0 * r0[j]) + v1 * r1[j]) + v2 * r2[j]) + v3 * r3[j]
    for i in range(n4, n):
        vi = v[i]
        for j in range(d):
            out[j] = out[j] + vi * X[i, j]
