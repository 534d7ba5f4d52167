"""How dubey2009's claims are judged: paired tests on the runs' per-query tables (the claim
record contract of the suite), never a comparison of two means.

* :class:`QueryTables` — the per-query tables of the finished runs (``output["per_query"]``,
  :mod:`repro.evidence`), keyed by (dataset as run, part, method, metric, convention) and fold;
  two methods are paired by query id within each fold and pooled over the artifact's declared
  folds (a dataset with a missing fold is not testable);
* :func:`compare` — one paired comparison (:func:`repro.judge.stats.paired`: t-test of the per-query
  differences, ``scipy.stats.ttest_rel``, with a bootstrap interval of the mean difference);
* :func:`judge` — a claim made of several comparisons: "V (its best variant) beats every X"
  holds when some variant beats every X, each comparison significant after Holm's adjustment
  across all the claim's comparisons; it is contradicted when every variant is significantly
  beaten by some X; ``every=True`` ("the worse of V₁ and V₂ beats …") needs every variant;
* :func:`claim_record` — the record of one claim in one cell, with the fields of the contract
  (``claim``, ``statement``, ``outcome``, ``value`` = ``effect``, ``ci95``, ``p_value``,
  ``n_queries`` or ``n_folds``, ``test``, ``numbers``; ``effect_ratio`` and ``delta_ri`` where
  the paper publishes both numbers).

Seeds of the bootstrap intervals: sha256 of a text naming the artifact, claim, dataset, metric
and the compared methods (:func:`seed_of`), so a claim's interval does not depend on the order
in which claims are judged.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...judge import stats as st
from ...evidence import TableIndex, table_mean
from ...evidence.record import record
from .names import CLAIMS

HOLDS, CONTRADICTED, NOT_SIGNIFICANT, NOT_TESTABLE = (
    st.HOLDS, st.CONTRADICTED, st.NOT_SIGNIFICANT, st.NOT_TESTABLE)
OUTCOMES = st.OUTCOMES
ALPHA = 0.05


seed_of = st.seed_from          # the seed of a claim's bootstrap interval, from its text


def _num(v) -> float:
    return float("nan") if v is None else float(v)


class QueryTables:
    """The per-query tables of the finished runs ``outputs`` (``(RunSpec, output)``)."""

    def __init__(self, art, outputs):
        self.art = art
        tables = [{**t, "dataset": spec.dataset, "fold": str(spec.fold)}
                  for spec, out in outputs for t in out.get("per_query", [])]
        self.index = TableIndex(tables)
        self._datasets = [(t["dataset"], t.get("part")) for t in tables]

    def datasets(self, part: str) -> list[str]:
        return list(dict.fromkeys(d for d, p in self._datasets if p == part))

    def folds(self, dataset, part, method, metric, convention=None) -> list[tuple] | None:
        """``[(fold, qids, values)]`` over the declared folds of ``dataset``; None when a
        fold (or the table) is missing."""
        declared = [str(f) for f in self.art.folds_for(dataset) if f is not None]
        got = self.index.folds({"dataset": dataset, "part": part, "method": method,
                                "metric": metric, "convention": convention}, declared)
        if not declared or got is None:
            return None
        return [(f, list(t["qids"]), list(t["values"])) for f, t in zip(declared, got)]

    def mean(self, dataset, part, method, metric, convention=None) -> float:
        """The mean of the fold means (as Figure 3's cells and the studies' FoldMeans)."""
        folds = self.folds(dataset, part, method, metric, convention)
        if folds is None:
            return float("nan")
        return float(np.mean([table_mean({"values": v}) for _, _, v in folds]))

    def aligned(self, dataset, part, methods, metric, convention=None) -> np.ndarray | None:
        """Per-query values of ``methods`` (one column each), rows paired by query id within
        each fold (the queries every table has) and pooled over the folds; undefined values
        NaN.  None when a method's tables are not complete."""
        per = [self.folds(dataset, part, m, metric, convention) for m in methods]
        if any(f is None for f in per):
            return None
        rows = []
        for folds in zip(*per):
            maps = [dict(zip(q, v)) for _, q, v in folds]
            for q in folds[0][1]:
                if all(q in m for m in maps):
                    rows.append([_num(m[q]) for m in maps])
        return np.asarray(rows, dtype=np.float64).reshape(-1, len(methods))

    def paired(self, dataset, part, a, b, metric, convention=None):
        """``(values of a, values of b)`` paired by query (see :meth:`aligned`), or None."""
        x = self.aligned(dataset, part, (a, b), metric, convention)
        return None if x is None else (x[:, 0], x[:, 1])


@dataclass
class Comparison:
    """``a`` against ``b``: the paired result (effect = mean(a − b)), the means compared and
    the p-value after Holm's adjustment across the claim's comparisons."""
    a: str
    b: str
    res: st.Paired
    p_adj: float = float("nan")
    sign: int = 1

    @property
    def outcome(self) -> str:
        if not (math.isfinite(self.p_adj) and self.p_adj < ALPHA):
            return NOT_SIGNIFICANT
        return HOLDS if np.sign(self.res.effect) == np.sign(self.sign) else CONTRADICTED

    def as_dict(self) -> dict:
        return {"compared": f"{self.a} − {self.b}", "effect": self.res.effect,
                "ci95": list(self.res.ci95) if self.res.ci95 else None,
                "p_value": self.res.p_value, "p_holm": self.p_adj, "outcome": self.outcome}


def compare(a: str, b: str, x, y, seed_text: str, sign: int = 1) -> Comparison:
    """A paired t-test of per-query values ``x`` (of ``a``) against ``y`` (of ``b``)."""
    return Comparison(a, b, st.paired(x, y, seed_of(seed_text)), sign=sign)


@dataclass
class Judgement:
    outcome: str
    binding: Comparison | None
    comparisons: list[Comparison] = field(default_factory=list)
    adjusted: bool = False


def judge(by_variant: dict[str, list[Comparison]], every: bool = False) -> Judgement:
    """A claim over variants × opponents (see the module docstring).  Holm's adjustment over
    all its comparisons when there are more than one.  The binding comparison (whose effect,
    interval and p-value the record shows) is, among the comparisons agreeing with the
    outcome, the closest call (largest adjusted p-value) — for "holds", within the variant
    that holds most clearly."""
    comps = [c for cs in by_variant.values() for c in cs]
    adjusted = len(comps) > 1
    ps = st.holm([c.res.p_value if math.isfinite(c.res.p_value) else 1.0 for c in comps]) \
        if adjusted else [c.res.p_value for c in comps]
    for c, p in zip(comps, ps):
        c.p_adj = float(p)
    status = {v: (HOLDS if all(c.outcome == HOLDS for c in cs) else
                  CONTRADICTED if any(c.outcome == CONTRADICTED for c in cs) else
                  NOT_SIGNIFICANT) for v, cs in by_variant.items()}
    if every:
        outcome = (HOLDS if all(s == HOLDS for s in status.values()) else
                   CONTRADICTED if any(s == CONTRADICTED for s in status.values()) else
                   NOT_SIGNIFICANT)
    else:
        outcome = (HOLDS if any(s == HOLDS for s in status.values()) else
                   CONTRADICTED if all(s == CONTRADICTED for s in status.values()) else
                   NOT_SIGNIFICANT)
    if outcome == HOLDS and not every:
        pool = min((cs for v, cs in by_variant.items() if status[v] == HOLDS),
                   key=lambda cs: max(c.p_adj for c in cs))
    else:
        pool = comps
    agreeing = [c for c in pool if c.outcome == outcome] or pool
    binding = max(agreeing, key=lambda c: (c.p_adj, -abs(c.res.effect))) if agreeing else None
    return Judgement(outcome, binding, comps, adjusted)


def describe_test(j: Judgement, unit: str, n: int, folds: int, every: bool = False,
               test: str = "paired t-test") -> str:
    """The ``test`` field: what was tested, on what, with which adjustment."""
    k = len(j.comparisons)
    words = (f"{test} over {n} {unit} pooled over {folds} folds (scipy.stats.ttest_rel); "
             f"95% bootstrap interval of the mean difference")
    if k > 1:
        words += (f"; {k} comparisons, p-values adjusted by Holm's method across them "
                  f"({'every variant must' if every else 'some variant must'} beat every "
                  f"opponent; the record shows the binding comparison)")
    return words


def claim_record(statement: str, section: str, paper_count: str, dataset: str, metric: str,
                 j: Judgement | None, test: str, numbers: dict, why: str = "",
                 fold_test: bool = False, **extra) -> dict:
    """One claim in one cell, as the contract has it."""
    base = dict(dataset=dataset, part=CLAIMS, claim=True, statement=statement,
                section=section, paper_count=paper_count, test=test, numbers=numbers)
    if j is None or j.binding is None or not math.isfinite(j.binding.res.p_value):
        rec = record(statement, metric, float("nan"), None, **base, outcome=NOT_TESTABLE,
                     effect=float("nan"), ci95=None, p_value=float("nan"),
                     why=why or "no paired values")
        rec["n_folds" if fold_test else "n_queries"] = 0 if j is None or j.binding is None \
            else j.binding.res.n_queries
        rec.update(extra)
        return rec
    b = j.binding
    rec = record(statement, metric, b.res.effect, None, **base, outcome=j.outcome,
                 effect=b.res.effect, ci95=list(b.res.ci95) if b.res.ci95 else None,
                 p_value=b.p_adj, compared=f"{b.a} − {b.b}")
    rec["n_folds" if fold_test else "n_queries"] = b.res.n_queries
    if j.adjusted:
        rec["p_unadjusted"] = b.res.p_value
        rec["comparisons"] = [c.as_dict() for c in j.comparisons]
    rec.update(extra)
    return rec


def summary_record(statement: str, section: str, paper_count: str, recs: list[dict]) -> dict:
    """How many cells each outcome has: the counterpart of the paper's "N of 32"."""
    n = {o: sum(r["outcome"] == o for r in recs) for o in OUTCOMES}
    testable = len(recs) - n[NOT_TESTABLE]
    cells = "; ".join(f"{r['dataset']} {r['metric']}: {r['outcome']}" for r in recs
                      if r["outcome"] != NOT_TESTABLE)
    note = (f"§{section}; by paired tests: holds in {n[HOLDS]} of {testable} testable cells, "
            f"contradicted in {n[CONTRADICTED]}, not significant in {n[NOT_SIGNIFICANT]} "
            f"(paper: {paper_count})" + (f" — {cells}" if cells else ""))
    return record(statement, "cells where it holds (paired tests)", float(n[HOLDS]) if testable
                  else float("nan"), None, dataset="all", part=CLAIMS, section=section,
                  paper_count=paper_count, counts=n, testable_cells=testable, note=note,
                  **({} if testable else {"why": f"{NOT_TESTABLE}: no cell has its data"}))


def judge_all(variants, opponents, pair_of, seed_base: str, every: bool = False
              ) -> Judgement | None:
    """Every variant against every opponent (``pair_of(a, b)`` → paired per-query values or
    None), judged together (:func:`judge`); None when a pair is missing."""
    by_variant: dict[str, list[Comparison]] = {}
    for v in variants:
        by_variant[v] = []
        for o in opponents:
            pair = pair_of(v, o)
            if pair is None:
                return None
            by_variant[v].append(compare(v, o, *pair, f"{seed_base}/{v} vs {o}"))
    return judge(by_variant, every)
