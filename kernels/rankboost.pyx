# cython: language_level=3
"""RankBoost weak learner (Freund et al. 2003, Fig. 2, for {0,1} threshold rankers).

Kernel of ``repro.rankers.rankboost`` (which computes the potentials π, sorts every feature
once and applies the update).  For each feature f, documents in decreasing order of x_f
(``order[f]``), r(θ) = Σ_{x_f > θ} π(x) is the running sum of π along that order; a threshold
may be placed after position i only where the next value is smaller (``split[f, i]``).
Returns the (f, i) with the largest |r| — the first one met: lowest feature, then earliest
position (highest threshold) — and writes r to ``out_r[0]``; f = -1 when every |r| is 0.
O(n d) per call, one nogil loop.
"""
from libc.math cimport fabs
from libc.stdint cimport int64_t, uint8_t


def best_threshold(const double[::1] pi, const int64_t[:, ::1] order,
                   const uint8_t[:, ::1] split, double[::1] out_r):
    cdef Py_ssize_t d = order.shape[0], n = order.shape[1], f, i
    cdef Py_ssize_t bf = -1, bi = -1
    cdef double r, best = 0.0, best_r = 0.0
    if (pi.shape[0] != n or split.shape[0] != d or (n > 0 and split.shape[1] != n - 1)
            or out_r.shape[0] < 1):
        return -1, -1
    with nogil:
        for f in range(d):
            r = 0.0
            for i in range(n - 1):
                r = r + pi[order[f, i]]
                if split[f, i] and fabs(r) > best:
                    best = fabs(r)
                    best_r = r
                    bf = f
                    bi = i
        out_r[0] = best_r
    return bf, bi
