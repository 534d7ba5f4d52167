"""Query-grouped data: the one container every ranker and metric of the suite takes.

Documents of one query are contiguous; ``query_ptr`` holds the offsets (CSR-style), so query
``q`` is rows ``query_ptr[q]:query_ptr[q + 1]``.  ``X`` is a C-contiguous float64 array or a
``scipy.sparse.csr_matrix`` (RCV1, Corel).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..errors import DataError


def check_query_ptr(query_ptr, n_docs: int, name: str = "query_ptr") -> np.ndarray:
    """Query offsets as C-contiguous int64 rising strictly from 0 to ``n_docs`` (every query
    has at least one document); a :class:`DataError` naming ``name`` otherwise."""
    qp = np.ascontiguousarray(query_ptr, dtype=np.int64)
    if qp.ndim != 1 or qp.shape[0] < 2 or qp[0] != 0 or qp[-1] != n_docs:
        raise DataError(f"{name}: query offsets must run from 0 to the number of documents "
                        f"({n_docs}), one entry per query plus one")
    if np.any(np.diff(qp) <= 0):
        raise DataError(f"{name}: every query needs at least one document (offsets must "
                        f"rise strictly)")
    return qp


@dataclass
class QueryData:
    X: np.ndarray | sp.csr_matrix
    y: np.ndarray
    query_ptr: np.ndarray
    qids: np.ndarray
    docids: np.ndarray | None = None
    source: str = ""
    line_no: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self):
        self.y = np.ascontiguousarray(self.y, dtype=np.float64)
        self.query_ptr = np.ascontiguousarray(self.query_ptr, dtype=np.int64)
        self.qids = np.asarray(self.qids)
        n = self.X.shape[0]
        if self.y.shape != (n,):
            raise DataError(f"{self.source}: {n} rows in X but {self.y.shape[0]} labels")
        check_query_ptr(self.query_ptr, n, f"{self.source}: query_ptr")
        if self.query_ptr.shape[0] != self.qids.shape[0] + 1:
            raise DataError(f"{self.source}: {self.qids.shape[0]} query ids for "
                            f"{self.query_ptr.shape[0] - 1} queries")

    # -- sizes ---------------------------------------------------------------------------
    @property
    def n_docs(self) -> int:
        return int(self.X.shape[0])

    @property
    def n_queries(self) -> int:
        return int(self.qids.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.X.shape[1])

    @property
    def is_sparse(self) -> bool:
        return sp.issparse(self.X)

    @property
    def query_sizes(self) -> np.ndarray:
        return np.diff(self.query_ptr)

    @property
    def query_index(self) -> np.ndarray:
        """For each document, the index (0..n_queries-1) of its query."""
        return np.repeat(np.arange(self.n_queries, dtype=np.int64), self.query_sizes)

    @property
    def qid_per_doc(self) -> np.ndarray:
        return np.repeat(self.qids, self.query_sizes)

    def query(self, q: int) -> slice:
        return slice(int(self.query_ptr[q]), int(self.query_ptr[q + 1]))

    # -- derived data sets ---------------------------------------------------------------
    def subset(self, queries, source: str | None = None) -> "QueryData":
        """The data of the given query indices, in the order given."""
        queries = np.asarray(queries, dtype=np.int64)
        rows = np.concatenate([np.arange(self.query_ptr[q], self.query_ptr[q + 1])
                               for q in queries]) if len(queries) else np.zeros(0, np.int64)
        sizes = self.query_sizes[queries]
        return QueryData(
            X=self.X[rows],
            y=self.y[rows],
            query_ptr=np.concatenate([[0], np.cumsum(sizes)]),
            qids=self.qids[queries],
            docids=None if self.docids is None else self.docids[rows],
            source=source or f"{self.source}[{len(queries)} queries]",
            line_no=None if self.line_no is None else self.line_no[rows],
        )

    def subset_docs(self, keep, source: str | None = None) -> "QueryData":
        """The documents ``keep`` (boolean, one per document) in their order; queries left
        without a document are dropped."""
        keep = np.asarray(keep, dtype=bool)
        if keep.shape != (self.n_docs,):
            raise DataError(f"{self.source}: subset_docs needs one boolean per document "
                            f"({self.n_docs}), got shape {keep.shape}")
        if not keep.any():
            raise DataError(f"{self.source}: subset_docs would leave no document")
        counts = np.add.reduceat(keep.astype(np.int64), self.query_ptr[:-1])
        qs = np.flatnonzero(counts > 0)
        ptr = np.concatenate([[0], np.cumsum(counts[qs])]).astype(np.int64)
        X = self.X[keep] if self.is_sparse else np.ascontiguousarray(self.X[keep])
        return QueryData(X, self.y[keep], ptr, self.qids[qs],
                         None if self.docids is None else self.docids[keep],
                         self.source if source is None else source,
                         None if self.line_no is None else self.line_no[keep])

    def with_features(self, n_features: int) -> "QueryData":
        """The same data padded with zero columns to ``n_features`` (never truncates)."""
        if n_features < self.n_features:
            raise DataError(f"{self.source}: has {self.n_features} features, "
                            f"cannot shrink to {n_features}")
        if n_features == self.n_features:
            return self
        if self.is_sparse:
            X = sp.csr_matrix((self.X.data, self.X.indices, self.X.indptr),
                              shape=(self.n_docs, n_features))
        else:
            X = np.zeros((self.n_docs, n_features))
            X[:, :self.n_features] = self.X
        return QueryData(X, self.y, self.query_ptr, self.qids, self.docids, self.source,
                         self.line_no)

    @staticmethod
    def concat(parts: list["QueryData"], source: str = "") -> "QueryData":
        """Stack data sets (queries of one part must not reappear in another)."""
        if not parts:
            raise DataError("concat: no parts")
        nf = max(p.n_features for p in parts)
        parts = [p.with_features(nf) for p in parts]
        if any(p.is_sparse for p in parts):
            X = sp.vstack([sp.csr_matrix(p.X) for p in parts], format="csr")
        else:
            X = np.concatenate([p.X for p in parts])
        offsets = np.cumsum([0] + [p.n_docs for p in parts])
        query_ptr = np.concatenate([[0]] + [p.query_ptr[1:] + o for p, o in zip(parts, offsets)])
        docids = (np.concatenate([p.docids for p in parts])
                  if all(p.docids is not None for p in parts) else None)
        line_no = (np.concatenate([p.line_no for p in parts])
                   if all(p.line_no is not None for p in parts) else None)
        qids = np.concatenate([p.qids for p in parts])
        return QueryData(X, np.concatenate([p.y for p in parts]), query_ptr, qids, docids,
                         source or "+".join(p.source for p in parts), line_no)


def remove_conflicts(data: QueryData, threshold: float = 1.0) -> tuple[QueryData, dict]:
    """Cleaning of binary-relevance data (Dubey et al. 2009, Sec. 5.1.1: "removing documents
    of a particular query that has conflicting relevance labels, and removing queries that have
    no relevant document"): within a query, every document of a group of identical feature
    vectors whose binary labels (good = label ≥ ``threshold``) differ is removed; then queries
    without a good document.  Returns the cleaned data (source + " (cleaned)") and the counts
    removed.  Dense ``X`` only."""
    if data.is_sparse:
        raise DataError(f"{data.source}: remove_conflicts needs dense features")
    good = data.y >= threshold
    keep = np.ones(data.n_docs, dtype=bool)
    groups = 0
    for q in range(data.n_queries):
        sl = data.query(q)
        _, inv, cnt = np.unique(np.ascontiguousarray(data.X[sl]), axis=0, return_inverse=True,
                                return_counts=True)
        inv = inv.ravel()
        for gid in np.flatnonzero(cnt > 1):
            members = np.flatnonzero(inv == gid)
            labels = good[sl][members]
            if labels.any() and not labels.all():
                keep[sl.start + members] = False
                groups += 1
    conflicts = int((~keep).sum())
    has_good = np.add.reduceat((good & keep).astype(np.int64), data.query_ptr[:-1]) > 0
    keep &= np.repeat(has_good, data.query_sizes)
    return data.subset_docs(keep, data.source + " (cleaned)"), {
        "conflict_groups": groups, "conflicting_documents": conflicts,
        "queries_without_good": int((~has_good).sum()), "documents": data.n_docs,
        "queries": data.n_queries}
