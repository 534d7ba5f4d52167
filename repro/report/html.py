"""Paper pages (HTML, then the same HTML to PDF with weasyprint), timing pages, the index and
the benchmarks page.

Pages are rendered from the artifacts' JSON and meta files in ``reports/<paper>/`` — never
from live objects — so a page can always be re-rendered from what is on disk, and the JSON a
program reads is exactly what the page shows.  Pages hold nothing that changes from one run of
the same command to the next (no run or render times, no cache flags): those are in the
``<artifact>.runs.json`` sidecars, which pages link to.  Timing artifacts (measured times) are
on the paper's timing page (``<paper>/timing/index.html``), so that the main page and its JSON
stay byte-identical.  Every page names its origin: version, commit, commit date and machine
(:func:`repro.provenance.describe`).
"""
from __future__ import annotations

import logging
import math
import re
from importlib import resources
from pathlib import Path

from jinja2 import Environment, FunctionLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from ..cache import atomic_write_bytes
from ..provenance import describe
from ..published import load as load_published
from .build import TIMING_DIR, natural_key, read_artifact
from .tables import artifact_tables, record_rows
from .verdicts import BUCKETS, HEADERS, LABELS, Tally, headline, shown_buckets, verdict_class


def _load_template(name: str) -> str:
    return resources.files("repro.report").joinpath("templates", name).read_text("utf-8")


def words(text) -> Markup:
    """Text that may wrap between words but never inside one (labels such as
    "corel-pamir:Small-Easy" or "1.02573e-08" stay whole)."""
    return Markup(" ").join(Markup('<span class="w">%s</span>') % escape(w)
                            for w in str(text).split())


def _env() -> Environment:
    env = Environment(loader=FunctionLoader(_load_template),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["words"] = words
    return env


def _template(name: str):
    return _env().get_template(name)


def _css() -> str:
    return _load_template("base.css")


def footer_css(label: str) -> str:
    """The PDF's page footer: what the page is and where it comes from (commit, its date,
    machine), on every page."""
    text = f"{label} · {describe(short=True)}"
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'@page {{ @bottom-left {{ content: "{text}"; }} }}'


def _common() -> dict:
    return {"css": _css(), "provenance": describe(), "labels": LABELS, "headers": HEADERS,
            "buckets": BUCKETS, "shown": shown_buckets}


# --- a paper page -----------------------------------------------------------------------------

def _data_line(meta: dict) -> tuple[list[str], list[str]]:
    """(datasets whose values are shown, "dataset — why" of those not run)."""
    used, not_run = [], []
    for d in meta.get("datasets", []):
        name = d["dataset"]
        if d["status"] == "used":
            used.append(f"{name} (stand-in for {d['stand_in_for']})" if d.get("stand_in_for")
                        else name)
        elif d["status"] == "not run":
            not_run.append(f"{name} — {d.get('why') or 'not run'}")
    return used, not_run


def _figures(meta: dict, flat: list[dict]) -> list[dict]:
    overlaid = set(meta.get("figures_with_published", []))
    has_pub = any(r.get("published") is not None and verdict_class(r["verdict"]) != "unreadable"
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
        out.append({"file": f, "label": f.rsplit(".", 1)[0], "caption": cap})
    return out


def artifact_context(art, out_dir: Path, layouts, seen_choices: dict) -> dict | None:
    got = read_artifact(out_dir, art.name)
    if got is None:
        return None
    flat, meta = got
    tables, left = artifact_tables(art.name, flat, layouts, natural_key)
    used, not_run = _data_line(meta)
    choices = meta.get("choices", [])
    same_as = seen_choices.get(tuple(choices)) if choices else None
    if choices and not same_as:
        seen_choices[tuple(choices)] = art.name
    tally = Tally().add(flat)
    return {"name": art.name, "title": meta["title"], "description": meta.get("description", ""),
            "implemented": meta.get("implemented", True), "quick": meta.get("quick", False),
            "choices": [] if same_as else choices, "choices_as": same_as or "",
            "methods": ", ".join(meta.get("methods", [])),
            "metrics": ", ".join(meta.get("metrics", [])),
            "used": used, "not_run": not_run, "figures": _figures(meta, flat),
            "tables": tables, "left": left, "records": record_rows(flat),
            "runs": [{"run": r["run"], "status": r["status"], "why": r.get("why") or "",
                      "seed": r.get("seed")} for r in meta.get("runs", [])],
            "runs_file": meta.get("runs_file") if (out_dir / str(meta.get("runs_file"))).is_file()
            else None,
            "tally": tally, "counts": tally.row(), "headline": headline(tally)}


def paper_context(paper_mod, out_root: Path, notes: list[str], timing: bool = False) -> dict:
    """The context of a paper's main page (``timing=False``) or of its timing page."""
    paper = paper_mod.PAPER
    published = load_published(paper.id, getattr(paper_mod, "PUBLISHED_PATH", None))
    out_dir = Path(out_root) / paper.id / (TIMING_DIR if timing else "")
    arts, seen, total, quick = [], {}, Tally(), False
    for art in paper_mod.ARTIFACTS:
        if bool(art.timing) != timing:
            continue
        a = artifact_context(art, out_dir, published.layouts_for(art.name), seen)
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
    return {"paper": paper, "artifacts": arts, "quick": quick, "notes": [] if timing else notes,
            "summary_rows": summary,
            "timing": timing, "timing_artifacts": timing_arts if timing_page else [],
            "tally": total, "headline": headline(total), "counts": total.row(),
            "up": "../../" if timing else "../"}


def render_pdf(html_path: Path, pdf_path: Path, log=print) -> bool:
    try:
        from weasyprint import HTML
    except Exception as exc:   # ImportError or a missing system library (pango)
        log(f"PDF not written: weasyprint is not importable ({exc}); the HTML is complete")
        return False
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    data = HTML(filename=str(html_path), base_url=str(html_path.parent)).write_pdf()
    atomic_write_bytes(pdf_path, data)
    return True


def _write_page(ctx: dict, path: Path, pdf_path: Path | None, log) -> Path:
    label = ctx["paper"].id + (" timing" if ctx["timing"] else "")
    html = _template("paper.html.j2").render(**ctx, **_common(), footer=footer_css(label))
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, html.encode("utf-8"))
    if pdf_path is not None:
        render_pdf(path, pdf_path, log)
    return path


def render_paper(paper_mod, out_root: Path, notes: list[str], pdf: bool = True, log=print) -> Path:
    """The paper's main page (and PDF), and its timing page when timing artifacts were
    written; returns the main page's path."""
    pid = paper_mod.PAPER.id
    out_dir = Path(out_root) / pid
    ctx = paper_context(paper_mod, out_root, notes)
    path = _write_page(ctx, out_dir / "index.html", out_dir / f"{pid}.pdf" if pdf else None, log)
    tctx = paper_context(paper_mod, out_root, notes, timing=True)
    if tctx["artifacts"]:
        tdir = out_dir / TIMING_DIR
        _write_page(tctx, tdir / "index.html", tdir / f"{pid}-timing.pdf" if pdf else None, log)
    return path


# --- the index --------------------------------------------------------------------------------

def index_context(paper_mods, out_root: Path) -> dict:
    out_root = Path(out_root)
    papers, total = [], Tally()
    for mod in paper_mods:
        pid = mod.PAPER.id
        out_dir = out_root / pid
        tally, n = Tally(), 0
        for art in mod.ARTIFACTS:
            if art.timing:
                continue
            got = read_artifact(out_dir, art.name)
            if got is None:
                continue
            n += 1
            tally.add(got[0])
        total += tally
        page = (out_dir / "index.html").is_file()
        papers.append({"id": pid, "title": mod.PAPER.title,
                       "page": f"{pid}/index.html" if page else None,
                       "pdf": f"{pid}/{pid}.pdf" if (out_dir / f"{pid}.pdf").is_file() else None,
                       "timing": f"{pid}/{TIMING_DIR}/index.html"
                       if (out_dir / TIMING_DIR / "index.html").is_file() else None,
                       "counts": tally.row(), "headline": headline(tally)[0] if n else
                       "Not rendered into this directory."})
    return {"papers": papers, "total": total.row(), "headline": headline(total),
            "benchmarks": (out_root / "benchmarks.html").is_file()}


def render_index(paper_mods, out_root: Path) -> Path:
    html = _template("index.html.j2").render(**index_context(paper_mods, out_root), **_common(),
                                             footer=footer_css("repro-rank reports"))
    path = Path(out_root) / "index.html"
    atomic_write_bytes(path, html.encode("utf-8"))
    return path


# --- the benchmarks page ----------------------------------------------------------------------

def _sig(v, digits: int = 4) -> str:
    """A number for a reader: ``digits`` significant digits, integers as integers."""
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if v == 0 or float(v).is_integer() and abs(v) < 1e12:
            return f"{int(v):,}"
        a = abs(v)
        if 1e-3 <= a < 1e6:
            d = max(0, digits - 1 - int(math.floor(math.log10(a))))
            return f"{v:,.{d}f}"
        return f"{v:.{digits - 1}e}"
    return str(v)


def _seconds(v) -> str:
    if v is None:
        return "—"
    if v >= 1:
        return f"{v:.3g} s"
    if v >= 1e-3:
        return f"{v * 1e3:.3g} ms"
    return f"{v * 1e6:.3g} µs"


def _other(k: str, v) -> str:
    if isinstance(v, dict):
        return "; ".join(f"{a}: {_sig(b)}" for a, b in v.items())
    if isinstance(v, float) and re.search(r"(^|_)s$|_s_|seconds", k):
        return _seconds(v)
    return _sig(v)


_CASE_KEYS = ("name", "params", "ours_s", "peers_s", "ratios", "group", "ratio_notes")
SLOWER = ("below 1: the peer is faster than ours on this case (the benchmark gives no reason; "
          "see the case's other measurements)")


def benchmarks_context(results: dict) -> dict:
    cases = []
    for c in results.get("cases", []):
        peers = []
        for peer, secs in c.get("peers_s", {}).items():
            ratio = c.get("ratios", {}).get(peer)
            slower = ratio is not None and ratio < 1
            why = ((c.get("ratio_notes") or {}).get(peer) or SLOWER) if slower else ""
            if slower and not why.startswith("below 1"):
                why = "below 1: the peer is faster here — " + why
            peers.append({"name": peer, "seconds": _seconds(secs),
                          "ratio": "—" if ratio is None else f"×{ratio:.2f}",
                          "slower": slower, "why": why})
        cases.append({"group": c.get("group", ""), "name": c.get("name", ""),
                      "params": [f"{k} = {_sig(v) if not isinstance(v, str) else v}"
                                 for k, v in c.get("params", {}).items()],
                      "ours": _seconds(c.get("ours_s")), "peers": peers or [
                          {"name": "—", "seconds": "", "ratio": "", "slower": False, "why": ""}],
                      "other": [(k.replace("_", " "), _other(k, v)) for k, v in c.items()
                                if k not in _CASE_KEYS]})
    m = results.get("machine", {})
    measured = ", ".join(str(x) for x in (m.get("platform"), m.get("processor"),
                                          f"{m.get('cpus')} CPUs" if m.get("cpus") else None,
                                          f"Python {m.get('python')}" if m.get("python") else None,
                                          f"NumPy {m.get('numpy')}" if m.get("numpy") else None)
                         if x)
    return {"cases": cases, "measured_on": measured, "bench_version": results.get("version", "")}


def render_benchmarks(results: dict, path: Path) -> None:
    """The benchmarks page (``benchmarks.html``) from the cases of ``benchmarks.json``."""
    html = _template("benchmarks.html.j2").render(**benchmarks_context(results), **_common(),
                                                  footer=footer_css("benchmarks"),
                                                  index=(Path(path).parent / "index.html").is_file())
    atomic_write_bytes(path, html.encode("utf-8"))
