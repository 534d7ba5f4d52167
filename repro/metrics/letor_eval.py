"""P@k, MAP, NDCG@k and MeanNDCG with the conventions of the official LETOR scripts.

``Eval-Score-4.0.pl`` (LETOR 4.0: MQ2007, MQ2008) and ``Eval-Score-3.0.pl`` (LETOR 3.0:
OHSUMED, Gov) agree on:

* **gain** ``2^r - 1`` (labels 2/1/0 → 3/1/0); a document is **relevant** iff its label > 0;
* **discount**: positions 1 and 2 undiscounted, position ``i ≥ 3`` multiplied by
  ``log 2 / log i`` — computed as ``(gain * log 2) / log i``, in that order;
* **ranking**: documents sorted by score, descending, **ties kept in file order** (stable);
* **ideal DCG**: the same sum over labels sorted descending; **NDCG = 0 where it is 0**;
* **AP** of a query without relevant documents is 0; every query counts in every average;
* **averages** are sequential sums over queries in numerically sorted query-id order, divided
  by the number of queries (we reproduce this order so that sums agree bit for bit).

They differ beyond a query's length ``n`` (``k > n``):

* 4.0: ``P@k = (relevant in the query) / k`` (missing positions count as irrelevant), and
  ``NDCG@k`` is undefined (printed as 0, averaged as 0);
* 3.0: ``P@k`` and ``NDCG@k`` are both undefined (averaged as 0).

4.0 also reports **MeanNDCG**: the mean of NDCG@1..NDCG@n over all ``n`` positions of the
query, then averaged over queries.  4.0 prints k = 1..10, 3.0 prints k = 1..16.

Where we knowingly differ from the scripts (documented in ``repro eval --help``): labels above
2 get gain ``2^r - 1`` and count as relevant (the scripts' lookup tables only know 0, 1, 2, so
MSLR/Yahoo grades 3 and 4 would get gain 0); unparsable or NaN scores are refused (the scripts
read non-numbers as 0 and sort NaN in an undefined order).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels import letor_eval as _kernel
from ..data.queries import check_query_ptr
from ..errors import DataError, check_status

MAX_K = {3: 16, 4: 10}


@dataclass
class LetorEval:
    """Per-query values (rows in the data's query order) and their averages."""
    version: int
    qids: np.ndarray
    precision: np.ndarray      # (queries, K): P@1..P@K
    ndcg: np.ndarray           # (queries, K): NDCG@1..NDCG@K
    ap: np.ndarray             # (queries,)
    mean_ndcg: np.ndarray      # (queries,)  (4.0 definition; computed for 3.0 too)
    avg_precision: np.ndarray  # (K,)
    avg_ndcg: np.ndarray       # (K,)
    map: float
    avg_mean_ndcg: float

    @property
    def k(self) -> int:
        return self.precision.shape[1]

    def summary(self) -> dict[str, float]:
        """``{"P@1": …, "MAP": …, "NDCG@1": …, "MeanNDCG": …}`` (MeanNDCG for 4.0 only)."""
        out = {f"P@{k + 1}": float(v) for k, v in enumerate(self.avg_precision)}
        out["MAP"] = float(self.map)
        out.update({f"NDCG@{k + 1}": float(v) for k, v in enumerate(self.avg_ndcg)})
        if self.version == 4:
            out["MeanNDCG"] = float(self.avg_mean_ndcg)
        return out

    def per_query(self, q: int) -> dict[str, float]:
        out = {f"P@{k + 1}": float(v) for k, v in enumerate(self.precision[q])}
        out["MAP"] = float(self.ap[q])
        out.update({f"NDCG@{k + 1}": float(v) for k, v in enumerate(self.ndcg[q])})
        if self.version == 4:
            out["MeanNDCG"] = float(self.mean_ndcg[q])
        return out


def _check(y, scores, query_ptr):
    y = np.ascontiguousarray(y, dtype=np.float64)
    raw = np.asarray(scores)
    if raw.dtype.kind not in "biuf":          # strings, objects, complex: not scores
        raise DataError(f"scores: expected real numbers, got values of type {raw.dtype} "
                        f"(first: {str(raw.ravel()[0])[:40]!r})" if raw.size else
                        f"scores: expected real numbers, got an empty {raw.dtype} array")
    scores = np.ascontiguousarray(raw, dtype=np.float64)
    if scores.shape != y.shape or y.ndim != 1:
        raise DataError(f"scores: expected {y.shape[0]} values (one per document), "
                        f"got shape {scores.shape}")
    query_ptr = check_query_ptr(query_ptr, y.shape[0])
    bad = np.flatnonzero(~np.isfinite(scores))
    if bad.size:
        raise DataError(f"scores: value {scores[bad[0]]} at document {bad[0]} is not finite")
    if np.any(~np.isfinite(y)) or np.any(y < 0):
        raise DataError("labels: relevance labels must be finite and non-negative")
    return y, scores, query_ptr


def _numeric_order_keys(qids: np.ndarray) -> np.ndarray:
    """The scripts order queries with Perl's numeric ``<=>``: query ids as numbers when they
    are numbers (``"10" > "9"``), otherwise as text."""
    if np.issubdtype(qids.dtype, np.number):
        return qids
    try:
        return qids.astype(np.float64)
    except ValueError:
        return qids.astype(str)


def rank_within_queries(scores: np.ndarray, query_ptr: np.ndarray) -> np.ndarray:
    """Permutation sorting each query's documents by score, descending, ties in input order."""
    qidx = np.repeat(np.arange(query_ptr.shape[0] - 1), np.diff(query_ptr))
    return np.lexsort((-scores, qidx))   # lexsort is stable: equal keys keep input order


def group_documents(qid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(order, query_ptr, qids)``: a stable permutation grouping documents by query (in
    order of first appearance, documents of a query in input order), the query offsets and
    the query ids."""
    qid = np.asarray(qid)
    if qid.ndim != 1 or qid.size == 0:
        raise DataError("qid: expected a non-empty 1-d array with one query id per document")
    uniq, first, inverse = np.unique(qid, return_index=True, return_inverse=True)
    rank = np.empty(uniq.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(uniq.size)
    q_of_doc = rank[inverse.ravel()]
    order = np.argsort(q_of_doc, kind="stable").astype(np.int64)
    sizes = np.bincount(q_of_doc, minlength=uniq.size)
    query_ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return order, query_ptr, uniq[np.argsort(first, kind="stable")]


def evaluate(y, scores, query_ptr=None, qids=None, version: int = 4,
             max_k: int | None = None, *, qid=None) -> LetorEval:
    """Evaluate ``scores`` against relevance labels ``y`` with LETOR ``version`` conventions.

    Queries are given either by ``query_ptr`` (documents grouped by query: CSR-style
    offsets) with ``qids`` (one per query), or by ``qid`` (one query id per document, in any
    order: documents are grouped stably, so ties keep their input order within a query, as
    the scripts keep file order).  ``qids`` fix the order of the averaging sums (numeric
    order, as the scripts); without them queries are summed in data order.
    """
    if version not in MAX_K:
        raise DataError(f"version: LETOR conventions exist for 3 and 4, got {version!r}")
    if qid is not None:
        if query_ptr is not None or qids is not None:
            raise DataError("evaluate: give query_ptr (and qids) or qid, not both")
        y = np.asarray(y)
        qid = np.asarray(qid)
        if qid.shape != y.shape:
            raise DataError(f"qid: expected one query id per document ({y.shape[0]}), got "
                            f"shape {qid.shape}")
        order, query_ptr, qids = group_documents(qid)
        y, scores = y[order], np.asarray(scores)[order]
    elif query_ptr is None:
        raise DataError("evaluate: give query_ptr (grouped documents) or qid (one per "
                        "document)")
    y, scores, query_ptr = _check(y, scores, query_ptr)
    K = MAX_K[version] if max_k is None else int(max_k)
    if K < 1:
        raise DataError(f"max_k: the deepest position evaluated must be ≥ 1, got {max_k!r}")
    Q = query_ptr.shape[0] - 1
    ranked = np.ascontiguousarray(y[rank_within_queries(scores, query_ptr)])
    ideal = np.ascontiguousarray(y[rank_within_queries(y, query_ptr)])
    if qids is None:
        order = np.arange(Q, dtype=np.int64)
    else:
        qids = np.asarray(qids)
        if qids.shape != (Q,):
            raise DataError(f"qids: expected {Q} query ids, got shape {qids.shape}")
        order = np.argsort(_numeric_order_keys(qids), kind="stable").astype(np.int64)
    prec = np.zeros((Q, K))
    ndcg = np.zeros((Q, K))
    ap = np.zeros(Q)
    mean_ndcg = np.zeros(Q)
    avg_prec = np.zeros(K)
    avg_ndcg = np.zeros(K)
    scal = np.zeros(2)
    check_status(_kernel.query_metrics(ranked, ideal, query_ptr, order, version, prec, ndcg,
                                       ap, mean_ndcg, avg_prec, avg_ndcg, scal),
                 "letor_eval.query_metrics")                  # cannot fail here
    return LetorEval(version, np.arange(Q) if qids is None else qids, prec, ndcg, ap,
                     mean_ndcg, avg_prec, avg_ndcg, float(scal[0]), float(scal[1]))


def evaluate_data(data, scores, version: int = 4, max_k: int | None = None) -> LetorEval:
    """:func:`evaluate` on a :class:`~repro.data.queries.QueryData`."""
    return evaluate(data.y, scores, data.query_ptr, data.qids, version, max_k)
