"""Published numbers: one TOML file per paper, next to its module, loaded (:func:`load`) into
a :class:`PublishedSet` — values, tolerance rules, explanations, kinds and table layouts.
Judging our values against them is :mod:`repro.judge.verdicts`' job.

File layout (``repro/papers/<paper>.toml``)::

    [tolerance]
    default = 0.0                   # absolute tolerance beyond the paper's rounding
    [[tolerance.rule]]              # exceptions, matched on artifact/dataset/method/metric/fold
    artifact = "figure2"; tol = 0.01; why = "read off a plot"

    [[table]]                       # a published table, transcribed cell by cell
    artifact = "table7"; source = "Table 7"; dataset = "MQ2008"; metric = "MAP"
    rows = "fold"; cols = "method"  # which record field the row / column labels give
    row_labels = { Fold1 = "1", Average = "avg" }  # optional relabelling
    columns = ["GRankRLS", "RankRLS", "RankSVM"]
    data = [["Fold1", "0.4722", "0.4711", "0.4696"], ...]
    baseline = ["RankSVM"]          # columns the paper copies from elsewhere: shown, not rerun

    [[value]]                       # a single published value
    artifact = "tableI"; dataset = "MQ2008"; method = "TRON"; metric = "zero_dual_pct"
    value = "22.44"; source = "Table I, row MQ2008"

    [[explain]]                     # why a value deviates (shown beside it)
    artifact = "table7"; fold = "2"; why = "..."

    [[kind]]                        # values that are not reproductions (matched like rules)
    artifact = "sectionII"; kind = "consistency"; why = "labels rebuilt from these counts"

    [dataset_parent]                # a sub-labelled dataset takes its parent's not-run reason
    "corel-pamir:Small-Easy" = "corel-pamir"

    [report.stand_ins]              # for the pages: data that stands in, its records keeping
    OHSUMED = "web-search-lesmola"  #   their own label
    [report.names]                  # a catalogue id as the pages name it
    "corel-pamir:Small-Easy" = "Corel-Small-Easy"

Values are kept as the paper prints them (text): the number of decimals gives the rounding
against which a reproduced value "agrees"; ``2^8`` style powers are read as numbers; cells
marked ``?`` are unreadable in the source and listed as such.

A value is a *reproduction* unless a ``[[kind]]`` entry says otherwise:

* ``consistency``: a check, not a reproduction — its input was rebuilt from the numbers it is
  compared with (or it verifies the data, not a result); verdicts "consistent (check, not a
  reproduction)" / "inconsistent (check)".
* ``derived``: the paper states the value only in words or as a claim (``O(kmn)`` → exponent
  1, "Tree-TRON is faster" → 1), or the value is computed partly from published numbers;
  verdicts "derived value: agrees …" / "… within tolerance" / "… deviates" — never counted as
  reproduced.
* ``shown``: the published value is shown beside ours but not compared, because the paper does
  not say what it measures (e.g. a "±" of unstated meaning); verdict "shown, not compared: why".

A tolerance rule with ``rounding = false`` compares by its ``tol`` alone: the published text is
a claim, not a rounded measurement (an exponent "1" claimed by ``O(n)`` does not mean ±0.5).

Tables keep the paper's layout (:class:`TableLayout`): rows and columns as printed.  Several
``[[table]]`` entries with the same artifact, source, row/column fields and columns form one
table (e.g. rows whose fold differs); a ``[[value]]`` whose source begins with a table's source
and whose fields fit that table's fixed fields and columns is shown as a cell of it (cells
transcribed one by one because the text is garbled, say).
"""
from __future__ import annotations

import re
from collections import Counter
import tomllib
from dataclasses import dataclass, field
from importlib import resources

from ..evidence.record import CELL, IN_ARTIFACT


#: what a published value is (``[[kind]]``): a reproduction unless the TOML says otherwise
KINDS = ("reproduction", "consistency", "derived", "shown")


@dataclass(frozen=True)
class PublishedValue:
    artifact: str
    dataset: str | None
    method: str | None
    metric: str | None
    fold: str | None
    text: str
    source: str
    baseline: bool = False
    note: str = ""

    @property
    def key(self) -> tuple:
        return (self.artifact, self.dataset, self.method, self.metric, self.fold)

    @property
    def value(self) -> float | None:
        return parse_number(self.text)

    @property
    def decimals(self) -> int:
        return decimals_of(self.text)


@dataclass(frozen=True)
class LayoutRow:
    label: str                      # as printed
    value: str                      # the value of the table's row field (after row_labels)
    cells: tuple                    # per column: the key of its published value, or None (blank)


@dataclass
class TableLayout:
    """A published table as the paper prints it: ``rows`` × ``columns`` (labels as printed),
    each cell the key of one published value.  ``fixed``: the field values every cell of a
    ``[[table]]`` entry shares (besides the row and column fields), one dict per entry."""
    artifact: str
    source: str
    rows_field: str
    cols_field: str
    columns: list[str]
    rows: list[LayoutRow]
    fixed: list[dict]
    note: str = ""

    def fits(self, rec: dict) -> bool:
        """Whether a record (or value key as a dict) belongs in this table's grid."""
        if rec.get("artifact") != self.artifact or rec.get(self.cols_field) not in self.columns:
            return False
        return any(all(rec.get(k) == v for k, v in f.items()) for f in self.fixed)


def decimals_of(text: str | None) -> int:
    """Decimals a published value is printed with (``"0.4722"`` → 4, ``"2^8"`` → 0)."""
    t = (text or "").strip().rstrip("%")
    if "^" in t or "." not in t:
        return 0
    return len(t.split(".")[1])


_POWER = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*\^\s*\{?\s*(-?\d+)\s*\}?\s*$")


def parse_number(text: str) -> float | None:
    """``"0.4722"`` → 0.4722, ``"2^{10}"`` → 1024, ``"22.44%"`` → 22.44, ``"?"`` → None."""
    t = str(text).strip().rstrip("%").strip()
    m = _POWER.match(t)
    if m:
        return float(m.group(1)) ** int(m.group(2))
    try:
        return float(t)
    except ValueError:
        return None


@dataclass
class PublishedSet:
    paper: str
    values: list[PublishedValue]
    default_tol: float = 0.0
    rules: list[dict] = field(default_factory=list)
    explanations: list[dict] = field(default_factory=list)
    protocol: dict = field(default_factory=dict)
    notes: dict = field(default_factory=dict)
    parents: dict = field(default_factory=dict)     # dataset label -> parent dataset
    kinds: list[dict] = field(default_factory=list)
    layouts: list[TableLayout] = field(default_factory=list)
    #: ``[report.stand_ins]``: data set -> the paper's data set it stands in for, on the pages
    #: only (its records keep their own label)
    stand_ins: dict = field(default_factory=dict)
    #: ``[report.names]``: a data set's catalogue id -> its name as the paper (or its source)
    #: prints it ("corel-pamir:Small-Easy" -> "Corel-Small-Easy")
    names: dict = field(default_factory=dict)

    def for_artifact(self, name: str) -> list[PublishedValue]:
        return [v for v in self.values if v.artifact == name]

    def _match(self, rule: dict, rec: dict) -> bool:
        return all(rule[k] == rec.get(k) for k in CELL if k in rule)

    def tolerance(self, rec: dict) -> tuple[float, str]:
        rule = self.rule(rec)
        return (float(rule["tol"]), rule.get("why", "")) if rule else (self.default_tol, "")

    def rule(self, rec: dict) -> dict | None:
        """The first tolerance rule matching ``rec``."""
        return next((r for r in self.rules if self._match(r, rec)), None)

    def kind(self, rec: dict) -> tuple[str, str]:
        """``(kind, why)``: "reproduction" unless a ``[[kind]]`` entry matches."""
        for k in self.kinds:
            if self._match(k, rec):
                return k["kind"], k.get("why", "")
        return "reproduction", ""

    def layouts_for(self, artifact: str) -> list[TableLayout]:
        return [t for t in self.layouts if t.artifact == artifact]

    def explanation(self, rec: dict) -> str:
        return " ".join(e["why"] for e in self.explanations if self._match(e, rec))


def _cell_key(table: dict, row_value: str, col_value: str) -> dict:
    key = {k: table.get(k) for k in IN_ARTIFACT}
    key[table["rows"]] = row_value
    key[table["cols"]] = col_value
    return key


def load(paper: str, path=None) -> PublishedSet:
    """Read ``repro/papers/<paper>.toml`` (or ``path``)."""
    from pathlib import Path
    path = Path(path) if path else resources.files("repro.papers").joinpath(f"{paper}.toml")
    if not path.is_file():
        return PublishedSet(paper, [])
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    values: list[PublishedValue] = []
    layouts: dict[tuple, TableLayout] = {}
    for t in raw.get("table", []):
        relabel = t.get("row_labels", {})
        baseline = set(t.get("baseline", []))
        columns = [str(c) for c in t["columns"]]
        ident = (t["artifact"], t["source"], t["rows"], t["cols"], tuple(columns))
        layout = layouts.setdefault(ident, TableLayout(
            t["artifact"], t["source"], t["rows"], t["cols"], columns, [], [], t.get("note", "")))
        layout.fixed.append({k: t.get(k) for k in IN_ARTIFACT
                             if k not in (t["rows"], t["cols"])})
        for row in t["data"]:
            label, cells = str(row[0]), row[1:]
            if len(cells) != len(columns):
                raise ValueError(f"{path}: table {t['source']}, row {label!r} has {len(cells)} "
                                 f"cells for {len(columns)} columns")
            row_value = str(relabel.get(label, label))
            keys = []
            for col, text in zip(columns, cells):
                if text is None or str(text).strip() in ("", "-"):
                    keys.append(None)
                    continue
                key = _cell_key(t, row_value, col)
                pv = PublishedValue(
                    artifact=t["artifact"], text=str(text),
                    source=f"{t['source']}, row {label}, column {col}",
                    baseline=col in baseline, note=t.get("note", ""), **key)
                values.append(pv)
                keys.append(pv.key)
            layout.rows.append(LayoutRow(label, row_value, tuple(keys)))
    for v in raw.get("value", []):
        pv = PublishedValue(
            artifact=v["artifact"], dataset=v.get("dataset"), method=v.get("method"),
            metric=v.get("metric"), fold=v.get("fold"), text=str(v["value"]),
            source=v["source"], baseline=v.get("baseline", False), note=v.get("note", ""))
        values.append(pv)
        _place_in_layout(pv, layouts.values())
    dup = {k for k, n in Counter(v.key for v in values).items() if n > 1}
    if dup:
        raise ValueError(f"{path}: published value given twice for {sorted(dup)[0]}")
    tol = raw.get("tolerance", {})
    kinds = list(raw.get("kind", []))
    for k in kinds:
        if k.get("kind") not in KINDS[1:]:
            raise ValueError(f"{path}: [[kind]] {k} must have kind = one of {KINDS[1:]}")
    report = raw.get("report", {})
    for part in ("stand_ins", "names"):
        bad = [k for k, v in report.get(part, {}).items() if not isinstance(v, str)]
        if bad:
            raise ValueError(f"{path}: [report.{part}] {bad[0]!r} must be a string")
    return PublishedSet(paper, values, float(tol.get("default", 0.0)), list(tol.get("rule", [])),
                        list(raw.get("explain", [])), dict(raw.get("protocol", {})),
                        dict(raw.get("notes", {})), dict(raw.get("dataset_parent", {})),
                        kinds, list(layouts.values()), dict(report.get("stand_ins", {})),
                        dict(report.get("names", {})))


def _place_in_layout(pv: PublishedValue, layouts) -> None:
    """Put a single published value into the table it was printed in (if any): the first
    table of its artifact whose source begins its source and whose grid it fits — as a cell
    of the row of its row field's value (a new row if the table has none)."""
    rec = dict(zip(CELL, pv.key))
    for t in layouts:
        if not (pv.source.startswith(t.source) and t.fits(rec)):
            continue
        value = str(rec[t.rows_field])
        col = t.columns.index(rec[t.cols_field])
        for i, row in enumerate(t.rows):
            if row.value == value and row.cells[col] is None:
                cells = list(row.cells)
                cells[col] = pv.key
                t.rows[i] = LayoutRow(row.label, row.value, tuple(cells))
                return
        cells = [None] * len(t.columns)
        cells[col] = pv.key
        t.rows.append(LayoutRow(value, value, tuple(cells)))
        return
