"""From run results to an artifact's outputs: ``reports/<paper>/<artifact>.json`` (flat
records, reproduced beside published), its figures (SVG), ``<artifact>.meta.json`` (what the
report page needs besides the records: title, notes, data used, seeds) and
``<artifact>.runs.json`` (run times, cache hits, finishing times: the sidecar pages link to but
never show, so that records, meta files and pages are byte-identical across runs).

Timing artifacts (``Artifact.timing``: their values are measured times) are written to
``reports/<paper>/timing/`` with their own page, apart from the reproduced values."""
from __future__ import annotations

import io
import json
import re
from datetime import datetime, timezone
from pathlib import Path

from .. import aggregate, reference
from .. import papers as registry
from ..cache import atomic_write_bytes, atomic_write_json
from ..data import catalog as cat
from ..experiment import REFERENCE_TASK, Artifact, matches
from ..plotting import plt, style
from ..published import KEY_FIELDS, PublishedSet, compare
from ..runner import SYNTHETIC, RunResult, jsonable


def natural_key(value) -> tuple:
    """Sort key ordering "selected_2" before "selected_10" and "fold 9" before "avg"."""
    text = "" if value is None else str(value)
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t)
                 for t in re.split(r"(\d+)", text) if t != "")


def dataset_label(art: Artifact, dataset: str) -> str:
    return art.stand_ins.get(dataset, dataset)


def gather_records(art: Artifact, results: list[RunResult],
                   unavailable: dict[str, str] | None = None) -> tuple[list[dict], dict]:
    """Records of this artifact from its runs — with its declared aggregations applied, then
    its ``select`` filter — and why values are missing per dataset label.  ``unavailable``:
    dataset → why its data cannot be used (for artifacts not implemented yet)."""
    records, not_run = [], {}
    # An artifact may declare a dataset and a stand-in for it: the real data wins, and the
    # stand-in's records are used only while the original has not been run.
    real_done = {res.spec.dataset for res in results
                 if res.status == "done" and res.spec.dataset not in art.stand_ins}
    outputs = []
    for res in sorted(results, key=lambda r: r.spec.dataset in art.stand_ins):
        label = dataset_label(art, res.spec.dataset)
        stand_in = res.spec.dataset in art.stand_ins
        if res.spec.task == REFERENCE_TASK and res.status != "done":
            records.append({"dataset": label, "method": reference.METHOD, "metric": None,
                            "fold": None if res.spec.fold is None else str(res.spec.fold),
                            "value": None, "modern": True, "not_run": True,
                            "why": res.why if res.status == "not run" else f"failed: {res.why}"})
            continue
        if stand_in and label in real_done:
            continue
        if res.status != "done":
            if not (stand_in and label in not_run):      # keep the original's reason
                not_run[label] = res.why if res.status == "not run" else f"failed: {res.why}"
            continue
        if stand_in:
            not_run.pop(label, None)
        if res.spec.task == art.task:           # custom aggregations see the artifact's task
            outputs.append((res.spec, res.output))
        for r in res.output.get("records", []):
            r = dict(r)
            r.setdefault("dataset", label)
            if r.get("fold") is None and res.spec.fold is not None:
                r["fold"] = str(res.spec.fold)
            if stand_in:
                r["data_used"] = res.spec.dataset
                r["stand_in"] = True
            records.append(r)
    pos = {r.spec: i for i, r in enumerate(results)}
    outputs.sort(key=lambda o: pos[o[0]])                 # declaration order
    records, agg_not_run = aggregate.apply(art, records, outputs, registry.aggregation)
    for label, why in agg_not_run.items():
        not_run.setdefault(label, why)
    out = []
    not_method = {k: v for k, v in art.select.items() if k != "method"}
    for r in records:
        r["artifact"] = art.name
        if matches(art.select, r) or (r.get("modern") and (r.get("not_run")
                                                           or matches(not_method, r))):
            out.append(r)
    if art.task is None:
        reason = art.not_run or "not implemented yet"
        not_run[None] = reason
        for ds in art.datasets:
            why = (unavailable or {}).get(ds)
            not_run[dataset_label(art, ds)] = reason + (f"; {why}" if why and not art.not_run
                                                        else "")
    return out, not_run


TIMING_DIR = "timing"


def artifact_dir(out_root: Path, art: Artifact) -> Path:
    """Where an artifact's files go: ``<out>/<paper>/``, or ``<out>/<paper>/timing/`` for
    timing artifacts."""
    base = Path(out_root) / art.paper
    return base / TIMING_DIR if art.timing else base


def shows_published(fig) -> bool:
    """Whether a figure draws published values: an artist with gid "published" (see
    :func:`repro.plotting.mark_published`)."""
    return any(a.get_gid() == "published" for ax in fig.axes
               for a in [*ax.lines, *ax.collections, *ax.patches, *ax.texts])


def save_figure(fig, path: Path) -> None:
    """Deterministic SVG (fixed hash salt, no creation date), in the suite's style."""
    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    atomic_write_bytes(path, buf.getvalue())
    plt.close(fig)


def build_artifact(art: Artifact, results: list[RunResult], published: PublishedSet,
                   out_dir: Path, quick: bool,
                   unavailable: dict[str, str] | None = None) -> list[dict]:
    """Write the artifact's JSON, meta and figures; return its flat records."""
    records, not_run = gather_records(art, results, unavailable)
    if quick:
        not_run.setdefault(None, "outside the --quick subset (reduced folds and grid)")
    flat = jsonable(compare(art.paper, art.name, records, published, not_run))
    shown = {r.get("dataset") for r in flat}
    for label, why in not_run.items():      # a dataset not run and without published values
        if label is not None and label not in shown:
            flat.append({"paper": art.paper, "artifact": art.name, "dataset": label,
                         "method": None, "metric": None, "fold": None, "value": None,
                         "published": None, "diff": None, "verdict": f"not run: {why}",
                         "source": None})
    flat.sort(key=lambda r: tuple(natural_key(r.get(k)) for k in KEY_FIELDS))
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_json(out_dir / f"{art.name}.json", flat)

    figures, overlaid = [], []
    if art.figure and any(r.status == "done" for r in results):
        fn = registry.figure(art.paper, art.figure)
        with style():
            drawn = fn(art, {r.spec: r for r in results}, flat, published)
        for suffix, fig in (drawn or {}).items():
            name = f"{art.name}{'-' + suffix if suffix else ''}.svg"
            if shows_published(fig):
                overlaid.append(name)
            save_figure(fig, out_dir / name)
            figures.append(name)

    meta = {
        "paper": art.paper, "artifact": art.name, "title": art.title, "kind": art.kind,
        "description": art.description, "choices": list(art.choices), "quick": quick,
        "methods": list(art.methods), "metrics": list(art.metrics),
        "datasets": datasets_used(art, results, not_run), "figures": figures,
        "figures_with_published": overlaid,
        "params": jsonable(art.effective(quick).params),
        "runs": [{"run": r.spec.label, "status": r.status, "why": r.why, "seed": r.spec.seed}
                 for r in results],
        "implemented": art.task is not None, "timing": art.timing,
        "runs_file": f"{art.name}.runs.json",
    }
    atomic_write_json(out_dir / f"{art.name}.meta.json", meta)
    atomic_write_json(out_dir / f"{art.name}.runs.json", {
        "artifact": art.id, "written": _now(),
        "runs": [{"run": r.spec.label, "status": r.status, "seconds": r.seconds,
                  "cached": r.cached, "finished": r.finished} for r in results]})
    return flat


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def datasets_used(art: Artifact, results: list[RunResult], not_run: dict) -> list[dict]:
    """Per declared dataset: whether its values are on the page ("used"), and if not why —
    a stand-in is named only where its runs were used."""
    done = {r.spec.dataset for r in results if r.status == "done"}
    out = []
    for ds in art.datasets:
        label = dataset_label(art, ds)
        entry = {"dataset": "synthetic" if ds == SYNTHETIC else ds,
                 "title": None if ds == SYNTHETIC else cat.dataset(ds).title,
                 "stand_in_for": art.stand_ins.get(ds)}
        real_done = label in done and ds in art.stand_ins
        if ds in done and not real_done:
            entry["status"] = "used"
        elif real_done:                   # the stand-in was not needed: not listed as "not run"
            entry["status"] = "superseded"
            entry["why"] = "the paper's own data was used"
            entry["stand_in_for"] = None
        else:
            entry["status"] = "not run"
            failed = [r.why if r.status == "not run" else f"failed: {r.why}"
                      for r in results if r.spec.dataset == ds and r.status != "done"]
            entry["why"] = ((failed[0] if failed else None) or not_run.get(label)
                            or not_run.get(None) or "not run")
            entry["stand_in_for"] = None
        out.append(entry)
    return out


def read_artifact(out_dir: Path, name: str) -> tuple[list[dict], dict] | None:
    """The flat records and meta of an artifact written to ``out_dir`` (None if absent)."""
    try:
        flat = json.loads((out_dir / f"{name}.json").read_text())
        meta = json.loads((out_dir / f"{name}.meta.json").read_text())
    except (OSError, ValueError):
        return None
    return flat, meta
