"""The words of verdicts: every word, colour class and count a page gives a verdict code
(:class:`repro.judge.verdicts.Verdict`) or a claim outcome
(:class:`repro.judge.verdicts.Outcome`) — the judge writes codes only, and nothing here
reads a sentence back.

Buckets (every record is in exactly one, :func:`bucket`): the comparable published values
(a published number, not a quoted baseline, readable) — ``reproduced``, ``inconclusive``,
``deviates`` (the equivalence rule on the paper's verified data), then ``stand-in``,
``derived``, ``check`` (consistent or inconsistent), ``unverified``, ``undefined`` and ``not
run`` — and the rest: ``baseline``, ``unreadable``, ``not compared``, ``claims``, ``columns``,
``ours only``, ``modern``, ``user`` and ``empty`` (a dataset not run that has no published
values).  Counts add up to the records of the JSON files a page was rendered from.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..judge.equivalence import DEVIATES, INCONCLUSIVE, REPRODUCED, outcome_at
from ..judge.verdicts import Outcome, Verdict

#: bucket -> (label: what a count of it means, header: its column's header, comparable)
_BUCKETS = {
    "reproduced": ("reproduced within the paper's resolution (ours − published inside ±δ, "
                   "two one-sided tests)", "reproduced", True),
    "inconclusive": ("inconclusive (neither inside nor beyond ±δ: more replicates or queries "
                     "would decide)", "inconclusive", True),
    "deviates": ("deviates (ours − published beyond ±δ)", "deviates", True),
    "stand-in": ("on stand-in data (not a reproduction)", "stand-in", True),
    "derived": ("derived values (from the paper's words or partly from its numbers)",
                "derived", True),
    "check": ("consistency checks", "checks", True),
    "unverified": ("on an unverified copy of the data", "unverified copy", True),
    "undefined": ("undefined (NaN)", "NaN", True),
    "not run": ("not run", "not run", True),
    "baseline": ("published baselines (not rerun)", "baseline", False),
    "unreadable": ("unreadable in the source", "unreadable", False),
    "not compared": ("shown, not compared (meaning not stated by the paper)", "not compared",
                     False),
    "claims": ("claims judged as replications", "claims", False),
    "columns": ("column records (offset of ours − published over a column, ordering)",
                "columns", False),
    "ours only": ("ours only (no published value)", "ours only", False),
    "modern": ("modern reference (LambdaMART, not in the paper)", "modern reference", False),
    "user": ("user methods (not in the paper)", "user method", False),
    "empty": ("placeholders of data not run (nothing published)", "not run, none published",
              False),
}
BUCKETS = tuple(_BUCKETS)
COMPARABLE = tuple(b for b, v in _BUCKETS.items() if v[2])
NOT_COMPARABLE = tuple(b for b, v in _BUCKETS.items() if not v[2])
LABELS = {b: v[0] for b, v in _BUCKETS.items()}
HEADERS = {b: v[1] for b, v in _BUCKETS.items()}
#: a count column's header in print, where every column of the widest counts table must fit a
#: page (the key under the table spells each one out): "records" and "comparable" first
ABBREVIATIONS = {"records": "rec", "comparable": "cmp", "reproduced": "rep",
                 "inconclusive": "inc", "deviates": "dev", "stand-in": "s-in", "derived": "der",
                 "check": "chk", "unverified": "unv", "undefined": "NaN", "not run": "nrun",
                 "baseline": "base", "unreadable": "unr", "not compared": "ncmp",
                 "claims": "clm", "columns": "col", "ours only": "ours", "modern": "mod",
                 "user": "user", "empty": "none"}
#: the buckets a page's counts always show
ALWAYS = ("reproduced", "inconclusive", "deviates", "not run")
#: the buckets of values rerun on the paper's verified data (the equivalence rule's)
RERUN = ("reproduced", "inconclusive", "deviates")

_BUCKET_OF = {Verdict.REPRODUCED: "reproduced", Verdict.INCONCLUSIVE: "inconclusive",
              Verdict.DEVIATES: "deviates", Verdict.STAND_IN: "stand-in",
              Verdict.DERIVED: "derived", Verdict.CONSISTENT: "check",
              Verdict.INCONSISTENT: "check", Verdict.UNVERIFIED: "unverified",
              Verdict.UNDEFINED: "undefined", Verdict.NOT_RUN: "not run",
              Verdict.BASELINE: "baseline", Verdict.UNREADABLE: "unreadable",
              Verdict.NOT_COMPARED: "not compared", Verdict.CLAIM: "claims",
              Verdict.COLUMN: "columns", Verdict.NO_PUBLISHED: "ours only",
              Verdict.MODERN: "modern", Verdict.USER: "user"}

#: a verdict's short word (a cell's tooltip, a legend)
WORDS = {Verdict.REPRODUCED: "reproduced", Verdict.INCONCLUSIVE: "inconclusive",
         Verdict.DEVIATES: "deviates", Verdict.STAND_IN: "stand-in data",
         Verdict.DERIVED: "derived value", Verdict.CONSISTENT: "consistent (check)",
         Verdict.INCONSISTENT: "inconsistent (check)", Verdict.UNVERIFIED: "unverified copy",
         Verdict.NOT_COMPARED: "shown, not compared", Verdict.NO_PUBLISHED: "ours only",
         Verdict.BASELINE: "published baseline (not rerun)",
         Verdict.UNREADABLE: "published value unreadable", Verdict.UNDEFINED: "undefined (NaN)",
         Verdict.NOT_RUN: "not run", Verdict.MODERN: "modern reference (not in the paper)",
         Verdict.USER: "user method (not in the paper)", Verdict.COLUMN: "column",
         Verdict.CLAIM: "claim"}
#: a claim outcome's word
OUTCOME_WORDS = {Outcome.REPLICATED: "replicated", Outcome.NOT_REPLICATED: "not replicated",
                 Outcome.REVERSED: "reversed", Outcome.INCONCLUSIVE: "inconclusive",
                 Outcome.NOT_TESTABLE: "not testable here"}
#: the outcomes, as written in a claim record's ``outcome``
OUTCOMES = tuple(o.value for o in Outcome)
#: what the equivalence rule's outcome says of a value on other terms (stand-in, derived)
EQUIVALENCE_WORDS = {REPRODUCED: "within ±δ of the published value",
                     INCONCLUSIVE: "neither within nor beyond ±δ",
                     DEVIATES: "beyond ±δ of the published value"}


def css_of(code: str) -> str:
    """The colour class of a verdict code or a claim outcome ("not run" → "not-run"; a claim
    outcome is prefixed "claim-")."""
    return code.replace(" ", "-")


def verdict_class(rec: dict) -> str:
    """A record's colour class: its verdict's — a claim's outcome ("claim-replicated", …)."""
    v = Verdict(rec["verdict"])
    if v is Verdict.CLAIM:
        o = rec.get("outcome")
        return "claim-" + css_of(Outcome(o).value if o in OUTCOMES else
                                 Outcome.NOT_TESTABLE.value)
    return css_of(v.value)


def outcome_class(outcome: str) -> str:
    """The colour class of a claim outcome."""
    return "claim-" + css_of(outcome if outcome in OUTCOMES else Outcome.NOT_TESTABLE.value)


#: every colour class, with its short word
SHORT = {**{css_of(v.value): WORDS[v] for v in Verdict},
         **{outcome_class(o.value): OUTCOME_WORDS[o] for o in Outcome}}


def words(rec: dict) -> str:
    """A record's verdict in words (a tooltip's first line): the verdict, with its reason or
    what the equivalence test found on other terms."""
    v = Verdict(rec["verdict"])
    if v is Verdict.CLAIM:
        o = rec.get("outcome")
        return "claim " + OUTCOME_WORDS[Outcome(o) if o in OUTCOMES else Outcome.NOT_TESTABLE]
    text = WORDS[v]
    if rec.get("reason"):
        text += f": {rec['reason']}"
    if v in (Verdict.STAND_IN, Verdict.DERIVED, Verdict.UNVERIFIED) and rec.get("equivalence"):
        text += f" ({EQUIVALENCE_WORDS[rec['equivalence']]})"
    return text


def bucket(rec: dict) -> str:
    """The one bucket a record is counted in: its verdict's — but a value of a published
    "shown" kind is not compared, and a record without a published counterpart is "ours
    only" (or, not run, an empty placeholder)."""
    b = _BUCKET_OF[Verdict(rec["verdict"])]
    if b in NOT_COMPARABLE:
        return b
    if rec.get("kind") == "shown":
        return "not compared"
    if rec.get("published") is None:
        return "empty" if b == "not run" else "ours only"
    return b


def not_run_reason(rec: dict) -> str:
    """Why a value was not run."""
    return rec.get("reason") or "no value"


def shown_buckets(counts: dict) -> list[str]:
    """The count columns of a page: the rule's verdicts and "not run" always, the other
    buckets where the page has any (every record is still in ``records``)."""
    return [b for b in BUCKETS if b in ALWAYS or counts.get(b)]


def beyond_reach(r: dict) -> bool:
    """Whether no result could have made value ``r`` reproduced: the equivalence bound of a
    perfect reproduction with its uncertainty is beyond its margin
    (:attr:`repro.judge.equivalence.Equivalence.reachable_bound`)."""
    m = r.get("reachable_bound_margins")
    return isinstance(m, (int, float)) and m > 1.0


@dataclass
class Tally:
    """Counts of one page (or one artifact, or all pages); ``margins``: the rule's counts at
    half and at twice each value's margin (from its equivalence and deviation bounds)."""
    buckets: Counter = field(default_factory=Counter)
    classes: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    stand_in: Counter = field(default_factory=Counter)     # the rule's outcome on stand-ins
    margins: dict = field(default_factory=lambda: {0.5: Counter(), 2.0: Counter()})
    records: int = 0
    #: values rerun on the paper's data that no result could have reproduced: a perfect
    #: reproduction's bound (``reachable_bound``) already beyond the margin
    out_of_reach: int = 0

    def add(self, flat: list[dict]) -> "Tally":
        for r in flat:
            b = bucket(r)
            self.records += 1
            self.buckets[b] += 1
            if b in COMPARABLE:
                self.classes[verdict_class(r)] += 1
            if b == "not run":
                self.reasons[not_run_reason(r)] += 1
            if b == "stand-in" and r.get("equivalence"):
                self.stand_in[r["equivalence"]] += 1
            if b in RERUN:
                if beyond_reach(r):
                    self.out_of_reach += 1
                for k, c in self.margins.items():
                    c[outcome_at(float(r["equivalence_bound"]), float(r["deviation_bound"]),
                                 k * float(r["margin"]))] += 1
        return self

    def __iadd__(self, other: "Tally") -> "Tally":
        self.buckets.update(other.buckets)
        self.classes.update(other.classes)
        self.reasons.update(other.reasons)
        self.stand_in.update(other.stand_in)
        for k, c in other.margins.items():
            self.margins[k].update(c)
        self.records += other.records
        self.out_of_reach += other.out_of_reach
        return self

    @property
    def comparable(self) -> int:
        return sum(self.buckets[b] for b in COMPARABLE)

    @property
    def rerun(self) -> int:
        """Values compared with the paper's on the paper's verified data."""
        return sum(self.buckets[b] for b in RERUN)

    @property
    def reproduced(self) -> int:
        return self.buckets["reproduced"]

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
    simple: dict[tuple, list] = {}
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


def rerun_sentence(t: Tally) -> str:
    """The answer of a page with values rerun on the paper's data: how many reproduced within
    the paper's resolution, how many are inconclusive and how many deviate — and how the
    counts move at half and at twice the margin."""
    c = t.buckets
    half, twice = t.margins[0.5], t.margins[2.0]
    return (f"{c['reproduced']} of {t.rerun} published values rerun on the paper's data "
            f"reproduced within the paper's resolution, {c['inconclusive']} inconclusive, "
            f"{c['deviates']} deviate (at half the margin: {half[REPRODUCED]} reproduced, "
            f"{half[DEVIATES]} deviate; at twice: {twice[REPRODUCED]} reproduced, "
            f"{twice[DEVIATES]} deviate).")


def headline(t: Tally) -> list[str]:
    """The headline sentences of a page: the first answers "did it reproduce?"; the counts
    add up to the records the page was rendered from."""
    n, c = t.comparable, t.buckets
    if t.rerun:
        first = rerun_sentence(t)
    elif not n:
        first = "No comparable published values."
    elif c["stand-in"] + c["unverified"] + c["check"] + c["derived"]:
        first = ("No value rerun on the paper's own data: "
                 + ", ".join(x for x in (
                     f"{c['stand-in']} on stand-in data" if c["stand-in"] else "",
                     f"{_plural(c['check'], 'consistency check')} "
                     f"({t.classes['consistent']} consistent)" if c["check"] else "",
                     f"{_plural(c['derived'], 'derived value')}" if c["derived"] else "",
                     f"{c['unverified']} on an unverified copy" if c["unverified"] else "")
                     if x) + ".")
    else:
        first = (f"Nothing reproduced yet: none of the {n} comparable published values has a "
                 f"reproduced counterpart.")
    lines = [first]
    rest = []
    if c["not run"]:
        rest.append(f"{c['not run']} not run: {reasons_text(t.reasons)}")
    if c["stand-in"] and t.rerun:
        inner = ", ".join(f"{t.stand_in[k]} {EQUIVALENCE_WORDS[k]}"
                          for k in (REPRODUCED, INCONCLUSIVE, DEVIATES) if t.stand_in[k])
        rest.append(f"{c['stand-in']} on stand-in data" + (f" ({inner})" if inner else ""))
    if c["check"] and t.rerun:
        rest.append(f"{_plural(c['check'], 'consistency check')} "
                    f"({t.classes['consistent']} consistent, {t.classes['inconsistent']} "
                    f"inconsistent)")
    if c["derived"] and t.rerun:
        rest.append(f"{_plural(c['derived'], 'derived value')} (never counted as reproduced)")
    if c["unverified"] and t.rerun:
        rest.append(f"{c['unverified']} on an unverified copy of the data")
    if c["undefined"]:
        rest.append(f"{c['undefined']} undefined (NaN)")
    if rest:
        lines.append("; ".join(rest) + ".")
    return lines
