"""Benchmark group ``pamir``: PAMIR's passive-aggressive triplet updates (the baseline of
Stevens 2010 §8.2–8.4; kernel ``kernels/pamir.pyx``) on the RCV1 stand-in (its five subsets
pooled), every topic trained jointly as in the Reuters study, against two peers in the same
run:

* the same kernel applying each triplet as it is drawn, to the rows in their natural feature
  numbering (what it did before the renumbering: every iteration then reads a different model's
  weights, wherever the features' numbers put them);
* the same kernel applying each triplet as it is drawn, to the renumbered rows (the two
  changes' shares);
* PA-I in NumPy on the same triplets, one at a time (sparse rows, the update of
  ``tests/reference_pamir.py``), on a tenth of the iterations and scaled (its time per
  iteration does not depend on the count: every iteration is the same work).

The renumbering by decreasing feature frequency changes where the weights are stored and the
order of the sums (last bits: the maximal difference of the weights is recorded); applying a
chunk's triplets model by model changes no bit (checked here).  Without
the RCV1 subsets, a synthetic text-like set (Zipf-distributed features) stands in."""
from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

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
    """One joint PAMIR fit (C = 0.1): ours (renumbering included, chunks applied model by
    model) against each triplet as drawn (natural and renumbered) and NumPy; the renumbering is
    also timed on its own."""
    try:
        X, Y, what = _rcv1(data_dir)
    except (DataMissing, DataCorrupt, OSError):
        X, Y, what = _zipf_docs(5000 if quick else 15000, 47000, 80, 101, seed=2008)
    n_iter = 200_000 if quick else 4_000_000        # the study fits 10M and 100M
    repeats = 3 if quick else 5
    C, seed = 0.1, 7
    rows = RowData.from_matrix(X)

    def fit(n, renumber=True, record=None, chunk=P.CHUNK):
        return P.pamir_models(rows, Y, n, C, seed=seed, record=record, renumber=renumber,
                              chunk=chunk)

    t0 = time.perf_counter()
    P._by_frequency(rows)
    renumber_s = time.perf_counter() - t0
    ours = fit(n_iter)
    diff = float(np.max(np.abs(ours.W - fit(n_iter, renumber=False).W)))
    same_as_drawn = bool(np.array_equal(ours.W, fit(n_iter, chunk=1).W))
    n_np = n_iter // 10
    rec = np.zeros((n_np, 2), dtype=np.int64)
    check = fit(n_np, record=rec)
    triplets = np.column_stack([check.entries[rec[:, 0]], rec[:, 1]])
    n_models = check.W.shape[0]
    np_err = float(np.max(np.abs(_numpy_pa(rows, triplets, C, n_models) - check.W)))
    name = "NumPy, one triplet at a time (×10 of a tenth)"
    fns = {"ours": lambda: fit(n_iter),
           "same kernel, each triplet as drawn, natural feature numbering":
               lambda: fit(n_iter, renumber=False, chunk=1),
           "same kernel, each triplet as drawn, renumbered": lambda: fit(n_iter, chunk=1),
           name: lambda: _numpy_pa(rows, triplets, C, n_models)}
    t = interleaved(fns, repeats=repeats)
    t.times[name] = [10 * x for x in t.times[name]]
    return [case("joint PAMIR fit, all topics", {"data": what, "documents": rows.n_rows,
                                                  "features": rows.n_cols,
                                                  "models": int(ours.trained.sum()),
                                                  "iterations": n_iter, "C": C},
                 t, renumbering_s=round(renumber_s, 4),
                 max_abs_difference_of_W_natural_order=diff,
                 W_identical_to_each_triplet_as_drawn=same_as_drawn,
                 max_abs_difference_of_W_numpy=np_err)]
