# cython: language_level=3
"""Per-query P@k, AP, NDCG@k and MeanNDCG exactly as the official LETOR scripts compute them.

Kernel of ``repro.metrics.letor_eval`` (which sorts, checks and documents the conventions).
Inputs are labels already in ranked order (``ranked``) and in ideal order (``ideal``), query
by query (offsets ``query_ptr``).  The arithmetic is the scripts' own, operation for
operation, so that results agree to the last bit:

* gain ``2^r - 1``; relevant iff ``r > 0``;
* DCG at 0-based position ``i``: ``dcg[i] = dcg[i-1] + g`` for ``i < 2``, otherwise
  ``dcg[i-1] + (g * log(2.0)) / log(i + 1.0)`` (libm ``log``, as Perl);
* ``NDCG@k = dcg[k-1] / ideal_dcg[k-1]``, 0 when the ideal DCG is 0;
* ``AP = (Σ_{relevant i} rel_so_far / (i + 1)) / n_relevant``, 0 with no relevant document;
* MeanNDCG (4.0) is the sequential sum of NDCG@1..n divided by ``n``.

Positions ``k`` beyond a query's length: ``version == 4`` gives ``P@k = n_relevant / k`` and
``NDCG@k = 0``; ``version == 3`` gives 0 for both (undefined in the script, which the average
then counts as 0).  Averages are sequential sums over queries in ``avg_order`` (the scripts
sort query ids numerically) divided by the number of queries.
"""
from libc.math cimport log, pow
from libc.stdint cimport int64_t


def query_metrics(const double[::1] ranked, const double[::1] ideal,
                  const int64_t[::1] query_ptr, const int64_t[::1] avg_order,
                  int version, double[:, ::1] prec, double[:, ::1] ndcg,
                  double[::1] ap, double[::1] mean_ndcg,
                  double[::1] avg_prec, double[::1] avg_ndcg, double[::1] avg_scalars):
    """Fill per-query arrays (``prec``/``ndcg``: queries × K) and their averages.

    ``avg_scalars`` receives ``[MAP, MeanNDCG]``.  Returns 0, or -1 if the array shapes are
    inconsistent (checked in O(1) here because bounds checks are compiled out).
    """
    cdef Py_ssize_t Q = query_ptr.shape[0] - 1
    cdef Py_ssize_t K = prec.shape[1]
    if (Q < 1 or ranked.shape[0] != ideal.shape[0] or query_ptr[Q] != ranked.shape[0]
            or query_ptr[0] != 0 or avg_order.shape[0] != Q or prec.shape[0] != Q
            or ndcg.shape[0] != Q or ndcg.shape[1] != K or ap.shape[0] != Q
            or mean_ndcg.shape[0] != Q or avg_prec.shape[0] != K or avg_ndcg.shape[0] != K
            or avg_scalars.shape[0] < 2):
        return -1
    cdef Py_ssize_t q, i, k, start, n, qq
    cdef double g, gi, dcg, idcg, numrel, apsum, nd, msum
    cdef double ln2 = log(2.0)
    cdef double total
    with nogil:
        for q in range(Q):
            start = query_ptr[q]
            n = query_ptr[q + 1] - start
            numrel = 0.0
            apsum = 0.0
            dcg = 0.0
            idcg = 0.0
            msum = 0.0
            for i in range(n):
                g = pow(2.0, ranked[start + i]) - 1.0
                gi = pow(2.0, ideal[start + i]) - 1.0
                if i < 2:
                    dcg = dcg + g
                    idcg = idcg + gi
                else:
                    dcg = dcg + (g * ln2) / log(i + 1.0)
                    idcg = idcg + (gi * ln2) / log(i + 1.0)
                if ranked[start + i] > 0:
                    numrel = numrel + 1.0
                    apsum = apsum + numrel / (i + 1)
                nd = dcg / idcg if idcg != 0 else 0.0
                msum = msum + nd
                if i < K:
                    prec[q, i] = numrel / (i + 1)
                    ndcg[q, i] = nd
            for k in range(n, K):
                prec[q, k] = numrel / (k + 1) if version == 4 else 0.0
                ndcg[q, k] = 0.0
            ap[q] = apsum / numrel if numrel > 0 else 0.0
            mean_ndcg[q] = msum / n
        for k in range(K):
            total = 0.0
            for qq in range(Q):
                total = total + prec[avg_order[qq], k]
            avg_prec[k] = total / Q
            total = 0.0
            for qq in range(Q):
                total = total + ndcg[avg_order[qq], k]
            avg_ndcg[k] = total / Q
        total = 0.0
        for qq in range(Q):
            total = total + ap[avg_order[qq]]
        avg_scalars[0] = total / Q
        total = 0.0
        for qq in range(Q):
            total = total + mean_ndcg[avg_order[qq]]
        avg_scalars[1] = total / Q
    return 0
