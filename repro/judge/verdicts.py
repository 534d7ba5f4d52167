"""Verdicts and claim outcomes: one enumeration with their words, and the rule that judges a
reproduced value against a published one.

**The enumeration.**  :class:`Verdict` lists every verdict of a value and every outcome of a
claim, each with its words: the sentence written in the artifact's JSON (the member's value),
its colour class (``css``), its short word (``short``) and the bucket a page counts it in
(``bucket``, a :class:`Bucket`, which has its label and column header).  A verdict as written
may carry qualifiers — "derived value: " (a value derived from the paper's words), "stand-in
data: " (computed on substitute data: the words say where the published value lies instead of
"deviates"), "unverified copy: " (computed on an unverified copy of the data) — and a reason
("not run: data missing", "shown, not compared: …", "undefined (NaN): …"): a :class:`Judged`
is a verdict with its qualifiers, written by :attr:`Judged.text` and read back by
:meth:`Judged.parse`, which raises on a sentence it does not know.

**The rule** (:func:`judge`, the same for every method and paper): "agrees" at the paper's
rounding; "within noise" when the published value lies inside the 95% interval its noise
allows (``ci95``, from :mod:`repro.judge.noise`: our run-to-run spread on the paper's own
queries, the two-level sampling interval on another sample or stand-in data; widened by half
a unit of the published value's last printed digit, since the paper's own value is known only
to that rounding); "within tolerance" only under a declared tolerance rule whose reason is
computed in the project; "borderline" when the published value lies within the estimation
error of a bound of that interval (``ci_margin``: neither reproduced nor deviating); "deviates
(deterministic)" for a value without spread (a point interval: computed once, or one run on
the paper's queries) that differs beyond the rounding — the difference is explained in its
note; "deviates" otherwise.  A value on stand-in data is never said to "deviate": its verdict
says where the published value lies against our interval.  A published value's ``kind``
(:mod:`repro.judge.published`) turns the verdict into a check ("consistent" /
"inconsistent"), a derived value's, or "shown, not compared".  :func:`compare` joins an
artifact's records with the published values and writes each record's verdict.  Over a column
of a table (:mod:`repro.judge.columns`): "offset" (the column's values systematically off the
published ones), "same evidence" (a cell whose per-query values are another's), and the
column's own record ("offset column" / "no systematic offset").

A claim judged by a test (:mod:`repro.judge.claims`) has an outcome — :attr:`Verdict.HOLDS`,
:attr:`Verdict.CONTRADICTED`, :attr:`Verdict.NOT_SIGNIFICANT`, :attr:`Verdict.NOT_TESTABLE`,
:attr:`Verdict.HOLDS_DEVIATING` (it holds here, against compared values that deviate from
their published ones: no support) (:data:`OUTCOMES`) — which is also its verdict.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum

from ..evidence.record import CELL, number


class Bucket(str, Enum):
    """Where a page counts a record (every record is in exactly one bucket).  Comparable
    published values: a published number, not a quoted baseline, readable."""

    def __new__(cls, key: str, label: str, header: str, comparable: bool, always: bool = False):
        obj = str.__new__(cls, key)
        obj._value_ = key
        obj.label, obj.header, obj.comparable, obj.always = label, header, comparable, always
        return obj

    AGREES = ("agrees", "agrees", "agree", True, True)
    NOISE = ("noise", "within noise (published value inside our 95% interval: our run-to-run "
                      "spread on the paper's queries, or the sampling interval)",
             "within noise", True, True)
    WITHIN = ("within", "within a computed tolerance", "within tol.", True)
    BORDERLINE = ("borderline", "borderline (published value within the estimation error of "
                                "a bound of our interval: neither reproduced nor deviating)",
                  "borderline", True)
    OFFSET = ("offset", "in an offset column (ours − published systematic over the column; "
                        "not counted as reproduced)", "offset", True)
    SAME = ("same evidence", "same evidence as another cell of its column (identical "
                             "per-query values: counted once)", "same evidence", True)
    DEVIATES = ("deviates", "deviates", "deviate", True, True)
    DETERMINISTIC = ("deterministic", "deviates with no run-to-run spread to allow "
                                      "(deterministic, or one run): the difference is explained",
                     "deviate (deterministic)", True)
    STAND_IN = ("stand-in", "on stand-in data", "stand-in", True)
    UNVERIFIED = ("unverified", "on an unverified copy of the data", "unverified copy", True)
    CHECK = ("check", "consistency checks", "checks", True)
    DERIVED = ("derived", "derived values", "derived", True)
    UNDEFINED = ("undefined", "undefined (NaN)", "NaN", True)
    NOT_RUN = ("not run", "not run", "not run", True, True)
    BASELINE = ("baseline", "published baselines (not rerun)", "baseline", False)
    UNREADABLE = ("unreadable", "unreadable in the source", "unreadable", False)
    NOT_COMPARED = ("not compared", "shown, not compared (meaning not stated by the paper)",
                    "not compared", False)
    CLAIMS = ("claims", "claims judged by paired tests", "claims", False)
    COLUMNS = ("columns", "column tests (offset of ours − published over a column, ordering of "
                          "its methods)", "columns", False)
    OURS_ONLY = ("ours only", "ours only (no published value)", "ours only", False)
    MODERN = ("modern", "modern reference (LambdaMART, not in the paper)", "modern reference",
              False)
    USER = ("user", "user methods (not in the paper)", "user method", False)
    EMPTY = ("empty", "placeholders of data not run (nothing published)",
             "not run, none published", False)

    def __str__(self) -> str:
        return self.value


class Verdict(str, Enum):
    """A verdict of a value or an outcome of a claim: the sentence written in the JSON (its
    value; a reason follows ": " where ``reason``), its colour class, its short word, its
    bucket and, for a reproduction verdict, what a value on stand-in data says instead."""

    def __new__(cls, text: str, css: str, short: str, bucket: Bucket, stand_in: str = "",
                reason: bool = False):
        obj = str.__new__(cls, text)
        obj._value_ = text
        obj.css, obj.short, obj.bucket, obj.stand_in, obj.reason = (css, short, bucket,
                                                                     stand_in, reason)
        return obj

    # reproductions (the rule of :func:`judge`)
    AGREES = ("agrees (paper's rounding)", "agrees", "agrees", Bucket.AGREES,
              "equal at the paper's rounding")
    WITHIN_NOISE = ("within noise (published value inside our 95% interval)", "within-noise",
                    "within noise", Bucket.NOISE, "published value inside our 95% interval")
    WITHIN = ("within tolerance", "within", "within tol.", Bucket.WITHIN,
              "published value within the stated tolerance")
    BORDERLINE = ("borderline (published value within the estimation error of our "
                  "interval's bound)", "borderline", "borderline", Bucket.BORDERLINE,
                  "published value at the edge of our 95% interval (borderline)")
    DEVIATES = ("deviates", "deviates", "deviates", Bucket.DEVIATES,
                "published value outside our 95% interval")
    ONCE = ("deviates (deterministic: no run-to-run spread to allow)", "deviates-once",
            "deviates (deterministic)", Bucket.DETERMINISTIC)
    # the rules over a column (:mod:`repro.judge.columns`)
    OFFSET = ("offset (in a column whose values are systematically off the published ones)",
              "offset", "offset", Bucket.OFFSET)
    SAME_EVIDENCE = ("same evidence", "same-evidence", "same evidence", Bucket.SAME, "", True)
    COLUMN_OFFSET = ("offset column (ours − published systematic: Holm-adjusted t-test)",
                     "column-offset", "offset column", Bucket.COLUMNS)
    COLUMN_LEVEL = ("no systematic offset (column)", "column-level", "no offset",
                    Bucket.COLUMNS)
    # checks (a published value of kind "consistency")
    CONSISTENT = ("consistent (check, not a reproduction)", "consistent", "consistent",
                  Bucket.CHECK)
    INCONSISTENT = ("inconsistent (check)", "inconsistent", "inconsistent", Bucket.CHECK)
    # nothing to compare
    SHOWN = ("shown, not compared", "not-compared", "not compared", Bucket.NOT_COMPARED, "",
             True)
    NO_PUBLISHED = ("no published value", "no-published", "ours only", Bucket.OURS_ONLY)
    BASELINE = ("published baseline (not rerun)", "baseline", "baseline", Bucket.BASELINE)
    UNREADABLE = ("published value unreadable", "unreadable", "unreadable", Bucket.UNREADABLE)
    UNDEFINED = ("undefined (NaN)", "undefined", "undefined", Bucket.UNDEFINED, "", True)
    NOT_RUN = ("not run", "not-run", "not run", Bucket.NOT_RUN, "", True)
    MODERN = ("modern reference (not in the paper)", "modern", "modern reference",
              Bucket.MODERN)
    USER_METHOD = ("user method (not in the paper)", "user", "user method", Bucket.USER)
    # outcomes of a claim judged by a test
    HOLDS = ("holds", "holds", "holds", Bucket.CLAIMS)
    CONTRADICTED = ("contradicted", "contradicted", "contradicted", Bucket.CLAIMS)
    NOT_SIGNIFICANT = ("not significant here", "not-significant", "not significant here",
                       Bucket.CLAIMS)
    NOT_TESTABLE = ("not testable here", "not-testable", "not testable here", Bucket.CLAIMS)
    HOLDS_DEVIATING = ("holds against deviating baselines", "holds-deviating",
                       "holds against deviating baselines", Bucket.CLAIMS)

    def __str__(self) -> str:
        return self.value

    @property
    def is_outcome(self) -> bool:
        return self in OUTCOMES


#: the outcomes of a claim judged by a test ("holds against deviating baselines": the claim
#: holds here, but a value it is compared with deviates from its published one — no support)
OUTCOMES = (Verdict.HOLDS, Verdict.CONTRADICTED, Verdict.NOT_SIGNIFICANT, Verdict.NOT_TESTABLE,
            Verdict.HOLDS_DEVIATING)
#: the verdicts of a reproduction that a value on stand-in data, or a derived value, may have
#: (the rule of :func:`judge`)
REPRODUCTION = (Verdict.AGREES, Verdict.WITHIN_NOISE, Verdict.WITHIN, Verdict.BORDERLINE,
                Verdict.DEVIATES)
#: every verdict of a value compared with the paper's on the paper's data: the rule of
#: :func:`judge`, and the column rules (:mod:`repro.judge.columns`)
RERUN = REPRODUCTION + (Verdict.ONCE, Verdict.OFFSET, Verdict.SAME_EVIDENCE)
#: the verdicts counted as reproduced
REPRODUCED = (Verdict.AGREES, Verdict.WITHIN_NOISE, Verdict.WITHIN)
#: what a stand-in value says when it differs beyond the rounding and has no interval
STAND_IN_DIFFERS = "differs beyond the paper's rounding (no interval to judge noise)"

#: the qualifier of a value computed on an unverified copy of a catalogued set (also how its
#: data mark begins, :func:`repro.data.catalog.data_mark`)
UNVERIFIED_COPY = "unverified copy: "
_DERIVED, _STAND_IN, _UNVERIFIED = "derived value: ", "stand-in data: ", UNVERIFIED_COPY
_CHECKS = (Verdict.CONSISTENT, Verdict.INCONSISTENT)
_BY_TEXT = {v.value: v for v in Verdict}
_BY_STAND_IN = {v.stand_in: v for v in REPRODUCTION}


@dataclass(frozen=True)
class Judged:
    """A verdict with its qualifiers, as a record's ``verdict`` writes it."""
    verdict: Verdict
    derived: bool = False          # "derived value: …"
    stand_in: bool = False         # "stand-in data: …" (says where the published value lies)
    unverified: bool = False       # "unverified copy: …"
    reason: str = ""               # after "not run: ", "shown, not compared: ", "undefined: "
    no_interval: bool = False      # a stand-in value that differs, with no interval to judge

    @property
    def text(self) -> str:
        v = self.verdict
        text = v.value + (f": {self.reason}" if v.reason and (self.reason or v is not
                                                                Verdict.UNDEFINED) else "")
        if self.derived:
            text = _DERIVED + text
        if self.stand_in:
            says = (STAND_IN_DIFFERS if self.no_interval and v is Verdict.DEVIATES
                    and not self.derived else
                    v.stand_in if v.stand_in and not self.derived else text)
            text = _STAND_IN + says
        if self.unverified:
            text = _UNVERIFIED + text
        return text

    def __str__(self) -> str:
        return self.text

    @classmethod
    def parse(cls, text: str) -> "Judged":
        """The verdict a sentence writes; ValueError for a sentence that is no verdict (only
        what :attr:`text` writes reads back)."""
        got = cls._read(text) if isinstance(text, str) else None
        if got is None or got.text != text or (got.derived and got.verdict not in
                                                REPRODUCTION) or (
                got.stand_in and got.verdict not in REPRODUCTION + _CHECKS):
            raise ValueError(f"not a verdict: {text!r}")
        return got

    @classmethod
    def _read(cls, text: str) -> "Judged | None":
        rest, flags = text, {}
        for prefix, flag in ((_UNVERIFIED, "unverified"), (_STAND_IN, "stand_in")):
            if rest.startswith(prefix):
                rest, flags[flag] = rest[len(prefix):], True
        if flags.get("stand_in"):
            if rest == STAND_IN_DIFFERS:
                return cls(Verdict.DEVIATES, no_interval=True, **flags)
            if rest in _BY_STAND_IN:
                return cls(_BY_STAND_IN[rest], **flags)
        if rest.startswith(_DERIVED):
            rest, flags["derived"] = rest[len(_DERIVED):], True
        if rest in _BY_TEXT and (not _BY_TEXT[rest].reason or _BY_TEXT[rest] is
                                 Verdict.UNDEFINED):
            return cls(_BY_TEXT[rest], **flags)
        head, sep, reason = rest.partition(": ")
        if sep and head in _BY_TEXT and _BY_TEXT[head].reason:
            return cls(_BY_TEXT[head], reason=reason, **flags)
        return None

    def unverified_copy(self) -> "Judged":
        """The verdict of the same value computed on an unverified copy ("not run" stays)."""
        return self if self.verdict is Verdict.NOT_RUN else replace(self, unverified=True)

    @property
    def css(self) -> str:
        """The colour class: the verdict's, or unverified, user, stand-in, derived-agrees /
        derived-within (within noise too) / derived-deviates."""
        v = self.verdict
        if v is Verdict.SHOWN and not self.unverified:
            return v.css
        if self.unverified:
            return "unverified"
        if v is Verdict.USER_METHOD:
            return v.css
        if self.stand_in:
            return "stand-in"
        if self.derived:
            return "derived-" + {Verdict.AGREES: "agrees", Verdict.WITHIN: "within",
                                 Verdict.WITHIN_NOISE: "within",
                                 Verdict.BORDERLINE: "within"}.get(v, "deviates")
        return v.css

    @property
    def inner_css(self) -> str:
        """The class of what a stand-in value says (agrees, within-noise, within, deviates)."""
        return replace(self, stand_in=False, no_interval=False).css

    @property
    def explained(self) -> bool:
        """Whether the value needs the TOML's explanation: it deviates (not on stand-in data,
        which never deviates) or a check is inconsistent."""
        return self.verdict in (Verdict.INCONSISTENT, Verdict.ONCE) or (
            self.verdict is Verdict.DEVIATES and (self.derived or not self.stand_in))


#: the short word of each colour class
SHORT = {**{v.css: v.short for v in Verdict},
         "stand-in": "stand-in", "unverified": "unverified copy",
         **{f"derived-{c}": f"derived: {w}" for c, w in (("agrees", "agrees"),
                                                         ("within", "within tol."),
                                                         ("deviates", "deviates"))}}
#: the bucket of each colour class
_CLASS_BUCKET = {**{v.css: v.bucket for v in Verdict}, "stand-in": Bucket.STAND_IN,
                 "unverified": Bucket.UNVERIFIED, "derived-agrees": Bucket.DERIVED,
                 "derived-within": Bucket.DERIVED, "derived-deviates": Bucket.DERIVED}


def verdict_class(verdict: str) -> str:
    """The colour class of a verdict as written (ValueError for a sentence that is none)."""
    return Judged.parse(verdict).css


def bucket(rec: dict) -> Bucket:
    """The one bucket a record is counted in: its verdict's — but a value of a published
    "shown" kind is not compared, and a value without a published counterpart is "ours only"
    (or, not run, an empty placeholder)."""
    cls = verdict_class(rec["verdict"])
    b = _CLASS_BUCKET[cls]
    if b in (Bucket.BASELINE, Bucket.UNREADABLE, Bucket.MODERN, Bucket.USER, Bucket.CLAIMS,
             Bucket.NOT_COMPARED, Bucket.COLUMNS):
        return b
    if rec.get("kind") == "shown":
        return Bucket.NOT_COMPARED
    if rec.get("published") is None:
        return Bucket.EMPTY if b is Bucket.NOT_RUN else Bucket.OURS_ONLY
    return b


def not_run_reason(verdict: str) -> str:
    """Why a value was not run (the verdict itself when it is no "not run")."""
    j = Judged.parse(verdict)
    return j.reason if j.verdict is Verdict.NOT_RUN and not j.unverified else verdict


def is_not_run(verdict: str) -> bool:
    return Judged.parse(verdict).verdict is Verdict.NOT_RUN


def not_run_verdict(why: str) -> str:
    """The verdict of a value that was not run, with its reason."""
    return Judged(Verdict.NOT_RUN, reason=why).text


def mark_verdict(verdict: str) -> str:
    """The verdict of a value computed on an unverified copy ("not run" verdicts stay)."""
    return Judged.parse(verdict).unverified_copy().text


# --- the rule ----------------------------------------------------------------------------------

def judge(value, pub, tol: float, stand_in: bool = False, kind: str = "reproduction",
          rounding: bool = True, ci95=None, margin: float = 0.0
          ) -> tuple[float | None, Judged | None]:
    """``(diff, verdict)`` for a reproduced value against a published one (a
    :class:`~repro.judge.published.PublishedValue`, or None).  ``rounding``: whether agreement
    at the published text's rounding counts (False for claims such as an exponent "1",
    compared by ``tol`` alone); ``ci95``: the 95% interval the value's noise allows
    (:mod:`repro.judge.noise`) — the published value inside it is "within noise"; a point
    (no spread) allows nothing: a reproduction that differs beyond the rounding "deviates
    (deterministic)"; ``margin``: the estimation error of the interval's bounds — a published
    value within it of a bound is "borderline".  The verdict is None when ``value`` is
    undefined (the caller says why it was not run)."""
    if pub is None:
        return None, Judged(Verdict.NO_PUBLISHED)
    p = pub.value
    if p is None:
        return None, Judged(Verdict.UNREADABLE)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None, None
    diff = float(value) - p
    # A power such as "2^8" is exact (a grid value), not a rounded decimal.
    half_unit = 0.0 if ("^" in pub.text or not rounding) else 0.5 * 10.0 ** (-pub.decimals)
    has = ci95 is not None and ci95[0] is not None and ci95[1] is not None
    lo, hi = (float(ci95[0]) - half_unit, float(ci95[1]) + half_unit) if has else (0.0, 0.0)
    reproduction = kind == "reproduction"
    near = has and reproduction and margin > 0 and min(abs(p - lo), abs(p - hi)) <= margin
    if abs(diff) <= half_unit * (1 + 1e-9) + 1e-12 * max(1.0, abs(p)):
        v = Verdict.AGREES
    elif has and lo <= p <= hi and not near:
        v = Verdict.WITHIN_NOISE
    elif abs(diff) <= tol * (1 + 1e-9):
        v = Verdict.WITHIN
    elif near:
        v = Verdict.BORDERLINE
    elif has and float(ci95[0]) == float(ci95[1]) and reproduction and not stand_in:
        v = Verdict.ONCE
    else:
        v = Verdict.DEVIATES
    if kind == "shown":
        return diff, Judged(Verdict.SHOWN)
    if kind == "consistency":
        v = Verdict.INCONSISTENT if v is Verdict.DEVIATES else Verdict.CONSISTENT
    return diff, Judged(v, derived=kind == "derived", stand_in=stand_in,
                        no_interval=stand_in and not ci95)


def compare(paper: str, artifact: str, records: list[dict], published,
            not_run_why: dict[str | None, str]) -> list[dict]:
    """Join reproduced ``records`` (already carrying artifact/dataset/...) with the paper's
    published values for ``artifact`` (a :class:`~repro.judge.published.PublishedSet`).
    ``not_run_why`` maps a dataset (or None for all) to the reason its values are absent.
    Returns the flat records of ``<artifact>.json``."""
    pubs = {v.key: v for v in published.for_artifact(artifact)}
    out, seen = [], set()
    for r in records:
        key = tuple(r.get(k) for k in CELL)
        seen.add(key)
        pub = pubs.get(key)
        rule = published.rule(r)
        tol, tol_why = (float(rule["tol"]), rule.get("why", "")) if rule else \
            (published.default_tol, "")
        kind, kind_why = published.kind(r) if pub else ("reproduction", "")
        diff, j = judge(r["value"], pub, tol, bool(r.get("stand_in")), kind,
                        rounding=bool(rule.get("rounding", True)) if rule else True,
                        ci95=r.get("ci95"), margin=float(r.get("ci_margin") or 0.0))
        if j is not None and j.verdict is Verdict.SHOWN:
            j = replace(j, reason=kind_why)
        if r.get("not_run"):
            j = Judged(Verdict.NOT_RUN, reason=r.get("why", "no value"))
        elif r.get("modern") and j.verdict is Verdict.NO_PUBLISHED:
            j = Judged(Verdict.MODERN)
        elif isinstance(r["value"], float) and math.isnan(r["value"]):
            j = Judged(Verdict.UNDEFINED, reason=r.get("why") or "")
        elif j is None:
            j = Judged(Verdict.NOT_RUN, reason=r.get("why", "no value"))
        rec = {"paper": paper, **{k: r.get(k) for k in CELL}, "value": r["value"],
               "published": pub.text if pub else None, "diff": diff, "verdict": j.text,
               "source": pub.source if pub else None}
        rec.update({k: v for k, v in r.items() if k not in rec})
        if j.explained:
            rec["explanation"] = published.explanation(rec)
        if tol_why and pub is not None and j.verdict is not Verdict.NOT_RUN:
            rec["tolerance_why"] = tol_why
        if kind != "reproduction":
            rec["kind"], rec["kind_why"] = kind, kind_why
        out.append(rec)
    for key, pub in pubs.items():
        if key in seen:
            continue
        if pub.baseline:
            j = Judged(Verdict.BASELINE)
        elif pub.value is None:
            j = Judged(Verdict.UNREADABLE)
        else:
            parent = published.parents.get(pub.dataset)
            why = (not_run_why.get(pub.dataset) or (parent and not_run_why.get(parent))
                   or not_run_why.get(None) or "no reproduced value")
            j = Judged(Verdict.NOT_RUN, reason=why)
        kind, kind_why = published.kind(dict(zip(CELL, key)))
        out.append({"paper": paper, **dict(zip(CELL, key)), "value": None,
                    "published": pub.text, "diff": None, "verdict": j.text,
                    "source": pub.source, **({"note": pub.note} if pub.note else {}),
                    **({"kind": kind, "kind_why": kind_why} if kind != "reproduction" else {})})
    return out


def outcome_of(rec: dict) -> Verdict | None:
    """A claim record's outcome (its ``outcome`` field), or None."""
    o = rec.get("outcome")
    return Verdict(o) if isinstance(o, str) and o in _OUTCOME_TEXT else None


_OUTCOME_TEXT = {o.value for o in OUTCOMES}
