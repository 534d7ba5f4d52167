"""What a command checks before it runs anything, wherever it is started from.

* The committed reports are the package's own ``reports/`` (found from this file, so the
  check holds from any working directory) and ``./reports``: options that write the user's
  data or methods (``--on``, ``--ranker``, ``--allow-unverified``) and ``runs`` never write
  there, nor through a link below ``--out`` that leads there (:func:`refuse_committed`).
* The report directory and the cache directory (``$REPRO_CACHE_DIR``) must take a file
  (:func:`check_writable`, :func:`check_cache_dir`): a one-line error, not a traceback, and
  nothing computed in vain.
* Staging directories (:func:`repro.pipeline.staging.staging_dir`) carry the id of the process
  that made them; those
  of processes that no longer exist (killed mid-rendering) are removed by the next command
  (:func:`clean_stale_staging`).
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path

from ..errors import ReproError
from ..files import cache_root, os_reason
# where the pipeline stages and the package's reports: the checks below guard them
from ..pipeline.staging import PACKAGE_REPORTS, STAGING_PREFIX, staging_dir  # noqa: F401
#: A staging directory without a process id (an older version's) is removed after this long.
STALE_SECONDS = 24 * 3600


def inside(path: Path, parent: Path) -> bool:
    """Whether ``path`` is ``parent`` or below it (both resolved: links, ``..``)."""
    try:
        Path(path).resolve().relative_to(Path(parent).resolve())
        return True
    except ValueError:
        return False


def committed_reports() -> list[Path]:
    """The committed report directories that exist: the package's own, then ``./reports``."""
    found = {}
    for d in (PACKAGE_REPORTS, Path("reports")):
        if d.is_dir():
            found.setdefault(d.resolve(), d)
    return list(found.values())


def committed_parent(out: Path) -> Path | None:
    """The committed report directory ``out`` is in (or is), if any."""
    return next((d for d in committed_reports() if inside(out, d)), None)


def refuse_committed(out: Path, why: str) -> None:
    """Refuse ``--out`` inside the committed reports, or with an entry below it that leads
    there (a symbolic link to a committed folder or file, a hard link to a committed file):
    every path the command would write is checked (``why``: what writes elsewhere)."""
    reports = committed_parent(out)
    if reports is not None:
        raise ReproError(f"--out {out} is inside the committed reports ({reports.resolve()}/); "
                         f"{why}: choose another directory; nothing was run")
    refuse_links_into_committed(out, why)


def refuse_links_into_committed(out: Path, why: str = "a report directory of your own is "
                                "written alone") -> None:
    """Refuse ``--out`` when an entry below it leads into the committed reports (see
    :func:`entry_into_committed`)."""
    entry = entry_into_committed(out)
    if entry is not None:
        path, target = entry
        raise ReproError(f"--out {out}: {path} leads into the committed reports ({target}); "
                         f"{why}: remove the link or choose another directory; nothing was run")


def entry_into_committed(out: Path) -> tuple[Path, Path] | None:
    """The first entry below ``out`` (links not followed) that is a symbolic link resolving
    into the committed reports, or a hard link to one of their files, and where it leads."""
    out = Path(out)
    if not out.is_dir():
        return None
    roots = committed_reports()
    committed_inodes = None
    for top, dirs, files in os.walk(out, followlinks=False):
        for name in sorted(dirs) + sorted(files):
            path = Path(top) / name
            try:
                st = path.lstat()
            except OSError:
                continue
            if path.is_symlink():
                try:
                    target = path.resolve()
                except (OSError, RuntimeError):         # a loop: leads nowhere
                    continue
                if any(inside(target, r) for r in roots):
                    return path, target
            elif st.st_nlink > 1 and not os.path.isdir(path):
                if committed_inodes is None:
                    committed_inodes = {(q.stat().st_dev, q.stat().st_ino): q
                                        for r in roots for q in r.rglob("*") if q.is_file()}
                if (st.st_dev, st.st_ino) in committed_inodes:
                    return path, committed_inodes[(st.st_dev, st.st_ino)]
    return None


def refuse_data_dir(out: Path, data_roots: list[Path], dataset_folders: list[Path]) -> None:
    """Refuse ``--out`` inside a dataset's folder, or inside a data directory that holds
    datasets (``dataset_folders``: the folders found): reports never mix with the data."""
    for folder in dataset_folders:
        if inside(out, folder):
            raise ReproError(f"--out {out} is inside the data folder {folder.resolve()}; "
                             f"reports are never written among the data: choose another "
                             f"directory; nothing was run")
    for root in data_roots:
        holds = [f for f in dataset_folders if inside(f, root)]
        if holds and inside(out, root):
            raise ReproError(f"--out {out} is inside the data directory {root.resolve()} (which "
                             f"holds {holds[0].name}); reports are never written among the "
                             f"data: choose another directory; nothing was run")


def check_writable(out: Path) -> None:
    """Refuse, before any run, a report directory that cannot be written (nothing computed
    in vain): the directory, or the nearest existing parent it would be created in, must
    take a file."""
    probe = out
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        if not probe.is_dir():
            raise NotADirectoryError(20, "not a directory", str(probe))
        with tempfile.TemporaryFile(dir=probe, prefix=".repro-write-check-"):
            pass
        for sub in sorted(p for p in out.glob("*") if p.is_dir()) if out.is_dir() else []:
            if not os.access(sub, os.W_OK):
                raise PermissionError(13, "permission denied", str(sub))
    except OSError as exc:
        raise ReproError(f"cannot write the reports to {out}: {exc.strerror or exc} "
                         f"({exc.filename or probe}); nothing was run. Choose a writable "
                         f"directory with --out DIR") from None


def check_cache_dir() -> Path:
    """The cache directory (``$REPRO_CACHE_DIR``, else ``./.repro-cache``), created if needed,
    made absolute (a task that changes the working directory does not move it); a one-line
    error if it is a file or cannot take a file."""
    root = cache_root()
    where = (f"REPRO_CACHE_DIR={os.environ['REPRO_CACHE_DIR']}"
             if os.environ.get("REPRO_CACHE_DIR") else f"the default cache directory {root}")
    try:
        if root.exists() and not root.is_dir():
            raise NotADirectoryError(20, "not a directory", str(root))
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=root, prefix=".repro-write-check-"):
            pass
    except OSError as exc:
        raise ReproError(f"cannot use {where} as the cache directory: {os_reason(exc)} "
                         f"({exc.filename or root}); nothing was run. Point REPRO_CACHE_DIR at "
                         f"a writable directory") from None
    return root.absolute()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:             # another user's process: alive
        return True
    return True


def clean_stale_staging(base: Path | None = None, prefix: str = STAGING_PREFIX) -> list[Path]:
    """Remove the staging directories in ``base`` left by processes that no longer exist
    (and, without a process id in the name, those older than :data:`STALE_SECONDS`); the
    ones removed."""
    base = Path(base or tempfile.gettempdir())
    removed = []
    pattern = re.compile(re.escape(prefix) + r"(\d+)-")
    for d in base.glob(f"{prefix}*"):
        if not d.is_dir() or d.is_symlink():
            continue
        m = pattern.match(d.name)
        try:
            if m:
                stale = int(m.group(1)) != os.getpid() and not _alive(int(m.group(1)))
            else:
                stale = time.time() - d.stat().st_mtime > STALE_SECONDS
        except OSError:
            continue
        if stale:
            shutil.rmtree(d, ignore_errors=True)
            removed.append(d)
    return removed
