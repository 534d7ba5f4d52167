"""Row and column access to a documents × features matrix, as the kernels read it
(``kernels/column_access.pxd``): a compressed description of the matrix's *major slices* —
the columns (:class:`ColumnData`, Domination Rank's coordinate descent) or the rows
(:class:`RowData`, PAMIR's triplet updates).

Sparse input is converted to CSC (columns) or CSR (rows), duplicates summed and indices
sorted; dense input is described as full slices (``indptr[j] = j·n_minor``) over one shared
``indices = arange(n_minor)`` — feature-major values for columns, row-major for rows.  Both
refuse an empty, non-2-d or non-finite matrix with an error naming the argument, the document
and the feature.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..errors import DataError


def _checked_compressed(X, fmt: str, name: str):
    """``X`` as a float64 CSC (``fmt = "csc"``) or CSR matrix, canonical and finite."""
    M = sp.csc_matrix(X, dtype=np.float64) if fmt == "csc" else \
        sp.csr_matrix(X, dtype=np.float64)
    M.sum_duplicates()
    M.sort_indices()
    if M.shape[0] == 0 or M.shape[1] == 0:
        raise DataError(f"{name}: expected a non-empty documents × features matrix, "
                        f"got shape {M.shape}")
    if not np.all(np.isfinite(M.data)):
        p = int(np.flatnonzero(~np.isfinite(M.data))[0])
        major = int(np.searchsorted(M.indptr, p, side="right") - 1)
        doc, feat = (int(M.indices[p]), major) if fmt == "csc" else (major, int(M.indices[p]))
        raise DataError(f"{name}: value {M.data[p]} at document {doc}, feature {feat} is not "
                        f"finite")
    return M


def _checked_dense(X, name: str) -> np.ndarray:
    A = np.asarray(X, dtype=np.float64)
    if A.ndim != 2 or A.shape[0] == 0 or A.shape[1] == 0:
        raise DataError(f"{name}: expected a non-empty documents × features matrix, got "
                        f"shape {A.shape}")
    if not np.all(np.isfinite(A)):
        r, c = (int(v) for v in np.argwhere(~np.isfinite(A))[0])
        raise DataError(f"{name}: value {A[r, c]} at document {r}, feature {c} is not finite")
    return A


@dataclass
class ColumnData:
    """A documents × features matrix by columns, as the kernel reads it (``column_access.pxd``):
    CSC arrays for sparse input; for dense input the feature-major values with full columns
    (``indptr[r] = r·n``) and one shared ``indices = arange(n)``."""
    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray
    n_rows: int
    dense: bool
    matrix: object = field(repr=False, default=None)    # the dense (n × d) or CSC matrix
    _by_rows: object = field(repr=False, default=None, compare=False)   # CSR copy (take_rows)

    @property
    def n_features(self) -> int:
        return int(self.indptr.shape[0] - 1)

    @classmethod
    def from_matrix(cls, X, name: str = "X") -> "ColumnData":
        """Check (2-d, non-empty, finite) and convert a dense array or scipy sparse matrix."""
        if isinstance(X, ColumnData):
            return X
        if sp.issparse(X):
            C = _checked_compressed(X, "csc", name)
            return cls(np.ascontiguousarray(C.data), C.indices.astype(np.int32),
                       C.indptr.astype(np.int64), C.shape[0], False, C)
        A = _checked_dense(X, name)
        n, d = A.shape
        return cls(np.ascontiguousarray(A.T).ravel(), np.arange(n, dtype=np.int32),
                   np.arange(d + 1, dtype=np.int64) * n, n, True, A)

    def take_rows(self, rows: np.ndarray) -> "ColumnData":
        """The sub-matrix of the given rows (in that order).  Sparse: the rows of a CSR copy
        (made once per matrix; a row subset of CSC is a scan of every column), converted back
        to the same canonical CSC."""
        if self.dense:
            return ColumnData.from_matrix(self.matrix[rows])
        if self._by_rows is None:
            self._by_rows = self.matrix.tocsr()
        return ColumnData.from_matrix(self._by_rows[rows])

    def column_max_sq(self, row_group: np.ndarray, n_groups: int) -> np.ndarray:
        """``B[g, r] = max_{j: row_group[j] = g} x_jr²`` (rows with group −1 ignored)."""
        d = self.n_features
        B = np.zeros((n_groups, d))
        if self.dense:
            A = self.matrix
            for g in range(n_groups):
                rows = np.flatnonzero(row_group == g)
                if rows.size:
                    B[g] = np.max(A[rows] ** 2, axis=0)
            return B
        # the squares grouped by (group, column), each group's maximum by reduceat (a max is
        # exact, so the order of the comparisons does not matter); B starts at 0 ≤ x²
        col = np.repeat(np.arange(d, dtype=np.int64), np.diff(self.indptr))
        grp = row_group[self.indices]
        keep = grp >= 0
        key = grp[keep] * d + col[keep]
        sq = self.data[keep] ** 2
        if key.size == 0:
            return B
        if n_groups > 1:                         # one group: already in column order
            order = np.argsort(key, kind="stable")
            key, sq = key[order], sq[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        B.ravel()[key[starts]] = np.maximum(0.0, np.maximum.reduceat(sq, starts))
        return B


@dataclass
class RowData:
    """A documents × features matrix by rows, as the kernel reads it: CSR arrays, or the
    C-ordered values of a dense matrix with full rows."""
    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray
    n_cols: int
    dense: bool

    @property
    def n_rows(self) -> int:
        return int(self.indptr.shape[0] - 1)

    @classmethod
    def from_matrix(cls, X, name: str = "X") -> "RowData":
        """Check (2-d, non-empty, finite) and convert a dense array or scipy sparse matrix."""
        if isinstance(X, RowData):
            return X
        if sp.issparse(X):
            R = _checked_compressed(X, "csr", name)
            return cls(np.ascontiguousarray(R.data), R.indices.astype(np.int32),
                       R.indptr.astype(np.int64), R.shape[1], False)
        A = _checked_dense(X, name)
        n, d = A.shape
        return cls(np.ascontiguousarray(A).ravel(), np.arange(d, dtype=np.int32),
                   np.arange(n + 1, dtype=np.int64) * d, d, True)
