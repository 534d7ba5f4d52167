# cython: language_level=3
"""Coordinate descent for the domination loss with cached margins (Stevens 2010, §2–§6,
Algorithms 1–6, with the corrections of ``../shared/papers/README.md``).

Kernel of ``repro.rankers.domination`` (which checks the input, builds the blocks, computes
the curvature bounds β_r and runs the sweeps, the stopping rule and feature induction).

The problem.  Instances are split into *groups* (one LETOR query, a whole pooled training
set, or the images of one keyword) and, within a group, into *layers* G(0) < G(1) < …
(relevance levels, §3).  Each (group, layer) pair is a *block* ``b``; the blocks of group g
are ``gptr[g] … gptr[g+1]−1`` in layer order, the instances of block b are
``rows[bptr[b]:bptr[b+1]]`` and ``R[i].block`` is the block of instance i (−1: the instance
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

Cached state (Alg. 6), all caller-allocated: per instance a packed record ``R[i]`` = (margin
``M_i``, ``E_i = e^{M_i − c_b}``, block ``b``) — one cache line per touched non-zero, which
keeps a sweep's cost linear as the instances outgrow the caches — and per block a shift
``c_b``, ``T_b = Σ_{i∈b} E_i`` and an error bound ``Terr_b``.  After a step on coordinate r only the instances with x_ir ≠ 0 are touched:
M_i += δ x_ir, E_i, T_b updated by difference.  Numerics (the max-shift of §6, per block):
Z_k is never formed; L_k = log-sum-exp_b (c_b + log T_b) over the lower blocks, and every
quantity is a ratio (σ_i, ν) bounded by construction, so margins of ±10⁴ (s = 200·r_i, large
weights) give neither overflow nor 0/0.  A block is *recentred* (c_b = max M, E and T
recomputed, O(|b|)) when a margin exceeds c_b by 300, when T_b < 1e−200, or when the
accumulated rounding bound of its updates exceeds 1e−10·T_b (cancellation): the cached sums
stay within 1e−10 (relative) of a fresh computation.

Speed.  Every e^x is the fixed exp of ``fixed_exp.h`` (the same bits on every machine); a
step's new E_i are computed by one vectorised call per 256 touched instances (their arguments
gathered first); the wrapper hands the instances over in block order (group, layer, index), so
a column's non-zeros come block by block and a block's running sums stay in registers; σ_i is
computed once per step (stored by the refresh for a sparse X; for a dense X S_b, μ_b and
Σ x_ir σ_i are one pass).  The sums that ran as one chain of dependent additions per instance
— S_b, μ_b, Σ x_ir σ_i and a step's change of T_b with its rounding bound — run in four
lanes in a FIXED order: lane k adds the terms of the instances at the positions ≡ k (mod 4)
of their block (for T_b: the block's touched instances of the step, in turn; Σ x_ir σ_i's
lanes run on across the blocks), the lanes combined as (lane0 + lane1) + (lane2 + lane3).
The order depends on the data alone — not on the CPU, the vector width, the compiler or
threads (there are none), nor on whether X is dense or sparse (a zero x_ir adds +0) — and
each lane's operations are single IEEE operations (no FMA: ``-ffp-contract=off``), so the
baseline and AVX2 builds of the lane loops give the same bits on every x86-64 machine.
(Against the one-chain order this moved the last bits of w — max |Δw| 2.4e−13
over 44 OHSUMED fold-1 solves, 9e−13 over 15 Reuters solves — with no chosen configuration,
feature, sweep or iteration count and no test measure moved, for ×1.2–1.3 on a dense pooled
sweep.)

Entry points: ``init_state`` (margins and blocks from w), ``objective`` (the loss),
``gradient`` (∇L, one pass over the columns), ``cd_steps`` (a given sequence of coordinate
updates, optionally recording g and δ — what the tests compare with the reference) and
``cd_sweeps`` (cyclic sweeps over a set of coordinates with the stopping rule of §7.1 and an
update budget, the objective evaluated after every sweep — what the solver calls).

Cost of a step on r: O(nnz_r) for μ, the x-part of g_r and the margin updates, plus, when the
previous step changed w, O(B + m) to refresh L_k, σ and S_k (the μ-term needs S_k over all
dominating instances; S_k depends on every Z_k, which changes with almost every update).  A
sweep over d features is O(nnz + d·(B + m)): linear in the number of instances (m ≤ n), not
in the number of pairs.
"""
from libc.math cimport log, log1p, fabs, INFINITY
from libc.stdint cimport int32_t, int64_t

from column_access cimport Slices, make_slices, get_slice, bad_slices
from fixed_exp cimport fixed_exp as exp, fixed_exp_array, fixed_exp_avx2_usable

cdef extern from *:
    """
    /* Fixed-order sums in four lanes.  A block sum Σ_{p∈[p0,p1)} a_p is computed as four
     * partial sums, lane k adding the terms p0+k, p0+k+4, p0+k+8, … in that order, combined
     * as (lane0 + lane1) + (lane2 + lane3): the order is fixed by the instances' positions in
     * their block alone (not by the CPU, the vector width or the compiler), and four
     * independent chains of additions replace one.  Built for the baseline and for AVX2 and
     * chosen at run time, like fixed_exp_array: one product, one sum and one quotient per
     * lane, each rounded once as IEEE demands whatever the vector width (no FMA:
     * -ffp-contract=off), so every variant gives the same bits.  R is the packed RowState
     * array seen as 4 doubles a record (M, E, sig, block).
     *
     * dom_sigma_lanes: σ_i = 1/(1 + E_i·f) (_sigma's fast path) of the instances
     * rows[p..p1) of a block (p − p0 a multiple of 4), stored in R[i].sig and added to the
     * lanes s[0..3], four at a time, up to p1 or the first group of four with an E_i ≤ 0
     * (whose σ needs the slow path: the group's first position is returned).
     *
     * dom_dense_lanes: the same for a dense X's block (instance p is record p, x_p = val[p]):
     * μ lanes m += E_p·x_p for every block; with ``dom`` also σ_p (not stored), S lanes s += σ_p and
     * the lanes xs += x_p·σ_p (xs runs on across the blocks of a column).  Stops like
     * dom_sigma_lanes (only with ``dom``). */
    typedef double dom_v4d __attribute__((vector_size(32)));
    #define DOM_LOAD4(a) ((dom_v4d){(a)[0], (a)[1], (a)[2], (a)[3]})
    #define DOM_STORE4(a, v) do { (a)[0] = (v)[0]; (a)[1] = (v)[1]; (a)[2] = (v)[2];       \
                                  (a)[3] = (v)[3]; } while (0)
    #define DOM_SIGMA_LANES(name)                                                         \
        static Py_ssize_t name(void* Rv, const int64_t* rows, Py_ssize_t p, Py_ssize_t p1,  \
                               double f, double* s_io) {                                  \
            double* R = (double*)Rv;                                                      \
            double *r0, *r1, *r2, *r3;                                                    \
            const dom_v4d one = {1.0, 1.0, 1.0, 1.0};                                     \
            const dom_v4d fv = {f, f, f, f};                                              \
            dom_v4d s = DOM_LOAD4(s_io), ev, sv;                                          \
            double e[4], sg[4];                                                           \
            Py_ssize_t k, n;                                                              \
            while (p + 4 <= p1) {                                                         \
                r0 = R + 4 * rows[p];                                                     \
                r1 = R + 4 * rows[p + 1];                                                 \
                r2 = R + 4 * rows[p + 2];                                                 \
                r3 = R + 4 * rows[p + 3];                                                 \
                if (!(r0[1] > 0.0 && r1[1] > 0.0 && r2[1] > 0.0 && r3[1] > 0.0))          \
                    goto done;                                                            \
                ev = (dom_v4d){r0[1], r1[1], r2[1], r3[1]};                               \
                sv = one / (one + ev * fv);                                               \
                r0[2] = sv[0]; r1[2] = sv[1]; r2[2] = sv[2]; r3[2] = sv[3];               \
                s = s + sv;                                                               \
                p += 4;                                                                   \
            }                                                                             \
            if (p < p1) {                   /* the last 1–3: lanes 0.. padded with 0 */   \
                n = p1 - p;                                                               \
                for (k = 0; k < 4; k++) {                                                 \
                    e[k] = k < n ? R[4 * rows[p + k] + 1] : 1.0;                          \
                    if (!(e[k] > 0.0))                                                    \
                        goto done;                                                        \
                }                                                                         \
                sv = one / (one + DOM_LOAD4(e) * fv);                                     \
                DOM_STORE4(sg, sv);                                                       \
                for (k = 0; k < 4; k++) {                                                 \
                    if (k < n) R[4 * rows[p + k] + 2] = sg[k]; else sg[k] = 0.0;          \
                }                                                                         \
                s = s + DOM_LOAD4(sg);                                                    \
                p = p1;                                                                   \
            }                                                                             \
        done:                                                                             \
            DOM_STORE4(s_io, s);                                                          \
            return p;                                                                     \
        }
    #define DOM_DENSE_LANES(name)                                                         \
        static Py_ssize_t name(void* Rv, const double* val, Py_ssize_t p, Py_ssize_t p1,    \
                               double f, int dom, double* s_io, double* m_io,             \
                               double* x_io) {                                            \
            const double* r;                                                              \
            const dom_v4d one = {1.0, 1.0, 1.0, 1.0};                                     \
            const dom_v4d fv = {f, f, f, f};                                              \
            dom_v4d s = DOM_LOAD4(s_io), m = DOM_LOAD4(m_io), xs = DOM_LOAD4(x_io);       \
            dom_v4d ev, xv, sv;                                                           \
            double e[4], x[4], sg[4];                                                     \
            Py_ssize_t k, n;                                                              \
            if (!dom) {                                                                   \
                for (; p + 4 <= p1; p += 4) {                                             \
                    r = (const double*)Rv + 4 * p;                                        \
                    ev = (dom_v4d){r[1], r[5], r[9], r[13]};                              \
                    m = m + ev * DOM_LOAD4(val + p);                                      \
                }                                                                         \
            } else {                                                                      \
                for (; p + 4 <= p1; p += 4) {                                             \
                    r = (const double*)Rv + 4 * p;                                        \
                    if (!(r[1] > 0.0 && r[5] > 0.0 && r[9] > 0.0 && r[13] > 0.0))         \
                        goto done;                                                        \
                    ev = (dom_v4d){r[1], r[5], r[9], r[13]};                              \
                    xv = DOM_LOAD4(val + p);                                              \
                    m = m + ev * xv;                                                      \
                    sv = one / (one + ev * fv);                                           \
                    s = s + sv;                                                           \
                    xs = xs + xv * sv;                                                    \
                }                                                                         \
            }                                                                             \
            if (p < p1) {                   /* the last 1–3: lanes 0.. padded with 0 */   \
                n = p1 - p;                                                               \
                r = (const double*)Rv + 4 * p;                                            \
                for (k = 0; k < 4; k++) {                                                 \
                    e[k] = k < n ? r[4 * k + 1] : 0.0;                                    \
                    x[k] = k < n ? val[p + k] : 0.0;                                      \
                    if (dom && k < n && !(e[k] > 0.0))                                    \
                        goto done;                                                        \
                }                                                                         \
                ev = DOM_LOAD4(e);                                                        \
                xv = DOM_LOAD4(x);                                                        \
                m = m + ev * xv;                                                          \
                if (dom) {                                                                \
                    sv = one / (one + ev * fv);                                           \
                    DOM_STORE4(sg, sv);                                                   \
                    for (k = n; k < 4; k++)                                               \
                        sg[k] = 0.0;                                                      \
                    sv = DOM_LOAD4(sg);                                                   \
                    s = s + sv;                                                           \
                    xs = xs + xv * sv;                                                    \
                }                                                                         \
                p = p1;                                                                   \
            }                                                                             \
        done:                                                                             \
            DOM_STORE4(s_io, s);                                                          \
            DOM_STORE4(m_io, m);                                                          \
            DOM_STORE4(x_io, xs);                                                         \
            return p;                                                                     \
        }
    /* dom_t_lanes: a step's new E_i (En[q], the instances touched[q]) into T_b's lanes, four
     * at a time: lane k of t adds E_new − E_old of the instance q + k, lane k of e its
     * rounding bound ε(|t_k| + (E_new + E_old)); E_i stored; *over set if a margin exceeds
     * c_b by ``slack``.  From q (the caller's lane 0) while four touched instances are all in
     * block b; returns where it stopped. */
    #define DOM_T_LANES(name)                                                             \
        static Py_ssize_t name(void* Rv, const int64_t* touched, const double* En,         \
                               Py_ssize_t q, Py_ssize_t n, int64_t b, double cb,          \
                               double slack, double eps, double* t_io, double* e_io,      \
                               int* over) {                                               \
            double* R = (double*)Rv;                                                      \
            double *r0, *r1, *r2, *r3;                                                    \
            typedef long long dom_v4i __attribute__((vector_size(32)));                   \
            const dom_v4i nosign = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL,           \
                                    0x7fffffffffffffffLL, 0x7fffffffffffffffLL};          \
            const dom_v4d epsv = {eps, eps, eps, eps};                                    \
            const dom_v4d cv = {cb, cb, cb, cb};                                          \
            const dom_v4d sv = {slack, slack, slack, slack};                              \
            dom_v4d t = DOM_LOAD4(t_io), e = DOM_LOAD4(e_io), en, eo, mv, at;             \
            dom_v4i big = {0, 0, 0, 0};                                                   \
            while (q + 4 <= n) {                                                          \
                r0 = R + 4 * touched[q];                                                  \
                r1 = R + 4 * touched[q + 1];                                              \
                r2 = R + 4 * touched[q + 2];                                              \
                r3 = R + 4 * touched[q + 3];                                              \
                if (((int64_t*)r0)[3] != b || ((int64_t*)r1)[3] != b                      \
                        || ((int64_t*)r2)[3] != b || ((int64_t*)r3)[3] != b)               \
                    break;                                                                \
                en = DOM_LOAD4(En + q);                                                   \
                eo = (dom_v4d){r0[1], r1[1], r2[1], r3[1]};                               \
                t = t + (en - eo);                                                        \
                at = (dom_v4d)((dom_v4i)t & nosign);                                      \
                e = e + epsv * (at + (en + eo));                                          \
                r0[1] = en[0]; r1[1] = en[1]; r2[1] = en[2]; r3[1] = en[3];               \
                mv = (dom_v4d){r0[0], r1[0], r2[0], r3[0]};                               \
                big = big | (dom_v4i)((mv - cv) > sv);                                    \
                q += 4;                                                                   \
            }                                                                             \
            if (big[0] | big[1] | big[2] | big[3])                                        \
                *over = 1;                                                                \
            DOM_STORE4(t_io, t);                                                          \
            DOM_STORE4(e_io, e);                                                          \
            return q;                                                                     \
        }
    DOM_SIGMA_LANES(dom_sigma_lanes_base)
    DOM_DENSE_LANES(dom_dense_lanes_base)
    DOM_T_LANES(dom_t_lanes_base)
    #if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __attribute__((target("avx2"))) DOM_SIGMA_LANES(dom_sigma_lanes_avx2)
    __attribute__((target("avx2"))) DOM_DENSE_LANES(dom_dense_lanes_avx2)
    __attribute__((target("avx2"))) DOM_T_LANES(dom_t_lanes_avx2)
    #else
    static Py_ssize_t dom_t_lanes_avx2(void* R, const int64_t* touched, const double* En,
                                       Py_ssize_t q, Py_ssize_t n, int64_t b, double cb,
                                       double slack, double eps, double* t_io, double* e_io,
                                       int* over) {
        return dom_t_lanes_base(R, touched, En, q, n, b, cb, slack, eps, t_io, e_io, over);
    }
    static Py_ssize_t dom_sigma_lanes_avx2(void* R, const int64_t* rows, Py_ssize_t p,
                                           Py_ssize_t p1, double f, double* s_io) {
        return dom_sigma_lanes_base(R, rows, p, p1, f, s_io);
    }
    static Py_ssize_t dom_dense_lanes_avx2(void* R, const double* val, Py_ssize_t p,
                                           Py_ssize_t p1, double f, int dom, double* s_io,
                                           double* m_io, double* x_io) {
        return dom_dense_lanes_base(R, val, p, p1, f, dom, s_io, m_io, x_io);
    }
    #endif
    /* the lanes' sum in the fixed order (lane0 + lane1) + (lane2 + lane3) */
    static inline double dom_lanes_total(const double* a) {
        return (a[0] + a[1]) + (a[2] + a[3]);
    }
    """
    Py_ssize_t dom_sigma_lanes_base(void* R, const int64_t* rows, Py_ssize_t p, Py_ssize_t p1,
                                    double f, double* s_io) nogil
    Py_ssize_t dom_sigma_lanes_avx2(void* R, const int64_t* rows, Py_ssize_t p, Py_ssize_t p1,
                                    double f, double* s_io) nogil
    Py_ssize_t dom_dense_lanes_base(void* R, const double* val, Py_ssize_t p, Py_ssize_t p1,
                                    double f, int dom, double* s_io, double* m_io,
                                    double* x_io) nogil
    Py_ssize_t dom_dense_lanes_avx2(void* R, const double* val, Py_ssize_t p, Py_ssize_t p1,
                                    double f, int dom, double* s_io, double* m_io,
                                    double* x_io) nogil
    Py_ssize_t dom_t_lanes_base(void* R, const int64_t* touched, const double* En,
                                Py_ssize_t q, Py_ssize_t n, int64_t b, double cb, double slack,
                                double eps, double* t_io, double* e_io, int* over) nogil
    Py_ssize_t dom_t_lanes_avx2(void* R, const int64_t* touched, const double* En,
                                Py_ssize_t q, Py_ssize_t n, int64_t b, double cb, double slack,
                                double eps, double* t_io, double* e_io, int* over) nogil
    double dom_lanes_total(const double* a) nogil

cdef packed struct RowState:
    double M          # margin M_i = w·x_i − s(i)
    double E          # e^{M_i − c_b}, b the instance's block
    double sig        # σ_i at the last refresh (dominating instances; read by the gradient)
    int64_t block     # the instance's block (−1: it takes no part)


cdef enum:
    CHUNK = 256         # instances per vectorised call (new E_i in a step, σ_i in a refresh)


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
                           RowState* R, double* c, double* T, double* Terr) noexcept nogil:
    """c_b = max margin of block b; E_i and T_b recomputed from the margins."""
    cdef Py_ssize_t p, i
    cdef double mx = -INFINITY, t = 0.0
    for p in range(bptr[b], bptr[b + 1]):
        if R[rows[p]].M > mx:
            mx = R[rows[p]].M
    for p in range(bptr[b], bptr[b + 1]):
        i = rows[p]
        R[i].E = exp(R[i].M - mx)
        t = t + R[i].E
    c[b] = mx
    T[b] = t
    Terr[b] = 0.0                 # rounding bound of the updates since this recentring


cdef inline void _mark_dominating(Py_ssize_t G, const int64_t* gptr, double* dom) noexcept nogil:
    cdef Py_ssize_t g, b
    for g in range(G):
        for b in range(gptr[g], gptr[g + 1]):
            dom[b] = 1.0 if b > gptr[g] else 0.0


cdef void _refresh(Py_ssize_t G, const int64_t* gptr, const int64_t* bptr, const int64_t* rows,
                   RowState* R, const double* c, const double* T,
                   double* w, Py_ssize_t B, bint with_S) noexcept nogil:
    """L_b, f_b, up_b, carry_b (and S_b and every σ_i if ``with_S``) from the block sums:
    O(B + m)."""
    cdef double* L = w + W_L * B
    cdef double* f = w + W_F * B
    cdef double* S = w + W_S * B
    cdef double* up = w + W_UP * B
    cdef double* carry = w + W_CARRY * B
    cdef Py_ssize_t g, b, p, i, p1, k
    cdef double run, lt, new, sg, fb
    cdef double lanes[4]
    cdef bint fast, avx2 = (SIMD_AVX2 and fixed_exp_avx2_usable())
    for g in range(G):
        run = -INFINITY
        for b in range(gptr[g], gptr[g + 1]):
            lt = c[b] + log(T[b])
            if b > gptr[g]:
                L[b] = run
                fb = exp(c[b] - run)
                f[b] = fb
                if with_S:
                    # σ_i of _sigma and S_b in four lanes (dom_sigma_lanes): the fast path
                    # four instances at a time, a group of four with a slow σ here
                    fast = fb < INFINITY
                    lanes[0] = 0.0
                    lanes[1] = 0.0
                    lanes[2] = 0.0
                    lanes[3] = 0.0
                    p = bptr[b]
                    p1 = bptr[b + 1]
                    while p < p1:
                        if fast:
                            if avx2:
                                p = dom_sigma_lanes_avx2(R, rows, p, p1, fb, lanes)
                            else:
                                p = dom_sigma_lanes_base(R, rows, p, p1, fb, lanes)
                            if p == p1:
                                break
                        for k in range(4 if p + 4 <= p1 else p1 - p):
                            i = rows[p + k]
                            sg = _sigma(R[i].M, R[i].E, fb, run)
                            R[i].sig = sg
                            lanes[k] = lanes[k] + sg
                        p = p + 4
                    S[b] = dom_lanes_total(lanes)
            new = _logaddexp(run, lt)
            up[b] = exp(c[b] - new)                  # = exp(c_b − L_{b+1})
            carry[b] = exp(run - new) if b > gptr[g] else 0.0
            run = new


cdef inline double _gradient(const Slices* X, Py_ssize_t r, Py_ssize_t G, const int64_t* gptr,
                             const int64_t* bptr, const RowState* R, double* w,
                             Py_ssize_t B) noexcept nogil:
    """g_r at the cached state (needs a current ``_refresh`` with S: it reads the σ_i it
    stored); leaves μ_b in the work array.  μ_b and Σ x_ir σ_i in the lanes of the dense
    pass: instance i in lane (i − bptr[b]) mod 4 (its position in its block: the wrapper's
    instances are rows[p] = p), so a sparse and a dense X give the same bits."""
    cdef double* L = w + W_L * B
    cdef double* f = w + W_F * B
    cdef double* S = w + W_S * B
    cdef double* up = w + W_UP * B
    cdef double* carry = w + W_CARRY * B
    cdef double* mu = w + W_MU * B
    cdef double* dom = w + W_DOM * B
    cdef const double* val
    cdef const int32_t* idx
    cdef const RowState* ri
    cdef Py_ssize_t nnz, p, b, g, b0, b1, i, k
    cdef double x, xs, grad, nu
    cdef Py_ssize_t cur = -1, start = 0
    cdef double lm[4]
    cdef double lx[4]
    cdef bint isdom = False
    for b in range(B):
        mu[b] = 0.0
    for k in range(4):
        lm[k] = 0.0
        lx[k] = 0.0
    nnz = get_slice(X, r, &val, &idx)
    for p in range(nnz):
        x = val[p]
        if x == 0.0:
            continue
        i = idx[p]
        ri = &R[i]
        b = ri.block
        if b < 0:
            continue
        if b != cur:                      # the current block's μ lanes
            if cur >= 0:
                mu[cur] = mu[cur] + dom_lanes_total(lm)
                for k in range(4):
                    lm[k] = 0.0
            cur = b
            start = bptr[b]
            isdom = dom[b] != 0.0
        k = (i - start) & 3
        lm[k] = lm[k] + ri.E * x
        if isdom:
            lx[k] = lx[k] + x * ri.sig    # σ_i of the refresh (the same value)
    if cur >= 0:
        mu[cur] = mu[cur] + dom_lanes_total(lm)
    xs = dom_lanes_total(lx)
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


cdef inline bint _bad_blocks(Py_ssize_t n, const int64_t[::1] rows, const int64_t[::1] bptr,
                             const int64_t[::1] gptr, const RowState[::1] R,
                             const double[::1] c, const double[::1] T,
                             const double[::1] Terr, const double[::1] work) noexcept nogil:
    cdef Py_ssize_t B = bptr.shape[0] - 1
    if B < 1 or gptr.shape[0] < 2 or gptr[0] != 0 or gptr[gptr.shape[0] - 1] != B:
        return True
    if R.shape[0] != n:
        return True
    if bptr[0] != 0 or bptr[B] != rows.shape[0] or rows.shape[0] > n:
        return True
    if c.shape[0] != B or T.shape[0] != B or Terr.shape[0] != B or work.shape[0] < N_WORK * B:
        return True
    return False


cdef bint SIMD_AVX2 = True       # tests: False runs the lane loops' baseline build


def use_avx2(bint allowed):
    """Whether the lane loops may take their AVX2 build where the CPU has it (default True);
    tests set False to compare the baseline build with it (the same bits, by construction).
    Returns the previous setting."""
    global SIMD_AVX2
    cdef bint before = SIMD_AVX2
    SIMD_AVX2 = allowed
    return before


def init_state(const double[::1] xdata, const int32_t[::1] xind, const int64_t[::1] xptr,
               Py_ssize_t n_rows, bint dense, const double[::1] w, const double[::1] s,
               const int64_t[::1] rows, const int64_t[::1] bptr, const int64_t[::1] gptr,
               RowState[::1] R, double[::1] c, double[::1] T, double[::1] Terr,
               double[::1] work):
    """Algorithms 1, 3, 5: margins M = Xw − s of the participating instances (those with
    ``R[i].block`` ≥ 0; all others 0), every block recentred.  ``X`` is given by columns (see
    ``column_access.pxd``).  Returns 0, or −1 on inconsistent shapes."""
    if bad_slices(xdata, xind, xptr, n_rows, dense) or w.shape[0] != xptr.shape[0] - 1 \
            or s.shape[0] != n_rows or _bad_blocks(n_rows, rows, bptr, gptr, R, c, T, Terr,
                                                    work):
        return -1
    cdef Slices X = make_slices(xdata, xind, xptr, n_rows, dense)
    cdef Py_ssize_t d = X.n_major, B = bptr.shape[0] - 1
    cdef Py_ssize_t i, r, p, nnz, b
    cdef const double* val
    cdef const int32_t* idx
    cdef double wr
    with nogil:
        for i in range(n_rows):
            R[i].M = -s[i] if R[i].block >= 0 else 0.0
        for r in range(d):
            wr = w[r]
            if wr == 0.0:
                continue
            nnz = get_slice(&X, r, &val, &idx)
            for p in range(nnz):
                i = idx[p]
                if R[i].block >= 0:
                    R[i].M = R[i].M + wr * val[p]
        for b in range(B):
            _recentre(b, &rows[0], &bptr[0], &R[0], &c[0], &T[0], &Terr[0])
    return 0


cdef double _loss(Py_ssize_t G, const int64_t* gptr, const int64_t* bptr, const int64_t* rows,
                  RowState* R, const double* c, const double* T,
                  double* work, Py_ssize_t B) noexcept nogil:
    """Σ_{dominating i} softplus(L_k − M_i) from the cached state: O(B + m)."""
    cdef double* L = work + W_L * B
    cdef Py_ssize_t g, b, p
    cdef double total = 0.0, acc
    _refresh(G, gptr, bptr, rows, R, c, T, work, B, False)
    for g in range(G):
        for b in range(gptr[g] + 1, gptr[g + 1]):
            acc = 0.0
            for p in range(bptr[b], bptr[b + 1]):
                acc = acc + _softplus(L[b] - R[rows[p]].M)
            total = total + acc
    return total


cdef inline double _penalty(double wr, int reg) noexcept nogil:
    return fabs(wr) if reg == 1 else wr * wr


cdef struct Problem:
    Slices X
    Py_ssize_t G
    Py_ssize_t B
    const int64_t* gptr
    const int64_t* bptr
    const int64_t* rows
    const double* beta
    double* w
    RowState* R
    double* c
    double* T
    double* Terr
    double* work
    double lam
    int reg


cdef double _gradient_dense(Problem* P, Py_ssize_t r) noexcept nogil:
    """g_r for a dense X (every instance in every column; the instances in block order, so
    block b is the positions bptr[b]..bptr[b+1]−1): S_b and μ_b of a block and its
    instances' share of Σ x_ir σ_i in one pass, in four lanes each (dom_dense_lanes: lane
    k adds the positions bptr[b]+k, +k+4, …; the lanes of Σ x σ run on across the blocks),
    σ_i computed once; needs a current ``_refresh`` without S.  The same S_b as the
    refresh's (the same lanes)."""
    cdef Py_ssize_t B = P.B, g, b, p, p1, b0, b1, k
    cdef double* L = P.work + W_L * B
    cdef double* f = P.work + W_F * B
    cdef double* S = P.work + W_S * B
    cdef double* up = P.work + W_UP * B
    cdef double* carry = P.work + W_CARRY * B
    cdef double* mu = P.work + W_MU * B
    cdef const double* val
    cdef const int32_t* idx
    cdef const RowState* ri
    cdef double x, xs, sg, fb, Lb, grad, nu
    cdef double ls[4]
    cdef double lm[4]
    cdef double lx[4]
    cdef bint dom, avx2 = (SIMD_AVX2 and fixed_exp_avx2_usable())
    get_slice(&P.X, r, &val, &idx)
    for k in range(4):
        lx[k] = 0.0
    for g in range(P.G):
        for b in range(P.gptr[g], P.gptr[g + 1]):
            dom = b > P.gptr[g]                  # a dominating block: σ_i, S_b and Σ x σ
            fb = f[b]
            Lb = L[b]
            for k in range(4):
                ls[k] = 0.0
                lm[k] = 0.0
            p = P.bptr[b]
            p1 = P.bptr[b + 1]
            while p < p1:
                if not dom or fb < INFINITY:
                    if avx2:
                        p = dom_dense_lanes_avx2(P.R, val, p, p1, fb, dom, ls, lm, lx)
                    else:
                        p = dom_dense_lanes_base(P.R, val, p, p1, fb, dom, ls, lm, lx)
                    if p == p1:
                        break
                for k in range(4 if p + 4 <= p1 else p1 - p):     # a group with a slow σ
                    ri = &P.R[p + k]
                    x = val[p + k]
                    lm[k] = lm[k] + ri.E * x
                    sg = _sigma(ri.M, ri.E, fb, Lb)
                    ls[k] = ls[k] + sg
                    lx[k] = lx[k] + x * sg
                p = p + 4
            if dom:
                S[b] = dom_lanes_total(ls)
            mu[b] = dom_lanes_total(lm)
    xs = dom_lanes_total(lx)
    grad = -xs
    for g in range(P.G):
        b0 = P.gptr[g]
        b1 = P.gptr[g + 1]
        nu = up[b0] * mu[b0]
        for b in range(b0 + 1, b1):
            grad = grad + S[b] * nu
            nu = carry[b] * nu + up[b] * mu[b]
    return grad


cdef inline void _lanes_flush(const double* tl, const double* el, Py_ssize_t b, double* T,
                              double* Terr) noexcept nogil:
    """T_b += (t0 + t1) + (t2 + t3) (the change of T_b in four lanes); Terr_b += the lanes'
    bounds and those of the three combining additions and of the addition to T_b (each
    ≤ ε/2 of its result)."""
    cdef double s01 = tl[0] + tl[1], s23 = tl[2] + tl[3]
    cdef double s = s01 + s23
    cdef double t = T[b] + s
    T[b] = t
    Terr[b] = Terr[b] + (((el[0] + el[1]) + (el[2] + el[3]))
                         + EPS * (((fabs(s01) + fabs(s23)) + fabs(s)) + fabs(t)))


cdef Py_ssize_t _steps(Problem* P, const int64_t* coords, Py_ssize_t n_steps, bint* dirty,
                       double* rec_g, double* rec_delta, int64_t* visits) noexcept nogil:
    """Single-coordinate updates on coords[0..n_steps) (Alg. 2/4 with the cached state of
    Alg. 6); records g and δ when ``rec_g`` is not NULL.  Returns the non-zero updates.
    ``visits`` (not NULL): adds the stored values of X read — each step's column once for its
    gradient, and once more for the update of a non-zero step (O(1) per step).
    The kernel's instances are in block order (the wrapper's), so a column's non-zeros come
    block by block: a block's running sums stay in registers, the change of T_b in four
    lanes (dom_t_lanes: lane k the block's touched instances j ≡ k mod 4 of the step, in
    turn: a fixed order, the same for a dense and a sparse X)."""
    cdef Py_ssize_t B = P.B, t, r, p, q, p0, p1, nnz, b, changed = 0, n_touched, i, cur
    cdef double accF = 0.0
    cdef double tl[4]
    cdef double el[4]
    cdef int big
    cdef Py_ssize_t q2, k, j = 0
    cdef bint avx2 = (SIMD_AVX2 and fixed_exp_avx2_usable())
    cdef double arg[CHUNK]
    cdef int64_t touched[CHUNK]
    cdef RowState* ri
    cdef const double* val
    cdef const int32_t* idx
    cdef double* flag = P.work + W_FLAG * B
    cdef double g, delta, x, En
    cdef bint dense = P.X.dense, over = False
    for t in range(n_steps):
        r = coords[t]
        if visits != NULL:
            visits[0] += get_slice(&P.X, r, &val, &idx)
        if dirty[0]:
            _refresh(P.G, P.gptr, P.bptr, P.rows, P.R, P.c, P.T, P.work, B, not dense)
            dirty[0] = False
        if dense:
            g = _gradient_dense(P, r)
        else:
            g = _gradient(&P.X, r, P.G, P.gptr, P.bptr, P.R, P.work, B)
        delta = _delta(g, P.beta[r], P.w[r], P.lam, P.reg)
        if rec_g != NULL:
            rec_g[t] = g
            rec_delta[t] = delta
        if delta == 0.0:
            continue
        changed = changed + 1
        P.w[r] = P.w[r] + delta
        nnz = get_slice(&P.X, r, &val, &idx)
        if visits != NULL:
            visits[0] += nnz
        cur = -1
        p0 = 0
        while p0 < nnz:                     # CHUNK non-zeros at a time:
            p1 = p0 + CHUNK if p0 + CHUNK < nnz else nnz
            n_touched = 0                   # M_i += δ x_ir; gather M_i − c_b
            for p in range(p0, p1):
                x = val[p]
                if x == 0.0:
                    continue
                i = idx[p]
                ri = &P.R[i]
                b = ri.block
                if b < 0:
                    continue
                ri.M = ri.M + delta * x
                arg[n_touched] = ri.M - P.c[b]
                touched[n_touched] = i
                n_touched = n_touched + 1
            fixed_exp_array(arg, arg, n_touched)          # E_i = e^{M_i − c_b}, SIMD lanes
            q = 0                           # T_b in four lanes (lane k: the block's
            while q < n_touched:            # touched instances j ≡ k mod 4 of the step), E_i;
                ri = &P.R[touched[q]]       # the current block's lanes, bounds and flag in
                b = ri.block                # registers
                if b != cur:
                    if cur >= 0:
                        _lanes_flush(tl, el, cur, P.T, P.Terr)
                        flag[cur] = 2.0 if over else (accF if accF != 0.0 else 1.0)
                    cur = b
                    for k in range(4):
                        tl[k] = 0.0
                        el[k] = 0.0
                    j = 0
                    accF = flag[b]
                    over = False
                if j & 3 == 0:              # four at a time while they are in block b
                    big = 0
                    if avx2:
                        q2 = dom_t_lanes_avx2(P.R, touched, arg, q, n_touched, b, P.c[b],
                                              SLACK, EPS, tl, el, &big)
                    else:
                        q2 = dom_t_lanes_base(P.R, touched, arg, q, n_touched, b, P.c[b],
                                              SLACK, EPS, tl, el, &big)
                    over = over | (big != 0)
                    if q2 > q:
                        j = j + (q2 - q)
                        q = q2
                        continue
                k = j & 3
                En = arg[q]
                tl[k] = tl[k] + (En - ri.E)
                el[k] = el[k] + EPS * (fabs(tl[k]) + (En + ri.E))
                ri.E = En
                # flag: 2 if a margin exceeds c_b by SLACK, else 1 (or the flag it had)
                over = over | (ri.M - P.c[b] > SLACK)
                q = q + 1
                j = j + 1
            p0 = p1
        if cur >= 0:
            _lanes_flush(tl, el, cur, P.T, P.Terr)
            flag[cur] = 2.0 if over else (accF if accF != 0.0 else 1.0)
            dirty[0] = True
        if dirty[0]:
            for b in range(B):
                if flag[b] != 0.0:
                    if flag[b] == 2.0 or P.Terr[b] > REL_TOL * P.T[b] or P.T[b] < TINY:
                        _recentre(b, P.rows, P.bptr, P.R, P.c, P.T, P.Terr)
                    flag[b] = 0.0
    return changed


cdef inline Problem _problem(const double[::1] xdata, const int32_t[::1] xind,
                             const int64_t[::1] xptr, Py_ssize_t n_rows, bint dense,
                             const int64_t[::1] rows, const int64_t[::1] bptr,
                             const int64_t[::1] gptr, const double[::1] beta, double lam,
                             int reg, double[::1] w, RowState[::1] R, double[::1] c,
                             double[::1] T, double[::1] Terr, double[::1] work) noexcept nogil:
    cdef Problem P
    P.X = make_slices(xdata, xind, xptr, n_rows, dense)
    P.B = bptr.shape[0] - 1
    P.G = gptr.shape[0] - 1
    P.gptr = &gptr[0]
    P.bptr = &bptr[0]
    P.rows = &rows[0]
    P.beta = &beta[0]
    P.w = &w[0]
    P.R = &R[0]
    P.c = &c[0]
    P.T = &T[0]
    P.Terr = &Terr[0]
    P.work = &work[0]
    P.lam = lam
    P.reg = reg
    return P


def objective(const int64_t[::1] rows, const int64_t[::1] bptr, const int64_t[::1] gptr,
              RowState[::1] R, const double[::1] c, const double[::1] T,
              double[::1] work):
    """The loss L(w) (eq. 5–7 with layers and margins) from the cached state:
    Σ_{dominating i} softplus(L_k − M_i).  O(B + m)."""
    cdef Py_ssize_t B = bptr.shape[0] - 1, G = gptr.shape[0] - 1
    if B < 1 or work.shape[0] < N_WORK * B or c.shape[0] != B or T.shape[0] != B \
            or gptr[G] != B or bptr[B] != rows.shape[0] or rows.shape[0] > R.shape[0]:
        return float("nan")
    cdef double total
    with nogil:
        total = _loss(G, &gptr[0], &bptr[0], &rows[0], &R[0], &c[0], &T[0], &work[0], B)
    return total


def gradient(const double[::1] xdata, const int32_t[::1] xind, const int64_t[::1] xptr,
             Py_ssize_t n_rows, bint dense, const int64_t[::1] rows,
             const int64_t[::1] bptr, const int64_t[::1] gptr, RowState[::1] R,
             const double[::1] c, const double[::1] T, const double[::1] Terr,
             double[::1] work, double[::1] out):
    """∇L(w) at the cached state into ``out`` (one pass over all columns: O(nnz + d·B + m)).
    Returns 0, or −1 on inconsistent shapes."""
    if bad_slices(xdata, xind, xptr, n_rows, dense) or out.shape[0] != xptr.shape[0] - 1 \
            or _bad_blocks(n_rows, rows, bptr, gptr, R, c, T, Terr, work):
        return -1
    cdef Slices X = make_slices(xdata, xind, xptr, n_rows, dense)
    cdef Py_ssize_t B = bptr.shape[0] - 1, G = gptr.shape[0] - 1, r
    with nogil:
        _mark_dominating(G, &gptr[0], &work[W_DOM * B])
        _refresh(G, &gptr[0], &bptr[0], &rows[0], &R[0], &c[0], &T[0], &work[0], B, True)
        for r in range(X.n_major):
            out[r] = _gradient(&X, r, G, &gptr[0], &bptr[0], &R[0], &work[0], B)
    return 0


cdef inline bint _bad_call(const double[::1] xdata, const int32_t[::1] xind,
                           const int64_t[::1] xptr, Py_ssize_t n_rows, bint dense,
                           const int64_t[::1] rows, const int64_t[::1] bptr,
                           const int64_t[::1] gptr, const double[::1] beta,
                           const int64_t[::1] coords, int reg, const double[::1] w,
                           const RowState[::1] R, const double[::1] c, const double[::1] T,
                           const double[::1] Terr, const double[::1] work) noexcept nogil:
    cdef Py_ssize_t d = xptr.shape[0] - 1, t
    if bad_slices(xdata, xind, xptr, n_rows, dense) or w.shape[0] != d or beta.shape[0] != d \
            or _bad_blocks(n_rows, rows, bptr, gptr, R, c, T, Terr, work) \
            or (reg != 1 and reg != 2):
        return True
    for t in range(coords.shape[0]):
        if coords[t] < 0 or coords[t] >= d:
            return True
    return False


def cd_steps(const double[::1] xdata, const int32_t[::1] xind, const int64_t[::1] xptr,
             Py_ssize_t n_rows, bint dense, const int64_t[::1] rows, const int64_t[::1] bptr,
             const int64_t[::1] gptr, const double[::1] beta, const int64_t[::1] coords,
             double lam, int reg, double[::1] w, RowState[::1] R, double[::1] c,
             double[::1] T, double[::1] Terr, double[::1] work, double[::1] rec_g,
             double[::1] rec_delta, int64_t[::1] visits=None):
    """Single-coordinate updates on ``coords[0], coords[1], …`` in that order (Alg. 2/4 with
    the cached state of Alg. 6); ``reg`` 1 = ℓ1, 2 = ℓ2² with weight ``lam``.  If ``rec_g`` and
    ``rec_delta`` have one entry per coordinate, the gradient g_r and the step δ of every
    update are recorded.  ``visits`` (optional, one entry): the stored values of X the steps
    read are added to it (see ``_steps``).  Returns the number of updates with δ ≠ 0, or −1
    on inconsistent shapes or coordinates."""
    if _bad_call(xdata, xind, xptr, n_rows, dense, rows, bptr, gptr, beta, coords, reg, w, R,
                 c, T, Terr, work):
        return -1
    if visits is not None and visits.shape[0] < 1:
        return -1
    cdef Py_ssize_t n_steps = coords.shape[0], b, changed = 0
    cdef int64_t* vis = &visits[0] if visits is not None else NULL
    cdef bint record = rec_g.shape[0] == n_steps and rec_delta.shape[0] == n_steps
    cdef bint dirty = True
    cdef Problem P = _problem(xdata, xind, xptr, n_rows, dense, rows, bptr, gptr, beta, lam, reg,
                              w, R, c, T, Terr, work)
    if n_steps == 0:
        return 0
    with nogil:
        _mark_dominating(P.G, P.gptr, P.work + W_DOM * P.B)
        for b in range(P.B):
            P.work[W_FLAG * P.B + b] = 0.0
        changed = _steps(&P, &coords[0], n_steps, &dirty,
                         &rec_g[0] if record else NULL, &rec_delta[0] if record else NULL, vis)
    return changed


def cd_sweeps(const double[::1] xdata, const int32_t[::1] xind, const int64_t[::1] xptr,
              Py_ssize_t n_rows, bint dense, const int64_t[::1] rows, const int64_t[::1] bptr,
              const int64_t[::1] gptr, const double[::1] beta, const int64_t[::1] coords,
              double lam, int reg, double tol, Py_ssize_t max_sweeps, Py_ssize_t budget,
              double first, double[::1] w, RowState[::1] R, double[::1] c, double[::1] T,
              double[::1] Terr, double[::1] work, unsigned char[::1] in_coords,
              double[::1] history, double[::1] out):
    """Cyclic sweeps over ``coords`` (distinct features, in that order) until the stopping
    rule of §7.1 — a sweep's decrease of the regularised objective F = L + λR at most
    ``tol`` times the reference decrease ``first`` (``first`` < 0: the first sweep of this
    call is the reference) — or ``max_sweeps`` sweeps, or ``budget`` single-coordinate
    updates in all (< 0: none; the last sweep is cut at the budget).

    ``history[0]`` receives F at entry and ``history[s]`` F after sweep s; ``in_coords`` is a
    zeroed scratch array of length d (left zeroed).  ``out`` receives (sweeps done,
    coordinate updates done, status: 0 converged / 1 max_sweeps / 2 budget, the reference
    decrease).  Returns the number of sweeps, or −1 on inconsistent shapes or coordinates."""
    cdef Py_ssize_t d = xptr.shape[0] - 1, n_coords = coords.shape[0]
    if _bad_call(xdata, xind, xptr, n_rows, dense, rows, bptr, gptr, beta, coords, reg, w, R,
                 c, T, Terr, work) or in_coords.shape[0] != d \
            or history.shape[0] < max_sweeps + 1 or out.shape[0] < 4 or max_sweeps < 1:
        return -1
    cdef Problem P = _problem(xdata, xind, xptr, n_rows, dense, rows, bptr, gptr, beta, lam, reg,
                              w, R, c, T, Terr, work)
    cdef Py_ssize_t t, r, b, n, sweeps = 0, iters = 0, status = 1
    cdef double fixed = 0.0, f, fn, dec, pen
    cdef bint dirty = True
    with nogil:
        _mark_dominating(P.G, P.gptr, P.work + W_DOM * P.B)
        for b in range(P.B):
            P.work[W_FLAG * P.B + b] = 0.0
        for t in range(n_coords):
            in_coords[coords[t]] = 1
        for r in range(d):                  # the penalty of the features not swept
            if not in_coords[r]:
                fixed = fixed + _penalty(P.w[r], reg)
        for t in range(n_coords):
            in_coords[coords[t]] = 0
        pen = fixed
        for t in range(n_coords):
            pen = pen + _penalty(P.w[coords[t]], reg)
        f = _loss(P.G, P.gptr, P.bptr, P.rows, P.R, P.c, P.T, P.work, P.B) + lam * pen
        history[0] = f
        while True:
            n = n_coords
            if budget >= 0 and budget - iters < n:
                n = budget - iters
            if n <= 0:
                status = 2
                break
            _steps(&P, &coords[0], n, &dirty, NULL, NULL, NULL)
            iters = iters + n
            pen = fixed
            for t in range(n_coords):
                pen = pen + _penalty(P.w[coords[t]], reg)
            fn = _loss(P.G, P.gptr, P.bptr, P.rows, P.R, P.c, P.T, P.work, P.B) + lam * pen
            dec = f - fn
            f = fn
            sweeps = sweeps + 1
            history[sweeps] = fn
            if first < 0:
                first = dec if dec > 0 else 0.0
            if budget >= 0 and iters >= budget:
                status = 2
                break
            if sweeps >= max_sweeps:
                status = 1
                break
            if dec <= tol * first:
                status = 0
                break
    out[0] = sweeps
    out[1] = iters
    out[2] = status
    out[3] = first
    return sweeps
