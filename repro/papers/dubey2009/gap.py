"""Figure 3's cells with their computed distance to the published cell (§5.2, Figure 3).

The OHSUMED column printed by the paper lies above what this protocol gives most methods, but
not every cell: e.g. our RankSVM and RankBoost NDCG@1 are above the printed ones.  A sentence
for the whole column would be wrong on those cells, so each cell's note says, with its own
number, on which side the published value lies (:func:`gap_text`), and the TOML's
explanation only points to these notes and to the computed context in 'claims'.

:class:`CellsWithGap` is the suite's :class:`~repro.judge.kinds.Cells` followed by that note: a
declaration kind registered with :func:`repro.judge.kinds.kind`, which annotates only the cells
it has just made (no other record is touched).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ...judge import kinds as aggregate
from ...judge import published as _published

#: the note part that points to the computed context of the column (the 'claims' artifact)
CONTEXT = "see 'claims', rows 'context'"


def gap_text(ours: float, published: float, decimals: int, metric: str) -> str:
    """Where the published value lies against ours, in words and with the number: above,
    below, or equal at the published value's rounding (half a unit of its last digit)."""
    gap = published - ours
    half = 0.5 * 10.0 ** (-decimals)
    shown = f"{published:.{decimals}f}"
    if gap > half:
        return f"the published value {shown} sits {gap:.3f} {metric} above ours ({CONTEXT})"
    if gap < -half:
        return f"ours is {-gap:.3f} {metric} above the published value {shown}"
    return f"equal to the published value {shown} at its rounding"


@dataclass(frozen=True)
class CellsWithGap:
    """Aggregation: the cells of ``cells`` (a :class:`~repro.judge.kinds.Cells`), each with a
    readable, rerun published counterpart (same dataset, method, metric and fold label)
    getting :func:`gap_text` appended to its note."""
    cells: aggregate.Cells

    @property
    def select(self) -> dict:
        """The records it reads: those of its cells."""
        return self.cells.select


@aggregate.kind(CellsWithGap)
def cells_with_gap(art, records: list[dict], agg: CellsWithGap) -> tuple[list[dict], dict]:
    got, why = aggregate.cells(art, records, agg.cells)
    pub = {(v.dataset, v.method, v.metric, v.fold): v
           for v in _published.load(art.paper).for_artifact(art.name)
           if v.value is not None and not v.baseline}
    for r in got:
        v = pub.get((r.get("dataset"), r.get("method"), r.get("metric"), r.get("fold")))
        value = r.get("value")
        if v is None or value is None or (isinstance(value, float) and math.isnan(value)):
            continue
        text = gap_text(float(value), v.value, v.decimals, r["metric"])
        r["note"] = f"{r['note']}; {text}" if r.get("note") else text
    return got, why
