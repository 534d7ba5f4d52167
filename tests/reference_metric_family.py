"""The five NDCG implementations the suite had before ``repro.metrics.family``,
frozen verbatim as references: the family must reproduce each to the last bit.

* ``lesmola_ndcg_at`` — ``repro/papers/lesmola2007/tasks.py`` ``ndcg_at`` (with
  ``positions`` and the ``"ndcg"`` branch of ``repro/rankers/dorm.py`` ``loss_vectors``);
* ``dorm_ndcg_vectors`` — that ``"ndcg"``/``"mwta"`` branch of ``loss_vectors``;
* ``deltas_*`` — ``repro/rankers/deltas.py`` ``discount``, ``ap_from_ranks``,
  ``ndcg_from_ranks``, ``ranks_from_scores``;
* ``dubey_paper_measures`` — the per-query loop of ``repro/papers/dubey2009/protocol.py``
  ``paper_measures`` (per-query values instead of their means);
* ``yahoo_ndcg10`` — ``repro/metrics/ranking.py`` ``yahoo_ndcg10``.
"""
import numpy as np


def dorm_ndcg_vectors(labels, n):
    r = np.asarray(labels, dtype=np.float64)
    l = r.shape[0]
    i = np.arange(1, l + 1, dtype=np.float64)
    a = np.where(i <= n, 1.0 / np.log2(i + 1.0), 0.0)
    gain = 2.0 ** r - 1.0
    ideal = float(np.sort(gain)[::-1] @ a)
    b = gain / ideal if ideal > 0 else np.zeros(l)
    return a, b


def _positions(scores):
    pos = np.empty(scores.shape[0], dtype=np.int64)
    pos[np.argsort(-scores, kind="stable")] = np.arange(scores.shape[0])
    return pos


def lesmola_ndcg_at(y, scores, query_ptr, n=10):
    out = np.empty(len(query_ptr) - 1)
    for q in range(len(query_ptr) - 1):
        lo, hi = query_ptr[q], query_ptr[q + 1]
        a, b = dorm_ndcg_vectors(y[lo:hi], n)
        out[q] = float(a[_positions(scores[lo:hi])] @ b)
    return out


def deltas_discount(k, length):
    i = np.arange(length, dtype=np.float64)
    d = np.where(i <= 1, 1.0, 1.0 / np.log2(np.maximum(i, 1.0) + 1.0))
    d[i >= k] = 0.0
    return d


def deltas_ap_from_ranks(ranks):
    ranks = np.asarray(ranks, dtype=np.float64)
    n_pos = ranks.shape[-1]
    return ((1.0 + np.arange(n_pos)) / (1.0 + ranks)).sum(axis=-1) / n_pos


def deltas_ndcg_from_ranks(ranks, k):
    ranks = np.asarray(ranks, dtype=np.int64)
    n_pos = ranks.shape[-1]
    D = deltas_discount(k, max(k, int(ranks.max(initial=0)) + 1))
    ideal = D[:min(n_pos, k)].sum()
    return D[ranks].sum(axis=-1) / ideal


def deltas_ranks_from_scores(good, scores, rng=None):
    scores = np.asarray(scores, dtype=np.float64)
    if rng is None:
        order = np.argsort(-scores, kind="stable")
    else:
        order = np.lexsort((rng.random(scores.shape[0]), -scores))
    return np.flatnonzero(np.asarray(good, dtype=bool)[order])


def dubey_paper_measures(y, scores, query_ptr, k, rng=None, threshold=1.0):
    """Per query (NaN without a good document): (AP, NDCG@k)."""
    Q = len(query_ptr) - 1
    ap, nd = np.full(Q, np.nan), np.full(Q, np.nan)
    for q in range(Q):
        sl = slice(query_ptr[q], query_ptr[q + 1])
        good = y[sl] >= threshold
        if not good.any():
            continue
        r = deltas_ranks_from_scores(good, scores[sl], rng)[None, :]
        ap[q] = deltas_ap_from_ranks(r)[0]
        nd[q] = deltas_ndcg_from_ranks(r, k)[0]
    return ap, nd


def yahoo_ndcg10(y, s, query_ptr):
    y = np.asarray(y, dtype=np.float64)
    s = np.asarray(s, dtype=np.float64)
    qp = np.asarray(query_ptr, dtype=np.int64)
    Q = qp.shape[0] - 1
    if Q <= 0:
        return float("nan")
    sizes = np.diff(qp)
    qdoc = np.repeat(np.arange(Q), sizes)
    pos = np.arange(qdoc.shape[0]) - np.repeat(qp[:-1], sizes)
    top = pos < 10
    disc = 1.0 / np.log2(pos[top] + 2.0)

    def dcg(order):
        gain = 2.0 ** y[order[top]] - 1.0
        return np.bincount(qdoc[top], gain * disc, minlength=Q)

    got = dcg(np.lexsort((-s[qp[0]:qp[-1]], qdoc)) + qp[0])
    ideal = dcg(np.lexsort((-y[qp[0]:qp[-1]], qdoc)) + qp[0])
    ok = ideal != 0
    vals = np.ones(Q)
    vals[ok] = got[ok] / ideal[ok]
    return float(vals.mean())
