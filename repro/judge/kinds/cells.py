"""The cells of a printed table:

* :class:`Cells` — a table's cells from per-fold records measured several ways (conventions):
  the fold mean of the main way as the value, the others as fields and notes;
* :class:`CellsWithGap` — the same cells, each note saying on which side of ours the published
  value lies and by how much (a sentence for a whole column would be wrong on the cells where
  it lies on the other side);
* :class:`NotCheckable` — a record without a value for a published value that no run can
  check, with the reason.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...evidence.record import defined
from ...spec import Artifact
from ..published import load as load_published
from .grouping import by_folds, complete, shared
from .registry import kind


@dataclass(frozen=True)
class Cells:
    """Aggregation: a printed table's cells from per-fold records measured several ways (e.g.
    conventions).  Records matched by ``select`` carry the field ``variant``; per (dataset,
    method, metric, variant) the mean over the artifact's declared folds (complete groups only,
    declaration order, as :func:`~repro.judge.kinds.folds.fold_mean`).  One record per
    (dataset, method, metric) that has the ``main`` variant: value = its mean (the record keeps
    ``variant = main``, so that the tables behind its folds are found by its fields), every
    other variant's mean as a field (its name, spaces as underscores), ``fold = label``, the
    fields ``drop`` removed, ``weight`` = ``weights[dataset]`` where given, and ``note`` = the parts of ``notes`` whose values all
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


def cells(art: Artifact, records: list[dict], agg: Cells) -> tuple[list[dict], dict]:
    groups, _ = by_folds(art, records, agg.select, None, (agg.variant,))
    means: dict[tuple, tuple[float, list[dict]]] = {}
    for key, by_fold in groups.items():
        recs = complete(art, by_fold)
        if recs is None:
            continue
        vals = [r["value"] for r in recs]
        means[key] = (float(np.mean([float(v) for v in vals]))
                      if all(defined(v) for v in vals) else float("nan"), recs)
    out = []
    for (ds, method, metric, variant), (value, recs) in means.items():
        if variant != agg.main:
            continue
        rec = {k: v for k, v in shared(recs).items() if k not in agg.drop}
        rec.update(dataset=ds, method=method, metric=metric, fold=agg.label, value=value)
        if not defined(value):
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


kind(Cells)(cells)


def gap_text(ours: float, published: float, decimals: int, metric: str, context: str = "") -> str:
    """Where the published value lies against ours, in words and with the number: above,
    below, or equal at the published value's rounding (half a unit of its last digit)."""
    gap = published - ours
    half = 0.5 * 10.0 ** (-decimals)
    shown = f"{published:.{decimals}f}"
    if gap > half:
        return (f"the published value {shown} sits {gap:.3f} {metric} above ours"
                + (f" ({context})" if context else ""))
    if gap < -half:
        return f"ours is {-gap:.3f} {metric} above the published value {shown}"
    return f"equal to the published value {shown} at its rounding"


@dataclass(frozen=True)
class CellsWithGap:
    """Aggregation: the cells of ``cells`` (a :class:`Cells`), each with a readable, rerun
    published counterpart (same dataset, method, metric and fold label) getting
    :func:`gap_text` appended to its note; ``context``: where the page explains a gap above
    ours (appended to that sentence).  Only the cells it has just made are annotated."""
    cells: Cells
    context: str = ""

    @property
    def select(self) -> dict:
        """The records it reads: those of its cells."""
        return self.cells.select


@kind(CellsWithGap)
def cells_with_gap(art, records: list[dict], agg: CellsWithGap) -> tuple[list[dict], dict]:
    got, why = cells(art, records, agg.cells)
    pub = {(v.dataset, v.method, v.metric, v.fold): v
           for v in load_published(art.paper).for_artifact(art.name)
           if v.value is not None and not v.baseline}
    for r in got:
        v = pub.get((r.get("dataset"), r.get("method"), r.get("metric"), r.get("fold")))
        value = r.get("value")
        if v is None or value is None or (isinstance(value, float) and math.isnan(value)):
            continue
        text = gap_text(float(value), v.value, v.decimals, r["metric"], agg.context)
        r["note"] = f"{r['note']}; {text}" if r.get("note") else text
    return got, why


@dataclass(frozen=True)
class NotCheckable:
    """Aggregation: a record without a value (``value`` None, with ``why``) for a published
    value that no run of the artifact can check (it needs data no stand-in has, or the paper
    does not say what was measured) — emitted once the artifact has records of its own, so the
    reason is stated beside the values that were checked.  ``fields``: method, metric, dataset
    and any further key fields."""
    fields: dict
    why: str


kind(NotCheckable)(lambda art, recs, decl: (
    [{"fold": None, **decl.fields, "value": None, "why": decl.why}] if recs else [], {}))
