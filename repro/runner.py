"""Executing runs: availability checks, the content-keyed result cache, and a process pool.

A run's cache key hashes (1) its identity and parameters, (2) the content fingerprint of its
dataset's files and (3) the code key of the module defining its task: the package version and
the source of every module in that module's import closure (:mod:`repro.codekey`).  Editing a
ranker thus invalidates exactly the results it produced.  Entries are written atomically when a
run finishes; failures and runs without data are never cached.  An interrupted invocation
therefore resumes where it stopped.

The runner knows no paper: it is handed ``tasks(paper, name) -> function`` (the paper
registry's resolver) by its caller.
"""
from __future__ import annotations

import json
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Callable

import numpy as np

from . import __version__
from .cache import atomic_write_json, cache_root, stable_hash
from .codekey import cached_code_key, function_file
from .data.catalog import SYNTHETIC, data_state
from .data.load import fingerprint
from .errors import DataCorrupt, DataMissing
from .experiment import RunContext, RunSpec

TaskResolver = Callable[[str, str], Callable]


@dataclass
class RunResult:
    spec: RunSpec
    status: str                     # done | not run | failed
    why: str = ""
    output: dict | None = None
    seconds: float | None = None
    cached: bool = False
    key: str = ""
    finished: str = ""


def jsonable(obj, keep_nan: bool = False):
    """Convert numpy types (recursively) so that results serialise as JSON.  NaN becomes
    None (standard JSON, for report files) unless ``keep_nan`` (cache entries: Python's JSON
    round-trips NaN, and the comparison needs to tell an undefined value from a missing one)."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v, keep_nan) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v, keep_nan) for v in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist(), keep_nan)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        v = float(obj)
        return None if np.isnan(v) and not keep_nan else v
    return obj


class Runner:
    """Runs specs (cached, in a process pool when ``jobs`` > 1); ``tasks`` resolves a spec's
    task function."""

    def __init__(self, data_dir: Path, tasks: TaskResolver, jobs: int = 1, force: bool = False,
                 cache_only: bool = False, log=print):
        self.data_dir = Path(data_dir)
        self.tasks = tasks
        self.jobs = max(1, int(jobs))
        self.force = force
        self.cache_only = cache_only
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
        key = key or self.key(spec)
        path = self.entry_path(spec, key)
        try:
            entry = json.loads(path.read_text())
        except (OSError, ValueError):
            return None
        if entry.get("key") != key:
            return None
        return RunResult(spec, "done", output=entry["output"], seconds=entry["seconds"],
                         cached=True, key=key, finished=entry.get("finished", ""))

    def run(self, specs: list[RunSpec]) -> dict[RunSpec, RunResult]:
        results: dict[RunSpec, RunResult] = {}
        todo: list[tuple[RunSpec, str]] = []
        for spec in dict.fromkeys(specs):          # unique, in declaration order
            ok, why = data_state(spec.dataset, self.data_dir)
            if not ok:
                results[spec] = RunResult(spec, "not run", why=why)
                continue
            key = self.key(spec)
            hit = None if self.force else self.lookup(spec, key)
            if hit is not None:
                results[spec] = hit
                continue
            if self.cache_only:
                results[spec] = RunResult(spec, "not run", why="no cached result (run it without --report-only)")
                continue
            todo.append((spec, key))
        if todo:
            self.log(f"running {len(todo)} run(s)" + (f" on {self.jobs} processes" if self.jobs > 1 else ""))
        # Timing runs are executed alone, after the others, so that no concurrent run
        # disturbs what they measure.
        pooled = [(s, k) for s, k in todo if not s.exclusive]
        alone = [(s, k) for s, k in todo if s.exclusive]
        if self.jobs == 1 or len(pooled) <= 1:
            for spec, key in pooled:
                results[spec] = execute(spec, key, str(self.data_dir), self.tasks, self.log)
        else:
            with ProcessPoolExecutor(self.jobs, mp_context=get_context("fork")) as pool:
                futures = {pool.submit(execute, spec, key, str(self.data_dir), self.tasks): spec
                           for spec, key in pooled}
                for fut in as_completed(futures):
                    res = fut.result()
                    self.log(f"  {res.spec.label}: {res.status}"
                             + (f" in {res.seconds:.1f} s" if res.seconds is not None else "")
                             + (f" ({res.why})" if res.why else ""))
                    results[futures[fut]] = res
        for spec, key in alone:
            results[spec] = execute(spec, key, str(self.data_dir), self.tasks, self.log)
        return {s: results[s] for s in dict.fromkeys(specs)}


def execute(spec: RunSpec, key: str, data_dir: str, tasks: TaskResolver, log=None) -> RunResult:
    """Run one task and cache its output (module-level so that a process pool can call it)."""
    say = log or (lambda *a, **k: None)
    ctx = RunContext(spec, Path(data_dir), log=lambda msg: say(f"    {msg}"))
    say(f"  {spec.label} …")
    start = time.perf_counter()
    try:
        task = tasks(spec.paper, spec.task)
        output = jsonable(task(ctx), keep_nan=True)
    except (DataMissing, DataCorrupt) as exc:
        return RunResult(spec, "not run", why=f"data: {exc}")
    except KeyboardInterrupt:
        raise
    except Exception as exc:     # a failed run is reported in its table, never cached
        tb = traceback.format_exc(limit=-3)
        print(tb, file=sys.stderr)
        return RunResult(spec, "failed", why=f"{type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - start
    finished = time.strftime("%Y-%m-%d %H:%M:%S")
    entry = {"key": key, "spec": spec.identity, "output": output, "seconds": seconds,
             "finished": finished, "version": __version__}
    atomic_write_json(Runner.entry_path(spec, key), entry)
    say(f"  {spec.label}: done in {seconds:.1f} s")
    return RunResult(spec, "done", output=output, seconds=seconds, key=key, finished=finished)
