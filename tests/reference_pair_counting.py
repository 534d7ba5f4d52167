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


# --- operation counts, by brute force ---------------------------------------------------------

RUN = 24    # the kernels' sort: runs of 24 sorted by insertion, then bottom-up merges


def sort_comparisons(keys):
    """Key comparisons of the kernels' stable sort of ``keys`` (in their given order),
    from the sorted contents of its runs, without running it: an insertion into a run
    compares with every earlier key above it, plus once more if an earlier key is not above
    it; a merge of two sorted runs compares once to see whether they are in order, and
    otherwise once per element output before one run is exhausted."""
    keys = [float(x) for x in keys]
    n = len(keys)
    c = 0
    for s in range(0, n, RUN):
        run = keys[s:s + RUN]
        for i in range(1, len(run)):
            above = sum(1 for x in run[:i] if x > run[i])
            c += above + (1 if above < i else 0)
    width = RUN
    while width < n:
        for s in range(0, n, 2 * width):
            mid, end = s + width, min(s + 2 * width, n)
            if mid >= end:
                continue
            left, right = sorted(keys[s:mid]), sorted(keys[mid:end])
            c += 1
            if left[-1] <= right[0]:
                continue
            if left[-1] > right[-1]:        # the right run runs out first
                rest = sum(1 for x in left if x > right[-1])
            else:                           # the left one: right keys ≥ its last remain
                rest = sum(1 for x in right if x >= left[-1])
            c += (end - s) - rest
        width *= 2
    return c


def tree_depth(k, key):
    """Depth (nodes from the root, inclusive) of ``key`` in the perfectly balanced tree of
    the keys 0..k-1 whose node of the key range [lo, hi) is (lo + hi) // 2."""
    def depth(lo, hi):
        mid = (lo + hi) // 2
        return 1 if key == mid else 1 + (depth(lo, mid) if key < mid else depth(mid + 1, hi))
    return depth(0, k)


def operation_counts(method, z, y, query_ptr, order=None):
    """``(sort comparisons, margin tests, level operations)`` of one counting pass of
    ``method`` (see the kernel's ``operation_counts``), from the margin relations directly:
    in sorted order the documents inside the margin above document i form a prefix of
    length j_i = #{j | 1 − z_j + z_i > 0}, those below a suffix of length
    d_i = #{j | 1 − z_i + z_j > 0}; the ascending sweep inserts max j_i documents and tests
    once more at every i with j_i < l (the descending one likewise)."""
    z = np.asarray(z, float)
    n = len(z)
    order = np.arange(n) if order is None else np.asarray(order)
    sort_c = tests = level_ops = 0
    for q in range(len(query_ptr) - 1):
        a, b = int(query_ptr[q]), int(query_ptr[q + 1])
        idx = order[a:b]
        sort_c += sort_comparisons(z[idx])
        srt = idx[np.argsort(z[idx], kind="stable")]
        zs = z[srt]
        lev = np.unique(np.asarray(y, float)[srt], return_inverse=True)[1].ravel()
        m = b - a
        k = int(lev.max()) + 1 if m else 0
        jup = np.array([np.sum(1.0 - zs + zs[i] > 0) for i in range(m)], dtype=np.int64)
        jdn = np.array([np.sum(1.0 - zs[i] + zs > 0) for i in range(m)], dtype=np.int64)
        if method == "joachims":
            for r in range(k - 1):
                at = lev == r
                tests += (int(jup[at].max()) if at.any() else 0) + int(np.sum(jup[at] < m))
                level_ops += 2 * m
            continue
        if method == "tree" and k < 2:
            continue
        J, D = (int(jup.max()), int(jdn.max())) if m else (0, 0)
        tests += J + int(np.sum(jup < m)) + D + int(np.sum(jdn < m))
        if method == "direct":
            level_ops += J + D + m * (k - 1)
        else:
            dep = [tree_depth(k, int(r)) for r in lev]
            level_ops += sum(dep[:J]) + sum(dep[m - D:]) + 2 * sum(dep)
    return sort_c, tests, level_ops
