"""Values computed across runs, from an artifact's declared aggregations
(:class:`~repro.experiment.FoldMean`, :class:`~repro.experiment.MicroAverage`,
:class:`~repro.experiment.Custom`), applied in declaration order when its records are gathered.

* fold mean: per (dataset, method, metric), the mean over the folds the artifact declares for
  that dataset, in declaration order (as ``numpy.mean`` of the fold values) — only when every
  declared fold has the record, so a --quick run on one fold gets no "avg";
* microaverage: per (method, metric, fold), Σ_d n_d v_d / Σ_d n_d over the artifact's datasets,
  n_d the record's ``weight`` field (its number of queries) — only when every dataset
  contributed; otherwise the reason is returned for the report;
* custom: a function of the paper's tasks module, given the outputs of the finished runs.

A mean involving an undefined value (NaN, or None from the cache) is NaN, with a ``why``.
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from .experiment import Artifact, Custom, FoldMean, MicroAverage, matches

_SKIP = ("value", "fold", "dataset", "why")


def _defined(v) -> bool:
    return v is not None and not (isinstance(v, float) and math.isnan(v))


def _common_fields(recs: list[dict]) -> dict:
    """Fields (other than the value and the key) equal in every record of a group."""
    first = recs[0]
    return {k: v for k, v in first.items() if k not in _SKIP
            and all(r.get(k) == v for r in recs[1:])}


def fold_mean(art: Artifact, records: list[dict], agg: FoldMean) -> list[dict]:
    """The fold means of the matching records; a (dataset, method, metric) whose mean is
    already among ``records`` (from an earlier aggregation, e.g. the modern reference's) is
    not averaged again."""
    groups: dict[tuple, dict] = {}
    have = set()
    for r in records:
        key = (r.get("dataset"), r.get("method"), r.get("metric"))
        if r.get("fold") == agg.label:
            have.add(key)
        if r.get("fold") in (None, agg.label) or not matches(agg.select, r):
            continue
        groups.setdefault(key, {})[str(r["fold"])] = r
    out = []
    for (ds, method, metric), by_fold in groups.items():
        if (ds, method, metric) in have:
            continue
        used = by_fold[next(iter(by_fold))].get("data_used") or ds
        declared = [str(f) for f in art.folds_for(used) if f is not None]
        if not declared or any(f not in by_fold for f in declared):
            continue
        recs = [by_fold[f] for f in declared]
        vals = [r["value"] for r in recs]
        rec = {**_common_fields(recs), "dataset": ds, "method": method, "metric": metric,
               "fold": agg.label}
        if all(_defined(v) for v in vals):
            rec["value"] = float(np.mean([float(v) for v in vals]))
        else:
            rec["value"] = float("nan")
            rec["why"] = "a fold's value is undefined"
        out.append(rec)
    return out


def micro_average(art: Artifact, records: list[dict], agg: MicroAverage) -> tuple[list, dict]:
    labels = [art.stand_ins.get(d, d) for d in art.datasets]
    groups: dict[tuple, dict] = {}
    for r in records:
        if r.get("dataset") == agg.label or not matches(agg.select, r):
            continue
        key = (r.get("method"), r.get("metric"), r.get("fold"))
        groups.setdefault(key, {})[r.get("dataset")] = r
    out, missing_any = [], set()
    for (method, metric, fold), by_ds in groups.items():
        missing = [d for d in labels if d not in by_ds]
        if missing:
            missing_any.update(missing)
            continue
        recs = [by_ds[d] for d in labels]
        rec = {**_common_fields(recs), "dataset": agg.label, "method": method,
               "metric": metric, "fold": fold}
        rec.pop(agg.weight, None)
        w = np.array([float(r[agg.weight]) for r in recs])
        vals = [r["value"] for r in recs]
        if all(_defined(v) for v in vals):
            rec["value"] = float(np.dot(w, [float(v) for v in vals]) / w.sum())
        else:
            rec["value"] = float("nan")
            rec["why"] = "a dataset's value is undefined"
        rec[agg.weight] = float(w.sum())
        out.append(rec)
    not_run = {}
    if missing_any or not groups:
        gone = [d for d in labels if d in missing_any] or labels
        not_run[agg.label] = ("the microaverage needs every dataset of the table; missing: "
                              + ", ".join(gone))
    return out, not_run


def apply(art: Artifact, records: list[dict], outputs: list[tuple],
          custom: Callable[[str, str], Callable]) -> tuple[list[dict], dict]:
    """``(records + aggregated records, not-run reasons by dataset label)``.  ``custom(paper,
    name)`` resolves a Custom aggregation's function; ``outputs``: ``(RunSpec, output)`` of
    the finished runs."""
    out, not_run = list(records), {}
    if art.reference:                                    # the modern reference's fold means
        out += fold_mean(art, out, FoldMean(select={"modern": True}))
    for agg in art.aggregate:
        if isinstance(agg, FoldMean):
            out += fold_mean(art, out, agg)
        elif isinstance(agg, MicroAverage):
            recs, why = micro_average(art, out, agg)
            out += recs
            not_run.update(why)
        elif isinstance(agg, Custom):
            out += [dict(r) for r in custom(art.paper, agg.function)(art, outputs)]
        else:
            raise TypeError(f"{art.id}: unknown aggregation {agg!r}")
    return out, not_run
