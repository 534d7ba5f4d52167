"""Conditional models over rankings (Dubey, Machchhar, Bhattacharyya, Chakrabarti, ICDM 2009):
MLE, ExpGain, L₃ and ConvexLoss with Δ from AUC, MAP or NDCG@k (wrapper of the
``repro._kernels.conditional`` kernel, whose docstring gives the formulas).

Model (eq. 2-3): Pr(y | x_q; w) ∝ exp(wᵀφ_po(x_q, y)), y ∈ {±1}^{n⁺n⁻} the good-bad pair
orders of query q, φ_po = s_q Σ_gb y_gb (x_g − x_b).  Objectives, each plus ‖w‖²/C (Sec. 2-3):

* ``MLE``        L₁ = Σ_q log Σ_y exp(−wᵀδφ_q(y))                          (eq. 10, convex)
* ``ExpGain``    −Σ_q log Σ_y Pr(y | x_q; w) G_q(y), G = 1 − Δ               (eq. 6-7)
* ``L3``         L₁ + L₂, L₂ = Σ_q E_{Y∼(9)} Δ_q(Y)                           (eq. 11-12)
* ``ConvexLoss`` Σ_q log Σ_y exp(−wᵀδφ_q(y) + Δ_q(y))                          (eq. 14, convex)

ExpGain with Δ_AUC is evaluated in closed form over the whole hypercube {±1}^{n⁺n⁻} (Sec. 2.3,
Fig. 1 identities); every other objective replaces the sum over y by a sum over a sample Ŷ_q
of valid rankings drawn once per query, before optimisation, by the swap sampler of Fig. 2
(Sec. 4; :mod:`repro.rankers.swap_sampler`), and is minimised by L-BFGS (Sec. 4, [12];
:mod:`repro.rankers.lbfgs`, in fixed-order arithmetic so that the fit does not depend on the
BLAS kernel).  ExpGain and L₃ are not convex (Sec. 2.2, 3): they are run from ``n_inits`` starting
points (w = 0, then random ones) and the best training objective is kept.

Conventions (the paper leaves them open; decided here, stated in the paper's report):

* relevance is binary, good = label ≥ ``relevance_threshold`` (Sec. 1.1; 1 for OHSUMED's
  0/1/2); a query without a good or without a bad document has a single ranking and no
  pairs: it is skipped (``n_queries_skipped_``); a training set where every query is skipped
  is refused;
* the φ_po scale s_q = 1/(n⁺n⁻) is optional (``phi_scale``); the paper omits it "based on
  cross-validation" (Sec. 1.7), so the default is s_q = 1;
* Ŷ_q: ``sample_size`` states drawn by walks of ``walk_length`` moves from restarts
  (``restarts="extremes"``: y_q with probability ``restart_skew``, the worst ranking
  otherwise; ``"set"``: the handcrafted restart set drawn with Pr ∝ exp(``restart_k`` Δ));
  the restart states are part of the sample (Sec. 4 "collect some subset of y⁰, y¹, …");
  y_q is always included (first row), and repeated states are kept once
  (``deduplicate=True``: the sum over all y is replaced by a sum over the distinct sampled y);
* Δ_NDCG uses the cutoff ``ndcg_k`` (10), Δ_MAP the AP of Sec. 1.6.2 divided by n⁺;
* random starting points: w ∼ N(0, init_scale²/d · I) (‖w‖ ≈ init_scale);
* L-BFGS stops when the largest gradient entry falls below ``tol`` times its value at the
  start (at w = 0 for a warm start), when an iteration lowers the objective by a relative
  10⁻¹² or less, or after ``max_iter`` iterations; over a grid of C (``fit_grid``) a convex
  objective is warm-started along the grid from the smallest C up.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from .._kernels import conditional as _kernel
from ..data.queries import check_query_ptr
from ..errors import DataError, check_status, warn_at_limit
from . import deltas as _deltas
from . import swap_sampler as _ss
from .base import LinearRanker, dense_matrix, expand_grid
from .fixed_order import dot, matvec, rmatvec
from .lbfgs import minimize_lbfgs
from .progress import SolverResult, SolverTrace

OBJECTIVES = {"MLE": 0, "L3": 1, "ConvexLoss": 2, "ExpGain": 3}
NONCONVEX = ("ExpGain", "L3")


@dataclass
class GoodFirst:
    """The queries that have both good and bad documents, each reordered good-first
    (stable within each class): ``X`` rows ``query_ptr[q]:query_ptr[q+1]``, the first
    ``n_pos[q]`` good; ``rows`` maps them back to the input rows."""
    X: np.ndarray
    query_ptr: np.ndarray
    n_pos: np.ndarray
    rows: np.ndarray
    n_skipped: int

    @property
    def n_queries(self) -> int:
        return int(self.n_pos.shape[0])

    @property
    def n_neg(self) -> np.ndarray:
        return np.diff(self.query_ptr) - self.n_pos


def good_first(X, y, query_ptr, threshold: float = 1.0) -> GoodFirst:
    """Binarise ``y`` (good = y ≥ threshold) and reorder each usable query good-first; within
    a class, documents are put in the lexicographic order of their feature vectors, so the
    sample (which names documents by position) does not depend on the input order."""
    X = dense_matrix(X)
    y = np.asarray(y, dtype=np.float64)
    qp = check_query_ptr(query_ptr, X.shape[0])
    rows, ptr, npos = [], [0], []
    skipped = 0
    for q in range(qp.shape[0] - 1):
        lo, hi = int(qp[q]), int(qp[q + 1])
        good = y[lo:hi] >= threshold
        p = int(good.sum())
        if p == 0 or p == hi - lo:
            skipped += 1
            continue
        idx = np.arange(lo, hi)
        cls = [idx[good], idx[~good]]
        cls = [c[np.lexsort(X[c].T[::-1])] for c in cls]
        rows.append(np.concatenate(cls))
        ptr.append(ptr[-1] + hi - lo)
        npos.append(p)
    if not rows:
        raise DataError("y: no query has both a good (label ≥ "
                        f"{threshold:g}) and a bad document; nothing to learn from")
    rows = np.concatenate(rows)
    return GoodFirst(np.ascontiguousarray(X[rows]), np.asarray(ptr, dtype=np.int64),
                     np.asarray(npos, dtype=np.int64), rows, skipped)


@dataclass
class Sample:
    """Ŷ of every query of a :class:`GoodFirst`: ``wins`` (flat int32; query q's rows are
    ``row_ptr[q]:row_ptr[q+1]``, each ``n_q`` wins from ``win_ptr[q]``); for every row its
    ``parent`` (the row it is one move away from, index local to its query, -1 for a root:
    y_q or a restart state) and the documents of that move (``down`` lost a win, ``up``
    gained one); the restart index and move number of every row; the number of states drawn
    per query (before removing repeats), and the sampler's counters."""
    wins: np.ndarray
    row_ptr: np.ndarray
    win_ptr: np.ndarray
    parent: np.ndarray
    down: np.ndarray
    up: np.ndarray
    restart: np.ndarray
    step: np.ndarray
    n_drawn: np.ndarray
    attempts: int = 0
    moves: int = 0
    _deltas: dict = field(default_factory=dict, repr=False)

    def query_wins(self, gf: GoodFirst, q: int) -> np.ndarray:
        nq = int(gf.query_ptr[q + 1] - gf.query_ptr[q])
        m = int(self.row_ptr[q + 1] - self.row_ptr[q])
        return self.wins[self.win_ptr[q]:self.win_ptr[q + 1]].reshape(m, nq)

    def deltas(self, gf: GoodFirst, kind: str, k: int = 10) -> np.ndarray:
        """Δ of every sampled ranking (cached per kind and cutoff)."""
        key = (kind, int(k))
        if key not in self._deltas:
            parts = []
            for q in range(gf.n_queries):
                W = self.query_wins(gf, q)
                parts.append(_deltas.deltas(W[:, :gf.n_pos[q]], int(gf.n_neg[q]), kind, k))
            self._deltas[key] = np.ascontiguousarray(np.concatenate(parts))
        return self._deltas[key]

    @property
    def sizes(self) -> np.ndarray:
        """|Ŷ_q| (distinct rankings if deduplicated)."""
        return np.diff(self.row_ptr)


def query_seed(base: bytes, gf: GoodFirst, q: int) -> int:
    """The sampler's seed for query q: a hash of the base seed and the query's content
    (independent of the order in which queries are given)."""
    lo, hi = int(gf.query_ptr[q]), int(gf.query_ptr[q + 1])
    h = hashlib.blake2b(base, digest_size=8)
    h.update(int(gf.n_pos[q]).to_bytes(8, "little"))
    h.update(np.ascontiguousarray(gf.X[lo:hi]).tobytes())
    return int.from_bytes(h.digest(), "little")


#: odd 64-bit multipliers of the row hash of :func:`first_equal_rows` (any constants do)
_ROW_HASH = np.random.default_rng(20090929).integers(0, 2**63, 4096, dtype=np.uint64) * 2 + 1


def first_equal_rows(W: np.ndarray) -> np.ndarray:
    """For every row of the integer matrix ``W``, the index of the first row equal to it.  Rows
    are grouped by a 64-bit hash (a sort of integers, not of byte strings) and the grouping is
    checked against the rows themselves; on a collision the rows are compared as bytes."""
    W = np.ascontiguousarray(W, dtype=np.int32)
    n = W.shape[1]
    if n <= _ROW_HASH.shape[0]:
        h = (W.astype(np.uint64) * _ROW_HASH[:n]).sum(axis=1, dtype=np.uint64)
        _, first, inv = np.unique(h, return_index=True, return_inverse=True)
        f = first[inv.ravel()]
        if np.array_equal(W, W[f]):
            return f
    _, first, inv = np.unique(_ss.wins_to_order_key(W), return_index=True, return_inverse=True)
    return first[inv.ravel()]


def draw_sample(gf: GoodFirst, sample_size: int = 100, walk_length: int = 10,
                restarts: str = "extremes", restart_skew: float = 0.9,
                restart_k: float = -10.0, n_restart_states: int = 11,
                restart_delta: str = "NDCG", ndcg_k: int = 10,
                sampler: str = "rejection_free", deduplicate: bool = True,
                rng: np.random.Generator | int = 0) -> Sample:
    """Draw Ŷ_q for every query (Sec. 4): y_q, then ``sample_size`` states of the swap
    sampler's walks; repeated rankings kept once if ``deduplicate``."""
    rng = np.random.default_rng(rng)
    sample_size, walk_length = int(sample_size), int(walk_length)
    if sample_size < 1:
        raise DataError(f"sample_size: at least one sampled ranking per query, got {sample_size}")
    base = int(rng.integers(0, 2**63)).to_bytes(8, "little")
    seeds = [query_seed(base, gf, q) for q in range(gf.n_queries)]
    wins, restart, step, n_drawn, parent, down, up = [], [], [], [], [], [], []
    row_ptr, win_ptr = [0], [0]
    attempts = moves = 0
    for q in range(gf.n_queries):
        p, nn = int(gf.n_pos[q]), int(gf.n_neg[q])
        orders, probs = _ss.restart_distribution(p, nn, restarts, restart_skew, restart_k,
                                                 n_restart_states, restart_delta, ndcg_k)
        w = _ss.walks(p, nn, orders, probs, sample_size, walk_length, seeds[q], sampler)
        attempts += w.attempts
        moves += w.moves
        W = np.concatenate([_ss.order_wins(_ss.best_order(p, nn), p)[None, :], w.wins])
        r = np.concatenate([[-1], w.restart])
        s = np.concatenate([[0], w.step])
        dn = np.concatenate([[-1], w.down])
        upd = np.concatenate([[-1], w.up])
        par = np.where(s > 0, np.arange(W.shape[0]) - 1, -1)      # a move's parent: the row before
        if deduplicate:
            f = first_equal_rows(W)
            keep = np.flatnonzero(f == np.arange(W.shape[0]))     # y_q (row 0) stays first
            new = np.empty(W.shape[0], dtype=np.int64)
            new[keep] = np.arange(keep.shape[0])                 # kept row -> its new index
            par = np.where(par >= 0, new[f[np.maximum(par, 0)]], -1)
            W, r, s, dn, upd, par = W[keep], r[keep], s[keep], dn[keep], upd[keep], par[keep]
        wins.append(W.ravel())
        restart.append(r)
        step.append(s)
        parent.append(par)
        down.append(dn)
        up.append(upd)
        n_drawn.append(sample_size)
        row_ptr.append(row_ptr[-1] + W.shape[0])
        win_ptr.append(win_ptr[-1] + W.size)
    cat = lambda parts: np.ascontiguousarray(np.concatenate(parts), dtype=np.int32)
    return Sample(cat(wins), np.asarray(row_ptr, np.int64), np.asarray(win_ptr, np.int64),
                  cat(parent), cat(down), cat(up), np.concatenate(restart).astype(np.int32),
                  np.concatenate(step).astype(np.int32), np.asarray(n_drawn, np.int64),
                  attempts, moves)


class ConditionalObjective:
    """f(w) = Σ_q L_q(w) + ‖w‖²/C and ∇f for one objective/Δ on a good-first training set."""

    def __init__(self, gf: GoodFirst, sample: Sample | None, objective: str, delta: str,
                 C: float, phi_scale: bool = False, ndcg_k: int = 10):
        if objective not in OBJECTIVES:
            raise DataError(f"objective: expected one of {tuple(OBJECTIVES)}, got {objective!r}")
        if delta not in _deltas.KINDS:
            raise DataError(f"delta: expected one of {_deltas.KINDS}, got {delta!r}")
        C = float(C)
        if not (C > 0 and np.isfinite(C)):
            raise DataError(f"C: must be positive and finite, got {C}")
        self.gf, self.sample, self.objective, self.delta, self.C = gf, sample, objective, delta, C
        self.closed_form = objective == "ExpGain" and delta == "AUC"
        sizes = np.diff(gf.query_ptr).astype(np.float64)
        npos = gf.n_pos.astype(np.float64)
        self.scale = (1.0 / (npos * (sizes - npos)) if phi_scale
                      else np.ones(gf.n_queries))
        if not self.closed_form:
            if sample is None:
                raise DataError(f"{objective}_{delta} needs a sample of rankings")
            self.delta_values = (np.zeros(int(sample.row_ptr[-1])) if objective == "MLE"
                                 else sample.deltas(gf, delta, ndcg_k))
            # log(1 − Δ) of every row, read by ExpGain only: it does not depend on w
            self._lgain = self.delta_values
            if objective == "ExpGain":
                self._lgain = np.empty_like(self.delta_values)
                check_status(_kernel.log_gains(self.delta_values, self._lgain),
                             "conditional.log_gains")
            m = int(sample.sizes.max())
            self._u = np.empty(m)
            self._gam = np.empty(m)
            self._e2 = np.empty(m)
        else:
            self._work = np.empty(2 * int((gf.n_pos * gf.n_neg).max()))
        self.n_features = gf.X.shape[1]
        self.n_eval = 0

    def loss(self, S: np.ndarray) -> tuple[float, np.ndarray]:
        """Σ_q L_q and its gradient with respect to the scores S (good-first order)."""
        v = np.zeros(S.shape[0])
        S = np.ascontiguousarray(S, dtype=np.float64)
        if self.closed_form:
            f = _kernel.expgain_auc(S, self.gf.query_ptr, self.gf.n_pos, self.scale,
                                    self._work, v)
        else:
            s = self.sample
            f = _kernel.sampled_objective(OBJECTIVES[self.objective], s.wins, s.parent,
                                          s.down, s.up, s.row_ptr, s.win_ptr,
                                          self.gf.query_ptr, self.gf.n_pos,
                                          self.delta_values, self._lgain, self.scale, S,
                                          self._u, self._gam, self._e2, v)
        check_status(f, "conditional.expgain_auc" if self.closed_form
                     else "conditional.sampled_objective")   # cannot fail: arrays built to match
        return float(f), v

    def __call__(self, w) -> tuple[float, np.ndarray]:
        w = np.asarray(w, dtype=np.float64)
        self.n_eval += 1
        f, v = self.loss(matvec(self.gf.X, w))      # fixed order: see .fixed_order
        return f + dot(w, w) / self.C, rmatvec(self.gf.X, v) + (2.0 / self.C) * w


@dataclass(kw_only=True)
class ConditionalResult(SolverResult):
    """The best run over the starting points; ``f_inits``: the final objective of each."""
    f_inits: list


def lbfgs(fun: ConditionalObjective, inits: list[np.ndarray], max_iter: int, tol: float,
          callback=None, keep_history: bool = True,
          g_ref: float | None = None) -> ConditionalResult:
    """Minimise ``fun`` by L-BFGS (:mod:`.lbfgs`: fixed-order arithmetic, so the fit does not
    depend on the BLAS kernel) from each starting point; keep the lowest objective.  Stopping:
    max|∇f| ≤ ``tol`` · max|∇f(w₀)|, a relative decrease ≤ 10⁻¹², or ``max_iter``;
    ``g_ref``: max|∇f| to take in place of max|∇f(w₀)| (a warm start keeps the rule of a
    start from w = 0, as TRON's does)."""
    trace = SolverTrace(callback, keep_history)
    best, finals, total_iter = None, [], 0
    for w0 in inits:
        w0 = np.asarray(w0, dtype=np.float64)
        f0, g0 = fun(w0)
        gtol = tol * max(float(np.abs(g0).max()) if g_ref is None else g_ref, 1e-300)
        trace(total_iter, w0, f=f0)

        def cb(xk, fk):
            nonlocal total_iter
            total_iter += 1
            trace(total_iter, xk, f=fk)

        res = minimize_lbfgs(fun, w0, max_iter=int(max_iter), gtol=gtol, ftol=1e-12,
                             memory=10, f0g0=(f0, g0), callback=cb)
        finals.append(float(res.f))
        if best is None or res.f < best.f:
            best = res
    status = "converged" if best.success else ("max_iter" if best.nit >= max_iter
                                               else best.message)
    warn_at_limit("L-BFGS", status, int(best.nit))
    return ConditionalResult(w=np.asarray(best.x), f=float(best.f), n_iter=total_iter,
                             status=status, seconds=trace.seconds, history=trace.history,
                             f_inits=finals)


class SampleCache:
    """The good-first data and the samples Ŷ drawn by conditional rankers on one training set,
    for the rankers of a fold to share (``ConditionalRanker(sample_cache=...)``): a ranker
    whose data (the same arrays), relevance threshold, sampler settings and integer
    ``random_state`` match an earlier one's reuses its :class:`GoodFirst` and :class:`Sample`
    and starts from the random state the draw left — every fit equals the one that draws
    its own (Sec. 4: Ŷ does not depend on w nor on the objective)."""

    def __init__(self):
        self._entries: dict = {}

    def __repr__(self) -> str:
        return f"SampleCache({len(self._entries)} entries)"

    def get(self, key, data: tuple):
        hit = self._entries.get(key)
        if hit is None or any(a is not b for a, b in zip(hit[0], data)):
            return None
        return hit[1]

    def put(self, key, data: tuple, value) -> None:
        self._entries[key] = (data, value)


class ConditionalRanker(LinearRanker):
    """MLE, ExpGain, L₃ or ConvexLoss (``objective``) with Δ = ``delta`` ∈ {AUC, MAP, NDCG}
    (Dubey et al. 2009); see the module docstring for the conventions.

    After ``fit``: ``coef_`` (w), ``result_`` (:class:`ConditionalResult`), ``sample_``
    (:class:`Sample`, ``None`` for the closed-form ExpGain_AUC), ``n_queries_used_``,
    ``n_queries_skipped_``.  :meth:`fit_grid` over ``C`` draws Ŷ once for the whole grid
    (the same draw as a separate fit with the same ``random_state``); rankers given the same
    ``sample_cache`` (:class:`SampleCache`) draw it once between them."""

    def __init__(self, objective: str = "ConvexLoss", delta: str = "NDCG", C: float = 1.0,
                 ndcg_k: int = 10, sample_size: int = 100, walk_length: int = 10,
                 restarts: str = "extremes", restart_skew: float = 0.9,
                 restart_k: float = -10.0, n_restart_states: int = 11,
                 sampler: str = "rejection_free", deduplicate: bool = True,
                 phi_scale: bool = False, n_inits=None, init_scale: float = 1.0,
                 relevance_threshold: float = 1.0, max_iter: int = 500, tol: float = 1e-5,
                 random_state=0, callback=None, sample_cache: SampleCache | None = None):
        self.objective, self.delta, self.C, self.ndcg_k = objective, delta, C, ndcg_k
        self.sample_size, self.walk_length = sample_size, walk_length
        self.restarts, self.restart_skew, self.restart_k = restarts, restart_skew, restart_k
        self.n_restart_states, self.sampler, self.deduplicate = n_restart_states, sampler, deduplicate
        self.phi_scale, self.n_inits, self.init_scale = phi_scale, n_inits, init_scale
        self.relevance_threshold, self.max_iter, self.tol = relevance_threshold, max_iter, tol
        self.random_state, self.callback = random_state, callback
        self.sample_cache = sample_cache

    @property
    def method_name(self) -> str:
        """The row label of Figure 3: ``MLE``, ``ExpGain_AUC``, ``L_3_MAP``, …"""
        if self.objective == "MLE":
            return "MLE"
        return f"{'L_3' if self.objective == 'L3' else self.objective}_{self.delta}"

    # -- preparation shared by a grid -------------------------------------------------------
    def _check_params(self) -> None:
        if self.objective not in OBJECTIVES:
            raise DataError(f"objective: expected one of {tuple(OBJECTIVES)}, got {self.objective!r}")
        if self.delta not in _deltas.KINDS:
            raise DataError(f"delta: expected one of {_deltas.KINDS}, got {self.delta!r}")
        if self.sampler not in _ss.METHODS:
            raise DataError(f"sampler: expected one of {_ss.METHODS}, got {self.sampler!r}")
        if not (int(self.max_iter) >= 1 and float(self.tol) > 0):
            raise DataError(f"max_iter must be ≥ 1 and tol > 0, got {self.max_iter}, {self.tol}")

    def _sample_key(self, closed_form: bool) -> tuple:
        """What the good-first data and the sample depend on besides the data (the restart
        set's Δ and cutoff only with ``restarts="set"``)."""
        key = ("good_first", float(self.relevance_threshold), int(self.random_state))
        if closed_form:
            return key
        chosen = (self.delta, int(self.ndcg_k)) if self.restarts == "set" else ()
        return key + (int(self.sample_size), int(self.walk_length), self.restarts,
                      float(self.restart_skew), float(self.restart_k),
                      int(self.n_restart_states), chosen, self.sampler, bool(self.deduplicate))

    def _prepare(self, X, y, query_ptr):
        self._check_params()
        rng = np.random.default_rng(self.random_state)
        closed_form = self.objective == "ExpGain" and self.delta == "AUC"
        cache = self.sample_cache
        if cache is not None and not isinstance(self.random_state, (int, np.integer)):
            cache = None                    # a Generator's draws cannot be replayed
        data = (X, y, query_ptr)
        key = None if cache is None else self._sample_key(closed_form)
        hit = None if cache is None else cache.get(key, data)
        if hit is not None:
            gf, sample, state = hit
            rng.bit_generator.state = state
            return gf, sample, rng
        gf = good_first(X, y, query_ptr, float(self.relevance_threshold))
        sample = None
        if not closed_form:
            sample = draw_sample(gf, self.sample_size, self.walk_length, self.restarts,
                                 self.restart_skew, self.restart_k, self.n_restart_states,
                                 self.delta, self.ndcg_k, self.sampler, self.deduplicate, rng)
        if cache is not None:
            cache.put(key, data, (gf, sample, rng.bit_generator.state))
        return gf, sample, rng

    def _inits(self, d: int, rng: np.random.Generator) -> list[np.ndarray]:
        n = self.n_inits
        n = (3 if self.objective in NONCONVEX else 1) if n is None else int(n)
        if n < 1:
            raise DataError(f"n_inits: at least one starting point, got {n}")
        scale = float(self.init_scale) / np.sqrt(d)
        return [np.zeros(d)] + [scale * rng.standard_normal(d) for _ in range(n - 1)]

    def _fit_prepared(self, gf, sample, rng, w0=None) -> "ConditionalRanker":
        """Fit on prepared data; ``w0``: a warm start (a convex objective's solution at a
        smaller C, :meth:`fit_grid`) in place of the starting points, with the stopping rule
        of a start from w = 0."""
        fun = ConditionalObjective(gf, sample, self.objective, self.delta, self.C,
                                   bool(self.phi_scale), int(self.ndcg_k))
        g_ref = None
        if w0 is not None:
            g_ref = float(np.abs(fun(np.zeros(gf.X.shape[1]))[1]).max())
        inits = [w0] if w0 is not None else self._inits(gf.X.shape[1], rng)
        self.result_ = lbfgs(fun, inits, int(self.max_iter), float(self.tol), self.callback,
                             g_ref=g_ref)
        self.coef_ = self.result_.w
        self.sample_ = sample
        self.n_queries_used_ = gf.n_queries
        self.n_queries_skipped_ = gf.n_skipped
        return self

    def _fit_grouped(self, X, y, query_ptr) -> "ConditionalRanker":
        return self._fit_prepared(*self._prepare(X, y, query_ptr))

    def fit_grid(self, data, grid):
        """Over ``C`` only: one sample Ŷ for the whole grid.  A convex objective (MLE,
        ConvexLoss) is fitted along the grid from the largest regularisation (smallest C)
        up, each fit warm-started from the solution at the C before it, with the stopping
        rule of a cold start (the regularisation path of glmnet and scikit-learn's
        ``enet_path``): the same minimum within the stopping tolerance, fewer iterations.  A
        non-convex one (ExpGain, L₃) fits each C from the same starting points as a separate
        fit (results equal separate fits).  Yields in grid order."""
        cands = expand_grid(grid)
        if any(set(c) - {"C"} for c in cands):
            yield from super().fit_grid(data, cands)
            return
        self.check_Xy(data.X, data.y, np.zeros(data.n_docs))
        gf, sample, rng = self._prepare(data.X, data.y, data.query_ptr)
        state = rng.bit_generator.state
        if self.objective in NONCONVEX or self.n_inits not in (None, 1):
            for c in cands:
                model = self.clone().set_params(**c)
                rng.bit_generator.state = state
                yield c, model._fit_prepared(gf, sample, rng)
            return
        fitted, w0 = {}, None
        for i in sorted(range(len(cands)), key=lambda i: float(cands[i]["C"])):
            model = self.clone().set_params(**cands[i])
            rng.bit_generator.state = state
            fitted[i] = model._fit_prepared(gf, sample, rng, w0)
            w0 = model.coef_
        for i, c in enumerate(cands):
            yield c, fitted[i]

