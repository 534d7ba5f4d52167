"""The makespan of a run command's runs on wider machines, from the run times its report
directory records (each artifact's ``<name>.runs.json``): printed at the end of every run
command, and stored in ``<out>/runs.json`` when the command built every artifact (``all``) —
a command on some targets never writes it, so it never leaves a committed report directory
describing a part of the suite.  The scheduling is :mod:`repro.run.schedule`'s.
"""
from __future__ import annotations

import json
from pathlib import Path

from .. import papers as registry
from ..files import write_if_changed
from ..report.build import artifact_dir
from ..pipeline.extend import RANK_DECIDING, RANK_OTHER, RANK_SECOND, can_ask, every_extension
from ..run.schedule import CORES, RecordedRun, makespans, run_jobs, summary_lines
from ..spec import Artifact

#: the file of the report directory root holding the makespans of the whole suite
MAKESPAN_FILE = "runs.json"


def recorded_runs(targets: list[Artifact], out_root: Path,
                  quick: bool = False) -> tuple[list[RecordedRun], int]:
    """Each distinct run of ``targets`` (a run that several artifacts declare once) with the
    time its artifact's runs file records, its rank in the pool and the runs it waited for,
    and how many runs have no recorded time (not run, failed, or a runs file missing or of
    other runs).  A second stage's runs (:mod:`repro.pipeline.extend`) follow the first
    stage's in the file; they waited for the first stage of the artifacts that may ask for
    them (:func:`~repro.pipeline.extend.can_ask`: one in this suite; with several, for all)."""
    runs: dict[str, list] = {}                 # identity -> [label, seconds, excl, rank, after]
    labels: dict[str, int] = {}

    def entry(spec, rec: dict) -> list:
        key = json.dumps(spec.identity, sort_keys=True)
        seconds = rec.get("seconds") if rec.get("status") == "done" else None
        if not isinstance(seconds, (int, float)):
            seconds = None
        if key not in runs:
            n = labels[spec.label] = labels.get(spec.label, 0) + 1
            label = spec.label if n == 1 else f"{spec.label} [{n}]"   # same label, other params
            runs[key] = [label, seconds, spec.exclusive, RANK_OTHER, set()]
        run = runs[key]
        run[1] = run[1] if run[1] is not None else seconds
        run[2] = run[2] or spec.exclusive
        return run

    for art in targets:
        specs = art.runs(quick)
        path = artifact_dir(out_root, art) / f"{art.name}.runs.json"
        try:
            recs = json.loads(path.read_text(encoding="utf-8"))["runs"]
        except (OSError, ValueError, KeyError, TypeError):
            recs = []
        got = [r.get("run") for r in recs if isinstance(r, dict)]
        more = {s.label: s for s in every_extension(art, quick)}     # a second stage's runs
        extra = [more.get(label) for label in got[len(specs):]]
        if got[:len(specs)] != [s.label for s in specs] or None in extra:
            recs, extra = [{}] * len(specs), []     # another run's file: no times from it
        first = [entry(spec, rec) for spec, rec in zip(specs, recs)]
        second = [entry(spec, rec) for spec, rec in zip(extra, recs[len(specs):])]
        if can_ask(art, quick):
            for run in first:
                run[3] = min(run[3], RANK_DECIDING)
            for run in second:
                run[4] |= {r[0] for r in first}
        for run in second:
            run[3] = RANK_SECOND
    timed = [RecordedRun(label, float(s), x, rank, tuple(sorted(after)))
             for label, s, x, rank, after in runs.values() if s is not None]
    return timed, len(runs) - len(timed)


def whole_suite(targets: list[Artifact]) -> bool:
    """Whether ``targets`` are every artifact of every paper, as declared (``all``)."""
    every = {a.id: a for p in registry.paper_ids() for a in registry.artifacts(p)}
    return {a.id for a in targets} == set(every) and all(every[a.id] is a for a in targets)


def report_makespan(targets: list[Artifact], out_root: Path, quick: bool = False,
                    log=print) -> dict | None:
    """Compute the makespans of the targets' runs on :data:`~repro.run.schedule.CORES` from
    the recorded run times, print them, and write ``<out_root>/runs.json`` when the targets are
    the whole suite (only when its bytes change).  None when no run has a recorded time."""
    runs, untimed = recorded_runs(targets, out_root, quick)
    if not runs:
        return None
    result = makespans(run_jobs(runs), CORES)
    for line in summary_lines(result):
        log(line)
    if untimed:
        log(f"  ({untimed} run(s) without a recorded time left out: not run — data missing —, "
            f"failed, or recorded by another command)")
    if whole_suite(targets):
        body = {"what": "the makespan of every run of the suite on wider machines: list "
                        "scheduling (among the ready runs, a second stage's first, then the first "
                        "stage of the artifacts that may ask for one, longest first; a "
                        "replicate design's second stage after the first-stage runs of the "
                        "artifact that asked for it; the timing runs alone, after the others) "
                        "of the run times recorded in the artifacts' *.runs.json, and the "
                        "lower bound max(work / cores, longest chain)",
                "quick": bool(quick), "runs_without_time": untimed,
                **_rounded(result)}
        write_if_changed(Path(out_root) / MAKESPAN_FILE,
                         (json.dumps(body, indent=1, ensure_ascii=False) + "\n").encode())
    return result


def _rounded(obj):
    if isinstance(obj, float):
        return round(obj, 1)
    if isinstance(obj, dict):
        return {k: _rounded(v) for k, v in obj.items()}
    return obj
