"""Values across records:

* :class:`MicroAverage` — a query-weighted average over the artifact's datasets;
* :class:`Spread` — the range (max − min) over entities (e.g. a method's c schemes);
* :class:`Difference` — one record minus another within a group, with a paired interval where
  both are means over the same test queries.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...evidence import TableIndex
from ...evidence.record import defined, matches
from ...spec import Artifact
from .. import intervals
from ..claims import compare_paired
from ..stats import seed_from
from .grouping import shared
from .registry import kind, with_tables


@dataclass(frozen=True)
class MicroAverage:
    """Aggregation: a query-weighted average over datasets of every record matched by
    ``select`` (records carry their number of queries in the field ``weight``), as a record
    with ``dataset = label`` — only where every dataset of the artifact contributed."""
    select: dict = field(default_factory=dict)
    weight: str = "queries"
    label: str = "microaverage"


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
        rec = {**shared(recs), "dataset": agg.label, "method": method,
               "metric": metric, "fold": fold}
        rec.pop(agg.weight, None)
        w = np.array([float(r[agg.weight]) for r in recs])
        vals = [r["value"] for r in recs]
        if all(defined(v) for v in vals):
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


kind(MicroAverage)(micro_average)


@dataclass(frozen=True)
class Spread:
    """Aggregation: the range (max − min) over the entities (values of the field ``over``,
    default ``entities``: every one present) of the records matched by ``select``, per
    (dataset, metric, fold) — only where every entity of ``entities`` is present.  Emits
    ``over = label``, metric ``metric_format.format(metric=…)``, the entities' values in the
    field ``values_field``, the fields common to the group's records among ``keep``, and for
    each field of ``fold_fields`` missing from them its mean over the records behind the
    group (same dataset and metric, other folds; e.g. a training size that varies by fold)."""
    label: str
    select: dict = field(default_factory=dict)
    over: str = "method"
    entities: tuple = ()
    metric_format: str = "max difference in {metric}"
    values_field: str = "values"
    keep: tuple[str, ...] = ()
    fold_fields: tuple[str, ...] = ()


def spread(art: Artifact, records: list[dict], agg: Spread) -> list[dict]:
    groups: dict[tuple, dict] = {}
    for r in records:
        if matches(agg.select, r):
            key = (r.get("dataset"), r.get("metric"), r.get("fold"))
            groups.setdefault(key, {})[r.get(agg.over)] = r
    out = []
    for (ds, metric, fold), by_entity in groups.items():
        names = list(agg.entities) or list(by_entity)
        if any(e not in by_entity for e in names):
            continue
        vals = {e: by_entity[e]["value"] for e in names}
        common = shared([by_entity[e] for e in names])
        rec = {k: v for k, v in common.items() if k in agg.keep}
        rec.update({"dataset": ds, agg.over: agg.label, "fold": fold,
                    "metric": agg.metric_format.format(metric=metric)})
        for f in agg.fold_fields:
            if f not in rec:
                behind = [r[f] for r in records if r.get("dataset") == ds
                          and r.get("metric") == metric and r.get("fold") != fold
                          and r.get(agg.over) in vals and f in r]
                if behind:
                    rec[f] = float(np.mean(behind))
        if all(defined(v) for v in vals.values()):
            rec["value"] = float(max(vals.values()) - min(vals.values()))
        else:
            rec["value"] = float("nan")
            rec["why"] = "an entity's value is undefined"
        rec[agg.values_field] = vals
        out.append(rec)
    return out


kind(Spread)(lambda art, recs, agg: (spread(art, recs, agg), {}))


@dataclass(frozen=True)
class Difference:
    """Aggregation: per group ``within`` (default dataset), the value of the one record
    matching ``minuend`` minus that of the one record matching ``subtrahend``, as a record
    with method ``method``, metric ``metric``, fold None, and both values (fields
    ``minuend_value``, ``subtrahend_value``).  A group without exactly one of each emits
    nothing; an undefined value gives NaN with a ``why``.  Where both values are means over
    the same test queries, the difference gets a paired interval
    (:func:`repro.judge.claims.compare_paired`: a bootstrap over the per-query differences,
    pooled over folds, and the paired t-test's p-value)."""
    metric: str
    method: str
    minuend: dict
    subtrahend: dict
    within: tuple[str, ...] = ("dataset",)


@kind(Difference)
@with_tables
def difference(art: Artifact, records: list[dict], agg: Difference, tables=()):
    groups: dict[tuple, tuple[list, list]] = {}
    for r in records:
        key = tuple(r.get(f) for f in agg.within)
        a, b = groups.setdefault(key, ([], []))
        if matches(agg.minuend, r):
            a.append(r)
        elif matches(agg.subtrahend, r):
            b.append(r)
    out = []
    index, fold_groups = TableIndex(list(tables)), intervals.fold_groups(records)
    for key, (a, b) in groups.items():
        if len(a) != 1 or len(b) != 1:
            continue
        x, y = a[0]["value"], b[0]["value"]
        rec = {**dict(zip(agg.within, key)), "method": agg.method, "metric": agg.metric,
               "fold": None, "minuend_value": x, "subtrahend_value": y}
        if defined(x) and defined(y):
            rec["value"] = float(x) - float(y)
            seed = seed_from(f"{art.id}|{agg.metric}|{key}")
            test = compare_paired(art, a[0], b[0], index, records, fold_groups, seed)
            if test is not None and test["ci95"] is not None and \
                    abs(test["effect"] - rec["value"]) <= 1e-9 * max(1.0, abs(rec["value"])):
                rec.update(ci95=test["ci95"], n_queries=test["n_queries"],
                           n_folds=test["n_folds"], p_value=test["p_value"],
                           ci_basis="paired bootstrap over the per-query differences "
                                    f"({test['test']})")
        else:
            rec["value"] = float("nan")
            rec["why"] = "a value of the difference is undefined"
        out.append(rec)
    return out, {}
