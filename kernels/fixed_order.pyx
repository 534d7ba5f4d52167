# cython: language_level=3
"""Inner products and matrix-vector products in a fixed order of arithmetic.

Kernel of ``repro.rankers.fixed_order``.  BLAS sums a dot product in an order its kernel
chooses (one accumulator per SIMD lane, a lane count per instruction set), so the last bits of
Xw change with ``OPENBLAS_CORETYPE``; a fit that follows those bits (a non-convex L-BFGS path,
a stopping test near its tolerance) then lands elsewhere.  These loops sum in index order,
without contraction into FMAs (built with ``-ffp-contract=off``), so their bits depend on the
inputs alone:

    dot      a·b = (((a₀b₀ + a₁b₁) + a₂b₂) + …)
    matvec   (Xw)_i = Σ_j X_ij w_j, j = 0, 1, … in order
    rmatvec  (Xᵀv)_j = Σ_i v_i X_ij, i = 0, 1, … in order (row by row: each column's sum is
             its own chain, so vectorising across j keeps every sum's order)

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
    cdef Py_ssize_t i, j, n = X.shape[0], d = X.shape[1]
    cdef double s
    for i in range(n):
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
    for i in range(n):
        vi = v[i]
        for j in range(d):
            out[j] = out[j] + vi * X[i, j]
