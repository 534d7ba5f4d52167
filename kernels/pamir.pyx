# cython: language_level=3
"""PAMIR: passive-aggressive learning on sampled triplets (Grangier & Bengio 2008, §3; the
baseline of Stevens 2010 §8.2–8.4).  Kernel of ``repro.rankers.pamir``.

Several linear models are trained at once (one per keyword / topic, or a single shared one).
A *dominating entry* ``e`` is a (model m_e, instance i_e) pair whose instance has at least one
instance of lower relevance for that model within its group ``[lo_e, hi_e)`` of rows.  Each
iteration:

1. draws an entry uniformly (so a model is trained in proportion to its number of positive
   instances, as PAMIR's sampling of (query, relevant picture) pairs — Stevens, lines 705–707,
   813: "PAMIR's training scheme ... spends more time on [queries with more training images]");
2. draws j uniformly among the rows of the group with ``rel[m, j] < rel[m, i]`` (by rejection,
   up to 64 draws, then by enumerating them: uniform either way);
3. applies the PA-I update to w_m with v = x_i − x_j: ℓ = max(0, 1 − w_m·v);
   τ = min(C, ℓ/‖v‖²); w_m ← w_m + τ v (nothing if ℓ = 0 or v = 0).

Row access through ``column_access.pxd`` (CSR rows, or rows of a C-ordered dense matrix);
w·v as two sparse dot products (their sums interleaved), ‖v‖² by a merge of the two sorted
index lists; the wrapper renumbers sparse features by decreasing frequency, so that the weights
read are mostly a few frequent features' (``repro.rankers.pamir._by_frequency``).  The
iterations are drawn in chunks and a chunk's updates applied model by model (each model's in
the order drawn: the same bits as applying each as it is drawn, since an update touches its
model's weights only), so a model's weight row stays in cache across its updates; the rows of
the triplets a few updates ahead are prefetched.  Random numbers: ``xoshiro256.pxd``
(xoshiro256** seeded by splitmix64 from the caller's 64-bit seed; bounded integers by Lemire's
multiply-shift with rejection, exactly uniform).
"""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.math cimport fmin

from column_access cimport Slices, make_slices, get_slice, bad_slices
from xoshiro256 cimport Rng, rng_below, rng_seed

cdef extern from *:
    void __builtin_prefetch(const void* addr) noexcept nogil


cdef inline void _prefetch_row(const Slices* X, Py_ssize_t i) noexcept nogil:
    """Ask for the first cache lines of row i (its values and indices)."""
    cdef int64_t a = X.indptr[i]
    cdef Py_ssize_t nb = <Py_ssize_t>(X.indptr[i + 1] - a) * 8, off = 0
    while off < nb and off < 512:
        __builtin_prefetch(<const char*>(X.data + a) + off)
        off = off + 64
    if not X.dense:
        off = 0
        while off < nb // 2 and off < 256:
            __builtin_prefetch(<const char*>(X.indices + a) + off)
            off = off + 64


cdef Py_ssize_t AHEAD = 8          # triplets whose rows are prefetched ahead of their update


cdef inline double _margin(const double* w, const double* vi, const int32_t* ii, Py_ssize_t ni,
                          const double* vj, const int32_t* ij, Py_ssize_t nj) noexcept nogil:
    """w·x_i − w·x_j, each dot product summed in its row's order; the two chains interleaved
    so that neither waits on the other's additions."""
    cdef double si = 0.0, sj = 0.0
    cdef Py_ssize_t p, n = ni if ni < nj else nj
    for p in range(n):
        si = si + w[ii[p]] * vi[p]
        sj = sj + w[ij[p]] * vj[p]
    for p in range(n, ni):
        si = si + w[ii[p]] * vi[p]
    for p in range(n, nj):
        sj = sj + w[ij[p]] * vj[p]
    return si - sj


cdef inline double _dist_sq(const double* va, const int32_t* ia, Py_ssize_t na,
                           const double* vb, const int32_t* ib, Py_ssize_t nb) noexcept nogil:
    """‖x_a − x_b‖² of two slices with increasing indices (merge over the union)."""
    cdef Py_ssize_t p = 0, q = 0
    cdef double s = 0.0, t
    while p < na or q < nb:
        if q >= nb or (p < na and ia[p] < ib[q]):
            t = va[p]
            p = p + 1
        elif p >= na or ib[q] < ia[p]:
            t = -vb[q]
            q = q + 1
        else:
            t = va[p] - vb[q]
            p = p + 1
            q = q + 1
        s = s + t * t
    return s


def pa_triplets(const double[::1] xdata, const int32_t[::1] xind, const int64_t[::1] xptr,
                Py_ssize_t n_cols, bint dense,
                const int8_t[:, ::1] rel, const int64_t[::1] ent_model,
                const int64_t[::1] ent_row, const int64_t[::1] ent_lo,
                const int64_t[::1] ent_hi, Py_ssize_t n_iter, double C, uint64_t seed,
                double[:, ::1] W, int64_t[:, ::1] record, const uint8_t[::1] active,
                int64_t[::1] drawn_e, int64_t[::1] drawn_j, int64_t[::1] sorted_e,
                int64_t[::1] sorted_j, int64_t[::1] starts):
    """``n_iter`` PA-I updates on sampled triplets (see the module doc); ``X`` by rows,
    ``rel[m, i]`` the relevance level of row i for model m (small integers), ``W`` (models ×
    features) updated in place.  ``active[m]`` 0: model m's triplets are drawn (the random stream is the same) but
    not applied, so models trained in disjoint parts get the weights of one joint run.  Every
    entry must have a row of lower relevance in its group (the wrapper builds
    them so).  Returns the number of updates with a positive hinge loss, or −1 on
    inconsistent shapes.

    Order of the updates: the stream is drawn in chunks of ``drawn_e.shape[0]`` iterations
    (workspace ``drawn_e``, ``drawn_j``, ``sorted_e``, ``sorted_j`` of that length,
    ``starts`` of length models + 1); a chunk's triplets are sorted by model, stably, and
    applied model by model.  A model's update reads and writes its own weights only, so each
    model sees its triplets in the stream's order and gets the weights of the one-at-a-time
    run bit for bit; meanwhile its weight row stays in cache instead of every iteration
    reading a different model's."""
    cdef Py_ssize_t n = xptr.shape[0] - 1, n_ent = ent_model.shape[0]
    cdef Py_ssize_t n_models = W.shape[0], chunk = drawn_e.shape[0]
    if bad_slices(xdata, xind, xptr, n_cols, dense) \
            or rel.shape[1] != n or W.shape[0] != rel.shape[0] or W.shape[1] != n_cols \
            or ent_row.shape[0] != n_ent or ent_lo.shape[0] != n_ent \
            or ent_hi.shape[0] != n_ent or n_ent < 1 or n_iter < 0 or record.shape[1] != 2 \
            or active.shape[0] != n_models or chunk < 1 or drawn_j.shape[0] != chunk \
            or sorted_e.shape[0] != chunk or sorted_j.shape[0] != chunk \
            or starts.shape[0] != n_models + 1:
        return -1
    cdef bint rec = record.shape[0] == n_iter
    cdef Slices X = make_slices(xdata, xind, xptr, n_cols, dense)
    cdef Rng rng
    cdef Py_ssize_t it, c0, c1, nd, q, e, m, i, j, lo, hi, tries, cnt, p, ni, nj, k
    cdef Py_ssize_t updates = 0
    cdef int8_t ri
    cdef const double* vi
    cdef const double* vj
    cdef const int32_t* ii
    cdef const int32_t* ij
    cdef double* wm
    cdef double margin, loss, vv, tau
    rng_seed(&rng, seed)
    with nogil:
        c0 = 0
        while c0 < n_iter:
            c1 = c0 + chunk if c0 + chunk < n_iter else n_iter
            # 1. draw the chunk's triplets (the stream of the one-at-a-time run)
            nd = 0
            for it in range(c0, c1):
                e = <Py_ssize_t>rng_below(&rng, <uint64_t>n_ent)
                m = ent_model[e]
                i = ent_row[e]
                lo = ent_lo[e]
                hi = ent_hi[e]
                ri = rel[m, i]
                j = -1
                for tries in range(64):
                    k = lo + <Py_ssize_t>rng_below(&rng, <uint64_t>(hi - lo))
                    if rel[m, k] < ri:
                        j = k
                        break
                if j < 0:                      # rare lower rows: enumerate them
                    cnt = 0
                    for k in range(lo, hi):
                        if rel[m, k] < ri:
                            cnt = cnt + 1
                    if cnt == 0:
                        continue               # cannot happen with the wrapper's entries
                    cnt = <Py_ssize_t>rng_below(&rng, <uint64_t>cnt)
                    for k in range(lo, hi):
                        if rel[m, k] < ri:
                            if cnt == 0:
                                j = k
                                break
                            cnt = cnt - 1
                if rec:
                    record[it, 0] = e
                    record[it, 1] = j
                if not active[m]:
                    continue
                drawn_e[nd] = e
                drawn_j[nd] = j
                nd = nd + 1
            # 2. sort them by model, stably (counting sort; one triplet is sorted already)
            if nd == 1:
                sorted_e[0] = drawn_e[0]
                sorted_j[0] = drawn_j[0]
            elif nd > 1:
                for m in range(n_models + 1):
                    starts[m] = 0
                for q in range(nd):
                    starts[ent_model[drawn_e[q]] + 1] += 1
                for m in range(n_models):
                    starts[m + 1] += starts[m]
                for q in range(nd):
                    m = ent_model[drawn_e[q]]
                    k = starts[m]
                    sorted_e[k] = drawn_e[q]
                    sorted_j[k] = drawn_j[q]
                    starts[m] = k + 1
            # 3. apply them model by model, each model's in the stream's order
            for q in range(nd):
                if q + AHEAD < nd:
                    _prefetch_row(&X, ent_row[sorted_e[q + AHEAD]])
                    _prefetch_row(&X, sorted_j[q + AHEAD])
                e = sorted_e[q]
                j = sorted_j[q]
                m = ent_model[e]
                i = ent_row[e]
                ni = get_slice(&X, i, &vi, &ii)
                nj = get_slice(&X, j, &vj, &ij)
                wm = &W[m, 0]
                margin = _margin(wm, vi, ii, ni, vj, ij, nj)
                loss = 1.0 - margin
                if loss <= 0.0:
                    continue
                vv = _dist_sq(vi, ii, ni, vj, ij, nj)
                if vv <= 0.0:
                    continue
                tau = fmin(C, loss / vv)
                for p in range(ni):
                    wm[ii[p]] = wm[ii[p]] + tau * vi[p]
                for p in range(nj):
                    wm[ij[p]] = wm[ij[p]] - tau * vj[p]
                updates = updates + 1
            c0 = c1
    return updates
