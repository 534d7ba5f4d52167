"""Pointwise least squares on the NDCG gains: a reference scorer of our own, not a method of
any of the five papers.  Regression onto the relevance (Cossock & Zhang 2006, "Subset ranking
using regression") is the plainest way to learn a linear ranking function; regressing onto
the gain 2^r − 1 of eq. (14) of Le & Smola (2007) weights the top grades as NDCG does.

It gives the computed context of lesmola2007's Table 1: what a linear scorer with no ranking
loss at all reaches on the same sampled queries and folds.  Problem (ridge with an
unpenalised intercept b; queries are ignored in training):

    min_{w,b} Σ_d (w·x_d + b − g(r_d))² + ‖w‖²/C,   g(r) = 2^r − 1  (``target="gain"``)
                                                    or g(r) = r      (``target="grade"``).

Solved exactly on the centred data: (X̄ᵀX̄ + I/C) w = X̄ᵀ(g − ḡ).  Documents are ranked by
w·x (b does not change an order within a query).
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from .base import LinearRanker, dense_matrix


class GainRegression(LinearRanker):
    """Ridge regression of ``2^r − 1`` (or of ``r``) on the features.  After ``fit``:
    ``coef_`` (w) and ``intercept_`` (b)."""

    #: a regression onto g(r): any finite grade is a target (repro.data.labels)
    label_contract = "real"

    def __init__(self, C: float = 1.0, target: str = "gain"):
        self.C, self.target = C, target

    def _fit_grouped(self, X, y, query_ptr) -> "GainRegression":
        if not (isinstance(self.C, (int, float, np.floating)) and np.isfinite(self.C)
                and self.C > 0):
            raise ValueError(f"C: expected a positive finite number, got {self.C!r}")
        if self.target not in ("gain", "grade"):
            raise ValueError(f"target: expected 'gain' or 'grade', got {self.target!r}")
        X = dense_matrix(X)
        g = np.exp2(y) - 1.0 if self.target == "gain" else np.asarray(y, dtype=np.float64)
        if not np.all(np.isfinite(g)):
            raise DataError("y: a grade too large for the gain 2^r − 1 (overflow)")
        mx, mg = X.mean(axis=0), float(g.mean())
        Xc = X - mx
        A = Xc.T @ Xc
        A[np.diag_indices_from(A)] += 1.0 / float(self.C)
        self.coef_ = np.linalg.solve(A, Xc.T @ (g - mg))
        self.intercept_ = mg - float(mx @ self.coef_)
        return self
