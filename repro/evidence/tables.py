"""What a run returns: evidence, not prose-shaped dicts.

A task returns an :class:`Evidence` (or its :meth:`Evidence.output`, the JSON form the cache
stores).  It holds

* **records** — one reproduced value each (``method``, ``metric``, ``value``, ``fold`` and any
  further key fields such as ``size`` or ``criterion``), as before;
* **query tables** — for every measure that is a mean over test queries, the value of each
  test query and the query ids (:class:`QueryTable`).  A record made by
  :meth:`Evidence.measured` carries the key of its table, so every fold mean, microaverage,
  confidence interval and paired test downstream is computed from the same numbers.  An
  undefined per-query value is ``None`` and the table says why (``why``);
* **detail** — anything else a figure draws (validation curves, timings), free-form.

Key fields of a table are those of its record: everything but the value and the fields listed
in :data:`NOT_KEY`.  The runner adds ``dataset`` (and ``fold`` where the run has one) to both.

The per-query tables of an artifact are written beside its JSON as
``<artifact>.per-query.json.gz`` (:func:`encode_sidecar`): gzip-compressed JSON, byte-identical
for identical content (no timestamp in the gzip header, keys sorted).
"""
from __future__ import annotations

import gzip
import json
import math
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from . import run_files

#: fields of a record that describe it rather than identify it
NOT_KEY = frozenset({"value", "why", "shown", "weight", "queries", "note", "seconds",
                     "published", "diff", "verdict", "source", "kind", "paper", "artifact",
                     "data_used", "stand_in", "modern", "not_run"})

SIDECAR_SUFFIX = ".per-query.json.gz"


def _num(v) -> float | None:
    if v is None:
        return None
    v = float(v)
    return None if math.isnan(v) else v


TABLE_DATA = ("qids", "values", "why", "weights")


def table_key(table: dict) -> dict:
    """The identifying fields of a query table: all but its data and its reason."""
    return {k: v for k, v in table.items() if k not in TABLE_DATA}


def key_text(fields: dict) -> str:
    """A canonical, hashable text of identifying fields (values compared as strings)."""
    return json.dumps({k: (None if v is None else str(v)) for k, v in fields.items()},
                      sort_keys=True, separators=(",", ":"))


class TableIndex:
    """Finds the query table behind a record: the table whose key fields all equal the
    record's fields of the same names (a record has more fields — verdicts, notes — than the
    key of its table)."""

    def __init__(self, tables: list[dict]):
        self.by_fields: dict[tuple, dict[str, dict]] = {}
        for t in tables:
            key = table_key(t)
            self.by_fields.setdefault(tuple(sorted(key)), {})[key_text(key)] = t

    def find(self, rec: dict) -> dict | None:
        for fields, tables in self.by_fields.items():
            hit = tables.get(key_text({k: rec.get(k) for k in fields}))
            if hit is not None:
                return hit
        return None


@dataclass
class QueryTable:
    """Per-query values of one measure of one method (at one fold and setting): ``values[i]``
    is the value of query ``qids[i]`` (test queries in data order); ``None`` is undefined."""
    method: str
    metric: str
    qids: list
    values: list
    fold: str | None = None
    why: str = ""
    keys: dict = field(default_factory=dict)     # further key fields (size, criterion, …)
    weights: list | None = None                  # a weighted mean (e.g. by pairs per query)

    def __post_init__(self):
        self.qids = [q.item() if isinstance(q, np.generic) else q for q in list(self.qids)]
        self.values = [_num(v) for v in np.asarray(self.values, dtype=np.float64).tolist()] \
            if not isinstance(self.values, list) else [_num(v) for v in self.values]
        if len(self.qids) != len(self.values):
            raise ValueError(f"query table {self.method}/{self.metric}: {len(self.qids)} query "
                             f"ids but {len(self.values)} values")
        if self.fold is not None:
            self.fold = str(self.fold)
        if self.weights is not None:
            self.weights = [float(w) for w in np.asarray(self.weights, dtype=np.float64)]
            if len(self.weights) != len(self.values):
                raise ValueError(f"query table {self.method}/{self.metric}: "
                                 f"{len(self.weights)} weights for {len(self.values)} values")
        if any(v is None for v in self.values) and not self.why:
            raise ValueError(f"query table {self.method}/{self.metric}: undefined values need "
                             f"a reason (why)")

    def as_dict(self) -> dict:
        out = {"method": self.method, "metric": self.metric, "fold": self.fold,
               **self.keys, "qids": self.qids, "values": self.values}
        if self.why:
            out["why"] = self.why
        if self.weights is not None:
            out["weights"] = self.weights
        return out

    def mean(self) -> float:
        """The mean over the defined values (see :func:`table_mean`)."""
        return table_mean(self.as_dict())


def table_mean(table: dict) -> float:
    """The mean over queries — plain, or weighted by ``weights`` — of the defined values:
    an undefined value (``None``; the table's ``why`` says why, e.g. a query without a
    relevant document under a paper's own definition) does not count.  NaN when nothing
    counts."""
    vals, w = table["values"], table.get("weights")
    if w is None:
        w = [1.0] * len(vals)
    used = [(float(v), float(wi)) for v, wi in zip(vals, w)
            if v is not None and not math.isnan(v) and wi != 0]
    if not used:
        return float("nan")
    if table.get("weights") is None:
        return float(np.mean([v for v, _ in used]))
    return float(np.dot([v for v, _ in used], [wi for _, wi in used])
                 / np.sum([wi for _, wi in used]))


class Evidence:
    """What one run returns: records, per-query tables and free-form detail."""

    def __init__(self, **detail):
        self.records: list[dict] = []
        self.tables: list[QueryTable] = []
        self.detail: dict[str, Any] = dict(detail)

    def value(self, method: str, metric: str, value, fold=None, **extra) -> dict:
        """A value that is not a mean over queries (a chosen parameter, a time, a count)."""
        rec = {"method": method, "metric": metric, "value": value,
               "fold": None if fold is None else str(fold), **extra}
        self.records.append(rec)
        return rec

    def per_query(self, method: str, metric: str, qids, values, fold=None, value=None,
                  why: str = "", weights=None, **extra) -> dict:
        """A mean over test queries: its per-query table and its record.  ``value``: the
        record's value when it was computed elsewhere (e.g. the official evaluation's
        sequential sum, equal to the table's mean up to rounding); default the table's mean.
        ``weights``: the mean is weighted (e.g. pairwise accuracy averaged over pairs: each
        query weighs its number of pairs)."""
        keys = {k: v for k, v in extra.items() if k not in NOT_KEY}
        for k in keys:
            if k in TABLE_DATA or k in ("method", "metric", "fold"):
                raise ValueError(f"per_query: {k!r} cannot be a further key field")
        table = QueryTable(method, metric, list(qids), values, fold, why, keys,
                           None if weights is None else list(weights))
        self.tables.append(table)
        rec = self.value(method, metric, table.mean() if value is None else value, fold,
                         **extra)
        if why and _num(rec["value"]) is None:
            rec.setdefault("why", why)
        return rec

    def measured(self, method: str, m: "Measured", fold=None, names: Iterable[str] | None = None,
                 **extra) -> list[dict]:
        """Records and tables of every measure of ``m`` (a :class:`Measured`).  While a score
        sink is active (:mod:`repro.evidence.run_files`), the scoring behind ``m`` is handed to it with
        ``method``, ``fold`` and the key fields of ``extra``; with none, nothing is."""
        names = list(m.summary if names is None else names)
        recs = [self.per_query(method, name, m.qids, m.per_query[name], fold,
                               value=m.summary[name], **extra)
                for name in names]
        run_files.offer(method, m, fold, {k: v for k, v in extra.items() if k not in NOT_KEY},
                        names)
        return recs

    def output(self) -> dict:
        out = dict(self.detail)
        out["records"] = self.records
        out["per_query"] = [t.as_dict() for t in self.tables]
        return out


@dataclass
class Measured:
    """Measures of one scoring of a data set: the summary (as the evaluation averages them)
    and the per-query values in the data's query order.  While a score sink is active,
    :func:`repro.evidence.protocol.measured` also sets ``scored`` (:class:`repro.evidence.run_files.Scored`: the
    data and scores behind it) — an attribute of the object, not a field: never compared,
    shown or serialised."""
    qids: list
    summary: dict[str, float]
    per_query: dict[str, np.ndarray]


# --- sidecars ---------------------------------------------------------------------------------

def encode_sidecar(artifact: str, tables: list[dict]) -> bytes:
    """``<artifact>.per-query.json.gz``: deterministic gzip of sorted JSON."""
    rows = sorted(tables, key=lambda t: key_text(table_key(t)))
    text = json.dumps({"artifact": artifact, "tables": rows}, sort_keys=True,
                      separators=(",", ":"), allow_nan=False)
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def decode_sidecar(data: bytes) -> dict:
    return json.loads(gzip.decompress(data).decode("utf-8"))
