"""Aggregations over the folds an artifact declares (each only where every declared fold has
the record; folds in declaration order):

* :class:`FoldMean` — the mean over folds (a table's "avg" row);
* :class:`FoldSpread` — the sample standard deviation over folds (a table's "±");
* :class:`SettingMeans` — the fold mean at every value of a grid field, each its own record
  (a curve over C);
* :class:`PairedTest` — a paired test over folds of one method against others (a table's
  t-test p-values), with the exact sign-flip permutation test over the same folds beside it.

A mean involving an undefined value (:func:`repro.evidence.record.defined`) is NaN, with a
``why``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...evidence.record import defined
from ...spec import Artifact
from .grouping import by_folds, complete, shared
from ..stats import seed_from, sign_flip
from .registry import kind


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


def fold_mean(art: Artifact, records: list[dict], agg: FoldMean) -> list[dict]:
    """The fold means of the matching records; a group whose mean is already among
    ``records`` (from an earlier aggregation, e.g. the modern reference's) is not averaged
    again."""
    groups, have = by_folds(art, records, agg.select, agg.label, agg.by)
    out = []
    for key, by_fold in groups.items():
        if key in have:
            continue
        recs = complete(art, by_fold)
        if recs is None:
            continue
        vals = [r["value"] for r in recs]
        rec = {**shared(recs), "dataset": key[0], "method": key[1], "metric": key[2],
               "fold": agg.label}
        if all(defined(v) for v in vals):
            rec["value"] = float(np.mean([float(v) for v in vals]))
        else:
            rec["value"] = float("nan")
            rec["why"] = "a fold's value is undefined"
        out.append(rec)
    return out


kind(FoldMean)(lambda art, recs, agg: (fold_mean(art, recs, agg), {}))


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


def fold_spread(art: Artifact, records: list[dict], agg: FoldSpread) -> list[dict]:
    """The sample standard deviation over the declared folds of each matching group."""
    groups, _ = by_folds(art, records, agg.select, agg.label, agg.by)
    out = []
    for key, by_fold in groups.items():
        recs = complete(art, by_fold)
        if recs is None:
            continue
        vals = [r["value"] for r in recs]
        rec = {**shared(recs), "dataset": key[0], "method": key[1],
               "metric": f"{key[2]}{agg.suffix}", "fold": agg.label}
        if all(defined(v) for v in vals) and len(vals) > agg.ddof:
            rec["value"] = float(np.std([float(v) for v in vals], ddof=agg.ddof))
        else:
            rec["value"] = float("nan")
            rec["why"] = "a fold's value is undefined" if len(vals) > agg.ddof \
                else "too few folds for a spread"
        out.append(rec)
    return out


kind(FoldSpread)(lambda art, recs, agg: (fold_spread(art, recs, agg), {}))


@dataclass(frozen=True)
class SettingMeans:
    """Aggregation: the mean over the declared folds of the records matched by ``select``,
    per (dataset, method, metric, value of ``over``) — as :class:`FoldMean`
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
class PairedTest:
    """Aggregation: a paired test (``scipy.stats.<test>``, e.g. ``ttest_rel``) of the
    ``subject`` method against each of ``others`` (default every other method), over the
    artifact's declared folds, for each (dataset, metric, *by) of the records matched by
    ``select``.  Emits method ``"<subject> vs <other>"``, metric ``metric``, fold ``label``,
    the p-value, ``mean_difference`` (subject − other, mean over the folds) and, the folds
    being few, ``p_permutation``: the exact sign-flip permutation test of the same
    differences (:func:`repro.judge.stats.sign_flip`; with n folds it cannot go below
    2/2ⁿ)."""
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
    groups, _ = by_folds(art, records, agg.select, None, agg.by)
    by_rest: dict[tuple, dict] = {}
    for (ds, method, metric, *rest), by_fold in groups.items():
        recs = complete(art, by_fold)
        if recs is not None:
            by_rest.setdefault((ds, metric, *rest), {})[method] = [r["value"] for r in recs]
    out = []
    for (ds, metric, *rest), vals in by_rest.items():
        if agg.subject not in vals or not all(defined(v) for v in vals[agg.subject]):
            continue
        subj = np.asarray(vals[agg.subject], dtype=np.float64)
        for other in (agg.others if agg.others is not None else vals):
            if other == agg.subject or other not in vals \
                    or not all(defined(v) for v in vals[other]):
                continue
            o = np.asarray(vals[other], dtype=np.float64)
            out.append({"method": f"{agg.subject} vs {other}", "metric": agg.metric,
                        "value": float(test(subj, o).pvalue), "fold": agg.label,
                        "dataset": ds, **dict(zip(agg.by, rest)),
                        "mean_difference": float(np.mean(subj) - np.mean(o)),
                        "p_permutation": sign_flip(subj - o, seed_from(
                            f"{art.id}|{agg.subject}|{other}|{ds}|{metric}|{rest}"))})
    return out


kind(PairedTest)(lambda art, recs, agg: (paired_test(art, recs, agg), {}))
