"""Ranking measures beyond the LETOR script's: pairwise accuracy / AUC, MRR, WTA, ERU,
domination error and all-pairs error.  Each returns per-query values and their mean.

Conventions (the papers leave these open; stated here and in every report that uses them):

* Documents are ranked by score, descending, ties in input order (as the LETOR scripts).
* **Pairs** of a query are ``(i, j)`` with ``y_i > y_j``.  A pair is *correct* if
  ``s_i > s_j``; a tie ``s_i == s_j`` counts ``ties`` (0 for pairwise accuracy as in Lee & Lin
  2014, 0.5 for AUC).  ``pairwise_accuracy(..., average="pairs")`` divides all correct pairs of
  the data set by all its pairs (Lee & Lin); ``average="queries"`` averages per query.
  Queries without pairs (one document, or one relevance level) have no value (NaN) and are
  left out of query averages.
* **All-pairs error** (Stevens 2010 §8): the fraction of a query's pairs that are not correct,
  a tie counting as an error (``1 - accuracy`` with ``ties=0``).
* **Domination error** (Stevens 2010 eq. 1, after Dekel et al. 2005): the fraction of
  *dominating* documents (those with at least one document of lower label in the query) that
  are not ranked strictly above every document they dominate (a tie is a failure).
* **WTA** (Le & Smola eq. 9): 1 if the top-ranked document has the query's largest label.
* **MRR** (Le & Smola eq. 10 assumes a single top document): ``1 / rank`` of the first
  document whose label is ≥ ``threshold`` (default: the query's largest label); 0 if none.
* **ERU** (Le & Smola eq. 16, Breese et al. 1998): ``Σ_i 2^{(1-i)/(α-1)} max(y_(i) - d, 0)``
  with ``i`` the rank, ``d`` the neutral vote and ``α`` the half-life; ``normalized=True``
  divides by the ideal ordering's value.
* **Yahoo NDCG@10** (the challenge's definition, used by Lee & Lin for the Yahoo sets):
  gain ``2^y - 1``, discount ``1/log2(i + 1)``, a query with ideal DCG 0 scores 1 (the
  ``gbdt`` convention of :mod:`repro.metrics.family`, where every NDCG/AP/P@k is computed).
* A query on which every ranking scores the same has no value (NaN), and is left out of the
  mean: no pairs (pairwise measures), no dominating document (domination error), a single
  relevance level (WTA, and MRR at the default threshold), ideal ERU 0 (normalised ERU).
"""
from __future__ import annotations

import numpy as np

from .family import ndcg
from .letor_eval import _check, rank_within_queries


MAX_LEVELS_VECTORISED = 64   # beyond this many distinct labels (list-style data), loop per query


def _queries(y, scores, query_ptr):
    y, scores, query_ptr = _check(y, scores, query_ptr)
    for q in range(query_ptr.shape[0] - 1):
        a, b = query_ptr[q], query_ptr[q + 1]
        yield q, y[a:b], scores[a:b]


def _nanmean(values: np.ndarray) -> float:
    return float(np.nanmean(values)) if np.any(~np.isnan(values)) else float("nan")


def pair_counts(y, scores, query_ptr) -> np.ndarray:
    """Per query ``[pairs, correct, tied]`` (array queries × 3), O(n log n) per label level.

    For each label level t, every document of level t is compared with the documents of
    lower label in its query by binary search on (query, score rank) keys, for all queries at
    once."""
    y, scores, query_ptr = _check(y, scores, query_ptr)
    Q = query_ptr.shape[0] - 1
    levels = np.unique(y)
    if levels.size > MAX_LEVELS_VECTORISED:
        return _pair_counts_per_query(y, scores, query_ptr)
    qidx = np.repeat(np.arange(Q, dtype=np.int64), np.diff(query_ptr))
    _, srank = np.unique(scores, return_inverse=True)
    width = int(srank.max()) + 2
    key = qidx * width + srank.ravel()
    out = np.zeros((Q, 3), dtype=np.int64)
    for t in levels[1:]:
        low, up = y < t, y == t
        lk = np.sort(key[low])
        uq = qidx[up]
        base = np.searchsorted(lk, uq * width, side="left")
        left = np.searchsorted(lk, key[up], side="left") - base
        right = np.searchsorted(lk, key[up], side="right") - base
        out[:, 0] += np.bincount(qidx[low], minlength=Q) * np.bincount(uq, minlength=Q)
        out[:, 1] += np.bincount(uq, weights=left, minlength=Q).astype(np.int64)
        out[:, 2] += np.bincount(uq, weights=right - left, minlength=Q).astype(np.int64)
    return out


def _pair_counts_per_query(y, scores, query_ptr) -> np.ndarray:
    out = []
    for _, yq, sq in _queries(y, scores, query_ptr):
        pairs = correct = tied = 0
        for t in np.unique(yq)[1:]:
            lower = np.sort(sq[yq < t])
            upper = sq[yq == t]
            left = np.searchsorted(lower, upper, side="left")
            right = np.searchsorted(lower, upper, side="right")
            pairs += lower.size * upper.size
            correct += int(left.sum())
            tied += int((right - left).sum())
        out.append((pairs, correct, tied))
    return np.asarray(out, dtype=np.int64).reshape(-1, 3)


def pairwise_accuracy(y, scores, query_ptr, ties: float = 0.0, average: str = "pairs"):
    """Fraction of correctly ordered pairs (see module doc).  Returns ``(per_query, mean)``."""
    c = pair_counts(y, scores, query_ptr).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_query = np.where(c[:, 0] > 0, (c[:, 1] + ties * c[:, 2]) / c[:, 0], np.nan)
    if average == "pairs":
        total = c[:, 0].sum()
        mean = (c[:, 1].sum() + ties * c[:, 2].sum()) / total if total else float("nan")
    elif average == "queries":
        mean = _nanmean(per_query)
    else:
        raise ValueError(f"average must be 'pairs' or 'queries', got {average!r}")
    return per_query, float(mean)


def auc(y, scores, query_ptr, average: str = "queries"):
    """Pairwise AUC with ties counted ½ (per query, and averaged)."""
    return pairwise_accuracy(y, scores, query_ptr, ties=0.5, average=average)


def all_pairs_error(y, scores, query_ptr):
    """Stevens §8: fraction of misordered pairs per query (ties are errors); query mean."""
    acc, _ = pairwise_accuracy(y, scores, query_ptr, ties=0.0, average="queries")
    err = 1.0 - acc
    return err, _nanmean(err)


def domination_error(y, scores, query_ptr):
    """Stevens eq. 1: fraction of dominating documents ranked not strictly above all the
    documents they dominate.  Per query (NaN without dominating documents) and query mean."""
    y, scores, query_ptr = _check(y, scores, query_ptr)
    Q = query_ptr.shape[0] - 1
    qidx = np.repeat(np.arange(Q, dtype=np.int64), np.diff(query_ptr))
    failed = np.zeros(Q)
    dominating = np.zeros(Q)
    for t in np.unique(y)[1:]:
        low, up = y < t, y == t
        best_below = np.full(Q, -np.inf)
        np.maximum.at(best_below, qidx[low], scores[low])
        uq = qidx[up]
        has_lower = np.isfinite(best_below[uq])
        dominating += np.bincount(uq[has_lower], minlength=Q)
        failed += np.bincount(uq[has_lower], weights=scores[up][has_lower] <= best_below[uq][has_lower],
                              minlength=Q)
    with np.errstate(invalid="ignore", divide="ignore"):
        vals = np.where(dominating > 0, failed / np.where(dominating > 0, dominating, 1), np.nan)
    return vals, _nanmean(vals)


def _ranked_labels(y, scores, query_ptr):
    y, scores, query_ptr = _check(y, scores, query_ptr)
    return y[rank_within_queries(scores, query_ptr)], query_ptr


def _levels(ranked: np.ndarray, qp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each query's smallest and largest label (:func:`_check` keeps no query empty)."""
    return np.minimum.reduceat(ranked, qp[:-1]), np.maximum.reduceat(ranked, qp[:-1])


def wta(y, scores, query_ptr):
    """Le & Smola eq. 9: top document has the query's largest label (per query, mean).
    NaN for a query with a single relevance level (every ranking wins)."""
    ranked, qp = _ranked_labels(y, scores, query_ptr)
    lo, hi = _levels(ranked, qp)
    vals = np.where(lo == hi, np.nan, (ranked[qp[:-1]] == hi).astype(np.float64))
    return vals, _nanmean(vals)


def mrr(y, scores, query_ptr, threshold: float | None = None):
    """Reciprocal rank of the first document with label ≥ ``threshold`` (default: the
    query's largest label; then a query with a single relevance level is NaN); 0 if the query
    has none."""
    ranked, qp = _ranked_labels(y, scores, query_ptr)
    lo, hi = _levels(ranked, qp)
    Q = qp.shape[0] - 1
    qidx = np.repeat(np.arange(Q), np.diff(qp))
    t = hi if threshold is None else np.full(Q, threshold, dtype=np.float64)
    hits = np.flatnonzero(ranked >= t[qidx])              # in order: queries, then ranks
    q_hit, first = np.unique(qidx[hits], return_index=True)
    vals = np.zeros(Q)
    vals[q_hit] = 1.0 / (hits[first] - qp[q_hit] + 1)     # the first hit of each query
    if threshold is None:
        vals[lo == hi] = np.nan
    return vals, _nanmean(vals)


def eru(y, scores, query_ptr, d: float = 0.0, alpha: float = 5.0, normalized: bool = True):
    """Le & Smola eq. 16 / Breese et al. (1998): expected rank utility (per query, mean).
    Normalised ERU is NaN for a query whose ideal ERU is 0 (no label above ``d``)."""
    if alpha <= 1:
        raise ValueError(f"alpha (the half-life) must exceed 1, got {alpha}")
    ranked, qp = _ranked_labels(y, scores, query_ptr)
    y_arr = np.asarray(y, dtype=np.float64)
    vals = []
    for q in range(qp.shape[0] - 1):
        r = ranked[qp[q]:qp[q + 1]]
        a = 2.0 ** (-np.arange(r.size) / (alpha - 1.0))
        v = float(a @ np.maximum(r - d, 0.0))
        if normalized:
            best = float(a @ np.maximum(np.sort(y_arr[qp[q]:qp[q + 1]])[::-1] - d, 0.0))
            v = v / best if best > 0 else np.nan
        vals.append(v)
    vals = np.asarray(vals)
    return vals, _nanmean(vals)


def yahoo_ndcg10(y, s, query_ptr) -> float:
    """NDCG@10 of the Yahoo! Learning to Rank Challenge (as in Lee & Lin's ndcg.m): gain 2^y − 1, discount
    1/log2(i + 1) at rank i, a query with ideal DCG 0 scores 1; mean over queries (NaN if
    there are none).  Ties in ``s`` keep file order (stable sort).  This is the ``gbdt``
    convention of :mod:`repro.metrics.family` (vectorised: it is evaluated at every TRON /
    cutting-plane evaluation point of Figure II); ``query_ptr`` may cover a slice of ``y`` and hold empty queries."""
    qp = np.asarray(query_ptr, dtype=np.int64)
    if qp.ndim != 1 or qp.shape[0] <= 1:
        return float("nan")
    vals = np.ones(qp.shape[0] - 1)         # an empty query (ideal DCG 0) scores 1
    full = np.diff(qp) > 0
    if full.any():
        lo, hi = int(qp[0]), int(qp[-1])
        sub = np.r_[qp[:-1][full], hi] - lo
        vals[full] = ndcg(np.asarray(y, dtype=np.float64)[lo:hi],
                          np.asarray(s, dtype=np.float64)[lo:hi], sub, 10, "gbdt")
    return float(vals.mean())
