"""The index page: the answer first — one headline over all papers (values reproduced,
inconclusive and deviating; claims' outcomes as replications) and each paper's figure at a glance
(:mod:`.overview`) with its headline — then each paper's key claims (the scoreboard), its
counts, links to its page, PDF and timing page, and the counts over all papers; and the
index's PDF."""
from __future__ import annotations

from pathlib import Path

from .build import TIMING_DIR, read_artifact
from .legend import bucket_meanings, glossary, legend
from .overview import OVERVIEW_FILE
from .pdf import can_render, pending_pdfs, write_page
from .render import common, footer_css, template
from .scoreboard import (REPRODUCED_MEANS, claim_outcome, claim_row, claims_of,
                         counts_in_words, declared_order, scoreboard)
from .standins import declared_stand_ins, stand_ins_of
from .scoreboard import OUTCOME_WORDS_BY_CODE
from .verdicts import OUTCOMES, Tally, headline, verdict_class

#: the index's PDF, beside it
INDEX_PDF = "index.pdf"
def answer(total: Tally, claims: list[dict]) -> list[str]:
    """The index's headline: what was reproduced over all papers, and how the papers' key
    claims and the others came out as replications."""
    lines = [headline(total)[0]]
    for family, words in (("key", "key claims"), ("secondary", "other claims")):
        rows = [r for r in claims if r.get("family") == family]
        if rows:
            counts = {o: sum(1 for r in rows if claim_outcome(r) == o) for o in OUTCOMES}
            lines.append(f"Of the papers' {len(rows)} {words} tested (per data set and "
                         f"measure): " + ", ".join(f"{n} {OUTCOME_WORDS_BY_CODE[o]}"
                                                   for o, n in counts.items() if n) + ".")
    return lines


def index_context(paper_mods, out_root: Path, pending=()) -> dict:
    """The index's context; ``pending``: the PDFs being rendered beside their pages (linked
    already, so that the first render of the index is its final one)."""
    out_root = Path(out_root)
    papers, total, every_claim, classes = [], Tally(), [], set()
    for mod in paper_mods:
        pid = mod.PAPER.id
        out_dir = out_root / pid
        declared = declared_stand_ins(pid, getattr(mod, "PUBLISHED_PATH", None))
        tally, n, claims, marks, datasets, metrics = Tally(), 0, [], {}, [], []
        for art in mod.ARTIFACTS:
            if art.timing:
                continue
            got = read_artifact(out_dir, art.name)
            if got is None:
                continue
            n += 1
            flat, meta = got
            tally.add(flat)
            classes.update(verdict_class(r) for r in flat)
            marks.update(dict.fromkeys(r["data_mark"] for r in flat if r.get("data_mark")))
            datasets += [d["dataset"] for d in meta.get("datasets", [])]
            metrics += list(meta.get("metrics", []))
            claims += [claim_row(r, f"{pid}/index.html#{art.name}", stand_ins_of(meta, declared))
                       for r in claims_of(flat)]
        total += tally
        every_claim += claims
        page = (out_dir / "index.html").is_file()
        order = [pat for art in mod.ARTIFACTS for pat in declared_order(art)]
        papers.append({"id": pid, "title": mod.PAPER.title,
                       "page": f"{pid}/index.html" if page else None,
                       "pdf": f"{pid}/{pid}.pdf" if (out_dir / f"{pid}.pdf").is_file() or (
                           out_dir / f"{pid}.pdf" in set(pending) and can_render()) else None,
                       "timing": f"{pid}/{TIMING_DIR}/index.html"
                       if (out_dir / TIMING_DIR / "index.html").is_file() else None,
                       "overview": f"{pid}/{OVERVIEW_FILE}"
                       if (out_dir / OVERVIEW_FILE).is_file() else None,
                       "counts": tally.row(), "headline": (headline(tally)[0] if n else
                       "Not rendered into this directory.") + "".join(
                           f" Values computed on {m}." for m in marks),
                       "scoreboard": scoreboard(claims, key_only=True, order=order,
                                                datasets=list(dict.fromkeys(datasets)),
                                                metrics=list(dict.fromkeys(metrics))),
                       "words": counts_in_words(tally) if n else ""})
    boards = [p["scoreboard"] for p in papers]
    merged = {"total": sum(b["total"] for b in boards),
              "claims": [r for b in boards for r in b["claims"]]}
    return {"papers": papers, "total": total.row(), "headline": headline(total),
            "answer": answer(total, every_claim),
            "benchmarks": (out_root / "benchmarks.html").is_file(),
            "words": counts_in_words(total), "reproduced_means": REPRODUCED_MEANS,
            "legend": legend(classes), "glossary": glossary(merged),
            "meanings": bucket_meanings()}


def render_index(paper_mods, out_root: Path, pdf: bool = False, log=print,
                 pdf_later: "list | PdfQueue | None" = None,
                 written: list | None = None) -> Path:
    """The index page and, with ``pdf``, its PDF ``index.pdf`` (rendered here, or its
    ``(page, pdf)`` appended to ``pdf_later``, a list or a :class:`.pdf.PdfQueue`); without, an
    index PDF that no longer matches the page is removed (said)."""
    html = template("index.html.j2").render(**index_context(paper_mods, out_root, pending_pdfs(pdf_later)),
                                            **common(),
                                            footer=footer_css("repro-rank reports"))
    path = Path(out_root) / "index.html"
    write_page(html, path, Path(out_root) / INDEX_PDF, pdf, log, pdf_later, written)
    return path
