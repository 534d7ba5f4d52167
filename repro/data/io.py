"""Reading raw bytes (plain, ``.xz``, ``.gz``) and checksumming them.

Checksums are always of the *uncompressed* bytes, so a file verifies the same whether it is
stored plain or compressed.  Two kinds are recorded in the catalog: ``sha256:<hex>`` and
``gitblob:<hex>`` (git's blob id, ``sha1(b"blob <size>\\0" + data)``, which is what public
repository trees record for files such as the MQ2007 folds).
"""
from __future__ import annotations

import gzip
import hashlib
import lzma
from pathlib import Path

from ..errors import DataCorrupt, DataError, DataMissing

COMPRESSED_SUFFIXES = (".xz", ".gz")


def read_bytes(path: str | Path) -> bytes:
    """Return the uncompressed content of ``path`` (``.xz`` and ``.gz`` are decompressed)."""
    path = Path(path)
    if path.is_dir():
        raise DataError(f"{path}: is a directory, not a file")
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
    except (lzma.LZMAError, OSError, EOFError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise DataMissing(f"{path}: no such file") from exc
        raise DataCorrupt(f"{path}: cannot be decompressed ({exc})") from exc


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
