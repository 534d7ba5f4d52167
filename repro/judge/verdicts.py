"""Verdicts as data: one enumeration of codes, and the one pass that judges an artifact's
records against the paper's published numbers.

**The codes.**  A record's ``verdict`` is a member of :class:`Verdict` (its value is the code
written in the JSON); a claim's ``outcome`` is a member of :class:`Outcome`.  Nothing here
words a verdict or colours it: the report owns every word and class
(:mod:`repro.report.verdicts`).  What a verdict rests on is in fields beside it — the reason
(``reason``: why a value was not run, is undefined or is not compared), the equivalence test
(``equivalence``, ``d``, ``d_ci90``, ``d_ci95``, ``margin``, ``margin_basis``,
``equivalence_bound`` …: :mod:`repro.judge.equivalence`), the data (``stand_in``,
``data_mark``) and the published value's kind (``kind``).

**The rule** (:func:`judge`, the same for every method and paper): d = ours − published;
its uncertainty from what separates the two values (:mod:`repro.judge.noise`); the margin δ —
a margin the paper's TOML declares for the value, with its reason, else the paper's
resolution (one standard error over its test queries, never below half a unit of the
published value's last digit); two one-sided tests at 5 %: **reproduced** (90 % interval of d
inside ±δ), **deviates** (95 % interval beyond ±δ), **inconclusive** otherwise.  Deterministic
and stochastic methods under the same rule: a deterministic method on the paper's queries has d
exactly, so it is reproduced when |d| < δ and deviates when |d| > δ.

What the equivalence test says is the verdict of a reproduction on the paper's verified data.
Elsewhere it is context and the verdict names the category: **stand-in** (substitute data:
never reproduced, never deviating), **derived** (a number derived from the paper's words or
partly from its published numbers: never "reproduced"), **consistent** / **inconsistent**
(a consistency check), **unverified** (an unverified copy of the data).  Without a
comparison: **not compared** (a published number whose meaning the paper does not state),
**baseline** (copied by the paper, not rerun), **unreadable**, **ours only**, **not run**,
**undefined** (NaN), **modern** (the modern reference), **user** (a user's method); a column's
record is **column** and a claim's record **claim** (its outcome in ``outcome``).
"""
from __future__ import annotations

import math
from enum import Enum

from ..evidence.record import CELL
from . import equivalence as eq
from .noise import uncertainty_of


class Verdict(str, Enum):
    """A record's verdict code (the value written in the JSON)."""

    REPRODUCED = "reproduced"
    INCONCLUSIVE = "inconclusive"
    DEVIATES = "deviates"
    STAND_IN = "stand-in"
    DERIVED = "derived"
    CONSISTENT = "consistent"
    INCONSISTENT = "inconsistent"
    UNVERIFIED = "unverified"
    NOT_COMPARED = "not compared"
    NO_PUBLISHED = "ours only"
    BASELINE = "baseline"
    UNREADABLE = "unreadable"
    UNDEFINED = "undefined"
    NOT_RUN = "not run"
    MODERN = "modern"
    USER = "user"
    COLUMN = "column"
    CLAIM = "claim"

    def __str__(self) -> str:
        return self.value


class Outcome(str, Enum):
    """A claim's outcome as a replication (:mod:`repro.judge.claims`)."""

    REPLICATED = "replicated"
    NOT_REPLICATED = "not replicated"
    REVERSED = "reversed"
    INCONCLUSIVE = "inconclusive"
    NOT_TESTABLE = "not testable"

    def __str__(self) -> str:
        return self.value


#: the verdicts of the equivalence rule on the paper's verified data
RULE = (Verdict.REPRODUCED, Verdict.INCONCLUSIVE, Verdict.DEVIATES)
#: the verdicts of a value compared with a published number on other terms
CATEGORY = (Verdict.STAND_IN, Verdict.DERIVED, Verdict.CONSISTENT, Verdict.INCONSISTENT,
            Verdict.UNVERIFIED)
#: the verdicts of values with a published number that were to be compared
COMPARABLE = RULE + CATEGORY + (Verdict.UNDEFINED, Verdict.NOT_RUN)
_BY_EQUIVALENCE = {eq.REPRODUCED: Verdict.REPRODUCED, eq.INCONCLUSIVE: Verdict.INCONCLUSIVE,
                   eq.DEVIATES: Verdict.DEVIATES}


def not_run(why: str) -> dict:
    """The verdict fields of a value that was not run, with its reason."""
    return {"verdict": Verdict.NOT_RUN.value, "reason": why}


# --- the rule ----------------------------------------------------------------------------------

def margin_for(pub, rec: dict, rule: dict | None) -> eq.Margin:
    """The margin δ of a record against published value ``pub``: a declared rule's ``tol``
    (with its ``why``), else the paper's resolution (:func:`repro.judge.equivalence.resolution`)."""
    rounding = bool(rule.get("rounding", True)) if rule else True
    half = eq.half_unit(pub.text, pub.decimals, rounding)
    if rule is not None:
        return eq.Margin(max(float(rule["tol"]), half), "declared", rule.get("why", ""))
    se = rec.get("se_queries")
    return eq.resolution(None if se is None else float(se), half,
                         "from our per-query values" if se is not None else "")


def judge(rec: dict, pub, rule: dict | None = None) -> eq.Equivalence | None:
    """The equivalence test of a record's value against published value ``pub`` (a
    :class:`~repro.judge.published.PublishedValue`), or None when either is undefined."""
    value = rec.get("value")
    if pub is None or pub.value is None or value is None or isinstance(value, bool) or (
            isinstance(value, float) and not math.isfinite(value)):
        return None
    levels = rec.get("interval_levels")
    return eq.tost(float(value) - float(pub.value), uncertainty_of(rec),
                   margin_for(pub, rec, rule), tuple(levels) if levels else None)


def needs_second_stage(e: eq.Equivalence, verdict: Verdict, projected: dict) -> bool:
    """Whether a value at the first stage of the replicate design (:mod:`repro.judge.design`)
    goes on to the second: its verdict is the rule's and inconclusive, and the second stage's
    replicates, with the mean and spread seen so far (``projected``: the uncertainty and
    interval levels on that many replicates, :func:`repro.judge.intervals.second_stage_replicates`),
    would decide it."""
    if verdict is not Verdict.INCONCLUSIVE:
        return False
    then = eq.tost(e.d, uncertainty_of(projected), e.margin,
                   tuple(projected["interval_levels"]))
    return then.outcome != eq.INCONCLUSIVE


def category(kind: str, stand_in: bool, rule_outcome: str) -> Verdict:
    """The verdict of a compared value: the rule's outcome on the paper's data, else its
    category (a check's outcome is consistent only when reproduced)."""
    if kind == "consistency":
        return Verdict.CONSISTENT if rule_outcome == eq.REPRODUCED else Verdict.INCONSISTENT
    if kind == "derived":
        return Verdict.DERIVED
    if stand_in:
        return Verdict.STAND_IN
    return _BY_EQUIVALENCE[rule_outcome]


def compare(paper: str, artifact: str, records: list[dict], published,
            not_run_why: dict[str | None, str], users=frozenset(),
            unverified=lambda rec: False) -> list[dict]:
    """Join reproduced ``records`` (already carrying artifact/dataset/...) with the paper's
    published values for ``artifact`` (a :class:`~repro.judge.published.PublishedSet`) and
    judge each — the one pass that writes every verdict (the module docstring).
    ``not_run_why`` maps a dataset (or None for all) to the reason its values are absent;
    ``users``: the methods of users' rankers (verdict ``user``); ``unverified(rec)``: whether
    a value was computed on an unverified copy of the data.  Returns the flat records of
    ``<artifact>.json``."""
    pubs = {v.key: v for v in published.for_artifact(artifact)}
    out, seen = [], set()
    for r in records:
        key = tuple(r.get(k) for k in CELL)
        seen.add(key)
        pub = pubs.get(key)
        rule = published.rule(r) if pub is not None else None
        kind, kind_why = published.kind(r) if pub is not None else ("reproduction", "")
        rec = {"paper": paper, **{k: r.get(k) for k in CELL}, "value": r["value"],
               "published": pub.text if pub else None, "diff": None,
               "source": pub.source if pub else None}
        rec.update({k: v for k, v in r.items() if k not in rec and k not in ("verdict",
                                                                             "projected")})
        value = r["value"]
        undefined = isinstance(value, float) and math.isnan(value)
        if r.get("not_run") or (value is None and not undefined):
            rec.update(not_run(r.get("why", "no value")))
        elif r.get("claim") is True and "outcome" in r:
            rec["verdict"] = Verdict.CLAIM.value
        elif r.get("method") in users:
            rec.update(verdict=Verdict.USER.value, user_method=True)
        elif undefined:
            rec.update(verdict=Verdict.UNDEFINED.value, reason=r.get("why") or "")
        elif pub is None:
            rec["verdict"] = (Verdict.MODERN if r.get("modern") else Verdict.NO_PUBLISHED).value
        elif pub.value is None:
            rec["verdict"] = Verdict.UNREADABLE.value
        elif kind == "shown":
            rec.update(verdict=Verdict.NOT_COMPARED.value, reason=kind_why,
                       diff=float(value) - pub.value)
        else:
            e = judge(r, pub, rule)
            verdict = (Verdict.UNVERIFIED if unverified(rec) else
                       category(kind, bool(r.get("stand_in")), e.outcome))
            rec.update(e.fields(), diff=e.d, verdict=verdict.value)
            if r.get("projected"):
                rec["second_stage"] = needs_second_stage(e, verdict, r["projected"])
            why = published.explanation(rec) if e.outcome != eq.REPRODUCED else ""
            if why:
                rec["explanation"] = why
        if kind != "reproduction":
            rec["kind"], rec["kind_why"] = kind, kind_why
        out.append(rec)
    for key, pub in pubs.items():
        if key in seen:
            continue
        kind, kind_why = published.kind(dict(zip(CELL, key)))
        rec = {"paper": paper, **dict(zip(CELL, key)), "value": None, "published": pub.text,
               "diff": None, "source": pub.source, **({"note": pub.note} if pub.note else {}),
               **({"kind": kind, "kind_why": kind_why} if kind != "reproduction" else {})}
        if pub.baseline:
            rec["verdict"] = Verdict.BASELINE.value
        elif pub.value is None:
            rec["verdict"] = Verdict.UNREADABLE.value
        else:
            parent = published.parents.get(pub.dataset)
            rec.update(not_run(not_run_why.get(pub.dataset)
                               or (parent and not_run_why.get(parent))
                               or not_run_why.get(None) or "no reproduced value"))
        out.append(rec)
    return out
