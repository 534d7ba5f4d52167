"""O(l²) references for the pair-counting kernels and the RankSVM objective (tests only).

Everything here forms the pairs explicitly, the way the definitions read (supplement Sec. II):
a pair (h, l) of a query with y_h > y_l is "inside the margin" iff 1 − z_h + z_l > 0.
"""
import numpy as np


def pairs(y, query_ptr):
    """All (high, low) index pairs of the same query with y_high > y_low."""
    H, L = [], []
    for q in range(len(query_ptr) - 1):
        a, b = query_ptr[q], query_ptr[q + 1]
        for i in range(a, b):
            for j in range(a, b):
                if y[i] > y[j]:
                    H.append(i)
                    L.append(j)
    return np.array(H, dtype=np.int64), np.array(L, dtype=np.int64)


def sv_counts(z, y, query_ptr, v=None):
    """``(l_plus, l_minus, s_plus, s_minus)`` by a double loop over each query."""
    z = np.asarray(z, float)
    v = z if v is None else np.asarray(v, float)
    n = len(z)
    lp = np.zeros(n, np.int64)
    lm = np.zeros(n, np.int64)
    sp = np.zeros(n)
    sm = np.zeros(n)
    for q in range(len(query_ptr) - 1):
        a, b = query_ptr[q], query_ptr[q + 1]
        for i in range(a, b):
            for j in range(a, b):
                if y[j] > y[i] and 1.0 - z[j] + z[i] > 0:      # j ∈ SV_i^+
                    lp[i] += 1
                    sp[i] += v[j]
                if y[j] < y[i] and 1.0 - z[i] + z[j] > 0:      # j ∈ SV_i^-
                    lm[i] += 1
                    sm[i] += v[j]
    return lp, lm, sp, sm


class PairObjective:
    """f, ∇f, generalized ∇²f·d of problem (3) on the explicit pair differences."""

    def __init__(self, X, y, query_ptr, C):
        self.X = np.asarray(X.toarray() if hasattr(X, "toarray") else X, float)
        self.H, self.L = pairs(np.asarray(y, float), query_ptr)
        self.D = self.X[self.H] - self.X[self.L]
        self.C = C

    def margins(self, w):
        return 1.0 - self.D @ w

    def fun(self, w):
        m = self.margins(w)
        return 0.5 * w @ w + self.C * float(np.sum(np.maximum(m, 0.0) ** 2))

    def grad(self, w):
        m = self.margins(w)
        a = m > 0
        return w - 2.0 * self.C * self.D[a].T @ m[a]

    def hv(self, w, d):
        a = self.margins(w) > 0
        Da = self.D[a]
        return d + 2.0 * self.C * Da.T @ (Da @ d)

    def l1_fun(self, w):
        """Problem (2): ½wᵀw + C Σ max(0, 1 − wᵀ(x_i − x_j))."""
        return 0.5 * w @ w + self.C * float(np.sum(np.maximum(self.margins(w), 0.0)))


def hinge_subgradient(X, y, query_ptr, w):
    """Σ over pairs inside the margin of −(x_h − x_l), and the hinge sum (explicit pairs)."""
    H, L = pairs(np.asarray(y, float), query_ptr)
    X = np.asarray(X, float)
    D = X[H] - X[L]
    m = 1.0 - D @ w
    a = m > 0
    return -D[a].sum(axis=0), float(m[a].sum())


def joachims_algorithm_I(z, y, r_range="corrected"):
    """Algorithm (I) of the supplement, literally, on ONE query (counts only).  Levels are
    1..k.  ``r_range="printed"`` runs step 4 over r = 2, …, k as printed; ``"corrected"`` over
    r = 1, …, k−1."""
    z = np.asarray(z, float)
    levels = {v: i + 1 for i, v in enumerate(sorted(set(y)))}
    yy = [levels[v] for v in y]
    k = len(levels)
    l = len(z)
    pi = sorted(range(l), key=lambda i: z[i])            # step 3
    lp = [0] * l
    lm = [0] * l                                         # step 1
    rs = range(2, k + 1) if r_range == "printed" else range(1, k)
    for r in rs:                                         # step 4
        j, cplus, cminus = 0, 0, sum(1 for s in yy if s == r)      # 4.1
        for i in range(l):                               # 4.2
            if yy[pi[i]] == r:                           # 4.2.1
                while j < l and 1 - z[pi[j]] + z[pi[i]] > 0:      # a
                    if yy[pi[j]] > r:
                        cplus += 1
                        lm[pi[j]] += cminus
                    j += 1
                lp[pi[i]] = cplus                        # b (l^+_{π(i)})
                cminus -= 1                              # c
    return np.array(lp), np.array(lm)
