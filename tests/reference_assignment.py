"""Brute-force references for the linear assignment kernel (plain Python, no shortcuts).

An assignment of an nr×nc matrix gives every row of the smaller side a distinct column (or
every column a distinct row); the reference tries all of them (itertools.permutations), so
it is meant for n ≤ 7.  DORM's matrices (Le & Smola 2007, eq. 24) are built literally as
C_ij = c_j g_i − a_j b_i.
"""
import itertools

import numpy as np


def brute_force(C, maximize=False):
    """Optimal total cost of the assignment problem on ``C`` (rows or columns, whichever are
    fewer, all assigned)."""
    C = np.asarray(C, dtype=float)
    nr, nc = C.shape
    if nr > nc:
        return brute_force(C.T, maximize)
    best = None
    for cols in itertools.permutations(range(nc), nr):
        total = sum(C[i, j] for i, j in enumerate(cols))
        if best is None or (total > best if maximize else total < best):
            best = total
    return 0.0 if best is None else best


def dorm_matrix(g, b, c, a):
    """Eq. (24): C[i, j] = c_j g_i − a_j b_i (document i at position j)."""
    g, b, c, a = (np.asarray(x, dtype=float) for x in (g, b, c, a))
    return np.array([[c[j] * g[i] - a[j] * b[i] for j in range(len(c))] for i in range(len(g))])


def assignment_value(C, col_for_row):
    """Σ C[i, col_for_row[i]] over the assigned rows, checking that it is an assignment."""
    cols = [int(j) for j in col_for_row if j >= 0]
    assert len(set(cols)) == len(cols), "a column is used twice"
    assert len(cols) == min(np.shape(C)), "not every row/column of the smaller side is assigned"
    return sum(C[i, j] for i, j in enumerate(col_for_row) if j >= 0)
