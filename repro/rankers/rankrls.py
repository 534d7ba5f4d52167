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
from .base import Ranker, group_by_query
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
    """RankRLS on all features (eq. 5) with exact LQO predictions (Theorem 3.1)."""

    def __init__(self, lam: float = 1.0):
        self.lam = check_lambda(lam)

    def fit(self, X, y, qid) -> "RankRLS":
        return self._solve(self._prepare(X, y, qid))

    @classmethod
    def fit_lambdas(cls, X, y, qid, lams) -> list["RankRLS"]:
        """One fitted model per λ in ``lams``, sharing the centring and X̂ᵀX̂ (a grid
        search costs one O(mn²) product and one n×n solve per λ)."""
        state = None
        models = []
        for lam in lams:
            model = cls(lam)
            state = model._prepare(X, y, qid) if state is None else state
            models.append(model._solve(state))
        return models

    @staticmethod
    def _prepare(X, y, qid) -> tuple:
        X, y, query_ptr, order = _grouped(X, y, qid)
        Xh = centre_by_query(X, query_ptr)
        yh = centre_by_query(y, query_ptr)
        return Xh, yh, Xh.T @ Xh, Xh.T @ yh, query_ptr, order

    def _solve(self, state) -> "RankRLS":
        Xh, yh, XtX, Xty, query_ptr, order = state
        K = XtX.copy()
        K[np.diag_indices_from(K)] += self.lam
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


class GreedyRankRLS(Ranker):
    """Greedy RankRLS (Algorithm 1): RankRLS on ``k`` features chosen by LQO error.

    After ``fit``: ``selected_`` (0-based feature indices in selection order),
    ``lqo_errors_`` (LQO squared error after each step), ``coef_`` (dense weights of the
    k-feature model) and ``path_`` (:class:`~repro.rankers.lqo.GreedyPath`, every prefix
    model).  ``k=None`` selects every feature.
    """

    def __init__(self, lam: float = 1.0, k: int | None = None):
        self.lam = check_lambda(lam)
        if k is not None and int(k) < 1:
            raise DataError(f"k: the number of features to select must be ≥ 1, got {k}")
        self.k = k

    def fit(self, X, y, qid) -> "GreedyRankRLS":
        X, y, query_ptr, _ = _grouped(X, y, qid)
        self.path_: GreedyPath = GreedyLQO(X, y, query_ptr).path(self.lam, self.k)
        self.selected_ = self.path_.selected
        self.lqo_errors_ = self.path_.lqo_errors
        self.coef_ = self.path_.coef(self.path_.k)
        return self

    def predict(self, X, k: int | None = None) -> np.ndarray:
        """Scores of the model with the first ``k`` selected features (default: all)."""
        if not hasattr(self, "path_"):
            raise RuntimeError("GreedyRankRLS: call fit first")
        return self.path_.scores(X, self.path_.k if k is None else int(k))
