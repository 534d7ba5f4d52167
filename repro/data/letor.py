"""LETOR 3.0 / 4.0 reader (wrapper of the ``repro._kernels.letor`` tokenizer).

Line format: ``label qid:Q i:v … #docid = D …`` (plain, ``.xz`` or ``.gz``; LF or CRLF).
Feature ``i`` (1-based) goes to column ``i - 1``; features absent from a line are 0.  The
documents of a query must be contiguous (they are in every LETOR, MSLR and Yahoo file); a qid
that reappears after another query is an error naming both lines, because silently merging
would reorder documents and change tie-breaking in the metrics.

The wrapper does every check and allocation; the kernel only loops over bytes.

Large files are parsed as a stream (:class:`LetorStream`, used by :func:`read_letor` and the
loaders above :data:`STREAM_BYTES`): a first pass scans line-aligned chunks (counting rows and
features, checksumming the content), the feature matrix is allocated once, and a second pass
tokenizes each chunk straight into its rows.  Peak memory is the matrix plus one chunk and
56 bytes a row; the result, the numbers and every error message (file, line, token) are those
of the in-memory parse.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .._kernels import letor as _kernel
from ..errors import DataError
from .io import Checksums, iter_line_chunks, read_bytes, uncompressed_size
from .queries import QueryData

#: Files larger than this (on disk) are parsed as a stream by :func:`read_letor` and the loaders.
STREAM_BYTES = 256 << 20
#: Size of the chunks a stream is read in.
CHUNK_BYTES = 32 << 20

_MESSAGES = {
    1: "label is not a number",
    2: "malformed qid (expected qid:<non-negative integer>, once per line)",
    3: "line has no qid:",
    4: "malformed feature index (expected <integer ≥ 1>:<value>)",
    5: "feature value is not a finite decimal number",
    6: "feature index repeated on one line",
    7: "token is not of the form <index>:<value>",
    8: "feature index larger than the number of features",
}


def _error(status: int, err, buf: bytes, source: str, extra: str = "",
           line0: int = 0) -> DataError:
    line, offset = int(err[0]) + line0, int(err[1])
    start = buf.rfind(b"\n", 0, max(offset, 0)) + 1
    stop = buf.find(b"\n", offset)
    stop = len(buf) if stop < 0 else stop
    text = buf[start:stop].rstrip(b"\r").decode("utf-8", "replace")
    if len(text) > 160:
        text = text[:157] + "..."
    tok_end = offset
    while tok_end < stop and buf[tok_end:tok_end + 1] not in (b" ", b"\t", b"\r"):
        tok_end += 1
    token = buf[offset:tok_end].decode("utf-8", "replace")[:40]
    what = _MESSAGES.get(status, f"parse error {status}")
    return DataError(f"{source}, line {line}: {what}{extra} (at {token!r}): {text}")


def tokenize(buf: bytes, source: str = "<bytes>", *, n_features: int | None = None,
             numeric_label: bool = True, require_qid: bool = True, dense: bool = True):
    """Run the kernel over ``buf``; return a dict of raw arrays (rows in file order).

    Keys: ``X`` (dense) or ``indptr/indices/data`` (CSR), ``labels``, ``label_span``,
    ``qid``, ``docid_span``, ``line_no``, ``n_features``.
    """
    arr = np.frombuffer(buf, dtype=np.uint8)
    counts = np.zeros(6, dtype=np.int64)
    status = _kernel.scan(arr, require_qid, counts)
    if status:
        raise _error(status, counts[4:6], buf, source)
    rows, nnz, max_index, _ = (int(c) for c in counts[:4])
    if n_features is None:
        n_features = max_index
    # (an index beyond a given n_features is reported by fill, with its line)
    out = {
        "labels": np.zeros(rows, dtype=np.float64),
        "label_span": np.zeros((rows, 2), dtype=np.int64),
        "qid": np.zeros(rows, dtype=np.int64),
        "docid_span": np.zeros((rows, 2), dtype=np.int64),
        "line_no": np.zeros(rows, dtype=np.int64),
        "n_features": n_features,
    }
    if dense:
        X = np.zeros((rows, n_features), dtype=np.float64)
        indptr = np.zeros(1, dtype=np.int64)
        indices = np.zeros(0, dtype=np.int32)
        data = np.zeros(0, dtype=np.float64)
    else:
        X = np.zeros((0, 0), dtype=np.float64)
        indptr = np.zeros(rows + 1, dtype=np.int64)
        indices = np.zeros(nnz, dtype=np.int32)
        data = np.zeros(nnz, dtype=np.float64)
    seen = np.full(n_features, -1, dtype=np.int64)
    err = np.zeros(2, dtype=np.int64)
    status = _kernel.fill(arr, numeric_label, require_qid, dense, X, indptr, indices, data,
                          out["labels"], out["label_span"], out["qid"], out["docid_span"],
                          out["line_no"], seen, err)
    if status:
        extra = f" ({n_features})" if status == 8 else ""
        raise _error(status, err, buf, source, extra)
    if dense:
        out["X"] = X
    else:
        out.update(indptr=indptr, indices=indices, data=data)
    return out


def _group_queries(qid_rows: np.ndarray, line_no: np.ndarray, source: str):
    """Offsets of runs of equal qid; refuse a qid that reappears later."""
    n = qid_rows.shape[0]
    if n == 0:
        raise DataError(f"{source}: no data lines")
    starts = np.flatnonzero(np.r_[True, qid_rows[1:] != qid_rows[:-1]])
    qids = qid_rows[starts]
    uniq, first, counts = np.unique(qids, return_index=True, return_counts=True)
    if np.any(counts > 1):
        q = uniq[np.argmax(counts > 1)]
        runs = starts[qids == q]
        raise DataError(f"{source}, line {line_no[runs[1]]}: qid {q} reappears after other "
                        f"queries (first seen at line {line_no[runs[0]]}); the documents of "
                        f"a query must be contiguous")
    return np.r_[starts, n].astype(np.int64), qids


def _docids(buf: bytes, spans: np.ndarray) -> np.ndarray | None:
    if spans.shape[0] == 0 or np.all(spans[:, 0] < 0):
        return None
    return np.array([buf[s:e].decode("utf-8", "replace") if s >= 0 else ""
                     for s, e in spans.tolist()], dtype=object)


def parse_letor(buf: bytes, source: str = "<bytes>", n_features: int | None = None) -> QueryData:
    """Parse LETOR-format bytes into :class:`QueryData` (dense X)."""
    raw = tokenize(buf, source, n_features=n_features)
    query_ptr, qids = _group_queries(raw["qid"], raw["line_no"], source)
    return QueryData(X=raw["X"], y=raw["labels"], query_ptr=query_ptr, qids=qids,
                     docids=_docids(buf, raw["docid_span"]), source=source,
                     line_no=raw["line_no"])


def read_letor(path: str | Path, n_features: int | None = None, *,
               stream: bool | None = None) -> QueryData:
    """Read a LETOR file (plain, ``.xz`` or ``.gz``) into :class:`QueryData`.

    ``stream``: parse chunk by chunk (:class:`LetorStream`); by default when the file is
    larger than :data:`STREAM_BYTES` on disk.  The result is the same either way."""
    path = Path(path)
    if stream is None:
        stream = path.is_file() and path.stat().st_size > STREAM_BYTES
    if stream:
        return LetorStream(path).read(n_features)
    return parse_letor(read_bytes(path), str(path), n_features)


class LetorStream:
    """Two-pass parse of a LETOR file without holding its text in memory.

    :meth:`scan` reads the file once in line-aligned chunks of ``chunk_bytes``: it counts rows,
    lines and the largest feature index of each chunk (reporting a malformed index token as the
    in-memory parse does) and computes the content's checksums (``kinds``, plus any
    ``extra_hashers`` fed the same bytes, e.g. for a concatenation of several files).
    :meth:`read` (scanning first if needed) allocates X once and fills it chunk by chunk; a
    file that changed between the passes is refused.
    """

    def __init__(self, path: str | Path, chunk_bytes: int | None = None,
                 source: str | None = None):
        self.path = Path(path)
        self.chunk_bytes = int(CHUNK_BYTES if chunk_bytes is None else chunk_bytes)
        self.source = str(self.path) if source is None else source
        self.chunks: list[tuple[int, int]] | None = None     # (rows, lines) per chunk
        self.max_index = 0
        self.digests: dict[str, str] = {}

    def scan_result(self) -> list[tuple[int, int]]:
        if self.chunks is None:
            self.scan()
        return self.chunks

    def scan(self, kinds=("sha256",), extra_hashers=()) -> dict[str, str]:
        """First pass: per-chunk row and line counts, the largest index, the checksums."""
        sums = Checksums(kinds, uncompressed_size(self.path))
        chunks, max_index, line0 = [], 0, 0
        counts = np.zeros(6, dtype=np.int64)
        for buf in iter_line_chunks(self.path, self.chunk_bytes):
            sums.update(buf)
            for h in extra_hashers:
                h.update(buf)
            status = _kernel.scan(np.frombuffer(buf, dtype=np.uint8), True, counts)
            if status:
                raise _error(status, counts[4:6], buf, self.source, line0=line0)
            chunks.append((int(counts[0]), int(counts[4])))
            max_index = max(max_index, int(counts[2]))
            line0 += int(counts[4])
        self.chunks, self.max_index = chunks, max_index
        self.digests = sums.digests()
        return self.digests

    def read(self, n_features: int | None = None) -> QueryData:
        """Second pass: the file's :class:`QueryData` (dense X), equal to :func:`parse_letor`
        of its bytes."""
        chunks = self.scan_result()
        rows = sum(r for r, _ in chunks)
        nf = self.max_index if n_features is None else int(n_features)
        X = np.zeros((rows, nf), dtype=np.float64)
        labels = np.zeros(rows, dtype=np.float64)
        label_span = np.zeros((rows, 2), dtype=np.int64)
        qid = np.zeros(rows, dtype=np.int64)
        docid_span = np.zeros((rows, 2), dtype=np.int64)
        line_no = np.zeros(rows, dtype=np.int64)
        seen = np.full(nf, -1, dtype=np.int64)
        err = np.zeros(2, dtype=np.int64)
        dummy_i64, dummy_i32, dummy_f = (np.zeros(1, np.int64), np.zeros(0, np.int32),
                                         np.zeros(0, np.float64))
        docids, any_docid = [], False
        row0 = line0 = k = 0
        for buf in iter_line_chunks(self.path, self.chunk_bytes):
            if k >= len(chunks):
                raise DataError(f"{self.source}: the file changed while it was read")
            n_rows, n_lines = chunks[k]
            arr = np.frombuffer(buf, dtype=np.uint8)
            status = _kernel.fill(arr, True, True, True, X, dummy_i64, dummy_i32, dummy_f,
                                  labels, label_span, qid, docid_span, line_no, seen, err,
                                  row0, line0, 0)
            if status:
                extra = f" ({nf})" if status == 8 else ""
                raise _error(status, err, buf, self.source, extra)   # err[0]: file line
            if int(err[0]) - line0 != n_lines:
                raise DataError(f"{self.source}: the file changed while it was read")
            spans = docid_span[row0:row0 + n_rows]
            has = bool(n_rows) and bool(np.any(spans[:, 0] >= 0))
            any_docid |= has
            docids.append(_docids(buf, spans) if has else np.full(n_rows, "", dtype=object))
            row0 += n_rows
            line0 += n_lines
            k += 1
        if k != len(chunks):
            raise DataError(f"{self.source}: the file changed while it was read")
        del label_span, docid_span
        query_ptr, qids = _group_queries(qid, line_no, self.source)
        return QueryData(X=X, y=labels, query_ptr=query_ptr, qids=qids,
                         docids=np.concatenate(docids) if any_docid else None,
                         source=self.source, line_no=line_no)


def format_letor(data: QueryData, decimals: int = 6) -> bytes:
    """Write :class:`QueryData` in the LETOR line format (dense: every feature written)."""
    X = data.X.toarray() if hasattr(data.X, "toarray") else data.X
    qid = data.qid_per_doc
    ids = [f"{j + 1}:" for j in range(X.shape[1])]
    lines = []
    for i in range(X.shape[0]):
        feats = " ".join(k + f"{v:.{decimals}f}" for k, v in zip(ids, X[i]))
        doc = f" #docid = {data.docids[i]}" if data.docids is not None else ""
        lines.append(f"{data.y[i]:g} qid:{qid[i]} {feats}{doc}\n")
    return "".join(lines).encode("ascii")
