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
  divides by the ideal ordering's value (0 where that is 0).
"""
from __future__ import annotations

import numpy as np

from .letor_eval import _check, rank_within_queries


def _queries(y, scores, query_ptr):
    y, scores, query_ptr = _check(y, scores, query_ptr)
    for q in range(query_ptr.shape[0] - 1):
        a, b = query_ptr[q], query_ptr[q + 1]
        yield q, y[a:b], scores[a:b]


def pair_counts(y, scores, query_ptr) -> np.ndarray:
    """Per query ``[pairs, correct, tied]`` (array queries × 3), in O(n log n) per query."""
    out = []
    for _, yq, sq in _queries(y, scores, query_ptr):
        pairs = correct = tied = 0
        levels = np.unique(yq)
        for t in levels[1:]:
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
        mean = float(np.nanmean(per_query)) if np.any(c[:, 0] > 0) else float("nan")
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
    return err, float(np.nanmean(err)) if np.any(~np.isnan(err)) else float("nan")


def domination_error(y, scores, query_ptr):
    """Stevens eq. 1: fraction of dominating documents ranked not strictly above all the
    documents they dominate.  Per query (NaN without dominating documents) and query mean."""
    vals = []
    for _, yq, sq in _queries(y, scores, query_ptr):
        levels = np.unique(yq)
        if levels.size < 2:
            vals.append(np.nan)
            continue
        failed = dominating = 0
        for t in levels[1:]:
            best_below = sq[yq < t].max()
            upper = sq[yq == t]
            dominating += upper.size
            failed += int((upper <= best_below).sum())
        vals.append(failed / dominating)
    vals = np.asarray(vals)
    return vals, float(np.nanmean(vals)) if np.any(~np.isnan(vals)) else float("nan")


def _ranked_labels(y, scores, query_ptr):
    y, scores, query_ptr = _check(y, scores, query_ptr)
    return y[rank_within_queries(scores, query_ptr)], query_ptr


def wta(y, scores, query_ptr):
    """Le & Smola eq. 9: top document has the query's largest label (per query, mean)."""
    ranked, qp = _ranked_labels(y, scores, query_ptr)
    vals = np.array([float(ranked[qp[q]] == ranked[qp[q]:qp[q + 1]].max())
                     for q in range(qp.shape[0] - 1)])
    return vals, float(vals.mean())


def mrr(y, scores, query_ptr, threshold: float | None = None):
    """Reciprocal rank of the first document with label ≥ ``threshold`` (default: the
    query's largest label); 0 if the query has none."""
    ranked, qp = _ranked_labels(y, scores, query_ptr)
    vals = []
    for q in range(qp.shape[0] - 1):
        r = ranked[qp[q]:qp[q + 1]]
        t = r.max() if threshold is None else threshold
        hits = np.flatnonzero(r >= t)
        vals.append(1.0 / (hits[0] + 1) if hits.size else 0.0)
    vals = np.asarray(vals)
    return vals, float(vals.mean())


def eru(y, scores, query_ptr, d: float = 0.0, alpha: float = 5.0, normalized: bool = True):
    """Le & Smola eq. 16 / Breese et al. (1998): expected rank utility (per query, mean)."""
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
            v = v / best if best > 0 else 0.0
        vals.append(v)
    vals = np.asarray(vals)
    return vals, float(vals.mean())
