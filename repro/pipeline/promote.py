"""Step 4, promote: the downgrade policy and the move of a staged artifact into the report.

A staged artifact is moved into place only when it keeps every value the report already had:
a build that would replace a computed value with "not run" (data missing, an empty cache with
``--report-only``) or replace a full run's files with a ``--quick`` one keeps the artifact's
files as they were and says so, unless downgrades are allowed.  Files are written only when
their bytes change, so a rerun from the cache leaves the report directory (and a checkout's
``git status``) untouched.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from ..evidence.record import cell
from ..files import write_if_changed
from ..report.build import read_artifact, record_changes
from ..spec import Artifact


def drop_moved(paper_dir: Path, name: str) -> None:
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


def quick_over_full(old_meta: dict | None, quick: bool) -> list[str]:
    """Why a ``--quick`` build must not replace the files of a full run (none otherwise)."""
    if not quick or not old_meta or old_meta.get("quick", False):
        return []
    return ["the report holds a full run; --quick (small grids and folds) would replace it "
            "(--quick writes to reports-quick/ unless --out is given)"]


def _runs_of(path: Path) -> list | None:
    """``(run, status)`` of each run in a ``<name>.runs.json`` (None if unreadable)."""
    try:
        return [(r["run"], r["status"]) for r in json.loads(path.read_text())["runs"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def promote(stage: Path, out_dir: Path, name: str) -> list[tuple[Path, bool]]:
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


def settle(art: Artifact, flat: list[dict], stage: Path, out_dir: Path, quick: bool,
           allow_downgrade: bool, log) -> tuple[list[dict], list[str], list[tuple[Path, bool]]]:
    """Apply the downgrade policy to the staged build ``flat`` of ``art``: ``(the records the
    report now holds, the values the build would have lost — the report's files kept — or
    none, the files written or left unchanged)``."""
    old = read_artifact(out_dir, art.name)
    lost = (lost_values(old[0], flat) + quick_over_full(old[1], quick)
            if old is not None else [])
    if lost and not allow_downgrade:
        log(f"{art.id}: kept the report's files: this run would replace "
            f"{len(lost)} computed value(s) with 'not run' or a full run "
            f"with --quick ({out_dir / (art.name + '.json')} unchanged)")
        return old[0], lost, []
    record_changes(out_dir, art, flat)     # before the JSON is replaced
    return flat, [], promote(stage, out_dir, art.name)
