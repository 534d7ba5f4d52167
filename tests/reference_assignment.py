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


def canonical_brute_force(C, maximize=False, tol=0.0):
    """The canonical optimum by enumeration: of the assignments that avoid the forbidden
    entries (+inf when minimising, −inf when maximising) and whose total is within ``tol`` of
    the best, the lexicographically smallest ``col_for_row`` (-1 for rows left out); with
    more rows than columns the rule applies to the transpose.  ``None`` if every assignment
    uses a forbidden entry.  Returns ``(col_for_row, total)``."""
    C = np.asarray(C, dtype=float)
    nr, nc = C.shape
    if nr > nc:
        got = canonical_brute_force(C.T, maximize, tol)
        if got is None:
            return None
        row_for_col, total = got
        col_for_row = np.full(nr, -1)
        col_for_row[row_for_col] = np.arange(nc)
        return col_for_row, total
    sign = -1.0 if maximize else 1.0
    totals = {}
    for cols in itertools.permutations(range(nc), nr):      # lexicographic order
        total = sum(sign * C[i, j] for i, j in enumerate(cols))
        if total < np.inf:
            totals[cols] = total
    if not totals:
        return None
    best = min(totals.values())
    first = next(cols for cols, t in totals.items() if t <= best + tol)
    return np.array(first, dtype=int), sign * totals[first]


def canonical_by_fixing(C, maximize=False):
    """The same canonical optimum for larger integer matrices (rows ≤ columns), by
    ``scipy.optimize.linear_sum_assignment`` alone: row by row, the smallest column whose
    fixing (every other entry of its row and column forbidden) keeps the optimal total."""
    from scipy.optimize import linear_sum_assignment
    C = np.array(C, dtype=float)
    nr, nc = C.shape
    assert nr <= nc
    bad = -np.inf if maximize else np.inf

    def total(M):
        try:
            r, c = linear_sum_assignment(M, maximize=maximize)
        except ValueError:                   # infeasible
            return None
        return M[r, c].sum()

    best = total(C)
    if best is None:
        return None
    out = np.full(nr, -1)
    for i in range(nr):
        for j in range(nc):
            if C[i, j] == bad:
                continue
            M = C.copy()
            keep = M[i, j]
            M[i, :] = bad
            M[:, j] = bad
            M[i, j] = keep
            if total(M) == best:
                C = M
                out[i] = j
                break
    return out, best
