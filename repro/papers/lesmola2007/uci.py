"""Table 1 (Sec. 6.1–6.2): the UCI study, one run per (dataset, fold).

The queries are drawn once per dataset and replicate by :func:`table1_queries` (a seed from
the dataset's name and the replicate, so every fold of a replicate sees the same queries, and
each replicate draws a sample of its own: the paper's sample is not ours, so which queries are
drawn is a source of variation the replicates measure); fold k tests on queries
5(k−1)..5k−1 and trains on the other 45; every method is fitted for every C of the grid
(warm-started where the ranker can) and its test NDCG@10 (eq. 14, ×100; the metric family's
``"lesmola2007"`` convention) stored per C, with each test query's value.  The choice of C by
the mean over the same 10 folds (the literal reading of "10-fold cross validation was used to
adjust C", Sec. 6.1), the ± and the paired t-tests are declared in ``__init__``
(:class:`~repro.spec.FoldMean` by C, :class:`~repro.spec.Best`,
:class:`~repro.spec.FoldSpread`, ``PairedTest``).

Beside it, nested cross-validation (ours; :func:`inner_cv`): in each outer fold C is chosen
from the fold's training queries alone — ``inner_folds`` contiguous blocks of them (by query,
in their order; the queries are random draws), each method fitted on the other blocks for
every C and scored on the block, criterion the mean over the blocks of the blocks' mean
NDCG@10, ties to the smaller C — and the model fitted on the whole training part at that C
(the grid's own fit at that C, the model the literal reading scores too) is scored on the
fold's test queries: records ``<method> (nested CV)`` with their per-query tables, and the C
chosen in each fold."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ...data.uci import uci_queries
from ...evidence import Evidence
from ...metrics.family import get_convention, ndcg
from ...rankers import DORM, GainRegression, LinearSVM, PrecisionAtKSVM, ROCAreaSVM
from ...spec import salted
from ...spec.params import StudyParams
from .names import NDCG10, NESTED_C, NESTED_SELECTION, UCI_REFERENCE, nested

#: the paper's measure: NDCG@n as the inner product of eq. (12)-(14) (the metric family's
#: ``inner_product`` convention); the paper's package declares it (``python -m repro eval
#: --convention lesmola2007``)
CONVENTION = get_convention("inner_product").replace(
    name="lesmola2007",
    source="Le & Smola (2007) eq. (12)-(14): NDCG@n = <a(pi), b(y)>, a_i = 1/log(i+1) for i <= "
           "n, b = (2^r - 1)/DCG@n(1, y); 0 where the ideal DCG is 0 (the paper leaves it "
           "open); ties in document order")

__all__ = ["CONVENTION", "sample_name", "table1_queries", "uci_ranker", "run_uci_fold", "uci_fold", "inner_cv"]


def sample_name(dataset: str, repeat: int = 0) -> str:
    """The text whose CRC-32 seeds Table 1's draw of ``dataset`` in replicate ``repeat``:
    ``"lesmola2007/uci/<dataset>"`` in replicate 0 (the draw it always was),
    ``"lesmola2007/uci/<dataset>/replicate <r>"`` in replicate r > 0; with a seed salt
    (``--seed-salt``) the salt appended (:func:`repro.spec.salted`)."""
    base = f"lesmola2007/uci/{dataset}"
    return salted(base if int(repeat) == 0 else f"{base}/replicate {int(repeat)}")


def table1_queries(dataset: str, data_dir, n_queries: int, n_docs: int, repeat: int = 0):
    """Table 1's queries of ``dataset`` (Sec. 6.2; :func:`repro.data.uci.uci_queries`) in
    replicate ``repeat``, drawn once per dataset and replicate (seed: :func:`sample_name`), so
    every fold of a replicate, and the assignment benchmark (``python -m repro bench
    assignment``, replicate 0), sees the same queries."""
    return uci_queries(dataset, data_dir, n_queries, n_docs, seed=sample_name(dataset, repeat))


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


def inner_cv(train, method: str, grid: list[float], inner_folds: int
             ) -> tuple[float, dict[float, float]]:
    """Nested selection of C on the training part ``train`` alone: ``(chosen C, {C: mean over
    the inner folds of their mean test NDCG@10 ×100})``; ties go to the smaller C."""
    blocks = np.array_split(np.arange(train.n_queries), inner_folds)
    scores = {c: [] for c in grid}
    for block in blocks:
        fit_on = train.subset(np.setdiff1d(np.arange(train.n_queries), block), train.source)
        held = train.subset(block, train.source)
        for params, model in uci_ranker(method).fit_grid(fit_on, {"C": grid}):
            per_query = ndcg(held.y, model.predict(held.X), held.query_ptr, 10, CONVENTION)
            scores[float(params["C"])].append(100.0 * float(per_query.mean()))
    means = {c: float(np.mean(v)) for c, v in scores.items()}
    chosen = min(means, key=lambda c: (-means[c], c))
    return chosen, means


@dataclass(frozen=True)
class UciParams(StudyParams):
    """Table 1's protocol: ``queries`` sampled queries per dataset of ``docs`` documents,
    ``folds`` folds over them, each of ``methods`` over the ``grid`` of C; with
    ``inner_folds`` ≥ 2, C also chosen by that many inner folds of the training queries."""
    queries: dict[str, int]
    docs: int
    folds: int
    grid: list[float]
    methods: list[str]
    inner_folds: int = 0


def run_uci_fold(dataset: str, fold: int, p: UciParams, data_dir, log,
                 repeat: int = 0) -> Evidence:
    """One fold of Table 1 on the sampled queries of ``dataset`` in replicate ``repeat`` (see
    :func:`uci_fold`): every method, since every one depends on the sample."""
    data = table1_queries(dataset, data_dir, int(p.queries[dataset]), int(p.docs),
                          repeat)
    return uci_fold(data, dataset, fold, p, log)


def uci_fold(data, dataset: str, fold: int, p: UciParams, log) -> Evidence:
    """One fold of Table 1: per method and C, the test NDCG@10 (×100) of every test query
    (records ``NDCG@10`` with the fields ``C`` and ``fitted_C``, see :data:`GRID`; the value is
    ``100 · mean`` as computed before the move); with ``p.inner_folds`` ≥ 2, the nested
    selection (:func:`inner_cv`): records ``<method> (nested CV)`` at the C chosen on the
    training queries, and that C.  Detail: the grid, the split sizes and each method's
    seconds."""
    k = int(p.folds)
    per = data.n_queries // k
    test_q = np.arange((fold - 1) * per, fold * per)
    train = data.subset(np.setdiff1d(np.arange(data.n_queries), test_q), data.source)
    test = data.subset(test_q, data.source)
    grid = [float(c) for c in p.grid]
    inner = int(p.inner_folds)
    ev = Evidence(grid=grid, train=[train.n_queries, train.n_docs],
                  test=[test.n_queries, test.n_docs], seconds={}, inner_folds=inner)
    for method in p.methods:
        t = time.perf_counter()
        shown, at_c = [], {}
        for params, model in uci_ranker(method).fit_grid(train, {"C": grid}):
            per_query = ndcg(test.y, model.predict(test.X), test.query_ptr, 10, CONVENTION)
            value = float(100.0 * per_query.mean())
            rec = ev.per_query(method, NDCG10, test.qids, 100.0 * per_query, fold,
                               value=value, fitted_C=float(params["C"]))
            rec[GRID] = float(params["C"])
            at_c[float(params["C"])] = (100.0 * per_query, value)
            shown.append(f"C={params['C']}: {value:.1f}")
        ev.detail["seconds"][method] = time.perf_counter() - t
        if inner >= 2:
            t = time.perf_counter()
            chosen, means = inner_cv(train, method, grid, inner)
            per_query, value = at_c[chosen]
            ev.per_query(nested(method), NDCG10, test.qids, per_query, fold, value=value,
                         selection=NESTED_SELECTION)
            ev.value(nested(method), NESTED_C, chosen, fold, selection=NESTED_SELECTION,
                     inner_means={f"{c:g}": v for c, v in means.items()})
            ev.detail["seconds"][nested(method)] = time.perf_counter() - t
            shown.append(f"nested: C={chosen:g}")
        log(f"{dataset} fold {fold}: {method} " + ", ".join(shown))
    return ev
