"""A paper's claims judged by paired tests, declared on the engine of :mod:`repro.judge.claims`:

* :class:`Claim` — "the subject record beats every record matching ``others``" (an
  intersection–union test, per group), or a claim about p-values;
* :class:`CellClaim` — a claim judged in each cell (data set × metric) on the per-query tables:
  variants × opponents with Holm's adjustment, a trend beside the comparison, the first step of
  a grid against its last, data sets pooled into one cell, a summary row;
* :class:`FoldClaim` — a claim judged over folds on statistics the runs keep outside their
  records (paired, or one-sample against a constant).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ...evidence import TableIndex
from ...evidence.record import defined, key, matches
from ...spec import Artifact
from .. import intervals
from ..claims import (CELL_OF_COUNT, INCONCLUSIVE, NOT_TESTABLE, REPLICATED, Comparison,
                      aligned, binding_note, claim_record, claimed_ci, compare,
                      compare_paired, compared_cell, count_record, decided_by, declared_folds,
                      describe_fold_test, describe_test, is_count, judge_every,
                      judge_variants, mean_of, ratio_fields)
from ..published import load as load_published
from ..stats import reproduction_measures, seed_from, trend
from .registry import judges_claims, kind, with_outputs, with_tables


@dataclass(frozen=True)
class Claim:
    """Aggregation: a claim of the paper judged by paired tests, per group ``within``
    (default dataset).  With ``subject`` (a select matching one record per group): "the
    subject is larger (``prefer="smaller"``: smaller) than every record matching ``others``" —
    each comparison is a paired test (:func:`repro.judge.stats.paired`, t-test) over the test
    queries behind both records (their per-query tables, paired by fold and query id, pooled
    over folds) or, where the records are not means over queries, over their fold values (the
    exact sign-flip test deciding); the claim's own test is the intersection–union test of the
    comparisons (p = the largest when every one favours the claim), and against it the most
    significant contradicting comparison times their number
    (:func:`repro.judge.claims.judge_every`); the outcome as a replication is decided with the
    paper's other claims (:func:`repro.judge.claims.finish`).  The record reports the binding
    comparison (the closest competitor, or the contradiction): its effect in the claimed
    direction, 95% interval, p-value and number of queries (or folds).  With ``bound``: a
    claim about p-values of :class:`PairedTest` records ("p < 0.0001") — replicated when every
    record matching ``others`` is below ``bound`` and the claims of ``requires`` replicated;
    its effect and interval are those of the first
    required claim.  ``requires``: statements of claims already made in the group that must
    replicate as well.  Where the paper publishes both compared values, the record adds the
    paper's effect and Breuer et al.'s effect ratio and ΔRI.  Numbers shown:
    ``shown`` = "best" (the subject and the best of the others), "all" or a select; names by
    ``subject_name`` / ``other_name``; values rounded to ``digits`` decimals or ``significant``
    figures.  ``key``: a headline claim of the paper (the index's scoreboard)."""
    claim: str
    statement: str
    others: dict
    subject: dict | None = None
    bound: float | None = None
    prefer: str = "larger"
    within: tuple[str, ...] = ("dataset",)
    requires: tuple[str, ...] = ()
    shown: str | dict = "best"
    subject_name: str = "{method}"
    other_name: str = "{method}"
    digits: int = 2
    significant: int | None = None
    key: bool = False


def _published_value(published, rec: dict) -> float | None:
    for v in published.values:
        if (v.dataset, v.method, v.metric, v.fold) == (rec.get("dataset"), rec.get("method"),
                                                       rec.get("metric"), rec.get("fold")):
            return v.value
    return None


def _select(rec: dict) -> dict:
    """A record's fields that find it again (its key but the artifact, the fold and the
    float-valued fields): the value a claim compares."""
    return {k: v for k, v in key(rec).items()
            if k not in ("artifact", "fold") and not isinstance(v, float)}


def claim(art: Artifact, records: list[dict], agg: Claim, tables=()) -> list[dict]:
    groups: dict[tuple, dict] = {}
    for r in records:
        if r.get("fold") is None and r.get("method") == agg.claim and "outcome" in r:
            continue                                  # claims already made
        key = tuple(r.get(f) for f in agg.within)
        g = groups.setdefault(key, {"subject": [], "others": [], "shown": []})
        if agg.subject is not None and matches(agg.subject, r):
            g["subject"].append(r)
        elif matches(agg.others, r):
            g["others"].append(r)
        if isinstance(agg.shown, dict) and matches(agg.shown, r):
            g["shown"].append(r)
    made = {(tuple(r.get(f) for f in agg.within), r.get("metric")): r for r in records
            if "outcome" in r}
    index = TableIndex(list(tables))
    fold_groups = intervals.fold_groups(records)
    published = load_published(art.paper)

    def num(v):
        if not defined(v):
            return v
        return float(f"{v:.{agg.significant}g}") if agg.significant else round(v, agg.digits)
    sign = 1.0 if agg.prefer == "larger" else -1.0
    out = []
    for key, g in groups.items():
        if not g["others"] or (agg.subject is not None and len(g["subject"]) != 1):
            continue
        others = [(r, float(r["value"]) if defined(r["value"]) else float("nan"))
                  for r in g["others"]]
        statement = agg.statement
        subj = g["subject"][0] if agg.subject is not None else None
        if subj is not None:
            statement = agg.statement.format(**subj)
        fields = {"claim": True, "statement": statement, "key": agg.key}
        src = subj if subj is not None else others[0][0]
        if src.get("stand_in"):                  # a claim tested on stand-in data says so
            fields.update(stand_in=True, data_used=src.get("data_used"))
        priors = [made.get((key, req)) for req in agg.requires]
        if subj is not None:
            comps = []
            for o, _ in others:
                seed = seed_from(f"{art.id}|{statement}|{key}|{o.get('method')}|{o.get('metric')}")
                comps.append((o, compare_paired(art, subj, o, index, records, fold_groups,
                                                seed)))
            if any(c is None for _, c in comps):
                missing = [o.get("method") for o, c in comps if c is None]
                fields.update(outcome=NOT_TESTABLE.value, effect=float("nan"), effect_ci95=None,
                              p_value=None, n_queries=None, n_folds=None,
                              why="no per-query or per-fold values to pair for "
                                  + ", ".join(str(m) for m in missing))
            else:
                cs = [Comparison(str(subj.get("method")), str(o.get("method")),
                                 c["outcome_of"], int(sign)) for o, c in comps]
                j = judge_every(cs)
                b = j.binding
                bo, bc = next(oc for oc, x in zip(comps, cs) if x is b)
                effect = b.sign * b.res.effect
                fields.update(outcome=INCONCLUSIVE.value, effect=effect,
                              effect_ci95=claimed_ci(b.res.ci95, b.sign), p_value=j.p_value,
                              p_direction=j.direction, p_unadjusted=bc["p_value"],
                              compared=f"{b.a} − {b.b}",
                              decided_by=decided_by(b.res),
                              compared_cells=[
                                  compared_cell(_select(x), x.get("fold"), role, int(sign))
                                  for x, role in [(subj, "subject")]
                                  + [(o, "opponent") for o, _ in comps]],
                              n_queries=bc["n_queries"], n_folds=bc["n_folds"],
                              versus=bo.get("method"),
                              test=bc["test"] + (f"; {j.how}" if j.how else ""),
                              comparisons={str(o.get("method")): {
                                  "effect": sign * c["effect"],
                                  "effect_ci95": claimed_ci(c["ci95"], int(sign)),
                                  "p_value": c["p_value"],
                                  **({"p_permutation": c["p_permutation"]}
                                     if c.get("p_permutation") is not None else {})}
                                  for o, c in comps})
                if bc.get("p_permutation") is not None:
                    fields["p_permutation"] = bc["p_permutation"]
                pub_s, pub_o = _published_value(published, subj), \
                    _published_value(published, bo)
                if pub_s is not None and pub_o is not None and defined(subj["value"]) \
                        and defined(bo["value"]):
                    fields.update(reproduction_measures(float(subj["value"]),
                                                        float(bo["value"]), pub_s, pub_o))
                    fields.update(ratio_fields(effect, fields["effect_ci95"],
                                               sign * (pub_s - pub_o)))
        else:
            ps = [v for _, v in others]
            ok = all(v < agg.bound for v in ps)
            first = next((p for p in priors if p is not None), None)
            held = all(p is not None and p.get("outcome") == REPLICATED for p in priors)
            fields.update(requires=list(agg.requires), bound=agg.bound)
            perm = [r.get("p_permutation") for r, _ in others]
            if perm and all(defined(x) for x in perm):
                fields["p_permutation"] = max(perm)
            fields.update(outcome=(REPLICATED if ok and held else
                                   NOT_TESTABLE if first is None else INCONCLUSIVE).value,
                effect=first.get("effect") if first else float("nan"),
                effect_ci95=first.get("effect_ci95") if first else None,
                p_value=max(ps) if ps else float("nan"),
                n_queries=first.get("n_queries") if first else None,
                n_folds=first.get("n_folds") if first else None,
                test=f"each p-value (of the paired tests above) below {agg.bound:g}; effect "
                     "and interval of the required claim's weakest comparison"
                     + (f"; beside them the exact sign-flip permutation tests over the same "
                        f"folds, the largest p = {fields['p_permutation']:.2g}"
                        if "p_permutation" in fields else ""))
        if agg.shown == "best" and subj is not None:
            best = max(others, key=lambda o: (sign * o[1], o[0].get("method")))
            shown = [best[0]]
        elif isinstance(agg.shown, dict):
            shown = [r for r in g["shown"] if r is not subj]
        else:
            shown = [r for r, _ in others]
        numbers = {} if subj is None else {agg.subject_name.format(**subj): num(subj["value"])}
        numbers.update({agg.other_name.format(**r): num(r["value"]) for r in shown})
        out.append({"method": agg.claim, "metric": statement, "value": fields["effect"],
                    "fold": None, **dict(zip(agg.within, key)), **fields,
                    "numbers": numbers})
    return out


kind(Claim)(judges_claims(with_tables(lambda art, recs, agg, tables=(): (
    claim(art, recs, agg, tables), {}))))


# --- claims judged cell by cell on per-query tables, and over folds ----------------------------

@dataclass(frozen=True)
class Grid:
    """Labels made from a list among the artifact's parameters (``params[path[0]][path[1]]…``,
    so that a --quick run's grid is used): each value ``convert``-ed, ordered (``order``:
    "asc", "desc" or as given), labelled ``label(value)`` (a table's method) and named
    ``name(value)`` in a claim's ``numbers`` (default its label)."""
    path: tuple
    label: Callable
    name: Callable | None = None
    convert: Callable | None = None
    order: str | None = None

    def values(self, art: Artifact) -> list:
        got = art.layout.params
        for k in self.path:
            got = got[k]
        got = [self.convert(v) if self.convert else v for v in got]
        return sorted(got, reverse=self.order == "desc") if self.order else got

    def labels(self, art: Artifact) -> list[str]:
        return [self.label(v) for v in self.values(art)]

    def names(self, art: Artifact) -> dict[str, str]:
        return {self.label(v): (self.name or self.label)(v) for v in self.values(art)}


#: a claim's sides picked from its grid
FIRST, LAST, REST = slice(0, 1), slice(-1, None), slice(1, None)


@dataclass(frozen=True)
class CellClaim:
    """Aggregation: a claim judged cell by cell (each data set of the artifact with tables
    matching ``where``, or the data sets ``pooled`` as one cell named ``label``; × ``metrics``)
    on the per-query tables: every variant against every opponent (tables of ``where`` whose
    method is the side's label), paired by query within each declared fold and pooled over the
    folds (and the pooled sets), each comparison a paired t-test; Holm-adjusted across the
    claim's comparisons (:func:`repro.judge.claims.judge_variants`: some variant — ``every``:
    every variant — must beat every opponent).  Sides are labels, or slices (:data:`FIRST`,
    :data:`LAST`, :data:`REST`) of ``grid``'s labels.  ``steps``: the first step of the grid
    against its last (the per-query gains; a claim of saturation).  ``trend`` (words for what
    the grid's values are): Spearman's ρ of the per-query values pooled over the grid,
    beside the comparison.  ``what``: the test's description (``{first}``, ``{last}``: the
    grid's ends).  ``seed``: the text of each comparison's seed (``{paper}``, ``{statement}``,
    ``{cell}``, ``{metric}``, ``{part}``, ``{a}``, ``{b}``).  ``numbers``: the cell's means of
    every side (of the grid's labels, named by it).  ``published``: a select of published
    values (the cells' own) — where the paper prints both cells of the binding comparison,
    the effect ratio and ΔRI.  Untestable cells are dropped when another is testable
    (``drop_untestable``); with none, one record for ``fallback`` (a data set) says why.
    ``summary``: a row counting the cells of each outcome; ``key``: the first testable cell of
    this metric is a headline claim; ``fields``: further fields of every record."""
    statement: str
    section: str
    count: str
    where: dict
    metrics: tuple
    variants: tuple | slice = ()
    opponents: tuple | slice = ()
    grid: Grid | None = None
    every: bool = False
    steps: bool = False
    steps_why: str = "needs three values of the grid or more"
    trend: str = ""
    pooled: tuple = ()
    label: str = ""
    what: str = ""
    seed: str = "{paper}/claims/{statement}/{cell}/{metric}/{a} vs {b}"
    note: str = "binding"
    published: dict | None = None
    why: str = "no table behind the cell"
    drop_untestable: bool = False
    fallback: str | None = None
    summary: bool = True
    key: str | None = None
    fields: dict = field(default_factory=dict)


def _sides(art: Artifact, decl, side) -> tuple:
    return tuple(decl.grid.labels(art)[side]) if isinstance(side, slice) else tuple(side)


def cell_claim(art: Artifact, records: list[dict], decl: CellClaim, tables=()) -> list[dict]:
    index = TableIndex(list(tables))
    present = {t.get("dataset") for t in tables if matches(decl.where, t)}
    datasets = [d for d in art.datasets if d in present]
    variants, opponents = _sides(art, decl, decl.variants), _sides(art, decl, decl.opponents)
    grid = decl.grid.labels(art) if decl.grid else []
    shown = decl.grid.names(art) if decl.grid else {m: m for m in variants + opponents}
    pub = {(v.dataset, v.method, v.metric): v.value for v in load_published(art.paper).values
           if decl.published and matches(decl.published, {"artifact": v.artifact,
                                                           "fold": v.fold})
           and v.value is not None and not v.baseline}
    cells = ([(decl.label, decl.pooled)] if decl.pooled else [(d, (d,)) for d in datasets])
    out = []
    for cell, dss in cells:
        for metric in decl.metrics:
            if decl.pooled and not all(d in datasets for d in dss):
                out.append(_untestable(decl, cell, metric, {}, noted=False))
                continue
            out.append(_cell(art, index, decl, cell, dss, metric, variants, opponents, grid,
                             shown, pub))
    testable = [r for r in out if r["outcome"] != NOT_TESTABLE]
    if decl.drop_untestable:
        out = testable or out
    if not out and decl.fallback:
        out = [_untestable(decl, decl.fallback, None, {}, noted=False)]
    return _with_count(decl, out)


def _untestable(decl, cell, metric, numbers, why=None, noted=True) -> dict:
    """A claim not testable in a cell (``noted``: with the note's head) or at all."""
    return claim_record(decl.statement, decl.section, decl.count, cell, metric, None, "",
                        numbers, decl.fields, why=f"{NOT_TESTABLE}: {why or decl.why}",
                        note=binding_note(decl.note, decl.section, decl.count, None)
                        if noted else None)


def _with_count(decl, recs: list[dict]) -> list[dict]:
    """A claim's cells, and — where the paper states the claim as a count ("23 of 32") and
    the declaration asks for it — its count record: then the count is the claim (a key claim
    where the declaration names a key measure) and the cells its evidence; otherwise the
    first testable cell of the key measure is the key claim."""
    if decl.summary and is_count(decl.count):
        count = count_record(decl.statement, decl.section, decl.count, recs, decl.fields)
        count["key"] = bool(decl.key)
        for r in recs:
            r["family"] = CELL_OF_COUNT
        return recs + [count]
    first = next((r for r in recs if decl.key and r["metric"] == decl.key
                  and r["outcome"] != NOT_TESTABLE), None)
    if first is not None:
        first["key"] = True
    return recs


def _cell(art, index, decl: CellClaim, cell, dss, metric, variants, opponents, grid, shown,
          pub) -> dict:
    where, part = decl.where, decl.where.get("part")
    means = {m: mean_of(art, index, dss[0], where, m, metric) for m in shown} \
        if len(dss) == 1 else {}
    numbers = {shown[m]: round(v, 4) for m, v in means.items() if np.isfinite(v)}

    def seed(a, b):
        return decl.seed.format(paper=art.paper, statement=decl.statement, cell=cell,
                                metric=metric, part=part, a=a, b=b)
    x = aligned(art, index, dss, where, grid, metric) if decl.trend or decl.steps else None
    if (decl.trend or decl.steps) and x is None:
        return _untestable(decl, cell, metric, numbers)
    if decl.steps:
        if len(grid) < 3:
            return _untestable(decl, cell, metric, numbers, decl.steps_why)
        v = decl.grid.values(art)
        a, b = f"gain {v[0]} → {v[1]}", f"gain {v[-2]} → {v[-1]}"
        j = judge_variants({a: [compare(a, b, x[:, 1] - x[:, 0], x[:, -1] - x[:, -2],
                                        seed(a, b))]})
    else:
        by_variant: dict[str, list] = {}
        for v in variants:
            by_variant[v] = []
            for o in opponents:
                xy = aligned(art, index, dss, where, (v, o), metric)
                if xy is None:
                    return _untestable(decl, cell, metric, numbers)
                by_variant[v].append(compare(v, o, xy[:, 0], xy[:, 1], seed(v, o)))
        j = judge_variants(by_variant, decl.every)
    values = decl.grid.values(art) if decl.grid else []
    what = decl.what.format(first=values[0], last=values[-1]) if values else decl.what
    test = describe_test(j, j.binding.res.n_queries, len(declared_folds(art, dss[0])),
                         decl.every, what)
    if len(dss) > 1:
        test += f"; the queries of the {len(dss)} sets pooled (the microaverage's weights)"
    extra = {}
    if decl.trend:
        rho, p, n = trend(np.tile(np.asarray(values, float), len(x)), x.ravel())
        extra["trend"] = {"rho": rho, "p_value": p, "n": n}
        test += (f"; beside it, the trend: Spearman's ρ of the per-query values pooled over "
                 f"{decl.trend} (scipy.stats.spearmanr)")
    a, b = j.binding.a, j.binding.b
    if decl.published and len(dss) == 1 and not decl.steps:
        extra["compared_cells"] = [
            compared_cell({**where, "dataset": dss[0], "method": m, "metric": metric},
                          decl.published.get("fold"), role)
            for m, role in [(a, "subject")] + [(c.b, "opponent") for c in j.comparisons
                                               if c.a == a]]
    if len(dss) == 1 and (dss[0], a, metric) in pub and (dss[0], b, metric) in pub:
        pa, pb = pub[(dss[0], a, metric)], pub[(dss[0], b, metric)]
        extra["delta_ri"] = reproduction_measures(means[a], means[b], pa, pb)["delta_ri"]
        extra["published_numbers"] = {a: pa, b: pb}
        extra["published_effect"] = pa - pb
    return claim_record(decl.statement, decl.section, decl.count, cell, metric, j, test,
                        numbers, decl.fields, note=binding_note(
                            decl.note, decl.section, decl.count, j,
                            means if decl.note == "binding" else None), **extra)


kind(CellClaim)(judges_claims(with_tables(lambda art, recs, decl, tables=(): (
    cell_claim(art, recs, decl, tables), {}))))


@dataclass(frozen=True)
class FoldClaim:
    """Aggregation: a claim judged over folds, for statistics that are not per-query measures
    (of a sampler, of an optimiser's first iterations): per data set of the artifact whose
    runs give ``values`` at every declared fold, and per metric, a paired t-test over the folds
    of side ``compared[0]`` against side ``compared[1]`` (against a constant it is the
    one-sample test).  ``values(output)``: from one run's output, ``{metric: {"a": value,
    "b": value, "what": what is tested, "shown": {name: value}}}`` (None without the
    statistic); ``numbers`` = each shown value's mean over the folds.  ``caveat``: what the
    test text adds (the folds' training sets overlap, say).  Untestable statements,
    ``fallback``, ``summary``, ``seed``, ``note`` and ``fields`` as :class:`CellClaim`."""
    statement: str
    section: str
    count: str
    compared: tuple[str, str]
    values: Callable
    caveat: str = ""
    seed: str = "{paper}/claims/{count}/{cell}/{metric}/{a} vs {b}"
    note: str = "difference"
    why: str = "no run gives the statistic at every fold"
    fallback: str | None = None
    summary: bool = True
    key: str | None = None
    fields: dict = field(default_factory=dict)


def _replicate_mean(values: list):
    """One fold's statistics over its replicates' runs (the mean of each number; None when a
    replicate lacks them): a fold claim is judged on replicate means, as every claim."""
    if any(v is None for v in values):
        return None
    if len(values) == 1:
        return values[0]

    def mean(xs):
        if isinstance(xs[0], dict):
            return {k: mean([x[k] for x in xs]) for k in xs[0]}
        if all(defined(x) for x in xs):
            return float(np.mean([float(x) for x in xs]))
        return xs[0]
    return mean(values)


def fold_claim(art: Artifact, records: list[dict], decl: FoldClaim, outputs=()) -> list[dict]:
    out = []
    a, b = decl.compared
    for ds in art.datasets:
        by_fold: dict[str, dict] = {}             # fold -> replicate -> statistics
        for spec, o in outputs:
            if spec.dataset == ds:
                reps = by_fold.setdefault(str(spec.fold), {})
                if reps.get(spec.repeat) is None:     # a split run: the part that has them
                    reps[spec.repeat] = decl.values(o)
        got = {f: _replicate_mean(list(vs.values())) for f, vs in by_fold.items()}
        folds = declared_folds(art, ds)
        if not folds or any(got.get(f) is None for f in folds):
            continue
        per = [got[f] for f in folds]
        for metric in per[0]:
            xa = np.array([p[metric]["a"] for p in per])
            xb = np.array([p[metric]["b"] for p in per])
            seed = decl.seed.format(paper=art.paper, statement=decl.statement, count=decl.count,
                                    cell=ds, metric=metric, a=a, b=b)
            j = judge_variants({a: [compare(a, b, xa, xb, seed, test="sign-flip")]})
            numbers = {k: round(float(np.mean([p[metric]["shown"][k] for p in per])), 4)
                       for k in per[0][metric]["shown"]}
            out.append(claim_record(
                decl.statement, decl.section, decl.count, ds, metric, j,
                describe_fold_test(len(xa), per[0][metric]["what"], decl.caveat), numbers,
                decl.fields, fold_test=True,
                note=binding_note(decl.note, decl.section, decl.count, j)))
    if not out and decl.fallback:
        out = [_untestable(decl, decl.fallback, None, {}, noted=False)]
    return _with_count(decl, out)


kind(FoldClaim)(judges_claims(with_outputs(lambda art, recs, decl, outputs=(): (
    fold_claim(art, recs, decl, outputs), {}))))
