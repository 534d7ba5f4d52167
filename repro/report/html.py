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

import contextlib
import logging
import math
import os
import re
from importlib import resources
from pathlib import Path

from jinja2 import Environment, FunctionLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from ..cache import write_if_changed
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
            text = (f"{name} (stand-in for {d['stand_in_for']})" if d.get("stand_in_for")
                    else name)
            if d.get("like"):
                text += f", in place of the paper's {d['like']}"
            if d.get("mark"):
                text += f" — {d['mark']}"
            used.append(text)
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


def data_marks(meta: dict, flat: list[dict]) -> list[str]:
    """What the artifact's data is, where it is not the paper's verified data: "user data:
    NAME (unverified)", "unverified copy: …" (from the datasets used and the records)."""
    marks = [d["mark"] for d in meta.get("datasets", []) if d.get("mark")]
    marks += [r["data_mark"] for r in flat if r.get("data_mark")]
    return list(dict.fromkeys(marks))


def artifact_context(art, out_dir: Path, layouts, seen_choices: dict) -> dict | None:
    got = read_artifact(out_dir, art.name)
    if got is None:
        return None
    flat, meta = got
    marks = data_marks(meta, flat)
    if any(d.get("like") for d in meta.get("datasets", [])):
        layouts = []               # the user's data in place of the paper's: no published cells
    tables, left = artifact_tables(art.name, flat, layouts, natural_key)
    if marks:                      # every table and figure says what its data is
        for t in tables:
            t.caption = f"{'; '.join(marks)} — {t.caption}"
    figures = _figures(meta, flat)
    for f in figures if marks else []:
        f["caption"] += f"; {'; '.join(marks)}"
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
            "used": used, "not_run": not_run, "figures": figures, "marks": marks,
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


# The date every PDF states (fontTools stamps the embedded font subsets with "now" unless
# SOURCE_DATE_EPOCH is set — https://reproducible-builds.org/specs/source-date-epoch/): a fixed
# one, so the same HTML gives the same PDF bytes.  A SOURCE_DATE_EPOCH already set is kept.
PDF_EPOCH = "0"


@contextlib.contextmanager
def _fixed_dates():
    old = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ.setdefault("SOURCE_DATE_EPOCH", PDF_EPOCH)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)


def render_pdf(html_path: Path, pdf_path: Path, log=print) -> bool:
    """The PDF of a written page (reproducible: fixed dates); written only if its bytes
    changed."""
    try:
        from weasyprint import HTML
    except Exception as exc:   # ImportError or a missing system library (pango)
        log(f"PDF not written: weasyprint is not importable ({exc}); the HTML is complete")
        return False
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    with _fixed_dates():
        data = HTML(filename=str(html_path), base_url=str(html_path.parent)).write_pdf()
    write_if_changed(pdf_path, data)
    return True


def _write_page(ctx: dict, path: Path, pdf_path: Path, pdf: bool, log) -> Path:
    """The page, written only if it changed, and its PDF: rendered with ``pdf``; without,
    a PDF left from an earlier render that no longer matches the page is removed (said)."""
    label = ctx["paper"].id + (" timing" if ctx["timing"] else "")
    html = _template("paper.html.j2").render(**ctx, **_common(), footer=footer_css(label))
    path.parent.mkdir(parents=True, exist_ok=True)
    changed = write_if_changed(path, html.encode("utf-8"))
    if pdf:
        render_pdf(path, pdf_path, log)
    elif changed and pdf_path.is_file():
        pdf_path.unlink()
        log(f"removed {pdf_path}: it no longer matched {path.name} (--no-pdf); run without "
            f"--no-pdf to write it again")
    return path


def render_paper(paper_mod, out_root: Path, notes: list[str], pdf: bool = True, log=print) -> Path:
    """The paper's main page (and PDF), and its timing page when timing artifacts were
    written; returns the main page's path."""
    pid = paper_mod.PAPER.id
    out_dir = Path(out_root) / pid
    ctx = paper_context(paper_mod, out_root, notes)
    path = _write_page(ctx, out_dir / "index.html", out_dir / f"{pid}.pdf", pdf, log)
    tctx = paper_context(paper_mod, out_root, notes, timing=True)
    if tctx["artifacts"]:
        tdir = out_dir / TIMING_DIR
        _write_page(tctx, tdir / "index.html", tdir / f"{pid}-timing.pdf", pdf, log)
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
    write_if_changed(path, html.encode("utf-8"))
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


def _number_first(key) -> tuple:
    """Sort key: numbers (``"46"``, ``"0.25"``) by value before other keys (natural order)."""
    try:
        return (0, float(key), ())
    except (TypeError, ValueError):
        return (1, 0.0, natural_key(key))


#: unit suffixes of measurement keys, and how a reader reads them
_UNITS = ((r"_MB_per_cpu_s$", " MB per CPU-second"), (r"_MB_s$", " MB/s"),
          (r"_GiB$", " GiB"), (r"_MB$", " MB"), (r"_us$", " µs"), (r"_ms$", " ms"),
          (r"_pct$", " %"))


def _label(k: str) -> str:
    """A measurement key as words: units dropped from the name (they go with the value),
    ``eps_1e3`` as ε = 1e-3."""
    unit = any(re.search(p, k) for p, _ in _UNITS)
    text = k
    for pattern, _ in _UNITS:
        text = re.sub(pattern, "", text)
    if not unit:
        text = re.sub(r"(^|_)s$", "", text)
    text = re.sub(r"(^|_)eps(_1e(\d+))?(_|$)",
                  lambda m: f"{m.group(1)}(ε = 1e-{m.group(3)}){m.group(4)}" if m.group(3)
                  else f"{m.group(1)}(ε){m.group(4)}", text)
    return text.replace("_", " ").strip()


def _unit(k: str) -> str:
    for pattern, unit in _UNITS:
        if re.search(pattern, k):
            return unit
    return ""


def _other(k: str, v) -> str:
    if isinstance(v, dict):            # "times n: 46; 92; 184": sizes in numeric order
        seconds = not _unit(k) and bool(re.search(r"(^|_)s$|_s_|seconds|times", k))
        return "; ".join(f"{a}: {_seconds(b) if seconds and isinstance(b, float) else _sig(b)}"
                         + ("" if seconds else _unit(k))
                         for a, b in sorted(v.items(), key=lambda kv: _number_first(kv[0])))
    if isinstance(v, float) and not _unit(k) and re.search(r"(^|_)s$|_s_|seconds", k):
        return _seconds(v)
    if isinstance(v, list) and all(isinstance(x, (int, float)) for x in v):
        return " / ".join(_sig(x) for x in v) + _unit(k)
    return _sig(v) + _unit(k) if not isinstance(v, str) else v


#: shown elsewhere on the row or in the page's header (the protocol's fields)
_CASE_KEYS = ("name", "params", "ours_s", "peers_s", "ratios", "group", "ratio_notes",
              "ratio_min", "ratio_median", "ratio_max", "time_min_s", "time_max_s",
              "protocol", "cpu_model", "load_average_before", "load_average_after", "repeats")
SLOWER = ("below 1: the peer is faster than ours on this case (the benchmark gives no reason; "
          "see the case's other measurements)")


def _load(v) -> str:
    return "—" if not v else " / ".join(f"{x:.2f}" for x in v)


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
            lo, hi = (c.get("ratio_min") or {}).get(peer), (c.get("ratio_max") or {}).get(peer)
            spread = (f"{lo:.2f}–{hi:.2f} over {c.get('repeats')} rounds"
                      if lo is not None and hi is not None else "one timing, no spread")
            peers.append({"name": peer, "seconds": _seconds(secs),
                          "ratio": "—" if ratio is None else f"×{ratio:.2f}",
                          "spread": spread if ratio is not None else "",
                          "slower": slower, "why": why})
        load = ""
        if c.get("load_average_before") or c.get("load_average_after"):
            load = (f"load {_load(c.get('load_average_before'))} before, "
                    f"{_load(c.get('load_average_after'))} after")
        cases.append({"group": c.get("group", ""), "name": c.get("name", ""),
                      "params": [f"{_label(k)} = {_sig(v) if not isinstance(v, str) else v}"
                                 for k, v in c.get("params", {}).items()],
                      "ours": _seconds(c.get("ours_s")), "load": load, "peers": peers or [
                          {"name": "—", "seconds": "", "ratio": "", "spread": "",
                           "slower": False, "why": ""}],
                      "other": [(_label(k), _other(k, v)) for k, v in c.items()
                                if k not in _CASE_KEYS]})
    m = results.get("machine", {})
    measured = ", ".join(str(x) for x in (m.get("cpu_model"), m.get("platform"),
                                          f"{m.get('cpus')} CPUs" if m.get("cpus") else None,
                                          f"Python {m.get('python')}" if m.get("python") else None,
                                          f"NumPy {m.get('numpy')}" if m.get("numpy") else None)
                         if x)
    load = ""
    if m.get("load_average_before") or m.get("load_average_after"):
        load = (f"load average (1, 5, 15 min) {_load(m.get('load_average_before'))} before the "
                f"run, {_load(m.get('load_average_after'))} after")
    return {"cases": cases, "measured_on": measured, "machine_load": load,
            "bench_version": results.get("version", "")}


def render_benchmarks(results: dict, path: Path) -> None:
    """The benchmarks page (``benchmarks.html``) from the cases of ``benchmarks.json``."""
    html = _template("benchmarks.html.j2").render(**benchmarks_context(results), **_common(),
                                                  footer=footer_css("benchmarks"),
                                                  index=(Path(path).parent / "index.html").is_file())
    write_if_changed(Path(path), html.encode("utf-8"))
