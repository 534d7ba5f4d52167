"""The content-keyed run cache: keys, lookup, store and the digest of an entry.

A run's cache key hashes (1) its identity and parameters, (2) the content fingerprint of its
dataset's files and (3) the code key of the module defining its task: the package version and
the source of every module in that module's import closure (:mod:`repro.run.codekey`).  Editing a
ranker thus invalidates exactly the results it produced.

Entries live in ``<cache root>/runs/<paper>/<key>.json`` (:func:`repro.files.cache_root`), are
written atomically by the process that started the command (only ``done`` runs: failures and
runs without data are never cached), and carry a keyed digest of their content (HMAC under a
key of the user's, outside the cache: :func:`repro.files.cache_secret`), so that an entry
changed or forged after it was written is recomputed rather than served.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from .. import __version__
from ..data.catalog import SYNTHETIC
from ..data.load import fingerprint
from ..files import (CacheError, atomic_write_json, cache_root, keyed_hash, os_reason,
                     stable_hash)
from ..spec import RunSpec
from .codekey import cached_code_key, function_file
from .result import RunResult

TaskResolver = Callable[[str, str], Callable]


def entry_digest(entry: dict) -> str:
    """The keyed digest (HMAC under the user's key, :func:`repro.files.keyed_hash`) of a cache
    entry's content (every field but the digest), in the canonical form the entry is read
    back as (NaN kept: Python's JSON round-trips it)."""
    return keyed_hash({k: v for k, v in entry.items() if k != "digest"})


class RunCache:
    """The cached results of runs whose tasks ``tasks(paper, name)`` resolves, on the data of
    ``data_dir``; ``log`` hears about entries that are not served."""

    def __init__(self, data_dir: Path, tasks: TaskResolver, log=print):
        self.data_dir = Path(data_dir)
        self.tasks = tasks
        self.log = log

    def key(self, spec: RunSpec) -> str:
        fp = "synthetic" if spec.dataset == SYNTHETIC else fingerprint(spec.dataset, self.data_dir)
        return stable_hash({"run": spec.identity, "data": fp, "code": self.code(spec)})

    def code(self, spec: RunSpec) -> str:
        """The code key of the module defining the spec's task."""
        fn = self.tasks(spec.paper, spec.task)
        return cached_code_key(fn.__module__, function_file(fn))

    @staticmethod
    def entry_path(spec: RunSpec, key: str) -> Path:
        return cache_root() / "runs" / spec.paper / f"{key}.json"

    def lookup(self, spec: RunSpec, key: str | None = None) -> RunResult | None:
        """The cached result, or None if absent.  An entry that is unreadable (torn,
        truncated, not JSON), not an entry, another run's, or without a digest that verifies
        under the user's key (changed or forged since it was written, written under another
        key, or before entries were signed) is recomputed, and the log says which and why."""
        key = key or self.key(spec)
        path = self.entry_path(spec, key)
        try:
            text = path.read_text()
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            return self._recompute(path, spec, f"cannot be read ({exc})")
        try:
            entry = json.loads(text)
        except ValueError:
            return self._recompute(path, spec, "is not whole JSON (truncated or broken)")
        if not isinstance(entry, dict) or not isinstance(entry.get("output"), dict):
            return self._recompute(path, spec, "is not a cache entry")
        if entry.get("key") != key:
            return self._recompute(path, spec, "holds another run's result (its key differs)")
        if "digest" not in entry:
            return self._recompute(path, spec, "has no digest")
        if entry.get("digest") != entry_digest(entry):
            return self._recompute(path, spec, "does not verify (changed after it was written, "
                                               "forged, or signed with another key)")
        return RunResult(spec, "done", output=entry["output"], seconds=entry.get("seconds"),
                         cached=True, key=key, finished=entry.get("finished", ""),
                         blas=entry.get("blas", ""))

    def _recompute(self, path: Path, spec: RunSpec, why: str) -> None:
        self.log(f"cache entry {path} {why}: recomputing {spec.label}")
        return None

    def store(self, res: RunResult) -> None:
        """Cache a finished run (only ``done`` runs are cached), with the digest of its
        content."""
        if res.status != "done":
            return
        entry = {"key": res.key, "spec": res.spec.identity, "output": res.output,
                 "seconds": res.seconds, "finished": res.finished, "version": __version__}
        if res.blas:
            entry["blas"] = res.blas
        entry["digest"] = entry_digest(entry)
        path = self.entry_path(res.spec, res.key)
        try:
            atomic_write_json(path, entry)
        except OSError as exc:
            raise CacheError(f"could not write the run cache ({path.parent}): "
                             f"{os_reason(exc)}. Runs finished before this one are cached; "
                             f"the reports were not written. Free space or point "
                             f"REPRO_CACHE_DIR at another directory, then rerun") from None
