"""Seeded synthetic data, for tests, benchmarks and complexity figures.

* :func:`make_queries`, :func:`make_documents`: query-grouped data.  Labels come from a hidden
  linear model plus noise, cut into ``n_levels`` relevance levels at global quantiles (level
  proportions ``level_probs``, default geometric: most documents irrelevant, as in LETOR).
* :func:`domination_problem`: one sparse domination problem (layers of positives above the
  negatives), the data of the Domination Rank complexity figure and benchmark (Stevens 2010).

Everything is drawn from ``numpy.random.default_rng(seed)``.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .queries import QueryData


def make_queries(n_queries: int, docs_per_query=20, n_features: int = 10, n_levels: int = 3,
                 density: float = 1.0, sparse: bool = False, noise: float = 1.0,
                 level_probs=None, seed: int = 0) -> QueryData:
    """``docs_per_query``: an int, or ``(low, high)`` for sizes uniform in [low, high]."""
    if n_queries < 1 or n_features < 1 or n_levels < 1:
        raise ValueError("n_queries, n_features and n_levels must be positive")
    if not 0 < density <= 1:
        raise ValueError(f"density must be in (0, 1], got {density}")
    rng = np.random.default_rng(seed)
    if np.isscalar(docs_per_query):
        sizes = np.full(n_queries, int(docs_per_query))
    else:
        lo, hi = docs_per_query
        sizes = rng.integers(int(lo), int(hi) + 1, n_queries)
    if np.any(sizes < 1):
        raise ValueError("every query needs at least one document")
    n = int(sizes.sum())
    w = rng.normal(size=n_features)
    if sparse or density < 1:
        nnz_per_row = max(1, int(round(density * n_features)))
        indptr = np.arange(n + 1, dtype=np.int64) * nnz_per_row
        indices = np.concatenate([np.sort(rng.choice(n_features, nnz_per_row, replace=False))
                                  for _ in range(n)]).astype(np.int32) if n else np.zeros(0, np.int32)
        data = rng.random(n * nnz_per_row)
        X = sp.csr_matrix((data, indices, indptr), shape=(n, n_features))
        latent = X @ w
        if not sparse:
            X = np.ascontiguousarray(X.toarray())
    else:
        X = rng.random((n, n_features))
        latent = X @ w
    latent = latent + noise * rng.normal(size=n) * (np.std(latent) or 1.0)
    if level_probs is None:
        p = 0.5 ** np.arange(n_levels)             # level 0 most common, highest rarest
        level_probs = p / p.sum()
    cuts = np.quantile(latent, np.cumsum(level_probs)[:-1]) if n_levels > 1 else []
    y = np.searchsorted(np.asarray(cuts), latent, side="right").astype(np.float64)
    query_ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return QueryData(X, y, query_ptr, np.arange(1, n_queries + 1, dtype=np.int64),
                     source=f"synthetic(q={n_queries}, n={n}, d={n_features}, seed={seed})")


def make_documents(m: int, n_features: int, docs_per_query: int = 50, seed: int = 0) -> QueryData:
    """About ``m`` documents in queries of ``docs_per_query`` (the scaling figures' data)."""
    return make_queries(max(1, m // docs_per_query), docs_per_query, n_features, seed=seed)


def cell_rng(seed: int, l: int, k) -> np.random.Generator:
    """The generator of one (k, l) cell of a scaling sweep: ``default_rng([seed, l, code])``
    with code = k for k levels and 0 for ``"l"`` (k = l).  Each cell has its own stream, so
    adding or removing a size or a level leaves the data of the others unchanged."""
    return np.random.default_rng([int(seed), int(l), 0 if k == "l" else int(k)])


def one_query(l: int, k: int, n: int, rng: np.random.Generator) -> tuple:
    """One query of ``l`` documents with ``k`` equiprobable levels and ``n`` Gaussian
    features, a weight vector of moderate scale and a direction:
    ``(X, y, query_ptr, w, d)`` (the data of the pair-counting scaling figures)."""
    X = rng.normal(size=(l, n))
    y = rng.integers(0, k, l).astype(np.float64)
    w = rng.normal(size=n) * (3.0 / np.sqrt(n))
    return X, y, np.array([0, l], dtype=np.int64), w, rng.normal(size=n)


def domination_problem(n: int, d: int, nnz_per_row: int, layers: int = 2,
                       positive_fraction: float = 0.02, seed: int = 0):
    """``(X, levels)``: ``n`` sparse rows (CSR) with ``nnz_per_row`` non-zeros (uniform
    columns, values in (0, 1)); labels from a hidden linear score plus noise: the top
    ``positive_fraction`` of the instances are positive, split by score into ``layers − 1``
    layers of equal size above the negatives (layer 0)."""
    rng = np.random.default_rng(seed)
    cols = np.concatenate([np.sort(rng.choice(d, nnz_per_row, replace=False))
                           for _ in range(n)]).astype(np.int32)
    indptr = np.arange(n + 1, dtype=np.int64) * nnz_per_row
    X = sp.csr_matrix((rng.random(n * nnz_per_row), cols, indptr), shape=(n, d))
    score = X @ rng.normal(size=d) + 0.5 * rng.normal(size=n)
    order = np.argsort(-score, kind="stable")
    n_pos = max(layers - 1, int(round(positive_fraction * n)))
    levels = np.zeros(n)
    top = order[:n_pos]
    levels[top] = (layers - 1) - np.arange(n_pos) * (layers - 1) // n_pos
    return X, levels
