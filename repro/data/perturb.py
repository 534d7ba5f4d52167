"""Arithmetic perturbation: the same data with every feature value moved by a seeded relative
jitter far below any measurement's precision (default 2⁻⁴⁰ ≈ 9·10⁻¹³), for measuring what a
deterministic but sensitive fit does under last-bit differences — the kind of
difference another BLAS kernel, SIMD width or summation order makes.  A method whose result
moves under it (a selection that flips, a non-convex fit or a cutting-plane path that lands
elsewhere) is judged on the mean over several perturbed fits, not on one fit."""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..errors import DataError
from .queries import QueryData

#: the default relative size of the jitter: 2⁻⁴⁰, some 2¹² ulps of a double
SCALE = 2.0 ** -40


def jittered(data: QueryData, seed, scale: float = SCALE) -> QueryData:
    """``data`` with each stored feature value ``x`` replaced by ``x · (1 + scale · u)``, ``u``
    uniform on [−1, 1] drawn from ``numpy.random.default_rng(seed)`` (zeros stay zero, a
    sparse matrix keeps its pattern); labels, queries and ids unchanged.  ``seed`` None: the
    data itself (replicate 0 of a perturbed series is the unperturbed fit)."""
    if seed is None:
        return data
    scale = float(scale)
    if not np.isfinite(scale) or not 0 <= scale < 1e-3:
        raise DataError(f"scale: a relative jitter in [0, 1e-3), got {scale!r}")
    rng = np.random.default_rng(seed)
    if sp.issparse(data.X):
        X = data.X.copy().tocsr()
        X.data = X.data * (1.0 + scale * rng.uniform(-1.0, 1.0, X.data.shape))
    else:
        X = np.asarray(data.X, dtype=np.float64)
        X = np.ascontiguousarray(X * (1.0 + scale * rng.uniform(-1.0, 1.0, X.shape)))
    return QueryData(X, data.y, data.query_ptr, data.qids, data.docids, data.source,
                     data.line_no)
