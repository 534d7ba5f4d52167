"""The claim engine: a paper's claims judged as replications — did the effect the paper claims
appear here, in the claimed direction — by paired tests on the evidence behind the values,
never by comparing two means.  The declarations that use it are in
:mod:`repro.judge.kinds.claims`; this module holds what they share:

* **evidence** — :func:`aligned`: the per-query values of several methods, paired by query id
  within each declared fold and pooled over the folds (and over data sets);
  :func:`compare_paired`: two records compared over the test queries behind both, or else
  over their fold values;
* **comparisons** — :func:`compare`: one paired comparison (:func:`repro.judge.stats.paired`:
  the t-test of the per-query differences with a bootstrap interval of the mean difference;
  over fold values the exact sign-flip permutation test decides, with the t-interval beside:
  five folds cannot give p below 0.0625, and the record says so);
* **a claim's own test** — one p-value and one direction per claim
  (:class:`Judgement`): "S beats every X" is an intersection–union test (its p is the largest
  of the comparisons' when all favour the claim); "some variant beats every X" the union over
  variants of such tests (the best variant's p times the number of variants); the claim is
  *against* when a comparison goes the other way more significantly (the smallest such p
  times the number of comparisons that could reverse it).  That is the claim's test, stated
  once in its ``test`` field — not an adjustment;
* **records** — :func:`claim_record` (one claim in one cell: ``effect`` is our advantage in the
  claimed direction, ``effect_ci95``, ``published_effect`` from the paper's own numbers where it
  prints both, the effect ratio with its interval — Breuer et al., SIGIR 2020) and
  :func:`count_record` (a claim the paper states as a count, "23 of 32": our count of cells
  and a sign test over the cells, beside the paper's count);
* **the families** — :func:`finish`, once every claim of an artifact is judged: duplicates (the
  same comparison on the same evidence) merged into one test; the paper's key claims are the
  primary family (Holm), the other claims secondary (Benjamini–Hochberg); each claim's
  ``p_adjusted`` and then its outcome: **replicated** (significant in the claimed direction),
  **reversed** (significant the other way), **not replicated** (our effect significantly
  smaller than the paper's — its 95 % interval below the published effect — and not
  significant in its direction), **inconclusive** (otherwise), **not testable** (no evidence
  here).  Compared values that deviate from their published ones are listed beside a claim
  (``deviating``) as context.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sstats

from ..evidence import TableIndex, table_mean
from ..evidence.record import CELL, key, matches, number, numbers_of, record
from ..spec import Artifact
from . import intervals, noise
from .published import load as load_published
from .stats import Paired, benjamini_hochberg, holm, paired, seed_from
from .verdicts import Outcome, Verdict, judge

ALPHA = 0.05
REPLICATED, NOT_REPLICATED, REVERSED, INCONCLUSIVE, NOT_TESTABLE = (
    Outcome.REPLICATED, Outcome.NOT_REPLICATED, Outcome.REVERSED, Outcome.INCONCLUSIVE,
    Outcome.NOT_TESTABLE)
#: the families of a paper's claims; a cell of a claim the paper states as a count is its
#: evidence, tested alone (unadjusted), not a claim of its own
KEY, SECONDARY, CELL_OF_COUNT = "key", "secondary", "cell"
#: a paper's count: "23 of 32", "'best' 26 of 32"
_COUNT = re.compile(r"\b\d+\s+(?:of|out of)\s+\d+\b")


def is_count(text) -> bool:
    """Whether the paper states a claim as a count ("23 of 32")."""
    return bool(_COUNT.search(str(text or "")))
#: the seed of a comparison's bootstrap interval, from its text
seed_of = seed_from


def fold_test_words(n: int, what: str) -> str:
    """The ``test`` words of a comparison over ``n`` folds (the exact sign-flip test
    decides; its smallest two-sided p is 2/2ⁿ)."""
    floor = 2 / 2 ** n
    return (f"exact sign-flip permutation test over {n} {what} (scipy.stats.permutation_test; "
            f"its smallest two-sided p is {floor:.2g}"
            + (f": {n} folds cannot decide at 5 %" if floor >= ALPHA else "")
            + "); 95% t-interval of the mean difference")


# --- evidence -----------------------------------------------------------------------------------

def declared_folds(art: Artifact, dataset) -> list[str]:
    return [str(f) for f in art.folds_for(dataset) if f is not None]


def aligned(art: Artifact, index: TableIndex, datasets, where: dict, labels, metric
            ) -> np.ndarray | None:
    """Per-query values of the methods ``labels`` (one column each; tables with the fields
    ``where``, ``metric`` and the data set), rows paired by query id within each declared fold
    (the queries every table has) and pooled over the folds, then over ``datasets``; undefined
    values NaN.  None when a table of a declared fold is missing."""
    rows = []
    for ds in datasets:
        folds = declared_folds(art, ds)
        per = [index.folds({**where, "dataset": ds, "method": m, "metric": metric}, folds)
               for m in labels]
        if not folds or any(p is None for p in per):
            return None
        for tables in zip(*per):
            maps = [dict(zip(t["qids"], t["values"])) for t in tables]
            rows += [[m[q] for m in maps] for q in tables[0]["qids"]
                     if all(q in m for m in maps)]
    return numbers_of([v for row in rows for v in row]).reshape(-1, len(labels))


def mean_of(art: Artifact, index: TableIndex, dataset, where: dict, label, metric) -> float:
    """The mean of the fold means of one method's tables (as a table's cell); NaN when a fold
    is missing."""
    folds = declared_folds(art, dataset)
    got = index.folds({**where, "dataset": dataset, "method": label, "metric": metric}, folds)
    if not folds or got is None:
        return float("nan")
    return float(np.mean([table_mean({"values": t["values"]}) for t in got]))


def compare_paired(art: Artifact, a: dict, b: dict, index, records: list[dict], groups: dict,
                   seed: int) -> dict | None:
    """A paired test of record ``a`` against record ``b`` (``a − b``): over the test queries
    behind both (pooled over folds) when both are means over query tables, else over their
    fold values; None when neither pairing exists."""
    qa, qb = intervals.query_values(art, a, index), intervals.query_values(art, b, index)
    if qa and qb:
        common = [k for k in qa if k in qb]
        if len(common) >= 2:
            res = paired([qa[k] for k in common], [qb[k] for k in common], seed)
            folds = len({f for f, _ in common})
            return {**res.as_dict(), "n_folds": folds, "unit": "queries",
                    "test": f"paired t-test over {res.n_queries} test queries"
                            + (f" pooled over {folds} folds" if folds > 1 else "")
                            + " (scipy.stats.ttest_rel); 95% bootstrap interval of the mean "
                              "difference", "outcome_of": res}
    fa = intervals.fold_values(art, a, records, groups)
    fb = intervals.fold_values(art, b, records, groups)
    if fa and fb and set(fa) == set(fb) and len(fa) >= 2:
        folds = sorted(fa)
        res = paired([fa[f] for f in folds], [fb[f] for f in folds], seed,
                     test="sign-flip")
        d = res.as_dict()
        d["n_folds"], d["n_queries"] = d.pop("n_queries"), None
        return {**d, "unit": "folds",
                "test": fold_test_words(len(folds), "fold values (not means over queries)"),
                "outcome_of": res}
    return None


# --- comparisons and judgements ---------------------------------------------------------------

@dataclass
class Comparison:
    """``a`` against ``b``: the paired result (effect = mean(a − b)) and the claimed sign
    (+1: a larger; −1: a smaller)."""
    a: str
    b: str
    res: Paired
    sign: int = 1

    @property
    def p(self) -> float:
        return self.res.p_value if math.isfinite(self.res.p_value) else 1.0

    @property
    def favours(self) -> bool:
        """Whether the effect goes the claimed way (a zero effect does not)."""
        return bool(np.sign(self.res.effect) == np.sign(self.sign) and self.res.effect != 0)

    def as_dict(self) -> dict:
        return {"compared": f"{self.a} − {self.b}", "effect": self.sign * self.res.effect,
                "effect_ci95": claimed_ci(self.res.ci95, self.sign),
                "p_value": self.res.p_value}


def claimed_ci(ci, sign: int):
    """An interval of a − b turned into the claimed direction (sign −1: of b − a), ordered."""
    if not ci:
        return None
    lo, hi = sign * ci[0], sign * ci[1]
    return [min(lo, hi), max(lo, hi)]


def decided_by(res: Paired) -> str:
    """What decided a comparison, in words (a record's ``decided_by``)."""
    return {"sign-flip": "exact sign-flip test", "t": "paired t-test"}.get(res.test, res.test)


def compare(a: str, b: str, x, y, seed_text: str, sign: int = 1, test: str = "t",
            permutation: bool | None = None) -> Comparison:
    """A paired test (``test``: "t", "wilcoxon" or "sign-flip" —
    :func:`repro.judge.stats.paired`) of per-unit values ``x`` (of ``a``) against ``y`` (of
    ``b``)."""
    res = paired(x, y, seed_of(seed_text), test=test, permutation=permutation)
    return Comparison(a, b, res, sign=sign)


@dataclass
class Judgement:
    """A claim's own test: its p-value, its direction (+1: for the claim, −1: against), the
    comparison its record shows (``binding``) and all its comparisons, and how the p-value was
    formed (``how``)."""
    p_value: float
    direction: int
    binding: Comparison | None
    comparisons: list[Comparison] = field(default_factory=list)
    how: str = ""


def _against(comps: list[Comparison], factor: int) -> tuple[float, Comparison | None]:
    """The claim reversed: its most significant contradicting comparison, p × ``factor``."""
    against = [c for c in comps if not c.favours and c.res.effect != 0]
    if not against:
        return 1.0, None
    c = min(against, key=lambda c: (c.p, -abs(c.res.effect)))
    return min(1.0, factor * c.p), c


def judge_every(comps: list[Comparison]) -> Judgement:
    """"S beats every X": for the claim, the intersection–union test (p = the largest of the
    comparisons' when every one favours the claim; the binding comparison is the closest
    competitor); against it, the most significant contradicting comparison (p × the number of
    comparisons, any of which could reverse the claim)."""
    k = len(comps)
    closest = min(comps, key=lambda c: c.sign * c.res.effect
                  if math.isfinite(c.res.effect) else float("inf"))
    p_for = max(c.p for c in comps) if all(c.favours for c in comps) else 1.0
    p_against, worst = _against(comps, k)
    how = (f"{k} comparisons: for the claim, the largest of their p-values (each must favour "
           f"it); against it, the smallest contradicting p × {k}" if k > 1 else "")
    if worst is not None and p_against < p_for:
        return Judgement(p_against, -1, worst, list(comps), how)
    return Judgement(p_for if p_for < 1 else closest.p, 1 if closest.favours else -1,
                     closest, list(comps), how)


def judge_variants(by_variant: dict[str, list[Comparison]], every: bool = False) -> Judgement:
    """Some variant (``every``: every variant) beats every opponent.  For the claim: each
    variant's intersection–union p (the largest of its comparisons' when all favour it); the
    claim's p is the best variant's times the number of variants (a union), or, with ``every``,
    the largest.  Against it: the most significant contradicting comparison of the variant
    that does best, × its number of opponents (``every``: of all, × all comparisons)."""
    comps = [c for cs in by_variant.values() for c in cs]
    v = len(by_variant)

    def iut(cs):
        return max(c.p for c in cs) if all(c.favours for c in cs) else 1.0
    per = {name: iut(cs) for name, cs in by_variant.items()}
    if every:               # bound by its weakest variant
        best = max(per, key=lambda name: (per[name], -min(
            c.sign * c.res.effect for c in by_variant[name])))
        p_for = per[best]
        p_against, worst = _against(comps, len(comps))
    else:
        best = min(per, key=lambda name: (per[name], -min(
            c.sign * c.res.effect for c in by_variant[name])))
        p_for = min(1.0, v * per[best])
        # reversed only when every variant is beaten: the best variant's contradiction
        best_against = max(by_variant, key=lambda name: _against(
            by_variant[name], len(by_variant[name]))[0])
        p_against, worst = _against(by_variant[best_against], len(by_variant[best_against]))
    cs = by_variant[best]
    closest = min(cs, key=lambda c: c.sign * c.res.effect
                  if math.isfinite(c.res.effect) else float("inf"))
    how = ("" if len(comps) == 1 else
           f"{v} variant(s) × {len(cs)} opponent(s): per variant the largest p of its "
           f"comparisons (each must favour the claim); "
           + ("the largest over variants" if every else f"the best variant's × {v}")
           + "; against it, the most significant contradiction × its comparisons")
    if worst is not None and p_against < p_for:
        return Judgement(p_against, -1, worst, comps, how)
    return Judgement(p_for if p_for < 1 else min(1.0, v * closest.p),
                     1 if closest.favours else -1, closest, comps, how)


# --- words and records ------------------------------------------------------------------------

def describe_test(j: Judgement, n: int, folds: int, every: bool = False, what: str = "",
                  unit: str = "test queries") -> str:
    """The ``test`` field: what was tested, on what, and how the claim's p-value is formed."""
    words = (f"{what + ',' if what else 'paired t-test'} over {n} {unit} pooled over {folds} "
             f"folds (scipy.stats.ttest_rel); 95% bootstrap interval of the mean difference")
    return words + (f"; {j.how}" if j.how else "")


def describe_fold_test(n: int, what: str, caveat: str = "") -> str:
    """The ``test`` field of a test over folds (the values are not per-query measures)."""
    return fold_test_words(n, f"folds of {what}") + (f". {caveat}" if caveat else "")


#: how a claim's note words its binding comparison: "binding" (with the means compared) or
#: "difference"
NOTE_STYLES = ("binding", "difference")


def binding_note(style: str, section: str, count: str, j: Judgement | None,
                 means: dict | None = None) -> str | None:
    """``§section; paper: count``, then the binding comparison: its effect in the claimed
    direction and interval.  Without a judgement: the head only ("binding") or no note."""
    head = f"§{section}; paper: {count}"
    if j is None or j.binding is None:
        return head if style == "binding" else None
    b, means = j.binding, means or {}
    ci = claimed_ci(b.res.ci95, b.sign)
    text = (f". {b.a} − {b.b}" + (f" (means {means[b.a]:.4f} vs {means[b.b]:.4f})"
                                  if style == "binding" and b.a in means and b.b in means
                                  else "")
            + f": advantage {b.sign * b.res.effect:+.4f} in the claimed direction")
    return head + text + (f", 95% CI [{ci[0]:+.4f}, {ci[1]:+.4f}]" if ci else "")


def claim_record(statement: str, section: str, paper_count: str, dataset, metric,
                 j: Judgement | None, test: str, numbers: dict, fields: dict, why: str = "",
                 fold_test: bool = False, published_effect: float | None = None,
                 **extra) -> dict:
    """One claim in one cell: method = the statement, metric = the cell's measure, value =
    ``effect`` (our advantage in the claimed direction: the binding comparison's mean
    difference, signed so that > 0 favours the claim), ``effect_ci95``, ``p_value`` (the claim's
    own test), ``n_queries`` (or ``n_folds``), ``test``, ``numbers``, ``compared``;
    ``published_effect`` (the paper's advantage from its own numbers, same sign convention)
    and the effect ratio with its interval where it is given.  The outcome is set by
    :func:`finish`."""
    base = dict(dataset=dataset, **fields, claim=True, statement=statement, section=section,
                paper_count=paper_count, test=test, numbers=numbers)
    n_field = "n_folds" if fold_test else "n_queries"
    if j is None or j.binding is None or not math.isfinite(j.binding.res.p_value):
        rec = record(statement, metric, float("nan"), None, **base,
                     outcome=NOT_TESTABLE.value, effect=float("nan"), effect_ci95=None,
                     p_value=float("nan"), why=why or "no paired values")
        rec[n_field] = 0 if j is None or j.binding is None else j.binding.res.n_queries
        rec.update({k: v for k, v in extra.items() if v is not None})
        return rec
    b = j.binding
    effect = b.sign * b.res.effect
    rec = record(statement, metric, effect, None, **base, outcome=INCONCLUSIVE.value,
                 effect=effect, effect_ci95=claimed_ci(b.res.ci95, b.sign),
                 p_value=j.p_value, p_direction=j.direction, compared=f"{b.a} − {b.b}",
                 decided_by=decided_by(b.res))
    rec[n_field] = b.res.n_queries
    rec["p_unadjusted"] = b.res.p_value
    if b.res.p_permutation is not None:
        rec["p_permutation"] = b.res.p_permutation
    if len(j.comparisons) > 1:
        rec["comparisons"] = [c.as_dict() for c in j.comparisons]
    if published_effect is not None and math.isfinite(published_effect):
        rec.update(ratio_fields(effect, rec["effect_ci95"], b.sign * published_effect))
    rec.update({k: v for k, v in extra.items() if v is not None})
    return rec


def ratio_fields(effect: float, ci, published_effect: float) -> dict:
    """``published_effect``, ``effect_ratio`` (ours / the paper's) and its interval (our
    effect's interval over the paper's effect, which the paper gives without an interval)."""
    out = {"published_effect": float(published_effect)}
    if published_effect != 0 and math.isfinite(effect):
        out["effect_ratio"] = effect / published_effect
        if ci:
            lo, hi = ci[0] / published_effect, ci[1] / published_effect
            out["effect_ratio_ci95"] = [min(lo, hi), max(lo, hi)]
    return out


def count_record(statement: str, section: str, paper_count: str, recs: list[dict],
                 fields: dict) -> dict:
    """A claim the paper states as a count ("23 of 32"), tested as a count: our count of cells
    whose effect favours the claim, the cells where it replicated, and an exact sign test over
    the testable cells (``scipy.stats.binomtest``: is the claim favoured in more cells than
    chance?) — its p-value is the record's, beside the paper's count."""
    testable = [r for r in recs if r.get("outcome") != NOT_TESTABLE
                and number(r.get("effect")) is not None]
    favour = sum(1 for r in testable if r["effect"] > 0)
    against = sum(1 for r in testable if r["effect"] < 0)
    n = favour + against
    base = dict(dataset="all", **fields, claim=True, statement=statement, section=section,
                paper_count=paper_count, count=True, paper_cells=paper_count)
    if not n:
        return record(statement, SUMMARY, float("nan"), None, **base,
                      outcome=NOT_TESTABLE.value, effect=float("nan"), p_value=float("nan"),
                      why="no cell has its data", testable_cells=0)
    res = sstats.binomtest(favour, n, 0.5)
    floor = 2 * 0.5 ** n
    ci = res.proportion_ci(0.95)
    return record(statement, SUMMARY, favour / n, None, **base,
                  outcome=INCONCLUSIVE.value, effect=favour / n - 0.5,
                  effect_ci95=[float(ci.low) - 0.5, float(ci.high) - 0.5],
                  p_value=float(res.pvalue), p_direction=1 if favour >= against else -1,
                  testable_cells=len(testable), counts={"favour": favour, "against": against},
                  sign_test={"favour": favour, "against": against, "cells": n,
                             "p_value": float(res.pvalue), "smallest_p": floor},
                  decided_by="exact sign test over cells",
                  test=(f"exact sign test over the {n} cells tested here (scipy.stats."
                        f"binomtest): {favour} favour the claim, {against} go against it"
                        + (f"; with {n} cells its smallest two-sided p is {floor:.2g}, so "
                           f"{n} cells cannot decide at 5 %" if floor >= ALPHA else "")
                        + f". The paper: {paper_count}"))


# --- the families: a paper's claims -------------------------------------------------------------

#: the metric of a count claim's record
SUMMARY = "cells favouring the claim (sign test)"


def tested(r: dict) -> bool:
    """A claim with a test of its own (not a bound on other tests' p-values)."""
    return (r.get("claim") is True and "outcome" in r and "bound" not in r
            and r.get("outcome") != NOT_TESTABLE and number(r.get("p_value")) is not None)


def _signature(r: dict) -> tuple:
    """What makes two claim records the same test: the same comparison on the same cell, with
    the same effect and units (two statements that test the same pair)."""
    return (r.get("dataset"), r.get("metric"), r.get("compared"),
            r.get("statement") if r.get("count") else None,   # a count is its own cells' test
            round(float(r["effect"]), 12), round(float(r["p_value"]), 12), r.get("n_queries"),
            r.get("n_folds"))


def decide(r: dict) -> str:
    """A claim's outcome from its adjusted p-value, direction and effects (module
    docstring)."""
    p, direction = r.get("p_adjusted"), r.get("p_direction", 1)
    if p is None or not math.isfinite(float(p)):
        return NOT_TESTABLE.value
    if p < ALPHA:
        return (REPLICATED if direction > 0 else REVERSED).value
    pub, ci = number(r.get("published_effect")), r.get("effect_ci95")
    if pub is not None and pub > 0 and ci and ci[1] < pub:
        return NOT_REPLICATED.value
    return INCONCLUSIVE.value


def finish(art: Artifact, records: list[dict], tables: list[dict], published=None) -> None:
    """Judge an artifact's claims (module docstring), in place: duplicates merged, the key
    family adjusted by Holm and the secondary by Benjamini–Hochberg, each outcome decided
    (the cells of a count claim unadjusted: they are its evidence); claims that require
    others; compared values that deviate listed beside."""
    _counts(records)
    claims = [r for r in records if r.get("claim") is True and "outcome" in r]
    first: dict[tuple, dict] = {}
    for r in claims:
        if r.get("family") != CELL_OF_COUNT:
            r["family"] = KEY if r.get("key") is True else SECONDARY
        if not tested(r) or r["family"] == CELL_OF_COUNT:
            continue
        sig = _signature(r)
        if sig in first and first[sig]["family"] == r["family"]:
            r["same_test_as"] = first[sig]["statement"]
        else:
            first.setdefault(sig, r)
    for fam, adjust, name in ((KEY, holm, "Holm"), (SECONDARY, benjamini_hochberg,
                                                    "Benjamini–Hochberg")):
        members = [r for r in claims if tested(r) and r["family"] == fam
                   and "same_test_as" not in r]
        adjusted = adjust([float(r["p_value"]) for r in members]) if members else []
        words = (f"{name} across the {len(members)} distinct tests of the paper's "
                 + ("key claims" if fam == KEY else "other claims") + f" ({art.id})")
        by_sig = {}
        for r, p in zip(members, adjusted):
            r["p_adjusted"], r["adjustment"] = float(p), words
            by_sig[_signature(r)] = (float(p), words)
        for r in claims:
            if tested(r) and r["family"] == fam and "same_test_as" in r:
                r["p_adjusted"], r["adjustment"] = by_sig[_signature(r)]
    for r in claims:
        if tested(r) and r["family"] == CELL_OF_COUNT:
            r["p_adjusted"] = float(r["p_value"])
            r["adjustment"] = "none: a cell of a claim the paper states as a count (its evidence)"
        if tested(r):
            r["outcome"] = decide(r)
        elif "bound" not in r:
            r["outcome"] = NOT_TESTABLE.value
    _requires(records)
    if any(r.get("compared_cells") for r in records):
        judge_comparators(art, records, tables, published or load_published(art.paper))


def _counts(records: list[dict]) -> None:
    """Each count claim's record recomputed from its cells (as finally judged)."""
    for s in records:
        if not s.get("count") or s.get("claim") is not True:
            continue
        cells = [r for r in records if r.get("claim") is True and not r.get("count")
                 and r.get("statement") == s.get("statement")
                 and r.get("section") == s.get("section")]
        fields = {k: s[k] for k in ("part",) if k in s}
        got = count_record(s["statement"], s["section"], s["paper_count"], cells, fields)
        for k in [k for k in s if k not in got and k not in ("artifact", "paper", "key")]:
            del s[k]
        s.update(got)


def _requires(records: list[dict]) -> None:
    """A claim that bounds the p-values of claims made before ("p < 0.0001", ``requires``) is
    replicated only when its bound holds and they replicated; not testable without them;
    inconclusive otherwise."""
    made = {}
    for r in records:
        if r.get("claim") is True and "outcome" in r and "bound" not in r:
            made.setdefault((r.get("dataset"), r.get("statement")), r)
    for r in records:
        if not r.get("requires") or "bound" not in r:
            continue
        priors = [made.get((r.get("dataset"), s)) for s in r["requires"]]
        own = r.get("p_value") is not None and float(r["p_value"]) < float(r["bound"])
        outs = [None if p is None else p.get("outcome") for p in priors]
        if all(o is None for o in outs):
            r["outcome"] = NOT_TESTABLE.value
        elif own and all(o == REPLICATED for o in outs):
            r["outcome"] = REPLICATED.value
        else:
            r["outcome"] = INCONCLUSIVE.value
        if r["outcome"] != NOT_TESTABLE.value and number(r.get("p_value")) is not None:
            r["p_adjusted"] = float(r["p_value"])
            r["adjustment"] = ("none: a bound on the p-values of the paper's own tests, which "
                               "holds only with the claims it requires")


# --- claims against deviating comparators -----------------------------------------------------

def compared_cell(select: dict, fold, role: str, sign: int = 1) -> dict:
    """A value a claim compares (``select``: its dataset, method, metric and further fields;
    ``fold``: the published cell's fold), with its ``role`` ("subject" or "opponent")."""
    return {"select": dict(select), "fold": fold, "role": role, "sign": sign}


def _ours(art: Artifact, cell: dict, records: list[dict]) -> dict | None:
    """Our value of a compared cell: its record, or the mean of its declared folds' records
    (with each replicate's mean) — None when neither is there."""
    fold = None if cell["fold"] is None else str(cell["fold"])
    sel = cell["select"]
    found = [r for r in records if matches(sel, r) and not r.get("claim")
             and number(r.get("value")) is not None]
    hits = [r for r in found if (None if r.get("fold") is None else str(r["fold"])) == fold]
    if hits:            # the record itself, not one of a grid beside it (a value at C = 0.01
        #                 when the claim compares the value at the selected C)
        return dict(min(hits, key=lambda r: len(_extra_keys(r, sel))))
    folds = declared_folds(art, sel.get("dataset"))
    per = [[r for r in found if str(r.get("fold")) == f] for f in folds]
    if not folds or fold in folds or any(len(p) != 1 for p in per):
        return None
    per = [p[0] for p in per]
    out = {**sel, "fold": cell["fold"],
           "value": float(np.mean([float(r["value"]) for r in per]))}
    rvs = [r.get("replicate_values") for r in per]
    if all(isinstance(v, list) for v in rvs) and len({len(v) for v in rvs}) == 1:
        out["replicate_values"] = [float(np.mean(x)) for x in zip(*rvs)]
        out["replicates"] = len(rvs[0])
    elif all(r.get("deterministic") and r.get("replicates") == 1 for r in per):
        out.update(replicates=1, deterministic=True)
    if per[0].get("stand_in"):
        out.update(stand_in=True, data_used=per[0].get("data_used"))
    return out


def _extra_keys(r: dict, sel: dict) -> set:
    """The key fields of ``r`` that a compared cell's select does not name (a grid's C)."""
    return set(key(r)) - set(sel) - {"artifact", "fold", "paper", "repeat"}


def _published_of(published, cell: dict):
    sel, fold = cell["select"], cell["fold"]
    for v in published.values:
        if (v.dataset, v.method, v.metric) == (sel.get("dataset"), sel.get("method"),
                                               sel.get("metric")) \
                and v.fold == (None if fold is None else str(fold)) \
                and v.value is not None and not v.baseline:
            return v
    return None


def comparator_verdict(art: Artifact, cell: dict, records: list[dict], index: TableIndex,
                       groups: dict, published) -> dict | None:
    """A compared value judged against its published one (the noise its artifact allows):
    ``{method, dataset, metric, fold, value, published, verdict}``, or None."""
    pv = _published_of(published, cell)
    ours = _ours(art, cell, records)
    if pv is None or ours is None:
        return None
    probe = dict(zip(CELL, pv.key))
    kind, _ = published.kind(probe)
    if kind != "reproduction":
        return None
    ev = intervals.evidence(art, ours, index, records, groups,
                            intervals.seed_for(art.id, ours))
    sep = noise.separation(art, ours, ev.within if ev else None, exact=ev is None)
    e = judge({**ours, **sep.fields()}, pv, published.rule(probe))
    if e is None:
        return None
    stand_in = bool(ours.get("stand_in"))
    return {"method": pv.method, "dataset": pv.dataset, "metric": pv.metric, "fold": pv.fold,
            "value": float(ours["value"]), "published": pv.text,
            "verdict": (Verdict.STAND_IN if stand_in else Verdict(e.outcome)).value,
            "equivalence_bound": e.bound, "margin": e.margin.value, "role": cell["role"],
            "deviates": e.outcome == "deviates" and not stand_in,
            "gap": float(pv.value) - float(ours["value"])}


def judge_comparators(art: Artifact, records: list[dict], tables: list[dict],
                      published) -> None:
    """Each claim that compares values with published counterparts lists those that deviate
    (``deviating``, context beside its outcome): an opponent weaker here than published by
    more than the subject is ``favours_claim``."""
    index = TableIndex(tables)
    groups = intervals.fold_groups(records)
    for r in records:
        cells = r.get("compared_cells")
        if not cells or r.get("outcome") == NOT_TESTABLE:
            continue
        got = [g for g in (comparator_verdict(art, c, records, index, groups, published)
                           for c in cells) if g is not None]
        sign = cells[0].get("sign", 1)
        subject = next((g for g in got if g["role"] == "subject"), None)
        for g in got:
            if g["deviates"] and g["role"] == "opponent":
                g["favours_claim"] = bool(sign * g["gap"] > 0 and (
                    subject is None or sign * g["gap"] > sign * subject["gap"]))
        deviating = [{k: v for k, v in g.items() if k != "deviates"} for g in got
                     if g["deviates"]]
        if deviating:
            r["deviating"] = deviating
