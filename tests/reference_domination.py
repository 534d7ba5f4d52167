"""Plain-NumPy reference for the domination-loss coordinate descent (Stevens 2010), literal to
the thesis's equations and slow on purpose: every quantity is recomputed from w by explicit
loops over groups, dominating instances and their dominated sets (brute-force pairs).

Conventions (as in the kernel, with the errata of ``../shared/papers/README.md``):
``groups[i]`` is the group (query) of instance i; within a group, i dominates j iff
``y_i > y_j`` (eq. 4, §3); ``s[i]`` is the separable margin, Δ(i, j) = s(i) − s(j) (§4), so
the margin of i is M_i = w·x_i − s(i).
"""
import numpy as np


def dominated_sets(y, groups):
    """``[(i, D(i))]`` for every dominating instance i (eq. 4: j in i's group, y_j < y_i)."""
    y = np.asarray(y, float)
    groups = np.asarray(groups)
    out = []
    for i in range(y.shape[0]):
        D = np.flatnonzero((groups == groups[i]) & (y < y[i]))
        if D.size:
            out.append((i, D))
    return out


def loss(X, y, groups, s, w):
    """Eq. 5 with Δ(i, j) = s(i) − s(j): Σ_i log(1 + Σ_{j∈D(i)} e^{w·x_j − w·x_i + Δ(i,j)}),
    each term by an explicit sum over the pairs (i, j), evaluated as a log-sum-exp."""
    X = np.asarray(X, float)
    total = 0.0
    for i, D in dominated_sets(y, groups):
        z = [0.0] + [X[j] @ w - X[i] @ w + (s[i] - s[j]) for j in D]
        total += np.logaddexp.reduce(z)
    return total


def gradient(X, y, groups, s, w):
    """§2: ∇ℓ(x_i) = E_{p_i}[x] − x_i, p_i ∝ e^{w·x_j − s(j)} over D̄(i) = D(i) ∪ {i}."""
    X = np.asarray(X, float)
    g = np.zeros(X.shape[1])
    for i, D in dominated_sets(y, groups):
        Dbar = np.append(D, i)
        a = X[Dbar] @ w - np.asarray(s, float)[Dbar]
        p = np.exp(a - a.max())
        p /= p.sum()
        g += p @ X[Dbar] - X[i]
    return g


def beta(X, y, groups):
    """§2/§6.1: β_r = Σ_q m_q B_{q,r}, m_q the dominating instances of query q (errata to
    Alg. 1), B_{q,r} = max_{j∈q} x_jr² over the instances of q."""
    X = np.asarray(X, float)
    y = np.asarray(y, float)
    groups = np.asarray(groups)
    b = np.zeros(X.shape[1])
    for q in np.unique(groups):
        idx = np.flatnonzero(groups == q)
        m_q = sum(1 for i in idx if np.any(y[idx] < y[i]))
        if m_q:
            b += m_q * np.max(X[idx] ** 2, axis=0)
    return b


def step(g, beta_r, w_r, lam, reg):
    """δ* of §5: ℓ1 (Lemmas 1–2, the three cases with the corrected third one) or ℓ2²."""
    if reg == "l2":
        return (-g - 2 * lam * w_r) / (beta_r + 2 * lam)
    if beta_r == 0:
        return -w_r if lam > 0 else 0.0
    if lam >= abs(g - beta_r * w_r):
        return -w_r
    if lam < -g + beta_r * w_r:
        return -(g + lam) / beta_r
    return -(g - lam) / beta_r            # λ < g − βw_r (the errata's third case)


def regulariser(w, reg):
    return float(np.abs(w).sum()) if reg == "l1" else float(w @ w)


def coordinate_descent(X, y, groups, s, lam, reg, coords, w0=None):
    """Single-coordinate updates on ``coords`` in order, each from the gradient recomputed
    from w; returns ``(g per step, δ per step, objective after each step, final w)``."""
    X = np.asarray(X, float)
    w = np.zeros(X.shape[1]) if w0 is None else np.array(w0, float)
    b = beta(X, y, groups)
    gs, ds, fs = [], [], []
    for r in coords:
        g = gradient(X, y, groups, s, w)[r]
        d = step(g, b[r], w[r], lam, reg)
        w[r] += d
        gs.append(g)
        ds.append(d)
        fs.append(loss(X, y, groups, s, w) + lam * regulariser(w, reg))
    return np.array(gs), np.array(ds), np.array(fs), w
