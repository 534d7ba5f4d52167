"""Run artifacts end to end: execute their runs, build their JSON and figures, render pages.

A command writes only the artifacts it was asked for, their papers' pages, the index and their
PDFs; the other artifacts' files are never written, rewritten or removed (a paper's page
shows the artifacts whose files the directory holds).  It lists every file it wrote and every
one it left unchanged.

An artifact is built into a temporary staging directory and moved into place only
when it keeps every value the report already had: a run that would replace a computed value
with "not run" (data missing, an empty cache with ``--report-only``) or replace a full run's
files with a ``--quick`` one keeps the artifact's files as they were and says so
(``Outcome.kept``), unless ``allow_downgrade``.  Files are written only when their bytes
change, so a rerun from the cache leaves the report directory (and a checkout's ``git
status``) untouched.  Runs that failed are counted (``Outcome.failed``) and shown in the
report.  The benchmarks page is written by ``python -m repro bench`` alone.
"""
from __future__ import annotations

import json
import shutil
from collections import Counter
from dataclasses import replace
from pathlib import Path

from .. import papers as registry
from ..judge import published as pubmod
from ..judge.assemble import assemble_artifact
from ..files import os_reason, write_if_changed
from ..data import catalog as cat
from ..data.catalog import data_state
from ..errors import ReproError
from ..spec import Artifact
from ..evidence.record import cell
from ..judge.published import PublishedSet
from ..report.build import (artifact_dir, read_artifact, record_changes, recorded_run_seconds,
                            user_choice, write_artifact)
from ..report.index import render_index
from ..report.pages import render_paper
from ..report.pdf import PdfQueue
from ..report.terminal import compact_table
from ..run.runner import Runner, RunResult
from .guards import PACKAGE_REPORTS, staging_dir


def _drop_moved(paper_dir: Path, name: str) -> None:
    """Timing artifacts live in ``<paper>/timing/``: remove what an older version wrote for
    them beside the reproduced values (so the paper's counts and page never include them)."""
    for path in [paper_dir / f"{name}.json", paper_dir / f"{name}.meta.json",
                 *paper_dir.glob(f"{name}.svg"), *paper_dir.glob(f"{name}-*.svg")]:
        path.unlink(missing_ok=True)


def owned_files(out_dir: Path, name: str) -> list[Path]:
    """The files of artifact ``name`` in ``out_dir``: records, meta, run times, per-query
    sidecar (``<name>.per-query.json.gz``) and figures."""
    return sorted(p for p in out_dir.glob(f"{name}*") if p.is_file() and (
        p.name in (f"{name}.json", f"{name}.meta.json", f"{name}.runs.json",
                   f"{name}.per-query.json.gz", f"{name}.svg")
        or (p.name.startswith(f"{name}-") and p.suffix == ".svg")))


def computed_counts(flat: list[dict]) -> Counter:
    """How many computed values (value not null) each key (artifact, dataset, method, metric,
    fold) has."""
    return Counter(cell(r) for r in flat
                   if r.get("value") is not None)


def lost_values(old: list[dict], new: list[dict]) -> list[str]:
    """Values computed in ``old`` that ``new`` no longer has (not run, or gone), described."""
    before, after = computed_counts(old), computed_counts(new)
    why = {cell(r): r.get("reason") or r.get("verdict", "")
           for r in new if r.get("value") is None}
    out = []
    for key, n in before.items():
        if after.get(key, 0) < n:
            _, ds, method, metric, fold = key
            label = " / ".join(str(x) for x in (ds, method, metric) if x is not None)
            label += f", fold {fold}" if fold is not None else ""
            out.append(f"{label}: {why.get(key) or 'no longer produced'}")
    return out


def _quick_view(art: Artifact, quick: bool) -> Artifact:
    """Under ``--quick``, an artifact that shows only fold means (``select`` fold "avg") of
    folds the quick subset does not all run shows its per-fold values instead of nothing
    (the page says the values are outside the --quick subset)."""
    if not quick or art.select.get("fold") != "avg":
        return art
    eff = art.effective(True)
    if all(eff.folds_for(ds) == art.folds_for(ds) for ds in art.datasets):
        return art
    return replace(art, select={k: v for k, v in art.select.items() if k != "fold"})


def _runs_of(path: Path) -> list | None:
    """``(run, status)`` of each run in a ``<name>.runs.json`` (None if unreadable)."""
    try:
        return [(r["run"], r["status"]) for r in json.loads(path.read_text())["runs"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _promote(stage: Path, out_dir: Path, name: str) -> list[tuple[Path, bool]]:
    """Move a staged artifact into place: changed files rewritten (atomically), unchanged
    ones untouched, files of the artifact the new build no longer writes removed.  Where the
    records are unchanged and the same runs finished, ``<name>.runs.json`` keeps the times of
    the runs that produced them (a recomputation on another checkout or cache, which gives
    the same values, does not rewrite a committed file for its clock alone).  ``(file,
    whether it was written)`` of each of the artifact's files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = []
    new = {p.name: p for p in owned_files(stage, name)}
    records, runs = f"{name}.json", f"{name}.runs.json"
    same_values = records in new and (out_dir / records).is_file() and \
        (out_dir / records).read_bytes() == new[records].read_bytes()
    for fname, src in new.items():
        if fname == runs and same_values and _runs_of(out_dir / fname) is not None \
                and _runs_of(out_dir / fname) == _runs_of(src):
            files.append((out_dir / fname, False))
            continue
        files.append((out_dir / fname, write_if_changed(out_dir / fname, src.read_bytes())))
    for old in owned_files(out_dir, name):
        if old.name not in new:
            old.unlink()
    return files


def file_lines(files: list[tuple[Path, bool]], out_root: Path) -> list[str]:
    """What the command did to each report file, one line per folder and outcome:
    ``wrote DIR/: a, b`` and ``unchanged DIR/: c`` (bytes as they were)."""
    groups: dict[tuple[str, Path], list[str]] = {}
    for path, changed in dict(files).items():
        groups.setdefault(("wrote" if changed else "unchanged", path.parent), []).append(path.name)
    return [f"{what:9s} {folder}/: {', '.join(names)}"
            for (what, folder), names in sorted(groups.items(), key=lambda kv: (kv[0][0] != "wrote",
                                                                                str(kv[0][1])))]


def tasks(paper: str, name: str):
    """The task resolver of runs: the paper registry's (a user's ranker's task included)."""
    return registry.task(paper, name)


def on_dataset(art: Artifact, name: str) -> Artifact:
    """``--on NAME``: the artifact's protocol (its task, methods, selection, evaluation,
    aggregations) on the user's set ``NAME`` in place of the artifact's LETOR dataset, over
    the user set's folds (an artifact of several LETOR sets runs once, with the first one's
    settings).  The task learns which dataset the set stands for from
    ``ctx.like`` (its per-dataset settings)."""
    if art.task is None or art.timing:
        raise ReproError(f"--on {name}: {art.id} " + ("is not implemented" if art.task is None
                         else "measures times on synthetic data") + "; choose an artifact "
                         "that runs a protocol on LETOR data")
    letor = [ds for ds in art.datasets
             if ds != cat.SYNTHETIC and cat.dataset(ds).kind == "letor"]
    if not letor:
        raise ReproError(f"--on {name}: {art.id} runs on {', '.join(art.datasets)}, not on a "
                         f"LETOR set; choose an artifact whose protocol runs on LETOR data")
    like = letor[0]               # several (e.g. MQ2008 and OHSUMED): the first one's settings
    info = cat.dataset(name)
    folds = art.folds_for(like)
    if all(isinstance(f, int) for f in folds):
        folds = tuple(range(1, info.n_folds + 1))
    quick = dict(art.quick)
    if "folds" in quick:
        qf = quick["folds"]
        qf = tuple(qf.get(like, qf.get("*", (None,)))) if isinstance(qf, dict) else tuple(qf)
        if all(isinstance(f, int) for f in qf):
            qf = tuple(f for f in qf if f <= info.n_folds) or (1,)
        quick["folds"] = qf
    return replace(art, datasets=(name,), stand_ins={}, folds=folds, quick=quick,
                   like={name: like},
                   title=f"{art.title} — protocol run on user data: {name} (unverified), "
                         f"in place of {like}")


def without_published(published, names) -> "pubmod.PublishedSet":
    """The published set without the values of artifacts ``names`` (run on a user's data:
    nothing published to compare with)."""
    return replace(published, values=[v for v in published.values if v.artifact not in names])


def data_marks(art: Artifact, data_dir: Path, results) -> dict[str, str]:
    """What the values of each dataset the artifact ran on must say (user data, an unverified
    copy; "" for verified data)."""
    done = {r.spec.dataset for r in results if r.status == "done"}
    return {ds: cat.data_mark(ds, data_dir) for ds in art.datasets
            if ds in done or (ds != cat.SYNTHETIC and cat.dataset(ds).user)}


class Outcome(dict):
    """The flat records of each target artifact (``{artifact id: records}``), the runs whose
    data was refused (``refused``: run label → why), the runs that failed (``failed``: run
    label → why) and the artifacts whose report was kept because the new build would have
    lost computed values or replaced a full run with a ``--quick`` one (``kept``: artifact
    id → the values, described)."""

    def __init__(self):
        super().__init__()
        self.refused: dict[str, str] = {}
        self.failed: dict[str, str] = {}
        self.kept: dict[str, list[str]] = {}


def quick_over_full(old_meta: dict | None, quick: bool) -> list[str]:
    """Why a ``--quick`` build must not replace the files of a full run (none otherwise)."""
    if not quick or not old_meta or old_meta.get("quick", False):
        return []
    return ["the report holds a full run; --quick (small grids and folds) would replace it "
            "(--quick writes to reports-quick/ unless --out is given)"]


def run_artifacts(targets: list[Artifact], data_dir: Path, out_root: Path, quick: bool = False,
                  jobs: int = 1, force: bool = False, report_only: bool = False,
                  pdf: bool = True, log=print, scheduler: str | None = None,
                  progress: bool | None = None, allow_downgrade: bool = False,
                  only_targets: bool = False, threads: int | None = None) -> Outcome:
    """Run ``targets`` and write their reports, their papers' pages and the index (the other
    artifacts' files are left as they are, or absent).  ``only_targets``: build the targets alone — a run on a user's
    data (``--on``), whose targets replace the paper's datasets and have no published values
    to compare with."""
    out_root = Path(out_root)
    runner = Runner(data_dir, tasks, jobs=jobs, force=force, cache_only=report_only,
                    log=log, scheduler=scheduler, progress=progress, threads=threads,
                    expected={**recorded_run_seconds(PACKAGE_REPORTS),   # a fresh --out
                              **recorded_run_seconds(out_root)})
    specs = [s for a in targets for s in a.runs(quick)]
    results = runner.run(specs)
    target_ids = {a.id for a in targets}
    by_id = {a.id: a for a in targets}
    out = Outcome()
    try:
        out_root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _write_error(exc, out_root) from None
    # Outside the report directory: nothing of it is ever seen there, even after a SIGKILL
    # (the next command removes what a killed one left: repro.cli.guards).
    staging = staging_dir()
    # each page's PDF is rendered on the --jobs processes while the next pages are built
    # (weasyprint takes most of a rendering)
    pdfs = PdfQueue(jobs if not scheduler else 1)
    pages = 0
    files: list[tuple[Path, bool]] = []       # (report file, whether it was written)
    try:
        for paper in dict.fromkeys(a.paper for a in targets):
            written = False                  # an artifact of the paper was written
            mod = registry.module(paper)
            published = pubmod.load(paper, getattr(mod, "PUBLISHED_PATH", None))
            arts = mod.ARTIFACTS
            if only_targets:
                arts = [a for a in targets if a.paper == paper]
                published = without_published(published, {a.name for a in arts})
            for art in arts:
                art = by_id.get(art.id, art)         # a target as given (--ranker, --on)
                out_dir = artifact_dir(out_root, art)
                if art.id not in target_ids:
                    continue                         # not asked for: its files stay as they are
                if art.timing:
                    _drop_moved(out_root / paper, art.name)
                rs = [results[s] for s in art.runs(quick)]
                out.refused.update({r.spec.label: r.why for r in rs if r.refused})
                out.failed.update({r.spec.label: r.why for r in rs if r.status == "failed"})
                unavailable = {} if art.task else {
                    ds: why for ds in art.datasets for ok, why in [data_state(ds, data_dir)]
                    if not ok}
                stage = staging / art.paper / art.name
                flat = build_artifact(_quick_view(art, quick), rs, published, stage, quick,
                                      unavailable, data_marks(art, data_dir, rs))
                old = read_artifact(out_dir, art.name)
                computed, where = flat, str(out_dir / f"{art.name}.json")
                lost = (lost_values(old[0], flat) + quick_over_full(old[1], quick)
                        if old is not None else [])
                if lost and not allow_downgrade:
                    out.kept[art.id] = lost
                    log(f"{art.id}: kept the report's files: this run would replace "
                        f"{len(lost)} computed value(s) with 'not run' or a full run "
                        f"with --quick ({out_dir / (art.name + '.json')} unchanged)")
                    flat = old[0]
                    where += " — not written: the files were kept"
                else:
                    record_changes(out_dir, art, flat)     # before the JSON is replaced
                    files += _promote(stage, out_dir, art.name)
                    written = True
                out[art.id] = flat
                # what this run computed, whether or not its files were written
                log(compact_table(art.id, art.title, computed, where))
                for r in rs:
                    if user_choice(r):
                        log(f"  {r.spec.label}: chosen on validation: "
                            f"{user_choice(r)['chosen']}")
            if not written and (out_root / paper / "index.html").is_file():
                continue          # every target kept its files: the page, its PDF stay too
            render_paper(mod, out_root, list(getattr(mod, "NOTES", ())), pdf=pdf, log=log,
                         pdf_later=pdfs, written=files)
            pages += 1
        if pages or not (out_root / "index.html").is_file():
            render_index([registry.module(p) for p in registry.paper_ids()], out_root,
                         pdf=pdf, log=log, pdf_later=pdfs, written=files)
        files += pdfs.finish(log)
        for line in file_lines(files, out_root):
            log(line)
    except OSError as exc:
        raise _write_error(exc, out_root) from None
    finally:
        pdfs.stop()                 # nothing left running after a failure or an interruption
        shutil.rmtree(staging, ignore_errors=True)
    return out


def _write_error(exc: OSError, out_root: Path) -> ReproError:
    """A clear error for a report directory that cannot be written (read-only, full disk):
    every file is written atomically, so what was there before is still there, whole."""
    what = os_reason(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    return ReproError(f"could not write the reports in {out_root}{where}: {what}. Files already "
                      f"there were kept as they were (each is replaced whole or not at all); "
                      f"finished runs are cached. Free space or choose another directory with "
                      f"--out DIR, then rerun")


def build_artifact(art: Artifact, results: list[RunResult], published: PublishedSet,
                   out_dir: Path, quick: bool,
                   unavailable: dict[str, str] | None = None,
                   marks: dict[str, str] | None = None) -> list[dict]:
    """Assemble the artifact and write its files (JSON, per-query sidecar, meta, figures);
    return its flat records."""
    got = assemble_artifact(art, results, published, quick, unavailable, marks,
                            aggregation=registry.aggregation)
    write_artifact(art, got.flat, got.tables, got.datasets, results, published, out_dir, quick)
    return got.flat
