"""Literal references for the objectives of Dubey et al. (2009) on explicit pair matrices.

Rankings are y ∈ {±1}^{n⁺ × n⁻} (goods = the first n⁺ documents of a query); φ_po(x_q, y) =
s Σ_gb y_gb (x_g − x_b) is summed pair by pair (eq. 2); Δ is computed from a total order
inducing y by the definitions of Sec. 1.6; every objective is the printed formula with the sum
over y replaced by the sum over the given rankings (eq. 6-7, 10-12, 14), and ExpGain_AUC's
closed form is checked against the sum over the whole hypercube {±1}^{n⁺n⁻}.
"""
import itertools
import math

import numpy as np

import reference_swap_sampler as rss


def phi(Xq, y, scale=1.0):
    n_pos, n_neg = y.shape
    out = np.zeros(Xq.shape[1])
    for g in range(n_pos):
        for b in range(n_neg):
            out += y[g, b] * (Xq[g] - Xq[n_pos + b])
    return scale * out


def good_ranks(y):
    """0-based ranks of the goods in a total order inducing y."""
    order = rss.topological_order(y)
    return sorted(i for i, d in enumerate(order) if d < y.shape[0])


def gain(y, kind, k=10):
    n_pos, n_neg = y.shape
    if kind == "AUC":
        return (y == 1).sum() / (n_pos * n_neg)
    r = good_ranks(y)
    if kind == "MAP":
        return sum((1 + i) / (1 + ri) for i, ri in enumerate(r)) / n_pos

    def D(i):
        if i >= k:
            return 0.0
        return 1.0 if i <= 1 else 1.0 / math.log2(1 + i)
    return sum(D(ri) for ri in r) / sum(D(i) for i in range(min(n_pos, k)))


def query_objective(Xq, ys, w, objective, kind, scale=1.0, k=10):
    """L_q over the rankings ``ys`` (ys[0] = y_q)."""
    u = np.array([w @ phi(Xq, y, scale) for y in ys])
    delta = np.array([1.0 - gain(y, kind, k) for y in ys])
    du = u - u[0]                                     # −wᵀδφ_q(y)
    if objective == "MLE":
        return math.log(np.exp(du).sum())
    if objective == "ConvexLoss":
        return math.log(np.exp(du + delta).sum())
    p = np.exp(u - u.max())
    p /= p.sum()
    if objective == "L3":
        return math.log(np.exp(du).sum()) + float(p @ delta)
    if objective == "ExpGain":
        return -math.log(float(p @ (1.0 - delta)))
    raise ValueError(objective)


def expgain_auc_hypercube(Xq, n_pos, w, scale=1.0):
    """−log Σ_y AUC(y) exp(wᵀφ(y)) / Σ_y exp(wᵀφ(y)) over all y ∈ {±1}^{n⁺n⁻}."""
    n_neg = Xq.shape[0] - n_pos
    num = den = 0.0
    u = []
    ys = []
    for bits in itertools.product((-1, 1), repeat=n_pos * n_neg):
        y = np.array(bits).reshape(n_pos, n_neg)
        ys.append(y)
        u.append(w @ phi(Xq, y, scale))
    u = np.array(u)
    e = np.exp(u - u.max())
    for y, ei in zip(ys, e):
        num += ei * (y == 1).sum() / (n_pos * n_neg)
        den += ei
    return -math.log(num / den)
