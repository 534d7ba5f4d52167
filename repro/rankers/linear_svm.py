"""Linear SVM classification as a ranker: the "SVM" baseline of Le & Smola (2007), Table 1 and
Sec. 6.3 (there SVMlight; here the L2-loss linear SVM of LIBLINEAR's primal solver, by the
suite's TRON, so that no scikit-learn is needed at run time).

Labels are binarised (relevant iff label ≥ ``relevant_min``, default 1: the LETOR convention of
P@k and MAP), queries are ignored in training (classification pools the documents), and
documents are ranked by the decision value w·x + b.  Problem (LIBLINEAR ``-s 2`` with bias
``B``, the bias regularised as a feature of constant value B):

    min_w ½‖w‖² + C Σ_d max(0, 1 − y_d w·x̃_d)²,   x̃ = (x, B),  y_d ∈ {−1, +1}.

With I the documents inside the margin and z = X̃w: ∇f = w + 2C X̃_Iᵀ(z_I − y_I),
∇²f·s = s + 2C X̃_Iᵀ X̃_I s (the generalised Hessian of Mangasarian 2002, as LIBLINEAR).
TRON stops when ‖∇f(w)‖ ≤ ``eps``·‖∇f(0)‖ (LIBLINEAR's default 0.01 for this solver is
scaled by the class balance; here the plain relative rule).
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from .base import LinearRanker, dense_matrix
from .tron import TronResult, tron


class _L2SVMObjective:
    def __init__(self, X, s, C):
        self.X, self.s, self.C = X, s, C
        self._I = None

    def fun(self, w):
        z = self.X @ w
        m = 1.0 - self.s * z
        I = m > 0
        self._w, self._z, self._I = np.array(w, copy=True), z, I
        return 0.5 * float(w @ w) + self.C * float(m[I] @ m[I])

    def grad(self, w):
        if self._I is None or not np.array_equal(self._w, w):
            self.fun(w)
        I = self._I
        self._XI = self.X[I]
        return w + 2.0 * self.C * (self._XI.T @ (self._z[I] - self.s[I]))

    def hv(self, d):
        XI = self._XI
        return d + 2.0 * self.C * (XI.T @ (XI @ d))


class LinearSVM(LinearRanker):
    """L2-loss linear SVM classifier ranking by its decision value.  After ``fit``:
    ``coef_`` (w), ``intercept_`` (B·w_bias), ``result_`` (TRON)."""

    def __init__(self, C: float = 1.0, relevant_min: float = 1.0, bias: float = 1.0,
                 eps: float = 1e-3, max_iter: int = 1000):
        self.C, self.relevant_min, self.bias = C, relevant_min, bias
        self.eps, self.max_iter = eps, max_iter

    def _fit_grouped(self, X, y, query_ptr) -> "LinearSVM":
        if not (np.isfinite(self.C) and self.C > 0):
            raise ValueError(f"C must be positive and finite, got {self.C!r}")
        if not (np.isfinite(self.bias) and self.bias >= 0):
            raise ValueError(f"bias must be finite and ≥ 0, got {self.bias!r}")
        X = dense_matrix(X)
        s = np.where(np.asarray(y) >= self.relevant_min, 1.0, -1.0)
        if np.all(s == s[0]):
            raise DataError(f"y: every document is {'relevant' if s[0] > 0 else 'irrelevant'} "
                            f"at relevant_min = {self.relevant_min}: nothing to classify")
        Xt = np.hstack([X, np.full((X.shape[0], 1), float(self.bias))])
        obj = _L2SVMObjective(Xt, s, float(self.C))
        self.result_: TronResult = tron(obj, n=Xt.shape[1], eps=self.eps,
                                        max_iter=self.max_iter)
        self.coef_ = self.result_.w[:-1].copy()
        self.intercept_ = float(self.result_.w[-1] * self.bias)
        return self

    def predict(self, X) -> np.ndarray:
        return super().predict(X) + self.intercept_
