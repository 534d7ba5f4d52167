"""Step 5, render: the papers' pages, the index and their PDFs, and what the command says
about every report file.  Each page's PDF is rendered on the ``--jobs`` processes while the
next pages are built (:class:`repro.report.pdf.PdfQueue`: weasyprint takes most of a
rendering)."""
from __future__ import annotations

from pathlib import Path

from .. import papers as registry
from ..report.index import render_index
from ..report.pages import render_paper
from ..report.pdf import PdfQueue
from .options import Options


def pdf_queue(opts: Options) -> PdfQueue:
    """The queue of PDFs: on the ``--jobs`` processes, one when runs went to a cluster."""
    return PdfQueue(opts.jobs if not opts.scheduler else 1)


def render_page(paper: str, opts: Options, pdfs: PdfQueue,
                files: list[tuple[Path, bool]]) -> None:
    """The page of ``paper`` (with its notes), its PDF queued; the files it wrote added to
    ``files``."""
    mod = registry.module(paper)
    render_paper(mod, opts.out_root, list(getattr(mod, "NOTES", ())), pdf=opts.pdf,
                 log=opts.log, pdf_later=pdfs, written=files)


def render_the_index(opts: Options, pdfs: PdfQueue, files: list[tuple[Path, bool]]) -> None:
    """The index of every paper, its PDF queued."""
    render_index([registry.module(p) for p in registry.paper_ids()], opts.out_root,
                 pdf=opts.pdf, log=opts.log, pdf_later=pdfs, written=files)


def file_lines(files: list[tuple[Path, bool]], out_root: Path) -> list[str]:
    """What the command did to each report file, one line per folder and outcome:
    ``wrote DIR/: a, b`` and ``unchanged DIR/: c`` (bytes as they were)."""
    groups: dict[tuple[str, Path], list[str]] = {}
    for path, changed in dict(files).items():
        groups.setdefault(("wrote" if changed else "unchanged", path.parent), []).append(path.name)
    return [f"{what:9s} {folder}/: {', '.join(names)}"
            for (what, folder), names in sorted(groups.items(), key=lambda kv: (kv[0][0] != "wrote",
                                                                                str(kv[0][1])))]
