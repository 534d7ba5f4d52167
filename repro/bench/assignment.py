"""Benchmark group ``assignment``: the linear-assignment kernel (Le & Smola 2007, Sec. 4.2–4.3)
against ``scipy.optimize.linear_sum_assignment`` and lapx's solvers (the ``peers`` extra,
``lapx``; skipped if not installed): ``lapjvh`` (its fastest single-matrix solver),
``lapjvh_batch`` (one thread) where the problems come as a batch, and ``lapjv`` (the
Jonker–Volgenant code of the ``lap`` package, which lapx carries on).  lapx installs its
module under the name ``lap``, so it replaces the ``lap`` package (they cannot be installed
side by side); its ``lapjv`` is the one measured.  Every solver returns an optimal
assignment; ours returns the canonical one (the lexicographically smallest optimum), the
others whichever their search reaches.

* DORM's own matrices C_ij = c_j g_i − a_j b_i (eq. 24): every most-violated-constraint
  problem of one DORM training run (NDCG@10, c_i = 1/(i+1), C = 10, ε = 0.01) on the 45
  training queries of PenDigits fold 1 of the Table 1 protocol (100 documents each),
  recorded at the scores g the run saw.  Ours: all of them in one batched call of the
  rank-2 kernel (:func:`repro.rankers.assignment.rank2_assignment`); peers: one call per
  query on the matrix, built beforehand (not timed), and lapx's batch call on the stacked
  matrices.  Our dense solver per query is shown too.
* Uniform random square matrices (50, 100, 200): one call per matrix for every solver,
  ours through its Python wrapper (:func:`repro.rankers.assignment.linear_assignment`).

Timing: :func:`repro.bench.common.interleaved` (rounds of ours, peer, … with the order
rotating; per-round ratios peer / ours kept as min / median / max).
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..errors import DataCorrupt, DataMissing
from ..rankers.assignment import linear_assignment, rank2_assignment
from ..rankers.dorm import DORM
from ..rankers.structsvm import canonical_order, dense_matrix, n_slack
from .common import case, interleaved


def _lapx():
    """``(lapjv, lapjvh, lapjvh_batch)`` of the installed ``lap`` module (lapx provides all
    three; the original ``lap`` package only ``lapjv``); None for what is missing."""
    try:
        import lap
    except ImportError:
        return None, None, None
    return (getattr(lap, "lapjv", None), getattr(lap, "lapjvh", None),
            getattr(lap, "lapjvh_batch", None))


def _peer_note(lapjvh) -> str:
    if lapjvh is not None:
        return "lapx installed"
    return "lapx not installed (pip install lapx, or the peers extra)"


class _Recorder:
    """Wraps DORM's oracle and keeps the (g, b, c, a) of every problem it solves."""

    def __init__(self, oracle):
        self.oracle = oracle
        self.active = oracle.active
        self.kernel_seconds = 0.0
        self.problems = []

    def __call__(self, q, g):
        lo, hi = self.oracle.query_ptr[q], self.oracle.query_ptr[q + 1]
        self.problems.append((np.array(g, dtype=np.float64), self.oracle.b[lo:hi].copy(),
                              self.oracle.c[lo:hi].copy(), self.oracle.a[lo:hi].copy()))
        return self.oracle(q, g)


def dorm_problems(data_dir, queries) -> list[tuple]:
    """The assignment problems of one DORM fit on the training queries of fold 1 of
    ``queries(data_dir)`` (the 50 PenDigits queries of Table 1's protocol, as the paper that
    declares them gives them)."""
    data = queries(data_dir)
    train = data.subset(np.arange(5, 50), data.source)
    model = DORM(C=10.0)
    X = dense_matrix(train.X)
    rows, qp, _ = canonical_order(X, train.y, train.query_ptr)
    X, y = X[rows], train.y[rows]
    rec = _Recorder(model._oracle(y, qp))
    n_slack(X, qp, rec, 10.0, 0.01, 0.001)
    return rec.problems


def bench(data_dir, quick: bool, queries=None) -> list[dict]:
    """The rows of this group; ``queries(data_dir)``: the query data of DORM's matrices (a
    paper's declared benchmark input, handed in by the command line; None: those rows are
    skipped)."""
    repeats = 3 if quick else 9
    lapjv, lapjvh, lapjvh_batch = _lapx()
    rows = []
    problems = []
    if queries is None:
        print("  (DORM matrices skipped: no paper declares their queries)")
    else:
        try:
            problems = dorm_problems(data_dir, queries)
        except (DataMissing, DataCorrupt, OSError) as exc:     # no data here: skip this case
            print(f"  (DORM matrices skipped: {exc})")
    if problems:
        if quick:
            problems = problems[:200]
        g, b, c, a = (np.concatenate([p[k] for p in problems]) for k in range(4))
        qp = np.concatenate([[0], np.cumsum([p[0].shape[0] for p in problems])]).astype(np.int64)
        mats = [np.outer(p[0], p[2]) - np.outer(p[1], p[3]) for p in problems]
        negs = [-M for M in mats]
        fns = {"ours": lambda: rank2_assignment(g, b, c, a, qp, check_input=False),
               "scipy linear_sum_assignment (per query)":
                   lambda: [linear_sum_assignment(M, maximize=True) for M in mats],
               "ours, dense per query": lambda: [linear_assignment(M, maximize=True)
                                                 for M in mats]}
        if lapjvh is not None:
            fns["lapx lapjvh (per query)"] = lambda: [lapjvh(M) for M in negs]
        if lapjvh_batch is not None and len({M.shape for M in negs}) == 1:
            stack = np.ascontiguousarray(np.stack(negs))
            fns["lapx lapjvh_batch (1 thread)"] = lambda: lapjvh_batch(stack, n_threads=1)
        if lapjv is not None:
            fns["lap.lapjv (per query)"] = lambda: [lapjv(M) for M in negs]
        timings = interleaved(fns, repeats=repeats)
        got = rank2_assignment(g, b, c, a, qp)
        ref = np.array([M[linear_sum_assignment(M, maximize=True)].sum() for M in mats])
        err = float(np.max(np.abs(got.value - ref) / np.maximum(1.0, np.abs(ref))))
        rows.append(case("DORM's matrices (eq. 24), PenDigits training run, batched",
                         {"problems": len(problems), "documents": 100, "loss": "NDCG@10",
                          "c": "1/(i+1)", "C": 10.0},
                         timings, per_matrix_us={k: round(1e6 * timings.median(k) / len(problems), 2)
                                                 for k in fns},
                         max_relative_objective_difference=err,
                         mean_augmenting_paths=float(got.n_augmented.mean()),
                         peers_installed=_peer_note(lapjvh)))
    rng = np.random.default_rng(2007)
    for n, count in ((50, 200), (100, 100), (200, 30)):
        if quick:
            count = max(5, count // 5)
        mats = [rng.random((n, n)) for _ in range(count)]
        fns = {"ours": lambda: [linear_assignment(M) for M in mats],
               "scipy linear_sum_assignment": lambda: [linear_sum_assignment(M) for M in mats]}
        if lapjvh is not None:
            fns["lapx lapjvh"] = lambda: [lapjvh(M) for M in mats]
        if lapjv is not None:
            fns["lap.lapjv"] = lambda: [lapjv(M) for M in mats]
        timings = interleaved(fns, repeats=repeats)
        ours = np.array([linear_assignment(M).value for M in mats])
        best = np.array([M[linear_sum_assignment(M)].sum() for M in mats])
        rows.append(case(f"uniform random {n}×{n}", {"n": n, "matrices": count}, timings,
                         per_matrix_us={k: round(1e6 * timings.median(k) / count, 2)
                                        for k in fns},
                         max_relative_objective_difference=float(
                             np.max(np.abs(ours - best) / np.maximum(1.0, np.abs(best)))),
                         peers_installed=_peer_note(lapjvh)))
    return rows
