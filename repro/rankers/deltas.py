"""The ranking losses Δ of Dubey et al. (2009), Sec. 1.6, for binary relevance (good/bad).

Every Δ is invariant under permutations within a relevance level (Sec. 1.6), so it depends only
on the ranks of the good documents.  A ranking y ∈ {±1}^{n⁺n⁻} is given here by its *wins*
(the sampler's output, :mod:`repro.rankers.swap_sampler`): for each good document the number of
bad documents it beats (n_g).  Sorting the goods by wins, descending, the i-th good (counting
from zero) has rank r_i = i + (n⁻ − n_(i)) (counting from zero: i goods and n⁻ − n_(i) bads
above it).  With r_0 < r_1 < … the 0-based ranks of the goods:

* AUC (Sec. 1.6.1): 1 − Δ_AUC = (satisfied pairs)/(n⁺n⁻) = Σ_g n_g / (n⁺n⁻);
* MAP (Sec. 1.6.2): AP = (1/n⁺) Σ_i (1 + i)/(1 + r_i).  The printed AP(q) omits the 1/n⁺ but
  the text says "the ideal ranking ... ensures a MAP of 1", and Sec. 5.3.3's "the slightest
  perturbation from Δ = 0 may raise Δ to a minimum of 0.5" (n⁺ = 1) needs it: included;
* NDCG@k (Sec. 1.6.3): gain z ∈ {0, 1}, discount D(i) = 1 for i ∈ {0, 1}, 1/log₂(1 + i) for
  2 ≤ i < k, 0 beyond; DCG* = Σ_{i < min(n⁺, k)} D(i).  Same discount as the LETOR scripts
  (positions 1 and 2 undiscounted), binary gain instead of 2^label − 1.

AP and NDCG are the ``dubey2009`` convention of :mod:`repro.metrics.family` (computed there).
Δ = 1 − gain ∈ [0, 1], Δ(y_q) = 0.  :func:`ranks_from_scores` gives the good ranks of a
scored query (ties in input order, or broken by a caller's generator), so the same functions
evaluate a ranker "as the paper defines" the measures.
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError
from ..metrics.family import (ap_from_good_ranks, discounts, good_ranks_from_scores,
                              ndcg_from_good_ranks)

KINDS = ("AUC", "MAP", "NDCG")


def discount(k: int, length: int) -> np.ndarray:
    """D(0..length-1) of Sec. 1.6.3 with cutoff ``k`` (the LETOR discount of the metric family)."""
    return discounts(length, k, "letor")


def good_ranks(wins_good: np.ndarray, n_neg: int) -> np.ndarray:
    """0-based ranks (ascending, one row per ranking) of the goods, from their wins."""
    w = -np.sort(-np.asarray(wins_good, dtype=np.int64), axis=-1)          # descending
    i = np.arange(w.shape[-1])
    return i + (n_neg - w)


# AP and NDCG@k of sorted good ranks, and the good ranks of a scored query, are the
# ``dubey2009`` convention of :mod:`repro.metrics.family` (names kept for callers).
ap_from_ranks = ap_from_good_ranks
ndcg_from_ranks = ndcg_from_good_ranks
ranks_from_scores = good_ranks_from_scores


def gains(wins_good: np.ndarray, n_neg: int, kind: str, k: int = 10) -> np.ndarray:
    """1 − Δ of every ranking (rows of ``wins_good``, m × n⁺) for Δ = ``kind``."""
    wins_good = np.asarray(wins_good)
    if wins_good.ndim != 2 or wins_good.shape[1] < 1 or n_neg < 1:
        raise DataError("gains: need an m × n⁺ array of wins with n⁺ ≥ 1 and n⁻ ≥ 1")
    if kind == "AUC":
        return wins_good.sum(axis=1, dtype=np.float64) / (wins_good.shape[1] * n_neg)
    ranks = good_ranks(wins_good, n_neg)
    if kind == "MAP":
        return ap_from_ranks(ranks)
    if kind == "NDCG":
        if int(k) < 1:
            raise DataError(f"ndcg_k: the NDCG cutoff must be ≥ 1, got {k}")
        return ndcg_from_ranks(ranks, int(k))
    raise DataError(f"delta: expected one of {KINDS}, got {kind!r}")


def deltas(wins_good: np.ndarray, n_neg: int, kind: str, k: int = 10) -> np.ndarray:
    """Δ = 1 − gain ∈ [0, 1] of every ranking (clipped against rounding)."""
    return np.clip(1.0 - gains(wins_good, n_neg, kind, k), 0.0, 1.0)

