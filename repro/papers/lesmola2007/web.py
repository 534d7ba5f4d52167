"""Figures 2–7 and Table 2 (Sec. 6.3–6.5): the web-search study on the stand-ins, one run per
(dataset, official fold).

For the first m training queries (file order) and every method, the grid of C is fitted on
``train``, C chosen on ``vali`` by each criterion (NDCG@10, MRR, WTA; ties: smaller C) and the
chosen model evaluated on ``test``: every measure that is a mean over test queries is stored
with each query's value.  For Figure 2's note: the number of test queries with fewer than n
documents (n = 1..10; the official LETOR 4.0 evaluation scores NDCG@n = 0 for them) and, for
Figure 2's methods, NDCG@n over the other test queries only (the same per-query values).
Table 2's counts (support vectors, iterations) of the models chosen on the full training split.
Fold means and the figures' derived values are declared in ``__init__``.

The measured times (Figure 7's training seconds, Table 2's % of the time in the QP) are not
taken here: this run pools with others, so its times would measure the load; the timing runs of
:mod:`.runtime` refit those methods alone, with interleaved repeats (:func:`select_method` is
the selection both time and use)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...data.load import load_letor_fold
from ...data.perturb import jittered
from ...evidence import Evidence
from ...metrics import mrr, wta
from ...evidence.protocol import measured, measures, select_each
from ...rankers import (DORM, LinearSVM, PrecisionAtKSVM, RankSVM, ROCAreaSVM,
                        SingleFeature)
from ...spec.params import StudyParams
from .names import (BLOCK, BY_SIZE, C_SCHEMES, CRITERIA, FIGURE2_METHODS, NDCG_AT, SHORT,
                    TABLE2, TEST_QUERIES, by_size, ndcg_long, scheme_method, series)

# BM25 of the whole document (LETOR 4.0 feature 25) / of title+abstract (LETOR 3.0 OHSUMED 41)
BM25_FEATURE = {"MQ2008": 24, "OHSUMED": 40}
LETOR_VERSION = {"MQ2008": 4, "OHSUMED": 3}
ONE_LEVEL = "query with a single relevance level (MRR and WTA undefined)"


def web_rankers(dataset: str, n_features: int | None = None) -> dict:
    """Every method of Sec. 6.3–6.5 that is implemented (SVM-IR-QP is not); BM25 only where
    the set has its BM25 column (a user's set under ``--on`` may not)."""
    rk = {"BM25": lambda: SingleFeature(feature=BM25_FEATURE[dataset])}
    if n_features is not None and BM25_FEATURE[dataset] >= n_features:
        rk = {}
    rk.update({
          "SVM": lambda: LinearSVM(),
          "RSVM": lambda: RankSVM(),
          "ROCArea": lambda: ROCAreaSVM(),
          "Precision@10": lambda: PrecisionAtKSVM(k=10),
          "Precision@3": lambda: PrecisionAtKSVM(k=3),
          "DORM (NDCG)": lambda: DORM(loss="ndcg", c="(i+1)^-1/2"),
          "DORM (MRR)": lambda: DORM(loss="mrr", c="(i+1)^-1"),
          "DORM (WTA)": lambda: DORM(loss="wta", c="(i+1)^-1/2"),
          "DORM (mWTA)": lambda: DORM(loss="mwta", c="(i+1)^-1/2")})
    for s in C_SCHEMES:
        if s != "(i+1)^-1/2":
            rk[scheme_method(s)] = (lambda s=s: DORM(loss="ndcg", c=s))
    return rk


def _vali_measures(data, scores, version) -> dict:
    """The selection criteria on vali (and the rest of :func:`_test_measures`' summary)."""
    m = measures(data, scores, list(NDCG_AT), version)
    m["MRR"] = float(mrr(data.y, scores, data.query_ptr)[1])
    w, _ = wta(data.y, scores, data.query_ptr)
    m["WTA"] = float(np.nanmean(w)) if np.any(~np.isnan(w)) else float("nan")
    m["WTA correct"] = float(np.nansum(w))
    return m


def _test_measures(data, scores, version) -> tuple[dict, dict]:
    """Summary (as :func:`_vali_measures`) and per-query values of the test measures."""
    ev = measured(data, scores, list(NDCG_AT), version)
    summary, per_query = dict(ev.summary), dict(ev.per_query)
    r, summary["MRR"] = mrr(data.y, scores, data.query_ptr)
    summary["MRR"] = float(summary["MRR"])
    w, _ = wta(data.y, scores, data.query_ptr)
    summary["WTA"] = float(np.nanmean(w)) if np.any(~np.isnan(w)) else float("nan")
    summary["WTA correct"] = float(np.nansum(w))
    per_query["MRR"], per_query["WTA"] = r, w
    return summary, per_query


def _struct_stats(model) -> dict | None:
    r = getattr(model, "result_", None)
    if r is None or not hasattr(r, "n_sv"):
        return None
    return {"n_sv": r.n_sv, "n_iter": r.n_iter, "qp_share": 100.0 * r.qp_share}


def table2_stats(method: str, sels: dict) -> list[tuple[str, str, dict]]:
    """Table 2's rows of ``method`` (its selections ``sels`` by criterion): ``(row label,
    criterion, {"n_sv", "n_iter", "qp_share"})`` of the model chosen by each criterion of a
    block that lists the method."""
    out = []
    for crit, rows in TABLE2.items():
        label = dict(rows).get(method)
        st = _struct_stats(sels[crit].model) if label else None
        if st:
            out.append((label, crit, st))
    return out


def select_method(rankers: dict, method: str, train, vali, grid, version) -> dict:
    """``method`` fitted on ``train`` over the grid of C (if it has a C), chosen on ``vali``
    by each criterion (:data:`.names.CRITERIA`; ties: the smaller C): ``{criterion:
    Selection}``.  Figure 7 times this call ("training plus cross validation", Sec. 6.5)."""
    base = rankers[method]()
    return select_each(base, train, vali, {"C": grid} if "C" in base.get_params() else {},
                       CRITERIA, prefer=("C",),
                       evaluate=lambda d, s: _vali_measures(d, s, version))


@dataclass(frozen=True)
class WebParams(StudyParams):
    """The web-search study: training ``sizes`` per dataset (query counts or "all"), the
    ``grid`` of C, the ``methods`` (and DORM's c schemes unless ``c_schemes`` is false)."""
    sizes: dict[str, list]
    grid: list[float]
    methods: list[str]
    c_schemes: bool = True


def run_web_fold(dataset: str, fold: int, p: WebParams, data_dir, log,
                 like: str | None = None,
                 jitter_seed=None) -> Evidence:
    """One fold of the web-search study (module docstring).  ``jitter_seed``: an arithmetic
    replicate — the training split's features are moved by a relative 2⁻⁴⁰ jitter from that
    seed (:func:`repro.data.perturb.jittered`); validation and test stay as given."""
    splits = load_letor_fold(dataset, fold, data_dir)
    train, vali, test = splits["train"], splits["vali"], splits["test"]
    train = jittered(train, jitter_seed)
    like = like or dataset                  # the paper's dataset whose settings apply
    version = LETOR_VERSION[like]
    grid = [float(c) for c in p.grid]
    rankers = web_rankers(like, train.n_features)
    methods = [m for m in rankers if m in p.methods or (m.startswith("DORM (NDCG, c=")
                                                         and p.c_schemes)]
    sizes = [str(s) for s in p.sizes[like] if s == "all" or int(s) < train.n_queries]
    ev = Evidence(n_train=train.n_queries, sizes=sizes)
    qids = test.qids
    n_docs = np.diff(test.query_ptr)
    ev.value("data", TEST_QUERIES, int(n_docs.size), fold)
    for k in range(1, len(NDCG_AT) + 1):            # Figure 2's note: NDCG@k of them is 0
        ev.value("data", SHORT.format(n=k), int((n_docs < k).sum()), fold)
    for size in sizes:
        tr = train if size == "all" else train.subset(np.arange(int(size)), train.source)
        m_size = train.n_queries if size == "all" else int(size)
        shown = []
        for method in methods:
            sels = select_method(rankers, method, tr, vali, grid, version)
            test_of = {c: _test_measures(test, sels[c].model.predict(test.X), version)
                       for c in CRITERIA}
            shown.append(f"{method} {test_of['NDCG@10'][0]['NDCG@10']:.3f}")
            for crit, measure, scale in BY_SIZE:
                summary, per_query = test_of[crit]
                name = by_size(measure, size)
                if measure == "WTA correct":          # a count of queries, not a mean
                    ev.value(method, name, scale * summary[measure], fold, m=m_size,
                             series=series(measure))
                else:
                    ev.per_query(method, name, qids, scale * per_query[measure], fold,
                                 value=scale * summary[measure],
                                 why=ONE_LEVEL if np.isnan(per_query[measure]).any() else "",
                                 m=m_size, series=series(measure))
            if size != sizes[-1]:                     # the full training split ("all")
                continue
            summary, per_query = test_of["NDCG@10"]
            for k, name in enumerate(NDCG_AT, 1):
                ev.per_query(method, name, qids, 100.0 * per_query[name], fold,
                             value=100.0 * summary[name])
                if method in FIGURE2_METHODS and (long_q := n_docs >= k).any():
                    ev.per_query(method, ndcg_long(k), qids[long_q],
                                 100.0 * np.asarray(per_query[name])[long_q], fold)
            for label, crit, st in table2_stats(method, sels):
                ev.value(label, f"# SVs ({BLOCK[crit]})", st["n_sv"], fold)
                ev.value(label, f"# Iter ({BLOCK[crit]})", st["n_iter"], fold)
        log(f"{dataset} fold {fold}, m = {size}: " + ", ".join(shown))
    return ev
