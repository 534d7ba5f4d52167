# cython: language_level=3
"""The fixed exp of ``fixed_exp.h`` (used by the domination and conditional kernels), exposed
for its tests: the scalar function and each SIMD variant of the array loop over an array."""
from fixed_exp cimport fixed_exp, fixed_exp_array_variant, fixed_exp_avx2_usable


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
    x86-64 baseline (SSE2), 2 AVX2 (only where :func:`avx2_usable`).  Returns 0, −1 on a
    length mismatch or a variant this CPU cannot run."""
    cdef Py_ssize_t n = x.shape[0]
    if out.shape[0] != n or variant < 0 or variant > 2 or (variant == 2 and not avx2_usable()):
        return -1
    if n == 0:
        return 0
    with nogil:
        fixed_exp_array_variant(&x[0], &out[0], n, variant)
    return 0


def avx2_usable():
    """Whether this CPU runs the AVX2 loop."""
    return bool(fixed_exp_avx2_usable())
