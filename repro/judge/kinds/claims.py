"""Claims of a paper judged by paired tests (:class:`Claim`), on the engine of
:mod:`repro.judge.claims`."""
from __future__ import annotations

from dataclasses import dataclass

from ...evidence import TableIndex
from ...evidence.record import defined, matches
from ...spec import Artifact
from .. import intervals
from ..claims import compare_paired
from ..published import load as load_published
from ..stats import (CONTRADICTED, HOLDS, NOT_SIGNIFICANT, NOT_TESTABLE, reproduction_measures,
                     seed_from)
from .registry import kind, with_tables


@dataclass(frozen=True)
class Claim:
    """Aggregation: a claim of the paper judged by paired tests, per group ``within``
    (default dataset).  With ``subject`` (a select matching one record per group): "the
    subject is larger (``prefer="smaller"``: smaller) than every record matching ``others``" —
    each comparison is a paired test (:func:`repro.judge.stats.paired`, t-test) over the test
    queries behind both records (their per-query tables, paired by fold and query id, pooled
    over folds) or, where the records are not means over queries, over their fold values; the
    claim **holds** when every comparison is significant (p < 0.05) with the claimed sign (an
    intersection-union test: no multiplicity adjustment is needed for "every"),
    **contradicted** when one is significant with the other sign, **not significant here**
    otherwise, **not testable here** when a comparison has no paired evidence.  The record
    reports the weakest comparison (the closest competitor): its effect (subject − other),
    bootstrap 95% interval, p-value and number of queries (or folds); ``p_value`` is the
    largest p of the comparisons.  With ``bound``: a claim about p-values of :class:`PairedTest`
    records ("p < 0.0001") — holds when every record matching ``others`` is below ``bound``
    and the claims of ``requires`` hold; its effect and interval are those of the first
    required claim.  ``requires``: statements of claims already made in the group that must
    hold as well.  Where the paper publishes both compared values, the record adds Breuer et
    al.'s effect ratio and ΔRI (:func:`repro.judge.stats.reproduction_measures`).  Numbers shown:
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
                fields.update(outcome=NOT_TESTABLE, effect=float("nan"), ci95=None,
                              p_value=None, n_queries=None, n_folds=None,
                              why="no per-query or per-fold values to pair for "
                                  + ", ".join(str(m) for m in missing))
            else:
                outs = [c["outcome_of"].outcome(int(sign)) for _, c in comps]
                outcome = (HOLDS if all(x == HOLDS for x in outs) else
                           CONTRADICTED if CONTRADICTED in outs else NOT_SIGNIFICANT)
                ps = [c["p_value"] for _, c in comps]
                if outcome == "contradicted":      # the most significant contradiction
                    shown_o, shown_c = min(
                        ((o, c) for (o, c), x in zip(comps, outs) if x == "contradicted"),
                        key=lambda oc: oc[1]["p_value"])
                    p_value = shown_c["p_value"]
                else:                              # the closest competitor
                    shown_o, shown_c = min(comps, key=lambda oc: (
                        sign * oc[1]["effect"] if defined(oc[1]["effect"]) else float("inf")))
                    p_value = (max(ps) if all(defined(p) for p in ps) else float("nan")) \
                        if outcome == "holds" else shown_c["p_value"]
                weakest_o, weakest = shown_o, shown_c
                fields.update(outcome=outcome, effect=weakest["effect"], ci95=weakest["ci95"],
                              p_value=p_value,
                              n_queries=weakest["n_queries"], n_folds=weakest["n_folds"],
                              versus=weakest_o.get("method"),
                              test=weakest["test"] + (
                                  f"; the claim holds only if each of the {len(comps)} "
                                  f"comparisons is significant with the claimed sign (shown: "
                                  + ("the most significant contradiction" if outcome ==
                                     "contradicted" else "the closest competitor; p is the "
                                     "largest of the comparisons'" if outcome == "holds" else
                                     "the closest competitor") + ")"
                                  if len(comps) > 1 else ""),
                              comparisons={str(o.get("method")): {
                                  "effect": c["effect"], "ci95": c["ci95"],
                                  "p_value": c["p_value"]} for o, c in comps})
                pub_s, pub_o = _published_value(published, subj), \
                    _published_value(published, weakest_o)
                if pub_s is not None and pub_o is not None and defined(subj["value"]) \
                        and defined(weakest_o["value"]):
                    fields.update(reproduction_measures(float(subj["value"]),
                                                        float(weakest_o["value"]),
                                                        pub_s, pub_o))
                for prior in priors:
                    if prior is None or prior.get("outcome") != "holds":
                        if fields["outcome"] == "holds":
                            fields["outcome"] = "not significant here"
        else:
            ps = [v for _, v in others]
            ok = all(v < agg.bound for v in ps)
            first = next((p for p in priors if p is not None), None)
            held = all(p is not None and p.get("outcome") == "holds" for p in priors)
            fields.update(outcome="holds" if ok and held else (
                "not testable here" if first is None else "not significant here"),
                effect=first.get("effect") if first else float("nan"),
                ci95=first.get("ci95") if first else None,
                p_value=max(ps) if ps else float("nan"),
                n_queries=first.get("n_queries") if first else None,
                n_folds=first.get("n_folds") if first else None,
                test=f"each p-value (of the paired tests above) below {agg.bound:g}; effect "
                     "and interval of the required claim's weakest comparison")
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


kind(Claim)(with_tables(lambda art, recs, agg, tables=(): (claim(art, recs, agg, tables), {})))
