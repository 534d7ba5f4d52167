"""The paper's custom aggregations, over the outputs of several runs (the declared kinds see
records, not tables or run outputs): Figures 6–8's averages over the keywords of all Corel
shards — each average pools the per-query tables of four shard runs (and PAMIR's, which ran
once for every keyword) — and the Reuters values that compare Domination Rank with PAMIR,
whose models are fitted in separate parts of a run (:mod:`.reuters`)."""
from __future__ import annotations

import numpy as np

from ...evidence.record import record
from ...judge.intervals import pooled_interval
from .names import COREL_LARGE, COREL_VARIANTS, FEATURE_SELECTION


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


def reuters_comparisons(art, outputs) -> list[dict]:
    """Figure 18's count of the topics where Domination Rank's test AP beats PAMIR-100M's (a
    topic without PAMIR-100M counts as not beaten) and the text's claim of DR's non-zero
    weights relative to PAMIR-10M's (mean weight densities over the topics), from the
    per-topic values of the parts of one Reuters run (one replicate's: the assembly calls this
    per replicate); none without Domination Rank."""
    per_topic: dict[str, dict] = {}
    ds = art.datasets[0]                      # the run's dataset (a Reuters artifact has one)
    for spec, out in outputs:
        for topic, methods in out.get("per_topic", {}).items():
            per_topic.setdefault(topic, {}).update(methods)
        ds = spec.dataset if spec is not None else ds
    if not per_topic or any(FEATURE_SELECTION not in r for r in per_topic.values()):
        return []
    where = ({"dataset": art.stand_ins[ds], "data_used": ds, "stand_in": True}
             if ds in art.stand_ins else {"dataset": ds})
    recs = [record(FEATURE_SELECTION, "topics where DR beats PAMIR-100M (AP)",
                   int(sum(r[FEATURE_SELECTION]["AP"] > r.get("PAMIR-100M", {}).get("AP", 1)
                           for r in per_topic.values())), figure="figure18",
                   n_topics=len(per_topic), **where)]
    if all("PAMIR-10M" in r for r in per_topic.values()):
        dr = float(np.mean([r[FEATURE_SELECTION]["weight density"] for r in per_topic.values()]))
        pm = float(np.mean([r["PAMIR-10M"]["weight density"] for r in per_topic.values()]))
        recs.append(record(FEATURE_SELECTION, "nonzero weights relative to PAMIR", 100 * dr / pm,
                           claim=True, shown=f"{100 * dr / pm:.2f}%", **where))
    return recs
