"""The pipeline's steps in order: plan, execute, stage, promote, render.

A command writes only the artifacts it was asked for, their papers' pages, the index and their
PDFs; the other artifacts' files are never written, rewritten or removed (a paper's page shows
the artifacts whose files the directory holds).  It lists every file it wrote and every one it
left unchanged.  Runs that failed are counted (``Outcome.failed``) and shown in the report;
artifacts whose files were kept by the downgrade policy (:mod:`.promote`) are listed
(``Outcome.kept``).  The benchmarks page is written by ``python -m repro bench`` alone.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from .. import papers as registry
from ..errors import ReproError
from ..files import os_reason
from ..report.build import artifact_dir, user_choice, write_artifact
from ..report.terminal import compact_table
from ..run.backends import iter_in_processes
from ..run.result import RunResult
from ..spec import Artifact
from .execute import execute
from .extend import SecondStage, designed, runs_of, summary
from .options import Options
from .outcome import Outcome
from .plan import quick_view, run_specs
from .promote import drop_moved, settle
from .render import file_lines, pdf_queue, render_page, render_the_index
from .stage import assemble, published_values
from .staging import staging_dir


@dataclass
class Build:
    """One pipeline run in progress: its options, the runs' results, the staging directory,
    the outcome so far and every report file written or left unchanged (``(path, whether it
    was written)``); ``second``: the second stage (:mod:`.extend`: the run groups it extended,
    the artifacts it judged)."""
    opts: Options
    results: dict
    staging: Path
    second: SecondStage
    out: Outcome = field(default_factory=Outcome)
    files: list[tuple[Path, bool]] = field(default_factory=list)


def run_artifacts(targets: list[Artifact], opts: Options) -> Outcome:
    """Run ``targets`` and write their reports, their papers' pages and the index (the other
    artifacts' files are left as they are, or absent).  ``opts.only_targets``: build the
    targets alone — a run on a user's data (``--on``), whose targets replace the paper's
    datasets and have no published values to compare with."""
    results, second = execute_in_stages(targets, opts)
    try:
        opts.out_root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise write_error(exc, opts.out_root) from None
    build = Build(opts, results, staging_dir(), second)
    plan = build_plan(targets, opts)
    pdfs = pdf_queue(opts)
    staged = stage_in_processes([a for _, arts in plan for a in arts], build)
    pages = 0
    try:
        for paper, arts in plan:
            written = False
            for art in arts:
                written |= build_one(art, next(staged), build)
            if not written and (opts.out_root / paper / "index.html").is_file():
                continue          # every target kept its files: the page, its PDF stay too
            render_page(paper, opts, pdfs, build.files)
            pages += 1
        if pages or not (opts.out_root / "index.html").is_file():
            render_the_index(opts, pdfs, build.files)
        build.files += pdfs.finish(opts.log)
        for line in file_lines(build.files, opts.out_root):
            opts.log(line)
    except OSError as exc:
        raise write_error(exc, opts.out_root) from None
    finally:
        staged.close()              # the staging processes stop with a failure, too
        pdfs.stop()                 # nothing left running after a failure or an interruption
        shutil.rmtree(build.staging, ignore_errors=True)
    return build.out


def execute_in_stages(targets: list[Artifact], opts: Options) -> tuple[dict, SecondStage]:
    """The runs of ``targets``, with the second stage of the replicate design decided artifact
    by artifact as their first stages finish (:class:`.extend.SecondStage`: its runs join the
    pool at once, ahead of the others); the timing runs alone, last.  Returns the results and
    the second stage (its extended run groups, its judgments)."""
    stage = SecondStage(targets, opts, lambda paper: published_values(paper, targets, opts))
    results = execute(run_specs(targets, opts.quick), opts, follow=stage.follow,
                      rank=stage.rank)
    if any(designed(a, opts.quick) for a in targets):
        for line in summary(stage.asked, stage.extended):
            opts.log(line)
    return results, stage


def build_plan(targets: list[Artifact], opts: Options) -> list[tuple[str, list[Artifact]]]:
    """The papers of ``targets`` in order, each with its target artifacts in the paper's
    order (as given: ``--ranker``, ``--on``)."""
    by_id = {a.id: a for a in targets}
    plan = []
    for paper in dict.fromkeys(a.paper for a in targets):
        arts = (registry.module(paper).ARTIFACTS if not opts.only_targets else
                [a for a in targets if a.paper == paper])
        plan.append((paper, [by_id[a.id] for a in arts if a.id in by_id]))
    return plan


#: what the forked staging processes read (:func:`stage_in_processes`): the build, the
#: artifacts by id, each paper's published values once loaded
_FORKED: dict = {}


def _results_of(art: Artifact, build: Build) -> list[RunResult]:
    return [build.results[s] for s in runs_of(art, build.opts.quick, build.second.extended)]


def _stage_job(art_id: str) -> list[dict]:
    """Judge one artifact from its runs and write its files in the staging directory; its
    flat records (in any process: module-level, the pool calls it)."""
    build, by_id, published = _FORKED["build"], _FORKED["by_id"], _FORKED["published"]
    art, opts = by_id[art_id], build.opts
    if art.paper not in published:
        published[art.paper] = published_values(art.paper, list(by_id.values()), opts)
    rs = _results_of(art, build)
    got = build.second.reusable(art)           # judged already on these very runs
    if got is None:
        got = assemble(art, rs, published[art.paper], opts)
    write_artifact(quick_view(art, opts.quick), got.flat, got.tables, got.datasets, rs,
                   published[art.paper], build.staging / art.paper / art.name, opts.quick)
    return got.flat


def stage_in_processes(arts: list[Artifact], build: Build):
    """Each artifact judged and written in the staging directory (:func:`_stage_job`), on the
    ``--jobs`` processes (forked, so that they read this process's results; one when runs
    went to a cluster), its flat records yielded in the order of ``arts`` as each is done
    while the processes go on with the next: judging is pure — its resampling seeds come from
    what is resampled, not from an order — and the figures' bytes depend on their values, so
    the files are those one process writes one after the other.  ``close()`` stops them."""
    jobs = build.opts.jobs if not build.opts.scheduler else 1
    _FORKED.update(build=build, by_id={a.id: a for a in arts}, published={})
    try:
        yield from iter_in_processes(_stage_job, [a.id for a in arts], jobs)
    finally:
        _FORKED.clear()


def build_one(art: Artifact, computed: list[dict], build: Build) -> bool:
    """Promote one staged artifact (its ``computed`` flat records) by the downgrade policy and
    say what it computed; whether its files were written."""
    opts, out = build.opts, build.out
    rs = _results_of(art, build)
    out_dir = artifact_dir(opts.out_root, art)
    if art.timing:
        drop_moved(opts.out_root / art.paper, art.name)
    out.refused.update({r.spec.label: r.why for r in rs if r.refused})
    out.failed.update({r.spec.label: r.why for r in rs if r.status == "failed"})
    stage = build.staging / art.paper / art.name
    flat, lost, promoted = settle(art, computed, stage, out_dir, opts.quick,
                                  opts.allow_downgrade, opts.log)
    where = str(out_dir / f"{art.name}.json")
    if lost:
        out.kept[art.id] = lost
        where += " — not written: the files were kept"
    build.files += promoted
    out[art.id] = flat
    # what this run computed, whether or not its files were written
    opts.log(compact_table(art.id, art.title, computed, where))
    for r in rs:
        if user_choice(r):
            opts.log(f"  {r.spec.label}: chosen on validation: {user_choice(r)['chosen']}")
    return not lost


def write_error(exc: OSError, out_root: Path) -> ReproError:
    """A clear error for a report directory that cannot be written (read-only, full disk):
    every file is written atomically, so what was there before is still there, whole."""
    what = os_reason(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    return ReproError(f"could not write the reports in {out_root}{where}: {what}. Files already "
                      f"there were kept as they were (each is replaced whole or not at all); "
                      f"finished runs are cached. Free space or choose another directory with "
                      f"--out DIR, then rerun")
