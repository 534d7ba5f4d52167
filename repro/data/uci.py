"""Readers for the UCI classification files used by Le & Smola (2007), Table 1.

* Page Blocks (``page-blocks.data``): whitespace-separated, 10 numeric attributes, class 1..5.
* Pen digits / optical digits (``*.tra``, ``*.tes``): comma-separated integers, class 0..9 last.
* Covertype (``covtype.data``): comma-separated, 54 attributes, class 1..7 last.

Each returns :class:`Classification` with float64 ``X`` and integer ``y``.  A malformed line
(wrong field count, a non-number, NaN) is an error naming the file and the line.

:func:`uci_queries` turns a set into ranking queries (the construction of Le & Smola 2007,
Sec. 6.2), seeded by its caller.
"""
from __future__ import annotations

import io
import math
import zlib
from dataclasses import dataclass

import numpy as np

from ..errors import DataError
from . import catalog as cat
from .queries import QueryData


@dataclass
class Classification:
    X: np.ndarray
    y: np.ndarray
    source: str

    @property
    def n_samples(self) -> int:
        return int(self.X.shape[0])


def parse_table(text: str, source: str, n_attributes: int, sep: str | None) -> Classification:
    """Rows of ``n_attributes`` numbers and an integer class, separated by ``sep`` (None:
    whitespace).  Parsed by NumPy; on any problem a line scan names the first bad line."""
    try:
        table = np.loadtxt(io.StringIO(text), delimiter=sep, dtype=np.float64, ndmin=2)
    except ValueError:
        table = None
    if (table is None or table.shape[1] != n_attributes + 1 or table.shape[0] == 0
            or not np.all(np.isfinite(table)) or np.any(table[:, -1] != np.round(table[:, -1]))):
        _first_bad_line(text, source, n_attributes, sep)
    return Classification(np.ascontiguousarray(table[:, :-1]), table[:, -1].astype(np.int64), source)


def _first_bad_line(text: str, source: str, n_attributes: int, sep: str | None) -> None:
    """Raise a :class:`DataError` naming the first line that is not a valid row."""
    seen = False
    for line_no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        seen = True
        fields = line.split(sep) if sep else line.split()
        if len(fields) != n_attributes + 1:
            raise DataError(f"{source}, line {line_no}: expected {n_attributes + 1} fields "
                            f"({n_attributes} attributes and a class), found {len(fields)}")
        try:
            values = [float(f) for f in fields[:-1]]
            int(fields[-1])
        except ValueError:
            raise DataError(f"{source}, line {line_no}: non-numeric field in {line.strip()!r}") from None
        if not all(math.isfinite(v) for v in values):
            raise DataError(f"{source}, line {line_no}: NaN or infinite attribute in {line.strip()!r}")
    raise DataError(f"{source}: no data lines" if not seen else f"{source}: unreadable table")


_FORMATS = {  # reader -> (files by split, attributes, separator)
    "page_blocks": ({"all": "page-blocks.data"}, 10, None),
    "covertype": ({"all": "covtype.data"}, 54, ","),
}


def load_uci(name: str, data_dir=None) -> dict[str, Classification]:
    """All splits of a UCI dataset: ``{"all": …}`` or ``{"train": …, "test": …}``."""
    info = cat.dataset(name)
    if info.kind != "uci":
        raise DataError(f"{name} is not a UCI classification dataset")
    root = cat.data_dir(data_dir)
    if info.reader == "digits":
        stem = name
        n_attr = {"pendigits": 16, "optdigits": 64}[name]
        files, sep = {"train": f"{stem}.tra", "test": f"{stem}.tes"}, ","
    else:
        files, n_attr, sep = _FORMATS[info.reader]
    out = {}
    for split, rel in files.items():
        path, sums = cat.require_file(info, root, rel)
        data = cat.read_verified(path, sums)
        out[split] = parse_table(data.decode("ascii", "replace"), str(path), n_attr, sep)
    return out


def uci_queries(dataset: str, data_dir, n_queries: int, n_docs: int,
                seed: int | str) -> QueryData:
    """Queries from a UCI set (Le & Smola 2007, Sec. 6.2): the official splits pooled, every
    attribute min–max scaled to [0, 1] over the pooled set, relevance = the class index as a
    grade (Page Blocks 1..5 → 0..4, digits 0..9); ``n_queries`` queries of ``n_docs``
    documents, each drawn without replacement from the whole set (queries drawn
    independently: a document may recur across queries).  ``seed``: the draw's seed, or a
    text whose CRC-32 is the seed (a caller's name for the draw, e.g.
    ``"<paper>/uci/<dataset>"``): the same seed gives the same queries."""
    if n_queries < 1 or n_docs < 1:
        raise DataError(f"uci_queries({dataset!r}): n_queries and n_docs must be ≥ 1, got "
                        f"{n_queries} and {n_docs}")
    parts = load_uci(dataset, data_dir)
    X = np.vstack([p.X for p in parts.values()])
    y = np.concatenate([p.y for p in parts.values()]).astype(np.float64)
    if n_docs > y.shape[0]:
        raise DataError(f"uci_queries({dataset!r}): n_docs = {n_docs} exceeds the "
                        f"{y.shape[0]} documents of the set")
    y = y - y.min()
    lo, hi = X.min(axis=0), X.max(axis=0)
    X = (X - lo) / np.where(hi > lo, hi - lo, 1.0)
    rng = np.random.default_rng(zlib.crc32(seed.encode()) if isinstance(seed, str) else seed)
    idx = np.concatenate([rng.choice(y.shape[0], n_docs, replace=False)
                          for _ in range(n_queries)])
    qp = np.arange(0, n_queries * n_docs + 1, n_docs, dtype=np.int64)
    return QueryData(np.ascontiguousarray(X[idx]), y[idx], qp, np.arange(n_queries),
                     source=f"{dataset} (sampled queries)")
