# cython: language_level=3
"""The fixed exp of ``fixed_exp.h`` (used by the domination and conditional kernels), exposed
for its tests: the scalar function and each SIMD variant of the array loop over an array; and
each variant of the division loop of ``div_array.h`` (used by the conditional kernel)."""
from fixed_exp cimport (fixed_exp, fixed_exp_array_variant, fixed_exp_avx2_usable,
                        fixed_exp_avx512_usable)


cdef extern from "div_array.h" nogil:
    void div_array_variant(double* x, double z, Py_ssize_t n, int variant)


def scalar(const double[::1] x, double[::1] out):
    """out[i] = fixed_exp(x[i]), one scalar call per element.  Returns 0, −1 on a length
    mismatch."""
    cdef Py_ssize_t i, n = x.shape[0]
    if out.shape[0] != n:
        return -1
    with nogil:
        for i in range(n):
            out[i] = fixed_exp(x[i])
    return 0


def vector(const double[::1] x, double[::1] out, int variant):
    """out = fixed_exp over x by the array loop: ``variant`` 0 the widest this CPU runs, 1 the
    x86-64 baseline (SSE2), 2 AVX2 (only where :func:`avx2_usable`), 3 AVX-512F (only where
    :func:`avx512_usable`).  Returns 0, −1 on a length mismatch or a variant this CPU cannot
    run."""
    cdef Py_ssize_t n = x.shape[0]
    if (out.shape[0] != n or variant < 0 or variant > 3 or (variant == 2 and not avx2_usable())
            or (variant == 3 and not avx512_usable())):
        return -1
    if n == 0:
        return 0
    with nogil:
        fixed_exp_array_variant(&x[0], &out[0], n, variant)
    return 0


def divide(double[::1] x, double z, int variant):
    """x /= z in place by the division loop of ``div_array.h``, ``variant`` as in
    :func:`vector`.  Returns 0, −1 for a variant this CPU cannot run."""
    cdef Py_ssize_t n = x.shape[0]
    if variant < 0 or variant > 3 or (variant == 2 and not avx2_usable()) or (
            variant == 3 and not avx512_usable()):
        return -1
    if n == 0:
        return 0
    with nogil:
        div_array_variant(&x[0], z, n, variant)
    return 0


def avx2_usable():
    """Whether this CPU runs the AVX2 loop."""
    return bool(fixed_exp_avx2_usable())


def avx512_usable():
    """Whether this CPU runs the AVX-512F loop."""
    return bool(fixed_exp_avx512_usable())
