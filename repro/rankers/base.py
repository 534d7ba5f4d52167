"""The ranker interface shared by every method of the suite.

``fit(X, y, qid)`` takes documents ``X`` (n × d, dense or CSR), relevance labels ``y`` and one
query id per document; ``predict(X)`` returns one score per document (higher = ranked
higher).  Documents of a query need not be contiguous in the input: :func:`group_by_query`
orders them stably by query, which is what the kernels expect (CSR-style offsets).
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError


def group_by_query(qid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(order, query_ptr, qids)``: a stable permutation grouping documents by query (in
    order of first appearance), the query offsets in that order, and the query ids."""
    qid = np.asarray(qid)
    if qid.ndim != 1 or qid.size == 0:
        raise DataError("qid: expected a non-empty 1-d array with one query id per document")
    uniq, first, inverse = np.unique(qid, return_index=True, return_inverse=True)
    rank = np.empty(uniq.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(uniq.size)   # first-appearance order
    q_of_doc = rank[inverse.ravel()]
    order = np.argsort(q_of_doc, kind="stable")
    sizes = np.bincount(q_of_doc, minlength=uniq.size)
    query_ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    qids = uniq[np.argsort(first, kind="stable")]
    return order.astype(np.int64), query_ptr, qids


class Ranker:
    """Base class: subclasses implement ``fit`` and ``predict``."""

    def fit(self, X, y, qid) -> "Ranker":
        raise NotImplementedError

    def predict(self, X) -> np.ndarray:
        raise NotImplementedError

    def fit_data(self, data) -> "Ranker":
        """``fit`` on a :class:`~repro.data.queries.QueryData`."""
        return self.fit(data.X, data.y, data.qid_per_doc)

    @staticmethod
    def check_Xy(X, y, qid):
        n = X.shape[0]
        y = np.asarray(y, dtype=np.float64)
        qid = np.asarray(qid)
        if y.shape != (n,) or qid.shape != (n,):
            raise DataError(f"fit: X has {n} rows but y has shape {y.shape} and qid {qid.shape}")
        if not np.all(np.isfinite(y)):
            raise DataError("fit: y contains NaN or infinite labels")
        if not hasattr(X, "tocsr") and not np.all(np.isfinite(X)):
            raise DataError("fit: X contains NaN or infinite values")
        return y, qid
