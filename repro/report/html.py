"""Paper pages (HTML, then the same HTML to PDF with weasyprint), timing pages, the index and
the benchmarks page.

Pages are rendered from the artifacts' JSON and meta files in ``reports/<paper>/`` — never
from live objects — so a page can always be re-rendered from what is on disk, and the JSON a
program reads is exactly what the page shows.  Pages hold nothing that changes from one run of
the same command to the next (no run or render times, no cache flags): those are in the
``<artifact>.runs.json`` sidecars, which pages link to.  Timing artifacts (measured times) are
on the paper's timing page (``<paper>/timing/index.html``), so that the main page and its JSON
stay byte-identical.  Every page names its origin: version, commit, commit date and machine
(:func:`repro.run.provenance.describe`).

Every page starts with a scoreboard of the papers' claims (records with ``claim``: each judged
by a paired test, its outcome, effect, 95% interval and p-value; on the index the ``key``
claims of each paper), then the counts in words ("reproduced" = agrees at the paper's rounding,
or within noise).  Each table's caption, and each value's tooltip, carries the commands that
recompute it; each paper page lists what changed since the previous rendering
(``changes.json``, :mod:`repro.report.changes`).
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

from ..files import write_if_changed
from ..run.provenance import describe
from ..judge.published import load as load_published
from . import changes
from .build import TIMING_DIR, read_artifact
from ..evidence.record import CELL, natural_key
from .tables import _general, artifact_tables, fmt_value, record_rows
from .verdicts import (BUCKETS, HEADERS, LABELS, OUTCOMES, Tally, headline, shown_buckets,
                       verdict_class)


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
    env.filters["sentence"] = lambda t: (str(t)[:1].upper() + str(t)[1:]) if t else ""
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


# --- commands, claims, counts in words ----------------------------------------------------------

#: the placeholder of the data directory in the commands a page shows
DATA_PLACEHOLDER = "DATA"


def commands(paper: str, artifact: str) -> dict:
    """The shell commands that recompute an artifact's values and write its per-query values
    (the reader replaces ``DATA`` by their data directory)."""
    target = f"{paper}.{artifact}"
    return {"recompute": f"python -m repro {target} --data-dir {DATA_PLACEHOLDER}",
            "runs": f"python -m repro runs {target} --out runs/ --data-dir {DATA_PLACEHOLDER}"}




def claim_outcome(r: dict) -> str:
    """A claim record's outcome: its ``outcome`` field, else its verdict when that is an
    outcome, else "not testable here" (a claim not run, or one without a test)."""
    if r.get("outcome") in OUTCOMES:
        return r["outcome"]
    if r.get("verdict") in OUTCOMES:
        return r["verdict"]
    return "not testable here"


def _p(p) -> str:
    if not isinstance(p, (int, float)) or isinstance(p, bool) or math.isnan(p):
        return "—"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}" if p < 0.01 else f"{p:.3f}"


def claim_row(r: dict, href: str = "") -> dict:
    """A scoreboard row of one claim record."""
    out = claim_outcome(r)
    eff = r.get("effect", r.get("value")) if out != "not testable here" else None
    effect = "—" if not isinstance(eff, (int, float)) or isinstance(eff, bool) or (
        isinstance(eff, float) and math.isnan(eff)) else f"{eff:+.4g}"
    ci95 = r.get("ci95")
    ci = (f"[{ci95[0]:+.4g}, {ci95[1]:+.4g}]" if isinstance(ci95, (list, tuple)) and len(ci95) == 2
          and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in ci95) else "")
    n = (f"{r['n_queries']:,} queries" if r.get("n_queries") else
         f"{r['n_folds']} folds" if r.get("n_folds") else "")
    extra = []
    if isinstance(r.get("effect_ratio"), (int, float)):
        extra.append(f"effect ratio {_general(float(r['effect_ratio']))}")
    if isinstance(r.get("delta_ri"), (int, float)):
        extra.append(f"ΔRI {_general(float(r['delta_ri']))}")
    numbers = "; ".join(f"{k}: {_general(float(v)) if isinstance(v, (int, float)) else v}"
                        for k, v in (r.get("numbers") or {}).items())
    cmd = commands(r.get("paper", ""), r.get("artifact", ""))
    return {"statement": r.get("statement") or r.get("metric") or r.get("method") or "",
            "dataset": (r.get("dataset") or "") + (
                f" (stand-in: {r['data_used']})" if r.get("stand_in") and r.get("data_used")
                else ""), "outcome": out,
            "css": verdict_class(out) if out in OUTCOMES else "not-testable",
            "effect": effect, "ci": ci, "p": _p(r.get("p_value")), "n": n,
            "test": r.get("test") or "", "why": r.get("why") or "",
            "numbers": numbers, "extra": ", ".join(extra), "key": bool(r.get("key")),
            "artifact": r.get("artifact", ""), "href": href, "command": cmd["recompute"]}


def claims_of(flat: list[dict]) -> list[dict]:
    """Claim records judged by a test (an ``outcome``); a record merely marked ``claim`` —
    a value compared with a claim's number, e.g. stevens2010's "1% as many features" — is a
    value, not a tested claim."""
    return [r for r in flat if r.get("claim") and (r.get("outcome") in OUTCOMES
                                                    or r.get("verdict") in OUTCOMES)]


def scoreboard(claims: list[dict], key_only: bool) -> dict:
    """The claims a scoreboard shows (the ``key`` ones with ``key_only``, all when none is
    marked key) and the count of each outcome in words."""
    shown = [r for r in claims if r.get("key")] if key_only else list(claims)
    if key_only and not shown:
        shown = list(claims)
    counts = {o: sum(1 for r in shown if claim_outcome(r) == o) for o in OUTCOMES}
    words = ", ".join(f"{n} {o}" for o, n in counts.items() if n)
    return {"claims": shown, "counts": counts, "words": words, "total": len(shown),
            "all": len(claims), "keyed": any(r.get("key") for r in claims)}


def _n(t: Tally, b: str) -> int:
    return t.buckets.get(b, 0)


def counts_in_words(t: Tally) -> str:
    """A page's counts as a newcomer reads them: how many published values were rerun on the
    paper's data, how many of those are reproduced (agrees, within noise) or deviate, and the
    rest (stand-in data, not run, checks, derived values, not compared)."""
    rerun = sum(_n(t, b) for b in ("agrees", "noise", "within", "deviates"))
    good = sum(_n(t, b) for b in ("agrees", "noise", "within"))
    parts = []
    if rerun:
        tol = f", {_n(t, 'within')} within a computed tolerance" if _n(t, "within") else ""
        parts.append(f"{good} of the {rerun} published values rerun on the paper's data are "
                     f"reproduced ({_n(t, 'agrees')} agree at the paper's rounding, "
                     f"{_n(t, 'noise')} within noise{tol}) and {_n(t, 'deviates')} deviate")
    else:
        parts.append("no published value was rerun on the paper's data")
    for b, words in (("stand-in", "computed on stand-in data (not reproductions)"),
                     ("not run", "not run"), ("check", "consistency checks"),
                     ("derived", "derived values (never counted as reproduced)"),
                     ("not compared", "shown, not compared"),
                     ("unverified", "on an unverified copy of the data")):
        if _n(t, b):
            parts.append(f"{_n(t, b)} {words}")
    return "; ".join(parts) + "."


REPRODUCED_MEANS = ("“Reproduced” means our value agrees with the published one at the "
                    "paper's rounding, or the published value lies inside the 95% interval "
                    "of ours (“within noise”: the difference is no larger than the sampling "
                    "noise of the test queries or folds).")


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


def _where(c: dict) -> str:
    return ", ".join(f"fold {c[f]}" if f == "fold" else str(c[f])
                     for f in CELL
                     if c.get(f) not in (None, ""))


def artifact_context(art, out_dir: Path, layouts, seen_choices: dict) -> dict | None:
    got = read_artifact(out_dir, art.name)
    if got is None:
        return None
    flat, meta = got
    marks = data_marks(meta, flat)
    if any(d.get("like") for d in meta.get("datasets", [])):
        layouts = []               # the user's data in place of the paper's: no published cells
    cmds = commands(art.paper, art.name)
    tables, left = artifact_tables(art.name, flat, layouts, natural_key, commands=cmds)
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
            "not_run_reason": not_run_reason(meta), "commands": cmds,
            "claims": claims_of(flat),
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
    claims = [claim_row(r, f"#{a['name']}") for a in arts for r in a["claims"]]
    board = scoreboard(claims, key_only=False)
    moved = None if timing else changes.page_entries(
        out_dir, [a["name"] for a in arts], fmt_value, _where)
    return {"paper": paper, "artifacts": arts, "quick": quick, "notes": [] if timing else notes,
            "scoreboard": board, "changes": moved, "words": counts_in_words(total),
            "reproduced_means": REPRODUCED_MEANS, "collapse_after": COLLAPSE_AFTER,
            "summary_rows": summary,
            "timing": timing, "timing_artifacts": timing_arts if timing_page else [],
            "tally": total, "headline": headline(total), "counts": total.row(),
            "up": "../../" if timing else "../"}


#: a change list longer than this is collapsed (its first rows shown, the rest in <details>)
COLLAPSE_AFTER = 12


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


def _pdf_job(paths: tuple[str, str]) -> tuple[bool, str]:
    """:func:`render_pdf` of ``(html, pdf)`` in any process: (written, what it would log)."""
    said: list[str] = []
    written = render_pdf(Path(paths[0]), Path(paths[1]), log=said.append)
    return written, "; ".join(said)


def render_pdfs(pages: list[tuple[Path, Path]], jobs: int = 1, log=print) -> list[Path]:
    """The PDFs of written pages (``(html, pdf)`` pairs), on up to ``jobs`` processes (a
    PDF depends on its page only, so the bytes are those of one process); returns the PDFs
    written."""
    from ..run.runner import map_in_processes
    done = map_in_processes(_pdf_job, [(str(h), str(p)) for h, p in pages], jobs)
    for text in dict.fromkeys(s for _, s in done if s):
        log(text)
    return [p for (_, p), (ok, _) in zip(pages, done) if ok]


def _write_page(ctx: dict, path: Path, pdf_path: Path, pdf: bool, log,
                pdf_later: list | None = None) -> Path:
    """The page, written only if it changed, and its PDF: rendered with ``pdf`` (or, if
    ``pdf_later`` is a list, its ``(page, pdf)`` appended for :func:`render_pdfs`); without,
    a PDF left from an earlier render that no longer matches the page is removed (said)."""
    label = ctx["paper"].id + (" timing" if ctx["timing"] else "")
    html = _template("paper.html.j2").render(**ctx, **_common(), footer=footer_css(label))
    path.parent.mkdir(parents=True, exist_ok=True)
    changed = write_if_changed(path, html.encode("utf-8"))
    if pdf and pdf_later is not None:
        pdf_later.append((path, pdf_path))
    elif pdf:
        render_pdf(path, pdf_path, log)
    elif changed and pdf_path.is_file():
        pdf_path.unlink()
        log(f"removed {pdf_path}: it no longer matched {path.name} (--no-pdf); run without "
            f"--no-pdf to write it again")
    return path


def render_paper(paper_mod, out_root: Path, notes: list[str], pdf: bool = True, log=print,
                 pdf_later: list | None = None) -> Path:
    """The paper's main page (and PDF), and its timing page when timing artifacts were
    written; returns the main page's path.  ``pdf_later``: a list that receives the pages'
    ``(page, pdf)`` pairs instead of rendering the PDFs here (:func:`render_pdfs`)."""
    pid = paper_mod.PAPER.id
    out_dir = Path(out_root) / pid
    ctx = paper_context(paper_mod, out_root, notes)
    path = _write_page(ctx, out_dir / "index.html", out_dir / f"{pid}.pdf", pdf, log, pdf_later)
    tctx = paper_context(paper_mod, out_root, notes, timing=True)
    if tctx["artifacts"]:
        tdir = out_dir / TIMING_DIR
        _write_page(tctx, tdir / "index.html", tdir / f"{pid}-timing.pdf", pdf, log,
                    pdf_later)
    return path


# --- the index --------------------------------------------------------------------------------

def index_context(paper_mods, out_root: Path) -> dict:
    out_root = Path(out_root)
    papers, total = [], Tally()
    for mod in paper_mods:
        pid = mod.PAPER.id
        out_dir = out_root / pid
        tally, n, claims = Tally(), 0, []
        for art in mod.ARTIFACTS:
            if art.timing:
                continue
            got = read_artifact(out_dir, art.name)
            if got is None:
                continue
            n += 1
            tally.add(got[0])
            claims += [claim_row(r, f"{pid}/index.html#{art.name}")
                       for r in claims_of(got[0])]
        total += tally
        page = (out_dir / "index.html").is_file()
        papers.append({"id": pid, "title": mod.PAPER.title,
                       "page": f"{pid}/index.html" if page else None,
                       "pdf": f"{pid}/{pid}.pdf" if (out_dir / f"{pid}.pdf").is_file() else None,
                       "timing": f"{pid}/{TIMING_DIR}/index.html"
                       if (out_dir / TIMING_DIR / "index.html").is_file() else None,
                       "counts": tally.row(), "headline": headline(tally)[0] if n else
                       "Not rendered into this directory.",
                       "scoreboard": scoreboard(claims, key_only=True),
                       "words": counts_in_words(tally) if n else ""})
    return {"papers": papers, "total": total.row(), "headline": headline(total),
            "benchmarks": (out_root / "benchmarks.html").is_file(),
            "words": counts_in_words(total), "reproduced_means": REPRODUCED_MEANS}


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
            text = f"{v:,.{d}f}"
            return text.rstrip("0").rstrip(".") if "." in text else text
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


#: units in measurement keys (token sequences of the key split at "_"), and how a reader
#: reads them; a unit may sit anywhere in the key ("throughput_MB_s_best": throughput, best,
#: in MB/s)
_UNIT_TOKENS = ((("MB", "per", "cpu", "s"), " MB per CPU-second"), (("MB", "s"), " MB/s"),
                (("GiB",), " GiB"), (("MB",), " MB"), (("us",), " µs"), (("ms",), " ms"),
                (("pct",), " %"), (("s",), " s"))
#: words of keys as a reader writes them
_WORDS = {"cpu": "CPU", "rss": "RSS", "cg": "CG", "gnorm": "gradient norm", "vs": "vs"}


def _split_key(k: str) -> tuple[list[str], str]:
    """(label tokens, unit) of a measurement key: the first unit found is removed from the
    tokens (the tokens after it qualify the label: "best", "min")."""
    tokens = k.split("_")
    for seq, unit in _UNIT_TOKENS:
        n = len(seq)
        for i in range(len(tokens) - n + 1):
            if tuple(tokens[i:i + n]) == seq and (i > 0 or len(tokens) == n and seq != ("s",)):
                return tokens[:i] + tokens[i + n:], unit
    return tokens, ""


def _label(k: str) -> str:
    """A measurement key as words: its unit dropped from the name (the unit goes with the
    value), ``eps_1e3`` as "(ε = 1e-3)", ``eps`` alone as ε, abbreviations as written
    (CPU, RSS, CG); "cpu_s" is the CPU time."""
    tokens, unit = _split_key(k)
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t == "eps":
            m = re.fullmatch(r"1e(\d+)", tokens[i + 1]) if i + 1 < len(tokens) else None
            if m:
                out.append(f"(ε = 1e-{m.group(1)})")
                i += 2
                continue
            out.append("ε")
        elif t:
            out.append(_WORDS.get(t, t))
        i += 1
    text = " ".join(out).strip()
    if text == "CPU" and unit == " s":
        return "CPU time"
    if not text:                      # the key is its unit: "MB" (of the input)
        return {" MB": "size", " GiB": "memory", " s": "time"}.get(unit, k)
    return text


def _unit(k: str) -> str:
    return _split_key(k)[1]


def _is_seconds(k: str) -> bool:
    """Whether a key's values are seconds (shown in s, ms or µs as they fit)."""
    return _unit(k) == " s" or k in ("seconds", "times") or k.startswith("times_")


def _other(k: str, v) -> str:
    seconds = _is_seconds(k)
    unit = "" if seconds else _unit(k)
    if isinstance(v, dict):            # "times n: 46; 92; 184": sizes in numeric order
        return "; ".join(f"{a}: {_seconds(b) if seconds and isinstance(b, (int, float)) else _sig(b)}"
                         + ("" if seconds or isinstance(b, str) else unit)
                         for a, b in sorted(v.items(), key=lambda kv: _number_first(kv[0])))
    if isinstance(v, (int, float)) and not isinstance(v, bool) and seconds:
        return _seconds(float(v))
    if isinstance(v, list) and all(isinstance(x, (int, float)) for x in v):
        return " / ".join(_sig(x) for x in v) + unit
    return _sig(v) + unit if not isinstance(v, str) else v


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
                      "params": [f"{_label(k)} = {_other(k, v)}"
                                 for k, v in c.get("params", {}).items()],
                      "ours": _seconds(c.get("ours_s")), "load": load, "peers": peers or [
                          {"name": "—", "seconds": "", "ratio": "", "spread": "",
                           "slower": False, "why": ""}],
                      "other": [(_label(k), _other(k, v)) for k, v in c.items()
                                if k not in _CASE_KEYS and k != "machine"]
                      + _case_machine(c, results.get("machine", {}))})
    m = dict(results.get("machine", {}))
    if not m.get("cpu_model"):     # older files: the model is on the cases
        models = {c.get("cpu_model") for c in results.get("cases", []) if c.get("cpu_model")}
        m["cpu_model"] = ", ".join(sorted(models)) or None
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
            "cpu_model": m.get("cpu_model") or "not recorded",
            "bench_version": results.get("version", "")}


_MACHINE_KEYS = ("cpu_model", "platform", "cpus", "python", "numpy", "processor")


def _case_machine(c: dict, machine: dict) -> list[tuple[str, str]]:
    """A case's own machine, shown only where it differs from the page's (a case measured
    in another session: ``bench scale``)."""
    own = {**(c.get("machine") or {}), **({"cpu_model": c["cpu_model"]} if c.get("cpu_model")
                                          else {})}
    differ = {k: own[k] for k in _MACHINE_KEYS if own.get(k) is not None
              and machine.get(k) is not None and str(own[k]) != str(machine.get(k))}
    if not differ:
        return []
    return [("measured on", ", ".join(f"{'CPU' if k == 'cpu_model' else k} {v}"
                                      for k, v in differ.items()))]


def render_benchmarks(results: dict, path: Path) -> None:
    """The benchmarks page (``benchmarks.html``) from the cases of ``benchmarks.json``."""
    html = _template("benchmarks.html.j2").render(**benchmarks_context(results), **_common(),
                                                  footer=footer_css("benchmarks"),
                                                  index=(Path(path).parent / "index.html").is_file())
    write_if_changed(Path(path), html.encode("utf-8"))
