"""Step 2, execute: the runs of the plan, by one of two paths over the same task resolver
and cache —

* :func:`execute`: the runner (:class:`repro.run.runner.Runner`: cache lookup, process pool
  or Dask, progress display), for the reports;
* :func:`execute_with_sink`: one run in this process with a score sink
  (:mod:`repro.evidence.run_files`) collecting every test scoring it evaluates, for the
  ``runs`` command (the cache holds no document scores); its per-query tables are compared
  with the cached run's, or cached where there was none.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .. import papers as registry
from ..data import catalog as cat
from ..data.queries import QueryData
from ..evidence import run_files
from ..report.build import recorded_run_seconds
from ..run.backends import compute
from ..run.cache import RunCache
from ..run.result import RunResult
from ..run.runner import Runner
from ..spec import RunSpec
from .options import Options
from .staging import PACKAGE_REPORTS


def tasks(paper: str, name: str):
    """The task resolver of runs: the paper registry's (a user's ranker's task included)."""
    return registry.task(paper, name)


def execute(specs: list[RunSpec], opts: Options, follow=None, rank=None
            ) -> dict[RunSpec, RunResult]:
    """Every run of ``specs`` (and of ``follow``'s, in the order of ``rank``:
    :meth:`Runner.run`) through the runner; the estimate of the time left reads the run
    times recorded in the report directory, else in the committed reports (a fresh
    ``--out``)."""
    runner = Runner(opts.data_dir, tasks, jobs=opts.jobs, force=opts.force,
                    cache_only=opts.report_only, log=opts.log, scheduler=opts.scheduler,
                    progress=opts.progress, threads=opts.threads,
                    expected={**recorded_run_seconds(PACKAGE_REPORTS),
                              **recorded_run_seconds(opts.out_root)})
    return runner.run(specs, follow=follow, rank=rank)


#: how a run executed with the sink compares with the cached one
CACHE_STATES = {"same": "equal to the cached run's (the values the report was built from)",
                "differs": "DIFFER from the cached run's: the report's values came from another "
                           "execution (another machine or code); these files describe this one",
                "new": "new (no cached run before; cached now)"}


def _canonical(tables) -> str:
    return json.dumps(tables, sort_keys=True, separators=(",", ":"))


def execute_with_sink(spec: RunSpec, root: Path, cache: RunCache, log=print, threads: int = 1
                      ) -> tuple[RunResult, list[run_files.Scoring], str]:
    """Run ``spec`` here with a score sink; its result, the scorings offered, and how its
    per-query tables compare with the cached run's ("same", "differs", "new": not cached
    before, now cached)."""
    ok, why = cat.data_state(spec.dataset, root)
    if not ok:
        return RunResult(spec, "not run", why=why, refused=why.startswith("data corrupt")), \
            [], ""
    log(f"running {spec.label} with the score sink")
    with run_files.collecting() as sink:
        res = compute(spec, tasks(spec.paper, spec.task), str(root), log=log, threads=threads)
    if res.status != "done":
        return res, [], ""
    key = cache.key(spec)
    hit = cache.lookup(spec, key)
    if hit is None:
        res.key = key
        cache.store(res)
        state = "new"
    else:
        fresh = json.loads(json.dumps(res.output.get("per_query", [])))
        state = ("same" if _canonical(fresh) == _canonical(hit.output.get("per_query", []))
                 else "differs")
    log(f"  done in {res.seconds:.1f} s: {len(sink.scorings)} scoring(s) offered; per-query "
        f"values {CACHE_STATES[state]}")
    light: dict[int, QueryData] = {}            # the documents without their features
    for s in sink.scorings:
        d = s.data
        if id(d) not in light:
            light[id(d)] = QueryData(np.zeros((d.n_docs, 0)), d.y, d.query_ptr, d.qids,
                                     d.docids, d.source, d.line_no)
        s.data = light[id(d)]
    return res, sink.scorings, state
