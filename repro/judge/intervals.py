"""The noise behind every reproduced value: what its test queries (or folds) give, and the
interval its verdict allows (:mod:`repro.judge.noise`).

For each record with a defined numeric value (:func:`attach`), its **query evidence** — the
first basis that applies:

1. **its own query table** (a value on one fold: the mean over that fold's test queries);
2. **the query tables of its folds** (a mean over the artifact's declared folds), stratified
   by fold: each fold's queries apart, the statistic being the mean of the fold means, i.e.
   the reported value;
3. **its fold values** (a mean over folds of values that are not means over queries:
   iteration counts, a chosen parameter);
4. **the sampling variance a custom aggregation measured** over queries it pooled itself
   (``sampling_var``, ``sampling_df``, ``sampling_what``: :func:`pooled_interval`);
5. **exact**: a single deterministic result (one fit on fixed data, a count, a selected
   parameter) with nothing to resample.

A basis is used only when it reproduces the record's value (the mean of the tables or fold
values equals it to 1e-9): a record whose value is another statistic of the same tables (a
spread, a p-value, a microaverage) never gets an interval of the wrong statistic.

From it: ``query_ci95`` — the percentile bootstrap interval over those queries (or fold
values), 10,000 resamples (:data:`repro.judge.stats.N_RESAMPLES`), seeded by the artifact and
the record's key; shown, never used by a verdict — with ``query_ci_basis``, ``n_queries`` and
``n_folds``; and the within-run sampling variance of the value (closed form, no resampling).
Then :func:`repro.judge.noise.separation` gives what the verdict uses: the parts of the
uncertainty of ours − published (``uncertainty``), the standard error over the test queries
(``se_queries``: the default margin), ``noise`` and ``noise_words``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sstats

from ..evidence import TableIndex, table_mean
from ..evidence.record import group_key, number, seed_fields
from . import noise
from .noise import Within
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


def sampling_variance(samples: list) -> Within | None:
    """The sampling variance of the mean of fold means over per-fold query values
    (``samples``: arrays of defined values, one per fold): ``Σ_f s_f²/n_f / F²`` with
    ``Σ(n_f − 1)`` degrees of freedom; None with fewer than two values in a fold."""
    if not samples or any(x.size < 2 for x in samples):
        return None
    f = len(samples)
    var = sum(float(np.var(x, ddof=1)) / x.size for x in samples) / f ** 2
    n = int(sum(x.size for x in samples))
    return Within(var, float(n - f), f"{n} test queries"
                  + (f" stratified by {f} folds" if f > 1 else ""))


def weighted_variance(v: np.ndarray, w: np.ndarray) -> float:
    """The variance of a weighted mean Σwx/Σw over its units (the ratio estimator's):
    ``n/(n − 1) · Σ w²(x − x̄)² / (Σw)²``."""
    m = float(_weighted(v, w))
    n = v.size
    return float(n / (n - 1) * np.sum(w ** 2 * (v - m) ** 2) / np.sum(w) ** 2)


def pooled_interval(art_id: str, rec: dict, values: list, what: str) -> dict:
    """The evidence fields of a mean over pooled query values (an aggregation that pools
    tables itself, e.g. keywords over shards): ``query_ci95`` (bootstrap), ``query_ci_basis``,
    ``n_queries``, ``n_folds`` and the sampling variance (``sampling_var``, ``sampling_df``,
    ``sampling_what``) from which :func:`attach` makes the interval the verdict allows."""
    v = np.array([x for x in (number(x) for x in values) if x is not None])
    got = table_interval({"values": list(values)}, seed_for(art_id, rec))
    if got is None:
        return {"n_queries": len(values), "n_folds": None,
                "query_ci_basis": f"no interval: fewer than two {what}"}
    ci, n = got
    return {"query_ci95": [ci[0], ci[1]], "n_queries": n, "n_folds": None,
            "query_ci_basis": f"bootstrap over {n} {what}, {N_RESAMPLES} resamples",
            "sampling_var": float(np.var(v, ddof=1)) / v.size, "sampling_df": float(n - 1),
            "sampling_what": f"{n} {what}"}


@dataclass
class Evidence:
    """What a value's queries (or folds) give: the bootstrap interval shown, its words, the
    numbers of queries and folds, and the within-run sampling variance."""
    ci: tuple | None
    words: str
    n_queries: int | None
    n_folds: int | None
    within: Within | None


def evidence(art, r: dict, index: TableIndex, records: list[dict], groups: dict,
             seed: int) -> Evidence | None:
    """The query evidence of a record (the module docstring's bases 1–4), or None."""
    value = number(r.get("value"))
    own = index.find(r)
    if own is not None and close(table_mean(own), value):      # one fold's queries
        got = table_interval(own, seed)
        if got is not None:
            (lo, hi), n = got
            v, w = _defined_pairs(own["values"], own.get("weights"))
            fold = r.get("fold")
            within = (Within(weighted_variance(v, w), float(n - 1), f"{n} test queries")
                      if own.get("weights") is not None else sampling_variance([v]))
            return Evidence((lo, hi), f"bootstrap over {n} test queries"
                            + (f" of fold {fold}" if fold is not None else "")
                            + f", {N_RESAMPLES} resamples", n,
                            1 if fold is not None else None, within)
    else:                                       # a mean over its folds' queries
        pooled = query_values(art, r, index)
        if pooled:
            strata = list(dict.fromkeys(f for f, _ in pooled))
            samples = [np.array([v for (f, _), v in pooled.items() if f == s_])
                       for s_ in strata]
            ci = interval(samples, seed)
            if ci is not None:
                n = int(sum(x.size for x in samples))
                return Evidence(ci, f"bootstrap over {n} test queries, stratified by "
                                    f"{len(strata)} fold{'s' if len(strata) > 1 else ''}, "
                                    f"{N_RESAMPLES} resamples", n, len(strata),
                                sampling_variance(samples))
    per_fold = fold_values(art, r, records, groups)
    if per_fold is not None:
        ci = _fold_interval(list(per_fold.values()), seed)
        if ci is not None:
            x = np.asarray(list(per_fold.values()), dtype=np.float64)
            f = x.size
            return Evidence(ci, f"bootstrap over the {f} fold values (not a mean over "
                                f"queries), {N_RESAMPLES} resamples", None, f,
                            Within(float(np.var(x, ddof=1)) / f, float(f - 1),
                                   f"{f} fold values"))
    if number(r.get("sampling_var")) is not None:
        return Evidence(tuple(r["query_ci95"]) if r.get("query_ci95") else None,
                        r.get("query_ci_basis", ""), r.get("n_queries"), r.get("n_folds"),
                        Within(float(r["sampling_var"]), float(r.get("sampling_df") or 1),
                               str(r.get("sampling_what") or "pooled test queries")))
    return None


def second_stage_replicates(art, r: dict) -> int:
    """The replicates a second stage would give the value of record ``r`` (0: none — the
    artifact has no second stage, the value has no replicates or already has them all)."""
    n = r.get("replicates")
    if not art.layout.extend_to or not isinstance(n, int) or n < 2 or n >= art.layout.extend_to:
        return 0
    return art.layout.extend_to if n == art.layout.repeats else 0


def _skip(rec: dict) -> bool:
    """Claims, paired tests and values with an interval of their own (a difference tested
    by its aggregation) are judged by their own tests."""
    return (rec.get("claim") is True and "outcome" in rec) or rec.get("paired") \
        or rec.get("not_run") or "ci95" in rec or "uncertainty" in rec


def attach(art, records: list[dict], tables: list[dict], exact_ok=None) -> None:
    """Give every record with a numeric value its evidence and what separates it from a
    published value (:func:`repro.judge.noise.separation`: the parts of the uncertainty of
    ours − published, the standard error over the test queries), in place.
    ``exact_ok(rec) -> bool``: whether a single fold's (or single run's) value without
    per-query evidence is an exact deterministic value (default: every such record); a record
    with no basis at all has an unknown uncertainty and says so."""
    index = TableIndex(tables)
    groups = fold_groups(records)
    for r in records:
        value = number(r.get("value"))
        if value is None or _skip(r):
            continue
        ev = evidence(art, r, index, records, groups, seed_for(art.id, r))
        if ev is not None:
            r["query_ci95"] = None if ev.ci is None else [float(ev.ci[0]), float(ev.ci[1])]
            r["query_ci_basis"] = ev.words
            r["n_queries"], r["n_folds"] = ev.n_queries, ev.n_folds
        else:
            r.setdefault("n_queries", None)
            r.setdefault("n_folds", None)
        folds = declared_folds(art, r)
        fold = None if r.get("fold") is None else str(r["fold"])
        exact = ev is None and (fold in folds or len(folds) < 2) and (
            exact_ok is None or exact_ok(r))
        r.update(noise.separation(art, r, ev.within if ev else None, exact).fields())
        more = second_stage_replicates(art, r)
        if more:          # the value as the second stage would judge it, mean and spread kept
            proj = noise.separation(art, r, ev.within if ev else None, exact, more).fields()
            r["projected"] = {"replicates": more, "uncertainty": proj["uncertainty"],
                              "interval_levels": proj["interval_levels"]}
