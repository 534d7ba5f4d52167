"""Brute-force most violated constraint of SVM-MAP (Yue et al. 2007): the maximum of
Δ_AP(ȳ) + wᵀψ(ȳ) over every total order of a small query's documents, with ψ summed pair by
pair (ψ = (1/(n⁺n⁻)) Σ_gb y_gb (x_g − x_b), as scores: Σ_gb y_gb (s_g − s_b)/(n⁺n⁻))."""
import itertools

import numpy as np


def ap(order, good):
    hits, total = 0, 0.0
    for r, d in enumerate(order):
        if good[d]:
            hits += 1
            total += hits / (r + 1)
    return total / hits


def most_violated(s_good, s_bad):
    P, N = len(s_good), len(s_bad)
    s = np.r_[s_good, s_bad]
    good = np.r_[np.ones(P, bool), np.zeros(N, bool)]
    best = -np.inf
    for order in itertools.permutations(range(P + N)):
        pos = np.argsort(order)
        psi = sum((1 if pos[g] < pos[P + b] else -1) * (s[g] - s[P + b])
                  for g in range(P) for b in range(N)) / (P * N)
        best = max(best, 1.0 - ap(order, good) + psi)
    return best
