"""Paper pages (HTML, then the same HTML to PDF with weasyprint) and the index page.

Pages are rendered from the artifacts' JSON and meta files in ``reports/<paper>/`` — never
from live objects — so a page can always be re-rendered from what is on disk, and the JSON a
program reads is exactly what the page shows.
"""
from __future__ import annotations

import math
from collections import Counter
from importlib import resources
from pathlib import Path

from jinja2 import Environment, StrictUndefined, select_autoescape

from .. import __version__
from ..cache import atomic_write_bytes
from ..provenance import describe, source_state
from ..published import (AGREES, BASELINE, DEVIATES, NO_PUBLISHED, UNDEFINED, UNREADABLE,
                         WITHIN, decimals_of)
from .build import read_artifact

VERDICT_NAMES = ("agrees", "within tolerance", "deviates", "stand-in", "not run", "baseline")


def verdict_class(verdict: str) -> str:
    if verdict.startswith("stand-in"):
        return "stand-in"
    if verdict == AGREES:
        return "agrees"
    if verdict == WITHIN:
        return "within tolerance"
    if verdict == DEVIATES:
        return "deviates"
    if verdict == BASELINE:
        return "baseline"
    if verdict in (NO_PUBLISHED,):
        return "no published"
    if verdict == UNREADABLE:
        return "unreadable"
    if verdict.startswith(UNDEFINED):
        return "undefined"
    return "not run"


SHORT = {"agrees": "agrees", "within tolerance": "within tol.", "deviates": "DEVIATES",
         "stand-in": "stand-in", "not run": "not run", "baseline": "baseline",
         "no published": "—", "unreadable": "unreadable", "undefined": "undefined"}
CSS_CLASS = {"agrees": "agrees", "within tolerance": "within", "deviates": "deviates",
             "stand-in": "standin", "not run": "notrun", "baseline": "notrun",
             "no published": "", "unreadable": "notrun", "undefined": "notrun"}


def commit_id() -> str:
    """The package's commit (from its own source tree, decided before writing)."""
    return source_state()["short"]


def _env() -> Environment:
    return Environment(loader=None, autoescape=select_autoescape(default=True),
                       undefined=StrictUndefined, trim_blocks=False)


def _template(name: str):
    text = resources.files("repro.report").joinpath("templates", name).read_text("utf-8")
    return _env().from_string(text)


def _css() -> str:
    return resources.files("repro.report").joinpath("templates", "base.css").read_text("utf-8")


def fmt_value(v, published: str | None) -> str:
    if v is None:
        return "—"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "—"
        if published and decimals_of(published):
            return f"{v:.{decimals_of(published) + 2}f}"
        if float(v).is_integer() and abs(v) < 1e15:
            return str(int(v))
        return f"{v:.6g}"
    return str(v)


def fmt_diff(d, published: str | None) -> str:
    if d is None:
        return ""
    if published and decimals_of(published):
        return f"{d:+.{decimals_of(published) + 2}f}"
    return f"{d:+.4g}"


PIVOT_MIN = 12   # more published-only values than this are shown as compact pivot tables


def _published_only(r: dict) -> bool:
    return r.get("value") is None and r.get("published") is not None


def _pivots(flat: list[dict]) -> tuple[list[dict], list[tuple[str, int]]]:
    """Published values without a reproduced counterpart, as paper-style tables (one per
    metric: rows dataset/fold, columns method) and the distinct reasons with their counts."""
    g = lambda r, k: r.get(k) or ""
    where = lambda ds, fold: ds + (f", fold {fold}" if fold else "")
    if len({g(r, "method") for r in flat}) == 1:
        # one method: the paper's layout of e.g. "selected features" tables — a row per
        # quantity, a column per dataset/fold
        method = g(flat[0], "method")
        groups = {method: flat}
        row_of = lambda r: g(r, "metric")
        col_of = lambda r: where(g(r, "dataset"), g(r, "fold"))
    else:
        groups = {}
        for r in flat:
            groups.setdefault(g(r, "metric"), []).append(r)
        row_of = lambda r: where(g(r, "dataset"), g(r, "fold"))
        col_of = lambda r: g(r, "method")
    pivots = []
    for title, rs in groups.items():
        cols = list(dict.fromkeys(col_of(r) for r in rs))
        cell = {(row_of(r), col_of(r)): r for r in rs}
        rows = []
        for label in dict.fromkeys(row_of(r) for r in rs):
            cells = []
            for c in cols:
                r = cell.get((label, c))
                cells.append({"text": r["published"] if r else "",
                              "css": CSS_CLASS.get(verdict_class(r["verdict"]), "") if r else ""})
            rows.append({"label": label, "cells": cells})
        sources = sorted({g(r, "source").split(", row")[0].split(" (")[0] for r in rs} - {""})
        pivots.append({"metric": title, "columns": cols, "rows": rows, "sources": "; ".join(sources)})
    reasons = Counter(r["verdict"] for r in flat)
    return pivots, sorted(reasons.items(), key=lambda kv: -kv[1])


def _rows(flat: list[dict]) -> tuple[list[dict], int]:
    rows, hidden = [], 0
    for r in flat:
        cls = verdict_class(r["verdict"])
        if cls == "no published" and len(flat) > 60:
            hidden += 1        # long value lists (curves) stay in the JSON
            continue
        why = r["verdict"].split(": ", 1)[1] if r["verdict"].startswith("not run: ") else ""
        note = "; ".join(x for x in (why, r.get("source") or "", r.get("note") or "",
                                     r.get("tolerance_why") or "") if x)
        if r.get("stand_in"):
            note = f"computed on {r.get('data_used')} (stand-in); " + note
        rows.append({"dataset": r.get("dataset") or "", "method": r.get("method") or "",
                     "metric": r.get("metric") or "", "fold": r.get("fold") or "",
                     "value": fmt_value(r.get("value"), r.get("published")),
                     "published": r.get("published") or "",
                     "diff": fmt_diff(r.get("diff"), r.get("published")),
                     "verdict": r["verdict"], "short": SHORT.get(cls, cls),
                     "css": CSS_CLASS.get(cls, ""), "note": note,
                     "explanation": r.get("explanation") or ""})
    return rows, hidden


def _data_used(meta: dict) -> str:
    parts = []
    for d in meta.get("datasets", []):
        name = d["dataset"]
        if d.get("stand_in_for"):
            parts.append(f"{name} (STAND-IN for {d['stand_in_for']})")
        else:
            parts.append(name)
    return ", ".join(parts) or "—"


def paper_context(paper_mod, out_dir: Path, notes: list[str]) -> dict:
    arts, total, quick, counted = [], 0.0, False, set()
    seen_choices: dict[tuple, str] = {}
    for art in paper_mod.ARTIFACTS:
        got = read_artifact(out_dir, art.name)
        if got is None:
            continue
        flat, meta = got
        quick = quick or meta.get("quick", False)
        counts = Counter(verdict_class(r["verdict"]) for r in flat)
        only = [r for r in flat if _published_only(r)]
        if len(only) > PIVOT_MIN:
            pivots, reasons = _pivots(only)
            rows, hidden = _rows([r for r in flat if not _published_only(r)])
        else:
            pivots, reasons = [], []
            rows, hidden = _rows(flat)
        runs = []
        for r in meta.get("runs", []):
            secs = r.get("seconds")
            if r["run"] not in counted:          # runs shared by several artifacts count once
                counted.add(r["run"])
                total += secs or 0.0
            runs.append({**r, "seconds": "" if secs is None else f"{secs:.2f}",
                         "finished": r.get("finished") or ""})
        choices = meta.get("choices", [])
        same_as = seen_choices.get(tuple(choices)) if choices else None
        if not same_as and choices:
            seen_choices[tuple(choices)] = art.name
        arts.append({"name": art.name, "title": meta["title"], "description": meta.get("description", ""),
                     "choices": [] if same_as else choices, "choices_as": same_as or "",
                     "methods": ", ".join(meta.get("methods", [])),
                     "metrics": ", ".join(meta.get("metrics", [])), "figures": meta.get("figures", []),
                     "overlay": any(r.get("published") for r in flat), "rows": rows,
                     "hidden": hidden, "runs": runs, "counts": dict(counts),
                     "pivots": pivots, "reasons": reasons,
                     "data_used": _data_used(meta), "implemented": meta.get("implemented", True)})
    p = paper_mod.PAPER
    return {"paper": p, "artifacts": arts, "quick": quick, "notes": notes,
            "total_seconds": f"{total:.1f} s", "verdict_names": VERDICT_NAMES}


def render_pdf(html_path: Path, pdf_path: Path, log=print) -> bool:
    try:
        from weasyprint import HTML
    except Exception as exc:   # ImportError or a missing system library (pango)
        log(f"PDF not written: weasyprint is not importable ({exc}); the HTML is complete")
        return False
    import logging
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    data = HTML(filename=str(html_path), base_url=str(html_path.parent)).write_pdf()
    atomic_write_bytes(pdf_path, data)
    return True


def render_paper(paper_mod, out_root: Path, notes: list[str], pdf: bool = True, log=print) -> Path:
    out_dir = out_root / paper_mod.PAPER.id
    ctx = paper_context(paper_mod, out_dir, notes)
    ctx.update(css=_css(), version=__version__, commit=commit_id(), rendered=describe())
    html = _template("paper.html.j2").render(**ctx)
    path = out_dir / "index.html"
    atomic_write_bytes(path, html.encode("utf-8"))
    if pdf:
        render_pdf(path, out_dir / f"{paper_mod.PAPER.id}.pdf", log)
    return path


def render_index(paper_mods, out_root: Path) -> Path:
    papers = []
    for mod in paper_mods:
        out_dir = out_root / mod.PAPER.id
        counts, n = Counter(), 0
        for art in mod.ARTIFACTS:
            got = read_artifact(out_dir, art.name)
            if got is None:
                continue
            n += 1
            counts.update(verdict_class(r["verdict"]) for r in got[0])
        papers.append({"id": mod.PAPER.id, "title": mod.PAPER.title, "n_artifacts": n,
                       "counts": dict(counts), "pdf": (out_dir / f"{mod.PAPER.id}.pdf").is_file()})
    html = _template("index.html.j2").render(
        papers=papers, css=_css(), version=__version__, commit=commit_id(),
        rendered=describe(), verdict_names=VERDICT_NAMES)
    path = out_root / "index.html"
    atomic_write_bytes(path, html.encode("utf-8"))
    return path


def render_benchmarks(results: dict, path: Path) -> None:
    """The benchmarks page (``benchmarks.html``) from the cases of ``benchmarks.json``."""
    html = _template("benchmarks.html.j2").render(r=results)
    atomic_write_bytes(path, html.encode("utf-8"))
