"""The ROCArea and Prec@k structural SVMs of Joachims (2005), "A support vector method for
multivariate performance measures" (SVMperf), as per-query n-slack baselines of Le & Smola
(2007), Table 1 and Sec. 6.3–6.5, in the same framework as DORM (:mod:`.structsvm`).

Labels are binarised: a document is relevant iff its label ≥ ``relevant_min`` (default 1, the
LETOR convention of P@k and MAP).  Each query with both relevant and irrelevant documents is
one structured example; the others carry no constraint.  Scores are g = w·x.

* ROCArea (Joachims 2005, Sec. 4.2): the output is a pairwise labelling y'_ij ∈ {±1} of the
  (relevant i, irrelevant j) pairs of the query, Ψ(x, y') = (1/|P||N|) Σ_ij y'_ij (x_i − x_j),
  Δ = (number of pairs with y'_ij = −1)/(|P||N|) (one minus the query's ROC area at ties
  counted wrong).  The most violated y' swaps exactly the pairs with g_i − ¼ < g_j + ¼
  (the ±¼ shift of Joachims' Algorithm 3).
* Prec@k (Sec. 4.1, SVMperf's ``find_most_violated_constraint_thresholdmetric``): the output
  is a labelling y' ∈ {±1}^l with at least k positive predictions (a true and b false
  positives, a + b ≥ k), Ψ(x, y') = Σ_d y'_d x_d, Δ = 1 − a/(a + b) (SVMperf's loss /100).
  For each (a, b) the best labelling marks the a highest-scored relevant and the b
  highest-scored irrelevant documents positive; the pair maximising Δ + w·Ψ is taken among
  those with Δ > 0 (as SVMperf).  k larger than the query is cut to its size.

Both oracles run in the ``svmperf`` kernel, a query per call (their NumPy bodies are its
reference in ``tests/reference_svmperf.py``: the same bits).
"""
from __future__ import annotations

import numpy as np

from .._kernels import svmperf as _kernel
from ..errors import DataError, check_status
from .base import LinearRanker
from .structsvm import StructuralRanker


class _BinaryOracle:
    def __init__(self, y, query_ptr, relevant_min):
        self.query_ptr = np.asarray(query_ptr, dtype=np.int64)
        self.rel = np.asarray(y, dtype=np.float64) >= relevant_min
        Q = self.query_ptr.shape[0] - 1
        npos = np.add.reduceat(self.rel.astype(np.int64), self.query_ptr[:-1]) if Q else []
        sizes = np.diff(self.query_ptr)
        self.active = (np.asarray(npos) > 0) & (np.asarray(npos) < sizes)
        self._split = {}

    def split(self, q):
        """``(lo, hi, P, N)`` of query q: its offsets and the positions (within the query) of
        its relevant and irrelevant documents (made once per query, asked at every pass)."""
        out = self._split.get(q)
        if out is None:
            lo, hi = self.query_ptr[q], self.query_ptr[q + 1]
            rel = self.rel[lo:hi]
            out = self._split[q] = (lo, hi, np.flatnonzero(rel), np.flatnonzero(~rel))
        return out


def _scores(g, lo, hi) -> np.ndarray:
    g = np.ascontiguousarray(g, dtype=np.float64)
    if g.shape != (hi - lo,):
        raise DataError(f"oracle: expected {hi - lo} scores (the query's documents), got "
                        f"shape {g.shape}")
    return g


class ROCAreaOracle(_BinaryOracle):
    def __call__(self, q, g):
        lo, hi, P, N = self.split(q)
        g = _scores(g, lo, hi)
        scale = 1.0 / (P.size * N.size)
        coef = np.empty(hi - lo)
        swapped = check_status(_kernel.roc_area(g, P, N, scale, coef), "svmperf.roc_area")
        return coef, scale * float(swapped)


class PrecisionAtKOracle(_BinaryOracle):
    def __init__(self, y, query_ptr, relevant_min, k):
        super().__init__(y, query_ptr, relevant_min)
        self.k = int(k)
        self._losses = {}

    def losses(self, q):
        """``(loss, allowed)`` of query q over (true positives a, false positives b): Δ =
        1 − a/(a + b) and whether (a, b) is a candidate (a + b ≥ k, Δ > 0); they depend on
        the query's counts only, so are made once per query (``allowed`` as bytes, for the
        kernel)."""
        out = self._losses.get(q)
        if out is None:
            lo, hi, P, N = self.split(q)
            k = min(self.k, hi - lo)
            a = np.arange(P.size + 1)[:, None]            # true positives
            b = np.arange(N.size + 1)[None, :]            # false positives
            with np.errstate(invalid="ignore", divide="ignore"):
                loss = 1.0 - a / (a + b)
            allowed = ((a + b >= k) & (loss > 0)).view(np.uint8)
            out = self._losses[q] = (np.ascontiguousarray(loss), allowed)
        return out

    def __call__(self, q, g):
        lo, hi, P, N = self.split(q)
        g = _scores(g, lo, hi)
        loss, allowed = self.losses(q)
        order_p, order_n = P.copy(), N.copy()     # sorted by the kernel from the split's order
        coef = np.empty(hi - lo)
        ab = np.empty(2, dtype=np.int64)
        status = _kernel.precision_at_k(g, order_p, order_n, loss, allowed,
                                        np.empty(P.size + 1), np.empty(N.size + 1), coef, ab)
        check_status(status, "svmperf.precision_at_k", lambda code: DataError(
            f"Prec@k oracle: query {q} has no labelling with at least k = {self.k} positive "
            f"predictions and a positive loss") if code == -3 else None)
        return coef, float(loss[ab[0], ab[1]])


class ROCAreaSVM(StructuralRanker, LinearRanker):
    """Per-query ROCArea structural SVM (Joachims 2005), n-slack, linear.  Parameters as
    :class:`~repro.rankers.dorm.DORM` (``C``, ``eps``, ``qp_tol``, ``max_iter``) and
    ``relevant_min`` (binarisation)."""

    def __init__(self, C: float = 1.0, eps: float = 0.01, qp_tol: float | None = None,
                 max_iter: int = 1000, relevant_min: float = 1.0, callback=None):
        self.C, self.eps, self.qp_tol, self.max_iter = C, eps, qp_tol, max_iter
        self.relevant_min, self.callback = relevant_min, callback

    def _oracle(self, y, query_ptr):
        return ROCAreaOracle(y, query_ptr, float(self.relevant_min))


class PrecisionAtKSVM(StructuralRanker, LinearRanker):
    """Per-query Prec@k structural SVM (Joachims 2005 / SVMperf), n-slack, linear; ``k`` the
    cut-off (Table 1: 10; Sec. 6.4: 3)."""

    def __init__(self, C: float = 1.0, k: int = 10, eps: float = 0.01,
                 qp_tol: float | None = None, max_iter: int = 1000, relevant_min: float = 1.0,
                 callback=None):
        self.C, self.k, self.eps, self.qp_tol, self.max_iter = C, k, eps, qp_tol, max_iter
        self.relevant_min, self.callback = relevant_min, callback

    def _oracle(self, y, query_ptr):
        if int(self.k) < 1:
            raise ValueError(f"k must be at least 1, got {self.k!r}")
        return PrecisionAtKOracle(y, query_ptr, float(self.relevant_min), int(self.k))
