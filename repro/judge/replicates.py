"""Replicates: an artifact whose runs repeat (``RunLayout.repeats`` = R > 1; ``RunSpec.repeat``
= 0..R−1, seeds derived from the repeat) gives every value R times.  This module turns them
into the values an artifact shows (Bouthillier et al., MLSys 2021: a single run is a
draw, not a value):

* **records** — per key without ``repeat`` (:func:`group`), one record whose ``value`` is the
  mean over the replicates, with ``replicates`` (R), ``replicate_values`` (each replicate's,
  in repeat order) and ``spread`` (their sample standard deviation) — :func:`mean_records`.  A
  record that only replicate 0 has is *deterministic*: a task computes a method without
  randomness once (``ctx.spec.repeat == 0``), so it is shown with ``replicates`` = 1 and
  ``deterministic`` = true ("computed once").  A value identical in every replicate is
  deterministic too (no run-to-run spread was observed);
* **per-query tables** — each replicate's table stays (with ``repeat``; all of them go to the
  sidecar) and beside them the per-query mean over the replicates, without ``repeat`` (so that
  a record finds it by its own key, as in a single-run artifact) and with ``replicates`` = R
  (:func:`mean_tables`): replicates on the same test queries are averaged query by query
  (paired tests of two methods stay paired: each difference is a mean of paired differences);
  replicates whose query ids differ are pooled (ids ``"<repeat>:<qid>"``);
* **aggregated values** — the declared aggregations (fold means, cells, microaverages, claims)
  work on the replicate means; each replicate's own records go through the same aggregations
  (claims aside), and :func:`attach_values` gives every aggregated value the replicate values
  of its counterparts — each a value the paper's procedure gives in one run — and their spread.

Grouping (:func:`group`): the key of a record or a table without ``repeat`` and without
float-valued fields (the value of another convention kept as a field, a fitted parameter that
may differ from one replicate to the next), except the float fields needed to tell records of
one replicate apart (a grid value such as C).
"""
from __future__ import annotations

import numpy as np

from ..evidence.record import DESCRIPTION, TABLE_DATA, VALUE, key, number, table_key

#: the field a replicate's records and tables carry (only when the artifact has R > 1)
REPEAT = "repeat"
#: the label of the replicate means among groups (:func:`attach_values`)
MEAN = -1
#: the fields saying what replicates are behind a value
FIELDS = ("replicates", "replicate_values", "spread", "deterministic")


def _floaty(v) -> bool:
    return isinstance(v, float)


def group(items: list[dict], key_of=key, strict: bool = True) -> dict[tuple, dict]:
    """``{identity: {repeat: item}}`` of records or tables carrying ``repeat`` (see the module
    docstring).  One replicate with two items of one identity: ValueError (``strict``), else
    that identity is left out."""
    keys = [{k: v for k, v in key_of(it).items() if k != REPEAT} for it in items]
    base = [tuple(sorted((k, str(v)) for k, v in kk.items() if not _floaty(v))) for kk in keys]
    needed: dict[tuple, set] = {}
    seen: dict[tuple, list[dict]] = {}
    for b, kk, it in zip(base, keys, items):
        seen.setdefault((b, it.get(REPEAT)), []).append(kk)
    clashes: dict[tuple, list[list[dict]]] = {}
    for (b, _), kks in seen.items():
        if len(kks) > 1:
            clashes.setdefault(b, []).append(kks)
    for b, groups in clashes.items():
        # the fewest float fields that tell a replicate's items apart, taken in name order
        # (a grid's "C" before the "fitted_C" a fit reports): a field that separates nothing
        # more must not split a value from its replicates (each may select another C)
        floats = sorted({k for kks in groups for kk in kks for k, v in kk.items()
                         if _floaty(v)})
        chosen: list[str] = []
        for k in floats:
            if all(len({tuple(str(kk.get(f)) for f in chosen) for kk in kks}) == len(kks)
                   for kks in groups):
                break
            before = sum(len({tuple(str(kk.get(f)) for f in chosen) for kk in kks})
                         for kks in groups)
            after = sum(len({tuple(str(kk.get(f)) for f in chosen + [k]) for kk in kks})
                        for kks in groups)
            if after > before:
                chosen.append(k)
        needed[b] = set(chosen)
    out: dict[tuple, dict] = {}
    ambiguous = set()
    for b, kk, it in zip(base, keys, items):
        ident = b + tuple((k, str(kk.get(k))) for k in sorted(needed.get(b, ())))
        reps = out.setdefault(ident, {})
        rep = it.get(REPEAT)
        if rep in reps:
            if strict:
                raise ValueError(f"replicate {rep} has two values of {dict(ident)}: a task "
                                 f"must give each value once per run")
            ambiguous.add(ident)
        reps[rep] = it
    return {k: v for k, v in out.items() if k not in ambiguous}


def _common(items: list[dict], skip: tuple) -> dict:
    """Fields equal in every item (``skip`` aside); numeric descriptions that differ (a time,
    a weight) averaged; other differing fields dropped."""
    first, out = items[0], {}
    for k in dict.fromkeys(k for it in items for k in it):
        if k in skip or k == REPEAT:
            continue
        vals = [it.get(k) for it in items]
        if all(v == vals[0] for v in vals[1:]) and all(k in it for it in items):
            out[k] = first[k]
        elif k in DESCRIPTION and all(number(v) is not None for v in vals):
            out[k] = float(np.mean([float(v) for v in vals]))
    return out


def summary(values: list) -> dict:
    """``replicates``, ``replicate_values``, ``spread`` and ``deterministic`` of a value's
    replicates (its ``value``: the mean; NaN when one is undefined)."""
    vals = [number(v) for v in values]
    out = {"replicates": len(vals), "replicate_values": vals}
    if any(v is None for v in vals):
        return {**out, "value": float("nan"), "spread": None, "deterministic": False,
                "why": "a replicate's value is undefined"}
    arr = np.asarray(vals, dtype=np.float64)
    return {**out, "value": float(arr.mean()),
            "spread": float(arr.std(ddof=1)) if arr.size > 1 else 0.0,
            "deterministic": bool(np.all(arr == arr[0]))}


def mean_records(records: list[dict], repeats: int) -> list[dict]:
    """The records an artifact shows from its replicates' records (module docstring)."""
    out = []
    for ident, by_rep in group(records).items():
        reps = sorted(by_rep)
        items = [by_rep[r] for r in reps]
        if reps == [0] and repeats > 1:                  # computed once: deterministic
            rec = {k: v for k, v in items[0].items() if k != REPEAT}
            rec.update(replicates=1, deterministic=True)
            out.append(rec)
            continue
        rec = _common(items, skip=VALUE)
        vals = [it.get("value") for it in items]
        if all(number(v) is None for v in vals) and all(v == vals[0] for v in vals):
            rec["value"] = vals[0]                       # no number in any replicate
            if items[0].get("why"):
                rec["why"] = items[0]["why"]
        else:
            rec.update(summary(vals))
        out.append(rec)
    return out


_PLAIN = frozenset((float, int, type(None)))


def query_means(columns: list[list]) -> list:
    """Query by query, the mean of the replicates' values (``columns[r][q]``), or None where
    one of them is undefined (:func:`~repro.evidence.record.number`): the bits of
    ``float(np.mean([...]))`` of each query, computed at once (each query's values summed as
    one contiguous row, as ``np.mean`` sums a list; a test compares them bit for bit)."""
    if len({len(c) for c in columns}) > 1 or not \
            {type(v) for c in columns for v in c} <= _PLAIN:    # text, bools: one by one
        return [None if any(v is None for v in nums) else float(np.mean(nums))
                for nums in ([number(v) for v in per_q] for per_q in zip(*columns))]
    A = np.ascontiguousarray(np.array(columns, dtype=np.float64).T)   # None → NaN
    means = A.mean(axis=1).tolist()
    defined = np.isfinite(A).all(axis=1).tolist()
    return [m if ok else None for m, ok in zip(means, defined)]


def mean_tables(tables: list[dict], repeats: int) -> list[dict]:
    """The per-query mean table of each key over the replicates (module docstring)."""
    out = []
    for ident, by_rep in group(tables, table_key).items():
        reps = sorted(by_rep)
        items = [by_rep[r] for r in reps]
        base = _common(items, skip=TABLE_DATA + VALUE[1:])
        base["replicates"] = len(items)
        if len(items) == 1:
            out.append({**{k: v for k, v in items[0].items() if k != REPEAT},
                        "replicates": 1})
            continue
        whys = list(dict.fromkeys(it["why"] for it in items if it.get("why")))
        same_q = all(it["qids"] == items[0]["qids"] for it in items)
        same_w = all(it.get("weights") == items[0].get("weights") for it in items)
        if same_q and same_w:
            vals = query_means([it["values"] for it in items])
            table = {**base, "qids": list(items[0]["qids"]), "values": vals}
            if items[0].get("weights") is not None:
                table["weights"] = list(items[0]["weights"])
        else:                                            # each replicate its own queries
            table = {**base, "qids": [f"{r}:{q}" for r, it in zip(reps, items)
                                      for q in it["qids"]],
                     "values": [v for it in items for v in it["values"]]}
            if any(it.get("weights") is not None for it in items):
                table["weights"] = [w for it in items for w in
                                    (it.get("weights") or [1.0] * len(it["values"]))]
        if whys:
            table["why"] = "; ".join(whys)
        elif any(v is None for v in table["values"]):
            table["why"] = "undefined in a replicate"
        out.append(table)
    return out


def attach_values(records: list[dict], per_replicate: list[list[dict]],
                  counts: tuple[int, ...] | None = None) -> None:
    """Give each record (of the replicate means, after the declared aggregations) that has no
    replicate values yet those of its counterparts in the replicates' own aggregations
    (``per_replicate[r]``: the records of replicate r after the same aggregations), in place.
    ``counts``: the numbers of replicates a value may have — a two-stage design's first and
    second stage (default: all of them); a record needs counterparts in replicates 0 … n − 1
    for one of them, else it keeps none (a claim, say)."""
    tagged = [{**r, REPEAT: MEAN} for r in records]
    for rep, recs in enumerate(per_replicate):
        tagged += [{**r, REPEAT: rep} for r in recs]
    groups = group(tagged, strict=False)
    by_id = {id(t): i for i, t in enumerate(tagged[:len(records)])}
    for by_rep in groups.values():
        mine = by_rep.get(MEAN)
        if mine is None:
            continue
        rec = records[by_id[id(mine)]]
        if "replicates" in rec or rec.get("claim") or "outcome" in rec:
            continue
        reps = [r for r in range(len(per_replicate)) if r in by_rep]
        if reps != list(range(len(reps))) or len(reps) not in (counts or (len(per_replicate),)) \
                or number(rec.get("value")) is None:
            continue
        got = summary([by_rep[r].get("value") for r in reps])
        if got["spread"] is None:
            continue
        rec.update(replicates=got["replicates"], replicate_values=got["replicate_values"],
                   spread=got["spread"], deterministic=got["deterministic"])


def replicates_of(rec: dict) -> list[float] | None:
    """The replicate values behind a record (two or more, all defined), or None."""
    vals = rec.get("replicate_values")
    if not isinstance(vals, list) or len(vals) < 2 or any(number(v) is None for v in vals):
        return None
    return [float(v) for v in vals]
