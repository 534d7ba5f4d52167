"""Literal references for DORM and the SVMperf baselines (plain NumPy/loops, no shortcuts).

* Losses from their equations (Le & Smola 2007, eq. 9–17), evaluated on a permutation given as
  the list of documents in ranked order.
* The most violated constraint (8) by brute force: every permutation (DORM) or every labelling
  (ROCArea, Prec@k of Joachims 2005) of a small query is scored by Δ + w·Φ, Φ by eq. (20).
* The working-set dual (7) solved by a general-purpose solver (SLSQP), for the QP kernel.
"""
import itertools

import numpy as np
from scipy.optimize import minimize


def dcg_at(labels_in_rank_order, n):
    """DCG@n (eq. 11) with gain 2^r − 1 and discount 1/log2(i+1), i = 1-based rank."""
    return sum((2.0 ** r - 1.0) / np.log2(i + 2.0)
               for i, r in enumerate(labels_in_rank_order) if i < n)


def ndcg_at(labels, ranking, n):
    ideal = dcg_at(sorted(labels, reverse=True), n)
    return dcg_at([labels[d] for d in ranking], n) / ideal if ideal > 0 else 0.0


def perm_value(loss, labels, ranking, n=10, relevant_min=1.0, eru_neutral=0.0,
               eru_halflife=5.0, mwta_n=None):
    """⟨a(π), b(y)⟩ for ``ranking`` (documents in ranked order), from the definitions."""
    labels = list(labels)
    top = max(labels)
    if loss == "ndcg":
        return ndcg_at(labels, ranking, n)
    if loss == "mwta":
        return ndcg_at(labels, ranking, mwta_n)
    if loss == "mrr":      # mean over the top-label documents of 1/rank
        tops = [d for d in range(len(labels)) if labels[d] == top]
        return sum(1.0 / (ranking.index(d) + 1) for d in tops) / len(tops)
    if loss == "wta":
        return 1.0 if labels[ranking[0]] == top else 0.0
    if loss == "precision":
        return sum(1.0 for d in ranking[:n] if labels[d] >= relevant_min) / n
    if loss == "eru":
        def eru(order):
            return sum(max(labels[d] - eru_neutral, 0.0) * 2.0 ** (-i / (eru_halflife - 1.0))
                       for i, d in enumerate(order))
        ideal = eru(sorted(range(len(labels)), key=lambda d: -labels[d]))
        return eru(ranking) / ideal if ideal > 0 else 0.0
    raise ValueError(loss)


def most_violated_permutation(loss, labels, g, c, cbar, **kw):
    """max over all permutations of Δ(π) + Σ_d c_{π(d)} g_d − Σ_d cbar_d g_d (the violation
    H(π) = Δ(π) − w·ψ(π), ψ = Φ(x, z_i) − Φ(x, π) with Φ-weights ``cbar`` for z_i)."""
    l = len(labels)
    best_perm = max(itertools.permutations(range(l)),
                    key=lambda r: perm_value(loss, labels, list(r), **kw))
    ideal = perm_value(loss, labels, list(best_perm), **kw)
    best = -np.inf
    for ranking in itertools.permutations(range(l)):
        delta = ideal - perm_value(loss, labels, list(ranking), **kw)
        phi = sum(c[i] * g[d] for i, d in enumerate(ranking))
        best = max(best, delta + phi - float(np.dot(cbar, g)))
    return best


def most_violated_roc(rel, g):
    """max over all pairwise labellings y' of Δ + w·Ψ(y') − w·Ψ(y) (Joachims 2005, ROCArea),
    Ψ and Δ scaled by 1/(|P||N|)."""
    P = [i for i in range(len(rel)) if rel[i]]
    N = [j for j in range(len(rel)) if not rel[j]]
    pairs = [(i, j) for i in P for j in N]
    s = 1.0 / len(pairs)
    best = -np.inf
    for lab in itertools.product([1, -1], repeat=len(pairs)):
        delta = s * sum(1 for y in lab if y < 0)
        wpsi = s * sum(y * (g[i] - g[j]) for y, (i, j) in zip(lab, pairs))
        wpsi_true = s * sum(g[i] - g[j] for i, j in pairs)
        best = max(best, delta + wpsi - wpsi_true)
    return best


def most_violated_prec(rel, g, k):
    """max over labellings y' ∈ {±1}^l with at least k positives and Δ > 0 of
    Δ + w·Ψ(y') − w·Ψ(y), Ψ(x, y') = Σ y'_d x_d, Δ = 1 − (true positives)/(positives)."""
    l = len(rel)
    k = min(k, l)
    truth = [1 if r else -1 for r in rel]
    best = -np.inf
    for lab in itertools.product([1, -1], repeat=l):
        npos = sum(1 for y in lab if y > 0)
        if npos < k:
            continue
        tp = sum(1 for y, r in zip(lab, rel) if y > 0 and r)
        delta = 1.0 - tp / npos
        if delta <= 0:
            continue
        best = max(best, delta + sum((y - t) * gd for y, t, gd in zip(lab, truth, g)))
    return best


def dual_value(alpha_blocks, psi_blocks, delta_blocks):
    w = sum(a @ P for a, P in zip(alpha_blocks, psi_blocks))
    return sum(a @ d for a, d in zip(alpha_blocks, delta_blocks)) - 0.5 * float(w @ w), w


def solve_dual(psi_blocks, delta_blocks, C):
    """max Σ α Δ − ½‖Σ α ψ‖² s.t. α ≥ 0, Σ_p α_ip ≤ C per block, by SLSQP."""
    sizes = [len(d) for d in delta_blocks]
    Psi = np.vstack(psi_blocks)
    delta = np.concatenate(delta_blocks)
    Q = Psi @ Psi.T
    starts = np.cumsum([0] + sizes)
    cons = [{"type": "ineq", "fun": (lambda a, s=s, e=e: C - a[s:e].sum()),
             "jac": (lambda a, s=s, e=e: -np.r_[np.zeros(s), np.ones(e - s),
                                                np.zeros(len(delta) - e)])}
            for s, e in zip(starts[:-1], starts[1:])]
    res = minimize(lambda a: 0.5 * a @ Q @ a - delta @ a, np.zeros(len(delta)),
                   jac=lambda a: Q @ a - delta, bounds=[(0, None)] * len(delta),
                   constraints=cons, method="SLSQP", options={"ftol": 1e-14, "maxiter": 2000})
    return -res.fun


def slack(Psi_i, delta_i, w):
    """ξ_i = max(0, max_p Δ_ip − w·ψ_ip) of one working set (k × d, k)."""
    return max(0.0, max((float(d - p @ w) for p, d in zip(Psi_i, delta_i)), default=0.0))


def n_slack_pass(oracle, X, query_ptr, active, ws, w, eps, solve_block):
    """One pass of Algorithm 2 as a plain loop (the ``nslack`` kernel's reference): returns
    (constraints added, max violation); ``ws`` and ``w`` are updated in place."""
    added, max_viol = 0, -np.inf
    for i in active:
        Xi = X[query_ptr[i]:query_ptr[i + 1]]
        coef, delta = oracle(i, Xi @ w)
        psi = coef @ Xi
        k = int(ws.counts[i])
        viol = delta - float(psi @ w) - slack(ws.Psi[i, :k], ws.delta[i, :k], w)
        max_viol = max(max_viol, viol)
        if viol > eps:
            ws.add(i, psi, delta)
            solve_block(ws, i, w)
            added += 1
    return added, max_viol
