# cython: language_level=3
"""The working-set dual QP of the n-slack structural SVM, by block coordinate ascent with SMO
steps inside each block.

Kernel of ``repro.rankers.structsvm`` (which builds the working sets, their Gram blocks and
checks the shapes).  Le & Smola (2007), dual (7)/(28) restricted to the working sets S_i of
Algorithm 2 (linear kernel, so w is kept explicitly):

    max_α  Σ_{i,p} α_ip Δ_ip − ½ ‖Σ_{i,p} α_ip ψ_ip‖²   s.t.  α_ip ≥ 0,  Σ_p α_ip ≤ C,

with ψ_ip = Φ(x_i, z_i) − Φ(x_i, π_p) and w = Σ α_ip ψ_ip.  Block i holds the k_i constraints
of query i plus the slack of its sum constraint, an extra variable α_i0 = C − Σ_p α_ip with
ψ = 0 and Δ = 0 (so the block is a simplex of mass C).  With the gradient
grad_ip = Δ_ip − w·ψ_ip (grad_i0 = 0), a block is optimal when
max_p grad_ip ≤ min_{p: α_ip > 0} grad_ip; an SMO step moves mass t from the worst
(smallest gradient among positive α) to the best variable, t = (grad_up − grad_dn)/‖ψ_up −
ψ_dn‖² clipped to the mass available — the exact maximiser along that direction.  Gradients
of the block are updated with its Gram matrix G_i (k_i × k_i), w with the two ψ.

Duality gap (primal (5) at w minus dual, restricted to the working sets):
    gap = Σ_i [C ξ_i − Σ_p α_ip grad_ip],   ξ_i = max(0, max_p grad_ip),
a sum of non-negative block terms, each at most C·(max grad − min_{α>0} grad); the solver
sweeps the blocks until the gap is at most ``tol_gap``.  w is recomputed from α at the start
of every full solve, which bounds the drift of the incremental updates.

Also :func:`max_step`, the step bound of the wrapper's interior-point method for the same
dual (the one loop of it that is not BLAS).
"""
from libc.math cimport INFINITY
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc


cdef inline double _dot(const double* x, const double* y, Py_ssize_t n) noexcept nogil:
    cdef double s0 = 0.0, s1 = 0.0
    cdef Py_ssize_t i = 0
    while i + 2 <= n:
        s0 = s0 + x[i] * y[i]
        s1 = s1 + x[i + 1] * y[i + 1]
        i = i + 2
    if i < n:
        s0 = s0 + x[i] * y[i]
    return s0 + s1


cdef double _block_gap(const double* Psi, const double* delta, const double* alpha,
                       Py_ssize_t k, Py_ssize_t d, double C, const double* w) noexcept nogil:
    """C ξ_i − Σ_p α_ip grad_ip at the current w."""
    cdef double xi = 0.0, s = 0.0, gp
    cdef Py_ssize_t p
    for p in range(k):
        gp = delta[p] - _dot(Psi + p * d, w, d)
        if gp > xi:
            xi = gp
        s = s + alpha[p] * gp
    return C * xi - s


cdef Py_ssize_t _block(const double* Psi, const double* G, const double* delta,
                       double* alpha, Py_ssize_t k, Py_ssize_t cap, Py_ssize_t d, double C,
                       double* w, double* grad, double tol, Py_ssize_t max_steps) noexcept nogil:
    """SMO steps on one block until max grad − min_{α>0} grad ≤ ``tol``.  Returns the
    number of steps."""
    cdef Py_ssize_t p, r, f, up, dn, steps = 0
    cdef double slack = C, gup, gdn, eta, t, avail, gpp, gqq, gpq
    cdef const double* pu
    cdef const double* pd
    for p in range(k):
        grad[p] = delta[p] - _dot(Psi + p * d, w, d)
        slack = slack - alpha[p]
    if slack < 0.0:
        slack = 0.0
    while steps < max_steps:
        up = -1
        gup = 0.0                                   # the slack's gradient
        for p in range(k):
            if grad[p] > gup:
                gup = grad[p]
                up = p
        dn = -2
        gdn = INFINITY
        if slack > 0.0:
            dn = -1
            gdn = 0.0
        for p in range(k):
            if alpha[p] > 0.0 and grad[p] < gdn:
                gdn = grad[p]
                dn = p
        if dn == -2 or up == dn or gup - gdn <= tol:
            break
        gpp = G[up * cap + up] if up >= 0 else 0.0
        gqq = G[dn * cap + dn] if dn >= 0 else 0.0
        gpq = G[up * cap + dn] if (up >= 0 and dn >= 0) else 0.0
        eta = gpp + gqq - 2.0 * gpq
        avail = alpha[dn] if dn >= 0 else slack
        if eta > 0.0:
            t = (gup - gdn) / eta
            if t > avail:
                t = avail
        else:
            t = avail
        if not t > 0.0:
            break
        if dn >= 0:
            if t == avail:
                alpha[dn] = 0.0
            else:
                alpha[dn] = alpha[dn] - t
        else:
            slack = slack - t if t < avail else 0.0
        if up >= 0:
            alpha[up] = alpha[up] + t
        else:
            slack = slack + t
        for r in range(k):
            eta = 0.0
            if up >= 0:
                eta = G[r * cap + up]
            if dn >= 0:
                eta = eta - G[r * cap + dn]
            grad[r] = grad[r] - t * eta
        if up >= 0 and dn >= 0:             # both in one pass over w (the same two roundings)
            pu = Psi + up * d
            pd = Psi + dn * d
            for f in range(d):
                w[f] = (w[f] + t * pu[f]) - t * pd[f]
        elif up >= 0:
            pu = Psi + up * d
            for f in range(d):
                w[f] = w[f] + t * pu[f]
        elif dn >= 0:
            pd = Psi + dn * d
            for f in range(d):
                w[f] = w[f] - t * pd[f]
        steps += 1
    return steps


def solve_qp(const double[:, :, ::1] Psi, const double[:, :, ::1] G, const double[:, ::1] delta,
             double[:, ::1] alpha, const int64_t[::1] counts, double C, double[::1] w,
             double tol_gap, double tol_block, int64_t max_sweeps, int64_t only_block,
             double[::1] out):
    """Block coordinate ascent on the working-set dual.

    ``Psi`` (m × cap × d): the ψ of block i in rows 0..counts[i]-1; ``G`` (m × cap × cap) their
    Gram matrices; ``delta``, ``alpha`` (m × cap); ``w`` (d): updated in place.
    ``only_block ≥ 0``: SMO on that block alone (to ``tol_block``), from the given w;
    otherwise w is recomputed from α and the blocks are swept until the gap ≤ ``tol_gap`` or
    ``max_sweeps`` sweeps.  ``out`` (3): the final gap (of the block, or of the whole QP),
    the sweeps done and the SMO steps taken.  Returns 0, -1 (inconsistent shapes) or -2 (out
    of memory)."""
    cdef Py_ssize_t m = Psi.shape[0], cap = Psi.shape[1], d = Psi.shape[2]
    cdef Py_ssize_t i, p, f, sweeps = 0, steps = 0, k
    cdef double gap = 0.0
    cdef double* grad
    if (G.shape[0] != m or G.shape[1] != cap or G.shape[2] != cap or delta.shape[0] != m
            or delta.shape[1] != cap or alpha.shape[0] != m or alpha.shape[1] != cap
            or counts.shape[0] != m or w.shape[0] != d or out.shape[0] < 3
            or only_block >= m or cap < 1 or d < 1):
        return -1
    for i in range(m):
        if counts[i] < 0 or counts[i] > cap:
            return -1
    with nogil:
        grad = <double*> malloc(cap * sizeof(double))
        if grad == NULL:
            gap = -1.0
        elif only_block >= 0:
            i = only_block
            k = counts[i]
            steps = _block(&Psi[i, 0, 0], &G[i, 0, 0], &delta[i, 0], &alpha[i, 0], k, cap, d,
                           C, &w[0], grad, tol_block, 200 * (k + 1))
            gap = _block_gap(&Psi[i, 0, 0], &delta[i, 0], &alpha[i, 0], k, d, C, &w[0])
        else:
            for f in range(d):
                w[f] = 0.0
            for i in range(m):
                for p in range(counts[i]):
                    if alpha[i, p] != 0.0:
                        for f in range(d):
                            w[f] = w[f] + alpha[i, p] * Psi[i, p, f]
            while True:
                gap = 0.0
                for i in range(m):
                    if counts[i] > 0:
                        gap = gap + _block_gap(&Psi[i, 0, 0], &delta[i, 0], &alpha[i, 0],
                                               counts[i], d, C, &w[0])
                if gap <= tol_gap or sweeps >= max_sweeps:
                    break
                sweeps += 1
                for i in range(m):
                    k = counts[i]
                    if k > 0:
                        steps += _block(&Psi[i, 0, 0], &G[i, 0, 0], &delta[i, 0],
                                        &alpha[i, 0], k, cap, d, C, &w[0], grad, tol_block,
                                        200 * (k + 1))
        free(grad)
    if gap == -1.0 and grad == NULL:
        return -2
    out[0] = gap
    out[1] = sweeps
    out[2] = steps
    return 0


cdef inline double _bound(const double[::1] x, const double[::1] dx, double t) noexcept nogil:
    """min(t, r) as Python's ``min(t, r)``, r = min over dx_j < 0 of (−x_j)/dx_j (as
    ``np.min``: NaN if a ratio is NaN, and then t stays); t if no dx_j < 0."""
    cdef double lo = INFINITY, r
    cdef bint seen = False
    cdef Py_ssize_t j
    for j in range(x.shape[0]):
        if dx[j] < 0.0:
            seen = True
            r = -x[j] / dx[j]
            if r != r:
                return t
            if r < lo:
                lo = r
    return lo if seen and lo < t else t


def max_step(const double[::1] x0, const double[::1] dx0, const double[::1] x1,
             const double[::1] dx1, const double[::1] x2, const double[::1] dx2,
             const double[::1] x3, const double[::1] dx3):
    """The interior-point step bound of ``repro.rankers.structsvm.interior_point_qp``: t = 1,
    then for each pair (x, dx) having some dx_j < 0, t = min(t, min_j (−x_j)/dx_j) — the
    NumPy expression ``min(t, float(np.min(-x[neg] / dx[neg])))``, so a pair whose ratios
    include a NaN leaves t unchanged.  Pairs of unequal lengths: −1.0 (a step bound is never
    negative)."""
    cdef double t = 1.0
    if (x0.shape[0] != dx0.shape[0] or x1.shape[0] != dx1.shape[0]
            or x2.shape[0] != dx2.shape[0] or x3.shape[0] != dx3.shape[0]):
        return -1.0
    with nogil:
        t = _bound(x3, dx3, _bound(x2, dx2, _bound(x1, dx1, _bound(x0, dx0, t))))
    return t
