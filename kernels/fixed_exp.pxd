# cython: language_level=3
"""e^x with a fixed range reduction and polynomial, the same bits on every machine
(``fixed_exp.h`` beside this file states the method and its error).  ``fixed_exp`` is the
scalar function; ``fixed_exp_array`` computes it over an array with SIMD lanes (each lane the
scalar expression exactly).  Kernels that include it are compiled with ``-ffp-contract=off``
(setup.py)."""

cdef extern from "fixed_exp.h" nogil:
    double fixed_exp(double x)
    void fixed_exp_array(const double* x, double* y, Py_ssize_t n)
    void fixed_exp_array_variant(const double* x, double* y, Py_ssize_t n, int variant)
    int fixed_exp_avx2_usable()
    int fixed_exp_avx512_usable()
    double FIXED_EXP_OVERFLOW
    double FIXED_EXP_UNDERFLOW
