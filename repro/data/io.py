"""Reading raw bytes (plain, ``.xz``, ``.gz``) and checksumming them.

Checksums are always of the *uncompressed* bytes, so a file verifies the same whether it is
stored plain or compressed.  Two kinds are recorded in the catalog: ``sha256:<hex>`` and
``gitblob:<hex>`` (git's blob id, ``sha1(b"blob <size>\\0" + data)``, which is what public
repository trees record for files such as the MQ2007 folds).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import lzma
import stat
import zlib
from pathlib import Path

from ..files import atomic_write_json, cache_root, keyed_hash
from ..errors import DataCorrupt, DataError, DataMissing

#: Largest feature index (the LETOR reader's bound, here where the command line reads it
#: without importing the reader) a user's file may have unless its set declares ``n_features`` or
#: ``$REPRO_MAX_FEATURES`` (``--max-features``) says otherwise: a token such as
#: ``1000000:1.0`` would otherwise make every row a million columns wide.
DEFAULT_MAX_FEATURES = 100_000
MAX_FEATURES_ENV = "REPRO_MAX_FEATURES"

COMPRESSED_SUFFIXES = (".xz", ".gz")
#: What reading a damaged plain or compressed file raises (a corrupt .gz stream raises
#: zlib.error, a truncated one EOFError): mapped to DataCorrupt naming the file.
READ_ERRORS = (lzma.LZMAError, zlib.error, EOFError, OSError)


def printable(text: str, limit: int | None = None, newlines: bool = False) -> str:
    """``text`` safe to print on a terminal: control and other non-printable characters
    written as escapes (``\\x1b``, ``\\t``; newlines kept with ``newlines``), shortened to
    ``limit`` characters ("…" at the end)."""
    out = "".join(c if c.isprintable() or (newlines and c == "\n")
                  else c.encode("unicode_escape").decode("ascii") for c in str(text))
    if limit is not None and len(out) > limit:
        out = out[:max(limit - 1, 0)] + "…"
    return out


def not_a_regular_file(path: Path) -> str | None:
    """What ``path`` is, if it exists but is not a regular file (None otherwise)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    kind = ("a directory" if stat.S_ISDIR(mode) else "a character device" if stat.S_ISCHR(mode)
            else "a block device" if stat.S_ISBLK(mode) else "a named pipe" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    return f"{path}: is {kind}, not a regular file"


def read_bytes(path: str | Path) -> bytes:
    """Return the uncompressed content of ``path`` (``.xz`` and ``.gz`` are decompressed)."""
    path = Path(path)
    odd = not_a_regular_file(path)
    if odd:
        raise DataError(odd)
    if not path.is_file():
        raise DataMissing(f"{path}: no such file")
    try:
        if path.suffix == ".xz":
            with lzma.open(path, "rb") as fh:
                return fh.read()
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as fh:
                return fh.read()
        return path.read_bytes()
    except READ_ERRORS as exc:
        if isinstance(exc, FileNotFoundError):
            raise DataMissing(f"{path}: no such file") from exc
        raise DataCorrupt(f"{path}: cannot be decompressed ({exc})") from exc


def open_binary(path: str | Path):
    """A binary file object over the uncompressed content of ``path`` (plain, .xz, .gz)."""
    path = Path(path)
    if not path.is_file():
        raise DataMissing(f"{path}: no such file")
    if path.suffix == ".xz":
        return lzma.open(path, "rb")
    if path.suffix == ".gz":
        return gzip.open(path, "rb")
    return open(path, "rb")


def iter_line_chunks(path: str | Path, chunk_bytes: int):
    """The uncompressed content of ``path`` as consecutive chunks of about ``chunk_bytes``
    bytes, each cut just after a newline (only the last may end without one; a line longer
    than ``chunk_bytes`` makes its chunk longer).  Joined, they are the file's bytes."""
    path = Path(path)
    chunk_bytes = max(int(chunk_bytes), 1)
    try:
        with open_binary(path) as fh:
            carry = b""
            while True:
                block = fh.read(chunk_bytes)
                if not block:
                    if carry:
                        yield carry
                    return
                cut = block.rfind(b"\n")
                if cut < 0:
                    carry += block
                    continue
                chunk = carry + block[:cut + 1] if carry else block[:cut + 1]
                carry = block[cut + 1:]
                yield chunk
    except READ_ERRORS as exc:
        if isinstance(exc, (FileNotFoundError, DataMissing)):
            raise DataMissing(f"{path}: no such file") from exc
        raise DataCorrupt(f"{path}: cannot be decompressed ({exc})") from exc


def uncompressed_size(path: str | Path) -> int | None:
    """Size of the uncompressed content when known without reading it (plain files)."""
    path = Path(path)
    return path.stat().st_size if path.suffix not in COMPRESSED_SUFFIXES else None


class Checksums:
    """Streaming checksums of content fed in pieces (:meth:`update`); ``gitblob`` needs the
    total size up front (``size``), so it is computed only when the size is known."""

    def __init__(self, kinds=("sha256",), size: int | None = None):
        self._h = {}
        for kind in kinds:
            if kind == "sha256":
                self._h[kind] = hashlib.sha256()
            elif kind == "gitblob":
                if size is not None:
                    self._h[kind] = hashlib.sha1(b"blob %d\0" % size)
            else:
                raise ValueError(f"unknown checksum kind {kind!r} (expected 'sha256' or 'gitblob')")

    def update(self, data) -> None:
        for h in self._h.values():
            h.update(data)

    def digests(self) -> dict[str, str]:
        return {k: f"{k}:{h.hexdigest()}" for k, h in self._h.items()}


def file_identity(path: str | Path) -> tuple | None:
    """What changes whenever a file's content may have changed: its resolved path, device,
    inode, size, modification time and status-change time (None if it cannot be read).  The
    status-change time is set by the kernel on every write and cannot be set back from user
    space, so an edit that restores the modification time (``os.utime``) still changes the
    identity -- the rule git's index uses."""
    path = Path(path)
    try:
        st = path.stat()
        resolved = path.resolve()
    except (OSError, RuntimeError):
        return None
    return (str(resolved), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _memo_path(path: Path, kinds) -> tuple[Path, str] | None:
    ident = file_identity(path)
    if ident is None:
        return None
    text = "|".join(map(str, ident)) + "|" + ",".join(kinds)
    name = hashlib.sha256(text.encode()).hexdigest()
    return cache_root() / "digests" / (name + ".json"), name


def file_checksums(path: str | Path, kinds=("sha256",), chunk_bytes: int = 1 << 24,
                   memo: bool = False) -> dict[str, str]:
    """Checksums (``kind -> "kind:<hex>"``) of the uncompressed content of ``path``, read in
    chunks (memory independent of the file's size).

    ``memo``: reuse the digests computed by an earlier process for the same file — same
    :func:`file_identity` (path, device, inode, size, modification and status-change times) —
    from the cache directory, when the memo verifies under the user's key (a memo edited or
    brought from elsewhere is ignored); for cache keys and the ``list`` command (``repro data``
    and loading always read and hash the file again)."""
    path = Path(path)
    memo_at = _memo_path(path, kinds) if memo else None
    if memo_at is not None:
        memo_file, ident = memo_at
        try:
            held = json.loads(memo_file.read_text())
            if held["mac"] == keyed_hash({"file": ident, "digests": held["digests"]}):
                return dict(held["digests"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
    out = _file_checksums(path, kinds, chunk_bytes)
    if memo_at is not None:
        memo_file, ident = memo_at
        try:
            atomic_write_json(memo_file, {"digests": out,
                                          "mac": keyed_hash({"file": ident, "digests": out})})
        except OSError:            # a memo only: an unwritable cache costs a re-hash next time
            pass
    return out


def _file_checksums(path: Path, kinds, chunk_bytes: int) -> dict[str, str]:
    size = uncompressed_size(path)
    if "gitblob" in kinds and size is None:        # compressed: one pass for the size
        size = sum(len(c) for c in iter_line_chunks(path, chunk_bytes))
    sums = Checksums(kinds, size)
    for chunk in iter_line_chunks(path, chunk_bytes):
        sums.update(chunk)
    return sums.digests()


def find_file(folder: Path, name: str) -> Path | None:
    """``folder/name`` itself or a compressed variant (``name.xz``, ``name.gz``), if present."""
    for suffix in ("",) + COMPRESSED_SUFFIXES:
        candidate = folder / (name + suffix)
        if candidate.is_file():
            return candidate
    return None


def checksum(data: bytes, kind: str) -> str:
    """Checksum of ``data`` as ``kind:<hex>`` (``kind`` is ``sha256`` or ``gitblob``)."""
    if kind == "sha256":
        return "sha256:" + hashlib.sha256(data).hexdigest()
    if kind == "gitblob":
        h = hashlib.sha1(b"blob %d\0" % len(data))
        h.update(data)
        return "gitblob:" + h.hexdigest()
    raise ValueError(f"unknown checksum kind {kind!r} (expected 'sha256' or 'gitblob')")


def matches_digests(digests: dict[str, str], expected) -> str | None:
    """The first of the ``expected`` checksums among ``digests`` (from :class:`Checksums`)."""
    have = set(digests.values())
    return next((e for e in expected if e in have), None)


def matches(data: bytes, expected: list[str] | tuple[str, ...]) -> str | None:
    """The first of the ``expected`` checksums that ``data`` has, or None."""
    cache: dict[str, str] = {}
    for exp in expected:
        kind = exp.split(":", 1)[0]
        if kind not in cache:
            cache[kind] = checksum(data, kind)
        if cache[kind] == exp:
            return exp
    return None
