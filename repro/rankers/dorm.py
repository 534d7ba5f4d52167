"""DORM, Direct Optimization of Ranking Measures (Le & Smola 2007): an n-slack structural SVM
(Algorithm 2) whose output is a permutation of each query's documents, whose loss is a
ranking measure written as ⟨a(π), b(y)⟩ (eq. 9–17) and whose most violated constraint is a
linear assignment problem (eq. 22–24), solved by the kernel of
:func:`repro.rankers.assignment.rank2_assignment` (a query at a time:
:class:`~repro.rankers.assignment.Rank2Solver`).

Feature map (eq. 20): Φ(x, π) = Σ_d c_{π(d)} φ(d), with π(d) the position of document d and c a
decreasing sequence over positions i = 1, 2, … (:func:`position_weights`); the ranking at
test time sorts g(d) = w·φ(d) (Sec. 3.3, 4.4).

Losses Δ(y, π) = ⟨a(1), b⟩ − ⟨a(π), b⟩ (eq. 17), with positions i = 1..l (:func:`loss_vectors`):

* ``"ndcg"`` (eq. 14): a_i = 1/log2(i+1) for i ≤ n, else 0; b_d = (2^{r_d} − 1)/DCG@n(1, y).
  The log base cancels in NDCG (base 2, as LETOR).  The vectors are
  :func:`repro.metrics.family.ndcg_vectors` (convention ``lesmola2007``).
* ``"mrr"`` (eq. 10 assumes one top document): a_i = 1/i; b_d = 1/k for each of the k
  documents with the query's largest label (the literal b = δ(d, first) averaged over the
  ideal orderings; linear in π, so the oracle stays one assignment problem).
* ``"wta"`` (eq. 9): a_i = δ(i, 1); b_d = 1 if r_d is the query's largest label.
* ``"mwta"`` (Sec. 6.4): ``"ndcg"`` with a per-query truncation (:func:`mwta_truncation`).
* ``"precision"`` (eq. 15): a_i = 1/n for i ≤ n; b_d = 1 if r_d ≥ ``relevant_min``.
* ``"eru"`` (eq. 16): a_i = 2^{(1−i)/(α−1)}; b_d = max(r_d − d₀, 0) divided by the ideal
  value (normalised ERU, so Δ ∈ [0, 1] like the others); d₀ = ``eru_neutral``,
  α = ``eru_halflife``.

Open points of the paper decided here (also in the paper package's ``Shown.choices``):

* Ties in the labels make the ideal permutation z_i = 1 ambiguous, and Φ(x_i, 1) with it.
  ``ties="average"`` (default) uses the mean of Φ over all ideal orderings: each document
  gets the mean of c over the positions its label group occupies in the ideal order (so the
  constraints do not depend on the input order of equally relevant documents);
  ``ties="stable"`` keeps the order of a stable sort of y (for the rankers, the canonical
  order of :func:`~repro.rankers.structsvm.canonical_order`: label, then features).
  ``ties="latent"`` (not the paper's convex problem: a concave-convex procedure, as latent
  structural SVMs) re-chooses z_i as the ideal ordering the current w prefers (ties by
  decreasing score), shifts the working sets to it and solves again, until no z_i changes
  (at most 20 rounds; the rounds may cycle on exact score ties).  The averaged bound charges
  the spread of scores inside a label group; where most documents share one label (LETOR
  MQ2008: ~80% irrelevant) it keeps w near 0 — on MQ2008 fold 1, C = 0.1, validation NDCG@10
  rose from 0.18 (average) to 0.22 after 3 latent rounds — but it costs a solve per round.
* Queries whose loss is identically 0 add no constraint (see :mod:`.structsvm`).
* c: ``"(i+1)^-d"`` for any d > 0, ``"1/log(i+2)"``, ``"1/loglog(i+2)"`` (natural logs:
  positive and decreasing for every i ≥ 1, unlike log10 for the last one).
"""
from __future__ import annotations

import re
import time

import numpy as np

from ..errors import DataError
from ..metrics.family import ndcg_vectors
from .assignment import Rank2Solver
from .base import LinearRanker
from .structsvm import StructuralRanker

LOSSES = ("ndcg", "mrr", "wta", "mwta", "precision", "eru")
TIES = ("average", "stable", "latent")
_POWER = re.compile(r"^\(i\+1\)\^-?\s*\(?(-?[0-9.]+(?:/[0-9.]+)?)\)?$")


def position_weights(scheme: str, l: int) -> np.ndarray:
    """c_1..c_l of a scheme of Sec. 6.3: ``"(i+1)^-d"`` (e.g. ``"(i+1)^-1"``,
    ``"(i+1)^-1/2"``), ``"1/log(i+2)"`` or ``"1/loglog(i+2)"`` (natural logarithms)."""
    i = np.arange(1, l + 1, dtype=np.float64)
    s = str(scheme).replace(" ", "")
    if s == "1/log(i+2)":
        return 1.0 / np.log(i + 2.0)
    if s == "1/loglog(i+2)":
        return 1.0 / np.log(np.log(i + 2.0))
    m = _POWER.match(s)
    if m:
        num, _, den = m.group(1).partition("/")
        d = float(num) / (float(den) if den else 1.0)
        if d > 0:
            return (i + 1.0) ** (-d)
    raise ValueError(f"c: unknown position-weight scheme {scheme!r}; use '(i+1)^-d' (d > 0), "
                     f"'1/log(i+2)' or '1/loglog(i+2)'")


def mwta_truncation(labels) -> int:
    """Truncation n of the mWTA heuristic (Sec. 6.4) from the ideal (label-sorted) list: 3 if
    its top 3 documents hold at least two relevance levels; otherwise the position (1-based)
    of the first document of a lower level, so that one lower-ranked document is included;
    the query's size if there is none.  (The text's "more than 2 level" leaves two levels
    uncovered; "at least two" is read, the complement of its "only one level".)"""
    r = np.sort(np.asarray(labels, dtype=np.float64))[::-1]
    if np.unique(r[:3]).size >= 2:
        return 3
    lower = np.flatnonzero(r < r[0])
    return int(lower[0]) + 1 if lower.size else int(r.size)


def loss_vectors(loss: str, labels, n: int = 10, relevant_min: float = 1.0,
                 eru_neutral: float = 0.0, eru_halflife: float = 5.0):
    """``(a, b)`` of ⟨a(π), b(y)⟩ for one query: ``a`` over positions 1..l, ``b`` per document
    (input order).  See the module doc for each loss."""
    r = np.asarray(labels, dtype=np.float64)
    l = r.shape[0]
    i = np.arange(1, l + 1, dtype=np.float64)
    if loss in ("ndcg", "mwta"):
        n_q = mwta_truncation(r) if loss == "mwta" else int(n)
        a, b = ndcg_vectors(r, n_q)         # the metric family's ``lesmola2007`` NDCG
    elif loss == "mrr":
        a = 1.0 / i
        top = r == r.max()
        b = top / float(top.sum())
    elif loss == "wta":
        a = (i == 1).astype(np.float64)
        b = (r == r.max()).astype(np.float64)
    elif loss == "precision":
        a = np.where(i <= n, 1.0 / n, 0.0)
        b = (r >= relevant_min).astype(np.float64)
    elif loss == "eru":
        if not eru_halflife > 1:
            raise ValueError(f"eru_halflife must be > 1, got {eru_halflife!r}")
        a = 2.0 ** ((1.0 - i) / (eru_halflife - 1.0))
        util = np.maximum(r - eru_neutral, 0.0)
        ideal = float(np.sort(util)[::-1] @ a)
        b = util / ideal if ideal > 0 else np.zeros(l)
    else:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")
    return a, b


def measure(a, b, positions) -> float:
    """⟨a(π), b⟩ for documents placed at ``positions`` (0-based)."""
    return float(np.asarray(a)[np.asarray(positions)] @ np.asarray(b))


def ranking_loss(a, b, positions) -> float:
    """Δ(y, π) = ⟨a(1), b⟩ − ⟨a(π), b⟩ (eq. 17); ⟨a(1), b⟩ pairs sorted b with a."""
    return float(np.sort(b)[::-1] @ a) - measure(a, b, positions)


def ideal_weights(labels, c, ties: str = "average") -> np.ndarray:
    """Per document, its weight in Φ(x, z_i): c at its position in the ideal (label-sorted)
    order; with ``ties="average"`` the mean of c over the positions of its label group."""
    r = np.asarray(labels, dtype=np.float64)
    order = np.argsort(-r, kind="stable")
    out = np.empty(r.shape[0])
    if ties == "stable":
        out[order] = c
        return out
    rs = r[order]
    starts = np.flatnonzero(np.concatenate(([True], rs[1:] != rs[:-1])))
    ends = np.append(starts[1:], rs.shape[0])
    cs = np.asarray(c, dtype=np.float64)
    for s, e in zip(starts, ends):
        out[order[s:e]] = cs[s:e].mean()
    return out


class DormOracle:
    """Most violated constraint (8) of every query: the assignment (24) on its rank-2 matrix,
    returned as ψ's coefficients Φ-weights(z_i) − c(π*) and Δ(π*)."""

    def __init__(self, y, query_ptr, loss, n, c, ties, relevant_min, eru_neutral, eru_halflife):
        qp = np.asarray(query_ptr, dtype=np.int64)
        self.query_ptr = qp
        N = qp[-1]
        self.a = np.empty(N)
        self.b = np.empty(N)
        self.c = np.empty(N)
        self.cbar = np.empty(N)
        Q = qp.shape[0] - 1
        self.ideal = np.empty(Q)
        self.active = np.zeros(Q, dtype=bool)
        for q in range(Q):
            lo, hi = qp[q], qp[q + 1]
            a, b = loss_vectors(loss, y[lo:hi], n, relevant_min, eru_neutral, eru_halflife)
            cq = position_weights(c, hi - lo)
            self.a[lo:hi], self.b[lo:hi], self.c[lo:hi] = a, b, cq
            self.cbar[lo:hi] = ideal_weights(y[lo:hi], cq, "stable" if ties == "latent" else ties)
            self.ideal[q] = float(np.sort(b)[::-1] @ a)
            self.active[q] = (np.ptp(a) > 0) and (np.ptp(b) > 0)
        self.kernel_seconds = 0.0
        self.augmentations = 0                # augmenting paths of every assignment solved
        self._solvers: list = [None] * Q      # each query's eq. 24 (views of a, b, c), made once
        self.latent = ties == "latent"
        self.y = np.asarray(y, dtype=np.float64)

    def relabel(self, scores: np.ndarray) -> dict:
        """``ties="latent"``: Φ-weights of the ideal ordering that the scores prefer (label
        ties broken by decreasing score, then document order), for every active query whose
        weights change; returns ``{query: new − old weights}`` and keeps the new ones."""
        out = {}
        for q in np.flatnonzero(self.active):
            lo, hi = self.query_ptr[q], self.query_ptr[q + 1]
            order = np.lexsort((np.arange(hi - lo), -scores[lo:hi], -self.y[lo:hi]))
            new = np.empty(hi - lo)
            new[order] = self.c[lo:hi]
            if not np.array_equal(new, self.cbar[lo:hi]):
                out[int(q)] = new - self.cbar[lo:hi]
                self.cbar[lo:hi] = new
        return out

    def __call__(self, q: int, g: np.ndarray):
        lo, hi = self.query_ptr[q], self.query_ptr[q + 1]
        solve = self._solvers[q]
        if solve is None:
            solve = self._solvers[q] = Rank2Solver(self.b[lo:hi], self.c[lo:hi],
                                                   self.a[lo:hi])
        t = time.perf_counter()
        pos, n_aug = solve(np.ascontiguousarray(g, dtype=np.float64))
        self.kernel_seconds += time.perf_counter() - t
        self.augmentations += n_aug
        coef = self.cbar[lo:hi] - solve.c[pos]
        delta = self.ideal[q] - float(solve.a[pos] @ solve.b)
        return coef, delta


class DORM(StructuralRanker, LinearRanker):
    """DORM (Algorithm 2) with a linear kernel.

    ``C``: regularisation of (27) (default 0.01, see below); ``loss``: one of :data:`LOSSES`; ``n``: truncation of
    NDCG@n / Precision@n; ``c``: position-weight scheme (:func:`position_weights`);
    ``eps``: Algorithm 2's tolerance ε on a constraint's violation (losses are in [0, 1]);
    ``qp_tol``: the working-set QP is solved to a duality gap ≤ qp_tol·C·m (default ε/10);
    ``ties``: Φ(x_i, z_i) under label ties (module doc); ``relevant_min``: binary relevance
    for ``"precision"``; ``eru_neutral``/``eru_halflife``: d and α of ERU (eq. 16).

    Default C = 0.01 (it was 1.0).  Cause of the old default's below-random
    rankings: the loss under label ties, not the oracle or the QP (the most violated
    constraint equals brute force over all permutations, the sign is right — the learned w
    ranks relevant documents up at small C — and the working-set QP converges).  Where most
    documents share one label (MQ2008: ~80% label 0, up to ~120 documents a query, NDCG@10
    blind below position 10) the averaged tie bound (``ties="average"``, module doc) charges
    every spread of scores inside a label group; the bound is almost flat: on fold 1 Σ ξ is
    269.6 at C = 1 and 269.2 at C = 100, both about its value at w = 0.  A small C keeps w
    near C times the bound's subgradient at w = 0 — a weighted mean of relevant minus
    irrelevant documents, a sensible ranker —; a large C (or larger feature scales, which act
    as C·scale²) lets the within-group spread term pick w's direction, unrelated to relevance.
    MQ2008 fold 1, test MAP (LETOR 4.0 evaluation), random scores 0.283–0.322 (5 seeds, mean 0.300):
    C = 0.001 0.334, 0.01 0.411, 0.1 0.433, 1 0.394, 10 0.382, 100 0.282 (negated: 0.326);
    standardised features: C = 1 0.276 (negated 0.330), C = 0.01 0.421.  C = 0.01 is above
    the mean of 20 random scorings on every fold, raw and standardised (folds 1–5 raw: 0.411,
    0.415, 0.444, 0.510, 0.436 against 0.300 (5 seeds), 0.283, 0.273, 0.339, 0.328), where C = 1 is not
    (fold 5: 0.324 against 0.328).  With few ties per label (the UCI sets of Table 1) larger
    C ranks better; choose C on validation data (``fit_grid``).  ``ties="latent"`` removes
    the cause (MQ2008 fold 1 test MAP 0.457 at C = 1, 0.459 at C = 100) at 10–50 times the
    training time.
    """

    def __init__(self, C: float = 0.01, loss: str = "ndcg", n: int = 10, c: str = "(i+1)^-1",
                 eps: float = 0.01, qp_tol: float | None = None, max_iter: int = 1000,
                 ties: str = "average", relevant_min: float = 1.0, eru_neutral: float = 0.0,
                 eru_halflife: float = 5.0, callback=None):
        self.C, self.loss, self.n, self.c = C, loss, n, c
        self.eps, self.qp_tol, self.max_iter, self.ties = eps, qp_tol, max_iter, ties
        self.relevant_min, self.eru_neutral, self.eru_halflife = (relevant_min, eru_neutral,
                                                                  eru_halflife)
        self.callback = callback

    def _oracle(self, y, query_ptr):
        if self.loss not in LOSSES:
            raise ValueError(f"loss must be one of {LOSSES}, got {self.loss!r}")
        if self.ties not in TIES:
            raise ValueError(f"ties must be one of {TIES}, got {self.ties!r}")
        if int(self.n) < 1:
            raise ValueError(f"n (truncation) must be at least 1, got {self.n!r}")
        position_weights(self.c, 2)                    # a bad scheme fails here, by name
        if np.any(np.diff(query_ptr) < 1):
            raise DataError("query_ptr: every query needs at least one document")
        return DormOracle(y, query_ptr, self.loss, int(self.n), self.c, self.ties,
                          float(self.relevant_min), float(self.eru_neutral),
                          float(self.eru_halflife))
