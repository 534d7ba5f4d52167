"""Table 1 (Sec. 6.1–6.2): the UCI study, one run per (dataset, fold).

The queries are drawn once per dataset by :func:`repro.data.uci.uci_queries` (a seed from
the dataset's name, so every fold sees the same queries); fold k tests on queries
5(k−1)..5k−1 and trains on the other 45; every method is fitted for every C of the grid
(warm-started where the ranker can) and its test NDCG@10 (eq. 14, ×100; the metric family's
``"lesmola2007"`` convention) stored per C, with
each test query's value.  The choice of C by the mean over the 10 folds (the paper's "10-fold
cross validation was used to adjust C"), the ± and the paired t-tests are declared in
``__init__`` (:class:`~repro.experiment.FoldMean` by C, :class:`~repro.experiment.Best`,
:class:`~repro.experiment.FoldSpread`, ``PairedTest``)."""
from __future__ import annotations

import time

import numpy as np

from ...data.uci import uci_queries
from ...evidence import Evidence
from ...metrics.family import ndcg
from ...rankers import DORM, GainRegression, LinearSVM, PrecisionAtKSVM, ROCAreaSVM
from .names import NDCG10, UCI_REFERENCE

__all__ = ["uci_queries", "uci_ranker", "run_uci_fold"]


def uci_ranker(method: str):
    return {"DORM": lambda: DORM(loss="ndcg", n=10, c="(i+1)^-1", eps=0.01),
            "ROCArea": lambda: ROCAreaSVM(eps=0.01),
            "Prec@10": lambda: PrecisionAtKSVM(k=10, eps=0.01),
            "SVM": lambda: LinearSVM(),
            UCI_REFERENCE: lambda: GainRegression(target="gain")}[method]()


#: The grid field of a Table 1 record, over which ``Best`` chooses and which it drops from the
#: chosen records (the artifact's ``select`` keeps only records without it).  The table of
#: each record is keyed by ``fitted_C`` instead (also a field of the record, kept through the
#: choice): so the chosen fold records find their tables and every C's table is in the sidecar.
GRID = "C"


def run_uci_fold(dataset: str, fold: int, p: dict, data_dir, log) -> Evidence:
    """One fold of Table 1: per method and C, the test NDCG@10 (×100) of every test query
    (records ``NDCG@10`` with the fields ``C`` and ``fitted_C``, see :data:`GRID`; the value is
    ``100 · mean`` as computed before the move).  Detail: the grid, the split sizes and each method's seconds."""
    data = uci_queries(dataset, data_dir, int(p["queries"][dataset]), int(p["docs"]))
    k = int(p["folds"])
    per = data.n_queries // k
    test_q = np.arange((fold - 1) * per, fold * per)
    train = data.subset(np.setdiff1d(np.arange(data.n_queries), test_q), data.source)
    test = data.subset(test_q, data.source)
    grid = [float(c) for c in p["grid"]]
    ev = Evidence(grid=grid, train=[train.n_queries, train.n_docs],
                  test=[test.n_queries, test.n_docs], seconds={})
    for method in p["methods"]:
        t = time.perf_counter()
        shown = []
        for params, model in uci_ranker(method).fit_grid(train, {"C": grid}):
            per_query = ndcg(test.y, model.predict(test.X), test.query_ptr, 10, "lesmola2007")
            value = float(100.0 * per_query.mean())
            rec = ev.per_query(method, NDCG10, test.qids, 100.0 * per_query, fold,
                               value=value, fitted_C=float(params["C"]))
            rec[GRID] = float(params["C"])
            shown.append(f"C={params['C']}: {value:.1f}")
        ev.detail["seconds"][method] = time.perf_counter() - t
        log(f"{dataset} fold {fold}: {method} " + ", ".join(shown))
    return ev
