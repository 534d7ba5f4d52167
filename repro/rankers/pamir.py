"""PAMIR (Grangier & Bengio 2008): passive-aggressive training of linear ranking models on
sampled triplets — the baseline of Stevens (2010) §8.2–8.4.  Wrapper of the kernel
``repro._kernels.pamir``.

Each iteration samples a triplet (model m, a relevant instance x⁺, a less relevant x⁻ of the
same group) and applies the PA-I update (Crammer et al. 2006, as in PAMIR §3.2):

    ℓ = max(0, 1 − w_m·(x⁺ − x⁻)),   τ = min(C, ℓ / ‖x⁺ − x⁻‖²),   w_m ← w_m + τ (x⁺ − x⁻),

from w_m = 0.  PAMIR's regularisation is the passive-aggressive one (the step stays close to
the previous w in ℓ2, bounded by the aggressiveness C; Stevens calls it "ℓ2² regularization",
line 811); its constant is C here.  The number of iterations and C are the caller's; the seed
must come from the caller (an int or a ``numpy.random.Generator``).

* :func:`pamir_models` trains one model per column of a binary relevance matrix (keywords of
  Corel, topics of RCV1): triplets are drawn over all models at once, a (model, relevant
  instance) pair uniformly, then a non-relevant instance of that model uniformly, so models
  with more relevant instances get more updates (Stevens lines 705–707, 813).  Models without
  a relevant or without a non-relevant instance are left at w = 0 (``trained`` is False).

The kernel also handles graded relevance and groups (a triplet's x⁻ drawn within x⁺'s group);
a query-grouped PAMIR ranker is not offered: its sampling depends on the order of the input
documents, which the suite's rankers must not (``fit`` on shuffled input = ``fit_data``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._kernels import pamir as _kernel
from ..errors import DataError, check_status
from .column_access import RowData


def _seed64(seed) -> int:
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2 ** 63))
    if seed is None:
        raise DataError("seed: PAMIR samples triplets and needs a seed (or a Generator) from "
                        "the caller")
    return int(np.random.default_rng(int(seed)).integers(0, 2 ** 63))


def _check_run(n_iter, C, chunk) -> tuple[int, float, int]:
    try:
        n_iter, C, chunk = int(n_iter), float(C), int(chunk)
    except (TypeError, ValueError):
        raise DataError(f"n_iter, C, chunk: expected an integer, a number and an integer, got "
                        f"{n_iter!r}, {C!r}, {chunk!r}") from None
    if chunk < 1:
        raise DataError(f"chunk: expected an integer ≥ 1, got {chunk}")
    if n_iter < 0:
        raise DataError(f"n_iter: the number of iterations must be ≥ 0, got {n_iter}")
    if not np.isfinite(C) or C <= 0:
        raise DataError(f"C: the PA aggressiveness must be a finite number > 0, got {C!r}")
    return n_iter, C, chunk


def _by_frequency(rows: RowData) -> tuple[RowData, np.ndarray]:
    """The rows with their features renumbered by decreasing number of rows that have them
    (ties by index), each row's values in the new order, and ``pos`` (``pos[f]`` the new
    number of feature f).  The weights the kernel reads are then mostly the few frequent
    features' (on RCV1 the 1,000 most frequent of 47,236 features hold 67 % of the stored
    values), read in increasing address order: about 1.5× faster on RCV1 (``python -m repro
    bench pamir``).  The dot products and
    ‖x⁺ − x⁻‖² are summed in the new order; their last bits may differ from the natural
    order's (measured on RCV1, 10M iterations: weights within 6e-15, every topic's test AP
    equal)."""
    count = np.bincount(rows.indices, minlength=rows.n_cols)
    pos = np.empty(rows.n_cols, dtype=np.int64)
    pos[np.argsort(-count, kind="stable")] = np.arange(rows.n_cols)
    R = sp.csr_matrix((rows.data.copy(), pos[rows.indices], rows.indptr.copy()),
                      shape=(rows.n_rows, rows.n_cols))      # copies: sorting is in place
    R.sort_indices()
    return RowData(R.data, R.indices.astype(np.int32), rows.indptr, rows.n_cols, False), pos


#: iterations drawn before their updates are applied model by model (the kernel's doc): a
#: model's weight row is then read many times while it is in cache — on RCV1 (101 topics)
#: ×2–2.8 per iteration at 2^18–2^20 (``python -m repro bench pamir``); workspace 32 bytes
#: per iteration of a chunk
CHUNK = 1 << 20


def _train(rows: RowData, rel: np.ndarray, model, row, lo, hi, n_iter, C, seed,
           record: np.ndarray | None = None, active: np.ndarray | None = None,
           renumber: bool = True, chunk: int = CHUNK) -> tuple:
    """Run the kernel (sparse rows renumbered by :func:`_by_frequency` unless ``renumber`` is
    false; the stream applied in chunks of ``chunk`` iterations, model by model); ``active``
    (one per model, or None: all) the models whose updates are applied —
    the others stay 0, and each active model gets the weights of the run with every model
    active."""
    seed = _seed64(seed)
    rec = np.zeros((0, 2), dtype=np.int64) if record is None else record
    act = (np.ones(rel.shape[0], dtype=np.uint8) if active is None
           else np.ascontiguousarray(active, dtype=np.uint8))
    pos = None
    if renumber and not rows.dense:
        rows, pos = _by_frequency(rows)
    W = np.zeros((rel.shape[0], rows.n_cols))
    size = max(1, min(chunk, n_iter))
    work = [np.empty(size, dtype=np.int64) for _ in range(4)]
    done = _kernel.pa_triplets(rows.data, rows.indices, rows.indptr, rows.n_cols, rows.dense,
                               rel, model, row, lo, hi, n_iter, C, seed, W, rec, act, *work,
                               np.empty(rel.shape[0] + 1, dtype=np.int64))
    check_status(done, "pamir.pa_triplets")
    if pos is not None:
        W = np.ascontiguousarray(W[:, pos])
    return W, int(done)


@dataclass
class PamirModels:
    """``W[m]`` the weights of model m; ``trained[m]`` False for a model without relevant or
    non-relevant instances (left at 0); ``n_updates`` PA steps with a positive loss;
    ``entries`` the (model, relevant instance) pairs triplets are drawn from."""
    W: np.ndarray
    trained: np.ndarray
    n_iter: int
    C: float
    n_updates: int
    entries: np.ndarray

    def scores(self, X) -> np.ndarray:
        """Scores of every instance of ``X`` under every model (instances × models)."""
        return np.asarray(X @ self.W.T, dtype=np.float64)


def pamir_models(X, Y, n_iter: int, C: float, seed, record: np.ndarray | None = None,
                 models=None, renumber: bool = True, chunk: int = CHUNK) -> PamirModels:
    """One PAMIR model per column of the binary relevance matrix ``Y`` (instances × models,
    dense or sparse; non-zero = relevant), trained jointly for ``n_iter`` iterations.
    ``models`` (indices of columns, or None: all): fit only these — the triplets of every
    model are still drawn, so each fitted model is exactly the joint run's and a run can be
    split into parts by models; the others are left at 0 (``trained`` False).
    ``record`` (tests): an (n_iter, 2) int64 array receiving the entry and the non-relevant
    instance drawn at every iteration.  ``renumber`` False: the kernel reads sparse features
    in their own numbering (slower; the benchmark's peer; last bits may differ).  ``chunk``:
    iterations drawn before they are applied model by model (1: each as it is drawn, slower;
    the weights are the same bits for every value)."""
    rows = RowData.from_matrix(X)
    n_iter, C, chunk = _check_run(n_iter, C, chunk)
    Yb = (Y.toarray() if sp.issparse(Y) else np.asarray(Y)) != 0
    if Yb.ndim != 2 or Yb.shape[0] != rows.n_rows:
        raise DataError(f"Y: expected {rows.n_rows} rows (one per instance) of relevance "
                        f"indicators, got shape {Yb.shape}")
    n = rows.n_rows
    npos = Yb.sum(axis=0)
    trained = (npos > 0) & (npos < n)
    if not trained.any():
        raise DataError("Y: no model has both relevant and non-relevant instances")
    rel = np.ascontiguousarray(Yb.T, dtype=np.int8)          # levels 0/1: one byte each
    model, row = np.nonzero(rel * trained[:, None])
    model = model.astype(np.int64)
    row = row.astype(np.int64)
    lo = np.zeros(model.size, dtype=np.int64)
    hi = np.full(model.size, n, dtype=np.int64)
    active = None
    if models is not None:
        idx = np.asarray(models).ravel()
        if idx.size and (idx.dtype.kind not in "iu" or idx.min() < 0 or idx.max() >= Yb.shape[1]):
            raise DataError(f"models: expected indices of Y's {Yb.shape[1]} columns, got "
                            f"{models!r}")
        active = np.zeros(Yb.shape[1], dtype=np.uint8)
        active[idx] = 1
        trained = trained & (active == 1)
    W, done = _train(rows, rel, model, row, lo, hi, n_iter, C, seed, record, active, renumber,
                     chunk)
    return PamirModels(W, trained, n_iter, C, done, np.stack([model, row], axis=1))
