"""Run artifacts end to end: execute their runs, build their JSON and figures, render pages.

Every artifact of a touched paper is rebuilt so that its page is complete: the targets from
fresh or cached runs, the others from the cache only — and where the cache lacks their runs
but their JSON already exists (e.g. committed reports on a fresh clone), those files are kept.
"""
from __future__ import annotations

import json
from pathlib import Path

from . import papers as registry
from . import published as pubmod
from .experiment import Artifact
from .data.catalog import data_state
from .report.build import artifact_dir, build_artifact, read_artifact
from .report.html import render_benchmarks, render_index, render_paper
from .report.terminal import compact_table
from .runner import Runner


def _drop_moved(paper_dir: Path, name: str) -> None:
    """Timing artifacts live in ``<paper>/timing/``: remove what an older version wrote for
    them beside the reproduced values (so the paper's counts and page never include them)."""
    for path in [paper_dir / f"{name}.json", paper_dir / f"{name}.meta.json",
                 *paper_dir.glob(f"{name}.svg"), *paper_dir.glob(f"{name}-*.svg")]:
        path.unlink(missing_ok=True)


class Outcome(dict):
    """The flat records of each target artifact (``{artifact id: records}``), and the runs
    whose data was refused (``refused``: run label → why)."""

    def __init__(self):
        super().__init__()
        self.refused: dict[str, str] = {}


def run_artifacts(targets: list[Artifact], data_dir: Path, out_root: Path, quick: bool = False,
                  jobs: int = 1, force: bool = False, report_only: bool = False,
                  pdf: bool = True, log=print, scheduler: str | None = None,
                  progress: bool | None = None) -> Outcome:
    runner = Runner(data_dir, registry.task, jobs=jobs, force=force, cache_only=report_only,
                    log=log, scheduler=scheduler, progress=progress)
    specs = [s for a in targets for s in a.runs(quick)]
    results = runner.run(specs)
    cache_runner = Runner(data_dir, registry.task, cache_only=True, log=lambda *a, **k: None)
    target_ids = {a.id for a in targets}
    out = Outcome()

    for paper in dict.fromkeys(a.paper for a in targets):
        mod = registry.module(paper)
        published = pubmod.load(paper, getattr(mod, "PUBLISHED_PATH", None))
        for art in mod.ARTIFACTS:
            out_dir = artifact_dir(out_root, art)
            if art.timing:
                _drop_moved(out_root / paper, art.name)
            art_specs = art.runs(quick)
            if art.id in target_ids:
                rs = [results[s] for s in art_specs]
            else:
                rs = list(cache_runner.run(art_specs).values())
                uncached = any(r.why.startswith("no cached result") for r in rs)
                if uncached and read_artifact(out_dir, art.name) is not None:
                    continue
            out.refused.update({r.spec.label: r.why for r in rs if r.refused})
            unavailable = {} if art.task else {
                ds: why for ds in art.datasets for ok, why in [data_state(ds, data_dir)] if not ok}
            flat = build_artifact(art, rs, published, out_dir, quick, unavailable)
            if art.id in target_ids:
                out[art.id] = flat
                log(compact_table(art.id, art.title, flat, str(out_dir / f"{art.name}.json")))
        page = render_paper(mod, out_root, list(getattr(mod, "NOTES", ())), pdf=pdf, log=log)
        log(f"wrote {page}" + (f" and {page.parent / (paper + '.pdf')}" if pdf else ""))
    rerender_benchmarks(out_root)
    render_index([registry.module(p) for p in registry.paper_ids()], out_root)
    return out


def rerender_benchmarks(out_root: Path) -> None:
    """The benchmarks page follows the current renderer too (from its ``benchmarks.json``,
    whose measurements ``python -m repro bench`` alone writes)."""
    path = Path(out_root) / "benchmarks.json"
    try:
        results = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    render_benchmarks(results, path.with_suffix(".html"))
