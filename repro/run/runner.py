"""Executing runs: availability checks, the run cache (:mod:`.cache`) and a backend
(:mod:`.backends`: in process, a local process pool, a Dask distributed cluster).

Only this process writes the cache, atomically, when a run finishes — failures and runs
without data are never cached — so an interrupted invocation resumes where it stopped.
Specs that share a cache key run once.  A caller may add runs decided on finished ones
(``follow``: a replicate design's second stage, :mod:`repro.pipeline.extend`): they join the
same pool as soon as they are known.  Timing runs (``exclusive``) execute here, alone, after
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
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from ..data import shipped
from ..data.catalog import SYNTHETIC, allowed_unverified, data_state
from ..errors import DataCorrupt, DataMissing, ReproError
from ..spec import USER_RANKER_TASK, RunSpec, seed_salt
from .backends import (MAX_JOBS_PER_CPU, Feed, pool_size, run_dask, run_here,
                       run_isolated, run_pool)
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

    def run(self, specs: list[RunSpec], follow=None, rank=None) -> dict[RunSpec, RunResult]:
        """The result of every spec (and of every run ``follow`` adds).

        ``follow(results) -> specs``: called with the results so far (keyed by the specs as
        given) once the cached ones are known and after every finished run; the runs it
        returns are added to this command's (pooled ones start as soon as a worker is free,
        before the runs of a higher ``rank``).  ``rank(spec) -> int``: the pool starts the
        runs of a lower rank first, longest expected first within a rank (default: one rank).
        """
        cpus = os.cpu_count() or 1
        if not self.scheduler and self.jobs > cpus:      # said whether or not anything runs
            self.log(f"warning: --jobs {self.jobs} is more than this machine's {cpus} "
                     f"CPU(s): the pool starts at most {MAX_JOBS_PER_CPU} worker processes "
                     f"per CPU and no more than the runs to pool; workers beyond the CPUs "
                     f"compete for them")
        batch = _Batch(self, follow)
        todo = batch.add(specs)
        todo += batch.followed()
        if todo:
            self._execute(todo, batch, rank)
        return batch.answers()

    def _shipped(self, spec: RunSpec) -> RunSpec:
        """``spec`` carrying the registration of the user set it runs on (its identity then
        carries the set's content digest and split: :mod:`repro.data.shipped`), or the
        ``--allow-unverified`` of its catalogued set, and the seed salt in effect, so that any
        worker resolves the set, reads it and draws its seeds as this process would; other
        specs unchanged.  A set whose files cannot be
        read is left to :meth:`_prepare` to report."""
        if spec.dataset in allowed_unverified() and not spec.allow_unverified:
            spec = replace(spec, allow_unverified=True)
        if spec.seed_salt is None and seed_salt():       # the salt travels with the run
            spec = replace(spec, seed_salt=seed_salt())
        if spec.user_set is not None or spec.dataset == SYNTHETIC:
            return spec
        try:
            text = shipped.for_run(spec.dataset, self.data_dir)
        except DataMissing:
            return spec
        return spec if text is None else replace(spec, user_set=text)

    def _execute(self, todo: list[tuple[RunSpec, str]], batch: "_Batch", rank) -> None:
        """Run ``todo`` (and what ``batch``'s follow-up adds) on the backend, the timing runs
        here, alone, after the others."""
        feeds = {"pooled": Feed(rank, self.expected), "users": Feed(rank, self.expected),
                 "alone": Feed(None, {})}

        def dispatch(items) -> None:
            for spec, key in items:
                kind = ("alone" if spec.exclusive else
                        "users" if spec.task == USER_RANKER_TASK and not self.scheduler else
                        "pooled")
                feeds[kind].add([(spec, key)])

        dispatch(todo)
        n_pooled = len(feeds["pooled"])
        workers = pool_size(self.jobs, n_pooled) if n_pooled else 1
        where = (f" on the Dask cluster {self.scheduler}" if self.scheduler else
                 f" on {workers} processes" if self.jobs > 1 and workers > 1 else "")
        self.log(f"running {len(todo)} run(s){where}")
        with RunProgress(len(todo), workers, live=self.progress, expected=self.expected,
                         labels=[s.label for s, _ in todo]) as prog:
            def finish(res: RunResult, key: str) -> RunResult:
                res.key = key
                self.cache.store(res)
                prog.finish(res.spec.label, res.status, res.seconds, res.why)
                batch.done(res)
                more = batch.followed()
                if more:
                    prog.add([s.label for s, _ in more])
                    dispatch(more)
                return res

            pooled, users, alone = feeds["pooled"], feeds["users"], feeds["alone"]
            while pooled or users or alone:
                if pooled and self.scheduler:
                    run_dask(pooled, self.tasks, self.data_dir, self.scheduler, self.jobs,
                             prog, finish)
                elif pooled and workers == 1:
                    run_here(pooled, self.tasks, self.data_dir, self.threads, prog, finish)
                elif pooled:
                    run_pool(pooled, self.tasks, self.data_dir, workers, prog, finish)
                elif users:
                    run_isolated(users.drain(), self.tasks, self.data_dir,
                                 pool_size(self.jobs, len(users)), prog, finish)
                else:
                    run_here(alone, self.tasks, self.data_dir, self.threads, prog, finish)


class _Batch:
    """The specs of one :meth:`Runner.run` call: each resolved once (cached, not available,
    or to run under its cache key — specs sharing a key run once), their results, and the
    follow-up runs that ``follow`` adds as results arrive."""

    def __init__(self, runner: Runner, follow):
        self.runner, self.follow = runner, follow
        self.asked: dict[RunSpec, RunSpec] = {}         # spec as given -> spec as run
        self.results: dict[RunSpec, RunResult] = {}     # by spec as run
        self.same_key: dict[str, list[RunSpec]] = {}    # key -> specs as run, to execute
        self.queued: set[RunSpec] = set()               # specs as run, under a key above

    def add(self, specs) -> list[tuple[RunSpec, str]]:
        """Resolve ``specs`` (in order; those already known skipped); the runs to execute,
        ``(spec, key)``, one per new cache key, timed alone if any spec of it asks to be."""
        fresh: list[str] = []
        for spec in specs:
            if spec in self.asked:
                continue
            run = self.runner._shipped(spec)
            self.asked[spec] = run
            if run in self.results or run in self.queued:
                continue
            self.queued.add(run)
            res, key = self.runner._prepare(run)
            if res is not None:
                self.results[run] = res
            elif key in self.same_key:
                self.same_key[key].append(run)
                done = self.results.get(self.same_key[key][0])
                if done is not None:         # its key's run has finished already
                    self.results[run] = replace(done, spec=run)
            else:
                self.same_key[key] = [run]
                fresh.append(key)
        todo = [(next((s for s in self.same_key[k] if s.exclusive), self.same_key[k][0]), k)
                for k in fresh]
        return todo

    def done(self, res: RunResult) -> None:
        """Record a finished run under every spec of its key."""
        for spec in self.same_key.get(res.key, [res.spec]):
            self.results[spec] = res if spec == res.spec else replace(res, spec=spec)

    def followed(self) -> list[tuple[RunSpec, str]]:
        """The runs ``follow`` adds on the results so far (until it adds none that is new)."""
        todo: list[tuple[RunSpec, str]] = []
        while self.follow is not None:
            new = [s for s in self.follow(_Answers(self)) if s not in self.asked]
            if not new:
                break
            todo += self.add(new)
        return todo

    def answer(self, spec: RunSpec) -> RunResult:
        """The result of ``spec`` as given (KeyError: none yet)."""
        res = self.results[self.asked[spec]]
        return res if res.spec == spec else replace(res, spec=spec)

    def answers(self) -> dict[RunSpec, RunResult]:
        """Every result, by spec as given."""
        return {s: self.answer(s) for s in self.asked}


class _Answers(Mapping):
    """The results known so far, by spec as given, read without copying them all (``follow``
    sees them after every finished run)."""

    def __init__(self, batch: _Batch):
        self.batch = batch

    def __getitem__(self, spec: RunSpec) -> RunResult:
        return self.batch.answer(spec)

    def __contains__(self, spec) -> bool:
        run = self.batch.asked.get(spec)
        return run is not None and run in self.batch.results

    def __iter__(self):
        return (s for s in self.batch.asked if s in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)
