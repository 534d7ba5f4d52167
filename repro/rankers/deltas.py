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

Δ = 1 − gain ∈ [0, 1], Δ(y_q) = 0.  :func:`ranks_from_scores` gives the good ranks of a
scored query (ties in input order, or broken by a caller's generator), so the same functions
evaluate a ranker "as the paper defines" the measures.
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError

KINDS = ("AUC", "MAP", "NDCG")


def discount(k: int, length: int) -> np.ndarray:
    """D(0..length-1) of Sec. 1.6.3 with cutoff ``k``."""
    i = np.arange(length, dtype=np.float64)
    d = np.where(i <= 1, 1.0, 1.0 / np.log2(np.maximum(i, 1.0) + 1.0))
    d[i >= k] = 0.0
    return d


def good_ranks(wins_good: np.ndarray, n_neg: int) -> np.ndarray:
    """0-based ranks (ascending, one row per ranking) of the goods, from their wins."""
    w = -np.sort(-np.asarray(wins_good, dtype=np.int64), axis=-1)          # descending
    i = np.arange(w.shape[-1])
    return i + (n_neg - w)


def ap_from_ranks(ranks: np.ndarray) -> np.ndarray:
    """AP of each row of sorted 0-based good ranks (Sec. 1.6.2, normalised by n⁺)."""
    ranks = np.asarray(ranks, dtype=np.float64)
    n_pos = ranks.shape[-1]
    return ((1.0 + np.arange(n_pos)) / (1.0 + ranks)).sum(axis=-1) / n_pos


def ndcg_from_ranks(ranks: np.ndarray, k: int) -> np.ndarray:
    """NDCG@k of each row of sorted 0-based good ranks (Sec. 1.6.3, binary gain)."""
    ranks = np.asarray(ranks, dtype=np.int64)
    n_pos = ranks.shape[-1]
    D = discount(k, max(k, int(ranks.max(initial=0)) + 1))
    ideal = D[:min(n_pos, k)].sum()
    return D[ranks].sum(axis=-1) / ideal


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


def ranks_from_scores(good: np.ndarray, scores: np.ndarray,
                      rng: np.random.Generator | None = None) -> np.ndarray:
    """Sorted 0-based ranks of the good documents of one query ranked by ``scores``
    (descending).  Ties keep the input order, or are broken uniformly at random by ``rng``."""
    scores = np.asarray(scores, dtype=np.float64)
    if rng is None:
        order = np.argsort(-scores, kind="stable")
    else:
        order = np.lexsort((rng.random(scores.shape[0]), -scores))
    return np.flatnonzero(np.asarray(good, dtype=bool)[order])
