"""Paper pages: a paper's main page (``<paper>/index.html``) and its timing page
(``<paper>/timing/index.html``), each with its PDF (:mod:`.pdf`).

Pages are rendered from the artifacts' JSON and meta files in ``reports/<paper>/`` — never
from live objects — so a page can always be re-rendered from what is on disk, and the JSON a
program reads is exactly what the page shows.  Pages hold nothing that changes from one run of
the same command to the next (no run or render times, no cache flags): those are in the
``<artifact>.runs.json`` sidecars, which pages link to.  Timing artifacts (measured times) are
on the paper's timing page, so that the main page and its JSON stay byte-identical.  Every page
names its origin: version, commit, commit date and machine
(:func:`repro.run.provenance.describe`).

A page starts with a scoreboard of the paper's claims (:mod:`.scoreboard`), then the counts in
words.  Each table's caption, and each value's tooltip, carries the commands that recompute it
(:mod:`.commands`); each paper page lists what changed since the previous rendering
(``changes.json``, :mod:`repro.report.changes`).
"""
from __future__ import annotations

from pathlib import Path

from ..evidence import SIDECAR_SUFFIX
from ..evidence.record import natural_key
from ..judge.published import load as load_published
from . import changes
from .build import TIMING_DIR, read_artifact
from .commands import commands, page_options
from .format import artifact_heading, figure_label, fmt_value, where
from .legend import glossary, legend
from .matrix import paper_line, paper_matrix
from .overview import OVERVIEW_FILE, artifact_name, write_overview
from .pdf import write_page
from .render import common, footer_css, template
from .scoreboard import (REPRODUCED_MEANS, claim_row, claims_of, counts_in_words,
                         declared_order, scoreboard)
from .standins import declared_stand_ins, label as stand_in_label, stand_ins_of
from .tables import artifact_tables, record_rows
from .verdicts import Tally, headline, verdict_class


def _data_line(meta: dict, stand_ins: dict | None = None) -> tuple[list[str], list[str]]:
    """(datasets whose values are shown — stand-ins named as everywhere —, "dataset — why"
    of those not run)."""
    used, not_run = [], []
    for d in meta.get("datasets", []):
        name = d["dataset"]
        if d["status"] == "used":
            text = stand_in_label(name, d.get("stand_in_for") or (stand_ins or {}).get(name))
            if d.get("like"):
                text += f", in place of the paper's {d['like']}"
            if d.get("mark"):
                text += f" — {d['mark']}"
            used.append(text)
        elif d["status"] == "not run":
            not_run.append(f"{name} — {d.get('why') or 'not run'}")
    return used, not_run


def _figures(meta: dict, flat: list[dict], artifact: str) -> list[dict]:
    overlaid = set(meta.get("figures_with_published", []))
    has_pub = any(r.get("published") is not None and verdict_class(r) != "unreadable"
                  for r in flat)
    out = []
    for f in meta.get("figures", []):
        if f in overlaid:
            cap = "redrawn from our results; published values overlaid (marked as published)"
        elif has_pub:
            cap = ("redrawn from our results; the published values are not drawn — they are "
                   "compared in the tables below")
        else:
            cap = "redrawn from our results; the paper gives no numbers for this figure"
        note = (meta.get("figure_notes") or {}).get(f)
        out.append({"file": f, "label": figure_label(f.rsplit(".", 1)[0], artifact),
                    "caption": cap + (f". {note.rstrip('.')}" if note else "")})
    return out


def data_marks(meta: dict, flat: list[dict]) -> list[str]:
    """What the artifact's data is, where it is not the paper's verified data: "user data:
    NAME (unverified)", "unverified copy: …" (from the datasets used and the records)."""
    marks = [d["mark"] for d in meta.get("datasets", []) if d.get("mark")]
    marks += [r["data_mark"] for r in flat if r.get("data_mark")]
    return list(dict.fromkeys(marks))


def not_run_reason(meta: dict) -> str:
    """Why an artifact without a task cannot run ("" when it is simply not implemented yet):
    its meta's ``not_run``, else the one reason all its datasets give (older meta files)."""
    if meta.get("implemented", True):
        return ""
    if meta.get("not_run"):
        return meta["not_run"]
    whys = {d.get("why") for d in meta.get("datasets", []) if d.get("status") == "not run"}
    whys.discard(None)
    if len(whys) == 1:
        why = whys.pop()
        return "" if why.startswith("not implemented") else why
    return ""


def artifact_commands(art, out_dir: Path, meta: dict) -> dict:
    """The commands an artifact's page shows: with the options the page was made with, and
    a per-query command only where the artifact has per-query values (its sidecar) on the
    paper's data."""
    opts = page_options(meta)
    per_query = (Path(out_dir) / f"{art.name}{SIDECAR_SUFFIX}").is_file() and not any(
        o.startswith("--on") for o in opts)
    return commands(art.paper, art.name, opts, per_query=per_query)


def artifact_context(art, out_dir: Path, layouts, seen_choices: dict,
                     declared: dict | None = None) -> dict | None:
    got = read_artifact(out_dir, art.name)
    if got is None:
        return None
    flat, meta = got
    marks = data_marks(meta, flat)
    stand_ins = stand_ins_of(meta, declared)
    if any(d.get("like") for d in meta.get("datasets", [])):
        layouts = []               # the user's data in place of the paper's: no published cells
    cmds = artifact_commands(art, out_dir, meta)
    tables, left = artifact_tables(art.name, flat, layouts, natural_key, commands=cmds,
                                   stand_ins=stand_ins)
    if marks:                      # every table and figure says what its data is
        for t in tables:
            t.caption = f"{'; '.join(marks)} — {t.caption}"
    figures = _figures(meta, flat, art.name)
    for f in figures if marks else []:
        f["caption"] += f"; {'; '.join(marks)}"
    used, not_run = _data_line(meta, stand_ins)
    choices = meta.get("choices", [])
    same_as = seen_choices.get(tuple(choices)) if choices else None
    if choices and not same_as:
        seen_choices[tuple(choices)] = art.name
    tally = Tally().add(flat)
    return {"name": art.name, "title": meta["title"],
            "heading": artifact_heading(art.name, meta["title"]),
            "description": meta.get("description", ""),
            "implemented": meta.get("implemented", True), "quick": meta.get("quick", False),
            "not_run_reason": not_run_reason(meta), "commands": cmds,
            "claims": claims_of(flat),
            "choices": [] if same_as else choices, "choices_as": same_as or "",
            "all_choices": list(choices),
            "methods": ", ".join(meta.get("methods", [])),
            "metrics": ", ".join(meta.get("metrics", [])),
            "used": used, "not_run": not_run, "figures": figures, "marks": marks,
            "not_run_pairs": [(d["dataset"], d.get("why") or "not run")
                              for d in meta.get("datasets", []) if d["status"] == "not run"],
            "tables": tables, "left": left, "records": record_rows(flat, stand_ins),
            "stand_ins": stand_ins, "meta_datasets": [d["dataset"] for d in
                                                       meta.get("datasets", [])],
            "meta_metrics": list(meta.get("metrics", [])),
            "classes": sorted({verdict_class(r) for r in flat}),
            "runs": [{"run": r["run"], "status": r["status"], "why": r.get("why") or "",
                      "seed": r.get("seed")} for r in meta.get("runs", [])],
            "runs_file": meta.get("runs_file") if (out_dir / str(meta.get("runs_file"))).is_file()
            else None,
            "tally": tally, "counts": tally.row(), "headline": headline(tally),
            "noise": [(", ".join(n["datasets"]) + ": " if n.get("datasets") else "") + n["why"]
                      for n in meta.get("noise", [])] if tally.rerun or tally.buckets[
                          "stand-in"] else []}


def paper_context(paper_mod, out_root: Path, notes: list[str], timing: bool = False) -> dict:
    """The context of a paper's main page (``timing=False``) or of its timing page."""
    paper = paper_mod.PAPER
    published = load_published(paper.id, getattr(paper_mod, "PUBLISHED_PATH", None))
    out_dir = Path(out_root) / paper.id / (TIMING_DIR if timing else "")
    declared = declared_stand_ins(paper.id, getattr(paper_mod, "PUBLISHED_PATH", None))
    arts, seen, total, quick = [], {}, Tally(), False
    for art in paper_mod.ARTIFACTS:
        if bool(art.timing) != timing:
            continue
        a = artifact_context(art, out_dir, published.layouts_for(art.name), seen, declared)
        if a is None:
            continue
        arts.append(a)
        total += a["tally"]
        quick = quick or a["quick"]
    timing_arts = [{"name": a.name, "title": a.title} for a in paper_mod.ARTIFACTS if a.timing]
    timing_page = (Path(out_root) / paper.id / TIMING_DIR / "index.html").is_file() or (
        not timing and any((Path(out_root) / paper.id / TIMING_DIR / f"{a['name']}.json").is_file()
                           for a in timing_arts))
    summary = [{"name": a["name"], "href": f"#{a['name']}", "counts": a["counts"]} for a in arts]
    summary.append({"name": "all", "href": None, "counts": total.row(), "total": True})
    claims = [claim_row(r, f"#{a['name']}", a["stand_ins"], bool(a["commands"].get("runs")))
              for a in arts for r in a["claims"]]
    board = scoreboard(claims, key_only=False, **claim_order(paper_mod, arts))
    rows, line_tally, datasets, offsets = paper_matrix(
        paper_mod, lambda art: read_artifact(Path(out_root) / paper.id / (
            TIMING_DIR if art.timing else ""), art.name))
    moved = None if timing else changes.page_entries(
        out_dir, [a["name"] for a in arts], fmt_value, where)
    return {"paper": paper, "artifacts": arts, "quick": quick, "notes": [] if timing else notes,
            "scoreboard": board, "changes": moved, "words": counts_in_words(total),
            "reproduced_means": REPRODUCED_MEANS, "collapse_after": COLLAPSE_AFTER,
            "summary_rows": summary,
            "timing": timing, "timing_artifacts": timing_arts if timing_page else [],
            "tally": total, "counts": total.row(),
            "headline": headline(total),
            "legend": legend(set().union(*(a["classes"] for a in arts)) if arts else set()),
            "glossary": glossary(board),
            "overview": None if timing or not (Path(out_root) / paper.id / OVERVIEW_FILE
                                                ).is_file() else OVERVIEW_FILE,
            "up": "../../" if timing else "../",
            "line": paper_line(line_tally, datasets, "../", offsets) if rows and not timing
            else "",
            "matrix": [] if timing else rows,
            "not_run_rows": not_run_rows(arts), "choices": page_choices(arts)}


#: the one reason of every data set not available here
DATA_MISSING = "data not available here (`python -m repro data` lists and fetches data sets)"


def not_run_rows(arts: list[dict]) -> list[dict]:
    """What was not run on a page and why, one row per reason: the reason, the data sets and
    the artifacts it holds for (an artifact not run at all: its own reason)."""
    by_why: dict[str, dict] = {}
    for a in arts:
        pairs = list(a["not_run_pairs"])
        if not a["implemented"]:
            pairs = [("", a["not_run_reason"] or "not implemented yet")]
        for dataset, why in pairs:
            row = by_why.setdefault(why, {"why": why, "datasets": [], "artifacts": []})
            if dataset and dataset not in row["datasets"]:
                row["datasets"].append(dataset)
            if a["name"] not in row["artifacts"]:
                row["artifacts"].append(a["name"])
    merged: dict[str, dict] = {}
    for row in by_why.values():            # "data missing: X (…)" rows merged into one
        head = DATA_MISSING if row["why"].startswith("data missing") else row["why"]
        m = merged.setdefault(head, {"why": head, "datasets": [], "artifacts": []})
        m["datasets"] += [d for d in row["datasets"] if d not in m["datasets"]]
        m["artifacts"] += [x for x in row["artifacts"] if x not in m["artifacts"]]
    for m in merged.values():
        m["artifacts"] = [artifact_name(x) for x in m["artifacts"]]
    return list(merged.values())


def page_choices(arts: list[dict]) -> list[dict]:
    """The choices the paper left open, once per page: each distinct choice once, with the
    artifacts it is made for (all of them: none named)."""
    out: dict[str, list[str]] = {}
    having = [a for a in arts if a["choices"] or a["choices_as"]]
    for a in arts:
        for c in a["all_choices"]:
            out.setdefault(c, [])
            if a["name"] not in out[c]:
                out[c].append(a["name"])
    return [{"text": c, "for": [] if len(names) == len(having) else
             [artifact_name(n) for n in names]} for c, names in out.items()]


def claim_order(paper_mod, arts: list[dict]) -> dict:
    """How a paper's claims are ordered: its claim declarations' statements (the paper's
    order), its data sets and its measures, as its artifacts list them."""
    order = [pat for art in paper_mod.ARTIFACTS for pat in declared_order(art)]
    datasets = list(dict.fromkeys(d for a in arts for d in a["meta_datasets"]))
    metrics = list(dict.fromkeys(m for a in arts for m in a["meta_metrics"]))
    return {"order": order, "datasets": datasets, "metrics": metrics}


#: a change list longer than this is collapsed (its first rows shown, the rest in <details>)
COLLAPSE_AFTER = 12


def _write_page(ctx: dict, path: Path, pdf_path: Path, pdf: bool, log,
                pdf_later: "list | PdfQueue | None" = None,
                written: list | None = None) -> Path:
    """The page, written only if it changed, and its PDF: rendered with ``pdf`` (or, if
    ``pdf_later`` is given, its ``(page, pdf)`` appended to it: :func:`.pdf.write_page`);
    without, a PDF left from an earlier render that no longer matches the page is removed
    (said)."""
    label = ctx["paper"].id + (" timing" if ctx["timing"] else "")
    html = template("paper.html.j2").render(**ctx, **common(), footer=footer_css(label))
    write_page(html, path, pdf_path, pdf, log, pdf_later, written)
    return path


def render_paper(paper_mod, out_root: Path, notes: list[str], pdf: bool = True, log=print,
                 pdf_later: "list | PdfQueue | None" = None,
                 written: list | None = None) -> Path:
    """The paper's main page (and PDF), and its timing page when timing artifacts were
    written; returns the main page's path.  ``pdf_later``: a list or a
    :class:`.pdf.PdfQueue` that receives the pages' ``(page, pdf)`` pairs instead of
    rendering the PDFs here.  ``written``: receives ``(file, whether its bytes changed)`` of
    each page (:func:`.pdf.write_page`)."""
    pid = paper_mod.PAPER.id
    out_dir = Path(out_root) / pid
    write_overview(paper_mod, out_root, written)
    ctx = paper_context(paper_mod, out_root, notes)
    path = _write_page(ctx, out_dir / "index.html", out_dir / f"{pid}.pdf", pdf, log, pdf_later,
                       written)
    tctx = paper_context(paper_mod, out_root, notes, timing=True)
    if tctx["artifacts"]:
        tdir = out_dir / TIMING_DIR
        _write_page(tctx, tdir / "index.html", tdir / f"{pid}-timing.pdf", pdf, log,
                    pdf_later, written)
    return path

