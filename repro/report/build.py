"""Writing an artifact's outputs from values already assembled (:mod:`repro.judge.assemble`):
``reports/<paper>/<artifact>.json`` (flat records, reproduced beside published), the per-query
sidecar ``<artifact>.per-query.json.gz``, its figures (SVG), ``<artifact>.meta.json`` (what the
report page needs besides the records: title, notes, data used, seeds) and
``<artifact>.runs.json`` (run times and finishing times from the cache entries: the sidecar
pages link to but never show, so that records, meta files and pages are byte-identical across
runs).  Nothing here computes a value.

Timing artifacts (``Artifact.timing``: their values are measured times) are written to
``reports/<paper>/timing/`` with their own page, apart from the reproduced values.

Before an artifact's records replace the ones on disk, :func:`record_changes` compares them
(:mod:`repro.report.changes`) and updates ``reports/<paper>/changes.json``, which the paper page
lists; the meta file names the commit it was rendered from (``provenance``), so that the next
rendering can say what changed since which commit."""
from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

from .. import papers as registry
from ..files import atomic_write_bytes, atomic_write_json, write_if_changed
from ..run.provenance import source_state
from ..evidence import SIDECAR_SUFFIX, encode_sidecar
from ..spec import Artifact
from ..papers.plotting import note_of, plt, style
from ..judge.noise import why as noise_why
from ..judge.published import PublishedSet
from ..files import jsonable
from ..run.result import RunResult
from . import changes


TIMING_DIR = "timing"


def artifact_dir(out_root: Path, art: Artifact) -> Path:
    """Where an artifact's files go: ``<out>/<paper>/``, or ``<out>/<paper>/timing/`` for
    timing artifacts."""
    base = Path(out_root) / art.paper
    return base / TIMING_DIR if art.timing else base


def shows_published(fig) -> bool:
    """Whether a figure draws published values: an artist with gid "published" (a figure
    module marks the artists it draws from published numbers, e.g. ``ax.plot(...,
    gid="published")`` in dubey2009's figures)."""
    return any(a.get_gid() == "published" for ax in fig.axes
               for a in [*ax.lines, *ax.collections, *ax.patches, *ax.texts])


def save_figure(fig, path: Path, tight: bool = True) -> bool:
    """Deterministic SVG (fixed hash salt, no creation date), in the suite's style; cut to
    what is drawn (``tight``) or at the figure's own size; written only if its bytes changed
    (whether they did)."""
    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format="svg", metadata={"Date": None},
                    bbox_inches="tight" if tight else None)
    plt.close(fig)
    return write_if_changed(path, buf.getvalue())


def write_artifact(art: Artifact, flat: list[dict], tables: list[dict], datasets: list[dict],
                   results: list[RunResult], published: PublishedSet, out_dir: Path,
                   quick: bool) -> None:
    """Write the artifact's JSON, its per-query sidecar (where its values have query tables),
    meta and figures, from values already assembled (:mod:`repro.judge.assemble`).  Where
    ``out_dir`` holds a previous rendering, what changed is recorded first
    (:func:`record_changes`)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    record_changes(out_dir, art, flat)       # what moved since the rendering on disk, first
    atomic_write_json(out_dir / f"{art.name}.json", flat)
    write_sidecar(out_dir, art, tables)

    figures, overlaid, notes = [], [], {}
    if art.shown.figure and any(r.status == "done" for r in results):
        fn = registry.figure(art.paper, art.shown.figure)
        with style():
            drawn = fn(art, {r.spec: r for r in results}, flat, published)
        for suffix, fig in (drawn or {}).items():
            name = f"{art.name}{'-' + suffix if suffix else ''}.svg"
            if shows_published(fig):
                overlaid.append(name)
            if note_of(fig):               # the page prints it as the figure's caption
                notes[name] = note_of(fig)
            save_figure(fig, out_dir / name)
            figures.append(name)

    meta = {
        "paper": art.paper, "artifact": art.name, "title": art.title, "kind": art.kind,
        "description": art.shown.description, "choices": list(art.shown.choices), "quick": quick,
        "methods": list(art.shown.methods), "metrics": list(art.shown.metrics),
        "datasets": datasets, "figures": figures,
        "figures_with_published": overlaid,
        **({"figure_notes": notes} if notes else {}),
        "params": jsonable(art.effective(quick).layout.params),
        "noise": noise_why(art.effective(quick)),      # why a verdict allows the noise it does
        "runs": [{"run": r.spec.label, "status": r.status, "why": r.why, "seed": r.spec.seed,
                  **user_choice(r)} for r in results],
        "implemented": art.task is not None, "timing": art.timing,
        "not_run": art.not_run if art.task is None else "",
        "runs_file": f"{art.name}.runs.json",
        "provenance": rendering_commit(),
    }
    opts = command_options(art, datasets)
    if opts:                        # only pages made with them: other meta files unchanged
        meta["options"] = opts
    atomic_write_json(out_dir / f"{art.name}.meta.json", meta)
    # Run times and finishing times come from the cache entries (when each value was
    # computed, not when this command ran): a rerun from the cache rewrites the same bytes.
    atomic_write_json(out_dir / f"{art.name}.runs.json", {
        "artifact": art.id,
        "runs": [{"run": r.spec.label, "status": r.status, "seconds": r.seconds,
                  "finished": r.finished, **({"blas": r.blas} if r.blas else {})}
                 for r in results]})


def command_options(art: Artifact, datasets: list[dict]) -> list[str]:
    """The command-line options an artifact was run with, as its page's commands repeat
    them: ``--on NAME --dataset NAME=PATH`` (a user's data set), ``--ranker LABEL=module:Class
    [:json]`` (a user's ranker), ``--allow-unverified NAME`` (an unverified copy)."""
    opts = [f"--on {ds} --dataset {ds}=PATH" for ds in art.layout.like]
    for rr in art.layout.rankers:
        p = rr.params or {}
        spec = f"{p.get('label', rr.label)}={p.get('class', 'module:Class')}"
        params = {**(p.get("params") or {}), **({"param_grid": p["param_grid"]}
                                                if p.get("param_grid") else {})}
        if params:
            spec += ":" + json.dumps(params, sort_keys=True, separators=(",", ":"))
        opts.append(f"--ranker {shlex.quote(spec)}")
    for d in datasets:
        if str(d.get("mark") or "").startswith("unverified copy"):
            opts.append(f"--allow-unverified {d['dataset']}")
    return opts


def user_choice(r: RunResult) -> dict:
    """``{"chosen": parameters}`` of a user's ranker's run (``--ranker``: the candidate its
    validation selection picked), else nothing."""
    if "ranker" in r.spec.params and r.output and r.output.get("chosen") is not None:
        return {"chosen": r.output["chosen"]}
    return {}


def recorded_run_seconds(out_root: Path) -> dict[str, float]:
    """Run label → seconds, from every ``*.runs.json`` under ``out_root`` (the run times of
    the last rendering; the longest where a run appears more than once).  Unreadable files
    are skipped: these are only hints for the order in which runs are started."""
    out: dict[str, float] = {}
    for path in Path(out_root).glob("**/*.runs.json"):
        try:
            runs = json.loads(path.read_text(encoding="utf-8")).get("runs", [])
            for r in runs:
                s = r.get("seconds")
                if isinstance(s, (int, float)) and s > out.get(r["run"], -1.0):
                    out[r["run"]] = float(s)
        except (OSError, ValueError, AttributeError, KeyError, TypeError):
            continue
    return out


def rendering_commit() -> dict:
    """The commit a rendering names (the last commit outside the rendered reports, so that a
    rerun after committing the reports names the same one): {"commit", "short", "date"}."""
    st = source_state()
    return {"commit": st.get("commit"), "short": st.get("short"), "date": st.get("date")}


def record_changes(out_dir: Path, art: Artifact, flat: list[dict]) -> bool:
    """Before ``<out_dir>/<artifact>.json`` is replaced by ``flat``: record in
    ``<out_dir>/changes.json`` the values and verdicts that moved since that rendering
    (:func:`repro.report.changes.record`; nothing for timing artifacts, whose values are
    measured times, or where there is no previous rendering).  Whether the file changed."""
    if art.timing:
        return False
    return changes.record(Path(out_dir), art.name, flat, art.paper,
                          now=rendering_commit().get("short"))


def write_sidecar(out_dir: Path, art: Artifact, tables: list[dict]) -> Path:
    """``<artifact>.per-query.json.gz``: the query tables behind the artifact's values
    (removed when it has none, so that no stale sidecar outlives its values)."""
    path = out_dir / f"{art.name}{SIDECAR_SUFFIX}"
    if tables:
        atomic_write_bytes(path, encode_sidecar(art.id, tables))
    else:
        path.unlink(missing_ok=True)
    return path


def read_artifact(out_dir: Path, name: str) -> tuple[list[dict], dict] | None:
    """The flat records and meta of an artifact written to ``out_dir`` (None if absent)."""
    try:
        flat = json.loads((out_dir / f"{name}.json").read_text())
        meta = json.loads((out_dir / f"{name}.meta.json").read_text())
    except (OSError, ValueError):
        return None
    return flat, meta
