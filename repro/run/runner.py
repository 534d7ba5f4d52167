"""Executing runs: availability checks, the content-keyed result cache, and three backends
(in process, a local process pool, a Dask distributed cluster).

A run's cache key hashes (1) its identity and parameters, (2) the content fingerprint of its
dataset's files and (3) the code key of the module defining its task: the package version and
the source of every module in that module's import closure (:mod:`repro.run.codekey`).  Editing a
ranker thus invalidates exactly the results it produced.

Runs execute in workers (pool processes or Dask workers) that return their output; only this
process writes the cache, atomically, when a run finishes — failures and runs without data are
never cached — so an interrupted invocation resumes where it stopped, and a worker that dies
mid-run leaves nothing half-written (Dask resubmits its run elsewhere).  Every run executes
with its BLAS and OpenMP pools limited to one thread, whatever the environment says, so results
do not depend on thread settings and parallelism comes from runs (``--jobs``, a cluster).
Timing runs (``exclusive``) execute here, alone, after the others.

A dataset whose files fail their checksum is refused: its runs are "not run: corrupt …"
(``RunResult.refused``), the others complete.

The runner knows no paper: it is handed ``tasks(paper, name) -> function`` (the paper
registry's resolver) by its caller; workers import the task by module and name.
"""
from __future__ import annotations

import ctypes
import importlib
import json
import os
import signal
import sys
import threading
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from multiprocessing import get_context
from pathlib import Path
from typing import Callable

import numpy as np

from .. import __version__
from ..files import atomic_write_json, cache_root, stable_hash
from .codekey import cached_code_key, function_file
from .progress import RunProgress
from ..data.catalog import SYNTHETIC, data_state
from ..data.load import fingerprint
from ..errors import DataCorrupt, DataMissing, ReproError, Unavailable
from ..spec import RunContext, RunSpec
from .timing import single_thread_blas

try:                                   # the `cluster` extra
    import cloudpickle
    import distributed
except ImportError:                    # pragma: no cover - exercised where dask is absent
    cloudpickle = distributed = None

TaskResolver = Callable[[str, str], Callable]
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
               "BLIS_NUM_THREADS", "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


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
    refused: bool = False           # its data failed verification (corrupt): not run


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


def _single_thread_env() -> None:
    """In a worker process: one thread for every BLAS/OpenMP pool loaded later, too."""
    for var in THREAD_VARS:
        os.environ[var] = "1"


PR_SET_PDEATHSIG = 1                    # <linux/prctl.h>
WATCH_SECONDS = 0.5


def _die_with_parent(parent: int) -> None:
    """In a worker process: end when ``parent`` (the command) ends, however it ends — SIGKILL
    included.  On Linux the kernel delivers SIGKILL when the parent dies
    (``prctl(PR_SET_PDEATHSIG)``); everywhere a watchdog thread polls ``os.getppid()`` (a
    worker whose parent died is re-parented) and exits.  A parent that died before this ran
    is caught by the first check."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):     # no libc symbol: the watchdog still works
            pass
    if os.getppid() != parent:
        os._exit(1)

    def watch():
        while True:
            time.sleep(WATCH_SECONDS)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="repro-parent-watch", daemon=True).start()


def _worker_init(parent: int) -> None:
    """Initializer of a pool worker: single-threaded BLAS, the default SIGTERM action (not the
    command's handler inherited through fork), SIGINT ignored (the command stops its
    workers: a Ctrl-C reaches the whole process group) and death with the parent."""
    _single_thread_env()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent)


def _stop_pool(pool: ProcessPoolExecutor, grace: float = 5.0) -> None:
    """Cancel what has not started and end the workers now (SIGTERM, then SIGKILL after
    ``grace`` seconds): what the command does when it is interrupted or fails."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    deadline = time.monotonic() + grace
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join(1.0)


def map_in_processes(fn, items: list, workers: int) -> list:
    """``[fn(x) for x in items]`` on up to ``workers`` forked processes (results in the order
    of ``items``; here, one after the other, when one worker suffices).  The workers are
    those of the run pool (single-threaded BLAS, death with this process) and are stopped
    if this process is interrupted or ``fn`` fails.  ``fn`` must be module-level."""
    workers = max(1, min(int(workers), len(items)))
    if workers == 1:
        return [fn(x) for x in items]
    pool = ProcessPoolExecutor(workers, mp_context=get_context("fork"),
                               initializer=_worker_init, initargs=(os.getpid(),))
    try:
        out = [f.result() for f in [pool.submit(fn, x) for x in items]]
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)
    return out


MAX_JOBS_PER_CPU = 4


def pool_size(jobs: int, runs: int, cpus: int | None = None) -> int:
    """Worker processes for ``runs`` pooled runs asked ``--jobs jobs``: never more than the
    runs (an idle worker only costs memory) nor than 4 per CPU."""
    cpus = cpus or os.cpu_count() or 1
    return max(1, min(int(jobs), int(runs), MAX_JOBS_PER_CPU * cpus))


def scheduler_timeout() -> float:
    """Seconds to wait for a Dask scheduler to answer (``$REPRO_SCHEDULER_TIMEOUT``, 10)."""
    try:
        return max(0.1, float(os.environ.get("REPRO_SCHEDULER_TIMEOUT", "10")))
    except ValueError:
        raise ReproError("REPRO_SCHEDULER_TIMEOUT must be a number of seconds, got "
                         f"{os.environ['REPRO_SCHEDULER_TIMEOUT']!r}") from None


def task_ref(fn) -> tuple[str, str]:
    """``(module, name)`` of a module-level task function: what workers import."""
    return fn.__module__, fn.__qualname__


def compute(spec: RunSpec, ref, data_dir: str, log=None, threads: int = 1) -> "RunResult":
    """Run one task (in any process) and return its result; writes nothing.  ``ref``: the task
    function, or ``(module, name)`` to import it (what other processes receive); ``threads``:
    the threads one fit of the run may use (1 in pools and on clusters).
    Module-level, so that process pools and Dask workers can call it."""
    ctx = RunContext(spec, Path(data_dir), log=(lambda msg: log(f"    {msg}")) if log
                     else (lambda msg: None), threads=max(1, int(threads)))
    start = time.perf_counter()
    try:
        fn = ref if callable(ref) else getattr(importlib.import_module(ref[0]), ref[1])
        with single_thread_blas():
            output = jsonable(fn(ctx), keep_nan=True)
    except DataCorrupt as exc:
        return RunResult(spec, "not run", why=f"corrupt: {exc}", refused=True)
    except DataMissing as exc:
        return RunResult(spec, "not run", why=f"data: {exc}")
    except Unavailable as exc:
        return RunResult(spec, "not run", why=str(exc))
    except KeyboardInterrupt:
        raise
    except ReproError as exc:    # bad input (named file/line): its message, no traceback
        return RunResult(spec, "failed", why=f"{type(exc).__name__}: {exc}")
    except Exception as exc:     # a failed run is reported in its table, never cached
        print(traceback.format_exc(limit=-3), file=sys.stderr)
        return RunResult(spec, "failed", why=f"{type(exc).__name__}: {exc}")
    return RunResult(spec, "done", output=output, seconds=time.perf_counter() - start,
                     finished=time.strftime("%Y-%m-%d %H:%M:%S"))


def entry_digest(entry: dict) -> str:
    """sha256 of a cache entry's content (every field but the digest), in the canonical form
    the entry is read back as (NaN kept: Python's JSON round-trips it)."""
    return stable_hash({k: v for k, v in entry.items() if k != "digest"})


class Runner:
    """Runs specs, cached; ``tasks`` resolves a spec's task function.  Backends: in process
    (``jobs`` = 1), a process pool (``jobs`` > 1) or a Dask cluster (``scheduler`` address)."""

    def __init__(self, data_dir: Path, tasks: TaskResolver, jobs: int = 1, force: bool = False,
                 cache_only: bool = False, log=print, scheduler: str | None = None,
                 progress: bool | None = None, threads: int | None = None,
                 expected: dict[str, float] | None = None):
        if int(jobs) < 1:
            raise ReproError(f"--jobs must be at least 1, got {jobs}")
        if threads is not None and int(threads) < 1:
            raise ReproError(f"--threads must be at least 1, got {threads}")
        # threads of one fit in runs executed here (alone): the machine's by default; runs in a
        # pool or on a cluster always use 1, whatever this says
        self.threads = int(threads) if threads is not None else (os.cpu_count() or 1)
        self.data_dir = Path(data_dir)
        self.tasks = tasks
        self.jobs = int(jobs)
        self.force = force
        self.cache_only = cache_only
        self.log = log
        self.scheduler = scheduler
        self.progress = progress          # None: live display when stdout is a terminal
        # run label → seconds it took last time: pooled runs start longest first (runs
        # without a time first of all), so that no long run starts last while the other
        # workers idle; the order changes no result
        self.expected = dict(expected or {})

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
        """The cached result, or None if absent or unreadable (torn, not JSON, not an entry)
        or changed since it was written (its digest does not match: said, and recomputed).
        Entries written before digests were stored have none and are read as they are."""
        key = key or self.key(spec)
        path = self.entry_path(spec, key)
        try:
            entry = json.loads(path.read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key \
                or not isinstance(entry.get("output"), dict):
            return None
        if "digest" in entry and entry["digest"] != entry_digest(entry):
            self.log(f"cache entry {path} was changed after it was written (its digest does "
                     f"not match): recomputing {spec.label}")
            return None
        return RunResult(spec, "done", output=entry["output"], seconds=entry.get("seconds"),
                         cached=True, key=key, finished=entry.get("finished", ""))

    def store(self, res: RunResult) -> None:
        """Cache a finished run (only ``done`` runs are cached), with the digest of its
        content."""
        if res.status != "done":
            return
        entry = {"key": res.key, "spec": res.spec.identity, "output": res.output,
                 "seconds": res.seconds, "finished": res.finished, "version": __version__}
        entry["digest"] = entry_digest(entry)
        atomic_write_json(self.entry_path(res.spec, res.key), entry)

    def _prepare(self, spec: RunSpec) -> tuple[RunResult | None, str]:
        """A result without executing (not available, cached, cache-only), or the key."""
        try:
            ok, why = data_state(spec.dataset, self.data_dir)
            if not ok:
                return RunResult(spec, "not run", why=why,
                                 refused=why.startswith("data corrupt")), ""
            key = self.key(spec)
        except DataCorrupt as exc:
            return RunResult(spec, "not run", why=f"corrupt: {exc}", refused=True), ""
        hit = None if self.force else self.lookup(spec, key)
        if hit is not None:
            return hit, key
        if self.cache_only:
            return RunResult(spec, "not run",
                             why="no cached result (run it without --report-only)"), key
        return None, key

    def run(self, specs: list[RunSpec]) -> dict[RunSpec, RunResult]:
        results: dict[RunSpec, RunResult] = {}
        todo: list[tuple[RunSpec, str]] = []
        same_key: dict[str, list[RunSpec]] = {}    # specs sharing a cache key run once
        for spec in dict.fromkeys(specs):          # unique, in declaration order
            res, key = self._prepare(spec)
            if res is not None:
                results[spec] = res
            elif key in same_key:
                same_key[key].append(spec)
            else:
                same_key[key] = [spec]
        for key, group in same_key.items():
            # one computation per key (a spec that only --quick or `exclusive` tells apart
            # has the same result); timed alone if any of them asks to be
            todo.append((next((s for s in group if s.exclusive), group[0]), key))
        if todo:
            pooled = sorted(((s, k) for s, k in todo if not s.exclusive),
                            key=lambda sk: -self.expected.get(sk[0].label, float("inf")))
            alone = [(s, k) for s, k in todo if s.exclusive]
            workers = pool_size(self.jobs, len(pooled)) if pooled else 1
            cpus = os.cpu_count() or 1
            if not self.scheduler and self.jobs > cpus:
                self.log(f"warning: --jobs {self.jobs} is more than this machine's {cpus} "
                         f"CPU(s); using {workers} worker process(es) for {len(pooled)} "
                         f"pooled run(s) (at most the runs, and {MAX_JOBS_PER_CPU} per CPU)"
                         + ("; they compete for the CPUs" if workers > cpus else ""))
            where = (f" on the Dask cluster {self.scheduler}" if self.scheduler else
                     f" on {workers} processes" if self.jobs > 1 and workers > 1 else "")
            self.log(f"running {len(todo)} run(s){where}")
            # Timing runs are executed here, alone, after the others, so that no concurrent
            # run disturbs what they measure.
            with RunProgress(len(todo), workers, live=self.progress) as prog:
                if self.scheduler:
                    done = self._run_dask(pooled, prog) if pooled else []
                elif workers == 1:
                    done = self._run_here(pooled, prog)
                else:
                    done = self._run_pool(pooled, prog, workers)
                done += self._run_here(alone, prog)
            for res in done:
                for spec in same_key[res.key]:
                    results[spec] = res if spec == res.spec else replace(res, spec=spec)
        return {s: results[s] for s in dict.fromkeys(specs)}

    def _finish(self, res: RunResult, key: str, prog: RunProgress) -> RunResult:
        res.key = key
        self.store(res)
        prog.finish(res.spec.label, res.status, res.seconds, res.why)
        return res

    def _run_here(self, todo, prog: RunProgress) -> list[RunResult]:
        out = []
        for spec, key in todo:
            prog.start(spec.label)
            fn = self.tasks(spec.paper, spec.task)
            out.append(self._finish(execute(spec, fn, str(self.data_dir), prog.say,
                                            self.threads), key, prog))
        return out

    def _run_pool(self, todo, prog: RunProgress, workers: int) -> list[RunResult]:
        """A pool of ``workers`` forked processes that end with this one (see
        :func:`_worker_init`); if this process is interrupted (Ctrl-C, SIGTERM: the CLI turns
        it into an exception) or fails, queued runs are cancelled and the workers stopped —
        finished runs are already cached."""
        out = []
        pool = ProcessPoolExecutor(workers, mp_context=get_context("fork"),
                                   initializer=_worker_init, initargs=(os.getpid(),))
        try:
            futures = {}
            for spec, key in todo:
                ref = task_ref(self.tasks(spec.paper, spec.task))
                futures[pool.submit(compute, spec, ref, str(self.data_dir))] = (spec, key)
                prog.start(spec.label, queued=True)
            for fut in as_completed(futures):
                spec, key = futures[fut]
                out.append(self._finish(fut.result(), key, prog))
        except BaseException:
            _stop_pool(pool)
            raise
        pool.shutdown(wait=True)
        return out

    def _client(self):
        """A client of the scheduler, or a clear error if it does not answer in time."""
        if distributed is None:
            raise ReproError("--scheduler needs Dask: pip install -e '.[cluster]'")
        timeout = scheduler_timeout()
        try:
            return distributed.Client(self.scheduler, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ReproError(
                f"cannot reach the Dask scheduler at {self.scheduler} (--scheduler or "
                f"REPRO_SCHEDULER) within {timeout:g} s: {type(exc).__name__}: {exc}. Is "
                f"`dask scheduler` running there? (REPRO_SCHEDULER_TIMEOUT sets the wait); "
                f"nothing was run") from None

    def _run_dask(self, todo, prog: RunProgress) -> list[RunResult]:
        """Runs on the cluster, submitted in a window of twice the cluster's worker threads
        (at least ``jobs``) and topped up as runs finish, so the scheduler never holds every
        run of a large command at once."""
        out = []
        data_dir = str(self.data_dir.resolve())
        with self._client() as client:
            threads = sum((client.nthreads() or {}).values())
            window = max(1, 2 * threads, self.jobs)
            pending = iter(todo)
            futures = {}
            running = distributed.as_completed()

            def submit_next() -> bool:
                nxt = next(pending, None)
                if nxt is None:
                    return False
                spec, key = nxt
                fn = self.tasks(spec.paper, spec.task)
                if fn.__module__.startswith("repro."):
                    ref = task_ref(fn)             # workers import it from the package
                else:                              # a paper from outside the package: by value
                    cloudpickle.register_pickle_by_value(sys.modules[fn.__module__])
                    ref = fn
                fut = client.submit(compute, spec, ref, data_dir, key=f"repro-run-{key}",
                                    pure=False)
                futures[fut] = (spec, key)
                running.add(fut)
                prog.start(spec.label, queued=True)
                return True

            for _ in range(window):
                if not submit_next():
                    break
            try:
                for fut in running:
                    spec, key = futures.pop(fut)
                    try:
                        res = fut.result()
                    except Exception as exc:    # e.g. the run killed its workers repeatedly
                        res = RunResult(spec, "failed", why=f"{type(exc).__name__}: {exc}")
                    out.append(self._finish(res, key, prog))
                    submit_next()
            except BaseException:
                client.cancel(list(futures))
                raise
        return out


def execute(spec: RunSpec, ref, data_dir: str, log=None, threads: int = 1) -> RunResult:
    """Run one task in this process (what the in-process backend calls)."""
    return compute(spec, ref, data_dir, log, threads)
