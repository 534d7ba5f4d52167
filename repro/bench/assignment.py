"""Benchmark group ``assignment``: the linear-assignment kernel (Le & Smola 2007, Sec. 4.2–4.3)
against ``scipy.optimize.linear_sum_assignment`` and ``lap.lapjv`` (Jonker–Volgenant, the
``peers`` extra; skipped if not installed).

* DORM's own matrices C_ij = c_j g_i − a_j b_i (eq. 24): every most-violated-constraint
  problem of one DORM training run (NDCG@10, c_i = 1/(i+1), C = 10, ε = 0.01) on the 45
  training queries of PenDigits fold 1 of the Table 1 protocol (100 documents each),
  recorded at the scores g the run saw.  Ours: all of them in one batched call of the
  rank-2 kernel (:func:`repro.rankers.assignment.rank2_assignment`); peers: one call per
  query on the matrix, built beforehand (not timed).  Our dense solver per query is shown
  too.
* Uniform random square matrices (50, 100, 200): one call per matrix for every solver,
  ours through its Python wrapper (:func:`repro.rankers.assignment.linear_assignment`).
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..errors import DataCorrupt, DataMissing
from ..rankers.assignment import linear_assignment, rank2_assignment
from ..rankers.dorm import DORM
from ..rankers.structsvm import canonical_order, dense_matrix, n_slack
from ..timing import time_alternating
from .common import case


def _lapjv():
    try:
        import lap
    except ImportError:
        return None
    return lap.lapjv


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


def dorm_problems(data_dir) -> list[tuple]:
    """The assignment problems of one DORM fit on PenDigits (Table 1 protocol, fold 1)."""
    from ..papers.lesmola2007.tasks import uci_queries
    data = uci_queries("pendigits", data_dir, 50, 100)
    train = data.subset(np.arange(5, 50), data.source)
    model = DORM(C=10.0)
    X = dense_matrix(train.X)
    rows, qp, _ = canonical_order(X, train.y, train.query_ptr)
    X, y = X[rows], train.y[rows]
    rec = _Recorder(model._oracle(y, qp))
    n_slack(X, qp, rec, 10.0, 0.01, 0.001)
    return rec.problems


def bench(data_dir, quick: bool) -> list[dict]:
    repeats = 3 if quick else 7
    lapjv = _lapjv()
    rows = []
    try:
        problems = dorm_problems(data_dir)
    except (DataMissing, DataCorrupt, OSError) as exc:     # no data here: skip this case
        problems = []
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
        if lapjv is not None:
            fns["lap.lapjv (per query)"] = lambda: [lapjv(M) for M in negs]
        times = time_alternating(fns, repeats=repeats)
        got = rank2_assignment(g, b, c, a, qp)
        ref = np.array([M[linear_sum_assignment(M, maximize=True)].sum() for M in mats])
        err = float(np.max(np.abs(got.value - ref) / np.maximum(1.0, np.abs(ref))))
        rows.append(case("DORM's matrices (eq. 24), PenDigits training run, batched",
                         {"problems": len(problems), "documents": 100, "loss": "NDCG@10",
                          "c": "1/(i+1)", "C": 10.0},
                         times, per_matrix_us={k: round(1e6 * v / len(problems), 2)
                                               for k, v in times.items()},
                         max_relative_objective_difference=err,
                         mean_augmenting_paths=float(got.n_augmented.mean())))
    rng = np.random.default_rng(2007)
    for n, count in ((50, 200), (100, 100), (200, 30)):
        if quick:
            count = max(5, count // 5)
        mats = [rng.random((n, n)) for _ in range(count)]
        fns = {"ours": lambda: [linear_assignment(M) for M in mats],
               "scipy linear_sum_assignment": lambda: [linear_sum_assignment(M) for M in mats]}
        if lapjv is not None:
            fns["lap.lapjv"] = lambda: [lapjv(M) for M in mats]
        times = time_alternating(fns, repeats=repeats)
        rows.append(case(f"uniform random {n}×{n}", {"n": n, "matrices": count}, times,
                         per_matrix_us={k: round(1e6 * v / count, 2) for k, v in times.items()},
                         lap="installed" if lapjv else "not installed (pip install lap)"))
    return rows
