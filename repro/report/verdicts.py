"""What a page says of its records' verdicts: the counts per bucket and the headline — so that
every count a page shows adds up to the records of the JSON files it was rendered from.  A
verdict's words (colour class, short word, bucket, label, header) are those of its member of
:class:`repro.judge.verdicts.Verdict`; this module names them for the templates.

Buckets (every record is in exactly one):

* comparable published values (a published number, not a quoted baseline, readable):
  rerun on the paper's data — ``agrees`` · ``noise`` (within noise: the published value
  inside the 95% interval its noise allows, :mod:`repro.judge.noise`) · ``within`` (within a
  tolerance whose reason is computed) — "reproduced" means one of these three — and, counted
  apart, ``borderline`` (the published value within the estimation error of a bound),
  ``offset`` (in a column systematically off the paper's, :mod:`repro.judge.columns`),
  ``same evidence`` (another cell's per-query values: counted once), ``deviates`` and
  ``deterministic`` (deviates with no run-to-run spread to allow); then ``stand-in``
  (computed on substitute data), ``check`` (consistency checks), ``derived`` (values derived
  from the paper's words), ``undefined`` (our value is NaN), ``not run`` (with its reason),
  ``unverified`` (computed on an unverified copy of the paper's data,
  ``--allow-unverified``: never a reproduction);
* not comparable: ``baseline`` (copied by the paper from elsewhere, not rerun), ``unreadable``
  (the source's value cannot be read), ``ours only`` (our values without a published
  counterpart), ``modern`` (the modern reference beside the paper's methods,
  :mod:`repro.evidence.reference`), ``user`` (a user's ranker beside them, ``--ranker``, and its paired
  tests), ``empty`` (a dataset not run that has no published values: a placeholder saying why),
  ``not compared`` (a published value shown beside ours whose meaning the paper does not
  state, e.g. a "±"), ``claims`` (a claim judged by a paired test: its outcome is its verdict),
  ``columns`` (a column's offset and ordering, :mod:`repro.judge.columns`).

A value computed on a user's own data (``--on``) has no published counterpart ("ours only" or
``user``); its record says so in ``data_mark``, as every record of an unverified copy does.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..judge.verdicts import (OUTCOMES as _OUTCOMES, SHORT, Bucket, Judged, bucket,
                              not_run_reason, verdict_class)

COMPARABLE = tuple(b.value for b in Bucket if b.comparable)
NOT_COMPARABLE = tuple(b.value for b in Bucket if not b.comparable)
#: the outcomes of a claim judged by a test, as written
OUTCOMES = tuple(o.value for o in _OUTCOMES)

BUCKETS = COMPARABLE + NOT_COMPARABLE
LABELS = {b.value: b.label for b in Bucket}
HEADERS = {b.value: b.header for b in Bucket}
ALWAYS = tuple(b.value for b in Bucket if b.always)

__all__ = ["ALWAYS", "BUCKETS", "COMPARABLE", "HEADERS", "LABELS", "NOT_COMPARABLE", "OUTCOMES",
           "REPRODUCED", "RERUN", "SHORT", "STAND_IN_WORDS", "Tally", "bucket", "headline",
           "not_run_reason", "reasons_text", "rerun_sentence", "shown_buckets",
           "verdict_class"]


def shown_buckets(counts: dict) -> list[str]:
    """The count columns of a page: the reproduction verdicts and "not run" always, the other
    buckets where the page has any (every record is still in ``records``)."""
    return [b for b in BUCKETS if b in ALWAYS or counts.get(b)]


#: the buckets of values rerun on the paper's data, and those of them reproduced
RERUN = tuple(b.value for b in (Bucket.AGREES, Bucket.NOISE, Bucket.WITHIN, Bucket.BORDERLINE,
                                Bucket.OFFSET, Bucket.SAME, Bucket.DEVIATES,
                                Bucket.DETERMINISTIC))
REPRODUCED = RERUN[:3]

#: how the headline words the classes of stand-in values
STAND_IN_WORDS = {"agrees": "equal at the paper's rounding",
                  "within-noise": "published value inside our interval",
                  "borderline": "published value at the edge of our interval",
                  "within": "within the stated tolerance",
                  "deviates": "published value outside our interval (or differs, with no "
                              "interval)"}


@dataclass
class Tally:
    """Counts of one page (or one artifact, or all pages)."""
    buckets: Counter = field(default_factory=Counter)
    classes: Counter = field(default_factory=Counter)       # verdict classes of comparable values
    reasons: Counter = field(default_factory=Counter)       # why comparable values were not run
    stand_in: Counter = field(default_factory=Counter)      # inner verdicts on stand-in data
    records: int = 0

    def add(self, flat: list[dict]) -> "Tally":
        for r in flat:
            b = bucket(r).value
            self.records += 1
            self.buckets[b] += 1
            if b in COMPARABLE:
                self.classes[verdict_class(r["verdict"])] += 1
            if b == "not run":
                self.reasons[not_run_reason(r["verdict"])] += 1
            if b == "stand-in":
                self.stand_in[Judged.parse(r["verdict"]).inner_css] += 1
        return self

    def __iadd__(self, other: "Tally") -> "Tally":
        self.buckets.update(other.buckets)
        self.classes.update(other.classes)
        self.reasons.update(other.reasons)
        self.stand_in.update(other.stand_in)
        self.records += other.records
        return self

    @property
    def comparable(self) -> int:
        return sum(self.buckets[b] for b in COMPARABLE)

    @property
    def reproduced(self) -> int:
        """Values compared with the paper's value on the paper's data (:data:`RERUN`: agrees,
        within noise, within tolerance, borderline, offset, same evidence, deviates)."""
        return sum(self.buckets[b] for b in RERUN)

    @property
    def agreeing(self) -> int:
        """Reproduced in the sense the pages use: agrees or within noise (or within a
        computed tolerance)."""
        return sum(self.buckets[b] for b in REPRODUCED)

    def row(self) -> dict:
        """Counts per bucket plus ``records`` and ``comparable`` (for tables)."""
        return {"records": self.records, "comparable": self.comparable,
                **{b: self.buckets[b] for b in BUCKETS}}


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _split(text: str) -> tuple[str, str, str]:
    """"data missing: MQ2007 (see …)" → ("data missing: ", "MQ2007", " (see …)")."""
    kind, sep, item = text.partition(": ")
    if not sep:
        return "", text, ""
    i = item.find(" (")
    return kind + sep, (item[:i] if i > 0 else item), (item[i:] if i > 0 else "")


def _merge(texts: list[str], sep: str = "; ") -> str:
    """Texts that differ only in their item said once: "data missing: A, B (see …)"."""
    parts = [_split(t) for t in texts]
    if len(texts) > 1 and len({(k, t) for k, _, t in parts}) == 1 and parts[0][0]:
        return parts[0][0] + ", ".join(i for _, i, _ in parts) + parts[0][2]
    return sep.join(texts)


def reasons_text(reasons: Counter, limit: int = 8) -> str:
    """Not-run reasons grouped by their first clause, e.g. "393 × not implemented yet (also
    data missing: TD2003, HP2004 (see …))"; reasons differing only in their data set merged
    ("4 × data missing: MQ2007, Yahoo-set2 (see …)"); a single reason without its count."""
    groups: dict[str, list] = {}
    for why, n in reasons.items():
        head, _, rest = why.partition("; ")
        groups.setdefault(head, []).append((n, rest))
    simple: dict[tuple, list] = {}          # heads without further clauses, by kind and tail
    for head, items in list(groups.items()):
        if all(not rest for _, rest in items):
            k, _, t = _split(head)
            simple.setdefault((k, t), []).append((head, sum(n for n, _ in items)))
    merged = []
    for (k, t), heads in simple.items():
        if k and len(heads) > 1:
            for h, _ in heads:
                del groups[h]
            merged.append((sum(n for _, n in heads), _merge(sorted(h for h, _ in heads))))
    entries = merged + [(sum(n for n, _ in items), head, sorted({r for _, r in items if r}))
                        for head, items in groups.items()]
    parts = []
    for e in sorted(entries, key=lambda e: (-e[0], e[1])):
        total, head = e[0], e[1]
        extra = e[2] if len(e) > 2 else []
        shown = _merge(extra[:limit]) + ("; …" if len(extra) > limit else "")
        text = head + (f" (also {shown})" if extra else "")
        parts.append(text if len(entries) == 1 else f"{total} × {text}")
    return "; ".join(parts)


def _be(n: int) -> str:
    return "is" if n == 1 else "are"


def _s(n: int, verb: str) -> str:
    return verb + "s" if n == 1 else verb


def rerun_sentence(n: int, t: Tally) -> str:
    """The first sentence of a page with values rerun on the paper's data: how many were,
    how many of those are reproduced and how, and how many are counted apart (borderline,
    offset, same evidence) or deviate (and of those, how many have no spread to allow)."""
    c = t.buckets
    tol = f", {c['within']} within a computed tolerance" if c["within"] else ""
    apart = "".join(part for k, part in (
        ("borderline", f"{c['borderline']} {_be(c['borderline'])} borderline (the published "
                       f"value within the estimation error of a bound of our interval), "),
        ("offset", f"{c['offset']} {_s(c['offset'], 'lie')} in offset columns (ours "
                   f"systematically off the paper's over the column), "),
        ("same evidence", f"{c['same evidence']} {_s(c['same evidence'], 'repeat')} another "
                          f"cell's evidence (identical per-query values, counted once), "))
        if c[k])
    gone = c["deviates"] + c["deterministic"]
    once = (f" ({c['deterministic']} deterministic: no run-to-run spread to allow)"
            if c["deterministic"] else "")
    return (f"Of {n} comparable published values, {t.reproduced} "
            f"{'was' if t.reproduced == 1 else 'were'} rerun on the paper's data and "
            f"{t.agreeing} of those {_be(t.agreeing)} reproduced: {c['agrees']} "
            f"{_s(c['agrees'], 'agree')} at the paper's rounding, {c['noise']} "
            f"{_be(c['noise'])} within noise (the published value lies inside our 95% "
            f"interval: our run-to-run spread on the paper's queries, the sampling interval "
            f"on another sample){tol}; {apart}{gone} {_s(gone, 'deviate')}{once}.")


def headline(t: Tally) -> list[str]:
    """The headline sentences of a page: the first says what was reproduced (or that nothing
    was); the counts add up to the records the page was rendered from."""
    n, c = t.comparable, t.buckets
    if t.reproduced + c["stand-in"] + c["unverified"] == 0:
        if not n:
            first = "No comparable published values."
        elif c["check"] + c["derived"]:
            kinds = [f"{_plural(c['check'], 'consistency check')} ({t.classes['consistent']} "
                     f"consistent, {t.classes['inconsistent']} inconsistent)" if c["check"] else "",
                     f"{_plural(c['derived'], 'value')} derived from the paper's statements "
                     f"or partly from its published numbers "
                     f"({t.classes['derived-agrees']} agree, {t.classes['derived-within']} within "
                     f"tolerance, {t.classes['derived-deviates']} deviate)" if c["derived"] else ""]
            first = (f"No reproduction here (checks and derived values only): of the {n} "
                     f"comparable published values, " + " and ".join(k for k in kinds if k)
                     + (f"; {c['not run']} not run: {reasons_text(t.reasons)}"
                        if c["not run"] else "") + ".")
        else:
            first = (f"Nothing reproduced yet: none of the {n} comparable published values has "
                     f"a reproduced counterpart"
                     + (f" — {c['not run']} not run: {reasons_text(t.reasons)}"
                        if c["not run"] else "") + ".")
    else:
        first = rerun_sentence(n, t)
    lines = [first]
    rest = []
    if t.reproduced + c["stand-in"] + c["unverified"] and c["not run"]:  # else said above
        rest.append(f"{c['not run']} not run: {reasons_text(t.reasons)}")
    if c["stand-in"]:
        inner = ", ".join(f"{n} {STAND_IN_WORDS.get(k, SHORT.get(k, k))}"
                          for k, n in sorted(t.stand_in.items()))
        rest.append(f"{c['stand-in']} computed on stand-in data ({inner}; substitutes for the "
                    f"paper's data, not reproductions)")
    said = t.reproduced + c["stand-in"] + c["unverified"] == 0   # the first line gave checks
    if c["check"] and not said:
        rest.append(f"{_plural(c['check'], 'consistency check')} "
                    f"({t.classes['consistent']} consistent, {t.classes['inconsistent']} "
                    f"inconsistent; checks of our reading, not reproductions)")
    if c["derived"] and not said:
        rest.append(f"{_plural(c['derived'], 'value')} derived from the paper's statements "
                    f"or partly from its published numbers, never counted as reproduced "
                    f"({t.classes['derived-agrees']} agree, {t.classes['derived-within']} within "
                    f"tolerance, {t.classes['derived-deviates']} deviate)")
    if c["unverified"]:
        rest.append(f"{c['unverified']} computed on an unverified copy of the paper's data "
                    f"(--allow-unverified; its files do not match the recorded checksums: not "
                    f"reproductions)")
    if c["undefined"]:
        rest.append(f"{c['undefined']} undefined (our value is NaN)")
    if rest:
        lines.append("Of the other comparable values: " + "; ".join(rest) + ".")
    other = [f"{c[b]} {LABELS[b]}" for b in NOT_COMPARABLE if c[b]]
    if other:
        lines.append("Not comparable: " + ", ".join(other) + f" — {t.records} records in all.")
    return lines
