"""Plain-NumPy reference for PAMIR's passive-aggressive update (Grangier & Bengio 2008, §3.2;
Crammer et al. 2006, PA-I), replayed on a given sequence of triplets."""
import numpy as np


def pa_replay(X, triplets, C, n_models):
    """``triplets``: rows (model m, relevant i, non-relevant j).  For each: v = x_i − x_j,
    ℓ = max(0, 1 − w_m·v); if ℓ > 0 and v ≠ 0, τ = min(C, ℓ/‖v‖²) and w_m ← w_m + τ v."""
    X = np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=float)
    W = np.zeros((n_models, X.shape[1]))
    for m, i, j in triplets:
        v = X[i] - X[j]
        loss = max(0.0, 1.0 - W[m] @ v)
        vv = v @ v
        if loss > 0 and vv > 0:
            W[m] += min(C, loss / vv) * v
    return W
