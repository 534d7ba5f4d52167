# cython: language_level=3
"""Objectives of the conditional ranking model Pr(y | x_q; w) ∝ exp(wᵀφ_po(x_q, y)) (Dubey et al.
2009, eq. 2-3) and their gradients with respect to the document scores S = Xw.

Kernel of ``repro.rankers.conditional`` (which orders each query's documents good-first, draws
the sample Ŷ, computes Δ of every sampled ranking, adds the regulariser and maps the score
gradient v to ∇_w = Xᵀv).

Feature map without pairs.  With y ∈ {±1}^{n⁺n⁻} valid and wins_i the number of documents of
the other class that document i beats in y (n_g of Fig. 2 for a good g, n_b for a bad b),

    φ_po(x_q, y) = s_q Σ_{g,b} y_gb (x_g − x_b) = s_q Σ_i a_i x_i,
    a_g = 2 wins_g − n⁻,   a_b = 2 wins_b − n⁺                                      (derived)

(a_g = #beaten − #beating; the coefficient of x_b is −(#goods above b − #goods below b)), s_q =
1/(n⁺n⁻) or 1 (Sec. 1.7: the scale is "omitted, based on cross-validation").  Hence
u(y) = wᵀφ(y) = s_q (2 winsᵀS − c_q) with c_q = n⁻ Σ_g S_g + n⁺ Σ_b S_b, and for weights γ over
the sample ∂/∂S_i Σ_y γ_y u(y) = s_q (2 Σ_y γ_y wins_{y,i} − n_opp(i) Σ_y γ_y).  The pair
matrix is never formed (the sampler formed each ranking once, as its wins).

The sample is a forest: a sampled ranking is either a root (a restart state, y_q first), whose
u costs O(n_q), or one move of the swap sampler away from an earlier row ``parent[j]``: the
move takes a win from document ``down[j]`` and gives one to ``up[j]``, so
u_j = u_parent + 2 s_q (S_up − S_down), O(1).  The gradient sums Σ_j γ_j wins_j over the forest
in reverse row order (children before parents), passing each row's subtree weight Γ_j to its
parent: Σ_j γ_j wins_j = Σ_roots Γ_r wins_r + Σ_{j not a root} Γ_j (e_up_j − e_down_j).  An
evaluation costs O(|Ŷ_q| + n_q · roots) per query instead of O(|Ŷ_q| n_q).

``sampled_objective``: per query q, rows row_ptr[q]..row_ptr[q+1]-1 of the sample, their wins
stored row-major from ``win_ptr[q]`` (n_q wins per row, documents good-first: the first n_pos[q]
are good; only the roots' wins are read), ``parent``/``down``/``up`` per row (indices local to
the query, parent < row, -1 for a root); the first row of each query is y_q (Δ = 0).  With u_j = u(y_j), δφ_q(y) = φ(y_q) − φ(y)
and LSE the log-sum-exp over the query's rows:

    0 MLE (eq. 10)          L_q = LSE(u) − u_0 = log Σ_y exp(−wᵀδφ_q(y))
    1 L_3 (eq. 12)          L_q = LSE(u) − u_0 + Σ_y p_y Δ_y,   p = softmax(u)    (L₁ + L₂, eq. 11)
    2 ConvexLoss (eq. 14)   L_q = LSE(u + Δ) − u_0
    3 ExpGain (eq. 6-7)     L_q = −log Σ_y p_y G_y = LSE(u) − LSE_{G>0}(u + log G),  G = 1 − Δ

(the sum over all y replaced by the sum over Ŷ_q, Sec. 4).  dL_q/du_j: MLE p_j − [j=0]; L_3
p_j − [j=0] + p_j(Δ_j − Σ p Δ); ConvexLoss p̃_j − [j=0], p̃ = softmax(u + Δ); ExpGain p_j − q_j,
q = softmax(u + log G) over G > 0.  Returns Σ_q L_q; writes v = ∂(Σ_q L_q)/∂S (documents not
in any query are untouched: the caller zeroes v).

``expgain_auc``: ExpGain with the AUC gain over the whole hypercube {±1}^{n⁺n⁻} in closed form
(Sec. 2.3).  By Fig. 1's third identity (with the printed h_gb(−1) of the A_q formula read as
h_gb(+1), the identity's f_i(1)h_i(1) term), with h_gb(±1) = exp(±s_q d_gb), d_gb = S_g − S_b,

    Σ_y #1_y Π h_gb(y_gb) / Z_q = Σ_gb h_gb(1)/(h_gb(−1) + h_gb(1)) = Σ_gb σ(2 s_q d_gb),

so L_q = −log[(1/(n⁺n⁻)) Σ_gb σ(2 s_q d_gb)] (derived; O(n⁺n⁻) per query, four transcendental
functions per pair), evaluated as a
log-sum-exp of log σ values (no underflow when every pair is badly ordered), and
dL_q/dd_gb = −2 s_q ρ_gb (1 − σ_gb), ρ_gb = σ_gb / Σ σ.

Every e^x is the fixed exp of ``fixed_exp.h`` (the same bits on every machine); the softmax
weights of a query's rows are computed by vectorised calls over blocks of rows, and divided by
their sum by the vector loop of ``div_array.h`` (correctly rounded: the bits of x / z).

Both return NaN-free values for finite S.  Array lengths are checked in O(1) at entry (−1.0
returned, nothing written, when inconsistent — a loss is never negative); offsets are the
wrapper's job.
"""
from libc.math cimport expm1, log, log1p, INFINITY
from libc.stdint cimport int32_t, int64_t
from libc.string cimport memcpy

from fixed_exp cimport fixed_exp_array

cdef extern from "div_array.h" nogil:
    void div_array(double* x, double z, Py_ssize_t n)


#: rows per block of the softmax's exponentials (each block's sum overlaps the next block's
#: exponentials; 32 measured fastest of 16-128)
cdef enum:
    _BLOCK = 32


cdef inline double _exp_sum(double* x, Py_ssize_t m, const double* delta) noexcept nogil:
    """x_j ← e^{x_j} (SIMD lanes, a block of _BLOCK rows at a time) and Σ_j x_j in row order
    (over the rows with delta_j < 1 only, unless ``delta`` is NULL), each block summed while
    the next one is computed."""
    cdef Py_ssize_t j, k = 0
    cdef double z = 0.0
    while k < m:
        fixed_exp_array(x + k, x + k, min(_BLOCK, m - k))
        if delta == NULL:
            for j in range(k, min(k + _BLOCK, m)):
                z += x[j]
        else:
            for j in range(k, min(k + _BLOCK, m)):
                if delta[j] < 1.0:
                    z += x[j]
        k += _BLOCK
    return z


cdef double _sampled(int objective, const int32_t* wins, const int32_t* parent,
                     const int32_t* down, const int32_t* up, Py_ssize_t m, Py_ssize_t nq,
                     Py_ssize_t npos, const double* delta, const double* lgain, const double* S,
                     double scale, double* u, double* gam, double* e2, double* v) noexcept nogil:
    """One query; returns L_q and adds ∂L_q/∂S to v.  ``lgain``: log(1 − Δ) of every row
    (ExpGain only, rows with Δ < 1; computed once per sample by :func:`log_gains`), ``e2``: a
    workspace of m entries (ExpGain only)."""
    cdef Py_ssize_t j, i
    cdef const int32_t* row
    cdef double c = 0.0, acc, t, mx, mx2, z, z2, e, gsum, loss
    cdef double nneg = <double>(nq - npos)
    for i in range(npos):
        c += nneg * S[i]
    for i in range(npos, nq):
        c += <double>npos * S[i]
    # scores u_j: O(n_q) for a root, O(1) for a move from the parent row; their maximum
    mx = -INFINITY
    for j in range(m):
        if parent[j] < 0:
            row = wins + j * nq
            acc = 0.0
            for i in range(nq):
                acc += row[i] * S[i]
            u[j] = scale * (2.0 * acc - c)
        else:
            u[j] = u[parent[j]] + 2.0 * scale * (S[up[j]] - S[down[j]])
        t = u[j] + delta[j] if objective == 2 else u[j]
        if t > mx:
            mx = t
    # the objective in u and its gradient γ_j = dL_q/du_j
    if objective == 2:
        for j in range(m):
            gam[j] = (u[j] + delta[j]) - mx
    else:
        for j in range(m):
            gam[j] = u[j] - mx
    z = _exp_sum(gam, m, NULL)             # e^{t_j − max} and their sum
    div_array(gam, z, m)                   # softmax(u) (softmax(u + Δ) for ConvexLoss)
    loss = mx + log(z) - u[0]
    if objective == 0 or objective == 2:
        gam[0] -= 1.0
    elif objective == 1:
        e = 0.0
        for j in range(m):
            e += gam[j] * delta[j]
        loss += e
        for j in range(m):
            gam[j] += gam[j] * (delta[j] - e)
        gam[0] -= 1.0
    else:
        # e^{u_j + log G_j − max} over G > 0 by one vectorised call (fixed_exp_array gives
        # the bits of the scalar fixed_exp); −∞ (→ +0, not summed) where G = 0
        mx2 = -INFINITY
        for j in range(m):
            if delta[j] < 1.0:
                t = u[j] + lgain[j]
                e2[j] = t
                if t > mx2:
                    mx2 = t
            else:
                e2[j] = -INFINITY
        for j in range(m):
            e2[j] = e2[j] - mx2
        z2 = _exp_sum(e2, m, delta)
        loss = (mx + log(z)) - (mx2 + log(z2))
        for j in range(m):
            if delta[j] < 1.0:
                gam[j] -= e2[j] / z2
    # v_i += s (2 Σ_j γ_j wins_ji − n_opp(i) Σ_j γ_j): Σ_j γ_j wins_j is accumulated over the
    # forest, children before parents (Γ_j = γ over the subtree of j)
    # (Σ_j γ_j, in row order, is summed in the same loop from a copy of γ in u, which is not
    # read again: an independent chain of additions that overlaps the forest's)
    memcpy(u, gam, m * sizeof(double))
    gsum = 0.0
    for j in range(m - 1, -1, -1):
        gsum += u[m - 1 - j]
        t = 2.0 * scale * gam[j]
        if parent[j] >= 0:
            gam[parent[j]] += gam[j]
            v[up[j]] += t
            v[down[j]] -= t
        elif t != 0.0:
            row = wins + j * nq
            for i in range(nq):
                v[i] += t * row[i]
    for i in range(npos):
        v[i] -= scale * nneg * gsum
    for i in range(npos, nq):
        v[i] -= scale * npos * gsum
    return loss


def log_gains(const double[::1] delta, double[::1] out):
    """log(1 − Δ_j) of every row with Δ_j < 1 (−∞ elsewhere) into ``out``: the ExpGain
    terms of :func:`sampled_objective`, which do not depend on w (computed once per sample).
    −1 if the lengths differ."""
    cdef Py_ssize_t j, n = delta.shape[0]
    if out.shape[0] != n:
        return -1
    with nogil:
        for j in range(n):
            out[j] = log(1.0 - delta[j]) if delta[j] < 1.0 else -INFINITY
    return 0


def sampled_objective(int objective, const int32_t[::1] wins, const int32_t[::1] parent,
                      const int32_t[::1] down, const int32_t[::1] up,
                      const int64_t[::1] row_ptr, const int64_t[::1] win_ptr,
                      const int64_t[::1] query_ptr, const int64_t[::1] n_pos,
                      const double[::1] delta, const double[::1] lgain,
                      const double[::1] scale, const double[::1] S,
                      double[::1] u, double[::1] gam, double[::1] e2, double[::1] v):
    """Σ_q L_q of ``objective`` (0 MLE, 1 L_3, 2 ConvexLoss, 3 ExpGain) over the sample; adds
    ∂/∂S to ``v``.  ``lgain``: :func:`log_gains` of ``delta`` (read by ExpGain only); ``u``,
    ``gam``, ``e2``: workspaces of ≥ max_q (rows of q).  −1.0 if the array lengths are
    inconsistent."""
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1, q, m, lo, nq, rows
    cdef double total = 0.0
    if (Q < 0 or row_ptr.shape[0] != Q + 1 or win_ptr.shape[0] != Q + 1 or n_pos.shape[0] != Q
            or scale.shape[0] != Q or v.shape[0] != S.shape[0] or objective < 0
            or objective > 3 or delta.shape[0] != row_ptr[Q] or lgain.shape[0] != row_ptr[Q]
            or wins.shape[0] != win_ptr[Q] or query_ptr[Q] > S.shape[0]):
        return -1.0
    rows = row_ptr[Q]
    if parent.shape[0] != rows or down.shape[0] != rows or up.shape[0] != rows:
        return -1.0
    for q in range(Q):
        m = row_ptr[q + 1] - row_ptr[q]
        if m < 1 or u.shape[0] < m or gam.shape[0] < m or e2.shape[0] < m:
            return -1.0
        if win_ptr[q + 1] - win_ptr[q] != m * (query_ptr[q + 1] - query_ptr[q]):
            return -1.0
    with nogil:
        for q in range(Q):
            lo = query_ptr[q]
            nq = query_ptr[q + 1] - lo
            m = row_ptr[q + 1] - row_ptr[q]
            total += _sampled(objective, &wins[win_ptr[q]], &parent[row_ptr[q]],
                              &down[row_ptr[q]], &up[row_ptr[q]], m, nq, n_pos[q],
                              &delta[row_ptr[q]], &lgain[row_ptr[q]], &S[lo], scale[q],
                              &u[0], &gam[0], &e2[0], &v[lo])
    return total


def expgain_auc(const double[::1] S, const int64_t[::1] query_ptr, const int64_t[::1] n_pos,
                const double[::1] scale, double[::1] work, double[::1] v):
    """Σ_q −log E_q[AUC] in closed form over the hypercube (ExpGain_AUC, Sec. 2.3); adds
    ∂/∂S to ``v``.  ``work``: ≥ 2 max_q n⁺n⁻ entries (log σ and the normalised terms of each
    pair).  −1.0 if the array lengths are inconsistent."""
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1, q, g, b, lo, nq, npos, p, npairs
    cdef double total = 0.0, two_s, l, mx, z, coef, x
    cdef double* ls
    cdef double* es
    if (Q < 0 or n_pos.shape[0] != Q or scale.shape[0] != Q or v.shape[0] != S.shape[0]
            or query_ptr[Q] > S.shape[0]):
        return -1.0
    for q in range(Q):
        npairs = n_pos[q] * (query_ptr[q + 1] - query_ptr[q] - n_pos[q])
        if work.shape[0] < 2 * npairs:
            return -1.0
    with nogil:
        for q in range(Q):
            lo = query_ptr[q]
            nq = query_ptr[q + 1] - lo
            npos = n_pos[q]
            npairs = npos * (nq - npos)
            ls = &work[0]
            es = &work[npairs]
            two_s = 2.0 * scale[q]
            # log σ_gb = −log1p(e^{−x}) (x ≥ 0) or x − log1p(e^x), x = 2 s d_gb: the
            # e^{−|x|} of every pair by one vectorised call (fixed_exp_array: the bits of the scalar fixed_exp)
            p = 0
            for g in range(lo, lo + npos):
                for b in range(lo + npos, lo + nq):
                    x = two_s * (S[g] - S[b])
                    es[p] = -x if x >= 0 else x
                    p += 1
            fixed_exp_array(es, es, npairs)
            mx = -INFINITY
            p = 0
            for g in range(lo, lo + npos):
                for b in range(lo + npos, lo + nq):
                    x = two_s * (S[g] - S[b])
                    l = -log1p(es[p]) if x >= 0 else x - log1p(es[p])   # log σ_gb
                    ls[p] = l
                    if l > mx:
                        mx = l
                    p += 1
            for p in range(npairs):
                es[p] = ls[p] - mx
            fixed_exp_array(es, es, npairs)
            z = 0.0
            for p in range(npairs):
                z += es[p]
            total += -(mx + log(z) - log(<double>npairs))
            p = 0
            for g in range(lo, lo + npos):
                for b in range(lo + npos, lo + nq):
                    # dL/dd_gb = −2s ρ_gb (1 − σ_gb), ρ_gb = σ_gb/Σσ, 1 − σ = −expm1(log σ)
                    coef = two_s * es[p] / z * expm1(ls[p])
                    v[g] += coef
                    v[b] -= coef
                    p += 1
    return total
