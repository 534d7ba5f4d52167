# cython: language_level=3
"""One access layer for dense and compressed-sparse matrices (after lightning's
``dataset_fast.pxd``): a kernel asks for the ``j``-th *major slice* — a column of a CSC
matrix or of a dense matrix stored feature-major (Fortran order), or a row of a CSR matrix or
of a C-ordered dense matrix — and gets ``(values, indices, nnz)``.  One loop over
``idx[p], val[p]`` for ``p < nnz`` then serves both layouts.

Dense data is described as a compressed matrix whose slices are full: ``indptr[j] = j·n``
and ``indices`` is a single ``arange(n)`` shared by every slice (``dense = True``), so no
index array of the matrix's size is stored.  Wrappers build the struct with
:func:`make_slices`; they own the arrays (the struct only borrows their pointers).
"""
from libc.stdint cimport int32_t, int64_t


cdef struct Slices:
    const double* data        # values, slice j at data[indptr[j]:indptr[j + 1]]
    const int32_t* indices    # minor index of each value (dense: one arange(n_minor))
    const int64_t* indptr     # n_major + 1 offsets
    Py_ssize_t n_major        # number of slices (columns of CSC, rows of CSR)
    Py_ssize_t n_minor        # length of a dense slice (rows of CSC, columns of CSR)
    bint dense


cdef inline Slices make_slices(const double[::1] data, const int32_t[::1] indices,
                               const int64_t[::1] indptr, Py_ssize_t n_minor,
                               bint dense) noexcept nogil:
    cdef Slices s
    s.data = &data[0] if data.shape[0] > 0 else NULL
    s.indices = &indices[0] if indices.shape[0] > 0 else NULL
    s.indptr = &indptr[0]
    s.n_major = indptr.shape[0] - 1
    s.n_minor = n_minor
    s.dense = dense
    return s


cdef inline Py_ssize_t get_slice(const Slices* X, Py_ssize_t j, const double** val,
                                 const int32_t** idx) noexcept nogil:
    """Point ``val``/``idx`` at slice ``j``; returns its number of stored values."""
    cdef int64_t a = X.indptr[j]
    val[0] = X.data + a
    idx[0] = X.indices if X.dense else X.indices + a
    return <Py_ssize_t>(X.indptr[j + 1] - a)


cdef inline bint bad_slices(const double[::1] data, const int32_t[::1] indices,
                            const int64_t[::1] indptr, Py_ssize_t n_minor,
                            bint dense) noexcept nogil:
    """Shape checks of a slices description (O(1); the wrapper validated the contents)."""
    if indptr.shape[0] < 1 or indptr[0] != 0 or indptr[indptr.shape[0] - 1] != data.shape[0]:
        return True
    if dense:
        return indices.shape[0] != n_minor or data.shape[0] != (indptr.shape[0] - 1) * n_minor
    return indices.shape[0] != data.shape[0]
