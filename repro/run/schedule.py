"""The makespan of a set of runs on a machine with more cores, computed from their measured
times: list scheduling, longest processing time first among the runs whose dependencies have
finished (the order the runner's pool starts them in), beside two bounds.

* lower bound: no schedule on ``m`` cores finishes before ``max(W / m, L)`` — ``W`` the total
  work (the runs' seconds added up), ``L`` the longest chain of dependent runs;
* greedy bound (Graham 1969): every list schedule finishes by ``W / m + (1 − 1/m) · L``.

Runs of the suite depend on nothing but a replicate design's decision: the runs a second
stage adds start when the first-stage runs of the artifact that asked for them are done (it is
decided on their values: :mod:`repro.pipeline.extend`), and the timing runs
(``RunSpec.exclusive``), which the runner executes alone after every other run
(:mod:`repro.run.runner`), form a chain after all the others: :func:`run_jobs`.  Among the
ready runs the pool starts those of the lowest rank first (the runner's order: a second
stage's runs, then the first stage of the artifacts that may ask for one, then the others),
longest first within a rank.
Pure arithmetic on numbers given: nothing here reads a file or a clock.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass

#: the machine widths a run command reports its makespan for
CORES = (4, 8, 16, 64)


@dataclass(frozen=True)
class Job:
    """One run: its name, measured seconds, the names of the runs that must finish first and
    its rank (lower ranks start first among the ready jobs)."""
    name: str
    seconds: float
    after: tuple[str, ...] = ()
    rank: int = 0


@dataclass(frozen=True)
class RecordedRun:
    """A run as a run log records it: its name and measured seconds; ``exclusive``: a timing
    run (alone, after the others); ``rank``: the pool's order; ``after``: the runs whose
    results decided that it runs (a second stage's: its artifact's first stage)."""
    name: str
    seconds: float
    exclusive: bool = False
    rank: int = 0
    after: tuple[str, ...] = ()


def _check(jobs: list[Job], cores: int) -> dict[str, Job]:
    if int(cores) < 1:
        raise ValueError(f"cores: expected an integer ≥ 1, got {cores!r}")
    by_name: dict[str, Job] = {}
    for j in jobs:
        if j.name in by_name:
            raise ValueError(f"job {j.name!r} given twice")
        if not (j.seconds >= 0) or j.seconds == float("inf"):
            raise ValueError(f"job {j.name!r}: seconds must be a finite number ≥ 0, "
                             f"got {j.seconds!r}")
        by_name[j.name] = j
    for j in jobs:
        unknown = [a for a in j.after if a not in by_name]
        if unknown:
            raise ValueError(f"job {j.name!r} depends on unknown job(s) {unknown}")
    return by_name


def _order(jobs: list[Job]) -> list[Job]:
    """The jobs in an order where every job comes after its dependencies (a cycle: error)."""
    by_name = {j.name: j for j in jobs}
    state: dict[str, int] = {}
    out: list[Job] = []
    for root in jobs:
        stack = [(root.name, iter(root.after))]
        if state.get(root.name):
            continue
        state[root.name] = 1
        while stack:
            name, deps = stack[-1]
            dep = next(deps, None)
            if dep is None:
                stack.pop()
                state[name] = 2
                out.append(by_name[name])
            elif state.get(dep) == 1:
                raise ValueError(f"jobs depend on each other in a cycle (through {dep!r})")
            elif not state.get(dep):
                state[dep] = 1
                stack.append((dep, iter(by_name[dep].after)))
    return out


def longest_chain(jobs: list[Job]) -> float:
    """The seconds of the longest chain of dependent jobs (the critical path)."""
    _check(jobs, 1)
    finish: dict[str, float] = {}
    for j in _order(jobs):
        finish[j.name] = j.seconds + max((finish[a] for a in j.after), default=0.0)
    return max(finish.values(), default=0.0)


def list_schedule(jobs: list[Job], cores: int) -> float:
    """The makespan of list scheduling on ``cores``: whenever a core is free it starts, of the
    jobs whose dependencies have all finished, the longest of the lowest rank (ties: the
    first given)."""
    by_name = _check(jobs, cores)
    _order(jobs)                                   # refuses a cycle
    index = {j.name: i for i, j in enumerate(jobs)}
    waiting = {j.name: len(set(j.after)) for j in jobs}
    needed_by: dict[str, list[str]] = {}
    for j in jobs:
        for a in set(j.after):
            needed_by.setdefault(a, []).append(j.name)
    ready = [(j.rank, -j.seconds, index[j.name]) for j in jobs if not waiting[j.name]]
    heapq.heapify(ready)
    running: list[tuple[float, int]] = []          # (finish time, job index)
    now, free, end = 0.0, int(cores), 0.0
    while ready or running:
        while ready and free:
            *_, i = heapq.heappop(ready)
            heapq.heappush(running, (now + jobs[i].seconds, i))
            free -= 1
        now, i = heapq.heappop(running)
        finished = [i]
        while running and running[0][0] == now:    # everything finishing now, then start
            finished.append(heapq.heappop(running)[1])
        free += len(finished)
        end = max(end, now)
        for i in finished:
            for name in needed_by.get(jobs[i].name, ()):
                waiting[name] -= 1
                if not waiting[name]:
                    job = by_name[name]
                    heapq.heappush(ready, (job.rank, -job.seconds, index[name]))
    return end


def lower_bound(jobs: list[Job], cores: int) -> float:
    """``max(total work / cores, longest chain)``: no schedule on ``cores`` is shorter."""
    _check(jobs, cores)
    return max(sum(j.seconds for j in jobs) / int(cores), longest_chain(jobs))


def greedy_bound(jobs: list[Job], cores: int) -> float:
    """``W / m + (1 − 1/m) · L`` (Graham): no list schedule on ``m`` cores is longer."""
    _check(jobs, cores)
    m = int(cores)
    return sum(j.seconds for j in jobs) / m + (1 - 1 / m) * longest_chain(jobs)


def run_jobs(runs: list[RecordedRun]) -> list[Job]:
    """Jobs of the recorded runs: the pooled runs after the runs they name (``after``: those
    not recorded are left out), in their rank; the exclusive (timing) runs one after another
    after every pooled run, in the order given — so each runs alone, as the runner executes
    them."""
    pooled = [r for r in runs if not r.exclusive]
    names = {r.name for r in pooled}
    out = [Job(r.name, float(r.seconds), tuple(a for a in r.after if a in names), r.rank)
           for r in pooled]
    prev = tuple(j.name for j in out)
    for r in runs:
        if r.exclusive:
            out.append(Job(r.name, float(r.seconds), prev))
            prev = (r.name,)
    return out


def makespans(jobs: list[Job], cores=CORES) -> dict:
    """The list-scheduling makespan and the lower bound on each width of ``cores``, with the
    work, the longest chain and the longest job, in seconds."""
    longest = max(jobs, key=lambda j: j.seconds, default=None)
    return {
        "runs": len(jobs),
        "work_seconds": sum(j.seconds for j in jobs),
        "longest_chain_seconds": longest_chain(jobs),
        "longest_run": {"run": longest.name, "seconds": longest.seconds} if longest else None,
        "cores": {str(m): {"makespan_seconds": list_schedule(jobs, m),
                           "lower_bound_seconds": lower_bound(jobs, m)} for m in cores},
    }


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}"


def summary_lines(result: dict) -> list[str]:
    """:func:`makespans`' result in words, one line per machine width."""
    lr = result["longest_run"]
    head = (f"makespan from the recorded run times ({result['runs']} runs, "
            f"{result['work_seconds'] / 60:.1f} CPU-minutes, longest chain "
            f"{_clock(result['longest_chain_seconds'])}"
            + (f", longest run {lr['seconds']:.0f} s: {lr['run']}" if lr else "") + "):")
    return [head] + [f"  {m:>3} cores: {_clock(c['makespan_seconds'])} by list scheduling, "
                     f"at least {_clock(c['lower_bound_seconds'])}"
                     for m, c in result["cores"].items()]
