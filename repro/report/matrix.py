"""A paper's answer in one line and its reproduction matrix: one row per table or figure (and
per complexity artifact whose records carry a verdict of the equivalence rule), each a stacked bar of its values —
reproduced, inconclusive, deviates, stand-in, not run — with their counts, linked to the
artifact's section.  Words that name a verdict link to the glossary (:mod:`.glossary`)."""
from __future__ import annotations

from markupsafe import Markup, escape

from .overview import artifact_name
from .format import fmt_sig
from .palette import fill
from .verdicts import RERUN, Tally, bucket

#: the matrix's segments: bucket -> (word, colour class, glossary anchor)
SEGMENTS = {"reproduced": ("reproduced", "reproduced", "reproduced"),
            "inconclusive": ("inconclusive", "inconclusive", "inconclusive"),
            "deviates": ("deviates", "deviates", "deviates"),
            "stand-in": ("stand-in", "stand-in", "stand-in"),
            "not run": ("not run", "not-run", "not-run")}
GLOSSARY_FILE = "glossary.html"


def gloss(word: str, anchor: str, up: str = "") -> Markup:
    """``word`` linked to its definition on the glossary page (``up``: the path from the page
    to the report's root, "../" from a paper page)."""
    return Markup('<a class="gl" href="%s%s#%s">%s</a>') % (up, GLOSSARY_FILE, anchor, word)


def matrix_row(name: str, title: str, tally: Tally, href: str) -> dict | None:
    """One artifact's bar: its counts per segment (None when it has none of them)."""
    counts = {b: tally.buckets.get(b, 0) for b in SEGMENTS}
    n = sum(counts.values())
    if not n:
        return None
    segs = [{"bucket": b, "n": k, "css": SEGMENTS[b][1], "word": SEGMENTS[b][0],
             "pct": round(100.0 * k / n, 2), "fill": fill(SEGMENTS[b][1])} for b, k in counts.items() if k]
    return {"name": name, "label": artifact_name(name), "title": title, "href": href,
            "total": n, "segments": segs}


def _not_available(datasets: list[dict]) -> list[str]:
    """The paper's data sets not available here (not run for want of data)."""
    out = []
    for d in datasets:
        why = str(d.get("why") or "")
        if d.get("status") == "not run" and why.startswith("data missing"):
            out.append(d["dataset"])
    return list(dict.fromkeys(out))


def shared_offset(offsets: list[dict]) -> Markup | None:
    """What the columns' offsets say when every column has a significant offset on the same
    side: "ours 0.032–0.11 below in every column" — and, where every method of every column
    shares it, "the standard baselines included: a difference of evaluation or data" (None
    when the columns disagree)."""
    if not offsets or not all(o.get("significant") and isinstance(o.get("mean"), (int, float))
                              for o in offsets):
        return None
    means = [float(o["mean"]) for o in offsets]
    if not (all(m < 0 for m in means) or all(m > 0 for m in means)):
        return None
    lo, hi = min(abs(m) for m in means), max(abs(m) for m in means)
    size = fmt_sig(lo, 2) if fmt_sig(lo, 2) == fmt_sig(hi, 2) else \
        f"{fmt_sig(lo, 2)}–{fmt_sig(hi, 2)}"
    side = "below" if means[0] < 0 else "above"
    every = "every column" if len(offsets) > 1 else "its column"
    text = Markup("ours %s %s the paper's in %s") % (size, side, every)
    if all((o.get("shared_by") or {}).get("all") for o in offsets):
        text += Markup(", the standard baselines included: a difference of evaluation or data")
    return text


def paper_line(tally: Tally, datasets: list[dict], up: str = "",
               offsets: list[dict] | None = None) -> Markup:
    """A paper's answer in words, from its judged counts: "75 of 75 published values
    reproduced within the paper's resolution; MQ2007 not available here" (verdict words
    linked to the glossary); a shared offset of every column said (:func:`shared_offset`)."""
    c = tally.buckets
    parts = []
    if tally.rerun:
        first = Markup("%d of %d published %s %s within the paper's resolution") % (
            c["reproduced"], tally.rerun, "value" if tally.rerun == 1 else "values",
            gloss("reproduced", "reproduced", up))
        more = [Markup("%d %s") % (c[b], gloss(SEGMENTS[b][0], SEGMENTS[b][2], up))
                for b in ("inconclusive", "deviates") if c[b]]
        parts.append(first + (Markup(", ") + Markup(", ").join(more) if more else ""))
        if tally.out_of_reach:
            who = ("none of them could" if tally.out_of_reach == tally.rerun
                   else "%d could not" % tally.out_of_reach)
            parts.append(Markup("%s have been shown reproduced: their uncertainty alone "
                                "(another query sample, seed spread) exceeds the margin") % who)
        shared = shared_offset(offsets or [])
        if shared:
            parts.append(shared)
    else:
        parts.append(Markup("no published value rerun on the paper's data"))
    if c["stand-in"]:
        parts.append(Markup("%d on %s data") % (c["stand-in"], gloss("stand-in", "stand-in", up)))
    if c["unverified"]:
        parts.append(Markup("%d on an %s of the data") % (
            c["unverified"], gloss("unverified copy", "unverified", up)))
    for b, word in (("check", "consistency check"), ("derived", "derived value")):
        if c[b]:
            parts.append(Markup("%d %s") % (c[b], gloss(word + ("" if c[b] == 1 else "s"),
                                                         b, up)))
    missing = _not_available(datasets)
    if c["not run"]:
        parts.append(Markup("%d %s") % (c["not run"], gloss("not run", "not-run", up)))
    if len(missing) > 3:
        parts.append(Markup("%d of its data sets not available here") % len(missing))
    elif missing:
        parts.append(Markup("%s not available here") % ", ".join(missing))
    return Markup("; ").join(parts)


def paper_matrix(paper_mod, read, base_href: str = "") -> tuple[list[dict], Tally, list,
                                                                 list]:
    """(matrix rows, the paper's tally, its data sets as the artifacts' meta files list them,
    the offsets of its columns on the paper's data)
    over the artifacts ``read(art)`` returns ``(flat, meta)`` for (None: not rendered);
    timing artifacts count only where their records carry a verdict of the segments
    (complexity verdicts), and link to the timing page."""
    rows, total, datasets, offsets = [], Tally(), [], []
    for art in paper_mod.ARTIFACTS:
        got = read(art)
        if got is None:
            continue
        flat, meta = got
        tally = Tally().add(flat)
        if art.timing:         # measured times stay on the timing page: only verdicts count
            tally = Tally().add([r for r in flat if bucket(r) in RERUN])
        href = (f"{base_href}timing/index.html#{art.name}" if art.timing
                else f"{base_href}index.html#{art.name}")
        row = matrix_row(art.name, meta.get("title", ""), tally, href)
        if art.timing:
            if row is None:
                continue
            row["label"] += " (complexity)"
        else:
            total += tally
            datasets += meta.get("datasets", [])
            offsets += [r["offset"] for r in flat if r.get("verdict") == "column"
                        and isinstance(r.get("offset"), dict)]
        if row is not None:
            rows.append(row)
    return rows, total, datasets, offsets
