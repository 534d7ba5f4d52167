# cython: language_level=3
"""Coordinate descent for the domination loss with cached margins (Stevens 2010, §2–§6,
Algorithms 1–6, with the corrections of ``../shared/papers/README.md``).

Kernel of ``repro.rankers.domination`` (which checks the input, builds the blocks, computes
the curvature bounds β_r and runs the sweeps, the stopping rule and feature induction).

The problem.  Instances are split into *groups* (one LETOR query, a whole pooled training
set, or the images of one keyword) and, within a group, into *layers* G(0) < G(1) < …
(relevance levels, §3).  Each (group, layer) pair is a *block* ``b``; the blocks of group g
are ``gptr[g] … gptr[g+1]−1`` in layer order, the instances of block b are
``rows[bptr[b]:bptr[b+1]]`` and ``block_of[i]`` is the block of instance i (−1: the instance
takes no part, e.g. a negative left out by sampling).  With the margin
``M_i = w·x_i − s(i)`` (§4 with the sign of the errata: a positive i over a negative j asks
``w·x_i − w·x_j ≥ s(i) − s(j)``), the loss (eq. 5–7, §3–§4) is

    L(w) = Σ_g Σ_{k≥1} Σ_{i∈G_g(k)} log(1 + Σ_{j∈D(i)} e^{M_j − M_i})
         = Σ_{dominating i} softplus(L_k − M_i),      L_k = log Z_k,  Z_k = Σ_{j∈D(k)} e^{M_j},

D(k) = all instances of the group's layers below k.  Its partial derivative (§3, §6.2) is

    g_r = Σ_k Σ_{i∈G(k)} (μ_{k,r} − Z_k x_ir) / (Z_k + e^{M_i})
        = Σ_k [ν_{k,r} S_k − Σ_{i∈G(k), x_ir≠0} x_ir σ_i],

with σ_i = Z_k/(Z_k + e^{M_i}) = 1/(1 + e^{M_i − L_k}), S_k = Σ_{i∈G(k)} σ_i and
ν_{k,r} = μ_{k,r}/Z_k (the mean of x_r under p ∝ e^{M_j} on D(k)).  The errata's readings are
built in: m_q counts dominating instances (Alg. 1), μ sums over the dominated set D(k) of all
lower layers (Alg. 2, Alg. 4 / §3), Z_k = Z_{k−1} + Σ_{G(k−1)} e^{M} (Alg. 3), the margins
of positives are updated too (Alg. 2).  The μ-term runs over *all* i ∈ G(k) (the printed
loops' "x_ir ≠ 0" would drop −μ/(Z + e^{M_i}) for the instances without feature r).

Each step minimises the bound L(w + δe_r) ≤ L(w) + g_r δ + β_r δ²/2 plus the regulariser
(§2, §5): β_r = Σ_g m_g B_{g,r} (B_{g,r} = max_{j∈g} x_jr², computed by the wrapper);
ℓ2²: δ = −(g_r + 2λw_r)/(β_r + 2λ); ℓ1 (Lemmas 1–2, the third case corrected to
δ = −(g_r − λ)/β_r): soft thresholding.  The bound touches the objective at w, so the
regularised loss never increases.

Cached state (Alg. 6), all caller-allocated: margins ``M`` (instances), per block a shift
``c_b`` and ``E_i = e^{M_i − c_b}`` for its instances, ``T_b = Σ_{i∈b} E_i`` and an error bound
``Terr_b``.  After a step on coordinate r only the instances with x_ir ≠ 0 are touched:
M_i += δ x_ir, E_i, T_b updated by difference.  Numerics (the max-shift of §6, per block):
Z_k is never formed; L_k = log-sum-exp_b (c_b + log T_b) over the lower blocks, and every
quantity is a ratio (σ_i, ν) bounded by construction, so margins of ±10⁴ (s = 200·r_i, large
weights) give neither overflow nor 0/0.  A block is *recentred* (c_b = max M, E and T
recomputed, O(|b|)) when a margin exceeds c_b by 300, when T_b < 1e−200, or when the
accumulated rounding bound of its updates exceeds 1e−10·T_b (cancellation): the cached sums
stay within 1e−10 (relative) of a fresh computation.

Cost of a step on r: O(nnz_r) for μ, the x-part of g_r and the margin updates, plus, when the
previous step changed w, O(B + m) to refresh L_k, σ and S_k (the μ-term needs S_k over all
dominating instances; S_k depends on every Z_k, which changes with almost every update).  A
sweep over d features is O(nnz + d·(B + m)): linear in the number of instances (m ≤ n), not
in the number of pairs.
"""
from libc.math cimport exp, log, log1p, fabs, INFINITY
from libc.stdint cimport int32_t, int64_t

from column_access cimport Slices, make_slices, get_slice, bad_slices

cdef double EPS = 2.220446049250313e-16
cdef double REL_TOL = 1e-10      # recentre when the rounding bound of T_b exceeds REL_TOL·T_b
cdef double SLACK = 300.0        # recentre when M_i − c_b exceeds this
cdef double TINY = 1e-200        # recentre when T_b falls below this

# layout of the work array (B = number of blocks): 9 arrays of length B
cdef enum:
    W_L = 0        # L_b = log Z of the blocks below b in its group (dominating blocks)
    W_F = 1        # f_b = exp(c_b − L_b)
    W_S = 2        # S_b = Σ_{i∈b} σ_i
    W_UP = 3       # up_b = exp(c_b − L_{b+1})
    W_CARRY = 4    # carry_b = exp(L_b − L_{b+1})
    W_MU = 5       # μ_b of the current coordinate (shifted by c_b)
    W_DOM = 6      # 1 if b is a dominating block (not the group's lowest layer)
    W_FLAG = 7     # touched by the last update (1) / must be recentred (2)
    W_SPARE = 8
    N_WORK = 9


cdef inline double _logaddexp(double a, double b) noexcept nogil:
    if a == -INFINITY:
        return b
    if b == -INFINITY:
        return a
    if a > b:
        return a + log1p(exp(b - a))
    return b + log1p(exp(a - b))


cdef inline double _softplus(double z) noexcept nogil:
    """log(1 + e^z) without overflow."""
    if z > 0:
        return z + log1p(exp(-z))
    return log1p(exp(z))


cdef inline double _sigma(double Mi, double Ei, double fb, double Lb) noexcept nogil:
    """σ_i = 1/(1 + e^{M_i − L_b}); fast path E_i·f_b = e^{M_i − c_b}·e^{c_b − L_b}."""
    cdef double e
    if Ei > 0.0 and fb < INFINITY:
        return 1.0 / (1.0 + Ei * fb)
    e = Mi - Lb
    if e > 0:
        e = exp(-e)
        return e / (1.0 + e)
    return 1.0 / (1.0 + exp(e))


cdef inline void _recentre(Py_ssize_t b, const int64_t* rows, const int64_t* bptr,
                           const double* M, double* E, double* c, double* T,
                           double* Terr) noexcept nogil:
    """c_b = max margin of block b; E_i and T_b recomputed from the margins."""
    cdef Py_ssize_t p, i
    cdef double mx = -INFINITY, t = 0.0
    for p in range(bptr[b], bptr[b + 1]):
        if M[rows[p]] > mx:
            mx = M[rows[p]]
    for p in range(bptr[b], bptr[b + 1]):
        i = rows[p]
        E[i] = exp(M[i] - mx)
        t = t + E[i]
    c[b] = mx
    T[b] = t
    Terr[b] = 0.0                 # rounding bound of the updates since this recentring


cdef inline void _mark_dominating(Py_ssize_t G, const int64_t* gptr, double* dom) noexcept nogil:
    cdef Py_ssize_t g, b
    for g in range(G):
        for b in range(gptr[g], gptr[g + 1]):
            dom[b] = 1.0 if b > gptr[g] else 0.0


cdef void _refresh(Py_ssize_t G, const int64_t* gptr, const int64_t* bptr, const int64_t* rows,
                   const double* M, const double* E, const double* c, const double* T,
                   double* w, Py_ssize_t B, bint with_S) noexcept nogil:
    """L_b, f_b, up_b, carry_b (and S_b if ``with_S``) from the block sums: O(B + m)."""
    cdef double* L = w + W_L * B
    cdef double* f = w + W_F * B
    cdef double* S = w + W_S * B
    cdef double* up = w + W_UP * B
    cdef double* carry = w + W_CARRY * B
    cdef Py_ssize_t g, b, p, i
    cdef double run, lt, new, s
    for g in range(G):
        run = -INFINITY
        for b in range(gptr[g], gptr[g + 1]):
            lt = c[b] + log(T[b])
            if b > gptr[g]:
                L[b] = run
                f[b] = exp(c[b] - run)
                if with_S:
                    s = 0.0
                    for p in range(bptr[b], bptr[b + 1]):
                        i = rows[p]
                        s = s + _sigma(M[i], E[i], f[b], run)
                    S[b] = s
            new = _logaddexp(run, lt)
            up[b] = exp(c[b] - new)                  # = exp(c_b − L_{b+1})
            carry[b] = exp(run - new) if b > gptr[g] else 0.0
            run = new


cdef inline double _gradient(const Slices* X, Py_ssize_t r, Py_ssize_t G, const int64_t* gptr,
                             const int64_t* block_of, const double* M, const double* E,
                             double* w, Py_ssize_t B) noexcept nogil:
    """g_r at the cached state (needs a current ``_refresh``); leaves μ_b in the work array."""
    cdef double* L = w + W_L * B
    cdef double* f = w + W_F * B
    cdef double* S = w + W_S * B
    cdef double* up = w + W_UP * B
    cdef double* carry = w + W_CARRY * B
    cdef double* mu = w + W_MU * B
    cdef double* dom = w + W_DOM * B
    cdef const double* val
    cdef const int32_t* idx
    cdef Py_ssize_t nnz, p, i, b, g, b0, b1
    cdef double x, xs = 0.0, grad, nu
    for b in range(B):
        mu[b] = 0.0
    nnz = get_slice(X, r, &val, &idx)
    for p in range(nnz):
        x = val[p]
        if x == 0.0:
            continue
        i = idx[p]
        b = block_of[i]
        if b < 0:
            continue
        mu[b] = mu[b] + E[i] * x
        if dom[b] != 0.0:
            xs = xs + x * _sigma(M[i], E[i], f[b], L[b])
    grad = -xs
    for g in range(G):
        b0 = gptr[g]
        b1 = gptr[g + 1]
        nu = up[b0] * mu[b0]
        for b in range(b0 + 1, b1):
            grad = grad + S[b] * nu
            nu = carry[b] * nu + up[b] * mu[b]
    return grad


cdef inline double _delta(double g, double beta, double w, double lam, int reg) noexcept nogil:
    """argmin_δ g δ + β δ²/2 + λ R(w + δ): ℓ2² (reg = 2, §5) or ℓ1 (reg = 1, Lemmas 1–2)."""
    cdef double u
    if reg == 2:
        if beta + 2.0 * lam == 0.0:
            return 0.0
        return (-g - 2.0 * lam * w) / (beta + 2.0 * lam)
    if beta == 0.0:                     # the loss does not depend on w_r (then g = 0)
        return -w if lam > 0.0 else 0.0
    u = beta * w - g
    if lam >= fabs(u):
        return -w
    if u > 0.0:
        return -(g + lam) / beta
    return -(g - lam) / beta


cdef inline bint _bad_blocks(Py_ssize_t n, const int64_t[::1] block_of,
                             const int64_t[::1] rows, const int64_t[::1] bptr,
                             const int64_t[::1] gptr, const double[::1] M, const double[::1] E,
                             const double[::1] c, const double[::1] T,
                             const double[::1] Terr, const double[::1] work) noexcept nogil:
    cdef Py_ssize_t B = bptr.shape[0] - 1
    if B < 1 or gptr.shape[0] < 2 or gptr[0] != 0 or gptr[gptr.shape[0] - 1] != B:
        return True
    if block_of.shape[0] != n or M.shape[0] != n or E.shape[0] != n:
        return True
    if bptr[0] != 0 or bptr[B] != rows.shape[0] or rows.shape[0] > n:
        return True
    if c.shape[0] != B or T.shape[0] != B or Terr.shape[0] != B or work.shape[0] < N_WORK * B:
        return True
    return False


def init_state(const double[::1] xdata, const int32_t[::1] xind, const int64_t[::1] xptr,
               Py_ssize_t n_rows, bint dense, const double[::1] w, const double[::1] s,
               const int64_t[::1] block_of, const int64_t[::1] rows, const int64_t[::1] bptr,
               const int64_t[::1] gptr, double[::1] M, double[::1] E, double[::1] c,
               double[::1] T, double[::1] Terr, double[::1] work):
    """Algorithms 1, 3, 5: margins M = Xw − s of the participating instances (all others 0),
    every block recentred.  ``X`` is given by columns (see ``column_access.pxd``).
    Returns 0, or −1 on inconsistent shapes."""
    if bad_slices(xdata, xind, xptr, n_rows, dense) or w.shape[0] != xptr.shape[0] - 1 \
            or s.shape[0] != n_rows or _bad_blocks(n_rows, block_of, rows, bptr, gptr, M, E, c,
                                                    T, Terr, work):
        return -1
    cdef Slices X = make_slices(xdata, xind, xptr, n_rows, dense)
    cdef Py_ssize_t d = X.n_major, B = bptr.shape[0] - 1
    cdef Py_ssize_t i, r, p, nnz, b
    cdef const double* val
    cdef const int32_t* idx
    cdef double wr
    with nogil:
        for i in range(n_rows):
            M[i] = -s[i] if block_of[i] >= 0 else 0.0
        for r in range(d):
            wr = w[r]
            if wr == 0.0:
                continue
            nnz = get_slice(&X, r, &val, &idx)
            for p in range(nnz):
                i = idx[p]
                if block_of[i] >= 0:
                    M[i] = M[i] + wr * val[p]
        for b in range(B):
            _recentre(b, &rows[0], &bptr[0], &M[0], &E[0], &c[0], &T[0], &Terr[0])
    return 0


def objective(const int64_t[::1] rows, const int64_t[::1] bptr, const int64_t[::1] gptr,
              const double[::1] M, const double[::1] E, const double[::1] c,
              const double[::1] T, double[::1] work):
    """The loss L(w) (eq. 5–7 with layers and margins) from the cached state:
    Σ_{dominating i} softplus(L_k − M_i).  O(B + m)."""
    cdef Py_ssize_t B = bptr.shape[0] - 1, G = gptr.shape[0] - 1
    if B < 1 or work.shape[0] < N_WORK * B or c.shape[0] != B or T.shape[0] != B \
            or gptr[G] != B or bptr[B] != rows.shape[0]:
        return float("nan")
    cdef double* L = &work[W_L * B]
    cdef Py_ssize_t g, b, p
    cdef double total = 0.0, acc
    with nogil:
        _refresh(G, &gptr[0], &bptr[0], &rows[0], &M[0], &E[0], &c[0], &T[0], &work[0], B, False)
        for g in range(G):
            for b in range(gptr[g] + 1, gptr[g + 1]):
                acc = 0.0
                for p in range(bptr[b], bptr[b + 1]):
                    acc = acc + _softplus(L[b] - M[rows[p]])
                total = total + acc
    return total


def gradient(const double[::1] xdata, const int32_t[::1] xind, const int64_t[::1] xptr,
             Py_ssize_t n_rows, bint dense, const int64_t[::1] block_of,
             const int64_t[::1] rows, const int64_t[::1] bptr, const int64_t[::1] gptr,
             const double[::1] M, const double[::1] E, const double[::1] c,
             const double[::1] T, const double[::1] Terr, double[::1] work, double[::1] out):
    """∇L(w) at the cached state into ``out`` (one pass over all columns: O(nnz + d·B + m)).
    Returns 0, or −1 on inconsistent shapes."""
    if bad_slices(xdata, xind, xptr, n_rows, dense) or out.shape[0] != xptr.shape[0] - 1 \
            or _bad_blocks(n_rows, block_of, rows, bptr, gptr, M, E, c, T, Terr, work):
        return -1
    cdef Slices X = make_slices(xdata, xind, xptr, n_rows, dense)
    cdef Py_ssize_t B = bptr.shape[0] - 1, G = gptr.shape[0] - 1, r
    with nogil:
        _mark_dominating(G, &gptr[0], &work[W_DOM * B])
        _refresh(G, &gptr[0], &bptr[0], &rows[0], &M[0], &E[0], &c[0], &T[0], &work[0], B, True)
        for r in range(X.n_major):
            out[r] = _gradient(&X, r, G, &gptr[0], &block_of[0], &M[0], &E[0], &work[0], B)
    return 0


def cd_steps(const double[::1] xdata, const int32_t[::1] xind, const int64_t[::1] xptr,
             Py_ssize_t n_rows, bint dense, const int64_t[::1] block_of,
             const int64_t[::1] rows, const int64_t[::1] bptr, const int64_t[::1] gptr,
             const double[::1] beta, const int64_t[::1] coords, double lam, int reg,
             double[::1] w, double[::1] M, double[::1] E, double[::1] c, double[::1] T,
             double[::1] Terr, double[::1] work, double[::1] rec_g, double[::1] rec_delta):
    """Single-coordinate updates on ``coords[0], coords[1], …`` in that order (Alg. 2/4 with
    the cached state of Alg. 6); ``reg`` 1 = ℓ1, 2 = ℓ2² with weight ``lam``.  If ``rec_g`` and
    ``rec_delta`` have one entry per coordinate, the gradient g_r and the step δ of every
    update are recorded.  Returns the number of updates with δ ≠ 0, or −1 on inconsistent
    shapes or coordinates."""
    cdef Py_ssize_t d = xptr.shape[0] - 1, n_steps = coords.shape[0]
    if bad_slices(xdata, xind, xptr, n_rows, dense) or w.shape[0] != d or beta.shape[0] != d \
            or _bad_blocks(n_rows, block_of, rows, bptr, gptr, M, E, c, T, Terr, work) \
            or (reg != 1 and reg != 2):
        return -1
    cdef bint record = rec_g.shape[0] == n_steps and rec_delta.shape[0] == n_steps
    cdef Slices X = make_slices(xdata, xind, xptr, n_rows, dense)
    cdef Py_ssize_t B = bptr.shape[0] - 1, G = gptr.shape[0] - 1
    cdef Py_ssize_t t, r, p, nnz, i, b, changed = 0
    cdef const double* val
    cdef const int32_t* idx
    cdef double* flag = &work[W_FLAG * B]
    cdef double g, delta, x, En
    cdef bint dirty = True
    for t in range(n_steps):
        if coords[t] < 0 or coords[t] >= d:
            return -1
    with nogil:
        _mark_dominating(G, &gptr[0], &work[W_DOM * B])
        for b in range(B):
            flag[b] = 0.0
        for t in range(n_steps):
            r = coords[t]
            if dirty:
                _refresh(G, &gptr[0], &bptr[0], &rows[0], &M[0], &E[0], &c[0], &T[0],
                         &work[0], B, True)
                dirty = False
            g = _gradient(&X, r, G, &gptr[0], &block_of[0], &M[0], &E[0], &work[0], B)
            delta = _delta(g, beta[r], w[r], lam, reg)
            if record:
                rec_g[t] = g
                rec_delta[t] = delta
            if delta == 0.0:
                continue
            changed = changed + 1
            w[r] = w[r] + delta
            nnz = get_slice(&X, r, &val, &idx)
            for p in range(nnz):
                x = val[p]
                if x == 0.0:
                    continue
                i = idx[p]
                b = block_of[i]
                if b < 0:
                    continue
                M[i] = M[i] + delta * x
                En = exp(M[i] - c[b])
                T[b] = T[b] + (En - E[i])
                Terr[b] = Terr[b] + EPS * (fabs(T[b]) + En + E[i])
                E[i] = En
                if M[i] - c[b] > SLACK:
                    flag[b] = 2.0
                elif flag[b] == 0.0:
                    flag[b] = 1.0
                dirty = True
            if dirty:
                for b in range(B):
                    if flag[b] != 0.0:
                        if flag[b] == 2.0 or Terr[b] > REL_TOL * T[b] or T[b] < TINY:
                            _recentre(b, &rows[0], &bptr[0], &M[0], &E[0], &c[0], &T[0],
                                      &Terr[0])
                        flag[b] = 0.0
    return changed
