"""``python -m repro eval``: score any ranker's output the way the official LETOR tool does.

Reads a LETOR file and a score file (one score per line, aligned with the LETOR file's lines)
and prints exactly what ``Eval-Score-4.0.pl`` / ``Eval-Score-3.0.pl`` write to their output
file (flag 0, or flag 1 with ``--per-query``).  The scripts' reading rules are reproduced:
documents are grouped by qid, a document id repeated within a query replaces the earlier line
(a warning is printed), queries are listed in numeric qid order.  Unlike the scripts we refuse
non-numeric, NaN and infinite scores, a score file whose length differs from the LETOR file's
(the scripts read such lines as 0 or ignore them) and, as the suite's loader does, a qid whose
lines are split in two places by another query (the scripts merge them, which reorders
documents and changes how ties are broken); we accept CRLF files (the scripts' regexes fail on
them under a Unix perl).

``convention`` (``repro eval --convention NAME``, a name of
:data:`repro.metrics.family.CONVENTIONS` or a paper's own: :func:`conventions`) evaluates by
another convention instead: ``letor3`` /
``letor4`` / ``stevens2010`` print the official script's output for that version, ``mslr``
what ``Eval-Score-MSLR.pl`` prints (the 4.0 layout, P@k and MAP with labels ≥ 2 relevant), and
the others (``trec_eval``, ``trec_eval_classic``, ``gbdt``, ``lesmola2007``, ``dubey2009``) the
4.0 layout without MeanNDCG: P@1..10 and MAP, NDCG@1..10, per query and averaged over the
queries that have a value (``dubey2009`` leaves out queries without a good document), in
numeric qid order.  ``trec_eval`` gives current trec_eval's ``P.k``, ``map`` and
``ndcg_cut.k`` of the same scores (equal scores ordered by the ``#docid`` comments, as
trec_eval orders docnos).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

from ..data.io import iter_line_chunks, printable, read_bytes
from ..data.labels import check_labels
from ..data.letor import BOM, group_queries, max_features, tokenize
from ..errors import DataError
from ..metrics.family import (CONVENTIONS, Convention, average_precision, ndcg, precision,
                              script_mean)
from ..metrics.letor_eval import MAX_K, evaluate


#: A score line: a plain decimal number (sign, digits, point, exponent), blanks around it, an
#: optional CR before the newline.  No "1_000", "nan", "inf", "0x1p3".
_SCORE = rb"[ \t]*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t]*\r?"
_SCORE_LINES = re.compile(rb"(?:" + _SCORE + rb"\n)*")
_SCORE_LINE = re.compile(_SCORE)
SCORE_CHUNK_BYTES = 1 << 22


def read_scores(path: Path, n_lines: int) -> np.ndarray:
    """One score per line (lines end at "\\n" only, as the LETOR reader's do; a CR before it is
    dropped), each a plain decimal number, exactly ``n_lines`` of them.  Read in chunks: a
    file longer than the LETOR file is refused at the first line too many, and memory is the
    scores plus a chunk."""
    out = np.empty(n_lines, dtype=np.float64)
    row = 0
    first = True
    for chunk in iter_line_chunks(path, SCORE_CHUNK_BYTES):
        if first and chunk.startswith(BOM):
            chunk = b"   " + chunk[3:]
        first = False
        if not chunk.endswith(b"\n"):               # the last line, without its newline
            chunk += b"\n"
        lines = chunk.count(b"\n")
        if row + lines > n_lines:
            raise DataError(f"{path}: has more than {n_lines} lines (line {n_lines + 1} and on), "
                            f"but the LETOR file has {n_lines}; give exactly one score per "
                            f"LETOR line")
        if _SCORE_LINES.fullmatch(chunk) is None:
            for i, line in enumerate(chunk.split(b"\n")[:-1]):
                if _SCORE_LINE.fullmatch(line) is None:
                    text = printable(line.decode("utf-8", "replace").strip(), 60)
                    what = ("is not finite" if text.lower().lstrip("+-") in
                            ("nan", "inf", "infinity") else "is not a plain decimal number")
                    raise DataError(f"{path}, line {row + i + 1}: score {text!r} {what}")
        parts = chunk.split(b"\n")[:-1]
        values = np.array(parts, dtype=np.float64)
        if not np.all(np.isfinite(values)):
            i = int(np.flatnonzero(~np.isfinite(values))[0])
            text = parts[i].strip().decode("ascii")
            raise DataError(f"{path}, line {row + i + 1}: score {text!r} is not finite (too "
                            f"large)")
        out[row:row + lines] = values
        row += lines
    if row != n_lines:
        raise DataError(f"{path}: has {row} lines but the LETOR file has {n_lines}; give exactly "
                        f"one score per LETOR line")
    return out


def detect_version(buf: bytes) -> int:
    """The conventions recorded in the first document's comment by ``python -m repro runs``
    (``letor = 3`` / ``letor = 4``); else 4 if it has LETOR 4.0's ``inc =`` field, else 3."""
    first = buf[:buf.find(b"\n")] if b"\n" in buf else buf
    comment = first.split(b"#", 1)[1] if b"#" in first else b""
    recorded = re.search(rb"(?:^|\s)letor = ([34])(?:\s|$)", comment)
    if recorded:
        return int(recorded.group(1))
    return 4 if b"inc =" in comment else 3


def load_for_eval(buf: bytes, letor_path: Path, score_path: Path, warn=print):
    """Labels, scores, query offsets, qids and document ids (the ``#docid = …`` comment's,
    else the line's index) grouped as the official scripts group them (``buf``: the LETOR
    file's bytes)."""
    raw = tokenize(buf, str(letor_path), dense=False, limit=max_features())   # no matrix
    if raw["labels"].size == 0:
        raise DataError(f"{letor_path}: no document lines (the file is empty or holds only "
                        f"blank lines and comments)")
    check_labels(raw["labels"], str(letor_path), raw["line_no"])
    group_queries(raw["qid"], raw["line_no"], str(letor_path))   # each qid's lines together
    n_lines = buf.count(b"\n") + (0 if buf.endswith(b"\n") or not buf else 1)
    scores_by_line = read_scores(score_path, n_lines)
    line = raw["line_no"]
    scores = scores_by_line[line - 1]
    qid = raw["qid"]
    spans = raw["docid_span"]
    docid = [buf[s:e] if s >= 0 else str(i).encode() for i, (s, e) in enumerate(spans.tolist())]
    # A repeated (qid, docid) replaces the earlier line, as the scripts' hash does.
    last = {}
    for i, key in enumerate(zip(qid.tolist(), docid)):
        last[key] = i
    keep = np.array(sorted(last.values()), dtype=np.int64)
    if keep.size != qid.size:
        warn(f"warning: {qid.size - keep.size} document id(s) repeated within a query in "
             f"{letor_path}; as the official scripts do, the last line of each is used",
             file=sys.stderr)
    order = keep[np.argsort(qid[keep], kind="stable")]   # group by qid, keep line order
    q_sorted = qid[order]
    starts = np.flatnonzero(np.r_[True, q_sorted[1:] != q_sorted[:-1]])
    query_ptr = np.r_[starts, order.size].astype(np.int64)
    return (raw["labels"][order], scores[order], query_ptr, q_sorted[starts],
            [docid[i] for i in order.tolist()])


def _g(x: float) -> str:
    """Perl's default number formatting."""
    return "%.15g" % x


def format_output(ev, query_sizes: np.ndarray, per_query: bool) -> str:
    """The text the official script writes to its output file."""
    qorder = np.argsort(ev.qids, kind="stable")
    out = []
    if ev.version == 4:
        K = ev.k
        out.append("qid\t" + "\t".join(f"P@{k}" for k in range(1, K + 1)) + "\tMAP\n")
        if per_query:
            for q in qorder:
                out.append(f"{ev.qids[q]}\t" + "".join("%.4f\t" % v for v in ev.precision[q])
                           + "%.4f\n" % ev.ap[q])
        out.append("Average\t" + "".join("%.4f\t" % v for v in ev.avg_precision)
                   + "%.4f\n\n" % ev.map)
        out.append("qid\t" + "\t".join(f"NDCG@{k}" for k in range(1, K + 1)) + "\tMeanNDCG\n")
        if per_query:
            for q in qorder:
                out.append(f"{ev.qids[q]}\t" + "".join("%.4f\t" % v for v in ev.ndcg[q])
                           + "%.4f\n" % ev.mean_ndcg[q])
        out.append("Average\t" + "".join("%.4f\t" % v for v in ev.avg_ndcg)
                   + "%.4f\n\n" % ev.avg_mean_ndcg)
        return "".join(out)
    # LETOR 3.0: positions beyond a query's length are absent; averages exist up to the
    # longest query (capped at 16); numbers in Perl's default format.
    depth = np.minimum(query_sizes, ev.k)
    width = int(depth.max())
    if per_query:
        for i, q in enumerate(qorder):
            out.append(f"precision of query{i}:\t"
                       + "\t".join(_g(v) for v in ev.precision[q, :depth[q]]) + "\t\n")
    out.append("precision:\t" + "\t".join(_g(v) for v in ev.avg_precision[:width]) + "\t\n\n")
    if per_query:
        for i, q in enumerate(qorder):
            out.append(f"Map of query{i}:\t{_g(ev.ap[q])}\n")
    out.append(f"MAP:\t{_g(ev.map)}\n\n")
    if per_query:
        for i, q in enumerate(qorder):
            out.append(f"NDCG of query{i}:\t"
                       + "\t".join(_g(v) for v in ev.ndcg[q, :depth[q]]) + "\t\n")
    out.append("NDCG:\t" + "".join(f"{_g(v)}\t" for v in ev.avg_ndcg[:width]) + "\n\n")
    return "".join(out)


def conventions() -> dict[str, Convention]:
    """Every convention ``--convention`` takes: the metric family's (named by what they
    compute), then the papers' own (a paper's declared ``CONVENTION``, named by its id)."""
    from .. import papers as registry
    return {**CONVENTIONS, **registry.conventions()}


def convention_named(convention: str | Convention) -> Convention:
    """The convention ``convention`` names (or ``convention`` itself)."""
    if isinstance(convention, Convention):
        return convention
    known = conventions()
    if convention not in known:
        raise DataError(f"convention: expected one of {sorted(known)}, got {convention!r}")
    return known[convention]


def run(letor_path: str, score_path: str, version: int | None = None,
        per_query: bool = False, convention: str | None = None) -> str:
    letor_path, score_path = Path(letor_path), Path(score_path)
    conv = None if convention is None else convention_named(convention)
    if conv is not None and version is not None and not (
            conv.engine == "letor" and conv.letor_version == version and conv.name != "mslr"):
        raise DataError(f"convention: --letor {version} and --convention {conv.name} disagree; "
                        f"give one of them")
    buf = read_bytes(letor_path)
    if conv is not None and conv.engine == "letor":
        version = conv.letor_version
    if version is None:
        version = detect_version(buf[:4096])
    y, s, qp, qids, docids = load_for_eval(buf, letor_path, score_path)
    if conv is None or (conv.engine == "letor" and conv.relevant_min is None):
        ev = evaluate(y, s, qp, qids, version=version, max_k=MAX_K[version])
    elif conv.engine == "letor":       # mslr: NDCG on the labels, P@k and MAP on relevance
        ev = evaluate(y, s, qp, qids, version=version, max_k=MAX_K[version])
        rel = evaluate(conv.relevant(y).astype(np.float64), s, qp, qids, version=version,
                       max_k=MAX_K[version])
        ev.precision, ev.ap, ev.avg_precision, ev.map = (rel.precision, rel.ap,
                                                         rel.avg_precision, rel.map)
    else:
        return format_convention(conv, y, s, qp, qids, per_query, docids=docids)
    return format_output(ev, np.diff(qp), per_query)


def format_convention(conv, y, s, qp, qids, per_query: bool, max_k: int = 10,
                      docids=None) -> str:
    """P@1..``max_k``, MAP and NDCG@1..``max_k`` under ``conv`` in the LETOR 4.0 layout
    (without MeanNDCG); averages over the queries with a value, summed in numeric qid order.
    ``docids``: the documents' ids (a convention that breaks ties by them: trec_eval)."""
    prec = np.column_stack([precision(y, s, qp, k, conv, docids=docids)
                            for k in range(1, max_k + 1)])
    nd = np.column_stack([ndcg(y, s, qp, k, conv, docids=docids) for k in range(1, max_k + 1)])
    ap = average_precision(y, s, qp, conv, docids=docids)
    qorder = np.argsort(qids, kind="stable")

    def avg(v):
        return script_mean(v, qids)

    out = ["qid\t" + "\t".join(f"P@{k}" for k in range(1, max_k + 1)) + "\tMAP\n"]
    if per_query:
        out += [f"{qids[q]}\t" + "".join("%.4f\t" % v for v in prec[q]) + "%.4f\n" % ap[q]
                for q in qorder]
    out.append("Average\t" + "".join("%.4f\t" % avg(prec[:, k]) for k in range(max_k))
               + "%.4f\n\n" % avg(ap))
    out.append("qid\t" + "\t".join(f"NDCG@{k}" for k in range(1, max_k + 1)) + "\n")
    if per_query:
        out += [f"{qids[q]}\t" + "\t".join("%.4f" % v for v in nd[q]) + "\n" for q in qorder]
    out.append("Average\t" + "\t".join("%.4f" % avg(nd[:, k]) for k in range(max_k))
               + "\n\n")
    return "".join(out)
