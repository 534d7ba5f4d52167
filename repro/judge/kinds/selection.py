"""Choosing and ranking:

* :class:`Best` — best-of-grid selection of a setting by a criterion record, per group, with
  the chosen setting as a record;
* :class:`Ranks` — competition ranks within groups, averaged over a field;
* :class:`RanksWithPublished` — ranks over a table of which only some cells were run, the
  published values standing in for the others.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ...evidence.record import OVER_FOLDS, defined, matches
from ...spec import Artifact
from ..published import load as load_published
from .registry import kind


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


def _setting_key(value, sign: float) -> tuple:
    try:
        return (0, sign * float(value), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(value))


def best(art: Artifact, records: list[dict], agg: Best) -> list[dict]:
    """Best-of-grid selection (see :class:`Best`)."""
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
            if len(crit) == 1 and defined(crit[0]["value"]):
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


kind(Best)(lambda art, recs, agg: (best(art, recs, agg), {}))


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


def ranks(art: Artifact, records: list[dict], agg: Ranks) -> list[dict]:
    """Competition ranks within groups, averaged (see :class:`Ranks`)."""
    groups: dict[tuple, dict] = {}
    for r in records:
        if not matches(agg.select, r) or not defined(r.get("value")):
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


kind(Ranks)(lambda art, recs, agg: (ranks(art, recs, agg), {}))


@dataclass(frozen=True)
class RanksWithPublished:
    """Aggregation: :class:`Ranks` over a table of which only some cells were
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
    ours = [r for r in records if matches(decl.ranks.select, r) and defined(r.get("value"))]
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


kind(RanksWithPublished)(ranks_with_published)
