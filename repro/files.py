"""On-disk caches and report files: where the caches live, how files are written, and the
JSON form of results.

Root: ``$REPRO_CACHE_DIR``, else ``./.repro-cache``.  It holds:

* ``runs/``  results of experiment runs, keyed by a hash of the run's spec, the data
  checksums and the code version (see :mod:`repro.run.cache`);
* ``digests/``  checksums of data files by path, device, inode, size, modification and
  status-change times, for cache keys and ``repro list`` (:func:`repro.data.io.file_checksums`; loading always hashes the files again).

Entries of both are signed with a key of the user's (:func:`keyed_hash`, key in
``$XDG_CONFIG_HOME/repro-rank/``), so an entry edited, forged or brought from elsewhere does not
verify and is recomputed.

Every entry is written to a temporary file in the same directory and moved into place with
``os.replace`` (atomic on POSIX), so an interrupted process never leaves a half-written entry
under a real name; a reader sees the old entry, the new one, or none.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
import sys
import tempfile
from pathlib import Path

from .errors import ReproError


class CacheError(ReproError):
    """The cache directory cannot be written (full disk, read-only, permissions): the command
    stops, saying so; what was cached before stays."""


def os_reason(exc: OSError) -> str:
    """Why a file could not be written, in words (the full disk, a read-only file system …)."""
    return {errno.ENOSPC: "the disk is full", errno.EROFS: "the file system is read-only",
            errno.EACCES: "permission denied", errno.EPERM: "permission denied",
            errno.EDQUOT: "the disk quota is exceeded", errno.ENOTDIR: "not a directory",
            errno.EEXIST: "a file is in the way"}.get(exc.errno, exc.strerror or str(exc))


def cache_root() -> Path:
    env = os.environ.get("REPRO_CACHE_DIR")
    return Path(env) if env else Path(".repro-cache")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_writer(path: Path):
    """A binary file handle whose content appears under ``path`` only when the block ends
    without an exception (temporary file in the same directory, fsync, ``os.replace``).  The
    file gets the mode a plain ``open`` would give it (0666 minus the umask), not
    ``mkstemp``'s 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    with atomic_writer(path) as fh:
        fh.write(data)


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` atomically unless ``path`` already holds exactly these bytes (so that a
    re-render leaves an unchanged file untouched, mtime included); whether it wrote."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    atomic_write_bytes(path, data)
    return True


def atomic_write_json(path: Path, obj) -> None:
    atomic_write_bytes(path, json.dumps(obj, indent=1, sort_keys=True).encode("utf-8"))


def cache_key_file() -> Path:
    """Where the key that signs cache entries lives: ``$XDG_CONFIG_HOME/repro-rank/cache.key``
    (else ``~/.config/repro-rank/cache.key``) — outside any cache directory, so a cache copied,
    shared or edited cannot bring a key that makes its entries verify."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "repro-rank" / "cache.key"


_KEYS: dict[str, bytes] = {}


def cache_secret() -> bytes:
    """The key of :func:`cache_key_file`, created on first use (32 random bytes, mode 0600 in
    a folder of mode 0700); a key file that others may read is made private again."""
    path = cache_key_file()
    if str(path) in _KEYS:
        return _KEYS[str(path)]
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as fh:
                fh.write(os.urandom(32).hex() + "\n")
                fh.flush()
                os.fsync(fh.fileno())
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
        text = path.read_text().strip()
        key = bytes.fromhex(text)
    except OSError as exc:
        raise CacheError(f"cannot read or create the key that signs cache entries ({path}): "
                         f"{os_reason(exc)}; point XDG_CONFIG_HOME at a writable directory of "
                         f"your own; nothing was run") from None
    except ValueError:
        raise CacheError(f"the key that signs cache entries ({path}) is not 64 hex digits: "
                         f"remove it (a new one is made; the cache is then recomputed)") from None
    if len(key) < 16:
        raise CacheError(f"the key that signs cache entries ({path}) is too short: remove it "
                         f"(a new one is made; the cache is then recomputed)")
    _KEYS[str(path)] = key
    return key


def keyed_hash(obj) -> str:
    """HMAC-SHA256, under :func:`cache_secret`, of the canonical JSON form of ``obj``: only a
    process of the user who holds the key can make a digest that verifies."""
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return "hmac-sha256:" + hmac.new(cache_secret(), text.encode("utf-8"),
                                     hashlib.sha256).hexdigest()


def stable_hash(obj) -> str:
    """sha256 of the canonical JSON form of ``obj`` (key order and whitespace fixed)."""
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def jsonable(obj, keep_nan: bool = False):
    """Convert numpy types (recursively) so that results serialise as JSON.  NaN becomes
    None (standard JSON, for report files) unless ``keep_nan`` (cache entries: Python's JSON
    round-trips NaN, and the comparison needs to tell an undefined value from a missing one)."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v, keep_nan) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v, keep_nan) for v in obj]
    np = sys.modules.get("numpy")   # not imported here: a NumPy value exists only if it was
    if np is None:
        return None if isinstance(obj, float) and obj != obj and not keep_nan else obj
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist(), keep_nan)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        v = float(obj)
        return None if np.isnan(v) and not keep_nan else v
    return obj
