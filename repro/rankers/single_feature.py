"""Ranking by one feature (e.g. BM25): the "no learning" baseline of Le & Smola (2007),
Sec. 6.3 ("BM25 is used as a baseline").  ``feature`` is the 0-based column; ``sign`` = −1
ranks by the negated feature.  Fitting only checks the column exists."""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from .base import LinearRanker


class SingleFeature(LinearRanker):
    def __init__(self, feature: int = 0, sign: float = 1.0):
        self.feature, self.sign = feature, sign

    def _fit_grouped(self, X, y, query_ptr) -> "SingleFeature":
        d = X.shape[1]
        if not (isinstance(self.feature, (int, np.integer)) and 0 <= self.feature < d):
            raise DataError(f"feature: expected a column index in 0..{d - 1}, got "
                            f"{self.feature!r}")
        if self.sign not in (1, -1, 1.0, -1.0):
            raise ValueError(f"sign must be 1 or -1, got {self.sign!r}")
        self.coef_ = np.zeros(d)
        self.coef_[self.feature] = float(self.sign)
        return self
