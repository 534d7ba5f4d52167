"""Values computed across runs, from an artifact's declared aggregations
(:class:`~repro.spec.FoldMean`, :class:`~repro.spec.MicroAverage`,
:class:`~repro.spec.Custom`), applied in declaration order when its records are gathered.

* fold mean: per (dataset, method, metric), the mean over the folds the artifact declares for
  that dataset, in declaration order (as ``numpy.mean`` of the fold values) — only when every
  declared fold has the record, so a --quick run on one fold gets no "avg";
* microaverage: per (method, metric, fold), Σ_d n_d v_d / Σ_d n_d over the artifact's datasets,
  n_d the record's ``weight`` field (its number of queries) — only when every dataset
  contributed; otherwise the reason is returned for the report;
* fold spread: the sample standard deviation over the same folds;
* best: best-of-grid selection of a setting by a criterion record, per group;
* ranks: competition ranks within groups, averaged over a field;
* custom: a function of the paper's tasks module, given the outputs of the finished runs
  (kept for what the vocabulary cannot say; each paper states why beside its use).

New kinds are registered with :func:`kind` (``@kind(MyDeclaration)`` on a function
``(art, records, decl) -> (records, not_run)``).

A mean involving an undefined value (NaN, or None from the cache) is NaN, with a ``why``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from ..spec import Artifact
from ..evidence import TableIndex
from ..evidence.record import OVER_FOLDS, common_fields, defined as _defined, matches
from . import intervals
from .published import load as load_published
from .stats import (CONTRADICTED, HOLDS, NOT_SIGNIFICANT, NOT_TESTABLE, paired,
                    reproduction_measures, seed_from)



@dataclass(frozen=True)
class FoldMean:
    """Aggregation: the mean over folds of every record matched by ``select``, as a record with
    ``fold = label`` — only where the record exists for every fold the artifact declares (a
    --quick run on fewer folds gets none).  Folds are averaged in declaration order.  Records
    are grouped by (dataset, method, metric) and the further fields ``by`` (e.g. ``("C",)``
    for one mean per grid value)."""
    select: dict = field(default_factory=dict)
    label: str | None = "avg"
    by: tuple[str, ...] = ()


@dataclass(frozen=True)
class FoldSpread:
    """Aggregation: the sample standard deviation (``ddof``) over the declared folds of every
    record matched by ``select``, as a record with metric ``metric + suffix`` and ``fold =
    label`` (grouped like :class:`FoldMean`)."""
    select: dict = field(default_factory=dict)
    label: str | None = "avg"
    suffix: str = " ±"
    ddof: int = 1
    by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Best:
    """Aggregation: best-of-grid selection.  Among the records matched by ``select``, group by
    ``within``; in each group the setting (the value of the field ``over``, or the tuple of
    values of several fields) whose *criterion* record (the group's record matching
    ``criterion``, e.g. ``{"fold": "avg"}``) is largest wins — ties by ``prefer`` ("smaller"
    or "larger" setting, compared field by field; an undefined criterion never wins).
    Emitted: every record of the group at the chosen setting, without the ``over`` fields (so
    it takes the cell of the paper's table; ``metric_format`` renames its metric, e.g.
    ``"maximum of {metric}"``), and, per entry of ``chosen_metric`` (one metric name, or
    ``{field: metric name}``), a record of the chosen value at the criterion's fold.
    ``emit="criterion"`` emits only the criterion record of the chosen setting.
    ``within`` defaults to (dataset, method, metric)."""
    over: str | tuple
    select: dict = field(default_factory=dict)
    criterion: dict = field(default_factory=lambda: {"fold": "avg"})
    within: tuple[str, ...] = OVER_FOLDS
    prefer: str = "smaller"
    chosen_metric: str | dict | None = None
    metric_format: str = "{metric}"
    emit: str = "all"               # "all" records at the chosen setting, or the "criterion" one

    @property
    def fields(self) -> tuple[str, ...]:
        return (self.over,) if isinstance(self.over, str) else tuple(self.over)


@dataclass(frozen=True)
class Ranks:
    """Aggregation: per group ``within`` (default dataset and metric), the records matched by
    ``select`` ranked by value over the field ``over`` (default method): competition ranking,
    1 = the largest (``descending``) value, equal values share the best rank; then, if
    ``average_over`` is a field (e.g. "dataset"), each entity's mean rank over it, as a record
    with ``metric = metric_format.format(metric=...)`` and that field set to ``label``."""
    select: dict = field(default_factory=dict)
    over: str = "method"
    within: tuple[str, ...] = ("dataset", "metric")
    descending: bool = True
    average_over: str | None = "dataset"
    label: str = "average"
    metric_format: str = "average rank ({metric})"


@dataclass(frozen=True)
class MicroAverage:
    """Aggregation: a query-weighted average over datasets of every record matched by
    ``select`` (records carry their number of queries in the field ``weight``), as a record
    with ``dataset = label`` — only where every dataset of the artifact contributed."""
    select: dict = field(default_factory=dict)
    weight: str = "queries"
    label: str = "microaverage"


@dataclass(frozen=True)
class Custom:
    """Aggregation by a function of the paper's ``tasks`` module:
    ``function(artifact, outputs) -> records``, with ``outputs`` the outputs of the artifact's
    finished runs as ``(RunSpec, output)`` pairs in declaration order."""
    function: str



def _common_fields(recs: list[dict]) -> dict:
    """Fields (other than the value and those the aggregation sets) equal in every record."""
    return common_fields(recs, set_here=("fold", "dataset"))


def _by_folds(art: Artifact, records: list[dict], select: dict, label, by: tuple) -> tuple:
    """Records matched by ``select`` with a fold, grouped by (dataset, method, metric, *by),
    each group as {fold: record}; and the groups that already have a record at ``label``."""
    groups: dict[tuple, dict] = {}
    have = set()
    for r in records:
        key = (r.get("dataset"), r.get("method"), r.get("metric"),
               *(r.get(f) for f in by))
        if r.get("fold") == label and label is not None:
            have.add(key)
        if r.get("fold") in (None, label) or not matches(select, r):
            continue
        groups.setdefault(key, {})[str(r["fold"])] = r
    return groups, have


def _complete(art: Artifact, by_fold: dict) -> list[dict] | None:
    """The group's records in the artifact's declared fold order, or None if one is missing."""
    used = by_fold[next(iter(by_fold))].get("data_used") or \
        by_fold[next(iter(by_fold))].get("dataset")
    declared = [str(f) for f in art.folds_for(used) if f is not None]
    if not declared or any(f not in by_fold for f in declared):
        return None
    return [by_fold[f] for f in declared]


def fold_mean(art: Artifact, records: list[dict], agg: FoldMean) -> list[dict]:
    """The fold means of the matching records; a group whose mean is already among
    ``records`` (from an earlier aggregation, e.g. the modern reference's) is not averaged
    again."""
    groups, have = _by_folds(art, records, agg.select, agg.label, agg.by)
    out = []
    for key, by_fold in groups.items():
        if key in have:
            continue
        recs = _complete(art, by_fold)
        if recs is None:
            continue
        vals = [r["value"] for r in recs]
        rec = {**_common_fields(recs), "dataset": key[0], "method": key[1], "metric": key[2],
               "fold": agg.label}
        if all(_defined(v) for v in vals):
            rec["value"] = float(np.mean([float(v) for v in vals]))
        else:
            rec["value"] = float("nan")
            rec["why"] = "a fold's value is undefined"
        out.append(rec)
    return out


def fold_spread(art: Artifact, records: list[dict], agg: FoldSpread) -> list[dict]:
    """The sample standard deviation over the declared folds of each matching group."""
    groups, _ = _by_folds(art, records, agg.select, agg.label, agg.by)
    out = []
    for key, by_fold in groups.items():
        recs = _complete(art, by_fold)
        if recs is None:
            continue
        vals = [r["value"] for r in recs]
        rec = {**_common_fields(recs), "dataset": key[0], "method": key[1],
               "metric": f"{key[2]}{agg.suffix}", "fold": agg.label}
        if all(_defined(v) for v in vals) and len(vals) > agg.ddof:
            rec["value"] = float(np.std([float(v) for v in vals], ddof=agg.ddof))
        else:
            rec["value"] = float("nan")
            rec["why"] = "a fold's value is undefined" if len(vals) > agg.ddof \
                else "too few folds for a spread"
        out.append(rec)
    return out


def _setting_key(value, sign: float) -> tuple:
    try:
        return (0, sign * float(value), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(value))


def best(art: Artifact, records: list[dict], agg: Best) -> list[dict]:
    """Best-of-grid selection (see :class:`~repro.spec.Best`)."""
    fields = agg.fields
    groups: dict[tuple, dict] = {}
    for r in records:
        if any(f not in r for f in fields) or not matches(agg.select, r):
            continue
        key = tuple(r.get(f) for f in agg.within)
        setting = tuple(r[f] for f in fields)
        groups.setdefault(key, {}).setdefault(setting, []).append(r)
    sign = 1.0 if agg.prefer == "smaller" else -1.0
    chosen_metrics = ({fields[0]: agg.chosen_metric} if isinstance(agg.chosen_metric, str)
                      else dict(agg.chosen_metric or {}))
    out = []
    for key, by_setting in groups.items():
        scored = []
        for setting, recs in by_setting.items():
            crit = [r for r in recs if matches(agg.criterion, r)]
            if len(crit) == 1 and _defined(crit[0]["value"]):
                scored.append((float(crit[0]["value"]), setting, crit[0]))
        if not scored:
            continue
        _, chosen, crit_rec = min(
            scored, key=lambda it: (-it[0], tuple(_setting_key(v, sign) for v in it[1])))
        for r in (by_setting[chosen] if agg.emit == "all" else [crit_rec]):
            rec = {k: v for k, v in r.items() if k not in fields}
            rec["metric"] = agg.metric_format.format(metric=r.get("metric"))
            out.append(rec)
        for f, metric in chosen_metrics.items():
            rec = {k: v for k, v in crit_rec.items() if k not in fields and k != "why"}
            rec.update({"metric": metric, "value": chosen[fields.index(f)]})
            out.append(rec)
    return out


def ranks(art: Artifact, records: list[dict], agg: Ranks) -> list[dict]:
    """Competition ranks within groups, averaged (see :class:`~repro.spec.Ranks`)."""
    groups: dict[tuple, dict] = {}
    for r in records:
        if not matches(agg.select, r) or not _defined(r.get("value")):
            continue
        groups.setdefault(tuple(r.get(f) for f in agg.within), {})[r.get(agg.over)] = r
    ranked = []
    for key, by_entity in groups.items():
        vals = {e: float(r["value"]) for e, r in by_entity.items()}
        for e, r in by_entity.items():
            better = sum((vals[o] > vals[e]) if agg.descending else (vals[o] < vals[e])
                         for o in vals)
            ranked.append({**r, "value": float(1 + better), "rank_of": agg.over})
    if agg.average_over is None:
        return ranked
    rest = [f for f in agg.within if f != agg.average_over]
    avg: dict[tuple, list] = {}
    for r in ranked:
        avg.setdefault((r.get(agg.over), *(r.get(f) for f in rest)), []).append(r)
    out = []
    for key, recs in avg.items():
        rec = {agg.over: key[0], **dict(zip(rest, key[1:])), agg.average_over: agg.label,
               "fold": recs[0].get("fold"), "value": float(np.mean([r["value"] for r in recs])),
               "over": ", ".join(str(r.get(agg.average_over)) for r in recs)}
        if "metric" in rest:
            rec["metric"] = agg.metric_format.format(metric=rec["metric"])
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


#: declaration type -> function (art, records, declaration) -> (new records, not-run reasons);
#: a function with ``wants_tables`` set is also given the runs' per-query tables
KINDS: dict[type, Callable] = {}


def with_tables(fn):
    """Mark a function as taking the per-query tables (keyword ``tables``)."""
    fn.wants_tables = True
    return fn


def kind(decl_type: type):
    """Register the function computing a declaration type (see the module docstring)."""
    def register(fn):
        KINDS[decl_type] = fn
        return fn
    return register


kind(FoldMean)(lambda art, recs, agg: (fold_mean(art, recs, agg), {}))
kind(FoldSpread)(lambda art, recs, agg: (fold_spread(art, recs, agg), {}))
kind(MicroAverage)(micro_average)
kind(Best)(lambda art, recs, agg: (best(art, recs, agg), {}))
kind(Ranks)(lambda art, recs, agg: (ranks(art, recs, agg), {}))


def apply(art: Artifact, records: list[dict], outputs: list[tuple],
          custom: Callable[[str, str], Callable], tables: list | None = None
          ) -> tuple[list[dict], dict]:
    """``(records + aggregated records, not-run reasons by dataset label)``.  ``custom(paper,
    name)`` resolves a Custom aggregation's function; ``outputs``: ``(RunSpec, output)`` of
    the finished runs; ``tables``: their per-query tables (for kinds that test claims)."""
    out, not_run = list(records), {}
    if art.reference:                                    # the modern reference's fold means
        out += fold_mean(art, out, FoldMean(select={"modern": True}))
    for agg in art.aggregate:
        if isinstance(agg, Custom):
            out += [dict(r) for r in custom(art.paper, agg.function)(art, outputs)]
            continue
        fn = KINDS.get(type(agg))
        if fn is None:
            raise TypeError(f"{art.id}: unknown aggregation {agg!r}")
        recs, why = (fn(art, out, agg, tables=tables or []) if getattr(fn, "wants_tables", False)
                     else fn(art, out, agg))
        out += recs
        not_run.update(why)
    return out, not_run


# --- cells of a table with several conventions (first used by dubey2009) ---



@dataclass(frozen=True)
class Cells:
    """Aggregation: a printed table's cells from per-fold records measured several ways (e.g.
    conventions).  Records matched by ``select`` carry the field ``variant``; per (dataset,
    method, metric, variant) the mean over the artifact's declared folds (complete groups only,
    declaration order, as :func:`fold_mean`).  One record per (dataset, method, metric) that
    has the ``main`` variant: value = its mean (the record keeps ``variant = main``, so that
    the tables behind its folds are found by its fields), every other variant's mean as a field
    (its name, spaces as underscores), ``fold = label``, the fields ``drop`` removed, ``weight`` =
    ``weights[dataset]`` where given, and ``note`` = the parts of ``notes`` whose values all
    exist, joined: each part ``(format, names)``, a name being a variant of the same cell or
    ``"method|variant"`` of another row of the same (dataset, metric); a part naming another
    row is not added to that row's own cell."""
    select: dict
    variant: str
    main: str
    label: str = "avg"
    drop: tuple[str, ...] = ()
    weights: dict = field(default_factory=dict)
    weight: str = "queries"
    notes: tuple[tuple[str, tuple[str, ...]], ...] = ()


@kind(Cells)
def cells(art: Artifact, records: list[dict], agg: Cells) -> tuple[list[dict], dict]:
    groups, _ = _by_folds(art, records, agg.select, None, (agg.variant,))
    means: dict[tuple, tuple[float, list[dict]]] = {}
    for key, by_fold in groups.items():
        recs = _complete(art, by_fold)
        if recs is None:
            continue
        vals = [r["value"] for r in recs]
        means[key] = (float(np.mean([float(v) for v in vals]))
                      if all(_defined(v) for v in vals) else float("nan"), recs)
    out = []
    for (ds, method, metric, variant), (value, recs) in means.items():
        if variant != agg.main:
            continue
        rec = {k: v for k, v in _common_fields(recs).items() if k not in agg.drop}
        rec.update(dataset=ds, method=method, metric=metric, fold=agg.label, value=value)
        if not _defined(value):
            rec["why"] = "a fold's value is undefined"
        for (d, m, mt, v), (other, _) in means.items():
            if (d, m, mt) == (ds, method, metric) and v != agg.main:
                rec[str(v).replace(" ", "_")] = other
        if ds in agg.weights:
            rec[agg.weight] = agg.weights[ds]
        note = []
        for fmt, names in agg.notes:
            found = []
            for name in names:
                row, _, var = name.rpartition("|")
                if row == method:
                    break
                hit = means.get((ds, row or method, metric, var))
                if hit is None:
                    break
                found.append(hit[0])
            else:
                note.append(fmt.format(*found))
        if note:
            rec["note"] = "".join(note)
        out.append(rec)
    return out, {}


# --- paired tests over folds, spreads, claims (first used by lesmola2007) ---
# Generic kinds first used by lesmola2007: PairedTest (a paired test over folds), Spread (max −
# min over entities), Claim (a claim judged by paired tests on the values behind it).



@dataclass(frozen=True)
class PairedTest:
    """Aggregation: a paired test (``scipy.stats.<test>``, e.g. ``ttest_rel``) of the
    ``subject`` method against each of ``others`` (default every other method), over the
    artifact's declared folds, for each (dataset, metric, *by) of the records matched by
    ``select``.  Emits method ``"<subject> vs <other>"``, metric ``metric``, fold ``label``,
    the p-value, and ``mean_difference`` (subject − other, mean over the folds)."""
    subject: str
    select: dict = field(default_factory=dict)
    others: tuple | None = None
    metric: str = "paired t-test p-value"
    test: str = "ttest_rel"
    label: str | None = None
    by: tuple[str, ...] = ()


def paired_test(art: Artifact, records: list[dict], agg: PairedTest) -> list[dict]:
    import scipy.stats
    test = getattr(scipy.stats, agg.test)
    groups, _ = _by_folds(art, records, agg.select, None, agg.by)
    by_rest: dict[tuple, dict] = {}
    for (ds, method, metric, *rest), by_fold in groups.items():
        recs = _complete(art, by_fold)
        if recs is not None:
            by_rest.setdefault((ds, metric, *rest), {})[method] = [r["value"] for r in recs]
    out = []
    for (ds, metric, *rest), vals in by_rest.items():
        if agg.subject not in vals or not all(_defined(v) for v in vals[agg.subject]):
            continue
        subj = np.asarray(vals[agg.subject], dtype=np.float64)
        for other in (agg.others if agg.others is not None else vals):
            if other == agg.subject or other not in vals \
                    or not all(_defined(v) for v in vals[other]):
                continue
            o = np.asarray(vals[other], dtype=np.float64)
            out.append({"method": f"{agg.subject} vs {other}", "metric": agg.metric,
                        "value": float(test(subj, o).pvalue), "fold": agg.label,
                        "dataset": ds, **dict(zip(agg.by, rest)),
                        "mean_difference": float(np.mean(subj) - np.mean(o))})
    return out


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
        common = _common_fields([by_entity[e] for e in names])
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
        if all(_defined(v) for v in vals.values()):
            rec["value"] = float(max(vals.values()) - min(vals.values()))
        else:
            rec["value"] = float("nan")
            rec["why"] = "an entity's value is undefined"
        rec[agg.values_field] = vals
        out.append(rec)
    return out


@dataclass(frozen=True)
class Claim:
    """Aggregation: a claim of the paper judged by paired tests, per group ``within``
    (default dataset).  With ``subject`` (a select matching one record per group): "the
    subject is larger (``prefer="smaller"``: smaller) than every record matching ``others``" —
    each comparison is a paired test (:func:`repro.judge.stats.paired`, t-test) over the test
    queries behind both records (their per-query tables, paired by fold and query id, pooled
    over folds) or, where the records are not means over queries, over their fold values; the
    claim **holds** when every comparison is significant (p < 0.05) with the claimed sign (an
    intersection-union test: no multiplicity adjustment is needed for "every"),
    **contradicted** when one is significant with the other sign, **not significant here**
    otherwise, **not testable here** when a comparison has no paired evidence.  The record
    reports the weakest comparison (the closest competitor): its effect (subject − other),
    bootstrap 95% interval, p-value and number of queries (or folds); ``p_value`` is the
    largest p of the comparisons.  With ``bound``: a claim about p-values of :class:`PairedTest`
    records ("p < 0.0001") — holds when every record matching ``others`` is below ``bound``
    and the claims of ``requires`` hold; its effect and interval are those of the first
    required claim.  ``requires``: statements of claims already made in the group that must
    hold as well.  Where the paper publishes both compared values, the record adds Breuer et
    al.'s effect ratio and ΔRI (:func:`repro.judge.stats.reproduction_measures`).  Numbers shown:
    ``shown`` = "best" (the subject and the best of the others), "all" or a select; names by
    ``subject_name`` / ``other_name``; values rounded to ``digits`` decimals or ``significant``
    figures.  ``key``: a headline claim of the paper (the index's scoreboard)."""
    claim: str
    statement: str
    others: dict
    subject: dict | None = None
    bound: float | None = None
    prefer: str = "larger"
    within: tuple[str, ...] = ("dataset",)
    requires: tuple[str, ...] = ()
    shown: str | dict = "best"
    subject_name: str = "{method}"
    other_name: str = "{method}"
    digits: int = 2
    significant: int | None = None
    key: bool = False


def compare_paired(art: Artifact, a: dict, b: dict, index, records: list[dict], groups: dict,
                   seed: int) -> dict | None:
    """A paired test of record ``a`` against record ``b`` (``a − b``): over the test queries
    behind both (pooled over folds) when both are means over query tables, else over their
    fold values; None when neither pairing exists."""
    qa, qb = intervals.query_values(art, a, index), intervals.query_values(art, b, index)
    if qa and qb:
        common = [k for k in qa if k in qb]
        if len(common) >= 2:
            res = paired([qa[k] for k in common], [qb[k] for k in common], seed)
            folds = len({f for f, _ in common})
            return {**res.as_dict(), "n_folds": folds, "unit": "queries",
                    "test": f"paired t-test over {res.n_queries} test queries"
                            + (f" pooled over {folds} folds" if folds > 1 else "")
                            + " (scipy.stats.ttest_rel); 95% bootstrap interval of the mean "
                              "difference", "outcome_of": res}
    fa = intervals.fold_values(art, a, records, groups)
    fb = intervals.fold_values(art, b, records, groups)
    if fa and fb and set(fa) == set(fb) and len(fa) >= 2:
        folds = sorted(fa)
        res = paired([fa[f] for f in folds], [fb[f] for f in folds], seed)
        d = res.as_dict()
        d["n_folds"], d["n_queries"] = d.pop("n_queries"), None
        return {**d, "unit": "folds",
                "test": f"paired t-test over {len(folds)} fold values (scipy.stats.ttest_rel; "
                        "the values are not means over queries); 95% bootstrap interval of "
                        "the mean difference", "outcome_of": res}
    return None


def _published_value(published, rec: dict) -> float | None:
    for v in published.values:
        if (v.dataset, v.method, v.metric, v.fold) == (rec.get("dataset"), rec.get("method"),
                                                       rec.get("metric"), rec.get("fold")):
            return v.value
    return None


@with_tables
def claim(art: Artifact, records: list[dict], agg: Claim, tables=()) -> list[dict]:
    groups: dict[tuple, dict] = {}
    for r in records:
        if r.get("fold") is None and r.get("method") == agg.claim and "outcome" in r:
            continue                                  # claims already made
        key = tuple(r.get(f) for f in agg.within)
        g = groups.setdefault(key, {"subject": [], "others": [], "shown": []})
        if agg.subject is not None and matches(agg.subject, r):
            g["subject"].append(r)
        elif matches(agg.others, r):
            g["others"].append(r)
        if isinstance(agg.shown, dict) and matches(agg.shown, r):
            g["shown"].append(r)
    made = {(tuple(r.get(f) for f in agg.within), r.get("metric")): r for r in records
            if "outcome" in r}
    index = TableIndex(list(tables))
    fold_groups = intervals.fold_groups(records)
    published = load_published(art.paper)

    def num(v):
        if not _defined(v):
            return v
        return float(f"{v:.{agg.significant}g}") if agg.significant else round(v, agg.digits)
    sign = 1.0 if agg.prefer == "larger" else -1.0
    out = []
    for key, g in groups.items():
        if not g["others"] or (agg.subject is not None and len(g["subject"]) != 1):
            continue
        others = [(r, float(r["value"]) if _defined(r["value"]) else float("nan"))
                  for r in g["others"]]
        statement = agg.statement
        subj = g["subject"][0] if agg.subject is not None else None
        if subj is not None:
            statement = agg.statement.format(**subj)
        fields = {"claim": True, "statement": statement, "key": agg.key}
        src = subj if subj is not None else others[0][0]
        if src.get("stand_in"):                  # a claim tested on stand-in data says so
            fields.update(stand_in=True, data_used=src.get("data_used"))
        priors = [made.get((key, req)) for req in agg.requires]
        if subj is not None:
            comps = []
            for o, _ in others:
                seed = seed_from(f"{art.id}|{statement}|{key}|{o.get('method')}|{o.get('metric')}")
                comps.append((o, compare_paired(art, subj, o, index, records, fold_groups,
                                                seed)))
            if any(c is None for _, c in comps):
                missing = [o.get("method") for o, c in comps if c is None]
                fields.update(outcome=NOT_TESTABLE, effect=float("nan"), ci95=None,
                              p_value=None, n_queries=None, n_folds=None,
                              why="no per-query or per-fold values to pair for "
                                  + ", ".join(str(m) for m in missing))
            else:
                outs = [c["outcome_of"].outcome(int(sign)) for _, c in comps]
                outcome = (HOLDS if all(x == HOLDS for x in outs) else
                           CONTRADICTED if CONTRADICTED in outs else NOT_SIGNIFICANT)
                ps = [c["p_value"] for _, c in comps]
                if outcome == "contradicted":      # the most significant contradiction
                    shown_o, shown_c = min(
                        ((o, c) for (o, c), x in zip(comps, outs) if x == "contradicted"),
                        key=lambda oc: oc[1]["p_value"])
                    p_value = shown_c["p_value"]
                else:                              # the closest competitor
                    shown_o, shown_c = min(comps, key=lambda oc: (
                        sign * oc[1]["effect"] if _defined(oc[1]["effect"]) else float("inf")))
                    p_value = (max(ps) if all(_defined(p) for p in ps) else float("nan")) \
                        if outcome == "holds" else shown_c["p_value"]
                weakest_o, weakest = shown_o, shown_c
                fields.update(outcome=outcome, effect=weakest["effect"], ci95=weakest["ci95"],
                              p_value=p_value,
                              n_queries=weakest["n_queries"], n_folds=weakest["n_folds"],
                              versus=weakest_o.get("method"),
                              test=weakest["test"] + (
                                  f"; the claim holds only if each of the {len(comps)} "
                                  f"comparisons is significant with the claimed sign (shown: "
                                  + ("the most significant contradiction" if outcome ==
                                     "contradicted" else "the closest competitor; p is the "
                                     "largest of the comparisons'" if outcome == "holds" else
                                     "the closest competitor") + ")"
                                  if len(comps) > 1 else ""),
                              comparisons={str(o.get("method")): {
                                  "effect": c["effect"], "ci95": c["ci95"],
                                  "p_value": c["p_value"]} for o, c in comps})
                pub_s, pub_o = _published_value(published, subj), \
                    _published_value(published, weakest_o)
                if pub_s is not None and pub_o is not None and _defined(subj["value"]) \
                        and _defined(weakest_o["value"]):
                    fields.update(reproduction_measures(float(subj["value"]),
                                                        float(weakest_o["value"]),
                                                        pub_s, pub_o))
                for prior in priors:
                    if prior is None or prior.get("outcome") != "holds":
                        if fields["outcome"] == "holds":
                            fields["outcome"] = "not significant here"
        else:
            ps = [v for _, v in others]
            ok = all(v < agg.bound for v in ps)
            first = next((p for p in priors if p is not None), None)
            held = all(p is not None and p.get("outcome") == "holds" for p in priors)
            fields.update(outcome="holds" if ok and held else (
                "not testable here" if first is None else "not significant here"),
                effect=first.get("effect") if first else float("nan"),
                ci95=first.get("ci95") if first else None,
                p_value=max(ps) if ps else float("nan"),
                n_queries=first.get("n_queries") if first else None,
                n_folds=first.get("n_folds") if first else None,
                test=f"each p-value (of the paired tests above) below {agg.bound:g}; effect "
                     "and interval of the required claim's weakest comparison")
        if agg.shown == "best" and subj is not None:
            best = max(others, key=lambda o: (sign * o[1], o[0].get("method")))
            shown = [best[0]]
        elif isinstance(agg.shown, dict):
            shown = [r for r in g["shown"] if r is not subj]
        else:
            shown = [r for r, _ in others]
        numbers = {} if subj is None else {agg.subject_name.format(**subj): num(subj["value"])}
        numbers.update({agg.other_name.format(**r): num(r["value"]) for r in shown})
        out.append({"method": agg.claim, "metric": statement, "value": fields["effect"],
                    "fold": None, **dict(zip(agg.within, key)), **fields,
                    "numbers": numbers})
    return out


kind(PairedTest)(lambda art, recs, agg: (paired_test(art, recs, agg), {}))
kind(Spread)(lambda art, recs, agg: (spread(art, recs, agg), {}))
kind(Claim)(lambda art, recs, agg, tables=(): (claim(art, recs, agg, tables), {}))
KINDS[Claim].wants_tables = True


# --- ranks with published values, uncheckable values (first used by stevens2010) ---



@dataclass(frozen=True)
class RanksWithPublished:
    """Aggregation: :class:`~repro.spec.Ranks` over a table of which only some cells were
    run — the published values of ``artifact`` stand in for the records no run produced (a
    derived table, e.g. the average rank of methods over datasets that were not all run, or of
    baselines never rerun).  Per (dataset, method, metric) key, a record matching
    ``ranks.select`` wins over the published value of the same key (matched by the same
    select).  Each averaged record (``fold`` = ``fold``) names the values of
    ``ranks.average_over`` where records were used (``ours_on``, sorted, or "none") and where
    only published values (``published_on``, in ``order``, else as published), and ``note``s
    where its rank differs from its rank among the published values alone."""
    ranks: Ranks
    artifact: str
    order: tuple = ()
    fold: str | None = None
    keys: tuple[str, ...] = OVER_FOLDS


def ranks_with_published(art: Artifact, records: list[dict], decl: RanksWithPublished):
    spec = replace(decl.ranks, average_over=None)
    over = decl.ranks.average_over
    pub = [{"dataset": v.dataset, "method": v.method, "metric": v.metric, "fold": v.fold,
            "value": v.value} for v in load_published(art.paper).for_artifact(decl.artifact)]
    pub = [p for p in pub if matches(decl.ranks.select, p)]
    ours = [r for r in records if matches(decl.ranks.select, r) and _defined(r.get("value"))]
    have = {tuple(r.get(k) for k in decl.keys) for r in ours}
    mixed = ours + [p for p in pub if tuple(p.get(k) for k in decl.keys) not in have]
    entity = decl.ranks.over
    rest = [f for f in decl.ranks.within if f != over]

    def by_group(ranked):
        out: dict[tuple, dict] = {}
        for r in ranked:
            out.setdefault((r.get(entity), *(r.get(f) for f in rest)), {})[r.get(over)] = \
                r["value"]
        return out
    mixed_ranks, pub_ranks = by_group(ranks(art, mixed, spec)), by_group(ranks(art, pub, spec))
    order = list(decl.order) or list(dict.fromkeys(p.get(over) for p in pub))
    ran = sorted({r.get(over) for r in ours})
    ours_on = ", ".join(str(v) for v in ran) or "none"
    published_on = ", ".join(str(v) for v in order if v not in ran)
    out = []
    for key, by_over in mixed_ranks.items():
        rec = {entity: key[0], **dict(zip(rest, key[1:])), over: decl.ranks.label,
               "fold": decl.fold, "value": float(np.mean(list(by_over.values()))),
               "ours_on": ours_on, "published_on": published_on}
        if "metric" in rest:
            rec["metric"] = decl.ranks.metric_format.format(metric=rec["metric"])
        alone = pub_ranks.get(key, {})
        changed = [f"{v}: rank {by_over[v]:g} (published values: {alone[v]:g})"
                   for v in order + [v for v in by_over if v not in order]
                   if v in by_over and v in alone and by_over[v] != alone[v]]
        if changed:
            rec["note"] = "; ".join(changed)
        out.append(rec)
    return out, {}


@dataclass(frozen=True)
class NotCheckable:
    """Aggregation: a record without a value (``value`` None, with ``why``) for a published
    value that no run of the artifact can check (it needs data no stand-in has, or the paper
    does not say what was measured) — emitted once the artifact has records of its own, so the
    reason is stated beside the values that were checked.  ``fields``: method, metric, dataset
    and any further key fields."""
    fields: dict
    why: str


kind(RanksWithPublished)(ranks_with_published)
kind(NotCheckable)(lambda art, recs, decl: (
    [{"fold": None, **decl.fields, "value": None, "why": decl.why}] if recs else [], {}))
