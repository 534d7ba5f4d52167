"""Brute-force references for RankRLS and greedy RankRLS (plain NumPy, no shortcuts).

RankRLS is fitted from eq. (3) literally: one least-squares row per ordered pair (i, j) of
documents of a query, (x_i − x_j, y_i − y_j) scaled by 1/sqrt(2|Q|), plus λ‖w‖² — no
centring, no Theorem 3.1.  Leave-query-out (LQO) errors refit that model with each query
held out and sum the pairwise squared loss of the held-out query, normalised as in eq. (3):
Σ_Q 1/(2|Q|) Σ_{i,j∈Q} (r_i − r_j)², r = y − Xw (= Σ_Q ‖L_Q r_Q‖², eq. 7).
"""
import numpy as np


def pair_design(X, y, query_ptr, queries):
    rows, targets = [], []
    for q in queries:
        lo, hi = query_ptr[q], query_ptr[q + 1]
        n = hi - lo
        scale = 1.0 / np.sqrt(2.0 * n)
        for i in range(lo, hi):
            for j in range(lo, hi):
                rows.append((X[i] - X[j]) * scale)
                targets.append((y[i] - y[j]) * scale)
    d = X.shape[1]
    if not rows:
        return np.zeros((0, d)), np.zeros(0)
    return np.array(rows), np.array(targets)


def rankrls_pairs(X, y, query_ptr, lam, queries=None):
    """Minimiser of eq. (3) over the given queries (all by default)."""
    Q = len(query_ptr) - 1
    queries = range(Q) if queries is None else queries
    D, t = pair_design(X, y, query_ptr, queries)
    return np.linalg.solve(D.T @ D + lam * np.eye(X.shape[1]), D.T @ t)


def held_out_loss(r):
    n = len(r)
    return sum((r[i] - r[j]) ** 2 for i in range(n) for j in range(n)) / (2.0 * n)


def lqo_error(X, y, query_ptr, lam, features):
    """LQO squared error of RankRLS on ``features`` by refitting once per held-out query."""
    Q = len(query_ptr) - 1
    Xs = X[:, list(features)]
    total = 0.0
    for q in range(Q):
        w = rankrls_pairs(Xs, y, query_ptr, lam, [p for p in range(Q) if p != q])
        lo, hi = query_ptr[q], query_ptr[q + 1]
        total += held_out_loss(y[lo:hi] - Xs[lo:hi] @ w)
    return total


def lqo_predictions(X, y, query_ptr, lam):
    """Raw scores on each query of the model refitted without it (all features)."""
    Q = len(query_ptr) - 1
    out = np.empty(len(y))
    for q in range(Q):
        w = rankrls_pairs(X, y, query_ptr, lam, [p for p in range(Q) if p != q])
        lo, hi = query_ptr[q], query_ptr[q + 1]
        out[lo:hi] = X[lo:hi] @ w
    return out


def candidate_errors(X, y, query_ptr, lam, selected):
    """LQO error of ``selected + [i]`` for every feature i not in ``selected`` (NaN else)."""
    n = X.shape[1]
    return np.array([np.nan if i in selected else lqo_error(X, y, query_ptr, lam, selected + [i])
                     for i in range(n)])


def greedy(X, y, query_ptr, lam, k):
    """Forward selection by brute-force LQO error; ties (exact) keep the lower index."""
    selected, errors = [], []
    for _ in range(k):
        e = candidate_errors(X, y, query_ptr, lam, selected)
        b = int(np.nanargmin(e))
        selected.append(b)
        errors.append(e[b])
    return selected, errors


def operations(m, n, k):
    """The operations of greedy RankRLS as ``greedy_select`` counts them, by formula: the
    multiply-adds over the m documents (initialisation a, C = λ⁻¹X̂ᵀ and two dots per feature;
    per step s: ‖p_Q‖², four dots per candidate at s = 0 and eight (two of the first sweep,
    two updates, four dots) at s ≥ 1 over the n − s candidates, b rescored (four), p and a,
    s + 1 weights) and the cache entries written (C and U: 2nm, then 2m per updated column)."""
    madds = m + 3 * n * m
    writes = 2 * n * m
    for s in range(k):
        madds += m + (n - s) * (4 if s == 0 else 8) * m + 4 * m + 2 * m + (s + 1) * m
        writes += 0 if s == 0 else 2 * m * (n - s)
    return {"multiply-adds": madds, "cache writes": writes}
