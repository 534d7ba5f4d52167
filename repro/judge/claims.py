"""The claim engine: a paper's claims judged by paired tests on the evidence behind the values,
never by comparing two means.  The declarations that use it are in
:mod:`repro.judge.kinds.claims`; this module holds what they share:

* **evidence** — :func:`aligned`: the per-query values of several methods (per-query tables
  found by their fields, :class:`repro.evidence.TableIndex`), paired by query id within each
  declared fold and pooled over the folds (and over data sets); :func:`compare_paired`: two
  records compared over the test queries behind both, or else over their fold values;
* **comparisons** — :func:`compare`: one paired comparison (:func:`repro.judge.stats.paired`:
  the t-test of the per-unit differences, ``scipy.stats.ttest_rel``, with a bootstrap interval
  of the mean difference; against zeros it is the one-sample test); the seed of its interval is
  the sha256 of a text naming the claim and the compared sides (:func:`seed_of`), so that the
  interval does not depend on the order in which claims are judged;
* **judgements** — the outcome of a claim made of several comparisons
  (:class:`~repro.judge.verdicts.Verdict`: holds / contradicted / not significant here / not
  testable here), by one of two rules:

  - :func:`judge_variants` — "V (some variant, or every variant) beats every X": every
    variant against every opponent, the p-values adjusted by Holm's method across all the
    claim's comparisons; a variant holds when each of its comparisons does; the record shows
    the binding comparison (the closest call among those agreeing with the outcome);
  - :func:`judge_every` — "S beats every X" as an intersection–union test: each comparison at
    its own level (no adjustment is needed for "every"); contradicted when one comparison is
    significant the other way after Holm's adjustment across the claim's comparisons (any one
    may contradict: a union); the record shows the closest competitor (or the most
    significant contradiction) and the largest p-value;

  where the units are few (folds, or fewer than 30 queries) the sign-flip permutation test
  is computed beside the t-test (``p_permutation``; :func:`repro.judge.stats.sign_flip`);

* **records** — :func:`describe_test` (what was tested, on what, with which adjustment),
  :func:`binding_note`, :func:`claim_record` (one claim in one cell) and
  :func:`summary_record` (how many cells each outcome has: the counterpart of a paper's "N of
  32");
* **the family** — :func:`finish`, once every claim of an artifact (a paper's claims
  artifact: the paper's tested claims) is judged: Holm's adjustment across the family, a
  claim that holds against compared values deviating from their published ones in its favour
  ("holds against deviating baselines": no support), the claims that require others, and the
  summary rows recounted.  Every claim record has its raw (``p_unadjusted``), claim-level
  (``p_claim``) and adjusted (``p_value``) p-values and says its adjustment (``adjustment``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..evidence import TableIndex, table_mean
from ..evidence.record import CELL, matches, number, numbers_of, record
from ..spec import Artifact
from . import intervals, noise
from .published import load as load_published
from .stats import Paired, holm, p_words, paired, seed_from
from .verdicts import OUTCOMES, Verdict, judge

ALPHA = 0.05
HOLDS, CONTRADICTED, NOT_SIGNIFICANT, NOT_TESTABLE, HOLDS_DEVIATING = OUTCOMES
#: the seed of a comparison's bootstrap interval, from its text
seed_of = seed_from


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
                     permutation=True)
        d = res.as_dict()
        d["n_folds"], d["n_queries"] = d.pop("n_queries"), None
        return {**d, "unit": "folds",
                "test": f"paired t-test over {len(folds)} fold values (scipy.stats.ttest_rel; "
                        "the values are not means over queries), beside it the exact sign-flip "
                        f"permutation test ({p_words(res.p_permutation)}); 95% bootstrap "
                        "interval of the mean difference", "outcome_of": res}
    return None


# --- comparisons and judgements ---------------------------------------------------------------

@dataclass
class Comparison:
    """``a`` against ``b``: the paired result (effect = mean(a − b)) and the p-value after the
    claim's adjustment (``p_adj``; the raw p-value when there is none)."""
    a: str
    b: str
    res: Paired
    p_adj: float = float("nan")
    sign: int = 1

    @property
    def outcome(self) -> Verdict:
        if not (math.isfinite(self.p_adj) and self.p_adj < ALPHA):
            return NOT_SIGNIFICANT
        return HOLDS if np.sign(self.res.effect) == np.sign(self.sign) else CONTRADICTED

    def as_dict(self) -> dict:
        return {"compared": f"{self.a} − {self.b}", "effect": self.res.effect,
                "ci95": list(self.res.ci95) if self.res.ci95 else None,
                "p_value": self.res.p_value, "p_holm": self.p_adj,
                "outcome": self.outcome.value}


def compare(a: str, b: str, x, y, seed_text: str, sign: int = 1, test: str = "t",
            permutation: bool | None = None) -> Comparison:
    """A paired test (``test``: "t", or "wilcoxon" — :func:`repro.judge.stats.paired`) of
    per-unit values ``x`` (of ``a``) against ``y`` (of ``b``); the sign-flip permutation test
    beside it where the units are few (``permutation``: always, never, or None: below 30)."""
    res = paired(x, y, seed_of(seed_text), test=test, permutation=permutation)
    return Comparison(a, b, res, p_adj=res.p_value, sign=sign)


@dataclass
class Judgement:
    """A claim's outcome, the comparison its record shows (``binding``), all its comparisons,
    whether their p-values were adjusted, and the p-value the record reports."""
    outcome: Verdict
    binding: Comparison | None
    comparisons: list[Comparison] = field(default_factory=list)
    adjusted: bool = False
    p_value: float = float("nan")


def _status(outcomes) -> Verdict:
    outcomes = list(outcomes)
    return (HOLDS if all(o is HOLDS for o in outcomes) else
            CONTRADICTED if any(o is CONTRADICTED for o in outcomes) else NOT_SIGNIFICANT)


def judge_variants(by_variant: dict[str, list[Comparison]], every: bool = False) -> Judgement:
    """Some variant (``every``: every variant) beats every opponent, each comparison
    significant after Holm's adjustment across all of the claim's comparisons (when there are
    more than one).  Contradicted when every variant (``every``: some variant) is significantly
    beaten by some opponent.  The binding comparison is, among the comparisons agreeing with
    the outcome, the closest call (largest adjusted p-value) — for "holds", within the variant
    that holds most clearly."""
    comps = [c for cs in by_variant.values() for c in cs]
    adjusted = len(comps) > 1
    ps = holm([c.res.p_value if math.isfinite(c.res.p_value) else 1.0 for c in comps]) \
        if adjusted else [c.res.p_value for c in comps]
    for c, p in zip(comps, ps):
        c.p_adj = float(p)
    status = {v: _status(c.outcome for c in cs) for v, cs in by_variant.items()}
    if every:
        outcome = _status(status.values())
    else:
        outcome = (HOLDS if any(s is HOLDS for s in status.values()) else
                   CONTRADICTED if all(s is CONTRADICTED for s in status.values()) else
                   NOT_SIGNIFICANT)
    pool = comps
    if outcome is HOLDS and not every:
        pool = min((cs for v, cs in by_variant.items() if status[v] is HOLDS),
                   key=lambda cs: max(c.p_adj for c in cs))
    agreeing = [c for c in pool if c.outcome is outcome] or pool
    binding = max(agreeing, key=lambda c: (c.p_adj, -abs(c.res.effect))) if agreeing else None
    return Judgement(outcome, binding, comps, adjusted,
                     binding.p_adj if binding is not None else float("nan"))


def judge_every(comps: list[Comparison]) -> Judgement:
    """"S beats every X" as an intersection–union test (see the module docstring): it holds
    when each comparison is significant with the claimed sign at its own level (p is the
    largest); it is contradicted when some comparison is significant the other way after
    Holm's adjustment across the claim's comparisons (any one of them may contradict, so they
    are a family: the record shows the most significant contradiction, its adjusted p)."""
    raw = [c.res.p_value if math.isfinite(c.res.p_value) else 1.0 for c in comps]
    adj = holm(raw) if len(comps) > 1 else raw

    def agrees(c):
        return np.sign(c.res.effect) == np.sign(c.sign)
    for c in comps:                             # each comparison at its own level
        c.p_adj = c.res.p_value
    sign = comps[0].sign
    contra = [(c, p) for c, p in zip(comps, adj) if p < ALPHA and not agrees(c)
              and math.isfinite(c.res.p_value)]
    if all(math.isfinite(c.res.p_value) and c.res.p_value < ALPHA and agrees(c)
           for c in comps):
        binding = min(comps, key=lambda c: sign * c.res.effect)     # the closest competitor
        return Judgement(HOLDS, binding, list(comps), False, max(raw))
    if contra:                                  # the most significant contradiction
        binding, p = min(contra, key=lambda cp: (cp[1], cp[0].res.p_value))
        binding.p_adj = p
        return Judgement(CONTRADICTED, binding, list(comps), len(comps) > 1, p)
    binding = min(comps, key=lambda c: sign * c.res.effect
                  if math.isfinite(c.res.effect) else float("inf"))
    return Judgement(NOT_SIGNIFICANT, binding, list(comps), False, binding.res.p_value)


# --- words and records ------------------------------------------------------------------------

def describe_test(j: Judgement, n: int, folds: int, every: bool = False, what: str = "",
                  unit: str = "test queries") -> str:
    """The ``test`` field: what was tested (``what``, default a paired t-test), on what, with
    which adjustment."""
    k = len(j.comparisons)
    words = (f"{what + ',' if what else 'paired t-test'} over {n} {unit} pooled over {folds} "
             f"folds (scipy.stats.ttest_rel); 95% bootstrap interval of the mean difference")
    if k > 1:
        words += (f"; {k} comparisons, p-values adjusted by Holm's method across them "
                  f"({'every variant must' if every else 'some variant must'} beat every "
                  f"opponent; the record shows the binding comparison)")
    return words


def describe_fold_test(n: int, what: str, caveat: str = "") -> str:
    """The ``test`` field of a test over folds (the values are not per-query measures)."""
    return (f"paired t-test over {n} folds (scipy.stats.ttest_rel) of {what}, beside it the "
            f"exact sign-flip permutation test (scipy.stats.permutation_test; with {n} folds "
            f"its smallest two-sided p is {2 / 2 ** n:.2g}); 95% bootstrap interval of the "
            f"mean difference over folds" + (f". {caveat}" if caveat else ""))


#: how a claim's note words its binding comparison: "binding" (with the means compared) or
#: "difference"
NOTE_STYLES = ("binding", "difference")


def binding_note(style: str, section: str, count: str, j: Judgement | None,
                 means: dict | None = None) -> str | None:
    """``§section; paper: count``, then the binding comparison: its effect, interval and
    (adjusted) p-value.  Without a judgement: the head only ("binding") or no note."""
    head = f"§{section}; paper: {count}"
    if j is None or j.binding is None:
        return head if style == "binding" else None
    b, means = j.binding, means or {}
    ci = b.res.ci95
    if style == "binding":
        text = (f". Binding comparison {b.a} − {b.b}"
                + (f" (means {means[b.a]:.4f} vs {means[b.b]:.4f})"
                   if b.a in means and b.b in means else "")
                + f": mean per-query difference {b.res.effect:+.4f}")
    else:
        text = f". {b.a} − {b.b}: mean difference {b.res.effect:+.4f}"
    return (head + text + (f", 95% CI [{ci[0]:+.4f}, {ci[1]:+.4f}]" if ci else "")
            + f", {p_words(b.p_adj)}" + (" (Holm-adjusted)" if j.adjusted else "")
            + (f"; sign-flip permutation test {p_words(b.res.p_permutation)}"
               if b.res.p_permutation is not None else ""))


def claim_record(statement: str, section: str, paper_count: str, dataset, metric,
                 j: Judgement | None, test: str, numbers: dict, fields: dict, why: str = "",
                 fold_test: bool = False, **extra) -> dict:
    """One claim in one cell: method = the statement, metric = the cell's measure, value =
    effect; ``outcome``, ``ci95``, ``p_value``, ``n_queries`` (or ``n_folds``), ``test``,
    ``numbers``, ``compared``; ``p_unadjusted`` and every comparison when adjusted.
    ``fields``: further fields of every record of the claim (e.g. the artifact's part)."""
    base = dict(dataset=dataset, **fields, claim=True, statement=statement, section=section,
                paper_count=paper_count, test=test, numbers=numbers)
    n_field = "n_folds" if fold_test else "n_queries"
    if j is None or j.binding is None or not math.isfinite(j.binding.res.p_value):
        rec = record(statement, metric, float("nan"), None, **base,
                     outcome=NOT_TESTABLE.value, effect=float("nan"), ci95=None,
                     p_value=float("nan"), why=why or "no paired values")
        rec[n_field] = 0 if j is None or j.binding is None else j.binding.res.n_queries
        rec.update({k: v for k, v in extra.items() if v is not None})
        return rec
    b = j.binding
    rec = record(statement, metric, b.res.effect, None, **base, outcome=j.outcome.value,
                 effect=b.res.effect, ci95=list(b.res.ci95) if b.res.ci95 else None,
                 p_value=j.p_value, compared=f"{b.a} − {b.b}")
    rec[n_field] = b.res.n_queries
    rec["p_unadjusted"] = b.res.p_value
    if b.res.p_permutation is not None:
        rec["p_permutation"] = b.res.p_permutation
    if j.adjusted:
        rec["comparisons"] = [c.as_dict() for c in j.comparisons]
    rec.update({k: v for k, v in extra.items() if v is not None})
    return rec


def summary_record(statement: str, section: str, paper_count: str, recs: list[dict],
                   fields: dict) -> dict:
    """How many cells each outcome has: the counterpart of the paper's "N of 32"."""
    n = {o.value: sum(r["outcome"] == o for r in recs) for o in OUTCOMES}
    testable = len(recs) - n[NOT_TESTABLE]
    cells = "; ".join(f"{r['dataset']} {r['metric']}: {r['outcome']}" for r in recs
                      if r["outcome"] != NOT_TESTABLE)
    note = (f"§{section}; by paired tests: holds in {n[HOLDS]} of {testable} testable cells, "
            + (f"against deviating baselines in {n[HOLDS_DEVIATING]}, "
               if n[HOLDS_DEVIATING] else "")
            + f"contradicted in {n[CONTRADICTED]}, not significant in {n[NOT_SIGNIFICANT]} "
            f"(paper: {paper_count})" + (f" — {cells}" if cells else ""))
    return record(statement, "cells where it holds (paired tests)", float(n[HOLDS]) if testable
                  else float("nan"), None, dataset="all", **fields, section=section,
                  paper_count=paper_count, counts=n, testable_cells=testable, note=note,
                  **({} if testable else {"why": f"{NOT_TESTABLE}: no cell has its data"}))


# --- the family: a paper's tested claims -------------------------------------------------------

#: the metric of a claim's summary row
SUMMARY = "cells where it holds (paired tests)"


def tested(r: dict) -> bool:
    """A claim in the family: judged by a test of its own (not a bound on other tests' p)."""
    return (r.get("claim") is True and r.get("outcome") in (HOLDS, CONTRADICTED,
                                                              NOT_SIGNIFICANT)
            and "bound" not in r and r.get("p_value") is not None
            and math.isfinite(float(r["p_value"])))


def finish(art: Artifact, records: list[dict], tables: list[dict], published=None) -> None:
    """Judge an artifact's claims as one family, in place (module docstring): Holm across
    them; "holds against deviating baselines"; claims that require others; summaries."""
    family = [r for r in records if tested(r)]
    adjusted = holm([float(r["p_value"]) for r in family])
    words = (f"Holm's adjustment across the {len(family)} tested claims of {art.id} "
             f"(family-wise error {ALPHA:g})")
    for r, p in zip(family, adjusted):
        r["p_claim"] = float(r["p_value"])
        r.setdefault("p_unadjusted", r["p_claim"])
        r["p_value"] = float(p)
        r["adjustment"] = words
        if r["outcome"] != NOT_SIGNIFICANT and not p < ALPHA:
            r["outcome_alone"] = r["outcome"]
            r["outcome"] = NOT_SIGNIFICANT.value
    if any(r.get("compared_cells") for r in records):
        judge_comparators(art, records, tables, published or load_published(art.paper))
    _requires(records)
    _recount(records)


def _requires(records: list[dict]) -> None:
    """A claim that requires others (a bound on the p-values of claims made before) holds
    only when they hold (against deviating baselines: so does it)."""
    made = {}
    for r in records:
        if r.get("claim") is True and "outcome" in r:
            made.setdefault((r.get("dataset"), r.get("statement")), r)
    for r in records:
        if not r.get("requires") or "bound" not in r:
            continue
        priors = [made.get((r.get("dataset"), s)) for s in r["requires"]]
        own = r.get("p_value") is not None and float(r["p_value"]) < float(r["bound"])
        outs = [None if p is None else p.get("outcome") for p in priors]
        before = r["outcome"]
        if all(o is None for o in outs):
            r["outcome"] = NOT_TESTABLE.value
        elif own and all(o in (HOLDS, HOLDS_DEVIATING) for o in outs):
            r["outcome"] = (HOLDS_DEVIATING if HOLDS_DEVIATING in outs else HOLDS).value
        else:
            r["outcome"] = NOT_SIGNIFICANT.value
        if r["outcome"] != before:
            r.setdefault("outcome_alone", before)


def _recount(records: list[dict]) -> None:
    for s in records:
        if s.get("metric") != SUMMARY or "counts" not in s:
            continue
        cells = [r for r in records if r.get("claim") is True and "outcome" in r
                 and r.get("statement") == s.get("method") and r.get("section") == s.get(
                     "section")]
        fields = {k: s[k] for k in ("part",) if k in s}
        got = summary_record(s["method"], s["section"], s["paper_count"], cells, fields)
        s.update({k: v for k, v in got.items() if k not in s or s[k] != v})


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
    hits = [r for r in records if matches(sel, r) and not r.get("claim")
            and (None if r.get("fold") is None else str(r["fold"])) == fold
            and number(r.get("value")) is not None]
    if hits:
        return dict(hits[0])
    folds = declared_folds(art, sel.get("dataset"))
    per = [[r for r in records if matches(sel, r) and not r.get("claim")
            and str(r.get("fold")) == f and number(r.get("value")) is not None]
           for f in folds]
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
    value = float(ours["value"])
    ev = intervals.evidence(art, ours, index, records, groups,
                            intervals.seed_for(art.id, ours))
    allowed = noise.allowed(art, ours, value, ev.within if ev else None, exact=ev is None)
    rule = published.rule(probe)
    tol = float(rule["tol"]) if rule else published.default_tol
    _, j = judge(value, pv, tol, bool(ours.get("stand_in")), kind,
                 rounding=bool(rule.get("rounding", True)) if rule else True,
                 ci95=allowed.ci95 if allowed else None,
                 margin=allowed.margin if allowed else 0.0)
    return {"method": pv.method, "dataset": pv.dataset, "metric": pv.metric, "fold": pv.fold,
            "value": value, "published": pv.text, "verdict": j.text, "role": cell["role"],
            "deviates": j.verdict in (Verdict.DEVIATES, Verdict.ONCE) and not j.stand_in,
            "gap": float(pv.value) - value}


def judge_comparators(art: Artifact, records: list[dict], tables: list[dict],
                      published) -> None:
    """Each claim that compares values with published counterparts lists those that deviate
    (``deviating``); one that holds against an opponent deviating in its favour — weaker here
    than published, by more than the subject is — "holds against deviating baselines"."""
    index = TableIndex(tables)
    groups = intervals.fold_groups(records)
    for r in records:
        cells = r.get("compared_cells")
        if not cells or r.get("outcome") not in (HOLDS, CONTRADICTED, NOT_SIGNIFICANT):
            continue
        got = [g for g in (comparator_verdict(art, c, records, index, groups, published)
                           for c in cells) if g is not None]
        sign = cells[0].get("sign", 1)
        subject = next((g for g in got if g["role"] == "subject"), None)
        favours = []
        for g in got:
            if not g["deviates"]:
                continue
            if g["role"] == "opponent":
                g["favours_claim"] = bool(sign * g["gap"] > 0 and (
                    subject is None or sign * g["gap"] > sign * subject["gap"]))
                favours += [g] if g["favours_claim"] else []
        deviating = [g for g in got if g["deviates"]]
        if deviating:
            r["deviating"] = [{k: v for k, v in g.items() if k != "deviates"}
                              for g in deviating]
        if r["outcome"] == HOLDS and favours:
            r["outcome_alone"] = r.get("outcome_alone", HOLDS.value)
            r["outcome"] = HOLDS_DEVIATING.value
            names = ", ".join(f"{g['method']} {g['value']:.4g} (published {g['published']})"
                              for g in favours)
            r["why"] = (f"holds here against compared values that deviate from their "
                        f"published ones in the claim's favour: {names}; not counted as "
                        f"support")
