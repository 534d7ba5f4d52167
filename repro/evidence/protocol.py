"""The shared experimental protocol: measures by name over the LETOR-exact evaluation, and
selection of parameters on a validation split.

``measures(data, scores, ("MAP", "NDCG@10"), version=4)`` evaluates scores with the official
LETOR conventions (:func:`repro.metrics.evaluate`: ties in file order, the 3.0 or 4.0 rules
beyond a query's length); ``measured(...)`` returns the same averages with each query's value
(:class:`repro.evidence.Measured`), what a task stores as evidence.  Names: ``MAP``, ``MeanNDCG`` (4.0's mean of NDCG@1..n),
``P@k``, ``NDCG@k``.

``select(ranker, train, vali, grid, criterion="MAP", prefer=("lam", "k"))`` fits every
candidate of ``grid`` through :meth:`Ranker.fit_grid` (so a ranker that solves a grid as a
whole — a shared factorisation, a regularisation path, warm starts — does so), evaluates each on
``vali`` and returns the best by ``criterion``; ties (equal values) go by the rule ``prefer``,
given as data: parameter names in order, each preferring the smaller value, or the larger one
with a leading ``-`` (``("lam", "k")``: smaller λ, then smaller k).  Remaining ties keep the
first candidate in grid order.  Every candidate's validation measures are kept
(:attr:`Selection.candidates`), e.g. for validation curves.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import run_files
from ..errors import DataError
from . import Measured
from ..metrics import evaluate
from ..metrics.scorer import parse_measure


def measured(data, scores, names, version: int = 4) -> Measured:
    """The named LETOR measures of ``scores`` on ``data`` (a QueryData): the averages over
    queries as the official scripts compute them (``summary``) and each query's value
    (``per_query``, in the data's query order; ``qids``) — the same numbers, so that a mean,
    an interval or a paired test downstream starts from the evaluation's own values.
    While a score sink is active (``python -m repro runs``, :mod:`repro.evidence.run_files`), the
    scored data and scores are attached to the result (``scored``, never serialised); with
    none, nothing is."""
    names = (names,) if isinstance(names, str) else tuple(names)
    parsed = [parse_measure(n) for n in names]
    if version == 3 and any(kind == "MeanNDCG" for kind, _ in parsed):
        raise DataError("measure 'MeanNDCG' exists only with the LETOR 4.0 conventions")
    max_k = max([k for _, k in parsed] + [1])
    ev = evaluate(data.y, np.asarray(scores), data.query_ptr, data.qids, version=version,
                  max_k=max_k)
    summary, per_query = {}, {}
    for name, (kind, k) in zip(names, parsed):
        if kind == "MAP":
            summary[name], per_query[name] = float(ev.map), ev.ap
        elif kind == "MeanNDCG":
            summary[name], per_query[name] = float(ev.avg_mean_ndcg), ev.mean_ndcg
        elif kind == "P":
            summary[name], per_query[name] = float(ev.avg_precision[k - 1]), ev.precision[:, k - 1]
        else:
            summary[name], per_query[name] = float(ev.avg_ndcg[k - 1]), ev.ndcg[:, k - 1]
    qids = list(np.asarray(data.qids).tolist()) if data.qids is not None \
        else list(range(data.n_queries))
    out = Measured(qids, summary, {n: np.asarray(v, dtype=np.float64).copy()
                                   for n, v in per_query.items()})
    run_files.attach(out, data, scores, version)
    return out


def measures(data, scores, names, version: int = 4) -> dict[str, float]:
    """The named LETOR measures of ``scores`` on ``data`` (a QueryData), averaged over queries
    as the official scripts do (``version`` 3 or 4)."""
    return measured(data, scores, names, version).summary


@dataclass
class Selection:
    """The chosen candidate and every candidate's validation measures (grid order)."""
    params: dict
    model: object
    score: float
    criterion: str
    candidates: list[dict] = field(default_factory=list)   # {"params": …, measure: value}

    def curve(self, measure: str, where: dict | None = None, along: str | None = None) -> list:
        """Validation values of ``measure`` for the candidates matching ``where`` (parameter
        values), in grid order (sorted by ``along`` if given)."""
        rows = [c for c in self.candidates
                if all(c["params"].get(k) == v for k, v in (where or {}).items())]
        if along is not None:
            rows = sorted(rows, key=lambda c: c["params"][along])
        return [c[measure] for c in rows]


def _tie_key(params: dict, prefer) -> tuple:
    key = []
    for name in prefer:
        larger = name.startswith("-")
        v = params.get(name.lstrip("-"))
        v = float("inf") if v is None else float(v)     # None (e.g. k = all) counts as largest
        key.append(-v if larger else v)
    return tuple(key)


def select_each(ranker, train, vali, grid, criteria, prefer=(), evaluate=None,
                version: int = 4) -> dict[str, Selection]:
    """Fit every candidate of ``grid`` once (through :meth:`Ranker.fit_grid`) and choose, for
    each of ``criteria``, the candidate maximising it on ``vali`` (ties by ``prefer``; an
    undefined (NaN) value never wins — where no candidate has a defined value, the first
    candidate is kept, with score NaN).  ``evaluate(data, scores) -> {measure: value}`` computes the validation
    measures (default: :func:`measures` of ``criteria`` with LETOR ``version`` conventions);
    every candidate's measures are kept in each Selection."""
    criteria = (criteria,) if isinstance(criteria, str) else tuple(criteria)
    if evaluate is None:
        def evaluate(data, scores):
            return measures(data, scores, criteria, version)
    best: dict[str, tuple] = {}
    first = None
    cands = []
    for params, model in ranker.fit_grid(train, grid):
        vals = dict(evaluate(vali, model.predict(vali.X)))
        cands.append({"params": dict(params), **vals})
        first = first or (params, model)
        for crit in criteria:
            score = vals[crit]
            if score is None or np.isnan(score):
                continue
            key = (-score, _tie_key(params, prefer))
            if crit not in best or key < best[crit][0]:
                best[crit] = (key, params, model, score)
    if first is None:
        raise DataError("select: the grid has no candidate")
    for crit in criteria:
        best.setdefault(crit, (None, first[0], first[1], float("nan")))
    return {c: Selection(dict(p), m, float(v), c, cands) for c, (_, p, m, v) in best.items()}


def select(ranker, train, vali, grid, criterion: str = "MAP", prefer=(),
           measures_: tuple = (), version: int = 4) -> Selection:
    """Fit ``ranker`` on ``train`` for every candidate of ``grid`` and choose by the validation
    ``criterion`` (maximised), ties by ``prefer``.  ``measures_``: further measures recorded
    for every candidate (not used to choose)."""
    names = (criterion,) + tuple(m for m in measures_ if m != criterion)
    sel = select_each(ranker, train, vali, grid, (criterion,), prefer,
                      lambda data, scores: measures(data, scores, names, version))[criterion]
    if np.isnan(sel.score):
        raise DataError(f"select: no candidate of the grid has a defined validation {criterion}")
    return sel
