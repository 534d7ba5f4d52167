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

Key fields of a table are those of its record (:func:`repro.evidence.record.key`: every field
in no other category).  The runner adds ``dataset`` (and ``fold`` where the run has one) to both.

The per-query tables of an artifact are written beside its JSON as
``<artifact>.per-query.json.gz`` (:func:`encode_sidecar`): gzip-compressed JSON, byte-identical
for identical content (no timestamp in the gzip header, keys sorted).
"""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from . import run_files
from .record import key, key_text, number, table_key

SIDECAR_SUFFIX = ".per-query.json.gz"


class TableIndex:
    """The per-query tables of an artifact's runs, found by a record's fields.

    * :meth:`find` — exactly: the table whose key fields all equal the record's fields of the
      same names (a record has more fields — verdicts, notes — than the key of its table);
    * :meth:`find_fold` — the table of one fold behind a mean over folds: exactly, or loosely,
      the one table of that fold (same method and metric) whose key fields the record has all
      agree (a field that varies by fold, e.g. the training size of "all queries", is absent
      from the mean's record);
    * :meth:`folds` — the tables of a record's fields at each of the given folds (None when
      one is missing).

    A replicated artifact's tables carry ``repeat`` (one per replicate) beside their per-query
    means, which do not (:mod:`repro.judge.replicates`): a record without ``repeat`` finds the
    mean, one with ``repeat`` its replicate's table."""

    def __init__(self, tables: list[dict]):
        self.by_fields: dict[tuple, dict[str, dict]] = {}
        self.by_name: dict[tuple, list[dict]] = {}
        for t in tables:
            k = table_key(t)
            self.by_fields.setdefault(tuple(sorted(k)), {})[key_text(k)] = t
            self.by_name.setdefault((str(t.get("method")), str(t.get("metric")),
                                     str(t.get("fold")), t.get("repeat")), []).append(t)

    def find(self, rec: dict) -> dict | None:
        replicate = rec.get("repeat") is not None
        for fields, tables in self.by_fields.items():
            if ("repeat" in fields) != replicate:
                continue
            hit = tables.get(key_text({k: rec.get(k) for k in fields}))
            if hit is not None:
                return hit
        return None

    def find_fold(self, rec: dict, fold: str) -> dict | None:
        hit = self.find({**rec, "fold": fold})
        if hit is not None:
            return hit
        cands = [t for t in self.by_name.get((str(rec.get("method")), str(rec.get("metric")),
                                              fold, rec.get("repeat")), [])
                 if all(str(rec.get(k)) == str(v) for k, v in table_key(t).items()
                        if k != "fold" and k in rec)]
        return cands[0] if len(cands) == 1 else None

    def folds(self, fields: dict, folds: list[str]) -> list[dict] | None:
        """The tables of ``fields`` (a record's, or a select naming one table per fold) at
        each of ``folds``, exactly; None when one is missing."""
        got = [self.find({**fields, "fold": f}) for f in folds]
        return None if any(t is None for t in got) else got


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
        self.values = [number(v) for v in (self.values if isinstance(self.values, list) else
                                           np.asarray(self.values, dtype=np.float64).tolist())]
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
    used = [(number(v), float(wi)) for v, wi in zip(vals, w)
            if number(v) is not None and wi != 0]
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
        keys = key(extra)
        table = QueryTable(method, metric, list(qids), values, fold, why, keys,
                           None if weights is None else list(weights))
        self.tables.append(table)
        rec = self.value(method, metric, table.mean() if value is None else value, fold,
                         **extra)
        if why and number(rec["value"]) is None:
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
        run_files.offer(method, m, fold, key(extra), names)
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
