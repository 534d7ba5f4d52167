"""Inner products and products with a documents × features matrix whose bits do not depend on
the BLAS kernel (wrapper of ``kernels/fixed_order.pyx``).

``a @ b`` and ``X @ w`` on dense float64 arrays go to BLAS, which sums in an order its kernel
picks per instruction set (``OPENBLAS_CORETYPE``): the same fit then differs in its last bits
from one machine to another, and a fit that follows those bits — a non-convex L-BFGS path, a
stopping test that lands one iteration earlier — ends somewhere else.  These functions sum in
index order (the kernel's docstring), so a solver that uses them for every inner product and
every product with X computes the same numbers under any BLAS.  Sparse matrices go through
SciPy's own compressed-row loops, which do not call BLAS either.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._kernels import fixed_order as _kernel


def _vector(a, name: str) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=np.float64)
    if a.ndim != 1:
        raise ValueError(f"{name}: expected a 1-d array, got shape {a.shape}")
    return a


def dot(a, b) -> float:
    """a·b summed in index order."""
    a, b = _vector(a, "a"), _vector(b, "b")
    if a.shape != b.shape:
        raise ValueError(f"dot: a has {a.shape[0]} entries, b {b.shape[0]}")
    return float(_kernel.dot(a, b))


def _matrix(X):
    if sp.issparse(X):
        return X
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X: expected a documents × features matrix, got shape {X.shape}")
    return X


def _product(X, v, transposed: bool) -> np.ndarray:
    """Xv (``transposed`` False) or Xᵀv, checked; sparse X through SciPy."""
    name, what, axis = (("rmatvec", "documents", 0) if transposed
                        else ("matvec", "features", 1))
    X, v = _matrix(X), _vector(v, "v" if transposed else "w")
    if X.shape[axis] != v.shape[0]:
        raise ValueError(f"{name}: X has {X.shape[axis]} {what}, "
                         f"{'v' if transposed else 'w'} {v.shape[0]} entries")
    if sp.issparse(X):
        return np.asarray((X.T if transposed else X) @ v, dtype=np.float64).ravel()
    out = np.empty(X.shape[1 - axis])
    (_kernel.rmatvec if transposed else _kernel.matvec)(X, v, out)
    return out


def matvec(X, w) -> np.ndarray:
    """Xw, each row's sum in feature order (sparse X: SciPy's row loop)."""
    return _product(X, w, transposed=False)


def rmatvec(X, v) -> np.ndarray:
    """Xᵀv, each column's sum in document order (sparse X: SciPy's loop)."""
    return _product(X, v, transposed=True)
