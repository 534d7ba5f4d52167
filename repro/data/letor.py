"""LETOR 3.0 / 4.0 reader (wrapper of the ``repro._kernels.letor`` tokenizer).

Line format: ``label qid:Q i:v … #docid = D …`` (plain, ``.xz`` or ``.gz``; LF or CRLF).
Feature ``i`` (1-based) goes to column ``i - 1``; features absent from a line are 0.  The
documents of a query must be contiguous (they are in every LETOR, MSLR and Yahoo file); a qid
that reappears after another query is an error naming both lines, because silently merging
would reorder documents and change tie-breaking in the metrics.

The wrapper does every check and allocation; the kernel only loops over bytes.  Whatever the
path, the error reported for a malformed file is the first one in it (file order).

Large files are parsed as a stream (:class:`LetorStream`, used by :func:`read_letor` and the
loaders above :data:`STREAM_BYTES`) in **one pass** when the width is known.  The file comes
in line-aligned pieces — memory maps of a plain file (:func:`mapped_windows`: the page
cache's copy, nothing read into a buffer), rotating buffers filled in the background for a
compressed one (:func:`line_chunks`) — and each piece is cut at line ends into
:data:`RANGES_PER_THREAD` byte ranges per thread.  A newline count gives every range its first
row; the ranges then go to a thread pool (``threading``: the kernel releases the GIL), which
tokenizes them straight into the rows of the feature matrix while the next piece is counted
and queued.  The matrix grows in place when needed (``realloc``: a large block's pages are
remapped, not copied; for a plain file its size is estimated from the first piece, and pages
never written are never resident) and is trimmed to the rows read at the end.  Peak memory is
the matrix, two pieces and 56 bytes a row.  Queries are grouped on the whole file afterwards,
so a query cut by a piece or range boundary is one query, and a qid that reappears is refused
exactly as in the in-memory parse.  The result, the numbers and every error message (file,
line, token; the first error of the file) are those of the in-memory parse, for any piece
size and thread count.  The threads default to the CPUs available (:func:`default_threads`);
the numbers do not depend on them.
"""
from __future__ import annotations

import mmap
import os
import queue
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from .._kernels import letor as _kernel
from .labels import check_labels
from ..errors import DataCorrupt, DataError, DataMissing
from .io import DEFAULT_MAX_FEATURES, MAX_FEATURES_ENV, COMPRESSED_SUFFIXES, READ_ERRORS, Checksums, iter_line_chunks, open_binary, \
    printable, read_bytes, uncompressed_size
from .queries import QueryData

#: Files larger than this (on disk) are parsed as a stream by :func:`read_letor` and the loaders.
STREAM_BYTES = 256 << 20
#: Size of the pieces (chunks, windows) a stream is read in.
CHUNK_BYTES = 32 << 20
#: A piece is split between threads only into ranges at least this long.
MIN_RANGE_BYTES = 1 << 20
#: Most threads a stream uses by default (see :func:`default_threads`).
MAX_THREADS = 8
#: Ranges a piece of the file is cut into per thread (the pool balances them).
RANGES_PER_THREAD = 4
#: Map plain files instead of reading them (:func:`mapped_windows`).
USE_MMAP = True
#: A UTF-8 byte order mark (some editors write one): read as blank.
BOM = b"\xef\xbb\xbf"


def max_features() -> int:
    """The feature-index limit for files without a declared width: ``$REPRO_MAX_FEATURES``,
    else :data:`DEFAULT_MAX_FEATURES`."""
    text = os.environ.get(MAX_FEATURES_ENV, "").strip()
    if not text:
        return DEFAULT_MAX_FEATURES
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise DataError(f"{MAX_FEATURES_ENV}={printable(text, 40)} (--max-features): expected a "
                        f"whole number of at least 1")
    return value


def available_memory() -> int | None:
    """Bytes of memory this machine can give without swapping (``MemAvailable``), or None if
    unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _gib(n: float) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"


def check_dense(rows: int, n_features: int, source: str) -> None:
    """Refuse, before allocating it, a dense ``rows`` × ``n_features`` matrix larger than the
    memory available."""
    need = rows * n_features * 8
    avail = available_memory()
    if avail is not None and need > avail:
        raise DataError(f"{source}: {rows} rows × {n_features} features need {_gib(need)} as a "
                        f"dense matrix, more than the {_gib(avail)} of memory available; use "
                        f"fewer rows or features")

_MESSAGES = {
    1: "label is not a number",
    2: "malformed qid (expected qid:<non-negative integer>, once per line)",
    3: "line has no qid:",
    4: "malformed feature index (expected <integer ≥ 1>:<value>)",
    5: "feature value is not a finite decimal number",
    6: "feature index repeated on one line",
    7: "token is not of the form <index>:<value>",
    8: "feature index larger than the number of features",
    10: "internal error: more rows than counted",
    11: "feature index above the limit",
}


def default_threads() -> int:
    """Threads a stream parses with by default: the CPUs this process may run on (at most
    :data:`MAX_THREADS`).  The numbers do not depend on it."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):       # pragma: no cover (not Linux)
        n = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, n))


def _error(status: int, err, buf, source: str, extra: str = "",
           line0: int = 0, what: str | None = None) -> DataError:
    line, offset = int(err[0]) + line0, int(err[1])
    start = buf.rfind(b"\n", 0, max(offset, 0)) + 1
    stop = buf.find(b"\n", offset)
    stop = len(buf) if stop < 0 else stop
    # the line as escapes and shortened: a user's file can hold terminal control sequences
    text = printable(bytes(buf[start:min(stop, start + 4096)]).rstrip(b"\r")
                     .decode("utf-8", "replace"), 160)
    tok_end = offset
    while tok_end < stop and buf[tok_end:tok_end + 1] not in (b" ", b"\t", b"\r"):
        tok_end += 1
    token = bytes(buf[offset:tok_end]).decode("utf-8", "replace")[:40]     # shown by repr()
    what = what or _MESSAGES.get(status, f"parse error {status}")
    return DataError(f"{source}, line {line}: {what}{extra} (at {token!r}): {text}")


def _fill_error(status: int, err, buf, source: str, n_features: int) -> DataError:
    return _error(status, err, buf, source, f" ({n_features})" if status == 8 else "")


def tokenize(buf: bytes, source: str = "<bytes>", *, n_features: int | None = None,
             numeric_label: bool = True, require_qid: bool = True, dense: bool = True,
             limit: int | None = None):
    """Run the kernel over ``buf``; return a dict of raw arrays (rows in file order).

    Keys: ``X`` (dense) or ``indptr/indices/data`` (CSR), ``labels``, ``label_span``,
    ``qid``, ``docid_span``, ``line_no``, ``n_features``.  Without ``n_features`` the width
    is the largest index, which must not exceed ``limit`` (the first line beyond it is
    named).  A dense matrix larger than the memory available is refused before it is
    allocated.  A leading UTF-8 byte order mark reads as blank.
    """
    if bytes(buf[:3]) == BOM:
        buf = b"   " + bytes(buf[3:])
    arr = np.frombuffer(buf, dtype=np.uint8)
    counts = np.zeros(6, dtype=np.int64)
    if dense and n_features is not None:          # only the rows are needed: newlines
        _kernel.count_rows(arr, 0, -1, counts)
        rows, nnz = int(counts[0]), 0
    else:
        _kernel.scan(arr, require_qid, counts)
        rows, nnz, max_index = (int(c) for c in counts[:3])
        if n_features is None:
            if limit is not None and max_index > limit:
                _beyond_limit(arr, buf, source, rows, nnz, limit, numeric_label, require_qid)
            n_features = max_index
    # (an index beyond a given n_features is reported by fill, with its line)
    if dense:
        check_dense(rows, n_features, source)
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
    err = np.zeros(3, dtype=np.int64)
    status = _kernel.fill(arr, numeric_label, require_qid, dense, X, indptr, indices, data,
                          out["labels"], out["label_span"], out["qid"], out["docid_span"],
                          out["line_no"], seen, err)
    if status:
        raise _fill_error(status, err, buf, source, n_features)
    if dense:
        out["X"] = X
    else:
        k = int(err[2])                          # scan's count is an upper bound
        out.update(indptr=indptr, indices=indices[:k].copy() if k < nnz else indices,
                   data=data[:k].copy() if k < nnz else data)
    return out


def _beyond_limit(arr, buf, source: str, rows: int, nnz: int, limit: int, numeric_label: bool,
                  require_qid: bool):
    """Raise the error of the first line with a feature index above ``limit`` (or of an
    earlier malformed line): a sparse pass with ``limit`` columns, no dense matrix."""
    err = np.zeros(3, dtype=np.int64)
    status = _kernel.fill(arr, numeric_label, require_qid, False, np.zeros((0, 0)),
                          np.zeros(rows + 1, np.int64), np.zeros(nnz, np.int32),
                          np.zeros(nnz, np.float64), np.zeros(rows), np.zeros((rows, 2), np.int64),
                          np.zeros(rows, np.int64), np.zeros((rows, 2), np.int64),
                          np.zeros(rows, np.int64), np.full(limit, -1, np.int64), err)
    if status == 8:
        raise _error(11, err, buf, source, what=limit_message(limit))
    raise _fill_error(status or 8, err, buf, source, limit)


def limit_message(limit: int) -> str:
    """What a line with a feature index above ``limit`` in a file without a declared width is
    told — by the parser and by the check before a run (:func:`repro.data.user.
    check_feature_limit`)."""
    return (f"{_MESSAGES[11]} of {limit} for a file without a declared width (declare "
            f"n_features for the set, or raise the limit with --max-features or "
            f"{MAX_FEATURES_ENV})")


def group_queries(qid_rows: np.ndarray, line_no: np.ndarray, source: str):
    """Offsets of runs of equal qid and their qids; refuse a qid that reappears after another
    query (naming both lines)."""
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


def _features_on(line: bytes) -> int:
    """Feature entries (``index:value``, not ``qid:``) on one LETOR line, comment aside."""
    return sum(1 for tok in line.split(b"#", 1)[0].split()
               if b":" in tok and not tok.startswith(b"qid:"))


def check_rows(labels: np.ndarray, line_no: np.ndarray, source: str, tail: bytes | None) -> None:
    """The loader's share of the suite's input contract: labels are non-negative integers
    (:mod:`repro.data.labels`, the refusal naming the line), and a last line cut short — no
    newline at the end of the file and fewer features than the lines before it, in a dense
    file whose lines all list the same number of features (LETOR's layout) — is refused
    rather than read with its missing features as 0.  (A sparse svmlight file's lines differ
    in length: there a cut line cannot be told from a short one.)  ``tail``: the file's last bytes (None
    when they cannot be had cheaply: the truncation check is skipped)."""
    check_labels(labels, source, line_no)
    if not tail or tail.endswith(b"\n") or line_no.shape[0] < 2:
        return
    lines = [ln for ln in tail.split(b"\n")]
    last = lines[-1].rstrip(b"\r")
    before = [ln for ln in lines[:-1] if ln.strip() and not ln.lstrip().startswith(b"#")]
    if not last.strip() or last.lstrip().startswith(b"#") or not before:
        return
    counts = {_features_on(ln) for ln in before[-50:]}
    have = _features_on(last)
    if len(counts) == 1 and have < (want := counts.pop()):   # a dense file: every line full
        raise DataError(f"{source}, line {int(line_no[-1])}: the last line is truncated "
                        f"({have} of {want} features, and no newline at the end of the file)")


def _docids(buf, spans: np.ndarray) -> np.ndarray | None:
    if spans.shape[0] == 0 or np.all(spans[:, 0] < 0):
        return None
    return np.array([bytes(buf[s:e]).decode("utf-8", "replace") if s >= 0 else ""
                     for s, e in spans.tolist()], dtype=object)


def parse_letor(buf: bytes, source: str = "<bytes>", n_features: int | None = None,
                limit: int | None = None) -> QueryData:
    """Parse LETOR-format bytes into :class:`QueryData` (dense X); without ``n_features``,
    refuse an index above ``limit`` (see :func:`tokenize`)."""
    raw = tokenize(buf, source, n_features=n_features, limit=limit)
    check_rows(raw["labels"], raw["line_no"], source, bytes(buf[-65536:]))
    query_ptr, qids = group_queries(raw["qid"], raw["line_no"], source)
    return QueryData(X=raw["X"], y=raw["labels"], query_ptr=query_ptr, qids=qids,
                     docids=_docids(buf, raw["docid_span"]), source=source,
                     line_no=raw["line_no"])


def read_letor(path: str | Path, n_features: int | None = None, *,
               stream: bool | None = None, threads: int | None = None) -> QueryData:
    """Read a LETOR file (plain, ``.xz`` or ``.gz``) into :class:`QueryData`.

    ``stream``: parse chunk by chunk (:class:`LetorStream`, with ``threads``); by default when
    the file is larger than :data:`STREAM_BYTES` on disk.  The result is the same either way."""
    path = Path(path)
    if stream is None:
        stream = path.is_file() and path.stat().st_size > STREAM_BYTES
    if stream:
        return LetorStream(path, threads=threads).read(n_features)
    return parse_letor(read_bytes(path), str(path), n_features)


def _read_full(fh, buf: bytearray, offset: int) -> int:
    """Fill ``buf[offset:]`` from ``fh`` (several reads if needed); the bytes read (fewer
    only at the end of the file)."""
    view = memoryview(buf)
    got, n = 0, len(buf) - offset
    try:
        while got < n:
            k = fh.readinto(view[offset + got:])
            if not k:
                break
            got += k
    finally:
        view.release()
    return got


def line_chunks(fh, chunk_bytes: int, prefetch: ThreadPoolExecutor | None = None,
                buffers: int = 2):
    """``(buffer, length)`` pairs: the content of binary file ``fh`` as consecutive chunks of
    about ``chunk_bytes`` bytes, each ``buffer[:length]`` cut just after a newline (only the
    last may end without one; a longer line makes its buffer longer).  ``buffers`` buffers
    rotate: a chunk's buffer is refilled only after the consumer has asked for the
    ``buffers - 1`` chunks after it; with ``prefetch`` (one worker) the next chunk is read while
    the consumer works on this one (so a consumer still using the previous chunk needs 3)."""
    size = max(int(chunk_bytes), 1)
    bufs = [bytearray(size) for _ in range(max(2, int(buffers)))]
    cur = 0
    n = _read_full(fh, bufs[0], 0)
    while True:
        buf = bufs[cur]
        eof = n < len(buf)
        if eof:
            cut = n
        else:
            cut = buf.rfind(b"\n", 0, n) + 1
            if cut == 0:                           # one line longer than the buffer: grow it
                bigger = bytearray(2 * len(buf))
                bigger[:n] = buf
                bufs[cur] = bigger
                n += _read_full(fh, bigger, n)
                continue
        carry = n - cut
        k = (cur + 1) % len(bufs)
        nxt = bufs[k]
        if len(nxt) < carry + size:
            nxt = bufs[k] = bytearray(carry + size)
        nxt[:carry] = buf[cut:n]
        pending = None
        if not eof and prefetch is not None:
            pending = prefetch.submit(_read_full, fh, nxt, carry)
        if cut:
            yield buf, cut
        if eof:
            return
        n = carry + (pending.result() if pending is not None else _read_full(fh, nxt, carry))
        cur = k


def mapped_windows(fh, window_bytes: int):
    """``(mmap, start, stop)`` triples: the plain file ``fh`` as read-only memory maps, each
    ``mmap[start:stop]`` cut just after a newline (the last may end without one) and following
    the previous one; a window is about ``window_bytes`` long (longer for a longer line).
    Mapping shares the page cache's copy of the file (no read into a buffer); the consumer
    closes each map when done with it, so that only the windows in use are resident."""
    fd = fh.fileno()
    size = os.fstat(fd).st_size
    gran = mmap.ALLOCATIONGRANULARITY
    window = max(int(window_bytes), 1)
    pos = 0
    while pos < size:
        off = pos - pos % gran
        start = pos - off
        length = min(start + window, size - off)
        while True:
            m = mmap.mmap(fd, length, access=mmap.ACCESS_READ, offset=off)
            if off + length >= size:
                stop = length
                break
            stop = m.rfind(b"\n", start, length) + 1
            if stop > 0:
                break
            m.close()                                 # no line end: a longer window
            length = min(start + 2 * (length - start), size - off)
        if hasattr(mmap, "MADV_SEQUENTIAL"):
            m.madvise(mmap.MADV_SEQUENTIAL)
        yield m, start, stop
        pos = off + stop


def split_lines(buf, start: int, stop: int, parts: int,
                min_bytes: int | None = None) -> list[tuple[int, int]]:
    """``buf[start:stop]`` as up to ``parts`` consecutive ranges of about equal length, each
    cut just after a newline (ranges shorter than ``min_bytes`` are not split off)."""
    min_bytes = MIN_RANGE_BYTES if min_bytes is None else min_bytes
    parts = max(1, min(int(parts), (stop - start) // max(min_bytes, 1)))
    bounds = [start]
    for k in range(1, parts):
        target = start + (stop - start) * k // parts
        if target <= bounds[-1]:
            continue
        nl = buf.find(b"\n", target, stop)
        if nl < 0 or nl + 1 >= stop:
            break
        bounds.append(nl + 1)
    bounds.append(stop)
    return [(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


class _Rows:
    """The per-row outputs of a stream, grown in place (``ndarray.resize``: ``realloc``, which
    remaps the pages of a large block instead of copying them) and trimmed at the end."""

    NAMES = ("X", "labels", "label_span", "qid", "docid_span", "line_no")

    def __init__(self, capacity: int, n_features: int):
        self.nf = n_features
        self.capacity = max(int(capacity), 1)
        c = self.capacity
        self.X = np.zeros((c, n_features), dtype=np.float64)
        self.labels = np.zeros(c, dtype=np.float64)
        self.label_span = np.zeros((c, 2), dtype=np.int64)
        self.qid = np.zeros(c, dtype=np.int64)
        self.docid_span = np.zeros((c, 2), dtype=np.int64)
        self.line_no = np.zeros(c, dtype=np.int64)

    def _resize(self, c: int) -> None:
        for name in self.NAMES:
            a = getattr(self, name)
            a.resize((c,) + a.shape[1:], refcheck=False)   # new rows are zero-filled
        self.capacity = c

    def ensure(self, rows: int) -> None:
        if rows > self.capacity:
            self._resize(max(rows, int(self.capacity * 1.25) + 1024))

    def trim(self, rows: int) -> None:
        if rows != self.capacity:
            self._resize(max(rows, 0))


class LetorStream:
    """Parse of a LETOR file without holding its text in memory.

    :meth:`read` parses the file in one pass (pieces of about ``chunk_bytes``, ``threads``
    threads over line-aligned ranges of each; see the module docstring) when the width
    ``n_features`` is given; without it the width is the file's largest feature index, which
    takes a pass of its own first (:meth:`widest`).
    :meth:`scan` (optional; the loaders use it to verify the content before parsing) reads the
    file once in line-aligned chunks of ``chunk_bytes``: it counts rows and lines of each chunk
    (newlines only) and computes the content's checksums (``kinds``, plus any
    ``extra_hashers`` fed the same bytes, e.g. for a concatenation of several files).  After a
    scan, :meth:`read` allocates exactly and refuses a file that changed in between.
    """

    def __init__(self, path: str | Path, chunk_bytes: int | None = None,
                 source: str | None = None, threads: int | None = None):
        self.path = Path(path)
        self.chunk_bytes = int(CHUNK_BYTES if chunk_bytes is None else chunk_bytes)
        self.source = str(self.path) if source is None else source
        self.threads = default_threads() if threads is None else max(1, int(threads))
        self.chunks: list[tuple[int, int]] | None = None     # (rows, lines) per chunk
        self.max_index: int | None = None
        self.digests: dict[str, str] = {}

    def scan_result(self) -> list[tuple[int, int]]:
        if self.chunks is None:
            self.scan()
        return self.chunks

    def scan(self, kinds=("sha256",), extra_hashers=()) -> dict[str, str]:
        """Per-chunk row and line counts (newlines only) and the checksums, in one pass."""
        sums = Checksums(kinds, uncompressed_size(self.path))
        chunks = []
        counts = np.zeros(2, dtype=np.int64)
        for buf in iter_line_chunks(self.path, self.chunk_bytes):
            sums.update(buf)
            for h in extra_hashers:
                h.update(buf)
            _kernel.count_rows(np.frombuffer(buf, dtype=np.uint8), 0, -1, counts)
            chunks.append((int(counts[0]), int(counts[1])))
        self.chunks = chunks
        self.digests = sums.digests()
        return self.digests

    def widest(self) -> int:
        """The file's largest well-formed feature index (a pass of the kernel's
        :func:`scan`, computed once; malformed tokens are left to :meth:`read`)."""
        if self.max_index is None:
            counts = np.zeros(6, dtype=np.int64)
            widest = 0
            for buf in iter_line_chunks(self.path, self.chunk_bytes):
                _kernel.scan(np.frombuffer(buf, dtype=np.uint8), True, counts)
                widest = max(widest, int(counts[2]))
            self.max_index = widest
        return self.max_index

    def _estimate_rows(self, rows: int, nbytes: int) -> int:
        """Rows to allocate after a first chunk of ``nbytes`` bytes holding ``rows`` rows:
        the file's size at that density, plus 10 % (pages never written cost nothing)."""
        size = uncompressed_size(self.path)
        if size is None or rows == 0:                # compressed: grow as needed
            return 8 * rows + 1024
        return int(size / nbytes * rows * 1.1) + 1024

    def _windows(self, fh, reader: ThreadPoolExecutor):
        """``(buffer, start, stop, close)``: the file as consecutive line-aligned pieces
        ``buffer[start:stop]``; ``close()`` releases a piece once it is parsed.  A plain file
        is mapped (:func:`mapped_windows`: no copy), anything else read into rotating buffers
        (:func:`line_chunks`, the next piece read in the background)."""
        if USE_MMAP and self.path.suffix not in COMPRESSED_SUFFIXES and self.path.is_file():
            for m, a, b in mapped_windows(fh, self.chunk_bytes):
                yield m, a, b, m.close
        else:
            for buf, n in line_chunks(fh, self.chunk_bytes, reader, buffers=3):
                yield buf, 0, n, None

    def _plain_tail(self, size: int = 65536) -> bytes | None:
        """The last bytes of an uncompressed file (None for compressed ones)."""
        if self.path.suffix in (".xz", ".gz", ".bz2"):
            return None
        try:
            with open(self.path, "rb") as fh:
                fh.seek(max(0, self.path.stat().st_size - size))
                return fh.read()
        except OSError:
            return None

    def read(self, n_features: int | None = None) -> QueryData:
        """The file's :class:`QueryData` (dense X), equal to :func:`parse_letor` of its
        bytes.

        Pipeline: each piece of the file is cut into :data:`RANGES_PER_THREAD` line-aligned
        ranges per thread; their rows and lines are counted (newlines only), which gives each
        range its first row; the ranges go to the thread pool, and the next piece is counted
        and queued while they run (at most two pieces in flight).  Pieces are checked in file
        order, each range's status in order, so the error reported is the file's first."""
        nf = self.widest() if n_features is None else int(n_features)
        scanned = None
        if self.chunks is not None:
            scanned = (sum(r for r, _ in self.chunks), sum(n for _, n in self.chunks))
        T = self.threads
        seen_pool: queue.SimpleQueue = queue.SimpleQueue()
        for _ in range(T):
            seen_pool.put(np.full(nf, -1, dtype=np.int64))
        count = np.zeros(2, dtype=np.int64)
        dummy_i64, dummy_i32, dummy_f = (np.zeros(1, np.int64), np.zeros(0, np.int32),
                                         np.zeros(0, np.float64))
        out: _Rows | None = None
        docids: list = []
        any_docid = False
        row0 = line0 = 0
        pending: deque = deque()        # pieces in flight: [buf, arr, row0, rows, jobs, close]

        def fill(arr, a, b, r0, l0, err):
            seen = seen_pool.get()      # one per thread at a time (row stamps never collide)
            try:
                return _kernel.fill(arr, True, True, True, out.X, dummy_i64, dummy_i32,
                                    dummy_f, out.labels, out.label_span, out.qid,
                                    out.docid_span, out.line_no, seen, err, r0, l0, 0, a, b)
            finally:
                seen_pool.put(seen)

        def finish(piece) -> None:
            nonlocal any_docid
            buf, arr, r0, n_rows, jobs, close = piece
            for job, err in jobs:                 # in file order: the first error wins
                status = job.result() if hasattr(job, "result") else job
                if status:
                    raise _fill_error(status, err, buf, self.source, nf)
            spans = out.docid_span[r0:r0 + n_rows]
            has = bool(n_rows) and bool(np.any(spans[:, 0] >= 0))
            any_docid |= has
            docids.append(_docids(buf, spans) if has else n_rows)
            piece[1] = None                       # release the buffer before closing it
            del arr
            if close is not None:
                close()

        try:
            with open_binary(self.path) as fh, ThreadPoolExecutor(1) as reader, \
                    ThreadPoolExecutor(T) as pool:
                try:
                    for buf, start, stop, close in self._windows(fh, reader):
                        arr = np.frombuffer(buf, dtype=np.uint8)
                        ranges = split_lines(buf, start, stop, T * RANGES_PER_THREAD)
                        firsts = []
                        r, l_ = row0, line0
                        for a, b in ranges:
                            firsts.append((r, l_))
                            _kernel.count_rows(arr, a, b, count)
                            r, l_ = r + int(count[0]), l_ + int(count[1])
                        n_rows = r - row0
                        if out is None:
                            out = _Rows(scanned[0] if scanned else
                                        self._estimate_rows(n_rows, stop - start), nf)
                        if row0 + n_rows > out.capacity:  # grow: nothing may be writing
                            while pending:
                                finish(pending.popleft())
                            out.ensure(row0 + n_rows)
                        jobs = []
                        for (a, b), (r0, l0) in zip(ranges, firsts):
                            err = np.zeros(3, dtype=np.int64)
                            jobs.append((fill(arr, a, b, r0, l0, err) if T == 1 else
                                         pool.submit(fill, arr, a, b, r0, l0, err), err))
                        pending.append([buf, arr, row0, n_rows, jobs, close])
                        del arr
                        row0, line0 = r, l_
                        while len(pending) > 1:
                            finish(pending.popleft())
                    while pending:
                        finish(pending.popleft())
                finally:
                    for piece in pending:                # after an error: wait, then release
                        for job, _ in piece[4]:
                            if hasattr(job, "result"):
                                job.exception()
                        piece[1] = None
                        if piece[5] is not None:
                            try:
                                piece[5]()
                            except BufferError:          # pragma: no cover
                                pass
                    pending.clear()
        except READ_ERRORS as exc:
            if isinstance(exc, FileNotFoundError):
                raise DataMissing(f"{self.path}: no such file") from exc
            raise DataCorrupt(f"{self.path}: cannot be decompressed ({exc})") from exc
        if scanned is not None and scanned != (row0, line0):
            raise DataError(f"{self.source}: the file changed while it was read")
        if out is None:
            out = _Rows(1, nf)
        out.trim(row0)
        X, labels, qid, line_no = out.X, out.labels, out.qid, out.line_no
        del out
        check_rows(labels, line_no, self.source, self._plain_tail())
        query_ptr, qids = group_queries(qid, line_no, self.source)
        if any_docid:
            ids = np.concatenate([d if isinstance(d, np.ndarray) else
                                  np.full(d, "", dtype=object) for d in docids])
        else:
            ids = None
        return QueryData(X=X, y=labels, query_ptr=query_ptr, qids=qids, docids=ids,
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
