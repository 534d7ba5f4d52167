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


def numpy_precision_at_k(g: np.ndarray, P: np.ndarray, N: np.ndarray, loss: np.ndarray,
                         allowed: np.ndarray) -> tuple[np.ndarray, float]:
    """Prec@k's most violated labelling of one query in NumPy: ``(coef, Δ)``; ``loss`` and
    ``allowed``: the query's table over (true positives, false positives), the kernel's input
    too (:meth:`repro.rankers.svmperf.PrecisionAtKOracle.losses`)."""
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


def _case(name: str, params: dict, ours, peer, queries: list, repeats: int) -> dict:
    """Checks that ``ours(q)`` and ``peer(q)`` give the same bits on every query, then times
    one call per query of each."""
    for q in queries:
        (c1, d1), (c2, d2) = ours(q), peer(q)
        if c1.tobytes() != c2.tobytes() or d1 != d2:
            raise AssertionError(f"svmperf bench: {name} differs from NumPy at query {q}")
    fns = {"ours": lambda: [ours(q) for q in queries],
           "NumPy (the former oracle body)": lambda: [peer(q) for q in queries]}
    t = interleaved(fns, repeats=repeats)
    return case(f"{name} oracle, MQ2008 Fold1 train, one call per query",
                {"queries": len(queries), **params}, t,
                per_call_us={n: round(1e6 * t.median(n) / len(queries), 2) for n in fns})


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
        rows.append(_case(f"Prec@{k}", {"k": k}, lambda q: prec(q, scores[q]),
                          lambda q: numpy_precision_at_k(scores[q], parts[q][2], parts[q][3],
                                                         *prec.losses(q)),
                          queries, repeats))
    rows.append(_case("ROCArea", {}, lambda q: roc(q, scores[q]),
                      lambda q: numpy_roc_area(scores[q], parts[q][2], parts[q][3]),
                      queries, repeats))
    return rows
