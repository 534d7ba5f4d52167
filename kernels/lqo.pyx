# cython: language_level=3
"""Greedy RankRLS: forward selection by the exact leave-query-out (LQO) squared error.

Kernel of ``repro.rankers.lqo`` (which centres, checks and allocates).  Pahikkala et al.
(2010), Algorithm 1, lines 1-30, with the corrections of the paper notes: the cache is
``C = G X̂ᵀ`` (m×n), initialised to ``λ⁻¹X̂ᵀ`` (line 2); line 28 reads ``C ← C − C_{:,b} t``;
lines 14 and 24 use ``C_{Q,i}ᵀ U_{Q,i}`` (the printed ``C_{:,i}ᵀ`` mismatches dimensions).

Layout: every m-long column of ``X̂``, ``C`` and ``U`` is contiguous (feature-major n×m
arrays), so each candidate is handled by sequential sweeps over its columns.  Queries are
contiguous (offsets ``query_ptr``).  The whole path (k steps) runs in one nogil call.

Scoring candidate i (lines 10-16).  With c = (1 + X̂_i C_{:,i})⁻¹, d = c C_{:,i}ᵀŷ and, per
query Q, γ_Q = (C_{Q,i}ᵀU_{Q,i} − c⁻¹)⁻¹, line 15 is p̃_Q = p_Q − s_Q U_{Q,i} with the scalar
s_Q = d + γ_Q (U_{Q,i}ᵀa_Q − d C_{Q,i}ᵀU_{Q,i}); hence

    ‖p̃_Q‖² = ‖p_Q‖² − 2 s_Q p_QᵀU_{Q,i} + s_Q² U_{Q,i}ᵀU_{Q,i},

so one sweep accumulates four per-query dot products and e_i then costs O(|𝒬|).  The two
global sums X̂_i C_{:,i} and C_{:,i}ᵀŷ are kept per feature and updated in O(1) per step
(see ``_update_score``).  O(m) per candidate, O(mn) per step, O(kmn) in all; memory: the
n×m arrays X̂, C, U.

The sweeps use SSE2 registers for their two (``_dot``: four) interleaved partial sums,
lane for lane the arithmetic of the scalar loops (see ``_hsum``): the same results, bit for bit.

Updates (lines 20-28) are fused with the next step's scoring: after b is chosen, ``a`` and
``p`` are updated (lines 25, 27); then for each unselected column j one sweep of the old
column gives t_j = c X̂_b C_{:,j} (line 22) and z_Q = U_{Q,b}ᵀC_{Q,j}, and a second sweep,
query by query, applies U_{Q,j} ← U_{Q,j} − (t_j + γ_Q (z_Q − C_{Q,b}ᵀU_{Q,b} t_j)) U_{Q,b}
(line 26) and C_{Q,j} ← C_{Q,j} − t_j C_{Q,b} (line 28) and scores the new values while they
are in cache.  Columns of selected features are no longer updated (they are never scored
again; ``w`` needs only ``a``).  Line 30, w = X̂_S a, is evaluated after every step, giving
the weights of every prefix model.

Ties in the LQO error keep the lowest feature index (strict ``<`` of line 17, candidates in
increasing index order).  Sums run in a fixed order, so results are deterministic.
"""
from libc.math cimport INFINITY
from libc.stdint cimport int64_t

from simd2 cimport (pd2, pd2_add, pd2_add_sd, pd2_load_sd, pd2_loadu, pd2_mul, pd2_mul_sd,
                   pd2_set1, pd2_storeu, pd2_sub, pd2_zero)


# SSE2 (simd2.pxd): the two interleaved lanes of the sums below are the two halves of one
# register, each doing exactly the scalar lane's multiplications and additions (no fused
# multiply-add), so the packed code gives the scalar code's results bit for bit.


cdef inline double _hsum(pd2 x) noexcept nogil:
    """lane 0 + lane 1."""
    cdef double t[2]
    pd2_storeu(t, x)
    return t[0] + t[1]


cdef inline double _dot(const double* x, const double* y, Py_ssize_t n) noexcept nogil:
    """Sequential dot product (four interleaved partial sums s0..s3, elements i ≡ 0..3 mod 4,
    as two registers [s0, s1] and [s2, s3]; an odd tail goes to s0; (s0 + s1) + (s2 + s3))."""
    cdef pd2 lo = pd2_zero(), hi = pd2_zero()
    cdef Py_ssize_t i = 0
    cdef double a[2]
    cdef double b[2]
    while i + 4 <= n:
        lo = pd2_add(lo, pd2_mul(pd2_loadu(&x[i]), pd2_loadu(&y[i])))
        hi = pd2_add(hi, pd2_mul(pd2_loadu(&x[i + 2]), pd2_loadu(&y[i + 2])))
        i = i + 4
    while i < n:
        lo = pd2_add_sd(lo, pd2_mul_sd(pd2_load_sd(&x[i]), pd2_load_sd(&y[i])))
        i = i + 1
    pd2_storeu(a, lo)
    pd2_storeu(b, hi)
    return (a[0] + a[1]) + (b[0] + b[1])


cdef inline double _combine(Py_ssize_t Q, double xc, double cy, const double* pp,
                            const double* cu, const double* ua, const double* pu,
                            const double* uu, double* gam, double* s) noexcept nogil:
    """e_i of line 16 from X̂_i C_{:,i} (``xc``), C_{:,i}ᵀŷ (``cy``) and the per-query dot
    products; fills γ_Q and s_Q (lines 14-15)."""
    cdef double cinv = 1.0 + xc            # c⁻¹
    cdef double d = cy / cinv              # c C_{:,i}ᵀŷ
    cdef double e = 0.0, g, sq
    cdef Py_ssize_t q
    for q in range(Q):
        g = 1.0 / (cu[q] - cinv)
        sq = d + g * (ua[q] - d * cu[q])
        gam[q] = g
        s[q] = sq
        e = e + (pp[q] - 2.0 * sq * pu[q] + sq * sq * uu[q])
    return e


cdef inline void _query_dots(const double* cc, const double* u, const double* a,
                             const double* p, Py_ssize_t lo, Py_ssize_t hi,
                             double* cu, double* ua, double* pu, double* uu) noexcept nogil:
    """C_Qᵀ U_Q, U_Qᵀ a_Q, U_Qᵀ p_Q, U_Qᵀ U_Q of one column (two interleaved lanes: elements
    lo, lo+2, … and lo+1, lo+3, …; an odd last element goes to the first lane)."""
    cdef pd2 c = pd2_zero(), av = pd2_zero(), pv = pd2_zero()
    cdef pd2 w = pd2_zero(), x
    cdef Py_ssize_t i = lo
    while i + 2 <= hi:
        x = pd2_loadu(&u[i])
        c = pd2_add(c, pd2_mul(pd2_loadu(&cc[i]), x))
        av = pd2_add(av, pd2_mul(x, pd2_loadu(&a[i])))
        pv = pd2_add(pv, pd2_mul(x, pd2_loadu(&p[i])))
        w = pd2_add(w, pd2_mul(x, x))
        i = i + 2
    if i < hi:
        x = pd2_load_sd(&u[i])
        c = pd2_add_sd(c, pd2_mul_sd(pd2_load_sd(&cc[i]), x))
        av = pd2_add_sd(av, pd2_mul_sd(x, pd2_load_sd(&a[i])))
        pv = pd2_add_sd(pv, pd2_mul_sd(x, pd2_load_sd(&p[i])))
        w = pd2_add_sd(w, pd2_mul_sd(x, x))
    cu[0] = _hsum(c)
    ua[0] = _hsum(av)
    pu[0] = _hsum(pv)
    uu[0] = _hsum(w)


cdef inline double _score(const double* cc, const double* u, double xc, double cy,
                          const double* a, const double* p, const int64_t* qp,
                          Py_ssize_t Q, const double* pp, double* cu, double* ua,
                          double* pu, double* uu, double* gam, double* s) noexcept nogil:
    """Lines 10-16 for one candidate column, without updating it."""
    cdef Py_ssize_t q
    for q in range(Q):
        _query_dots(cc, u, a, p, qp[q], qp[q + 1], &cu[q], &ua[q], &pu[q], &uu[q])
    return _combine(Q, xc, cy, pp, cu, ua, pu, uu, gam, s)


cdef inline double _update_score(double* cc, double* u, const double* xb, double c_b,
                                 const double* cb, const double* ub, const double* gb,
                                 const double* cub, double* xc, double* cy, double cinv_b,
                                 double cy_b, const double* a, const double* p,
                                 const int64_t* qp, Py_ssize_t Q, const double* pp,
                                 double* z, double* cu, double* ua, double* pu, double* uu,
                                 double* gam, double* s) noexcept nogil:
    """Lines 22, 26 and 28 for column j, then lines 10-16 on the updated column.

    Sweep 1 reads the old column: t_j = c_b X̂_b C_{:,j} (line 22) and, per query,
    z_Q = U_{Q,b}ᵀC_{Q,j}.  Sweep 2, query by query: C_{Q,j} −= t_j C_{Q,b} (line 28),
    U_{Q,j} −= (t_j + γ_Q (z_Q − C_{Q,b}ᵀU_{Q,b} t_j)) U_{Q,b} (line 26), and the four
    dot products of the updated values.  ``cb``, ``ub``, ``gb`` (γ_Q) and ``cub``
    (C_{Q,b}ᵀU_{Q,b}) are those of b before its selection.  Since X̂_j C_{:,b} = t_j / c_b
    (G is symmetric), line 28 changes X̂_j C_{:,j} by −t_j² c_b⁻¹ and C_{:,j}ᵀŷ by
    −t_j C_{:,b}ᵀŷ: ``xc``, ``cy`` are updated in O(1)."""
    cdef pd2 tv = pd2_zero(), zv, tt, cf, cn, un, k, av, pv, wv
    cdef double t, coef
    cdef Py_ssize_t q, i, lo, hi
    for q in range(Q):
        lo = qp[q]
        hi = qp[q + 1]
        zv = pd2_zero()
        i = lo
        while i + 2 <= hi:
            tv = pd2_add(tv, pd2_mul(pd2_loadu(&xb[i]), pd2_loadu(&cc[i])))
            zv = pd2_add(zv, pd2_mul(pd2_loadu(&ub[i]), pd2_loadu(&cc[i])))
            i = i + 2
        if i < hi:
            tv = pd2_add_sd(tv, pd2_mul_sd(pd2_load_sd(&xb[i]), pd2_load_sd(&cc[i])))
            zv = pd2_add_sd(zv, pd2_mul_sd(pd2_load_sd(&ub[i]), pd2_load_sd(&cc[i])))
        z[q] = _hsum(zv)
    t = c_b * _hsum(tv)
    xc[0] = xc[0] - t * t * cinv_b
    cy[0] = cy[0] - t * cy_b
    tt = pd2_set1(t)
    for q in range(Q):
        lo = qp[q]
        hi = qp[q + 1]
        coef = t + gb[q] * (z[q] - cub[q] * t)
        cf = pd2_set1(coef)
        k = pd2_zero()
        av = pd2_zero()
        pv = pd2_zero()
        wv = pd2_zero()
        i = lo
        while i + 2 <= hi:
            cn = pd2_sub(pd2_loadu(&cc[i]), pd2_mul(tt, pd2_loadu(&cb[i])))
            un = pd2_sub(pd2_loadu(&u[i]), pd2_mul(cf, pd2_loadu(&ub[i])))
            pd2_storeu(&cc[i], cn)
            pd2_storeu(&u[i], un)
            k = pd2_add(k, pd2_mul(cn, un))
            av = pd2_add(av, pd2_mul(un, pd2_loadu(&a[i])))
            pv = pd2_add(pv, pd2_mul(un, pd2_loadu(&p[i])))
            wv = pd2_add(wv, pd2_mul(un, un))
            i = i + 2
        if i < hi:
            cc[i] = cc[i] - t * cb[i]
            u[i] = u[i] - coef * ub[i]
            cn = pd2_load_sd(&cc[i])
            un = pd2_load_sd(&u[i])
            k = pd2_add_sd(k, pd2_mul_sd(cn, un))
            av = pd2_add_sd(av, pd2_mul_sd(un, pd2_load_sd(&a[i])))
            pv = pd2_add_sd(pv, pd2_mul_sd(un, pd2_load_sd(&p[i])))
            wv = pd2_add_sd(wv, pd2_mul_sd(un, un))
        cu[q] = _hsum(k)
        ua[q] = _hsum(av)
        pu[q] = _hsum(pv)
        uu[q] = _hsum(wv)
    return _combine(Q, xc[0], cy[0], pp, cu, ua, pu, uu, gam, s)


def greedy_select(const double[:, ::1] X, const double[::1] y, const int64_t[::1] query_ptr,
                  double lam, double[:, ::1] C, double[:, ::1] U, double[::1] a,
                  double[::1] p, double[::1] work, int64_t[::1] selected,
                  double[::1] errors, double[:, ::1] cand_errors, double[:, ::1] W,
                  int64_t[::1] ops=None):
    """Algorithm 1 for ``k = selected.shape[0]`` steps.

    Inputs: ``X`` (n×m, query-centred X̂, one feature per row), ``y`` (ŷ, centred),
    ``query_ptr`` (Q+1 offsets), ``lam`` (λ > 0).  Work arrays (overwritten): ``C``, ``U``
    (n×m), ``a``, ``p`` (m), ``work`` (≥ 11·Q + 2·n).  Outputs: ``selected[s]`` (feature chosen at
    step s), ``errors[s]`` (its LQO squared error, eq. 7), ``cand_errors[s, i]`` (e_i of every
    candidate at step s; +inf for features already selected), ``W[s, :s+1]`` (weights
    w = X̂_S a of the prefix model after step s, in selection order; the rest of the row 0).

    ``ops`` (optional, at least 2 entries): the operations done are added to ``ops[0]``
    (multiply-adds over the m documents: every product of the sweeps, the initialisation,
    the updates of ``C``, ``U``, ``p``, ``a`` and the prefix weights) and ``ops[1]`` (entries
    of the caches ``C`` and ``U`` written).  They are counted per column sweep, O(1) each, so
    counting costs nothing measurable; the per-query O(|𝒬|) terms are not counted.

    Returns the number of steps done (fewer than k only if no candidate had a finite
    error: non-finite input), or -1 (nothing written) if the array shapes are inconsistent
    (O(1) checks; the offsets must rise strictly, which the caller checks).
    """
    cdef Py_ssize_t n = X.shape[0], m = X.shape[1], Q = query_ptr.shape[0] - 1
    cdef Py_ssize_t k = selected.shape[0]
    if (y.shape[0] != m or C.shape[0] != n or C.shape[1] != m or U.shape[0] != n
            or U.shape[1] != m or a.shape[0] != m or p.shape[0] != m
            or work.shape[0] < 11 * Q + 2 * n or errors.shape[0] != k
            or cand_errors.shape[0] != k or cand_errors.shape[1] != n
            or W.shape[0] != k or W.shape[1] != k or Q < 1 or query_ptr[0] != 0
            or query_ptr[Q] != m or k > n or (ops is not None and ops.shape[0] < 2)):
        return -1
    cdef int64_t madds = 0, writes = 0
    cdef Py_ssize_t i, j, q, step, r, b = -1, bj = -1, done = 0
    cdef int taken
    cdef double inv_lam = 1.0 / lam, e, best, t, acc
    cdef double cinv_b = 1.0, cy_b = 0.0
    cdef const int64_t* qp = &query_ptr[0]
    cdef double* pp = &work[0]
    cdef double* cu = &work[Q]
    cdef double* ua = &work[2 * Q]
    cdef double* pu = &work[3 * Q]
    cdef double* uu = &work[4 * Q]
    cdef double* gam = &work[5 * Q]
    cdef double* s = &work[6 * Q]
    cdef double* gb = &work[7 * Q]
    cdef double* sb = &work[8 * Q]
    cdef double* cub = &work[9 * Q]
    cdef double* zq = &work[10 * Q]
    cdef double* xc = &work[11 * Q]            # X̂_j C_{:,j} per feature
    cdef double* cy = &work[11 * Q + n]        # C_{:,j}ᵀ ŷ per feature
    cdef const double* yp = &y[0]
    cdef double* ap = &a[0]
    cdef double* p_ = &p[0]
    cdef int64_t* sel = &selected[0]
    with nogil:
        # lines 1-4: a = λ⁻¹ŷ, C = λ⁻¹X̂ᵀ, U = X̂ᵀ, p = ŷ
        for i in range(m):
            ap[i] = inv_lam * yp[i]
            p_[i] = yp[i]
        for j in range(n):
            for i in range(m):
                C[j, i] = inv_lam * X[j, i]
                U[j, i] = X[j, i]
            xc[j] = _dot(&X[j, 0], &C[j, 0], m)
            cy[j] = _dot(&C[j, 0], yp, m)
        madds += m + 3 * n * m                   # a, C = λ⁻¹X̂ᵀ and the two dots per feature
        writes += 2 * n * m
        for step in range(k):
            for q in range(Q):                   # ‖p_Q‖², shared by every candidate
                acc = 0.0
                for i in range(qp[q], qp[q + 1]):
                    acc = acc + p_[i] * p_[i]
                pp[q] = acc
            madds += m
            best = INFINITY
            for j in range(n):                   # lines 9-19, fused with 22, 26, 28
                taken = 0
                for r in range(step):
                    if sel[r] == j:
                        taken = 1
                if taken:
                    cand_errors[step, j] = INFINITY
                    continue
                if step == 0:
                    e = _score(&C[j, 0], &U[j, 0], xc[j], cy[j], ap, p_, qp, Q, pp,
                               cu, ua, pu, uu, gam, s)
                    madds += 4 * m               # four dot products of the column
                else:
                    madds += 8 * m               # two of sweep 1; two updates, four dots
                    writes += 2 * m              # its columns of C and U
                    e = _update_score(&C[j, 0], &U[j, 0], &X[b, 0], 1.0 / cinv_b, &C[b, 0],
                                      &U[b, 0], gb, cub, &xc[j], &cy[j], cinv_b, cy_b, ap,
                                      p_, qp, Q, pp, zq, cu, ua, pu, uu, gam, s)
                cand_errors[step, j] = e
                if e < best:                     # line 17: ties keep the lower index
                    best = e
                    bj = j
            if not best < INFINITY:
                break
            b = bj
            done = step + 1
            sel[step] = b
            errors[step] = best
            # lines 20-21, and γ_Q, s_Q of b (the same arithmetic as when it was scored)
            cinv_b = 1.0 + xc[b]
            cy_b = cy[b]
            _score(&C[b, 0], &U[b, 0], xc[b], cy[b], ap, p_, qp, Q, pp,
                   cub, ua, pu, uu, gb, sb)
            # lines 25 and 27 (lines 26 and 28 run in the next sweep, column by column)
            for q in range(Q):
                for i in range(qp[q], qp[q + 1]):
                    p_[i] = p_[i] - sb[q] * U[b, i]
            for i in range(m):
                ap[i] = ap[i] - (cy_b / cinv_b) * C[b, i]
            # line 30 for the prefix model of this step
            for r in range(step + 1):
                W[step, r] = _dot(&X[sel[r], 0], ap, m)
            for r in range(step + 1, k):
                W[step, r] = 0.0
            madds += 4 * m + 2 * m + (step + 1) * m     # b rescored, p and a, the weights
    if ops is not None:
        ops[0] += madds
        ops[1] += writes
    return done


def centre_transpose(const double[:, ::1] X, const int64_t[::1] query_ptr, double[::1] means,
                     double[:, ::1] out):
    """X̂ = XL stored feature-major: ``out[j, i] = X[i, j] −`` (mean of feature j over the
    documents of i's query), for documents × features ``X`` grouped by query (§2, eq. 5).
    ``means`` is scratch of length ≥ n (features), ``out`` is n×m.  Offsets must rise
    strictly (checked by the caller).  Returns 0, or -1 (nothing written) if the shapes are
    inconsistent (O(1) checks: ``out`` n×m, ``means`` ≥ n, offsets from 0 to m)."""
    cdef Py_ssize_t m = X.shape[0], n = X.shape[1], Q = query_ptr.shape[0] - 1
    cdef Py_ssize_t q, i, j, lo, hi
    cdef double inv
    if (out.shape[0] != n or out.shape[1] != m or means.shape[0] < n or Q < 1
            or query_ptr[0] != 0 or query_ptr[Q] != m):
        return -1
    with nogil:
        for q in range(Q):
            lo = query_ptr[q]
            hi = query_ptr[q + 1]
            for j in range(n):
                means[j] = 0.0
            for i in range(lo, hi):
                for j in range(n):
                    means[j] = means[j] + X[i, j]
            inv = 1.0 / (hi - lo)
            for j in range(n):
                means[j] = means[j] * inv
            for j in range(n):
                for i in range(lo, hi):
                    out[j, i] = X[i, j] - means[j]
    return 0
