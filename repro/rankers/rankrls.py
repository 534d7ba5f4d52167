"""RankRLS and greedy RankRLS (Pahikkala, Airola, Naula, Salakoski 2010).

**RankRLS** (§2, eq. 3–6) minimises, over linear scores f(x) = wᵀx (eq. 1, no bias),

    Σ_Q 1/(2|Q|) Σ_{i,j∈Q} (y_i − y_j − f(x_i) + f(x_j))² + λ‖w‖²,

which equals ((Xw − y)ᵀ L (Xw − y) + λ‖w‖²) with L the query-wise centring matrix (eq. 4).
Its minimiser is ordinary RLS on query-centred data, w = (X̂ᵀX̂ + λI)⁻¹X̂ᵀŷ (eq. 5, primal,
O(mn² + n³)).  Predictions use the raw features (a per-query shift changes no ranking).

Leave-query-out (LQO) predictions follow Theorem 3.1 rather than refitting: with
G = (X̂X̂ᵀ + λI)⁻¹ and a = Gŷ, the model trained without query Q predicts ŷ_Q − (G_QQ)⁻¹a_Q on
Q.  In the primal, G_QQ = (I − H_QQ)/λ with H_QQ = X̂_Q (X̂ᵀX̂ + λI)⁻¹ X̂_Qᵀ and
a_Q = (ŷ_Q − X̂_Q w)/λ, so the held-out residual is p_Q = (I − H_QQ)⁻¹(ŷ_Q − X̂_Q w), one
|Q|×|Q| solve per query.  The LQO predictions are query-centred (ranking-equivalent to the
refitted model's raw scores) and Σ_Q ‖p_Q‖² is the LQO squared error of eq. 7.

**Greedy RankRLS** (§3, Algorithm 1) selects k features by forward selection on that LQO
error; see :mod:`repro.rankers.lqo` (kernel ``repro._kernels.lqo``).  One fit yields every
prefix model, so :meth:`GreedyRankRLS.predict` takes any ``k`` up to the fitted one.

Documents need not be grouped by query in ``fit``: they are grouped stably (first
appearance order) with :func:`~repro.rankers.base.group_by_query`; within a query, order is
irrelevant to both methods.
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from ..data.queries import check_query_ptr
from .base import Ranker, expand_grid, group_by_query, refuse_non_finite
from .lqo import GreedyLQO, GreedyPath, centre_by_query, check_finite, check_lambda


def _dense(X) -> np.ndarray:
    return np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=np.float64)


def _grouped(X, y, qid):
    """Dense X, y and query offsets with documents grouped by query, plus the permutation.

    NaN/±inf in ``X`` or ``y`` are refused naming the first offending document (input row)
    and feature, before the shared shape checks of :meth:`Ranker.check_Xy`."""
    X = _dense(X)
    if X.ndim != 2:
        raise DataError(f"X: expected a documents × features matrix, got shape {X.shape}")
    y_arr = np.asarray(y, dtype=np.float64)
    check_finite(X, y_arr if y_arr.shape == (X.shape[0],) else None)
    y, qid = Ranker.check_Xy(X, y_arr, qid)
    order, query_ptr, _ = group_by_query(qid)
    return X[order], y[order], query_ptr, order


class RankRLS(Ranker):
    """RankRLS on all features (eq. 5) with exact LQO predictions (Theorem 3.1).

    :meth:`fit_grid` over ``lam`` shares the centring and X̂ᵀX̂ (a grid costs one O(mn²)
    product and one n×n solve per λ)."""

    def __init__(self, lam: float = 1.0):
        self.lam = lam

    def fit(self, X, y, qid) -> "RankRLS":
        X, y, query_ptr, order = _grouped(X, y, qid)
        return self._solve(self._prepare(X, y, query_ptr, order))

    def _fit_grouped(self, X, y, query_ptr) -> "RankRLS":
        X = _dense(X)
        check_finite(X, np.asarray(y, dtype=np.float64))
        return self._solve(self._prepare(X, y, query_ptr, None))

    def fit_grid(self, data, grid):
        cands = expand_grid(grid)
        if any(set(c) - {"lam"} for c in cands):
            yield from super().fit_grid(data, cands)
            return
        X = _dense(data.X)
        check_finite(X, data.y)
        state = self._prepare(X, data.y, data.query_ptr, None)
        for c in cands:
            yield c, self.clone().set_params(**c)._solve(state)

    @staticmethod
    def _prepare(X, y, query_ptr, order) -> tuple:
        query_ptr = check_query_ptr(query_ptr, X.shape[0])
        if order is None:
            order = np.arange(X.shape[0])
        Xh = centre_by_query(X, query_ptr)
        yh = centre_by_query(np.asarray(y, dtype=np.float64), query_ptr)
        return Xh, yh, Xh.T @ Xh, Xh.T @ yh, query_ptr, order

    def _solve(self, state) -> "RankRLS":
        lam = check_lambda(self.lam)
        Xh, yh, XtX, Xty, query_ptr, order = state
        K = XtX.copy()
        K[np.diag_indices_from(K)] += lam
        self.coef_ = np.linalg.solve(K, Xty)                       # eq. (5)
        self.n_features_ = Xh.shape[1]
        self._fit_state = (Xh, yh, K, query_ptr, order)
        return self

    def _fitted(self):
        if not hasattr(self, "_fit_state"):
            raise RuntimeError("RankRLS: call fit first")
        return self._fit_state

    def predict(self, X) -> np.ndarray:
        self._fitted()
        X = _dense(X)
        if X.ndim == 2:
            refuse_non_finite(X)
        if X.ndim != 2 or X.shape[1] != self.n_features_:
            raise DataError(f"X: expected {self.n_features_} feature columns, got shape {X.shape}")
        return X @ self.coef_

    def lqo_residuals(self) -> np.ndarray:
        """p = ŷ − (LQO prediction) per training document (input order), Theorem 3.1.

        A one-document query has p = 0.  A query whose labels are all equal has ŷ_Q = 0 and
        p_Q = −(its centred held-out predictions): zero only if no other query has two
        relevance levels (w_{−Q} = 0) or its features are constant within it."""
        Xh, yh, K, query_ptr, order = self._fitted()
        r = yh - Xh @ self.coef_
        KinvXt = np.linalg.solve(K, Xh.T)                  # (X̂ᵀX̂ + λI)⁻¹ X̂ᵀ, n × m
        p = np.empty_like(r)
        for q in range(query_ptr.shape[0] - 1):
            lo, hi = query_ptr[q], query_ptr[q + 1]
            H = Xh[lo:hi] @ KinvXt[:, lo:hi]
            p[lo:hi] = np.linalg.solve(np.eye(hi - lo) - H, r[lo:hi])
        out = np.empty_like(p)
        out[order] = p
        return out

    def lqo_predictions(self) -> np.ndarray:
        """Query-centred predictions of the models trained without each document's query."""
        _, yh, _, _, order = self._fitted()
        yc = np.empty_like(yh)
        yc[order] = yh
        return yc - self.lqo_residuals()

    def lqo_error(self) -> float:
        """Σ_Q ‖p_Q‖², the LQO squared error (eq. 7)."""
        return float(np.sum(self.lqo_residuals() ** 2))


def _check_k(k):
    if k is not None and int(k) < 1:
        raise DataError(f"k: the number of features to select must be ≥ 1, got {k}")


class GreedyRankRLS(Ranker):
    """Greedy RankRLS (Algorithm 1): RankRLS on ``k`` features chosen by LQO error.

    After ``fit``: ``selected_`` (0-based feature indices in selection order),
    ``lqo_errors_`` (LQO squared error after each step), ``coef_`` (dense weights of the
    k-feature model), ``k_`` (the number of features actually selected) and ``path_``
    (:class:`~repro.rankers.lqo.GreedyPath`, every prefix model).  ``k=None`` selects every
    feature.

    :meth:`fit_grid` over (``lam``, ``k``) runs one selection path per λ, as long as the
    largest k of that λ, and yields every prefix model (the λ × k grid costs one run per λ);
    the centring is shared by all λ.
    """

    def __init__(self, lam: float = 1.0, k: int | None = None):
        self.lam = lam
        self.k = k

    def fit(self, X, y, qid) -> "GreedyRankRLS":
        X, y, query_ptr, _ = _grouped(X, y, qid)       # names the input row of a NaN
        return self._fit_grouped(X, y, query_ptr)

    def _fit_grouped(self, X, y, query_ptr) -> "GreedyRankRLS":
        _check_k(self.k)
        return self._use_path(GreedyLQO(X, y, query_ptr).path(self.lam, self.k), self.k)

    def _use_path(self, path: GreedyPath, k) -> "GreedyRankRLS":
        self.path_ = path
        self.k_ = path.k if k is None else min(int(k), path.k)
        self.selected_ = path.selected[:self.k_]
        self.lqo_errors_ = path.lqo_errors[:self.k_]
        self.coef_ = path.coef(self.k_)
        return self

    def fit_grid(self, data, grid):
        cands = expand_grid(grid)
        if any(set(c) - {"lam", "k"} for c in cands):
            yield from super().fit_grid(data, cands)
            return
        for c in cands:
            _check_k(c.get("k", self.k))
        lqo = GreedyLQO(data.X, data.y, data.query_ptr)
        paths: dict = {}
        for c in cands:                                # one path per λ, long enough for all k
            lam = c.get("lam", self.lam)
            k = c.get("k", self.k)
            need = lqo.n_features if k is None else min(int(k), lqo.n_features)
            paths[lam] = max(paths.get(lam, 0), need)
        paths = {lam: lqo.path(lam, k) for lam, k in paths.items()}
        for c in cands:
            model = self.clone().set_params(**c)
            yield c, model._use_path(paths[model.lam], model.k)

    def predict(self, X, k: int | None = None) -> np.ndarray:
        """Scores of the model with the first ``k`` selected features (default: the fitted
        ``k_``)."""
        self._check_fitted("path_")
        refuse_non_finite(X)
        return self.path_.scores(X, self.k_ if k is None else int(k))
