"""Tables of a report page, built from an artifact's flat records and the paper's published
layouts: each published table as the paper prints it (its rows and columns, each cell "ours
(published) Δ" coloured by verdict), the values outside any published table as one compact
table, and the flat list of every record.

Notes (sources, tolerances, explanations, reasons) are said once: a note true of every value
of a table is stated under it without a letter; one true of every value of a row or of a
column is lettered at the row's label or the column's heading; the rest at their cells —
lettered once for the artifact (a note already printed under an earlier table is referred
to, not repeated).  A value's own computed context (its record's ``note``: the same value
under other conventions, say) is in its tooltip, and printed as a note only where the value
needs explaining (it deviates).  Stand-in data is named in the heading it is common to
("OHSUMED (stand-in for HP2004)"), and a stand-in cell shows no Δ: the published value is
of other data.  Row labels drop the source line references the TOML keeps for its sources
("SVMmap (txt:392)" reads "SVMmap").

A table too wide for a portrait page is marked ``wide`` (a landscape page in the PDF); one too
wide even for that is split into column blocks that each fit, the row labels repeated.  Widths
are estimated from the text of each column (characters of the table's font) — the browser and
PDF tests check the result.  Column blocks are balanced (the fewest blocks that fit, columns
spread evenly), so a narrow extra column — the modern reference beside the paper's methods —
stays with its neighbours instead of becoming a one-column table; the notes of a split table
are printed once, under its last block.

Every value cell's tooltip says its verdict, what it rests on (d = ours − published, its 90%
interval, the margin δ and the equivalence bound), its notes and the commands that recompute
it; the flat list of records has the interval of d in its own column.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..evidence.record import IN_ARTIFACT, cell as record_cell
from ..judge.published import TableLayout
from .format import (fmt_ci, fmt_diff, fmt_general, fmt_published, fmt_value,
                     interval_text, where)
from .standins import data_label, data_used, is_stand_in, name, stands_for
from .verdicts import SHORT, bucket, not_run_reason, verdict_class, words

# Widths in em of the table font: a portrait A4 text block (18 cm at 8 pt), a landscape one
# (26.7 cm) — the HTML page's table area is as wide as the landscape block at 1280 px.
PORTRAIT_EM = 60.0
LANDSCAPE_EM = 90.0
CHAR_EM = 0.64          # average advance of DejaVu Sans digits and letters, bold headers included
PAD_EM = 1.0            # cell padding and borders

#: a source line reference in a row label ("(txt:392)", "(line 643)", "(lines 582-589)")
_LINE_REF = re.compile(r"\s*\((?:txt:\s*\d|lines?\s+\d)[^)]*\)")


def display_label(text) -> str:
    """A row label as a page shows it: without source line references."""
    return _LINE_REF.sub("", str(text)).strip() or str(text)


# --- cells and notes --------------------------------------------------------------------------

@dataclass
class NoteBook:
    """The notes of one artifact's tables: lettered once for the artifact (a, b, c … in order
    of first use), each printed under the first table that uses it."""
    texts: list[str] = field(default_factory=list)
    printed: set = field(default_factory=set)


@dataclass
class Notes:
    """Footnotes of one table: each distinct text once, lettered a, b, c … (shared with the
    artifact's other tables through ``book``) — except the ``common`` notes, true of every
    value of the table, stated once without letters."""
    texts: list[str] = field(default_factory=list)
    common: list[str] = field(default_factory=list)
    book: NoteBook | None = None
    used: list[str] = field(default_factory=list)

    def __post_init__(self):
        if self.book is not None:
            self.texts = self.book.texts

    def mark(self, text: str) -> str:
        if not text or text in self.common:
            return ""
        if text not in self.texts:
            self.texts.append(text)
        if text not in self.used:
            self.used.append(text)
        return _letter(self.texts.index(text))

    def marks(self, texts) -> str:
        return ",".join(m for m in (self.mark(t) for t in texts) if m)

    def items(self) -> list[tuple[str, str]]:
        """The notes to print under this table: its common notes and the lettered notes it
        uses that no earlier table of the artifact printed (those are then printed)."""
        printed = self.book.printed if self.book is not None else set()
        used = sorted(self.used, key=self.texts.index) if self.book is not None else \
            [t for t in self.texts if t not in self.common]
        out = [("", t) for t in self.common] + [(_letter(self.texts.index(t)), t) for t in used
                                                 if t not in printed]
        printed.update(used)
        return out

    def close(self) -> tuple[list[tuple[str, str]], str]:
        """(notes printed under this table, letters of notes printed under earlier tables)."""
        printed = self.book.printed if self.book is not None else set()
        earlier = _letters(sorted(self.texts.index(t) for t in self.used if t in printed))
        return self.items(), earlier


def _letters(indices: list[int]) -> str:
    """Letter indices as runs: [0, 1, 2, 5] → "a–c, f"."""
    out, run = [], []
    for i in sorted(set(indices)):
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(_letter(run[0]) + (f"–{_letter(run[-1])}" if len(run) > 1 else ""))
        run = [i]
    if run:
        out.append(_letter(run[0]) + (f"–{_letter(run[-1])}" if len(run) > 1 else ""))
    return ", ".join(out)


def _letter(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(97 + r) + s
    return s


#: kinds of a value's notes (:func:`note_items`): ``detail`` — the value's own computed
#: context — is printed only where the value needs explaining, else shown in its tooltip;
#: ``stand-in`` is said by the heading it is common to
DETAIL, STAND_IN = "detail", "stand-in"


def note_items(r: dict, stand_ins: dict | None = None) -> list[tuple[str, str]]:
    """What a reader needs beside a value, as (kind, text): why it is missing, on what data,
    the published value's own note, the tolerance used, why it deviates, what kind of value
    it is, and the value's own computed context (kind ``detail``)."""
    out = []
    stand_ins = stand_ins or {}
    cls = verdict_class(r)
    why = f"why-{cls}"                     # a reason, of the verdict's class
    if cls == "not-run":
        out.append((why, "not run: " + not_run_reason(r)))
    elif cls == "undefined":
        out.append((why, words(r)))
    elif cls == "baseline":
        out.append((why, "published baseline: copied by the paper from elsewhere, not rerun"))
    elif cls == "unreadable":
        out.append((why, "the published value cannot be read in the source"))
    if r.get("data_mark"):
        out.append(("data", r["data_mark"]))
    if r.get("value") is not None and is_stand_in(r, stand_ins):
        out.append((STAND_IN, "computed on " + data_label(r, stand_ins)))
    if r.get("paired"):
        ci = r.get("ci95")
        out.append(("test", f"paired t-test of {r.get('method')} against {r.get('versus')} on "
                    f"{r.get('n_queries')} test queries (pooled over folds): p = "
                    f"{fmt_general(r['p_value']) if r.get('p_value') is not None else 'n/a'}"
                    + (f", 95% CI of the mean difference [{fmt_general(ci[0])}, "
                       f"{fmt_general(ci[1])}]" if ci and None not in ci else "")))
    if r.get("verdict_offset_removed"):
        out.append((DETAIL, f"with the column's offset removed: "
                            f"{r['verdict_offset_removed']}"))
    declared = r.get("margin_why") if r.get("margin_basis") == "declared" else None
    for k, text in (("kind_why", r.get("kind_why")), ("note", r.get("note")),
                    ("margin_why", declared)):
        if text:
            prefix = {"kind_why": f"{r.get('kind', '')} value: ", "margin_why":
                      "margin: "}.get(k, "")
            kind = DETAIL if k == "note" and r.get("value") is not None else k
            out.append((kind, prefix + str(text)))
    if r.get("explanation"):
        out.append(("explanation", "why it differs: " + r["explanation"]))
    return out


def record_notes(r: dict, stand_ins: dict | None = None) -> list[str]:
    """Every note of a value, as text (the flat list of records shows them all)."""
    return [t for _, t in note_items(r, stand_ins)]


_SENTENCE_END = re.compile(r"(?<=[.;])\s+(?=[A-Z'(])")


def sentences(text: str) -> list[str]:
    """A note cut into its sentences (so that what a row's or a column's notes share is said
    once at its heading, and only the rest at each cell)."""
    return [t for t in _SENTENCE_END.split(text.strip()) if t]


def _printed_notes(r: dict, stand_ins: dict) -> tuple[list[str], list[str]]:
    """(notes a value's cell letters, as sentences; notes only its tooltip shows: the
    value's own computed context)."""
    printed, tip = [], []
    for kind, text in note_items(r, stand_ins):
        if kind == DETAIL:
            tip.append(text)
        elif kind == "note":
            printed += sentences(text)
        else:
            printed.append(text)
    return printed, tip


def cell(r: dict | None, notes: Notes, stand_ins: dict | None = None,
         said: set | None = None) -> dict:
    """A table cell for one record: lines ours / (published) / Δ (no Δ on stand-in data:
    the published value is of other data), its colour class (the verdict's), note letters
    (except the notes in ``said``: stated at its row, column or table) and the verdict,
    interval and computed context as a tooltip."""
    if r is None:
        return {"lines": [], "css": "blank", "marks": "", "title": "", "chars": 0}
    stand_ins = stand_ins or {}
    cls = verdict_class(r)
    pub = r.get("published")
    if r.get("value") is not None:
        ours = fmt_value(r.get("value"), pub)
    elif cls in ("baseline", "unreadable"):
        ours = ""
    else:
        ours = "—"
    on_stand_in = r.get("value") is not None and is_stand_in(r, stand_ins)
    diff = "" if on_stand_in else fmt_diff(r.get("diff"), pub, r.get("value"))
    lines = [(k, t) for k, t in (("o", ours),
                                 ("p", f"({fmt_published(pub)})" if pub is not None else ""),
                                 ("d", diff)) if t]
    printed, tip = _printed_notes(r, stand_ins)
    said = said or set()
    left = [t for t in printed if t not in said]
    own = sentences_of(r)
    prose = [t for t in left if t in own]            # what is left of its notes: one text
    marks = notes.marks([t for t in left if t not in own] + ([" ".join(prose)] if prose
                                                              else []))
    chars = max((len(t) for _, t in lines), default=0) + (len(marks) + 1 if marks else 0)
    title = "\n".join(t for t in (words(r), interval_text(r), *tip) if t)
    return {"lines": lines, "css": cls, "marks": marks, "title": title, "chars": chars,
            "ci": fmt_ci(r.get("ci95"), pub)}


def sentences_of(r: dict) -> set[str]:
    """The sentences of a value's printed note of its own: its published value's note (what
    the TOML says of a cell; a value computed has its record's note in its tooltip)."""
    if not r.get("note") or r.get("value") is not None:
        return set()
    return set(sentences(str(r["note"])))


def cell_detail(commands: dict | None) -> str:
    """The lines a cell's tooltip adds after its verdict and interval: how to recompute it."""
    if not commands:
        return ""
    return (f"recompute: {commands['recompute']}"
            + (f"\nper-query values: {commands['runs']}" if commands.get("runs") else ""))


# --- tables -----------------------------------------------------------------------------------

@dataclass
class Table:
    caption: str
    corner: str                     # header of the row-label column
    columns: list[str]
    rows: list[dict]                # {"label", "marks", "ours_only", "cells": [cell, ...]}
    notes: list[tuple[str, str]]
    width: str = "fits"             # fits | wide (landscape page in the PDF)
    earlier: str = ""               # letters whose notes are under an earlier table ("a–c")
    commands: dict = field(default_factory=dict)    # {"recompute", "runs"}: shell commands
    part: str = ""                  # "columns 1–5 of 8" when split
    col_marks: list[str] = field(default_factory=list)   # note letters of each heading

    def __post_init__(self):
        if len(self.col_marks) != len(self.columns):
            self.col_marks = (list(self.col_marks) + [""] * len(self.columns))[
                :len(self.columns)]
        for r in self.rows:
            r.setdefault("marks", "")

    @property
    def short(self) -> bool:
        """Short enough to keep on one page (moved whole to the next page if need be)."""
        return len(self.rows) <= 14


def _em(chars: float) -> float:
    return chars * CHAR_EM + PAD_EM


def _header_chars(text: str) -> int:
    return max((len(w) for w in str(text).split()), default=0)


def _layout_width(corner: str, columns: list[str], rows: list[dict],
                  col_marks: list[str] | None = None) -> tuple[float, list[float]]:
    label = max([_header_chars(corner)] + [min(len(r["label"]) + 7 * r["ours_only"]
                                               + len(r.get("marks", "")), 36)
                                           for r in rows]) if rows else 8
    marks = col_marks or [""] * len(columns)
    cols = [max([_header_chars(c) + len(marks[j])] + [r["cells"][j]["chars"] for r in rows])
            for j, c in enumerate(columns)]
    return _em(label), [_em(c) for c in cols]


def _balanced(widths: list[float], k: int) -> list[tuple[int, int]]:
    """``widths`` cut into ``k`` contiguous blocks with the widest block as narrow as it can
    be (the classic linear partition, by dynamic programming; ties keep earlier cuts)."""
    n = len(widths)
    pre = [0.0]
    for w in widths:
        pre.append(pre[-1] + w)
    inf = float("inf")
    best = [[inf] * (n + 1) for _ in range(k + 1)]
    cut = [[0] * (n + 1) for _ in range(k + 1)]
    best[0][0] = 0.0
    for b in range(1, k + 1):
        for i in range(b, n + 1):
            for j in range(b - 1, i):
                v = max(best[b - 1][j], pre[i] - pre[j])
                if v < best[b][i] - 1e-12:
                    best[b][i], cut[b][i] = v, j
    out, i = [], n
    for b in range(k, 0, -1):
        out.append((cut[b][i], i))
        i = cut[b][i]
    return out[::-1]


def column_blocks(label_em: float, col_em: list[float],
                  limit: float = LANDSCAPE_EM) -> list[tuple[int, int]]:
    """The fewest column blocks that each fit ``limit`` (with the row labels repeated), the
    columns spread evenly over them — never a one-column block while the columns could be
    shared out otherwise."""
    n = len(col_em)
    for k in range(1, n + 1):
        blocks = _balanced(col_em, k)
        if all(label_em + sum(col_em[a:b]) <= limit for a, b in blocks):
            return blocks
    return [(j, j + 1) for j in range(n)]


def fit(t: Table) -> list[Table]:
    """The table as it fits the page: as is, on a landscape page, or in balanced column
    blocks (notes and references to earlier notes under the last block only)."""
    label_em, col_em = _layout_width(t.corner, t.columns, t.rows, t.col_marks)
    total = label_em + sum(col_em)
    if total <= PORTRAIT_EM:
        return [t]
    if total <= LANDSCAPE_EM:
        t.width = "wide"
        return [t]
    blocks = column_blocks(label_em, col_em)
    out = []
    for i, (a, b) in enumerate(blocks):
        last = i == len(blocks) - 1
        rows = [{**r, "cells": r["cells"][a:b]} for r in t.rows]
        rows = [r for r in rows if any(c["css"] != "blank" for c in r["cells"])] or rows[:1]
        out.append(Table(t.caption, t.corner, t.columns[a:b], rows, t.notes if last else [],
                         width="wide", part=f"columns {a + 1}–{b} of {len(t.columns)}",
                         earlier=t.earlier if last else "", commands=t.commands,
                         col_marks=t.col_marks[a:b]))
    return out


def _key(r: dict) -> tuple:
    return record_cell(r)


def _common(lists: list[list[str]]) -> list[str]:
    """The texts in every one of ``lists`` (in the first's order); none for fewer than
    two."""
    if len(lists) < 2:
        return []
    return [t for t in lists[0] if all(t in other for other in lists[1:])]


def _stand_in_of(records: list, stand_ins: dict) -> tuple[str, str] | None:
    """(data used, what it stands in for) shared by every value among ``records`` (None:
    some value is on the paper's data, or they differ, or there is no value)."""
    got = {(data_used(r), stands_for(r, stand_ins)) if is_stand_in(r, stand_ins) else None
           for r in records if r is not None and r.get("value") is not None}
    if len(got) != 1 or None in got:
        return None
    return got.pop()


def stand_in_name(used: str, paper: str) -> str:
    """"OHSUMED (stand-in for HP2004)"."""
    return data_label({"dataset": paper, "data_used": used, "stand_in": True}, {})


def _stand_in_heading(heading: str, used: str, paper: str) -> str:
    """A heading over values computed on stand-in data: "OHSUMED (stand-in for HP2004)"
    where the heading names the paper's data set, else the heading with the data named."""
    named = stand_in_name(used, paper)
    either = {paper, used, name(paper), name(used)}      # by catalogue id or by name
    if display_label(heading) in either or heading in either:
        return named
    parts = str(heading).split(", ")
    if either & set(parts):
        return ", ".join(named if p in either else p for p in parts)
    return f"{heading} — on {named}"


def finish_table(caption: str, corner: str, columns: list[str], rows: list[dict],
                 book: NoteBook | None, stand_ins: dict | None = None,
                 first_note: str = "") -> Table:
    """A table of ``rows`` ({"label", "ours_only", "cells": [record or None]}) under
    ``columns``, its notes said once (the module doc): stand-in data named in the heading it
    is common to, notes common to the table stated under it, common to a row or column
    lettered at its heading, the rest at their cells."""
    stand_ins = stand_ins or {}
    grid = [row["cells"] for row in rows]
    printed = [[_printed_notes(r, stand_ins)[0] if r is not None else None for r in cells]
               for cells in grid]
    stand_in_text = {id(r): "computed on " + data_label(r, stand_ins) for cells in grid
                     for r in cells if r is not None and r.get("value") is not None
                     and is_stand_in(r, stand_ins)}
    said: dict[tuple[int, int], set] = {}       # (row, column) -> notes said by a heading

    def say(i, j, texts):
        said.setdefault((i, j), set()).update(texts)
    heads = list(columns)
    labels = [display_label(row["label"]) for row in rows]
    valued = [r for cells in grid for r in cells if r is not None and r.get("value") is not None]
    every = _stand_in_of(valued, stand_ins) if valued else None
    if every:                                   # every value: said by the caption
        caption = f"{caption} — computed on {stand_in_name(*every)}"
        for i, cells in enumerate(grid):
            for j, r in enumerate(cells):
                if r is not None and id(r) in stand_in_text:
                    say(i, j, {stand_in_text[id(r)]})
    for j in range(len(columns)) if not every else ():     # ... or by a column's heading
        col = [grid[i][j] for i in range(len(grid))]
        si = _stand_in_of(col, stand_ins)
        if si:
            heads[j] = _stand_in_heading(str(columns[j]), *si)
            for i, r in enumerate(col):
                if r is not None and id(r) in stand_in_text:
                    say(i, j, {stand_in_text[id(r)]})
    for i, cells in enumerate(grid if not every else ()):   # ... or by a row's label
        left = [r for j, r in enumerate(cells)
                if r is not None and stand_in_text.get(id(r)) not in said.get((i, j), ())]
        si = _stand_in_of(left, stand_ins) if left and len(left) == sum(
            1 for r in cells if r is not None and r.get("value") is not None) else None
        if si:
            labels[i] = _stand_in_heading(labels[i], *si)
            for j, r in enumerate(cells):
                if r is not None and id(r) in stand_in_text:
                    say(i, j, {stand_in_text[id(r)]})

    def rest(i, j):
        return [t for t in printed[i][j] if t not in said.get((i, j), ())]
    prose = [[sentences_of(r) if r is not None else set() for r in cells] for cells in grid]

    kinds = [[{t: k for k, t in note_items(r, stand_ins)} if r is not None else {}
               for r in cells] for cells in grid]

    def shared(cells: list[tuple[int, int]], exclude=()) -> list[str]:
        """What the cells share, kind by kind (a reason, a tolerance, …: common to every cell
        that has one of that kind, when those are most of the cells; the sentences of their
        own notes:
        common to every cell with notes of its own) — a row's reason is not contradicted by
        a value computed, nor a column's by a baseline beside it."""
        lists = [[t for t in rest(i, j) if t not in exclude] for i, j in cells]
        out = []
        by_kind: dict[str, list[list[str]]] = {}
        for lst, (i, j) in zip(lists, cells):
            for kind in {kinds[i][j].get(t, "note") for t in lst if t not in prose[i][j]}:
                by_kind.setdefault(kind, []).append(
                    [t for t in lst if t not in prose[i][j] and kinds[i][j].get(t) == kind])
        for kind, lsts in by_kind.items():
            if 2 * len(lsts) > len(cells):          # most of the heading's cells say it
                out += _common(lsts)
        noted = [[t for t in lst if t in prose[i][j]] for lst, (i, j) in zip(lists, cells)
                 if prose[i][j]]
        return out + _common(noted)
    with_pub = [rest(i, j) for i, cells in enumerate(grid) for j, r in enumerate(cells)
                if r is not None and r.get("published") is not None]
    common = _common(with_pub)
    notes = Notes([], ([first_note] if first_note else []) + common, book)
    col_notes = [shared([(i, j) for i in range(len(grid)) if grid[i][j] is not None],
                        common) for j in range(len(columns))]
    col_marks = [notes.marks(c) for c in col_notes]
    out_rows = []
    for i, row in enumerate(rows):
        row_notes = shared([(i, j) for j, r in enumerate(grid[i]) if r is not None],
                           set(common) | {t for j in range(len(columns)) for t in col_notes[j]
                                          if grid[i][j] is not None})
        said_prose = [t for t in row_notes
                      if any(t in prose[i][j] for j in range(len(columns)))]
        row_marks = notes.marks([t for t in row_notes if t not in said_prose]
                                + ([" ".join(said_prose)] if said_prose else []))
        cells = [cell(r, notes, stand_ins,
                      said.get((i, j), set()) | set(common) | set(col_notes[j]) | set(row_notes))
                 if r is not None else cell(None, notes) for j, r in enumerate(grid[i])]
        out_rows.append({**row, "label": labels[i], "marks": row_marks, "cells": cells})
    items, earlier = notes.close()
    return Table(caption=caption, corner=corner, columns=heads, rows=out_rows, notes=items,
                 earlier=earlier, col_marks=col_marks)


def layout_table(layout: TableLayout, by_key: dict[tuple, dict], extra: list[dict],
                 used: set, book: NoteBook | None = None,
                 stand_ins: dict | None = None) -> Table:
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
    heads = [c if c in layout.columns or "not in the paper" in str(c) else f"{c} (ours)"
             for c in columns]
    return finish_table(layout.source, f"{layout.rows_field} \\ {layout.cols_field}", heads,
                        rows, book, stand_ins, layout.note)


def values_table(records: list[dict], caption: str, natural_key,
                 book: NoteBook | None = None, stand_ins: dict | None = None) -> Table | None:
    """Records outside the published tables as one compact table: the column field is the
    varying field with the fewest distinct values (method, metric, fold or dataset), the rows
    the combinations of the other varying fields."""
    if not records:
        return None
    fields = IN_ARTIFACT
    distinct = {f: list(dict.fromkeys(r.get(f) for r in records)) for f in fields}
    varying = [f for f in fields if len(distinct[f]) > 1]
    if len(varying) <= 1:
        col_field, row_fields = None, varying or ["metric"]
    else:
        col_field = min(varying, key=lambda f: (len(distinct[f]), fields.index(f)))
        row_fields = [f for f in varying if f != col_field] or ["metric"]
        if len(distinct[col_field]) > 8:          # too many columns: a plain list
            col_field, row_fields = None, varying
    columns = ([(name(c) if col_field == "dataset" else str(c)) if c is not None else "—"
                for c in distinct[col_field]] if col_field else ["value"])
    rows, index = [], {}
    for r in records:
        label = where(r, row_fields, empty="—")
        if label not in index:
            index[label] = len(rows)
            rows.append({"label": label, "ours_only": False, "cells": [None] * len(columns)})
        j = distinct[col_field].index(r.get(col_field)) if col_field else 0
        row = rows[index[label]]
        if row["cells"][j] is not None:           # same place twice: its own row
            label = where(r, fields, empty="—")
            index[label] = len(rows)
            rows.append({"label": label, "ours_only": False, "cells": [None] * len(columns)})
            row = rows[-1]
        row["cells"][j] = r
    rows.sort(key=lambda row: natural_key(row["label"]))
    same = [f"{f} {distinct[f][0]}" if f == "fold" else
            name(distinct[f][0]) if f == "dataset" else str(distinct[f][0])
            for f in fields if f not in varying and distinct[f][0] not in (None, "")]
    corner = " / ".join(row_fields) + (f" \\ {col_field}" if col_field else "")
    if same:
        caption += " (" + ", ".join(same) + ")"
    return finish_table(caption, corner, columns, rows, book, stand_ins)


def record_rows(flat: list[dict], stand_ins: dict | None = None) -> list[dict]:
    """Every record as a row of the flat list (the collapsed "all records" list)."""
    rows = []
    for r in flat:
        cls = verdict_class(r)
        d_ci = r.get("d_ci90")
        rows.append({"dataset": name(r.get("dataset")), "method": r.get("method") or "",
                     "metric": r.get("metric") or "", "fold": r.get("fold") or "",
                     "value": fmt_value(r.get("value"), r.get("published")),
                     "published": fmt_published(r.get("published")),
                     "diff": fmt_diff(r.get("diff"), r.get("published"), r.get("value")),
                     "interval": (f"[{fmt_diff(d_ci[0], r.get('published'), r.get('value'))}, "
                                  f"{fmt_diff(d_ci[1], r.get('published'), r.get('value'))}]"
                                  if d_ci else fmt_ci(r.get("ci95"), r.get("published"))),
                     "basis": (f"±δ = {fmt_general(float(r['margin']))}; bound "
                               f"{fmt_general(float(r['equivalence_bound']))}"
                               if r.get("margin") is not None and
                               r.get("equivalence_bound") is not None else
                               r.get("ci_basis") or ""),
                     "verdict": words(r), "css": cls,
                     "short": SHORT.get(cls, cls).lower(),
                     "note": "; ".join([r.get("source") or ""]
                                      + record_notes(r, stand_ins)).strip("; ")})
    return rows


def artifact_tables(artifact: str, flat: list[dict], layouts: list[TableLayout],
                    natural_key, max_values: int = 80,
                    commands: dict | None = None,
                    stand_ins: dict | None = None) -> tuple[list[Table], int]:
    """The tables of one artifact: its published tables in the paper's layout, then the other
    values (ours only beyond ``max_values``: such long lists — curves — stay in the JSON and
    the flat list).  Notes are lettered once for the artifact; ``commands`` ({"recompute",
    "runs"}: the shell commands that recompute the artifact) go in every caption and every
    cell's tooltip; ``stand_ins``: data used → the paper's data set it stands in for
    (:mod:`.standins`).  Returns the tables and the number of values left to the flat
    list."""
    by_key = {_key(r): r for r in flat if r.get("published") is not None}
    extra = [r for r in flat if r.get("published") is None and r.get("value") is not None]
    used: set = set()
    tables = []
    book = NoteBook()
    for lay in layouts:
        tables += fit(layout_table(lay, by_key, extra, used, book, stand_ins))
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
        t = values_table(recs, caption, natural_key, book, stand_ins)
        if t is not None:
            tables += fit(t)
    detail = cell_detail(commands)
    for t in tables:
        t.commands = dict(commands or {})
        for row in t.rows if detail else []:
            for c in row["cells"]:
                if c["css"] != "blank" and not c["title"].endswith(detail):
                    c["title"] = f"{c['title']}\n{detail}"
    return tables, left
