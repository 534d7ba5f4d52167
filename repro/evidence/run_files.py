"""Document scores of a run, on request: the *score sink*, and the TREC files written from it.

The run cache holds no document scores (it would grow by the size of every test set times
every method).  ``python -m repro runs`` (:mod:`repro.cli.runs`) re-executes an
artifact's runs in this process with a sink active (:func:`collecting`): while it is,

* :func:`repro.evidence.protocol.measured` attaches what it scored — the data, a copy of the scores,
  the LETOR conventions — to the :class:`~repro.evidence.Measured` it returns
  (:func:`attach`: a transient attribute ``scored``, never serialised);
* :meth:`repro.evidence.Evidence.measured` hands it to the sink with the method, the fold and
  the record's key fields (:func:`offer`).

With no sink active (every other command) neither does anything: records, tables and sidecars
are exactly as before.  The sink is a :class:`contextvars.ContextVar`, so it is seen only by
code running in the context that set it (never by pool workers or another thread).

Runs whose tasks score with a paper's own metric code and call
:meth:`~repro.evidence.Evidence.per_query` directly offer nothing: for them only the
per-query values exist.  A task may offer a scoring itself with :func:`offer_scores`.

File formats (:func:`run_lines`, :func:`qrels_lines`, :func:`letor_lines`): TREC run lines
``qid Q0 docid rank score runtag`` — ranks by descending score, ties in document order (the
LETOR evaluation's order), scores written with the shortest text that reads back as the same
double (``repr``), so a file re-scored with the LETOR evaluation gives the run's values to the
last bit; qrels lines ``qid 0 docid label``; and a features-free LETOR file (``label qid:Q
#docid = D``) aligned with a one-score-per-line file, the input of ``python -m repro eval``.
Document ids are the LETOR comment's ``#docid = …`` where the data has them (and they are
unique within each query), else ``<qid>-<index in query>``.
"""
from __future__ import annotations

import contextlib
import re
from contextvars import ContextVar
from dataclasses import dataclass, field

import numpy as np

__all__ = ["ScoreSink", "Scoring", "collecting", "active", "attach", "offer", "offer_scores",
           "docids", "ranking", "run_lines", "qrels_lines", "letor_lines", "score_lines",
           "read_run", "read_qrels", "slug"]


@dataclass
class Scored:
    """What :func:`repro.evidence.protocol.measured` scored: the data (a QueryData), the scores (a
    copy, float64) and the LETOR conventions (3 or 4)."""
    data: object
    scores: np.ndarray
    version: int | None = None


@dataclass
class Scoring:
    """One scoring offered to the sink: ``method`` at ``fold`` with further key fields
    ``keys`` (those of its records' query tables) and the measures recorded from it."""
    method: str
    fold: str | None
    keys: dict
    data: object
    scores: np.ndarray
    version: int | None = None
    names: tuple = ()


@dataclass
class ScoreSink:
    """Collects the scorings offered while it is active (in offering order)."""
    scorings: list[Scoring] = field(default_factory=list)


_SINK: ContextVar[ScoreSink | None] = ContextVar("repro_score_sink", default=None)


@contextlib.contextmanager
def collecting():
    """Activate a fresh sink for the code run inside the ``with`` block; yields it."""
    sink = ScoreSink()
    token = _SINK.set(sink)
    try:
        yield sink
    finally:
        _SINK.reset(token)


def active() -> bool:
    """Whether a sink is active in this context."""
    return _SINK.get() is not None


def attach(measured, data, scores, version: int | None = None) -> None:
    """Attach (data, scores) to a :class:`~repro.evidence.Measured` — only while a sink is
    active (otherwise the object is left exactly as it is)."""
    if _SINK.get() is None:
        return
    measured.scored = Scored(data, np.array(scores, dtype=np.float64, copy=True).ravel(),
                             version)


def offer(method: str, measured, fold=None, keys: dict | None = None, names=()) -> None:
    """Hand the scoring behind ``measured`` (attached by :func:`attach`) to the active sink,
    as ``method`` at ``fold`` with key fields ``keys``; nothing without a sink or without an
    attached scoring."""
    scored = getattr(measured, "scored", None)
    if _SINK.get() is None or scored is None:
        return
    offer_scores(method, scored.data, scored.scores, fold, keys, scored.version, names)


def offer_scores(method: str, data, scores, fold=None, keys: dict | None = None,
                 version: int | None = None, names=()) -> None:
    """Offer a scoring of ``data`` (a QueryData) directly — for a task that records its
    per-query values by other means; nothing without an active sink."""
    sink = _SINK.get()
    if sink is None:
        return
    sink.scorings.append(Scoring(method, None if fold is None else str(fold), dict(keys or {}),
                                 data, np.array(scores, dtype=np.float64, copy=True).ravel(),
                                 version, tuple(names)))


# --- TREC and LETOR text -------------------------------------------------------------------

_BAD = re.compile(r"[^A-Za-z0-9._+@-]+")


def slug(text) -> str:
    """A file-name- and TREC-token-safe form of ``text`` (letters, digits, ``._+@-``)."""
    out = _BAD.sub("-", str(text)).strip("-.")
    return out or "_"


def docids(data) -> tuple[list[str], str]:
    """The document ids of ``data`` in data order, and where they come from: the LETOR
    comment's ``#docid`` where every document has one that is a single token and unique
    within its query, else ``<qid>-<index in query>`` (index from 0)."""
    qp, qids = data.query_ptr, np.asarray(data.qids).tolist()
    ids = getattr(data, "docids", None)
    if ids is not None and len(ids) == data.n_docs:
        ids = [None if d is None else str(d) for d in ids]
        ok = all(d and not any(c.isspace() for c in d) for d in ids) and all(
            len(set(ids[qp[q]:qp[q + 1]])) == qp[q + 1] - qp[q] for q in range(len(qids)))
        if ok:
            return ids, "the LETOR comment's #docid"
    return ([f"{qids[q]}-{i}" for q in range(len(qids)) for i in range(qp[q + 1] - qp[q])],
            "<qid>-<index in query> (the data has no unique #docid per query)")


def ranking(scores: np.ndarray, start: int, stop: int) -> np.ndarray:
    """Document positions ``start..stop-1`` ordered by descending score, ties in document
    order (a stable sort: the LETOR evaluation's order)."""
    return start + np.argsort(-scores[start:stop], kind="stable")


def fmt_score(v: float) -> str:
    """The shortest text that reads back as the same double."""
    return repr(float(v))


def fmt_label(v: float) -> str:
    v = float(v)
    return str(int(v)) if v.is_integer() else repr(v)


def run_lines(data, scores, tag: str, ids: list[str] | None = None):
    """TREC run lines ``qid Q0 docid rank score runtag`` (queries in data order)."""
    ids = docids(data)[0] if ids is None else ids
    qp, qids = data.query_ptr, np.asarray(data.qids).tolist()
    scores = np.asarray(scores, dtype=np.float64)
    for q, qid in enumerate(qids):
        for rank, i in enumerate(ranking(scores, qp[q], qp[q + 1]), start=1):
            yield f"{qid} Q0 {ids[i]} {rank} {fmt_score(scores[i])} {tag}\n"


def qrels_lines(data, ids: list[str] | None = None):
    """TREC qrels lines ``qid 0 docid label`` (documents in data order)."""
    ids = docids(data)[0] if ids is None else ids
    qid_doc = np.repeat(np.asarray(data.qids), np.diff(data.query_ptr)).tolist()
    for qid, d, y in zip(qid_doc, ids, np.asarray(data.y).tolist()):
        yield f"{qid} 0 {d} {fmt_label(y)}\n"


def letor_lines(data, ids: list[str] | None = None, version: int | None = None):
    """A LETOR file without features — ``label qid:Q #docid = D`` in data order — for
    ``python -m repro eval`` with :func:`score_lines` (features play no part there);
    ``version``: the LETOR conventions (3 or 4) the run was scored by, recorded in each
    comment (``#docid = D letor = 4``) so that ``eval`` applies them by default."""
    ids = docids(data)[0] if ids is None else ids
    mark = f" {LETOR_MARK} {version}" if version else ""
    qid_doc = np.repeat(np.asarray(data.qids), np.diff(data.query_ptr)).tolist()
    for qid, d, y in zip(qid_doc, ids, np.asarray(data.y).tolist()):
        yield f"{fmt_label(y)} qid:{qid} #docid = {d}{mark}\n"


#: the comment field of an exported LETOR file that names its conventions (3 or 4)
LETOR_MARK = "letor ="


def score_lines(scores):
    """One score per line, in data order (aligned with :func:`letor_lines`)."""
    for v in np.asarray(scores, dtype=np.float64).tolist():
        yield fmt_score(v) + "\n"


# --- reading them back ---------------------------------------------------------------------

def read_run(path) -> list[tuple[str, str, int, float, str]]:
    """``(qid, docid, rank, score, tag)`` of every line of a TREC run file; a line that is not
    six fields with ``Q0``, an integer rank and a number raises ``ValueError`` naming it."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            f = line.split()
            try:
                if len(f) != 6 or f[1] != "Q0":
                    raise ValueError
                out.append((f[0], f[2], int(f[3]), float(f[4]), f[5]))
            except ValueError:
                raise ValueError(f"{path}, line {n}: not a TREC run line "
                                 f"(qid Q0 docid rank score runtag): {line.rstrip()!r}") from None
    return out


def read_qrels(path) -> list[tuple[str, str, float]]:
    """``(qid, docid, label)`` of every line of a qrels file, in file order."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            f = line.split()
            try:
                if len(f) != 4:
                    raise ValueError
                out.append((f[0], f[2], float(f[3])))
            except ValueError:
                raise ValueError(f"{path}, line {n}: not a qrels line (qid 0 docid label): "
                                 f"{line.rstrip()!r}") from None
    return out
