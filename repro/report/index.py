"""The index page: each paper's key claims (the scoreboard), its headline and counts, links to
its page, PDF and timing page, and the counts over all papers."""
from __future__ import annotations

from pathlib import Path

from ..files import write_if_changed
from .build import TIMING_DIR, read_artifact
from .render import common, footer_css, template
from .scoreboard import REPRODUCED_MEANS, claim_row, claims_of, counts_in_words, scoreboard
from .verdicts import Tally, headline


def index_context(paper_mods, out_root: Path) -> dict:
    out_root = Path(out_root)
    papers, total = [], Tally()
    for mod in paper_mods:
        pid = mod.PAPER.id
        out_dir = out_root / pid
        tally, n, claims, marks = Tally(), 0, [], {}
        for art in mod.ARTIFACTS:
            if art.timing:
                continue
            got = read_artifact(out_dir, art.name)
            if got is None:
                continue
            n += 1
            tally.add(got[0])
            marks.update(dict.fromkeys(r["data_mark"] for r in got[0] if r.get("data_mark")))
            claims += [claim_row(r, f"{pid}/index.html#{art.name}")
                       for r in claims_of(got[0])]
        total += tally
        page = (out_dir / "index.html").is_file()
        papers.append({"id": pid, "title": mod.PAPER.title,
                       "page": f"{pid}/index.html" if page else None,
                       "pdf": f"{pid}/{pid}.pdf" if (out_dir / f"{pid}.pdf").is_file() else None,
                       "timing": f"{pid}/{TIMING_DIR}/index.html"
                       if (out_dir / TIMING_DIR / "index.html").is_file() else None,
                       "counts": tally.row(), "headline": (headline(tally)[0] if n else
                       "Not rendered into this directory.") + "".join(
                           f" Values computed on {m}." for m in marks),
                       "scoreboard": scoreboard(claims, key_only=True),
                       "words": counts_in_words(tally) if n else ""})
    return {"papers": papers, "total": total.row(), "headline": headline(total),
            "benchmarks": (out_root / "benchmarks.html").is_file(),
            "words": counts_in_words(total), "reproduced_means": REPRODUCED_MEANS}


def render_index(paper_mods, out_root: Path) -> Path:
    html = template("index.html.j2").render(**index_context(paper_mods, out_root), **common(),
                                            footer=footer_css("repro-rank reports"))
    path = Path(out_root) / "index.html"
    write_if_changed(path, html.encode("utf-8"))
    return path

