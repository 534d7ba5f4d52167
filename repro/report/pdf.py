"""PDFs of the written pages (weasyprint), reproducible: the same HTML gives the same bytes."""
from __future__ import annotations

import contextlib
import logging
from functools import lru_cache
import os
import re
from pathlib import Path

from ..files import write_if_changed

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


def render_pdf(html_path: Path, pdf_path: Path, log=print) -> bool | None:
    """The PDF of a written page (reproducible: fixed dates); written only if its bytes
    changed.  Whether they changed; None when no PDF could be rendered."""
    try:
        from weasyprint import HTML
    except Exception as exc:   # ImportError or a missing system library (pango)
        log(f"PDF not written: weasyprint is not importable ({exc}); the HTML is complete")
        return None
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    with _fixed_dates():
        data = HTML(string=pdf_source(html_path), base_url=None).write_pdf()
    return write_if_changed(pdf_path, data)


def pending_pdfs(pdf_later) -> set[Path]:
    """The PDFs a :class:`PdfQueue` (or a list of ``(page, pdf)``) will render."""
    pairs = pdf_later.pairs if isinstance(pdf_later, PdfQueue) else (pdf_later or [])
    return {Path(p) for _, p in pairs}


@lru_cache(maxsize=1)
def can_render() -> bool:
    """Whether this installation renders PDFs (weasyprint and its libraries import): a page
    links the PDF that is being rendered beside it."""
    try:
        import weasyprint  # noqa: F401
    except Exception:      # ImportError or a missing system library (pango)
        return False
    return True


def pdf_source(html_path: Path) -> str:
    """The page as the PDF is rendered from: its images' sources made absolute (so that they
    are found and drawn) and no base URL, so that its links stay relative to the PDF (beside
    its page) — the same PDF bytes from any checkout path; without the collapsed blocks that
    print does not show (:func:`without_unprinted_details`)."""
    base = Path(html_path).parent.resolve()
    return re.sub(r'(<img\b[^>]*?\bsrc=")([^":#?]+)(")',
                  lambda m: m.group(1) + (base / m.group(2)).as_uri() + m.group(3),
                  without_unprinted_details(Path(html_path).read_text(encoding="utf-8")))


#: the collapsed blocks that print shows (``base.css``: ``@media print { details { display:
#: none } details.foot, details.choices { display: block } }``)
PRINTED_DETAILS = ("foot", "choices")
_DETAILS_OPEN = re.compile(r'<details\b([^>]*)>')
_DETAILS_TAG = re.compile(r'<(/?)details\b[^>]*>')
_CLASS = re.compile(r'\bclass="([^"]*)"')


def without_unprinted_details(html: str) -> str:
    """``html`` without the ``<details>`` blocks that print hides (every one but those of a
    class in :data:`PRINTED_DETAILS`; nested blocks with the one around them): a page's
    per-value records, most of its bytes, are such blocks, and weasyprint parses and styles
    what it does not show.  The PDF's bytes are those of the whole page (a test renders
    both)."""
    out, pos = [], 0
    for m in _DETAILS_OPEN.finditer(html):
        if m.start() < pos:
            continue                                    # inside a block already left out
        cls = _CLASS.search(m.group(1))
        if cls and set(cls.group(1).split()) & set(PRINTED_DETAILS):
            continue
        depth, end = 0, None
        for t in _DETAILS_TAG.finditer(html, m.start()):
            depth += -1 if t.group(1) else 1
            if depth == 0:
                end = t.end()
                break
        if end is None:                                 # unbalanced: leave the page whole
            return html
        out.append(html[pos:m.start()])
        pos = end
    out.append(html[pos:])
    return "".join(out)


def write_page(html: str, path: Path, pdf_path: Path, pdf: bool, log=print,
               pdf_later: "list | PdfQueue | None" = None,
               written: list | None = None) -> bool:
    """A page, written only if it changed, and its PDF: rendered with ``pdf`` (or, if
    ``pdf_later`` is given, its ``(page, pdf)`` appended to it: a :class:`PdfQueue`, which
    starts rendering it, or a list that collects the pairs); without,
    a PDF left from an earlier render that no longer matches the page is removed (said).
    ``written``: a list that receives ``(file, whether its bytes changed)`` of the page (and
    of its PDF when rendered here).  Whether the page changed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    changed = write_if_changed(path, html.encode("utf-8"))
    if written is not None:
        written.append((path, changed))
    if pdf and pdf_later is not None:
        pdf_later.append((path, pdf_path))
    elif pdf:
        done = render_pdf(path, pdf_path, log)
        if written is not None and done is not None:
            written.append((pdf_path, done))
    elif changed and pdf_path.is_file():
        pdf_path.unlink()
        log(f"removed {pdf_path}: it no longer matched {path.name} (--no-pdf); run without "
            f"--no-pdf to write it again")
    return changed


def _pdf_job(paths: tuple[str, str]) -> tuple[bool | None, str]:
    """:func:`render_pdf` of ``(html, pdf)`` in any process: (changed, or None: not
    rendered; what it would log)."""
    said: list[str] = []
    written = render_pdf(Path(paths[0]), Path(paths[1]), log=said.append)
    return written, "; ".join(said)


class PdfQueue:
    """The PDFs of written pages (``(html, pdf)`` pairs, appended as each page is written, as
    to a list: ``write_page(..., pdf_later=queue)``), rendered on up to ``jobs`` processes
    while the next pages are built (a PDF depends on its page only, so the bytes are those
    of one process; with one job, one after the other at :meth:`finish`)."""

    def __init__(self, jobs: int = 1):
        from ..run.backends import ProcessQueue
        self._queue = ProcessQueue(_pdf_job, jobs)

    def append(self, pair: tuple[Path, Path]) -> None:
        self._queue.append((str(pair[0]), str(pair[1])))

    def __len__(self) -> int:
        return len(self._queue)

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """The ``(page, pdf)`` pairs appended so far."""
        return list(self._queue.items)

    def finish(self, log=print) -> list[tuple[Path, bool]]:
        """Wait for every PDF; what their rendering said, logged once; ``(pdf, whether its
        bytes changed)`` of each PDF rendered."""
        done = self._queue.results()
        for text in dict.fromkeys(s for _, s in done if s):
            log(text)
        return [(Path(p), changed) for (_, p), (changed, _) in zip(self._queue.items, done)
                if changed is not None]

    def stop(self) -> None:
        """End the rendering processes now (the command failed or was interrupted)."""
        self._queue.stop()

