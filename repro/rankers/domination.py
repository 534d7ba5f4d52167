"""Domination Rank: coordinate descent on the domination loss (Stevens 2010, §2–§7), the
wrapper of the kernel ``repro._kernels.domination``.

The loss (eq. 5–7, §3 layers, §4 separable margin): for every *dominating* instance i of a
group (an instance with some instance of lower relevance in its group),

    ℓ(x_i; w) = log(1 + Σ_{j∈D(i)} e^{w·x_j − w·x_i + s(i) − s(j)}),

D(i) = the instances of i's group with lower relevance (all lower layers, §3).  The objective
is Σ ℓ + λ R(w) with R = ‖w‖₁ or ‖w‖₂² (§5).  Each single-coordinate step minimises the
quadratic bound with curvature β_r = Σ_g m_g B_{g,r} (§2, §6.1: m_g dominating instances of
group g, B_{g,r} = max_{j∈g} x_jr²) plus the regulariser, so the objective never increases.

:class:`DominationProblem` holds one training problem (instances split into (group, layer)
blocks, margins s, the curvature bounds and the kernel's cached state) and solves it with

* cyclic sweeps over all features (Alg. 2/4, "Sequential" in the thesis) until one sweep's
  decrease of the objective is at most ``tol`` times the first sweep's (§7.1), or
* feature induction (§7, Alg. 7): ``induction = α`` features per round, chosen among the
  features not yet chosen by the bound (9) on the loss decrease of their next step
  ``−δ_r g_r − β_r δ_r²/2`` (δ_r the regularised step; features with δ_r = 0 are never
  chosen); the chosen features are swept, in index order, until a sweep's decrease is at most
  ``tol`` times the first sweep's; induction ends when no unchosen feature has a positive
  bound, or the best bound is at most ``tol`` times the first sweep's decrease.

Both stop early at ``max_sweeps`` sweeps or ``max_iter`` single-coordinate updates (the
thesis's "iterations"; the last sweep is cut at the budget).

Choices the thesis leaves open (stated here and in the paper's artifacts):

* groups whose instances all have the same relevance contribute no term; their instances are
  left out (an error only if no group has two levels);
* negative sampling (Figures 6–8, 10, 16: "only 10% of the negatives") keeps, once per
  problem and seeded by the caller, ``max(1, round(f·n₀))`` instances of the lowest layer of
  every group, drawn without replacement;
* the stopping threshold ``tol`` (default 1e−4) is ours: §7.1 only says "small".

The cached margins, partition sums and their numerics are described in the kernel.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels import domination as _kernel
from ..errors import DataError, check_status, warn_at_limit
from .base import Ranker, expand_grid, refuse_non_finite
from .column_access import ColumnData
from .progress import SolverResult, SolverTrace

REGULARISERS = {"l1": 1, "l2": 2}
# the kernel's per-instance record (``RowState`` in kernels/domination.pyx)
ROW_STATE = np.dtype([("M", np.float64), ("E", np.float64), ("sig", np.float64),
                      ("block", np.int64)])


def relevance_rank(y: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each instance's layer: the rank of its label among the distinct labels of its group."""
    order = np.lexsort((y, groups))
    ys, gs = y[order], groups[order]
    new = np.ones(y.shape[0], dtype=bool)
    new[1:] = (ys[1:] != ys[:-1]) | (gs[1:] != gs[:-1])
    cls = np.cumsum(new) - 1
    gstart = np.ones(y.shape[0], dtype=bool)
    gstart[1:] = gs[1:] != gs[:-1]
    first = np.maximum.accumulate(np.where(gstart, cls, 0))
    out = np.empty(y.shape[0], dtype=np.int64)
    out[order] = cls - first
    return out


def check_lambda(lam, name: str = "lam") -> float:
    try:
        lam = float(lam)
    except (TypeError, ValueError):
        raise DataError(f"{name}: the regularisation weight must be a number, "
                        f"got {lam!r}") from None
    if not np.isfinite(lam) or lam < 0:
        raise DataError(f"{name}: the regularisation weight must be a finite λ ≥ 0, got {lam!r}")
    return lam


def check_reg(reg) -> int:
    if reg not in REGULARISERS:
        raise DataError(f"reg: the regulariser must be one of {sorted(REGULARISERS)}, got {reg!r}")
    return REGULARISERS[reg]


def regulariser(w: np.ndarray, reg: str) -> float:
    return float(np.abs(w).sum()) if reg == "l1" else float(w @ w)


def steps_for(g: np.ndarray, beta: np.ndarray, w: np.ndarray, lam: float, reg: str) -> np.ndarray:
    """The kernel's step rule, vectorised (feature-induction scores): ℓ2² (§5) or the ℓ1
    soft threshold (Lemmas 1–2 with the corrected third case)."""
    if reg == "l2":
        den = beta + 2 * lam
        return np.where(den > 0, (-g - 2 * lam * w) / np.where(den > 0, den, 1), 0.0)
    u = beta * w - g
    safe = np.where(beta > 0, beta, 1.0)
    d = np.where(u > 0, -(g + lam) / safe, -(g - lam) / safe)
    d = np.where(lam >= np.abs(u), -w, d)
    return np.where(beta > 0, d, -w if lam > 0 else 0.0)


def _top(cand: np.ndarray, gain: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` candidates (ascending indices ``cand``) of largest ``gain``, ties to the lower
    index, in that order: ``cand[np.lexsort((cand, -gain))][:k]``, sorting only the
    candidates at or above the k-th largest gain."""
    neg = -gain
    if cand.size > k:
        kth = np.partition(neg, k - 1)[k - 1]
        above = np.flatnonzero(neg < kth)
        tied = np.flatnonzero(neg == kth)[:k - above.size]
        pick = np.sort(np.concatenate([above, tied]))
        cand, neg = cand[pick], neg[pick]
    return cand[np.lexsort((cand, neg))][:k]


# -- the training problem ----------------------------------------------------------------------

@dataclass(kw_only=True)
class DominationResult(SolverResult):
    """``n_iter``: single-coordinate updates (the thesis's "iterations"); ``f`` the regularised
    objective, ``loss`` its loss part; ``n_sweeps`` sweeps (over all features, or over the
    chosen ones with induction); ``rounds`` feature-induction rounds (0 without induction);
    ``chosen`` the induced features in the order chosen; ``history`` one row per sweep."""
    lam: float
    reg: str
    loss: float
    n_sweeps: int
    rounds: int = 0
    chosen: np.ndarray | None = None

    @property
    def density(self) -> float:
        """Fraction of non-zero weights ("weight density", "percent nonsparse")."""
        return float(np.count_nonzero(self.w)) / max(1, self.w.shape[0])


class DominationProblem:
    """One domination-loss problem: instances ``X`` (dense, sparse or :class:`ColumnData`)
    with relevance ``levels``; ``groups`` (one id per instance; None = one group, the whole
    set pooled as in §8.1.2), separable margins ``margin`` (s(i) per instance; None = 0), and
    ``sample_negatives`` (fraction of each group's lowest layer kept, drawn with ``seed``, an
    int or a ``numpy.random.Generator``, required when the fraction is below 1)."""

    def __init__(self, X, levels, groups=None, margin=None, sample_negatives: float = 1.0,
                 seed=None):
        cols = ColumnData.from_matrix(X)
        n = cols.n_rows
        y = np.asarray(levels, dtype=np.float64)
        if y.shape != (n,):
            raise DataError(f"levels: expected {n} relevance labels (one per document), got "
                            f"shape {y.shape}")
        if not np.all(np.isfinite(y)):
            bad = int(np.flatnonzero(~np.isfinite(y))[0])
            raise DataError(f"levels: label {y[bad]} at document {bad} is not finite")
        if groups is None:
            gid = np.zeros(n, dtype=np.int64)
        else:
            groups = np.asarray(groups)
            if groups.shape != (n,):
                raise DataError(f"groups: expected {n} group ids (one per document), got shape "
                                f"{groups.shape}")
            gid = np.unique(groups, return_inverse=True)[1].ravel().astype(np.int64)
        s = np.zeros(n) if margin is None else np.array(margin, dtype=np.float64)
        if s.shape != (n,):
            raise DataError(f"margin: expected {n} margins s(i) (one per document), got shape "
                            f"{s.shape}")
        if not np.all(np.isfinite(s)):
            raise DataError("margin: the separable margins s(i) must be finite")
        frac = float(sample_negatives)
        if not 0 < frac <= 1:
            raise DataError(f"sample_negatives: the fraction of negatives kept must be in "
                            f"(0, 1], got {sample_negatives!r}")
        layer = relevance_rank(y, gid)
        n_groups = int(gid.max()) + 1
        n_layers = np.zeros(n_groups, dtype=np.int64)
        np.maximum.at(n_layers, gid, layer + 1)
        include = n_layers[gid] >= 2                   # groups with one level: no term
        if not include.any():
            raise DataError("levels: no group has two relevance levels, so no document "
                            "dominates another and the domination loss has no term")
        if frac < 1:
            if seed is None:
                raise DataError("seed: negative sampling needs a seed (or a Generator) from "
                                "the caller")
            rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
            for g in np.flatnonzero(n_layers >= 2):
                neg = np.flatnonzero((gid == g) & (layer == 0))
                keep = max(1, int(round(frac * neg.size)))
                drop = np.setdiff1d(neg, rng.choice(neg, keep, replace=False))
                include[drop] = False
        self.n_docs = n
        self.n_features = cols.n_features
        self.included = np.flatnonzero(include)
        # the kernel's instances: the included ones in block order (group, layer, index), so
        # that every block is a contiguous range and a column's non-zeros come block by block
        # (its loops then keep a block's sums in registers and branch predictably)
        inc = self.included
        order = inc[np.lexsort((inc, layer[inc], gid[inc]))]
        if not np.array_equal(order, np.arange(n)):
            cols = cols.take_rows(order)
            gid, layer, s = gid[order], layer[order], s[order]
            include = np.ones(order.size, dtype=bool)
        self.cols = cols
        self.margin = s
        self._build_blocks(gid, layer, include)
        self.reset()

    # -- blocks and bounds -------------------------------------------------------------------
    def _build_blocks(self, gid, layer, include):
        idx = np.flatnonzero(include)
        order = np.lexsort((idx, layer[idx], gid[idx]))
        rows = idx[order].astype(np.int64)
        g, l = gid[rows], layer[rows]
        new = np.ones(rows.size, dtype=bool)
        new[1:] = (g[1:] != g[:-1]) | (l[1:] != l[:-1])
        starts = np.flatnonzero(new)
        B = starts.size
        bptr = np.append(starts, rows.size).astype(np.int64)
        bgroup = g[starts]
        gnew = np.ones(B, dtype=bool)
        gnew[1:] = bgroup[1:] != bgroup[:-1]
        gptr = np.append(np.flatnonzero(gnew), B).astype(np.int64)
        block_of = np.full(self.cols.n_rows, -1, dtype=np.int64)
        block_of[rows] = np.repeat(np.arange(B, dtype=np.int64), np.diff(bptr))
        # dominating instances per group: all but the group's lowest block (Alg. 1 errata)
        sizes = np.diff(bptr)
        n_groups = gptr.size - 1
        m = np.array([sizes[gptr[k] + 1:gptr[k + 1]].sum() for k in range(n_groups)], float)
        row_group = np.full(self.cols.n_rows, -1, dtype=np.int64)
        row_group[rows] = np.repeat(np.arange(n_groups), np.diff(bptr[gptr]))
        self.beta = np.ascontiguousarray(m @ self.cols.column_max_sq(row_group, n_groups))
        self.rows, self.bptr, self.gptr, self.block_of = rows, bptr, gptr, block_of
        self.n_dominating = int(m.sum())
        self.n_groups = n_groups
        self.n_blocks = B
        self._R = np.zeros(self.cols.n_rows, dtype=ROW_STATE)
        self._R["block"] = block_of
        self._c = np.zeros(B)
        self._T = np.zeros(B)
        self._Terr = np.zeros(B)
        self._work = np.zeros(9 * B)

    def _x(self):
        c = self.cols
        return c.data, c.indices, c.indptr, c.n_rows, c.dense

    def _blk(self):
        return self.rows, self.bptr, self.gptr

    # -- low-level access to the kernel (also used by the tests) ------------------------------
    def reset(self, w=None) -> None:
        """Set the weights (default 0) and recompute the cached state from them."""
        w = np.zeros(self.n_features) if w is None else np.array(w, dtype=np.float64)
        if w.shape != (self.n_features,) or not np.all(np.isfinite(w)):
            raise DataError(f"w: expected {self.n_features} finite weights, got shape {w.shape}")
        self.w = w
        check_status(_kernel.init_state(*self._x(), self.w, self.margin, *self._blk(), self._R,
                                        self._c, self._T, self._Terr, self._work),
                     "domination.init_state")

    def loss(self) -> float:
        """L(w) at the current weights (from the cached state)."""
        return float(_kernel.objective(self.rows, self.bptr, self.gptr, self._R, self._c,
                                       self._T, self._work))

    def gradient(self) -> np.ndarray:
        """∇L(w) at the current weights (one pass over all columns)."""
        out = np.empty(self.n_features)
        check_status(_kernel.gradient(*self._x(), *self._blk(), self._R, self._c, self._T,
                                      self._Terr, self._work, out), "domination.gradient")
        return out

    def steps(self, coords, lam: float, reg: str, record: bool = False,
              visits: np.ndarray | None = None):
        """Single-coordinate updates on ``coords`` in order; returns the number of non-zero
        steps, or with ``record`` the arrays ``(g, δ)`` of every step.  ``visits`` (an int64
        array of one entry): the kernel adds the stored values of X the steps read (each
        step's column for its gradient, and again for a non-zero update)."""
        lam = check_lambda(lam)
        code = check_reg(reg)
        coords = np.ascontiguousarray(coords, dtype=np.int64)
        k = coords.shape[0] if record else 0
        rg, rd = np.zeros(k), np.zeros(k)
        done = _kernel.cd_steps(*self._x(), *self._blk(), self.beta, coords, lam, code, self.w,
                                self._R, self._c, self._T, self._Terr, self._work,
                                rg, rd, visits)
        check_status(done, "domination.cd_steps",
                     lambda code: DataError(f"coords: coordinates must be feature indices in "
                                            f"[0, {self.n_features})"))
        return (rg, rd) if record else done

    # -- solvers ---------------------------------------------------------------------------------
    def solve(self, lam: float, reg: str = "l2", tol: float = 1e-4, max_sweeps: int = 10000,
              max_iter: int | None = None, induction: int | None = None, w0=None,
              reference: float | None = None, callback=None,
              keep_history: bool = True, warn: bool = True) -> DominationResult:
        """Minimise L(w) + λR(w) from ``w0`` (default 0): cyclic sweeps, or feature induction
        with ``induction = α`` features per round (see the module doc for the stopping rules).
        ``reference``: the decrease the stopping rule compares with, if not the first sweep's
        (a warm start passes the first sweep's decrease from w = 0, so that the rule is the
        one a cold start would apply).  A budget that stops the sweeps before the rule warns
        :class:`~repro.errors.ConvergenceWarning` (``warn=False``: a deliberately short solve)."""
        lam = check_lambda(lam)
        check_reg(reg)
        tol = float(tol)
        if not np.isfinite(tol) or tol < 0:
            raise DataError(f"tol: the stopping threshold must be a finite number ≥ 0, got {tol!r}")
        if int(max_sweeps) < 1:
            raise DataError(f"max_sweeps: must be ≥ 1, got {max_sweeps!r}")
        if max_iter is not None and int(max_iter) < 1:
            raise DataError(f"max_iter: must be ≥ 1, got {max_iter!r}")
        if induction is not None and int(induction) < 1:
            raise DataError(f"induction: features per round must be ≥ 1, got {induction!r}")
        self.reset(w0)
        code = check_reg(reg)
        trace = SolverTrace(callback, keep_history)
        budget = -1 if max_iter is None else int(max_iter)
        max_sweeps = int(max_sweeps)
        st = {"f": None, "iters": 0, "sweeps": 0, "status": None,
              "first": -1.0 if reference is None else max(float(reference), 0.0)}
        mask = np.zeros(self.n_features, dtype=np.uint8)
        out = np.zeros(4)

        def sweep(coords) -> bool:
            """Sweeps over ``coords`` until the stopping rule or a budget; True if a budget
            (not the rule) stopped them.  The kernel loops over the sweeps; with a callback,
            one kernel call per sweep, so that the callback sees w after every sweep (the
            same arithmetic: the rule is applied here to the same numbers)."""
            per_call = 1 if callback is not None else max_sweeps
            while True:
                ms = min(per_call, max_sweeps - st["sweeps"])
                left = -1 if budget < 0 else budget - st["iters"]
                hist = np.empty(ms + 1)
                n = _kernel.cd_sweeps(*self._x(), *self._blk(), self.beta, coords, lam, code,
                                      tol, ms, left, st["first"], self.w, self._R, self._c,
                                      self._T, self._Terr, self._work, mask, hist, out)
                check_status(n, "domination.cd_sweeps")
                if st["f"] is None:
                    trace(0, self.w if n == 0 else None, f=float(hist[0]), n_iter=0)
                for k in range(1, n + 1):
                    st["sweeps"] += 1
                    last = k == n
                    trace(st["sweeps"], self.w if last else None, f=float(hist[k]),
                          n_iter=st["iters"] + (int(out[1]) if last else k * coords.size),
                          **({"n_nonzero": int(np.count_nonzero(self.w))} if last else {}))
                st["iters"] += int(out[1])
                st["first"] = float(out[3])
                st["f"] = float(hist[n])
                status = int(out[2])
                if status == 2:
                    st["status"] = "max_iter"
                    return True
                if status == 0:
                    return False
                if st["sweeps"] >= max_sweeps:
                    st["status"] = "max_sweeps"
                    return True
                if n == 1 and per_call == 1 and hist[0] - hist[1] <= tol * st["first"]:
                    return False

        rounds = 0
        chosen = np.zeros(0, dtype=np.int64)
        if induction is None:
            sweep(np.arange(self.n_features, dtype=np.int64))
            st["status"] = st["status"] or "converged"
        else:
            alpha = int(induction)
            is_chosen = np.zeros(self.n_features, dtype=bool)
            while True:
                g = self.gradient()
                delta = steps_for(g, self.beta, self.w, lam, reg)
                gain = -delta * g - 0.5 * self.beta * delta ** 2          # bound (9)
                cand = np.flatnonzero(~is_chosen & (delta != 0) & (gain > 0))
                if cand.size == 0 or (st["first"] >= 0 and gain[cand].max() <= tol * st["first"]):
                    st["status"] = "converged"
                    break
                best = _top(cand, gain[cand], alpha)                      # ties: lower index
                is_chosen[best] = True
                chosen = np.append(chosen, best)
                rounds += 1
                if sweep(np.flatnonzero(is_chosen).astype(np.int64)):
                    break
        if st["f"] is None:          # induction stopped before any sweep (nothing to choose)
            st["f"] = self.loss() + lam * regulariser(self.w, reg)
            trace(0, self.w, f=st["f"], n_iter=0, n_nonzero=int(np.count_nonzero(self.w)))
        if warn:
            warn_at_limit("coordinate descent", st["status"], int(st["iters"]))
        return DominationResult(w=self.w.copy(), f=st["f"], n_iter=int(st["iters"]),
                                status=st["status"], seconds=trace.seconds,
                                history=trace.history, lam=lam, reg=reg,
                                loss=self.loss(), n_sweeps=st["sweeps"], rounds=rounds,
                                chosen=chosen)


# -- the ranker ---------------------------------------------------------------------------------

LAYERS = ("graded", "binary")
GROUPINGS = ("pooled", "query")


class DominationRank(Ranker):
    """Domination Rank (Stevens 2010) as a linear ranker, f(x) = w·x.

    ``layers``: ``"graded"`` — every relevance level is a layer (§3, Figure 4 "Layered");
    ``"binary"`` — documents above the lowest label are one positive layer ("Flat").
    ``grouping``: ``"pooled"`` — all training documents form one group, by layer, "neglecting
    which query they came from" (§8.1.2, line 572: the thesis's LETOR reading); ``"query"`` —
    one group per query (the per-query variant the thesis suggests, line 625).
    ``margin`` κ ≥ 0: separable margin s(i) = κ·ℓ(i), ℓ(i) the rank of i's label among the
    distinct training labels (0 for the lowest), so a document must beat one of a layer
    below by κ per layer (§4; "Margin").  ``lam``, ``reg`` (``"l1"``/``"l2"``), ``tol``,
    ``max_sweeps``, ``max_iter``, ``induction`` (α), ``sample_negatives`` and ``seed`` are
    those of :meth:`DominationProblem.solve` and :class:`DominationProblem`.
    """

    def __init__(self, lam=1.0, reg="l2", layers="graded", grouping="pooled", margin=0.0,
                 tol=1e-4, max_sweeps=10000, max_iter=None, induction=None,
                 sample_negatives=1.0, seed=0):
        self.lam = lam
        self.reg = reg
        self.layers = layers
        self.grouping = grouping
        self.margin = margin
        self.tol = tol
        self.max_sweeps = max_sweeps
        self.max_iter = max_iter
        self.induction = induction
        self.sample_negatives = sample_negatives
        self.seed = seed

    def _fit_grouped(self, X, y, query_ptr):
        problem = self._problem(X, y, query_ptr)
        res = problem.solve(self.lam, self.reg, self.tol, self.max_sweeps, self.max_iter,
                            self.induction)
        return self._set_result(res, problem)

    def _set_result(self, res: DominationResult, problem: DominationProblem):
        self.coef_ = res.w
        self.result_ = res
        self.n_features_in_ = problem.n_features
        return self

    def _problem(self, X, y, query_ptr) -> DominationProblem:
        """The training problem of these parameters (checked here, at fit time)."""
        if self.layers not in LAYERS:
            raise DataError(f"layers: must be one of {LAYERS}, got {self.layers!r}")
        if self.grouping not in GROUPINGS:
            raise DataError(f"grouping: must be one of {GROUPINGS}, got {self.grouping!r}")
        kappa = float(self.margin)
        if not np.isfinite(kappa) or kappa < 0:
            raise DataError(f"margin: the margin κ must be a finite number ≥ 0, got "
                            f"{self.margin!r}")
        y = np.asarray(y, dtype=np.float64)
        qp = np.asarray(query_ptr, dtype=np.int64)
        level = np.unique(y, return_inverse=True)[1].ravel().astype(np.float64)
        if self.layers == "binary":
            level = (level > 0).astype(np.float64)
        groups = None
        if self.grouping == "query":
            groups = np.repeat(np.arange(qp.shape[0] - 1), np.diff(qp))
        return DominationProblem(X, level, groups, kappa * level if kappa else None,
                                 self.sample_negatives, self.seed)

    def fit_grid(self, data, grid):
        """Candidates differing only in ``lam`` share one problem and are solved along a
        decreasing λ path, each warm-started from the previous solution, with the stopping
        rule of a cold start (the reference decrease is the first sweep's from w = 0, one
        extra sweep).  Induction or negative sampling: separate fits (the default)."""
        cands = expand_grid(grid)
        merged = [{**self.get_params(), **c} for c in cands]
        if any(m["induction"] is not None or m["sample_negatives"] != 1.0 for m in merged):
            yield from super().fit_grid(data, grid)
            return
        self.check_Xy(data.X, data.y, np.zeros(data.n_docs))
        groups: dict[str, list[int]] = {}
        for i, m in enumerate(merged):
            key = repr(sorted((k, repr(v)) for k, v in m.items() if k != "lam"))
            groups.setdefault(key, []).append(i)
        models: dict[int, DominationRank] = {}
        for idx in groups.values():
            first = self.clone().set_params(**cands[idx[0]])
            problem = first._problem(data.X, data.y, data.query_ptr)
            w = None
            for i in sorted(idx, key=lambda i: -check_lambda(merged[i]["lam"])):
                model = self.clone().set_params(**cands[i])
                lam = check_lambda(model.lam)
                cold = problem.solve(lam, model.reg, max_sweeps=1, warn=False)
                ref = cold.history[0]["f"] - cold.history[1]["f"]
                res = problem.solve(lam, model.reg, model.tol, model.max_sweeps,
                                    model.max_iter, None, w0=w, reference=ref)
                model._set_result(res, problem)
                models[i] = model
                w = res.w
        for i, params in enumerate(cands):
            yield params, models[i]

    def predict(self, X) -> np.ndarray:
        self._check_fitted()
        if X.ndim != 2 or X.shape[1] != self.n_features_in_:
            raise DataError(f"X: expected {self.n_features_in_} feature columns, got shape "
                            f"{X.shape}")
        refuse_non_finite(X)
        return np.asarray(X @ self.coef_, dtype=np.float64).ravel()
