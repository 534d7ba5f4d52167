"""RankBoost (Freund, Iyer, Schapire, Singer, JMLR 2003) for binary relevance within queries —
the RANKBOOST baseline of Dubey et al. (2009), Sec. 5.1.2.

Feedback: every (bad b, good g) pair of the same query is crucial (g should rank above b;
good = label ≥ ``relevance_threshold``, the binary relevance of Dubey et al. Sec. 1.1).  The
feedback is a disjoint union of bipartite sets (one per query), so the pair distribution
factorises, D_t(b, g) = v_t(b) v_t(g) (Freund et al. Sec. 3.3, RankBoost.B; the factorisation
needs no per-query constant: D_1 is uniform over all pairs, v_1 ≡ |P|^{-1/2}, and each update
multiplies v(g) by e^{−α h(g)} and v(b) by e^{α h(b)}).  Each round:

1. potentials π(g) = v(g) Σ_{b∈q} v(b), π(b) = −v(b) Σ_{g∈q} v(g), so that
   r(h) = Σ_{(b,g)} D(b, g)(h(g) − h(b)) = Σ_x π(x) h(x)              (Freund et al. eq. 8);
2. weak ranker (their Fig. 2, WeakLearn for {0,1} threshold rankers; kernel
   ``repro._kernels.rankboost``): h(x) = [x_f > θ] over every feature f and every threshold
   θ between two consecutive distinct values of x_f among the documents of the pairs
   (midpoints), maximising |r| (r = Σ_{x_f > θ} π(x), a running sum in the order of x_f);
   no feature has missing values in LETOR, so q_def is not needed;
3. α = ½ ln((1 + r)/(1 − r)) (their Sec. 3.2, "third method", the choice WeakLearn's
   criterion is derived for);
4. v(g) ← v(g) e^{−α h(g)}, v(b) ← v(b) e^{α h(b)}, renormalised so Σ D = 1.

Final ranking H(x) = Σ_t α_t h_t(x).  Ties in |r| keep the lowest feature, then the highest
threshold.  The number of rounds is the model-selection parameter (``n_rounds``);
:meth:`RankBoost.fit_grid` runs once to the largest and returns prefix models.

Each round costs O(n d) after a one-off sort of every feature.
"""
from __future__ import annotations

import numpy as np

from .._kernels import rankboost as _kernel
from ..errors import DataError
from .base import Ranker, as_matrix, dense_matrix, expand_grid
from .progress import SolverResult, SolverTrace


class _Prepared:
    """Training documents of the queries that have both classes: sorted feature orders
    and the split points between distinct values."""

    def __init__(self, X, y, query_ptr, threshold):
        X = dense_matrix(X)
        good = np.asarray(y) >= threshold
        keep, qidx, npairs = [], [], 0
        for q in range(len(query_ptr) - 1):
            lo, hi = int(query_ptr[q]), int(query_ptr[q + 1])
            p = int(good[lo:hi].sum())
            if 0 < p < hi - lo:
                keep.append(np.arange(lo, hi))
                qidx.append(np.full(hi - lo, len(qidx)))
                npairs += p * (hi - lo - p)
        if not keep:
            raise DataError(f"y: no query has both a good (label ≥ {threshold:g}) and a bad "
                            "document; nothing to learn from")
        rows = np.concatenate(keep)
        self.X = X[rows]
        self.good = good[rows]
        self.query = np.concatenate(qidx)
        self.n_queries = int(self.query[-1]) + 1
        self.n_pairs = npairs
        n, d = self.X.shape
        self.order = np.argsort(-self.X, axis=0, kind="stable").T.copy()    # d × n, descending
        xs = np.take_along_axis(self.X.T, self.order, axis=1)               # d × n sorted values
        self.split = np.ascontiguousarray(xs[:, :-1] > xs[:, 1:], dtype=np.uint8)  # θ after i
        self.mid = 0.5 * (xs[:, :-1] + xs[:, 1:])


def boost(prep: _Prepared, n_rounds: int, callback=None, keep_history: bool = True):
    """``(features, thresholds, alphas, result)`` of ``n_rounds`` RankBoost rounds."""
    n, d = prep.X.shape
    v = np.full(n, prep.n_pairs ** -0.5)
    feats = np.zeros(n_rounds, dtype=np.int64)
    thr = np.zeros(n_rounds)
    alphas = np.zeros(n_rounds)
    trace = SolverTrace(callback, keep_history)
    trace(0, None, r=0.0)
    status, done = "max_iter", n_rounds
    rbuf = np.zeros(1)
    for t in range(n_rounds):
        vg = np.bincount(prep.query, v * prep.good, prep.n_queries)
        vb = np.bincount(prep.query, v * ~prep.good, prep.n_queries)
        pi = np.where(prep.good, v * vb[prep.query], -v * vg[prep.query])
        f, i = _kernel.best_threshold(np.ascontiguousarray(pi), prep.order, prep.split, rbuf)
        if f < 0:
            status, done = "no weak ranker with r ≠ 0", t
            break
        rt = float(np.clip(rbuf[0], -1 + 1e-15, 1 - 1e-15))
        a = 0.5 * np.log((1 + rt) / (1 - rt))
        feats[t], thr[t], alphas[t] = f, prep.mid[f, i], a
        h = prep.X[:, f] > thr[t]
        v = v * np.exp(np.where(prep.good, -a, a) * h)
        z = float(np.bincount(prep.query, v * prep.good, prep.n_queries)
                  @ np.bincount(prep.query, v * ~prep.good, prep.n_queries))
        v /= np.sqrt(z)
        trace(t + 1, None, r=rt, alpha=a, feature=f, Z=z)
    result = SolverResult(w=alphas[:done].copy(), f=float("nan"), n_iter=done, status=status,
                          seconds=trace.seconds, history=trace.history)
    return feats[:done], thr[:done], alphas[:done], result


class RankBoost(Ranker):
    """RankBoost with {0,1} threshold weak rankers for binary relevance (see the module
    docstring).  After ``fit``: ``features_``, ``thresholds_``, ``alphas_`` (one per round),
    ``result_``, ``n_pairs_``."""

    def __init__(self, n_rounds: int = 300, relevance_threshold: float = 1.0, callback=None):
        self.n_rounds, self.relevance_threshold, self.callback = n_rounds, relevance_threshold, callback

    def _check(self) -> int:
        T = int(self.n_rounds)
        if T < 1:
            raise DataError(f"n_rounds: at least one round, got {self.n_rounds}")
        return T

    def _set(self, feats, thr, alphas, result, n_pairs, n_features):
        self.features_, self.thresholds_, self.alphas_ = feats, thr, alphas
        self.result_, self.n_pairs_, self.n_features_ = result, n_pairs, n_features
        return self

    def _fit_grouped(self, X, y, query_ptr) -> "RankBoost":
        T = self._check()
        prep = _Prepared(X, y, query_ptr, float(self.relevance_threshold))
        return self._set(*boost(prep, T, self.callback), prep.n_pairs, prep.X.shape[1])

    def fit_grid(self, data, grid):
        """Over ``n_rounds`` only: one run to the largest, prefix models for the others."""
        cands = expand_grid(grid)
        if any(set(c) - {"n_rounds"} for c in cands):
            yield from super().fit_grid(data, cands)
            return
        self.check_Xy(data.X, data.y, np.zeros(data.n_docs))
        Ts = [int(c["n_rounds"]) for c in cands]
        if min(Ts) < 1:
            raise DataError(f"n_rounds: at least one round, got {min(Ts)}")
        prep = _Prepared(data.X, data.y, data.query_ptr, float(self.relevance_threshold))
        feats, thr, alphas, result = boost(prep, max(Ts), self.callback)
        for c, T in zip(cands, Ts):
            model = self.clone().set_params(**c)
            yield c, model._set(feats[:T], thr[:T], alphas[:T], result, prep.n_pairs,
                                prep.X.shape[1])

    def predict(self, X) -> np.ndarray:
        self._check_fitted("alphas_")
        X = as_matrix(X)
        if X.shape[1] != self.n_features_:
            raise DataError(f"X: expected {self.n_features_} features, got {X.shape[1]}")
        if hasattr(X, "toarray"):
            X = X.toarray()
        H = np.zeros(X.shape[0])
        for f, t, a in zip(self.features_, self.thresholds_, self.alphas_):
            H += a * (X[:, f] > t)
        return H
