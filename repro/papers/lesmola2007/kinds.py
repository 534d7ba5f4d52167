"""Two aggregation kinds first used by lesmola2007 (Table 1), declared in ``__init__`` and
registered with :func:`repro.judge.kinds.kind` (generic: they name no method or data set of the
paper; they belong in :mod:`repro.judge.kinds` when that module is next edited).

* :class:`SettingMeans` — the fold mean at every value of a grid field, each as its own record
  (a curve: Table 1's NDCG@10 at every C), its fold label naming the setting, so that the curve
  reaches the artifact's JSON beside the values at the chosen setting without taking their key;
* :class:`Difference` — one record minus another within a group (the optimism of Table 1's
  literal selection: its fold mean at the C it chose minus the nested cross-validation's).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...evidence import TableIndex
from ...judge import intervals
from ...judge.kinds import _defined, compare_paired, fold_mean, kind, with_tables
from ...judge.stats import seed_from
from ...spec import Artifact
from ...judge.kinds import FoldMean
from ...evidence.record import matches


@dataclass(frozen=True)
class SettingMeans:
    """Aggregation: the mean over the declared folds of the records matched by ``select``,
    per (dataset, method, metric, value of ``over``) — as :class:`~repro.spec.FoldMean`
    with ``by=(over,)`` — each emitted with ``fold = label.format(**{over: value})``, the field
    ``over`` removed (the other fields common to its folds kept, e.g. the key of their
    per-query tables) and ``series``."""
    over: str
    select: dict
    label: str
    series: str


@kind(SettingMeans)
def setting_means(art: Artifact, records: list[dict], agg: SettingMeans):
    tmp = f"\x00{agg.label}"                   # a fold label no record carries
    out = []
    on_grid = [r for r in records if r.get(agg.over) is not None]
    for r in fold_mean(art, on_grid, FoldMean(select=agg.select, label=tmp, by=(agg.over,))):
        value = r.pop(agg.over)
        r["fold"] = agg.label.format(**{agg.over: value})
        r["series"] = agg.series
        out.append(r)
    return out, {}


@dataclass(frozen=True)
class Difference:
    """Aggregation: per group ``within`` (default dataset), the value of the one record
    matching ``minuend`` minus that of the one record matching ``subtrahend``, as a record
    with method ``method``, metric ``metric``, fold None, and both values (fields
    ``minuend_value``, ``subtrahend_value``).  A group without exactly one of each emits
    nothing; an undefined value gives NaN with a ``why``.  Where both values are means over
    the same test queries, the difference gets a paired interval
    (:func:`repro.judge.kinds.compare_paired`: a bootstrap over the per-query differences,
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
        if _defined(x) and _defined(y):
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
