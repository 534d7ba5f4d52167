"""Figures 6–8's averages over the keywords of all Corel shards — the paper's one custom
aggregation: each average pools the per-query tables of four shard runs (and PAMIR's, which
ran once for every keyword), and the declared kinds see records, not tables."""
from __future__ import annotations

import numpy as np

from ...evidence.record import record
from ...judge.intervals import pooled_interval
from .names import COREL_LARGE, COREL_VARIANTS


def corel_means(art, outputs) -> list[dict]:
    """Per subset (Easy, Hard), method, measure and split: the mean over the subset's keywords
    of every shard, in shard order (the declaration's), keywords in each shard's order; a
    method that ran once (PAMIR, in shard 1) is read by keyword.  Corel-Large-All has no
    stand-in: its values are records without a value.  Each mean carries its 95% percentile
    bootstrap interval over the pooled keywords (:func:`repro.judge.intervals.pooled_interval`).
    Replicates: the assembly calls this with one replicate's shard runs at a time (a replicate
    > 0 has DR-Sampled and PAMIR only) and averages the records over the replicates."""
    tables = [t for _, out in outputs for t in out.get("per_query", [])]
    ran = [m for m in COREL_VARIANTS if any(t["method"] == m for t in tables)]
    if not ran:
        return []
    order: dict[str, list] = {}               # dataset -> its keywords over all shards
    values: dict[tuple, dict] = {}            # (dataset, method, metric, split) -> {kw: value}
    for t in tables:
        values.setdefault((t["dataset"], t["method"], t["metric"], t["split"]), {}) \
            .update(zip(t["qids"], t["values"]))
        # the keywords of the shards, in order: those of the first variant that ran (every
        # variant runs a shard's keywords in one order; a replicate > 0 has DR-Sampled alone)
        if t["method"] == ran[0] and t["metric"] == "AP":
            order.setdefault(t["dataset"], []).extend(t["qids"])
    base = {"stand_in": True, "data_used": "corel5k"}
    recs = []
    for (ds, method, metric, split), by_kw in values.items():
        kws = order.get(ds, [])
        extra = {} if kws else {"why": "no keyword of this subset was run"}
        value = float(np.mean([by_kw[k] for k in kws])) if kws else float("nan")
        rec = record(method, metric, value, dataset=ds, split=split,
                     n_queries=len(kws), **base, **extra)
        if kws:
            rec.update(pooled_interval(art.id, rec, [by_kw[k] for k in kws],
                                       "keywords pooled over the Corel shards"))
        recs.append(rec)
    for method in dict.fromkeys(t["method"] for t in tables):
        recs.append(record(method, "AP", None, dataset=COREL_LARGE, split="test",
                           why="no stand-in for Corel-Large-All (35,379 images with PAMIR's "
                               "features, never public)"))
    return recs
