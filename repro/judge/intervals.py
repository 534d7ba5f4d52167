"""A 95% confidence interval on every reproduced value, from the evidence behind it.

For each record with a defined numeric value (:func:`attach`), the first basis that applies:

1. **its own query table** (a value on one fold: the mean over that fold's test queries) — a
   percentile bootstrap over the queries (:func:`repro.judge.stats.interval`; a weighted mean, e.g.
   pairwise accuracy averaged over pairs, resamples (value, weight) pairs);
2. **the query tables of its folds** (a mean over the artifact's declared folds) — the same
   bootstrap stratified by fold: each fold's queries resampled apart, the statistic being the
   mean of the fold means, i.e. the reported value;
3. **its fold values** (a mean over folds of values that are not means over queries: iteration
   counts, a chosen parameter) — a percentile bootstrap over the fold values;
4. **exact**: a single deterministic result (one fit on fixed data, a count, a selected
   parameter) with nothing to resample — the interval is the point itself, and the record says
   so (``ci_basis``).

A basis is used only when it reproduces the record's value (the mean of the tables or fold
values equals it to 1e-9): a record whose value is another statistic of the same tables (a
spread, a p-value, a microaverage) never gets an interval of the wrong statistic.

Each record gets ``ci95`` ([low, high] or None), ``n_queries`` (test queries behind it, or None),
``n_folds`` and ``ci_basis`` (words).  Seeds derive from the artifact and the record's key, so
the same evidence always gives the same interval.  ≥ 2,000 resamples
(:data:`repro.judge.stats.N_RESAMPLES`).
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as sstats

from ..evidence import TableIndex, table_mean
from ..evidence.record import group_key, number, seed_fields
from .stats import LEVEL, N_RESAMPLES, interval, seed_from


def seed_for(art_id: str, rec: dict) -> int:
    """A seed from the artifact and the record as measured
    (:func:`repro.evidence.record.seed_fields`)."""
    return seed_from(f"{art_id}|{seed_fields(rec)}")


def close(a: float, b: float) -> bool:
    """Equal up to floating-point rounding (a basis reproduces a record's value)."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _defined_pairs(values, weights=None):
    w = [1.0] * len(values) if weights is None else weights
    pairs = [(number(v), float(wi)) for v, wi in zip(values, w)
             if number(v) is not None and wi != 0]
    return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])


def _weighted(v, w, axis=-1):
    return np.sum(v * w, axis=axis) / np.sum(w, axis=axis)


def table_interval(table: dict, seed: int) -> tuple | None:
    """``((low, high), n)`` of one query table's mean (weighted when it has weights)."""
    v, w = _defined_pairs(table["values"], table.get("weights"))
    if v.size < 2:
        return None
    if table.get("weights") is None:
        ci = interval([v], seed)
        return (ci, int(v.size)) if ci else None
    stat = float(_weighted(v, w))
    if np.all(v == v[0]):
        return (stat, stat), int(v.size)
    res = sstats.bootstrap((v, w), _weighted, paired=True, vectorized=True,
                           n_resamples=N_RESAMPLES, confidence_level=LEVEL,
                           method="percentile", rng=np.random.default_rng(seed))
    return (float(res.confidence_interval.low), float(res.confidence_interval.high)), \
        int(v.size)


def _fold_interval(values: list[float], seed: int) -> tuple[float, float] | None:
    v = np.asarray(values, dtype=np.float64)
    if v.size < 3:
        return None
    if np.all(v == v[0]):
        return float(v[0]), float(v[0])
    res = sstats.bootstrap((v,), np.mean, vectorized=True, n_resamples=N_RESAMPLES,
                           confidence_level=LEVEL, method="percentile",
                           rng=np.random.default_rng(seed))
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def declared_folds(art, rec: dict) -> list[str]:
    used = rec.get("data_used") or rec.get("dataset")
    try:
        return [str(f) for f in art.folds_for(used) if f is not None]
    except Exception:                           # a dataset label the artifact does not declare
        return []


def query_values(art, rec: dict, index: TableIndex) -> dict | None:
    """``{(fold, qid): value}`` behind a record — its own table, or its folds' tables when it
    is their mean — or None when the record is not a mean of such tables."""
    value = number(rec.get("value"))
    if value is None:
        return None
    own = index.find(rec)
    if own is not None and own.get("weights") is None and close(table_mean(own), value):
        return {(str(rec.get("fold")), q): v for q, v in zip(own["qids"], own["values"])
                if v is not None}
    folds = declared_folds(art, rec)
    fold = None if rec.get("fold") is None else str(rec["fold"])
    if not folds or fold in folds:
        return None
    tables = [index.find_fold(rec, f) for f in folds]
    if any(t is None or t.get("weights") is not None for t in tables):
        return None
    means = [table_mean(t) for t in tables]
    if any(math.isnan(m) for m in means) or not close(float(np.mean(means)), value):
        return None
    return {(f, q): v for f, t in zip(folds, tables) for q, v in zip(t["qids"], t["values"])
            if v is not None}


def fold_groups(records: list[dict]) -> dict[tuple, dict[str, float | None]]:
    """``{group_key: {fold: value}}`` of the records that have a fold."""
    out: dict[tuple, dict] = {}
    for r in records:
        if r.get("fold") is not None:
            out.setdefault(group_key(r), {})[str(r["fold"])] = number(r.get("value"))
    return out


def fold_values(art, rec: dict, records: list[dict], groups: dict | None = None) -> dict | None:
    """``{fold: value}`` of the records of the same setting at the artifact's declared folds,
    when ``rec`` is their mean; None otherwise.  ``groups``: :func:`fold_groups` of
    ``records``, when already computed."""
    value = number(rec.get("value"))
    folds = declared_folds(art, rec)
    fold = None if rec.get("fold") is None else str(rec["fold"])
    if value is None or len(folds) < 2 or fold in folds:
        return None
    got = (groups if groups is not None else fold_groups(records)).get(group_key(rec), {})
    if any(got.get(f) is None for f in folds) or not close(
            float(np.mean([got[f] for f in folds])), value):
        return None
    return {f: got[f] for f in folds}


def pooled_interval(art_id: str, rec: dict, values: list, what: str) -> dict:
    """The interval fields of a mean over pooled query values (an aggregation that pools
    tables itself, e.g. keywords over shards): ``ci95``, ``n_queries``, ``n_folds``,
    ``ci_basis``."""
    got = table_interval({"values": list(values)}, seed_for(art_id, rec))
    if got is None:
        return {"ci95": None, "n_queries": len(values), "n_folds": None,
                "ci_basis": f"no interval: fewer than two {what}"}
    ci, n = got
    return {"ci95": [ci[0], ci[1]], "n_queries": n, "n_folds": None,
            "ci_basis": f"bootstrap over {n} {what}, {N_RESAMPLES} resamples"}


def _set(rec: dict, ci, n_queries, n_folds, basis: str) -> None:
    rec["ci95"] = None if ci is None else [float(ci[0]), float(ci[1])]
    rec["n_queries"] = n_queries
    rec["n_folds"] = n_folds
    rec["ci_basis"] = basis


def _skip(rec: dict) -> bool:
    return (rec.get("claim") is True and "outcome" in rec) or rec.get("paired") \
        or rec.get("not_run") or "ci95" in rec


def attach(art, records: list[dict], tables: list[dict], exact_ok=None) -> None:
    """Give every record with a numeric value its interval (see the module docstring), in
    place.  ``exact_ok(rec) -> bool``: whether a single fold's (or single run's) value without
    per-query evidence is an exact deterministic value (default: every such record); a record
    with no basis at all gets ``ci95`` None and says so."""
    index = TableIndex(tables)
    groups = fold_groups(records)
    for r in records:
        value = number(r.get("value"))
        if value is None or _skip(r):
            continue
        seed = seed_for(art.id, r)
        own = index.find(r)
        if own is not None and close(table_mean(own), value):      # one fold's queries
            got = table_interval(own, seed)
            if got is not None:
                (lo, hi), n = got
                fold = r.get("fold")
                _set(r, (lo, hi), n, 1 if fold is not None else None,
                     f"bootstrap over {n} test queries"
                     + (f" of fold {fold}" if fold is not None else "")
                     + f", {N_RESAMPLES} resamples")
                continue
        else:                                   # a mean over its folds' queries
            pooled = query_values(art, r, index)
            if pooled:
                strata = list(dict.fromkeys(f for f, _ in pooled))
                samples = [np.array([v for (f, _), v in pooled.items() if f == s_])
                           for s_ in strata]
                ci = interval(samples, seed)
                if ci is not None:
                    n = int(sum(x.size for x in samples))
                    _set(r, ci, n, len(strata),
                         f"bootstrap over {n} test queries, stratified by {len(strata)} "
                         f"fold{'s' if len(strata) > 1 else ''}, {N_RESAMPLES} resamples")
                    continue
        folds = declared_folds(art, r)
        fold = None if r.get("fold") is None else str(r["fold"])
        per_fold = fold_values(art, r, records, groups)
        if per_fold is not None:
            ci = _fold_interval(list(per_fold.values()), seed)
            if ci is not None:
                _set(r, ci, None, len(folds),
                     f"bootstrap over the {len(folds)} fold values (not a mean over "
                     f"queries), {N_RESAMPLES} resamples")
                continue
        single = fold in folds or len(folds) < 2
        if single and (exact_ok is None or exact_ok(r)):
            _set(r, (value, value), None, None,
                 "exact: one deterministic result with no queries or folds to resample "
                 "(the interval is the value itself)")
        else:
            _set(r, None, None, None, "no interval: no per-query or per-fold values behind "
                                      "this value")
