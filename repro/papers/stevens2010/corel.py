"""stevens2010 on the Corel stand-in (§8.2, Figures 6–8): per-keyword Domination Rank models
(feature induction, induction on 10 % of the negatives, cyclic sweeps) and PAMIR, on MULAN
Corel5k laid out like Corel-Small (4,000 / 500 / 500 images).

The keywords are split into shards (the run's "fold"), so that the runs spread over processes;
each shard run returns the per-keyword values as per-query tables (one per subset, method,
measure and split; a keyword is a query) and the averages of Figures 6–8, over the keywords of
all shards, are computed from them (:mod:`.pooled`).  PAMIR trains all keywords jointly (its
sampling spreads the iterations over them), so it runs once, in shard 1: its tables there hold
every keyword.

Replicates (Figures 6–8 declare 5): a replicate r > 0 (its own seed, from the run's identity)
refits what has training randomness — DR-Sampled (the negatives drawn per keyword) and PAMIR
(its random triplets) — on the same split; DR-Sequential and DR-FeatureInduction are
deterministic, computed in replicate 0.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...data.multilabel import load_corel5k
from ...evidence import Evidence, QueryTable
from ...rankers.column_access import ColumnData
from ...rankers.pamir import pamir_models
from ...spec.params import StudyParams, study
from .keywords import configs, density, fit_selected, query_measures
from .names import COREL_SPLITS, COREL_STOCHASTIC, COREL_SUBSETS, DETAIL_METRICS, corel_dataset
from .names import COREL_VARIANTS as VARIANTS


def corel_small(data_dir, split_seed: int) -> dict:
    """Corel5k as Corel-Small: the official 500 test images; 500 validation images drawn
    (``split_seed``) from the 4,500 training images, the other 4,000 for training.  Keywords
    ("queries") with at least one image in each of the three sets; Easy = at least 3 test
    images (§8.2.2, line 649), Hard = the others."""
    tr, te = load_corel5k("train", data_dir), load_corel5k("test", data_dir)
    perm = np.random.default_rng(split_seed).permutation(tr.n_samples)
    vi, ti = np.sort(perm[:500]), np.sort(perm[500:])
    Y = {"train": tr.Y[ti].toarray() != 0, "validation": tr.Y[vi].toarray() != 0,
         "test": te.Y.toarray() != 0}
    X = {"train": tr.X[ti], "validation": tr.X[vi], "test": te.X}
    counts = {k: v.sum(axis=0) for k, v in Y.items()}
    queries = np.flatnonzero((counts["train"] > 0) & (counts["validation"] > 0)
                             & (counts["test"] > 0))
    return {"X": X, "Y": Y, "queries": queries, "easy": counts["test"][queries] >= 3,
            "names": tr.label_names}


def _measures(w, X, Y, q) -> dict:
    """Test measures, and the validation+test measures (the two sets' images pooled)."""
    test = query_measures(X["test"] @ w, Y["test"][:, q])
    both = query_measures(np.concatenate([X["validation"] @ w, X["test"] @ w]),
                          np.concatenate([Y["validation"][:, q], Y["test"][:, q]]))
    return {"test": test, "validation+test": both, "weight density": density(w)}


@dataclass(frozen=True)
class CorelParams(StudyParams):
    """Corel5k (split by ``split_seed``) in ``shards`` shards of keywords (the first
    ``max_queries_per_shard`` of each, if given): each Domination Rank variant over
    ``regularisers`` × ``lambdas`` (× ``alphas``), ``iterations_per_feature`` × d iterations,
    ``tol``, DR-Sampled with a ``negative_fraction`` of the negatives; PAMIR (shard 1) at each
    of ``pamir_iterations`` with C among ``pamir_C``."""
    split_seed: int
    shards: int
    regularisers: list[str]
    lambdas: list[float]
    alphas: list[float]
    iterations_per_feature: int
    tol: float
    negative_fraction: float
    pamir_iterations: list[int]
    pamir_C: list[float]
    max_queries_per_shard: int | None = None


@study(CorelParams)
def task_corel(ctx) -> dict:
    """Shard ``ctx.fold`` of the keywords (every ``n_shards``-th, in keyword order); in a
    replicate ``ctx.spec.repeat`` > 0 the stochastic methods only."""
    p = CorelParams.of(ctx)
    methods = [m for m in VARIANTS if ctx.spec.repeat == 0 or m in COREL_STOCHASTIC]
    data = corel_small(ctx.data_dir, p.split_seed)
    X, Y = data["X"], data["Y"]
    shard, n_shards = int(ctx.fold), int(p.shards)
    mine = data["queries"][shard - 1::n_shards][:p.max_queries_per_shard]
    cols = ColumnData.from_matrix(X["train"])
    d = cols.n_features
    fit = {"tol": p.tol, "max_iter": int(p.iterations_per_feature) * d}
    grids = {"DR-Sequential": configs(p.regularisers, p.lambdas),
             "DR-FeatureInduction": configs(p.regularisers, p.lambdas, p.alphas),
             "DR-Sampled": configs(p.regularisers, p.lambdas, p.alphas)}
    per_query = []
    for q in mine:
        ytr = Y["train"][:, q].astype(np.float64)
        row = {"keyword": data["names"][q], "index": int(q),
               "easy": bool(Y["test"][:, q].sum() >= 3), "methods": {}}
        for method in methods:
            sample = p.negative_fraction if method == "DR-Sampled" else 1.0
            best = fit_selected(cols, ytr, X["validation"], Y["validation"][:, q],
                                grids[method], fit, sample, ctx.rng(1000 + int(q)))
            row["methods"][method] = {**_measures(best["w"], X, Y, q),
                                      "config": best["config"],
                                      "validation_AP": best["validation_AP"],
                                      "iterations": best["iterations"],
                                      "status": best["status"]}
        per_query.append(row)
        ctx.log(f"corel shard {shard}: {row['keyword']} " + ", ".join(
            f"{m} {row['methods'][m]['test']['AP']:.3f}" for m in methods))
    ev = Evidence(shard=shard, queries=per_query, n_queries_all=int(data["queries"].size),
                  pamir={})
    for method in methods:
        _tables(ev, method, {q["keyword"]: q["methods"][method] for q in per_query},
                {q["keyword"]: q["easy"] for q in per_query}, shard)
    if shard == 1:
        ev.detail["pamir"] = _pamir(ctx, data, p)
        easy = {data["names"][q]: bool(e) for q, e in zip(data["queries"], data["easy"])}
        for name, r in ev.detail["pamir"].items():
            _tables(ev, name, r["per_query"], easy, shard)
    return ev.output()


def _tables(ev: Evidence, method: str, per_keyword: dict, easy: dict, shard: int) -> None:
    """The per-query tables of one method's keywords (in the given order): test AP of each
    subset; for Easy the domination error, all-pairs error and weight density on the test set
    and on the validation and test images pooled.  Only tables: the averages over the keywords
    of all shards are the artifact's records (:mod:`.pooled`)."""
    for subset, want in COREL_SUBSETS.items():
        kws = [k for k in per_keyword if easy[k] == want]
        splits = ("test",) if not want else COREL_SPLITS
        metrics = {"test": ("AP",) + (DETAIL_METRICS if want else ())}
        metrics["validation+test"] = DETAIL_METRICS
        for split in splits:
            for metric in metrics[split]:
                vals = [per_keyword[k]["weight density"] if metric == "weight density"
                        else per_keyword[k][split][metric] for k in kws]
                ev.tables.append(QueryTable(method, metric, kws, vals, shard, keys={
                    "dataset": corel_dataset(subset), "split": split}))


def _pamir(ctx, data, p) -> dict:
    """PAMIR on all keywords jointly, for each iteration count; C chosen by the mean
    validation AP over the keywords."""
    X, Y, qs = data["X"], data["Y"], data["queries"]
    res = {}
    for k, n_iter in enumerate(p.pamir_iterations):
        best = None
        for j, C in enumerate(p.pamir_C):
            models = pamir_models(X["train"], Y["train"][:, qs], int(n_iter), float(C),
                                  seed=ctx.rng(10 + 100 * k + j))
            S = models.scores(X["validation"])
            ap = float(np.mean([query_measures(S[:, i], Y["validation"][:, q])["AP"]
                                for i, q in enumerate(qs)]))
            if best is None or ap > best[0]:
                best = (ap, C, models)
        ap, C, models = best
        per_q = {}
        for i, q in enumerate(qs):
            per_q[data["names"][q]] = _measures(models.W[i], X, Y, q)
        res[f"PAMIR-{_short(n_iter)}"] = {"C": C, "validation_mean_AP": ap,
                                          "per_query": per_q}
        ctx.log(f"corel PAMIR {n_iter} iterations: C = {C}, validation mean AP {ap:.4f}")
    return res


def _short(n: int) -> str:
    n = int(n)
    for unit, v in (("B", 10 ** 9), ("M", 10 ** 6), ("K", 10 ** 3)):
        if n >= v and n % v == 0:
            return f"{n // v}{unit}"
    return str(n)
