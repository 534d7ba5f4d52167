"""Where runs execute: in this process, on a local process pool, or on a Dask cluster.

Every backend takes ``(spec, key)`` pairs (a :class:`Feed`, which may grow while it runs, or
a list) and hands each finished :class:`RunResult` to a
``finish(result, key)`` callback (the runner's: it caches the result and reports progress);
none writes anything itself.  Runs execute in workers that return their output, so a worker
that dies mid-run leaves nothing half-written (Dask resubmits its run elsewhere).  Every run
executes with its BLAS and OpenMP pools limited to one thread, whatever the environment says
(:func:`repro.run.timing.single_thread_blas`), so results do not depend on thread settings and
parallelism comes from runs (``--jobs``, a cluster).  Pool workers end with the command,
however it ends (:func:`_die_with_parent`).

Workers import a task by module and name (:func:`task_ref`); a task from outside the package is
sent to a cluster by value.
"""
from __future__ import annotations

import ctypes
import heapq
import importlib
import json
import os
import signal
import sys
import threading
import time
import traceback
import warnings
from contextlib import nullcontext
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from pathlib import Path

from ..data import shipped
from ..data.catalog import allowing
from ..errors import ConvergenceWarning, DataCorrupt, DataMissing, ReproError, Unavailable
from ..files import CacheError, jsonable
from ..spec import USER_RANKER_TASK, RunContext, RunSpec, salt_in_effect
from . import limits as limits_module
from .limits import Limits, ranker_limits
from .limits import apply as apply_limits
from .progress import RunProgress
from .provenance import blas
from .result import RunResult
from .timing import single_thread_blas

try:                                   # the `cluster` extra
    import cloudpickle
    import distributed
except ImportError:                    # pragma: no cover - exercised where dask is absent
    cloudpickle = distributed = None

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
               "BLIS_NUM_THREADS", "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


def _single_thread_env() -> None:
    """In a worker process: one thread for every BLAS/OpenMP pool loaded later, too."""
    for var in THREAD_VARS:
        os.environ[var] = "1"


PR_SET_PDEATHSIG = 1                    # <linux/prctl.h>
#: Seconds after a ranker's alarm when the command ends its process itself.
LIMIT_GRACE = 5.0
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


def _worker_init(parent: int, limits: Limits | None = None) -> None:
    """Initializer of a pool worker: single-threaded BLAS, the default SIGTERM action (not the
    command's handler inherited through fork), SIGINT ignored (the command stops its
    workers: a Ctrl-C reaches the whole process group), death with the parent and, for a
    user's ranker, its time and memory limits (:mod:`.limits`)."""
    _single_thread_env()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent)
    if limits is not None:
        apply_limits(limits)


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


def _new_pool(workers: int, limits: Limits | None = None) -> ProcessPoolExecutor:
    """Forked workers with single-threaded BLAS that end with this process (and keep to
    ``limits``)."""
    return ProcessPoolExecutor(workers, mp_context=get_context("fork"),
                               initializer=_worker_init, initargs=(os.getpid(), limits))


def iter_in_processes(fn, items: list, workers: int):
    """``fn(x)`` of each item on up to ``workers`` forked processes, yielded in the order of
    ``items`` as soon as it and those before it are done, while the workers go on with the
    next ones (with one worker, each computed here when it is asked for).  The workers are
    those of the run pool (single-threaded BLAS, death with this process) and are stopped if
    the caller stops early, fails or is interrupted.  ``fn`` must be module-level."""
    workers = max(1, min(int(workers), len(items)))
    if workers == 1:
        for x in items:
            yield fn(x)
        return
    pool = _new_pool(workers)
    try:
        futures = [pool.submit(fn, x) for x in items]
        for f in futures:
            yield f.result()
    except BaseException:                 # GeneratorExit too: the caller stopped early
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


class ProcessQueue:
    """Calls ``fn(x)`` submitted one at a time onto up to ``workers`` forked processes (those
    of :func:`iter_in_processes`), started at the first submission, so that they run while
    this process goes on; :meth:`results` waits for them (in the order submitted).  With one
    worker nothing runs until :meth:`results`, here, one after the other.  A failure or an
    interruption while waiting stops the workers; :meth:`stop` does it for the caller's own
    failures.  ``fn`` must be module-level."""

    def __init__(self, fn, workers: int):
        self.fn, self.workers = fn, max(1, int(workers))
        self._items: list = []
        self._futures: list = []       # with more than one worker
        self._done: list = []          # with one: the results computed so far
        self._pool: ProcessPoolExecutor | None = None

    def append(self, item) -> None:
        self._items.append(item)
        if self.workers > 1:
            if self._pool is None:      # the first call, or the first after results()
                self._pool = _new_pool(self.workers)
            self._futures.append(self._pool.submit(self.fn, item))

    def __len__(self) -> int:
        return len(self._items)

    @property
    def items(self) -> list:
        return list(self._items)

    def results(self) -> list:
        """Every call's result, in the order submitted (each call made once, however often
        this is asked)."""
        if self.workers == 1:
            self._done += [self.fn(x) for x in self._items[len(self._done):]]
            return list(self._done)
        try:
            out = [f.result() for f in self._futures]
        except BaseException:
            self.stop()
            raise
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        return out

    def stop(self) -> None:
        if self._pool is not None:
            _stop_pool(self._pool)
            self._pool = None


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


def compute(spec: RunSpec, ref, data_dir: str, log=None, threads: int = 1) -> RunResult:
    """Run one task (in any process) and return its result; writes nothing.  ``ref``: the task
    function, or ``(module, name)`` to import it (what other processes receive); ``threads``:
    the threads one fit of the run may use (1 in pools and on clusters).
    Module-level, so that process pools and Dask workers can call it."""
    ctx = RunContext(spec, Path(data_dir), log=(lambda msg: log(f"    {msg}")) if log
                     else (lambda msg: None), threads=max(1, int(threads)))
    start = time.perf_counter()
    cwd = os.getcwd()
    try:
        return _compute(spec, ref, ctx, start)
    finally:
        if os.getcwd() != cwd:         # a task that changed directory moves nothing after it
            os.chdir(cwd)


def canonical_output(output) -> dict:
    """A task's output as the cache stores and returns it (JSON, keys sorted): a run computed
    now and one read from the cache give the same figures and pages, key order included."""
    return json.loads(json.dumps(jsonable(output, keep_nan=True), sort_keys=True))


def _compute(spec: RunSpec, ref, ctx: RunContext, start: float) -> RunResult:
    try:
        if spec.user_set is not None:    # a user's set: registered here from the spec
            shipped.adopt(spec.user_set)
        fn = ref if callable(ref) else getattr(importlib.import_module(ref[0]), ref[1])
        allowed = allowing(spec.dataset) if spec.allow_unverified else nullcontext()
        with allowed, salt_in_effect(spec.salt), single_thread_blas(), \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            output = canonical_output(fn(ctx))
        limited = 0
        for w in caught:             # a protocol's iteration budget is deliberate: counted
            if issubclass(w.category, ConvergenceWarning):
                limited += 1
            else:
                warnings.showwarning(w.message, w.category, w.filename, w.lineno)
        if limited:
            output["fits_at_iteration_limit"] = limited
    except MemoryError as exc:   # over --ranker-memory, or the machine's: this run fails
        limited = limits_module.CURRENT
        return RunResult(spec, "failed", why=(limited.describe_memory() if limited else
                                              "out of memory") + (f": {exc}" if str(exc) else ""))
    except SystemExit as exc:    # sys.exit() in a ranker ends its run, not the command
        return RunResult(spec, "failed", why=f"the task called sys.exit({exc.code!r}) "
                                             f"instead of returning")
    except CacheError:           # the cache cannot be written: the command stops
        raise
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
                     finished=time.strftime("%Y-%m-%d %H:%M:%S"), blas=blas())


# --- the backends ------------------------------------------------------------------------------

class Feed:
    """The runs waiting for a backend, ``(spec, key)``, in the order they start: by rank
    (lower first), then longest expected time first, then as given.  Runs may be added while
    a backend drains it (a follow-up decided on finished runs: :meth:`Runner.run`)."""

    def __init__(self, rank=None, expected: dict[str, float] | None = None):
        self._rank = rank or (lambda spec: 0)
        self._expected = expected or {}
        self._heap: list = []
        self._n = 0

    def add(self, items) -> None:
        for spec, key in items:
            order = (self._rank(spec), -self._expected.get(spec.label, float("inf")), self._n)
            heapq.heappush(self._heap, (order, spec, key))
            self._n += 1

    def pop(self) -> tuple:
        _, spec, key = heapq.heappop(self._heap)
        return spec, key

    def drain(self) -> list:
        out = []
        while self:
            out.append(self.pop())
        return out

    def __len__(self) -> int:
        return len(self._heap)


def run_here(feed: Feed, tasks, data_dir: Path, threads: int, prog: RunProgress, finish
             ) -> list[RunResult]:
    """One run after the other in this process (``threads``: those one fit may use), until
    ``feed`` is empty."""
    out = []
    while feed:
        spec, key = feed.pop()
        prog.start(spec.label)
        fn = tasks(spec.paper, spec.task)
        out.append(finish(compute(spec, fn, str(data_dir), prog.say, threads), key))
    return out


def run_pool(feed: Feed, tasks, data_dir: Path, workers: int, prog: RunProgress, finish
             ) -> list[RunResult]:
    """A pool of ``workers`` forked processes that end with this one (see
    :func:`_worker_init`), fed from ``feed`` a run at a time (one more than the workers in
    flight, so that a run added to the feed meanwhile starts next) until it is empty; if this
    process is interrupted (Ctrl-C, SIGTERM: the CLI turns it into an exception) or fails,
    the workers are stopped — finished runs are already cached.  If a worker ends abruptly (a
    task calling ``os._exit``, a crash, the out-of-memory killer), the pool is broken and
    which of the runs in flight did it is unknown: those run again, each in a process of its
    own (:func:`run_isolated`), so that only the culprit fails; the runs not started yet stay
    in ``feed`` (the caller drains it again)."""
    out, broken = [], []
    pool = _new_pool(workers)
    try:
        futures = {}

        def submit_next() -> None:
            spec, key = feed.pop()
            ref = task_ref(tasks(spec.paper, spec.task))
            futures[pool.submit(compute, spec, ref, str(data_dir))] = (spec, key)
            prog.start(spec.label, queued=True)

        while feed and len(futures) <= workers:
            submit_next()
        while futures:
            done, _ = wait(list(futures), return_when=FIRST_COMPLETED)
            for fut in done:
                spec, key = futures.pop(fut)
                try:
                    res = fut.result()
                except BrokenProcessPool:
                    broken.append((spec, key))
                    continue
                out.append(finish(res, key))
            while not broken and feed and len(futures) <= workers:
                submit_next()
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)
    if broken:
        prog.say(f"a worker process ended abruptly: running the {len(broken)} run(s) it left "
                 f"unfinished again, each in a process of its own")
        out += run_isolated(broken, tasks, data_dir, workers, prog, finish, announce=False)
    return out


def _ended(procs) -> str:
    """How the process of a broken one-process pool ended."""
    for p in procs:
        p.join(5.0)
        # the pool's own thread may be reaping the same process: its status reaches
        # ``exitcode`` a moment after our wait returns empty-handed
        deadline = time.monotonic() + 5.0
        while p.exitcode is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if p.exitcode is not None and p.exitcode < 0:
            try:
                return f"killed by {signal.Signals(-p.exitcode).name}"
            except ValueError:
                return f"killed by signal {-p.exitcode}"
        if p.exitcode is not None:
            return f"exit status {p.exitcode}"
    return "ended abruptly"


def run_isolated(todo, tasks, data_dir: Path, workers: int, prog: RunProgress, finish,
                 announce: bool = True) -> list[RunResult]:
    """Each run in a forked process of its own, up to ``workers`` at a time: a run whose
    process ends abruptly (``os._exit``, a crash, a signal) fails alone, saying how it
    ended.  ``announce``: tell ``prog`` that each run starts (not when it was told before)."""
    out = []
    pending = list(todo)
    live: dict = {}                     # future -> (spec, key, pool, its process)
    try:
        while pending or live:
            while pending and len(live) < max(1, workers):
                spec, key = pending.pop(0)
                limits = ranker_limits() if spec.task == USER_RANKER_TASK else None
                pool = _new_pool(1, limits)
                ref = task_ref(tasks(spec.paper, spec.task))
                fut = pool.submit(compute, spec, ref, str(data_dir))
                deadline = (time.monotonic() + limits.seconds + LIMIT_GRACE
                            if limits else float("inf"))
                live[fut] = (spec, key, pool, list((pool._processes or {}).values()), limits,
                             deadline)
                if announce:
                    prog.start(spec.label)
            done, _ = wait(list(live), return_when=FIRST_COMPLETED,
                           timeout=max(0.1, min(v[5] for v in live.values()) - time.monotonic())
                           if any(v[5] < float("inf") for v in live.values()) else None)
            for fut, (spec, key, pool, procs, limits, deadline) in list(live.items()):
                if fut not in done and time.monotonic() > deadline:   # the alarm was dodged
                    for p in procs:
                        p.kill()
                    done.add(fut)
            for fut in done:
                spec, key, pool, procs, limits, _ = live.pop(fut)
                try:
                    res = fut.result()
                except BrokenProcessPool:
                    how = _ended(procs)
                    if limits and any(p.exitcode in (-signal.SIGALRM, -signal.SIGKILL)
                                      for p in procs) and (
                            "SIGALRM" in how or time.monotonic() >= deadline):
                        why = limits.describe_timeout()
                    else:
                        why = (f"its process ended abruptly ({how}): a task must return its "
                               f"output (not call os._exit, crash or be killed)")
                    res = RunResult(spec, "failed", why=why)
                pool.shutdown(wait=True)
                out.append(finish(res, key))
    except BaseException:
        for _, _, pool, *_ in live.values():
            _stop_pool(pool)
        raise
    return out


def _client(scheduler: str):
    """A client of the scheduler, or a clear error if it does not answer in time."""
    if distributed is None:
        raise ReproError("--scheduler needs Dask: pip install -e '.[cluster]'")
    timeout = scheduler_timeout()
    try:
        return distributed.Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ReproError(
            f"cannot reach the Dask scheduler at {scheduler} (--scheduler or "
            f"REPRO_SCHEDULER) within {timeout:g} s: {type(exc).__name__}: {exc}. Is "
            f"`dask scheduler` running there? (REPRO_SCHEDULER_TIMEOUT sets the wait); "
            f"nothing was run") from None


def run_dask(feed: Feed, tasks, data_dir: Path, scheduler: str, jobs: int,
             prog: RunProgress, finish) -> list[RunResult]:
    """Runs on the cluster at ``scheduler``, taken from ``feed`` in a window of twice the
    cluster's worker threads (at least ``jobs``) and topped up as runs finish, so the
    scheduler never holds every run of a large command at once (and a run added to the feed
    meanwhile starts soon)."""
    out = []
    data_dir = str(Path(data_dir).resolve())
    with _client(scheduler) as client:
        threads = sum((client.nthreads() or {}).values())
        window = max(1, 2 * threads, jobs)
        futures = {}
        running = distributed.as_completed()

        def submit_next() -> bool:
            if not feed:
                return False
            spec, key = feed.pop()
            fn = tasks(spec.paper, spec.task)
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
                out.append(finish(res, key))
                while len(futures) < window and submit_next():
                    pass
        except BaseException:
            client.cancel(list(futures))
            raise
    return out
