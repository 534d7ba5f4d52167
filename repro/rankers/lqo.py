"""Greedy RankRLS selection path (wrapper of the ``repro._kernels.lqo`` kernel).

Pahikkala et al. (2010), Algorithm 1: forward selection of features for RankRLS (eq. 3–6),
each step adding the feature whose addition gives the smallest exact leave-query-out (LQO)
squared error (eq. 7, Theorem 3.1), in O(kmn) time and O(mn) memory.

RankRLS is RLS (ridge regression without bias) on query-wise centred data: X̂ = XL, ŷ = Ly
(§2, eq. 5), so the wrapper checks the input, centres each feature and the labels within
every query (kernel ``centre_transpose``), stores X̂ feature-major (n×m, one contiguous
column per feature, what the kernel sweeps) and hands the kernel caller-allocated caches
C, U (n×m), a, p (m).  One run of k steps yields the
whole path: the order in which features were chosen, the LQO error after every step, the
LQO error of every candidate at every step, and the weights of every prefix model
S₁ ⊂ S₂ ⊂ … ⊂ S_k (line 30, w = X̂_S a) — so a grid over k costs one run per λ.

Conventions (the paper leaves them open; documented here and in the paper module):

* documents must be grouped by query (``query_ptr`` offsets); a query of one document
  centres to zeros and contributes nothing to the error; a query whose labels are all equal
  has ŷ_Q = 0 but still contributes the spread of its held-out predictions ‖X̂_Q w_{−Q}‖²
  (eq. 3 penalises score differences between equally relevant documents) — zero only when
  its features are constant within it or no other query has two relevance levels (then
  w_{−Q} = 0);
* a feature constant within every query centres to zero: it leaves the error unchanged and
  gets weight 0 if chosen;
* ties in the LQO error keep the lower feature index (the strict ``<`` of line 17 with the
  candidates visited in increasing index order);
* ``k`` larger than the number of features selects every feature;
* sparse ``X`` is densified (the caches are dense m×n anyway), any memory layout and
  stride is accepted (copied to C order); NaN or infinite values are refused with a
  :class:`~repro.errors.DataError` naming the first offending document and feature
  (:func:`check_finite`, also used by :mod:`repro.rankers.rankrls`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels import lqo as _kernel
from ..data.queries import check_query_ptr
from ..errors import DataError, check_status


def check_finite(X: np.ndarray, y: np.ndarray | None = None) -> None:
    """Refuse NaN/±inf in a dense ``X`` (documents × features) or in ``y`` with a
    :class:`DataError` naming the first offending document (row) and feature (column)."""
    if not np.all(np.isfinite(X)):
        r, c = np.argwhere(~np.isfinite(X))[0]
        raise DataError(f"X: value {X[r, c]} at document {r}, feature {c} is not finite")
    if y is not None and not np.all(np.isfinite(y)):
        r = int(np.flatnonzero(~np.isfinite(y))[0])
        raise DataError(f"y: label {y[r]} at document {r} is not finite")


def centre_transpose(X, query_ptr, out: np.ndarray | None = None) -> np.ndarray:
    """X̂ = XL stored feature-major (features × documents, C order), by the kernel
    ``centre_transpose``; ``query_ptr`` must already be checked.  ``out``, if given, must
    be a C-contiguous float64 array of that shape (a :class:`ValueError` otherwise)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"centre_transpose: X must be 2-d, got shape {X.shape}")
    m, n = X.shape
    out = np.empty((n, m)) if out is None else out
    check_status(_kernel.centre_transpose(X, query_ptr, np.empty(n), out), "centre_transpose",
                 lambda code: ValueError(f"centre_transpose: inconsistent shapes: X {X.shape}, "
                                         f"query_ptr {np.shape(query_ptr)}, "
                                         f"out {np.shape(out)}"))
    return out


def centre_by_query(A: np.ndarray, query_ptr: np.ndarray) -> np.ndarray:
    """``L A``: every column of ``A`` (documents × …, or a vector) minus its query mean."""
    A = np.asarray(A, dtype=np.float64)
    sizes = np.diff(query_ptr)
    means = np.add.reduceat(A, query_ptr[:-1], axis=0)
    means /= sizes.reshape((-1,) + (1,) * (A.ndim - 1))
    return A - np.repeat(means, sizes, axis=0)


def check_lambda(lam) -> float:
    lam = float(lam)
    if not np.isfinite(lam) or lam <= 0:
        raise DataError(f"lam: the regularisation parameter must be a finite λ > 0, got {lam!r}")
    return lam


@dataclass
class GreedyPath:
    """Result of one greedy RankRLS run (k steps at one λ).

    ``selected[s]`` is the (0-based) feature added at step ``s``; ``lqo_errors[s]`` the LQO
    squared error (eq. 7) of S_{s+1}; ``candidate_errors[s, i]`` the error S_s ∪ {i} would
    have had (NaN for features already in S_s); ``weights[s, :s+1]`` the weights of the
    RankRLS model on the features ``selected[:s+1]`` (in that order).  ``operations``: the
    kernel's count of the run's work, ``{"multiply-adds": …, "cache writes": …}``
    (deterministic: a function of m, n, k and the query sizes; see ``greedy_select``).
    """
    lam: float
    selected: np.ndarray
    lqo_errors: np.ndarray
    candidate_errors: np.ndarray
    weights: np.ndarray
    n_features: int
    operations: dict | None = None

    @property
    def k(self) -> int:
        return int(self.selected.shape[0])

    def prefix(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``(features, w)`` of the model with the first ``k`` selected features."""
        if not 1 <= k <= self.k:
            raise DataError(f"k: the path has models with 1..{self.k} features, got {k}")
        return self.selected[:k].copy(), self.weights[k - 1, :k].copy()

    def coef(self, k: int) -> np.ndarray:
        """Weights of the ``k``-feature model as a dense vector over all features."""
        feats, w = self.prefix(k)
        out = np.zeros(self.n_features)
        out[feats] = w
        return out

    def scores(self, X, k: int) -> np.ndarray:
        """f(x) = wᵀx_S (eq. 1) for every row of ``X`` (uncentred features)."""
        feats, w = self.prefix(k)
        sparse = hasattr(X, "tocsr")
        X = X.tocsr() if sparse else np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.n_features:
            raise DataError(f"X: expected {self.n_features} feature columns, got shape {X.shape}")
        if sparse:     # only the k selected columns are densified, in the layout of the
            # dense X[:, feats] (Fortran order): the same product, bit for bit
            return np.asarray(X[:, feats].toarray(order="F"), dtype=np.float64) @ w
        return X[:, feats] @ w


class GreedyLQO:
    """Greedy RankRLS on one training set, for any number of λ values.

    ``X`` (documents × features, grouped by query), ``y`` and ``query_ptr`` are checked and
    centred once (X̂ stored feature-major); :meth:`path` runs Algorithm 1 for one λ,
    reusing the O(mn) caches between calls.
    """

    def __init__(self, X, y, query_ptr):
        X = np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=np.float64)
        if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
            raise DataError(f"X: expected a non-empty documents × features matrix, got shape "
                            f"{X.shape}")
        m, n = X.shape
        y = np.ascontiguousarray(y, dtype=np.float64)
        if y.shape != (m,):
            raise DataError(f"y: expected {m} labels (one per document), got shape {y.shape}")
        check_finite(X, y)
        self.query_ptr = check_query_ptr(query_ptr, m)
        self.n_docs, self.n_features = m, n
        self.Xh = centre_transpose(X, self.query_ptr)                         # X̂, n×m
        self.yh = centre_transpose(y.reshape(m, 1), self.query_ptr)[0]        # ŷ
        self._C = np.empty((n, m))
        self._U = np.empty((n, m))
        self._a = np.empty(m)
        self._p = np.empty(m)
        self._work = np.empty(11 * (self.query_ptr.shape[0] - 1) + 2 * n)

    def path(self, lam: float, k: int | None = None) -> GreedyPath:
        """Algorithm 1 with regularisation ``lam`` for ``k`` steps (default: all features)."""
        lam = check_lambda(lam)
        n = self.n_features
        k = n if k is None else int(k)
        if k < 1:
            raise DataError(f"k: the number of features to select must be ≥ 1, got {k}")
        k = min(k, n)
        selected = np.zeros(k, dtype=np.int64)
        errors = np.zeros(k)
        cand = np.zeros((k, n))
        W = np.zeros((k, k))
        ops = np.zeros(2, dtype=np.int64)
        done = _kernel.greedy_select(self.Xh, self.yh, self.query_ptr, lam, self._C, self._U,
                                     self._a, self._p, self._work, selected, errors, cand, W,
                                     ops)
        check_status(done, "lqo.greedy_select")   # cannot fail: the arrays above match
        if done != k:      # cannot happen with finite data and λ > 0 (checked above)
            raise FloatingPointError(f"greedy RankRLS: no candidate with a finite LQO error "
                                     f"at step {done + 1} (λ = {lam})")
        cand[np.isinf(cand)] = np.nan
        return GreedyPath(lam, selected, errors, cand, W, n,
                          {"multiply-adds": int(ops[0]), "cache writes": int(ops[1])})


def greedy_path(X, y, query_ptr, lam: float, k: int | None = None) -> GreedyPath:
    """One greedy RankRLS run: see :class:`GreedyLQO` and :class:`GreedyPath`."""
    return GreedyLQO(X, y, query_ptr).path(lam, k)
