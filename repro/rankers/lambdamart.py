"""LambdaMART (Burges 2010) through LightGBM's ``lambdarank`` objective: the *modern reference*
shown beside the papers' LETOR tables (not a method of any reproduced paper).

Optional: needs the ``modern`` extra (``pip install -e ".[modern]"``); without it ``fit``
raises :class:`~repro.errors.Unavailable`.  Deterministic: one thread, LightGBM's
``deterministic`` mode and a fixed ``seed`` (the experiments pass one derived from the run's
identity).  Labels must be non-negative integers (relevance grades).

:meth:`LambdaMART.fit_grid` fits one ensemble per setting of the other parameters, as long as
the largest ``n_estimators`` asked, and yields its prefixes for the smaller ones (boosting is
sequential, so the first k trees are exactly the k-tree model).
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError, Unavailable
from .base import Ranker, expand_grid

try:                                   # the `modern` extra
    import lightgbm
except ImportError:                    # pragma: no cover - exercised where it is absent
    lightgbm = None


#: Most documents LightGBM's lambdarank objective takes in one query.
MAX_QUERY_DOCS = 10_000


class LambdaMART(Ranker):
    """Gradient-boosted trees with the LambdaRank gradient (NDCG), by LightGBM."""

    def __init__(self, n_estimators: int = 100, learning_rate: float = 0.1,
                 num_leaves: int = 31, min_child_samples: int = 20, seed: int = 0):
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.min_child_samples = min_child_samples
        self.seed = seed

    def _booster_params(self) -> dict:
        return {"objective": "lambdarank", "learning_rate": float(self.learning_rate),
                "num_leaves": int(self.num_leaves),
                "min_data_in_leaf": int(self.min_child_samples), "seed": int(self.seed),
                "deterministic": True, "force_row_wise": True, "num_threads": 1,
                "verbosity": -1}

    def _train(self, X, y, query_ptr, rounds: int):
        if lightgbm is None:
            raise Unavailable("LambdaMART needs LightGBM: pip install -e '.[modern]'")
        y = np.asarray(y, dtype=np.float64)
        if np.any(y < 0) or np.any(y != np.round(y)):
            raise DataError("y: LambdaMART needs non-negative integer relevance grades")
        if int(rounds) < 1:
            raise ValueError(f"n_estimators must be at least 1, got {rounds}")
        sizes = np.diff(np.asarray(query_ptr, dtype=np.int64))
        if sizes.size and int(sizes.max()) > MAX_QUERY_DOCS:
            q = int(np.argmax(sizes))
            raise DataError(f"query {q + 1} (in order) of the training data has {int(sizes[q])} "
                            f"documents; LambdaMART (LightGBM's lambdarank) takes at most "
                            f"{MAX_QUERY_DOCS} a query: split the query or leave it out")
        X = X.toarray() if hasattr(X, "toarray") else np.asarray(X, dtype=np.float64)
        try:
            ds = lightgbm.Dataset(X, label=y.astype(np.int32), group=sizes,
                                  params={"verbosity": -1}, free_raw_data=True)
            return lightgbm.train(self._booster_params(), ds, num_boost_round=int(rounds))
        except lightgbm.basic.LightGBMError as exc:     # its refusal of the input, in a line
            raise DataError(f"LightGBM refused the training data: {exc}") from None

    def _fit_grouped(self, X, y, query_ptr) -> "LambdaMART":
        self.booster_ = self._train(X, y, query_ptr, self.n_estimators)
        self.n_trees_ = int(self.n_estimators)
        self.n_features_ = X.shape[1]
        return self

    def fit_grid(self, data, grid):
        cands = expand_grid(grid)
        fitted: dict = {}
        for c in cands:                                  # one ensemble per other setting
            model = self.clone().set_params(**c)
            other = tuple(sorted((k, v) for k, v in model.get_params().items()
                                 if k != "n_estimators"))
            fitted[other] = max(fitted.get(other, 0), int(model.n_estimators))
        boosters = {}
        for c in cands:
            model = self.clone().set_params(**c)
            other = tuple(sorted((k, v) for k, v in model.get_params().items()
                                 if k != "n_estimators"))
            if other not in boosters:
                boosters[other] = model._train(data.X, data.y, data.query_ptr, fitted[other])
            model.booster_ = boosters[other]
            model.n_trees_ = int(model.n_estimators)
            model.n_features_ = data.n_features
            yield c, model

    def predict(self, X) -> np.ndarray:
        self._check_fitted("booster_")
        X = X.toarray() if hasattr(X, "toarray") else np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.n_features_:
            raise DataError(f"X: expected {self.n_features_} features, got shape {X.shape}")
        return self.booster_.predict(X, num_iteration=self.n_trees_, num_threads=1)
