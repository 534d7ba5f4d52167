"""Benchmark group ``pamir``: PAMIR's passive-aggressive triplet updates (the baseline of
Stevens 2010 §8.2–8.4; kernel ``kernels/pamir.pyx``) on the RCV1 stand-in (its five subsets
pooled), every topic trained jointly as in the Reuters study, against two peers in the same
run:

* the same kernel reading the rows in their natural feature numbering (what it read before
  issue 28: the weights then sit wherever the features' numbers put them);
* PA-I in NumPy on the same triplets, one at a time (sparse rows, the update of
  ``tests/reference_pamir.py``), on a tenth of the iterations and scaled (its time per
  iteration does not depend on the count: every iteration is the same work).

The renumbering by decreasing feature frequency changes where the weights are stored and the
order of the sums (last bits: the maximal difference of the weights is recorded).  Without
the RCV1 subsets, a synthetic text-like set (Zipf-distributed features) stands in."""
from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from .._kernels import pamir as kernel
from ..data.multilabel import load_rcv1_subset
from ..errors import DataCorrupt, DataMissing
from ..rankers import pamir as P
from ..rankers.column_access import RowData
from .common import case, interleaved


def _zipf_docs(n: int, d: int, nnz: int, topics: int, seed: int):
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, d + 1)
    p /= p.sum()
    rows = [np.unique(rng.choice(d, nnz, p=p)) for _ in range(n)]
    indptr = np.cumsum([0] + [r.size for r in rows])
    X = sp.csr_matrix((rng.random(indptr[-1]), np.concatenate(rows), indptr), shape=(n, d))
    Y = rng.random((n, topics)) < rng.uniform(0.005, 0.2, topics)
    return X, Y, "synthetic Zipf documents (RCV1 subsets not in the data directory)"


def _rcv1(data_dir):
    """The five MULAN RCV1-v2 subsets pooled (the Reuters study's data before its split)."""
    parts = [load_rcv1_subset(k, data_dir) for k in (1, 2, 3, 4, 5)]
    return (sp.vstack([p.X for p in parts]).tocsr(), sp.vstack([p.Y for p in parts]).toarray(),
            "RCV1 stand-in: MULAN RCV1-v2 subsets 1–5 pooled (the Reuters study's data)")


def _numpy_pa(rows: RowData, triplets, C: float, n_models: int) -> np.ndarray:
    """PA-I on given triplets (model, relevant row, other row), sparse rows, in NumPy."""
    W = np.zeros((n_models, rows.n_cols))
    ptr, ind, dat = rows.indptr, rows.indices, rows.data
    for m, i, j in triplets:
        ii, vi = ind[ptr[i]:ptr[i + 1]], dat[ptr[i]:ptr[i + 1]]
        ij, vj = ind[ptr[j]:ptr[j + 1]], dat[ptr[j]:ptr[j + 1]]
        w = W[m]
        loss = 1.0 - (w[ii] @ vi - w[ij] @ vj)
        if loss <= 0:
            continue
        v = np.zeros(rows.n_cols)
        v[ii] += vi
        v[ij] -= vj
        u = np.union1d(ii, ij)
        vv = v[u] @ v[u]
        if vv > 0:
            tau = min(C, loss / vv)
            w[ii] += tau * vi
            w[ij] -= tau * vj
    return W


def bench(data_dir, quick: bool) -> list[dict]:
    """One joint PAMIR fit (C = 0.1): ours against the natural numbering and NumPy; the
    renumbering (once per fit, outside the timed calls) is timed on its own."""
    try:
        X, Y, what = _rcv1(data_dir)
    except (DataMissing, DataCorrupt, OSError):
        X, Y, what = _zipf_docs(5000 if quick else 15000, 47000, 80, 101, seed=2008)
    n_iter = 200_000 if quick else 1_000_000
    repeats = 3 if quick else 5
    C = 0.1
    rows = RowData.from_matrix(X)
    Yb = np.asarray(Y) != 0
    rel = np.ascontiguousarray(Yb.T, dtype=np.int8)
    trained = (Yb.sum(axis=0) > 0) & (Yb.sum(axis=0) < Yb.shape[0])
    model, row = np.nonzero(rel * trained[:, None])
    model, row = model.astype(np.int64), row.astype(np.int64)
    lo = np.zeros(model.size, dtype=np.int64)
    hi = np.full(model.size, rows.n_rows, dtype=np.int64)
    t0 = time.perf_counter()
    renumbered, pos = P._by_frequency(rows)
    renumber_s = time.perf_counter() - t0
    seed = P._seed64(7)

    def fit(n, r=renumbered, record=None):
        """The kernel on rows ``r`` (renumbered: ours; ``rows``: the natural numbering), the
        weights in the natural numbering."""
        W = np.zeros((rel.shape[0], r.n_cols))
        kernel.pa_triplets(r.data, r.indices, r.indptr, r.n_cols, False, rel, model, row, lo,
                           hi, n, C, seed, W,
                           np.zeros((0, 2), dtype=np.int64) if record is None else record,
                           np.ones(rel.shape[0], dtype=np.uint8))
        return W[:, pos] if r is renumbered else W

    ours, nat = fit(n_iter), fit(n_iter, rows)
    diff = float(np.max(np.abs(ours - nat)))
    n_np = n_iter // 10
    rec = np.zeros((n_np, 2), dtype=np.int64)
    check = fit(n_np, record=rec)
    ent = np.stack([model, row], axis=1)[rec[:, 0]]
    triplets = np.column_stack([ent, rec[:, 1]])
    np_err = float(np.max(np.abs(_numpy_pa(rows, triplets, C, rel.shape[0]) - check)))
    fns = {"ours": lambda: fit(n_iter),
           "same kernel, natural feature numbering": lambda: fit(n_iter, rows),
           "NumPy, one triplet at a time (×10 of a tenth)":
               lambda: _numpy_pa(rows, triplets, C, rel.shape[0])}
    t = interleaved(fns, repeats=repeats)
    name = "NumPy, one triplet at a time (×10 of a tenth)"
    t.times[name] = [10 * x for x in t.times[name]]
    return [case("joint PAMIR fit, all topics", {"data": what, "documents": rows.n_rows,
                                                  "features": rows.n_cols,
                                                  "models": int(trained.sum()),
                                                  "iterations": n_iter, "C": C},
                 t, renumbering_s=round(renumber_s, 4),
                 max_abs_difference_of_W_natural_order=diff,
                 max_abs_difference_of_W_numpy=np_err)]
