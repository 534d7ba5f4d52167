"""The ranker interface shared by every method of the suite.

``fit(X, y, qid)`` takes documents ``X`` (n × d, dense or CSR), relevance labels ``y`` and one
query id per document; ``predict(X)`` returns one score per document (higher = ranked
higher).  Documents of a query need not be contiguous in the input: :func:`group_by_query`
orders them stably by query, which is what the kernels expect (CSR-style offsets).

Rankers follow scikit-learn's estimator conventions without depending on it at run time, and
work inside its model selection (``Pipeline``, ``cross_val_score``, ``GridSearchCV`` with
``GroupKFold``; :mod:`repro.rankers.sklearn_compat`):

* the constructor stores its arguments as given (no checks, no conversion): checks happen in
  ``fit``, so ``get_params``/``set_params`` round-trip and ``sklearn.base.clone`` works;
* fitted state lives in attributes with a trailing underscore (``coef_``, ``result_``);
* a subclass implements :meth:`Ranker._fit_grouped` (documents already grouped by query, as
  ``query_ptr`` offsets) and ``predict``; :meth:`Ranker.fit` groups ``(X, y, qid)``, and
  :meth:`Ranker.fit_data` passes a :class:`~repro.data.queries.QueryData` straight through
  (no qid round trip);
* :meth:`Ranker.fit_grid` yields ``(params, fitted model)`` over a parameter grid — by default
  one clone and one fit per candidate; a ranker overrides it where the grid is cheaper as a
  whole (a shared factorisation, a regularisation path, warm starts).
"""
from __future__ import annotations

import inspect
import itertools
from typing import Iterator

import numpy as np

from ..data.labels import check_labels
from ..errors import DataError
from ..metrics.letor_eval import group_documents
from .fixed_order import matvec
from .sklearn_compat import SklearnRanker, refuse_unrouted_selection


def group_by_query(qid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(order, query_ptr, qids)``: a stable permutation grouping documents by query (in
    order of first appearance), the query offsets in that order, and the query ids."""
    return group_documents(qid)


def expand_grid(grid) -> list[dict]:
    """Candidates of a parameter grid, in a fixed order: a list of dicts is taken as it is;
    a dict of lists is expanded as a Cartesian product, the first key varying slowest
    (``{"lam": [1, 2], "k": [1, 2]}`` → (1,1), (1,2), (2,1), (2,2))."""
    if isinstance(grid, dict):
        keys = list(grid)
        values = [list(v) if isinstance(v, (list, tuple, range, np.ndarray)) else [v]
                  for v in grid.values()]
        return [dict(zip(keys, combo)) for combo in itertools.product(*values)]
    out = [dict(c) for c in grid]
    if not all(isinstance(c, dict) for c in grid):
        raise TypeError("grid: expected a dict of value lists or a list of parameter dicts")
    return out


def all_finite(a) -> bool:
    """Whether every value of array ``a`` is finite, without a boolean copy of ``a`` (a large
    feature matrix): a sum of finite values is finite unless it overflows; only then (or when
    something is not finite) are the values tested one by one."""
    a = np.asarray(a)
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(np.sum(a)):
            return True
    return bool(np.isfinite(a).all())


class Ranker(SklearnRanker):
    """Base class: subclasses implement ``_fit_grouped`` and ``predict``; scikit-learn's model
    selection works through :class:`~repro.rankers.sklearn_compat.SklearnRanker` (tags,
    ``score``, routing of ``qid``)."""

    # -- scikit-learn estimator conventions ----------------------------------------------------
    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        names = []
        for p in list(sig.parameters.values())[1:]:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"{cls.__name__}: rankers take explicit keyword parameters "
                                f"(no *args/**kwargs), so that get_params can list them")
            names.append(p.name)
        return names

    def get_params(self, deep: bool = True) -> dict:
        """The constructor arguments, as stored (scikit-learn convention)."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params) -> "Ranker":
        """Set constructor arguments (unknown names are an error naming the valid ones)."""
        valid = self._param_names()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"{type(self).__name__}.set_params: unknown parameter "
                                 f"{name!r}; parameters: {', '.join(valid)}")
            setattr(self, name, value)
        return self

    def clone(self) -> "Ranker":
        """An unfitted copy with the same parameters and qid requests (what
        ``sklearn.base.clone`` does)."""
        new = type(self)(**self.get_params())
        req = self.__dict__.get("_metadata_request")
        if req is not None:
            new.__dict__["_metadata_request"] = req.__sklearn_clone__()
        return new

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    # -- fitting --------------------------------------------------------------------------------
    def _fit_grouped(self, X, y: np.ndarray, query_ptr: np.ndarray) -> "Ranker":
        """Fit on documents grouped by query (rows ``query_ptr[q]:query_ptr[q+1]``)."""
        raise NotImplementedError

    def fit(self, X, y, qid) -> "Ranker":
        """Fit on documents in any order: ``qid`` gives each document's query."""
        y, qid = self.check_Xy(X, y, qid)
        order, query_ptr, _ = group_by_query(qid)
        if not np.array_equal(order, np.arange(order.shape[0])):
            X = X[order]
            y = y[order]
        return self._fit_grouped(X, y, query_ptr)

    def fit_data(self, data) -> "Ranker":
        """Fit on a :class:`~repro.data.queries.QueryData` (already grouped by query)."""
        self.check_Xy(data.X, data.y, np.zeros(data.n_docs))
        return self._fit_grouped(data.X, data.y, data.query_ptr)

    def fit_grid(self, data, grid) -> Iterator[tuple[dict, "Ranker"]]:
        """``(params, fitted model)`` for every candidate of ``grid`` (see :func:`expand_grid`),
        in grid order.  Default: a clone with those parameters, fitted on ``data``."""
        for params in expand_grid(grid):
            yield params, self.clone().set_params(**params).fit_data(data)

    def predict(self, X) -> np.ndarray:
        raise NotImplementedError

    #: labels accepted by ``fit`` (:mod:`repro.data.labels`): non-negative integers unless a
    #: ranker documents otherwise
    label_contract = "non-negative integer"

    @classmethod
    def check_Xy(cls, X, y, qid):
        refuse_unrouted_selection()
        n = X.shape[0]
        y = np.asarray(y, dtype=np.float64)
        qid = np.asarray(qid)
        if y.shape != (n,) or qid.shape != (n,):
            raise DataError(f"fit: X has {n} rows but y has shape {y.shape} and qid {qid.shape}")
        check_labels(y, "y", contract=cls.label_contract)
        if not hasattr(X, "tocsr") and not all_finite(X):
            Xa = np.asarray(X)
            r, c = (int(i) for i in np.argwhere(~np.isfinite(Xa))[0])
            raise DataError(f"X: value {Xa[r, c]} at document {r}, feature {c} is not finite")
        return y, qid

    def _check_fitted(self, attr: str = "coef_") -> None:
        if not hasattr(self, attr):
            raise RuntimeError(f"{type(self).__name__}: call fit first")


def refuse_non_finite(X, name: str = "X") -> None:
    """The input contract of every ranker's ``fit`` and ``predict``: a NaN or infinite
    feature is a :class:`DataError` naming its document (row) and feature (column); nothing
    is converted or copied."""
    if hasattr(X, "tocsr"):
        data = X.data
        if np.all(np.isfinite(data)):
            return
        Xr = X.tocsr()
        k = int(np.flatnonzero(~np.isfinite(Xr.data))[0])
        r = int(np.searchsorted(Xr.indptr, k, side="right")) - 1
        raise DataError(f"{name}: value {Xr.data[k]} at document {r}, feature "
                        f"{int(Xr.indices[k])} is not finite")
    if all_finite(X):
        return
    Xa = np.asarray(X)
    r, c = (int(i) for i in np.argwhere(~np.isfinite(Xa))[0])
    raise DataError(f"{name}: value {Xa[r, c]} at document {r}, feature {c} is not finite")


def as_matrix(X):
    """Dense C-contiguous float64, or CSR float64 (unchanged when it already is).  A NaN or
    infinite value is a :class:`DataError` naming its document (row) and feature (column)."""
    if hasattr(X, "tocsr"):
        X = X.tocsr()
        if X.dtype != np.float64:
            X = X.astype(np.float64)
        if not np.all(np.isfinite(X.data)):
            k = int(np.flatnonzero(~np.isfinite(X.data))[0])
            r = int(np.searchsorted(X.indptr, k, side="right")) - 1
            raise DataError(f"X: value {X.data[k]} at document {r}, feature {int(X.indices[k])} "
                            "is not finite")
        return X
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise DataError(f"X: expected a 2-d array, got shape {X.shape}")
    if not all_finite(X):
        r, c = (int(i) for i in np.argwhere(~np.isfinite(X))[0])
        raise DataError(f"X: value {X[r, c]} at document {r}, feature {c} is not finite")
    return X


def dense_matrix(X) -> np.ndarray:
    """Dense C-contiguous float64 documents × features: :func:`as_matrix`, with sparse input
    densified (for rankers whose loops index documents by row)."""
    X = as_matrix(X)
    if hasattr(X, "toarray"):
        X = np.ascontiguousarray(X.toarray())
    return X


class LinearRanker(Ranker):
    """A ranker whose scores are f(x) = wᵀx with the fitted weights ``coef_`` (dense or CSR
    input; the feature count is checked).  Scores are summed in feature order
    (:func:`.fixed_order.matvec`), not by BLAS: two equal documents score exactly equal and no
    BLAS kernel changes a score's last bit (a tie broken by one would change a metric)."""

    def predict(self, X) -> np.ndarray:
        self._check_fitted()
        X = as_matrix(X)
        if X.shape[1] != self.coef_.shape[0]:
            raise DataError(f"X: expected {self.coef_.shape[0]} features, got {X.shape[1]}")
        return matvec(X, self.coef_)
