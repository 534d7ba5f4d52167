"""Benchmark group ``svmperf``: the most-violated-constraint oracles of the SVMperf baselines
of Le & Smola (2007), Table 1 (ROCArea and Prec@k of Joachims 2005; ``kernels/svmperf.pyx``
through :class:`repro.rankers.svmperf.ROCAreaOracle` and ``PrecisionAtKOracle``), against the
NumPy bodies the oracles had before the kernel (here: :func:`numpy_roc_area`,
:func:`numpy_precision_at_k`, also the tests' bit-for-bit reference).

Input: the training queries of MQ2008 Fold 1 with both relevant and irrelevant documents (the
queries the n-slack loop asks about), at the scores of a seeded random w; one call per query,
every query once per timed call — as a pass of Algorithm 2 asks.  Both compute the same bits
(checked here on every query).

Timing: :func:`repro.bench.common.interleaved` (rounds of ours, peer with the order rotating;
per-round ratios peer / ours kept as min / median / max).
"""
from __future__ import annotations

import numpy as np

from ..data.load import load_letor
from ..errors import DataCorrupt, DataMissing
from ..rankers.base import dense_matrix
from ..rankers.svmperf import PrecisionAtKOracle, ROCAreaOracle
from .common import case, interleaved


def numpy_roc_area(g: np.ndarray, P: np.ndarray, N: np.ndarray) -> tuple[np.ndarray, float]:
    """ROCArea's most violated labelling of one query in NumPy: ``(coef, Δ)``; ``P``, ``N``
    the positions of its relevant and irrelevant documents (ascending), ``g`` its scores."""
    swapped = (g[P] - 0.25)[:, None] < (g[N] + 0.25)[None, :]
    scale = 1.0 / (P.size * N.size)
    coef = np.zeros(g.shape[0])
    coef[P] = 2.0 * scale * swapped.sum(axis=1)
    coef[N] = -2.0 * scale * swapped.sum(axis=0)
    return coef, scale * float(swapped.sum())


def numpy_precision_losses(P: np.ndarray, N: np.ndarray, k: int):
    """Δ = 1 − a/(a + b) over (true positives a, false positives b) and the allowed pairs
    (a + b ≥ k, Δ > 0)."""
    k = min(k, P.size + N.size)
    a = np.arange(P.size + 1)[:, None]
    b = np.arange(N.size + 1)[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        loss = 1.0 - a / (a + b)
    return loss, (a + b >= k) & (loss > 0)


def numpy_precision_at_k(g: np.ndarray, P: np.ndarray, N: np.ndarray, k: int,
                         losses=None) -> tuple[np.ndarray, float]:
    """Prec@k's most violated labelling of one query in NumPy: ``(coef, Δ)``; ``losses``:
    :func:`numpy_precision_losses` of the query, if made already."""
    loss, allowed = numpy_precision_losses(P, N, k) if losses is None else losses
    P = P[np.argsort(-g[P], kind="stable")]
    N = N[np.argsort(-g[N], kind="stable")]
    cp = np.concatenate(([0.0], np.cumsum(g[P])))
    cn = np.concatenate(([0.0], np.cumsum(g[N])))
    score = (2.0 * cp[:, None] - cp[-1]) + (2.0 * cn[None, :] - cn[-1])
    val = np.where(allowed, loss + score, -np.inf)
    ia, ib = np.unravel_index(int(np.argmax(val)), val.shape)
    coef = np.zeros(g.shape[0])
    coef[P[ia:]] = 2.0
    coef[N[:ib]] = -2.0
    return coef, float(loss[ia, ib])


def bench(data_dir, quick: bool) -> list[dict]:
    repeats = 3 if quick else 9
    try:
        train = load_letor("MQ2008", 1, "train", data_dir)
    except (DataMissing, DataCorrupt, OSError) as exc:
        print(f"  (svmperf oracles skipped: {exc})")
        return []
    X = dense_matrix(train.X)
    w = np.random.default_rng(2005).normal(size=X.shape[1])
    qp = train.query_ptr
    roc = ROCAreaOracle(train.y, qp, 1.0)
    queries = [int(q) for q in np.flatnonzero(roc.active)]
    scores = {q: np.ascontiguousarray(X[qp[q]:qp[q + 1]] @ w) for q in queries}
    parts = {q: roc.split(q) for q in queries}
    rows = []
    for k in (3, 10):
        prec = PrecisionAtKOracle(train.y, qp, 1.0, k)
        losses = {q: numpy_precision_losses(parts[q][2], parts[q][3], k) for q in queries}
        for q in queries:                                      # the same bits, every query
            (c1, d1), (c2, d2) = prec(q, scores[q]), numpy_precision_at_k(
                scores[q], parts[q][2], parts[q][3], k, losses[q])
            if c1.tobytes() != c2.tobytes() or d1 != d2:
                raise AssertionError(f"svmperf bench: Prec@{k} differs from NumPy at query {q}")
        fns = {"ours": lambda: [prec(q, scores[q]) for q in queries],
               "NumPy (the former oracle body)": lambda: [
                   numpy_precision_at_k(scores[q], parts[q][2], parts[q][3], k, losses[q])
                   for q in queries]}
        t = interleaved(fns, repeats=repeats)
        rows.append(case(f"Prec@{k} oracle, MQ2008 Fold1 train, one call per query",
                         {"queries": len(queries), "k": k}, t,
                         per_call_us={n: round(1e6 * t.median(n) / len(queries), 2)
                                      for n in fns}))
    for q in queries:
        (c1, d1), (c2, d2) = roc(q, scores[q]), numpy_roc_area(scores[q], parts[q][2],
                                                              parts[q][3])
        if c1.tobytes() != c2.tobytes() or d1 != d2:
            raise AssertionError(f"svmperf bench: ROCArea differs from NumPy at query {q}")
    fns = {"ours": lambda: [roc(q, scores[q]) for q in queries],
           "NumPy (the former oracle body)": lambda: [
               numpy_roc_area(scores[q], parts[q][2], parts[q][3]) for q in queries]}
    t = interleaved(fns, repeats=repeats)
    rows.append(case("ROCArea oracle, MQ2008 Fold1 train, one call per query",
                     {"queries": len(queries)}, t,
                     per_call_us={n: round(1e6 * t.median(n) / len(queries), 2) for n in fns}))
    return rows
