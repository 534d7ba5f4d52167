"""Tables of a report page, built from an artifact's flat records and the paper's published
layouts: each published table as the paper prints it (its rows and columns, each cell "ours
(published) Δ" coloured by verdict), the values outside any published table as one compact
table, and the flat list of every record.  Notes (sources, tolerances, explanations, reasons)
are collected once per table as lettered footnotes.

A table too wide for a portrait page is marked ``wide`` (a landscape page in the PDF); one too
wide even for that is split into column blocks that each fit, the row labels repeated.  Widths
are estimated from the text of each column (characters of the table's font) — the browser and
PDF tests check the result.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..published import KEY_FIELDS, TableLayout, decimals_of
from .verdicts import SHORT, bucket, not_run_reason, verdict_class

# Widths in em of the table font: a portrait A4 text block (18 cm at 7.5 pt), a landscape one
# (26.7 cm) — the HTML page's table area is as wide as the landscape block at 1280 px.
PORTRAIT_EM = 64.0
LANDSCAPE_EM = 96.0
CHAR_EM = 0.64          # average advance of DejaVu Sans digits and letters, bold headers included
PAD_EM = 1.0            # cell padding and borders

_POWER = re.compile(r"^\s*2\s*\^\s*\{?\s*(-?\d+)\s*\}?\s*$")


# --- numbers ----------------------------------------------------------------------------------

def _general(v: float) -> str:
    if v == 0:
        return "0"
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    a = abs(v)
    if a >= 1000:
        return f"{v:.1f}"
    if a >= 1e-3:
        digits = max(0, 3 - int(math.floor(math.log10(a))))
        return f"{v:.{digits}f}"
    return f"{v:.3g}"


def fmt_value(v, published: str | None = None) -> str:
    """Our value as a reader compares it with the published text: one decimal more than the
    paper prints, powers of two as ``2^e`` where the paper writes them so."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if published and _POWER.match(published) and v > 0:
            e = math.log2(v)
            if abs(e - round(e)) < 1e-9:
                return f"2^{int(round(e))}"
        d = decimals_of(published) if published else 0
        if d:
            return f"{v:.{d + 1}f}"
        return _general(v)
    return str(v)


def fmt_diff(d, published: str | None = None, value=None) -> str:
    """Δ = ours − published, at one decimal more than the paper; powers of two in log₂."""
    if d is None:
        return ""
    if published and _POWER.match(published) and isinstance(value, (int, float)) and value > 0:
        e = math.log2(value) - int(_POWER.match(published).group(1))
        return "Δ ±0" if abs(e) < 1e-9 else f"Δ log₂ {e:+g}"
    if d == 0:
        return "Δ ±0"
    dec = decimals_of(published) if published else 0
    if dec:
        text = f"{d:+.{dec + 1}f}"
        return f"Δ ±{text[1:]}" if float(text) == 0 else f"Δ {text}"
    if float(d).is_integer() and abs(d) < 1e15:
        return f"Δ {int(d):+d}"
    return f"Δ {float(d):+.3g}"


# --- cells and notes --------------------------------------------------------------------------

@dataclass
class Notes:
    """Footnotes of one table: each distinct text once, lettered a, b, c … — except the
    ``common`` notes, true of every value of the table, stated once without letters."""
    texts: list[str] = field(default_factory=list)
    common: list[str] = field(default_factory=list)

    def mark(self, text: str) -> str:
        if not text or text in self.common:
            return ""
        if text not in self.texts:
            self.texts.append(text)
        return _letter(self.texts.index(text))

    def items(self) -> list[tuple[str, str]]:
        return [("", t) for t in self.common] + [(_letter(i), t) for i, t in
                                                  enumerate(self.texts) if t not in self.common]

    @classmethod
    def for_records(cls, records: list, first: str = "") -> "Notes":
        """Notes of a table of ``records`` (None = blank cells); ``first``: the table's own
        note, stated once."""
        per = [record_notes(r) for r in records
               if r is not None and r.get("published") is not None]
        common = [t for t in (per[0] if per else []) if all(t in p for p in per[1:])]
        if len(per) < 2:
            common = []
        return cls([], ([first] if first else []) + common)


def _letter(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(97 + r) + s
    return s


def record_notes(r: dict) -> list[str]:
    """What a reader needs beside a value: why it is missing, on what data, the published
    value's own note, the tolerance used, why it deviates, what kind of value it is."""
    out = []
    cls = verdict_class(r["verdict"])
    if cls == "not-run":
        out.append("not run: " + not_run_reason(r["verdict"]))
    elif cls == "undefined":
        out.append(r["verdict"])
    elif cls == "baseline":
        out.append("published baseline: copied by the paper from elsewhere, not rerun")
    elif cls == "unreadable":
        out.append("the published value cannot be read in the source")
    if r.get("data_mark"):
        out.append(r["data_mark"])
    if r.get("stand_in"):
        out.append(f"computed on {r.get('data_used')}, a stand-in for {r.get('dataset')}")
    if r.get("paired"):
        ci = r.get("ci95")
        out.append(f"paired t-test of {r.get('method')} against {r.get('versus')} on "
                   f"{r.get('n_queries')} test queries (pooled over folds): p = "
                   f"{_general(r['p_value']) if r.get('p_value') is not None else 'n/a'}"
                   + (f", 95% CI of the mean difference [{_general(ci[0])}, {_general(ci[1])}]"
                      if ci and None not in ci else ""))
    for k in ("kind_why", "note", "tolerance_why"):
        if r.get(k):
            prefix = {"kind_why": f"{r.get('kind', '')} value: ", "tolerance_why":
                      "tolerance: "}.get(k, "")
            out.append(prefix + str(r[k]))
    if r.get("explanation"):
        out.append("why it differs: " + r["explanation"])
    return out


def cell(r: dict | None, notes: Notes) -> dict:
    """A table cell for one record: lines ours / (published) / Δ, its colour class (the
    verdict's), note letters and the verdict as a tooltip."""
    if r is None:
        return {"lines": [], "css": "blank", "marks": "", "title": "", "chars": 0}
    cls = verdict_class(r["verdict"])
    pub = r.get("published")
    if r.get("value") is not None:
        ours = fmt_value(r.get("value"), pub)
    elif cls in ("baseline", "unreadable"):
        ours = ""
    else:
        ours = "—"
    lines = [(k, t) for k, t in (("o", ours), ("p", f"({pub})" if pub is not None else ""),
                                 ("d", fmt_diff(r.get("diff"), pub, r.get("value")))) if t]
    marks = ",".join(m for m in (notes.mark(t) for t in record_notes(r)) if m)
    chars = max((len(t) for _, t in lines), default=0) + (len(marks) + 1 if marks else 0)
    return {"lines": lines, "css": cls, "marks": marks, "title": r["verdict"], "chars": chars}


# --- tables -----------------------------------------------------------------------------------

@dataclass
class Table:
    caption: str
    corner: str                     # header of the row-label column
    columns: list[str]
    rows: list[dict]                # {"label", "ours_only", "cells": [cell, ...]}
    notes: list[tuple[str, str]]
    width: str = "fits"             # fits | wide (landscape page in the PDF)

    @property
    def short(self) -> bool:
        """Short enough to keep on one page (moved whole to the next page if need be)."""
        return len(self.rows) <= 14
    part: str = ""                  # "columns 1–5 of 8" when split


def _em(chars: float) -> float:
    return chars * CHAR_EM + PAD_EM


def _header_chars(text: str) -> int:
    return max((len(w) for w in str(text).split()), default=0)


def _layout_width(corner: str, columns: list[str], rows: list[dict]) -> tuple[float, list[float]]:
    label = max([_header_chars(corner)] + [min(len(r["label"]) + 7 * r["ours_only"], 36)
                                            for r in rows]) if rows else 8
    cols = [max([_header_chars(c)] + [r["cells"][j]["chars"] for r in rows])
            for j, c in enumerate(columns)]
    return _em(label), [_em(c) for c in cols]


def fit(t: Table) -> list[Table]:
    """The table as it fits the page: as is, on a landscape page, or in column blocks."""
    label_em, col_em = _layout_width(t.corner, t.columns, t.rows)
    total = label_em + sum(col_em)
    if total <= PORTRAIT_EM:
        return [t]
    if total <= LANDSCAPE_EM:
        t.width = "wide"
        return [t]
    blocks, start, used = [], 0, label_em
    for j, w in enumerate(col_em):
        if used + w > LANDSCAPE_EM and j > start:
            blocks.append((start, j))
            start, used = j, label_em
        used += w
    blocks.append((start, len(col_em)))
    out = []
    for a, b in blocks:
        rows = [{**r, "cells": r["cells"][a:b]} for r in t.rows]
        rows = [r for r in rows if any(c["css"] != "blank" for c in r["cells"])] or rows[:1]
        out.append(Table(t.caption, t.corner, t.columns[a:b], rows, t.notes, "wide",
                         f"columns {a + 1}–{b} of {len(t.columns)}"))
    return out


def _key(r: dict) -> tuple:
    return tuple(r.get(k) for k in KEY_FIELDS)


def layout_table(layout: TableLayout, by_key: dict[tuple, dict], extra: list[dict],
                 used: set) -> Table:
    """A published table as printed: its rows and columns, our values in the cells of the
    published ones; ``extra`` records that fit its grid but have no published value get
    their cells too (rows the paper does not print are added, marked "ours")."""
    rows, seen_rows = [], {}
    for row in layout.rows:
        cells = []
        for key in row.cells:
            r = by_key.get(key) if key is not None else None
            if r is not None:
                used.add(id(r))
            cells.append(r)
        seen_rows[row.value] = len(rows)
        rows.append({"label": row.label, "ours_only": False, "cells": cells})
    columns = list(layout.columns)
    row_values = {row.value for row in layout.rows}
    for r in extra:                # methods beside the paper's (the modern reference): columns
        if id(r) in used or layout.fits(r) or r.get(layout.cols_field) in (None, "") or \
                str(r.get(layout.rows_field)) not in row_values or \
                not layout.fits({**r, layout.cols_field: layout.columns[0]}):
            continue
        if r.get(layout.cols_field) not in columns:
            columns.append(r.get(layout.cols_field))
            for row in rows:
                row["cells"].append(None)
    for r in extra:
        if id(r) in used or r.get(layout.cols_field) not in columns or \
                not layout.fits({**r, layout.cols_field: layout.columns[0]}):
            continue
        if r.get(layout.cols_field) not in layout.columns and \
                str(r.get(layout.rows_field)) not in row_values:
            continue
        rv = str(r.get(layout.rows_field))
        j = columns.index(r.get(layout.cols_field))
        if rv not in seen_rows:
            seen_rows[rv] = len(rows)
            rows.append({"label": rv, "ours_only": True, "cells": [None] * len(columns)})
        i = seen_rows[rv]
        if rows[i]["cells"][j] is None:
            rows[i]["cells"][j] = r
            used.add(id(r))
    notes = Notes.for_records([r for row in rows for r in row["cells"]], layout.note)
    out_rows = [{**row, "cells": [cell(r, notes) for r in row["cells"]]} for row in rows]
    heads = [c if c in layout.columns or "not in the paper" in str(c) else f"{c} (ours)"
             for c in columns]
    return Table(caption=layout.source, corner=f"{layout.rows_field} \\ {layout.cols_field}",
                 columns=heads, rows=out_rows, notes=notes.items())


def _where(r: dict, fields) -> str:
    parts = []
    for f in fields:
        v = r.get(f)
        if v is None or v == "":
            continue
        parts.append(f"fold {v}" if f == "fold" else str(v))
    return ", ".join(parts) or "—"


def values_table(records: list[dict], caption: str, natural_key) -> Table | None:
    """Records outside the published tables as one compact table: the column field is the
    varying field with the fewest distinct values (method, metric, fold or dataset), the rows
    the combinations of the other varying fields."""
    if not records:
        return None
    fields = ("dataset", "method", "metric", "fold")
    distinct = {f: list(dict.fromkeys(r.get(f) for r in records)) for f in fields}
    varying = [f for f in fields if len(distinct[f]) > 1]
    notes = Notes.for_records(records)
    if len(varying) <= 1:
        col_field, row_fields = None, varying or ["metric"]
    else:
        col_field = min(varying, key=lambda f: (len(distinct[f]), fields.index(f)))
        row_fields = [f for f in varying if f != col_field] or ["metric"]
        if len(distinct[col_field]) > 8:          # too many columns: a plain list
            col_field, row_fields = None, varying
    columns = ([str(c) if c is not None else "—" for c in distinct[col_field]] if col_field
               else ["value"])
    rows, index = [], {}
    for r in records:
        label = _where(r, row_fields)
        if label not in index:
            index[label] = len(rows)
            rows.append({"label": label, "ours_only": False, "cells": [None] * len(columns)})
        j = distinct[col_field].index(r.get(col_field)) if col_field else 0
        row = rows[index[label]]
        if row["cells"][j] is not None:           # same place twice: its own row
            label = _where(r, fields)
            index[label] = len(rows)
            rows.append({"label": label, "ours_only": False, "cells": [None] * len(columns)})
            row = rows[-1]
        row["cells"][j] = r
    rows.sort(key=lambda row: natural_key(row["label"]))
    out_rows = [{**row, "cells": [cell(r, notes) for r in row["cells"]]} for row in rows]
    same = [f"{f} {distinct[f][0]}" if f == "fold" else str(distinct[f][0])
            for f in fields if f not in varying and distinct[f][0] not in (None, "")]
    corner = " / ".join(row_fields) + (f" \\ {col_field}" if col_field else "")
    if same:
        caption += " (" + ", ".join(same) + ")"
    return Table(caption=caption, corner=corner, columns=columns, rows=out_rows,
                 notes=notes.items())


def record_rows(flat: list[dict]) -> list[dict]:
    """Every record as a row of the flat list (the collapsed "all records" list)."""
    rows = []
    for r in flat:
        cls = verdict_class(r["verdict"])
        rows.append({"dataset": r.get("dataset") or "", "method": r.get("method") or "",
                     "metric": r.get("metric") or "", "fold": r.get("fold") or "",
                     "value": fmt_value(r.get("value"), r.get("published")),
                     "published": r.get("published") or "",
                     "diff": fmt_diff(r.get("diff"), r.get("published"), r.get("value")),
                     "verdict": r["verdict"], "css": cls, "short": SHORT.get(cls, cls),
                     "note": "; ".join([r.get("source") or ""] + record_notes(r)).strip("; ")})
    return rows


def artifact_tables(artifact: str, flat: list[dict], layouts: list[TableLayout],
                    natural_key, max_values: int = 80) -> tuple[list[Table], int]:
    """The tables of one artifact: its published tables in the paper's layout, then the other
    values (ours only beyond ``max_values``: such long lists — curves — stay in the JSON and
    the flat list).  Returns the tables and the number of values left to the flat list."""
    by_key = {_key(r): r for r in flat if r.get("published") is not None}
    extra = [r for r in flat if r.get("published") is None and r.get("value") is not None]
    used: set = set()
    tables = []
    for lay in layouts:
        tables += fit(layout_table(lay, by_key, extra, used))
    rest = [r for r in flat if id(r) not in used and bucket(r) != "empty"]
    with_pub = [r for r in rest if r.get("published") is not None]
    ours = [r for r in rest if r.get("published") is None]
    left = 0
    if len(ours) > max_values:
        left, ours = len(ours), [r for r in ours if r.get("value") is None]
    groups = [("Other published values" if tables else "Published values", with_pub),
              ("Our values without a published counterpart" if tables or with_pub
               else "Our values", ours)]
    for caption, recs in groups:
        t = values_table(recs, caption, natural_key)
        if t is not None:
            tables += fit(t)
    return tables, left
