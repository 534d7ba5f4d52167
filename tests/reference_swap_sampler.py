"""Plain references for the swap sampler (Dubey et al. 2009, Fig. 2), on the ±1 pair matrix.

A ranking is y ∈ {±1}^{n⁺ × n⁻} (y[g, b] = +1: good g above bad b).  Validity ("y? is a valid
ranking", Fig. 2 line 11) is checked by brute force: y is valid iff the directed graph with an
edge g → b for y = +1 and b → g for y = −1 has a topological order (repeatedly remove a
document nothing is above).  Fig. 2 is then evaluated literally: n_g = #{b: y[g,b] = +1},
n_b = #{g: y[g,b] = −1}, θ as reconstructed (lines 7, 9), and the literal sampler's
transition probabilities conditioned on a move are enumerated over every idx = (g, b).
"""
import itertools

import numpy as np


def y_from_order(order, n_pos):
    """y of a merged order (document ids: goods 0..n⁺-1, bads n⁺..)."""
    order = list(order)
    n_neg = len(order) - n_pos
    rank = {d: i for i, d in enumerate(order)}
    y = np.empty((n_pos, n_neg), dtype=np.int8)
    for g in range(n_pos):
        for b in range(n_neg):
            y[g, b] = 1 if rank[g] < rank[n_pos + b] else -1
    return y


def topological_order(y):
    """A total order inducing y, or None if y is not valid (brute force, O(n³))."""
    n_pos, n_neg = y.shape
    n = n_pos + n_neg
    above = {d: set() for d in range(n)}          # documents that must be above d
    for g in range(n_pos):
        for b in range(n_neg):
            if y[g, b] == 1:
                above[n_pos + b].add(g)
            else:
                above[g].add(n_pos + b)
    order, left = [], set(range(n))
    while left:
        free = [d for d in sorted(left) if not (above[d] & left)]
        if not free:
            return None
        order.append(free[0])
        left.remove(free[0])
    return order


def is_valid(y):
    return topological_order(y) is not None


def is_valid_by_permutations(y):
    """Validity by trying every total order of the documents (tiny queries only)."""
    n_pos, n_neg = y.shape
    for perm in itertools.permutations(range(n_pos + n_neg)):
        if np.array_equal(y_from_order(perm, n_pos), y):
            return True
    return False


def wins_of_y(y):
    """Per document (goods first): bads a good beats, goods a bad beats."""
    return np.concatenate([(y == 1).sum(axis=1), (y == -1).sum(axis=0)]).astype(np.int32)


def y_from_wins(wins, n_pos):
    """The y whose wins are ``wins`` if the wins come from a valid ranking: g beats b iff b's
    level is among the wins_g lowest bads (#{b': wins_b' ≤ wins_b} ≤ wins_g)."""
    wins = np.asarray(wins)
    wg, wb = wins[:n_pos], wins[n_pos:]
    at_or_below = np.array([(wb <= w).sum() for w in wb])
    return np.where(at_or_below[None, :] <= wg[:, None], 1, -1).astype(np.int8)


def theta(y, g, b):
    """Fig. 2 lines 5-9 (reconstructed θ) for pair (g, b) of y."""
    n_pos, n_neg = y.shape
    n_g = int((y[g] == 1).sum())
    n_b = int((y[:, b] == -1).sum())
    D = 2 + n_pos + n_neg
    if y[g, b] == 1:
        return (n_neg - n_g + n_b + 1) / D
    return (n_pos + n_g - n_b + 1) / D


def literal_move_probabilities(y):
    """P(flip (g, b) | a move) of the literal sampler, by enumerating idx (n⁺ × n⁻)."""
    n_pos, n_neg = y.shape
    P = np.zeros((n_pos, n_neg))
    for g in range(n_pos):
        for b in range(n_neg):
            z = y.copy()
            z[g, b] = -z[g, b]
            if is_valid(z):
                P[g, b] = theta(y, g, b) / (n_pos * n_neg)   # Pr(idx) · Pr(flip)
    return P / P.sum()


def all_valid(n_pos, n_neg):
    """Every valid y (as wins tuples → y), by enumerating merged orders."""
    states = {}
    for perm in itertools.permutations(range(n_pos + n_neg)):
        y = y_from_order(perm, n_pos)
        states.setdefault(tuple(wins_of_y(y)), y)
    return states


def transition_matrix(n_pos, n_neg):
    """(keys, T): the literal sampler's move chain over all valid states (T[i, j] =
    P(state j next | state i))."""
    states = all_valid(n_pos, n_neg)
    keys = sorted(states)
    index = {k: i for i, k in enumerate(keys)}
    T = np.zeros((len(keys), len(keys)))
    for k in keys:
        y = states[k]
        P = literal_move_probabilities(y)
        for g, b in zip(*np.nonzero(P)):
            z = y.copy()
            z[g, b] = -z[g, b]
            T[index[k], index[tuple(wins_of_y(z))]] += P[g, b]
    return keys, T


def fig2_python(y, rng):
    """One call of Fig. 2 on the pair matrix: returns (y_out, attempts)."""
    n_pos, n_neg = y.shape
    attempts = 0
    while True:
        attempts += 1
        idx = int(rng.integers(n_pos * n_neg))
        g, b = divmod(idx, n_neg)
        if rng.random() < theta(y, g, b):
            z = y.copy()
            z[g, b] = -z[g, b]
            if is_valid(z):
                return z, attempts
