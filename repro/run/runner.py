"""Executing runs: availability checks, the run cache (:mod:`.cache`) and a backend
(:mod:`.backends`: in process, a local process pool, a Dask distributed cluster).

Only this process writes the cache, atomically, when a run finishes — failures and runs
without data are never cached — so an interrupted invocation resumes where it stopped.
Specs that share a cache key run once.  Timing runs (``exclusive``) execute here, alone, after
the others, so that no concurrent run disturbs what they measure.  A user's ranker
(``--ranker``) runs in a process of its own (outside a Dask cluster), whatever ``--jobs`` says:
nothing it does — ``sys.exit``, ``os._exit``, a crash, ``os.chdir`` — ends or moves the
command; such a run fails alone, saying how.

A dataset whose files fail their checksum is refused: its runs are "not run: corrupt …"
(``RunResult.refused``), the others complete.

The runner knows no paper: it is handed ``tasks(paper, name) -> function`` (the paper
registry's resolver) by its caller; workers import the task by module and name.
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from ..data import shipped
from ..data.catalog import SYNTHETIC, allowed_unverified, data_state
from ..errors import DataCorrupt, DataMissing, ReproError
from ..spec import USER_RANKER_TASK, RunSpec
from .backends import (MAX_JOBS_PER_CPU, pool_size, run_dask, run_here, run_isolated,
                       run_pool)
from .cache import RunCache, TaskResolver
from .progress import RunProgress
from .result import RunResult

__all__ = ["Runner", "RunResult"]


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
        self.cache = RunCache(self.data_dir, tasks, log)
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

    def _prepare(self, spec: RunSpec) -> tuple[RunResult | None, str]:
        """A result without executing (not available, cached, cache-only), or the key."""
        try:
            ok, why = data_state(spec.dataset, self.data_dir)
            if not ok:
                return RunResult(spec, "not run", why=why,
                                 refused=why.startswith("data corrupt")), ""
            key = self.cache.key(spec)
        except DataCorrupt as exc:
            return RunResult(spec, "not run", why=f"corrupt: {exc}", refused=True), ""
        hit = None if self.force else self.cache.lookup(spec, key)
        if hit is not None:
            return hit, key
        if self.cache_only:
            return RunResult(spec, "not run",
                             why="no cached result (run it without --report-only)"), key
        return None, key

    def run(self, specs: list[RunSpec]) -> dict[RunSpec, RunResult]:
        cpus = os.cpu_count() or 1
        if not self.scheduler and self.jobs > cpus:      # said whether or not anything runs
            self.log(f"warning: --jobs {self.jobs} is more than this machine's {cpus} "
                     f"CPU(s): the pool starts at most {MAX_JOBS_PER_CPU} worker processes "
                     f"per CPU and no more than the runs to pool; workers beyond the CPUs "
                     f"compete for them")
        asked = {s: self._shipped(s) for s in specs}     # unique, in declaration order
        results: dict[RunSpec, RunResult] = {}
        todo: list[tuple[RunSpec, str]] = []
        same_key: dict[str, list[RunSpec]] = {}    # specs sharing a cache key run once
        for spec in dict.fromkeys(asked.values()):
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
            for res in self._execute(todo):
                for spec in same_key[res.key]:
                    results[spec] = res if spec == res.spec else replace(res, spec=spec)
        return {s: results[t] if s == t else replace(results[t], spec=s)
                for s, t in asked.items()}

    def _shipped(self, spec: RunSpec) -> RunSpec:
        """``spec`` carrying the registration of the user set it runs on (its identity then
        carries the set's content digest and split: :mod:`repro.data.shipped`), or the
        ``--allow-unverified`` of its catalogued set, so that any worker resolves the set and
        reads it as this process would; other specs unchanged.  A set whose files cannot be
        read is left to :meth:`_prepare` to report."""
        if spec.dataset in allowed_unverified() and not spec.allow_unverified:
            spec = replace(spec, allow_unverified=True)
        if spec.user_set is not None or spec.dataset == SYNTHETIC:
            return spec
        try:
            text = shipped.for_run(spec.dataset, self.data_dir)
        except DataMissing:
            return spec
        return spec if text is None else replace(spec, user_set=text)

    def _execute(self, todo: list[tuple[RunSpec, str]]) -> list[RunResult]:
        """Run ``todo`` on the backend, the timing runs here, alone, after the others."""
        pooled = sorted(((s, k) for s, k in todo if not s.exclusive),
                        key=lambda sk: -self.expected.get(sk[0].label, float("inf")))
        alone = [(s, k) for s, k in todo if s.exclusive]
        users = [] if self.scheduler else [sk for sk in pooled if sk[0].task == USER_RANKER_TASK]
        pooled = [sk for sk in pooled if sk not in users]
        workers = pool_size(self.jobs, len(pooled)) if pooled else 1
        where = (f" on the Dask cluster {self.scheduler}" if self.scheduler else
                 f" on {workers} processes" if self.jobs > 1 and workers > 1 else "")
        self.log(f"running {len(todo)} run(s){where}")
        with RunProgress(len(todo), workers, live=self.progress, expected=self.expected,
                         labels=[s.label for s, _ in todo]) as prog:
            def finish(res: RunResult, key: str) -> RunResult:
                res.key = key
                self.cache.store(res)
                prog.finish(res.spec.label, res.status, res.seconds, res.why)
                return res

            if not pooled:
                done = []
            elif self.scheduler:
                done = run_dask(pooled, self.tasks, self.data_dir, self.scheduler, self.jobs,
                                prog, finish)
            elif workers == 1:
                done = run_here(pooled, self.tasks, self.data_dir, self.threads, prog, finish)
            else:
                done = run_pool(pooled, self.tasks, self.data_dir, workers, prog, finish)
            if users:
                done += run_isolated(users, self.tasks, self.data_dir,
                                     pool_size(self.jobs, len(users)), prog, finish)
            done += run_here(alone, self.tasks, self.data_dir, self.threads, prog, finish)
        return done
