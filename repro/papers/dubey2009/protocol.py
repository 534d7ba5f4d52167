"""The §5.1 protocol of Dubey et al. (2009) on one fold: binary relevance, optional cleaning,
the measures "as the paper defines them" (Sec. 1.6) beside the official LETOR 3.0 script, with
ties in file order and broken at random, and the rankers with their validation grids.

* Relevance is binary: good = label ≥ 1 (Sec. 1.1; OHSUMED's 1 and 2 are good).
* Cleaning (Sec. 5.1.1): :func:`repro.data.queries.remove_conflicts` on the splits named by
  the ``clean`` option ("none", "train", "train+vali", "all").
* Paper measures (Sec. 1.6): AP = (1/n⁺) Σ_i (1 + i)/(1 + r_i), NDCG@k with binary gain and
  D(0) = D(1) = 1, D(i) = 1/log₂(1 + i) — averaged over the queries that have a good document
  (undefined, NaN per query, without one).  Official measures: the LETOR 3.0 conventions
  (graded gain 2^label − 1, every query counts, AP = 0 without a relevant document).  Both
  rank by score with ties in file order (the official script's stable sort); :func:`measure_all`
  adds each measure with ties broken uniformly at random, averaged over a few seeded orders.
  Every measure comes with its per-query values (:class:`Measures`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...data.load import load_letor_fold
from ...data.queries import QueryData, remove_conflicts
from ...metrics import evaluate
from ...metrics.family import ap_from_good_ranks, good_ranks_from_scores, ndcg_from_good_ranks
from ...evidence.protocol import select
from ...rankers import RankSVM
from ...rankers.conditional import ConditionalRanker, SampleCache
from ...rankers.rankboost import RankBoost
from ...rankers.svmmap import SVMMAP
from .names import (CONVENTIONS, LETOR3, LETOR3_RANDOM, METRICS, PAPER_DEF, PAPER_RANDOM, PROPOSED,
                    THRESHOLD)

if TYPE_CHECKING:
    from .fold import FoldParams

CLEAN_MODES = {"none": (), "train": ("train",), "train+vali": ("train", "vali"),
               "all": ("train", "vali", "test")}
_KS = (1, 5, 10)


def clean(data: QueryData, threshold: float = THRESHOLD) -> tuple[QueryData, dict]:
    """Sec. 5.1.1 cleaning; returns the cleaned data and what was removed."""
    return remove_conflicts(data, threshold)


def paper_per_query(data: QueryData, scores, rng: np.random.Generator | None = None,
                    threshold: float = THRESHOLD) -> dict[str, np.ndarray]:
    """AP and NDCG@1/5/10 of every query as Sec. 1.6 defines them (NaN: no good document) —
    the ``dubey2009`` convention of :mod:`repro.metrics.family`, from one ranking per query;
    ``rng``: ties broken at random (one draw per query with a good document, in order, shared
    by AP and every NDCG@k)."""
    scores = np.asarray(scores, dtype=np.float64)
    out = {m: np.full(data.n_queries, np.nan) for m in METRICS}
    for q in range(data.n_queries):
        sl = data.query(q)
        good = data.y[sl] >= threshold
        if not good.any():
            continue
        r = good_ranks_from_scores(good, scores[sl], rng)[None, :]
        out["MAP"][q] = ap_from_good_ranks(r)[0]
        for k in _KS:
            out[f"NDCG@{k}"][q] = ndcg_from_good_ranks(r, k)[0]
    return out


def paper_average(per_query: dict[str, np.ndarray]) -> dict[str, float]:
    """The paper's averages: over the queries with a good document."""
    return {m: float(np.mean(v[~np.isnan(v)])) for m, v in per_query.items()}


def paper_measures(data: QueryData, scores, rng: np.random.Generator | None = None,
                   threshold: float = THRESHOLD) -> dict[str, float]:
    """MAP and NDCG@1/5/10 as Sec. 1.6 defines them (queries with a good document)."""
    return paper_average(paper_per_query(data, scores, rng, threshold))


def official_per_query(data: QueryData, scores, rng: np.random.Generator | None = None
                       ) -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """MAP and NDCG@1/5/10 by the LETOR 3.0 script's conventions: its averages and each
    query's value; ``rng``: break ties at random (documents shuffled within queries before
    the script's stable sort; the query order is kept)."""
    y, s = data.y, np.asarray(scores, dtype=np.float64)
    if rng is not None:
        perm = np.concatenate([lo + rng.permutation(hi - lo) for lo, hi in
                               zip(data.query_ptr[:-1], data.query_ptr[1:])])
        y, s = y[perm], s[perm]
    ev = evaluate(y, s, data.query_ptr, data.qids, version=3, max_k=10)
    summary = {"MAP": float(ev.map), **{f"NDCG@{k}": float(ev.avg_ndcg[k - 1]) for k in _KS}}
    per_query = {"MAP": np.asarray(ev.ap, dtype=np.float64).copy(),
                 **{f"NDCG@{k}": np.asarray(ev.ndcg[:, k - 1], dtype=np.float64).copy()
                    for k in _KS}}
    return summary, per_query


def official_measures(data: QueryData, scores, rng: np.random.Generator | None = None
                      ) -> dict[str, float]:
    """MAP and NDCG@1/5/10 by the LETOR 3.0 script's conventions (its averages)."""
    return official_per_query(data, scores, rng)[0]


@dataclass
class Measures:
    """The measures of one scoring of a test split under each convention: ``summary[c][m]``
    (the value reported) and ``per_query[c][m]`` (each query's value, NaN where undefined; a
    random-ties value is the mean over the seeded orders), queries ``qids`` in data order."""
    qids: list
    summary: dict[str, dict[str, float]]
    per_query: dict[str, dict[str, np.ndarray]]


def _paper(data, scores, rng):
    pq = paper_per_query(data, scores, rng)
    return paper_average(pq), pq


def measure_all(data: QueryData, scores, tie_seeds: int, seed: int) -> Measures:
    """Every convention of :data:`CONVENTIONS`; random ties averaged over ``tie_seeds``
    seeded orders (the summary is the mean of the orders' averages)."""
    summary, per_query = {}, {}
    summary[PAPER_DEF], per_query[PAPER_DEF] = _paper(data, scores, None)
    summary[LETOR3], per_query[LETOR3] = official_per_query(data, scores)
    for name, fn in ((PAPER_RANDOM, _paper), (LETOR3_RANDOM, official_per_query)):
        runs = [fn(data, scores, np.random.default_rng([seed, t])) for t in range(tie_seeds)]
        summary[name] = {m: float(np.mean([s[m] for s, _ in runs])) for m in METRICS}
        per_query[name] = {m: np.mean([pq[m] for _, pq in runs], axis=0) for m in METRICS}
    order = {c: i for i, c in enumerate(CONVENTIONS)}
    return Measures(np.asarray(data.qids).tolist(),
                    dict(sorted(summary.items(), key=lambda kv: order[kv[0]])),
                    dict(sorted(per_query.items(), key=lambda kv: order[kv[0]])))


# --- one fold: splits and rankers ------------------------------------------------------------

def load_splits(dataset: str, fold, data_dir, mode: str) -> tuple[dict, dict]:
    """The fold's train/vali/test, cleaned as ``mode`` says; and the cleaning counts."""
    if mode not in CLEAN_MODES:
        raise ValueError(f"clean: expected one of {tuple(CLEAN_MODES)}, got {mode!r}")
    splits = load_letor_fold(dataset, int(fold), data_dir)
    info = {}
    for name in CLEAN_MODES[mode]:
        splits[name], info[name] = clean(splits[name], THRESHOLD)
    return splits, info


def binary(data: QueryData) -> QueryData:
    """The same data with labels 0/1 (good = label ≥ 1): what the baselines are trained on."""
    return QueryData(data.X, (data.y >= THRESHOLD).astype(np.float64), data.query_ptr,
                     data.qids, data.docids, data.source + " (binary)", data.line_no)


def method_name(objective: str, delta: str) -> str:
    return ConditionalRanker(objective, delta).method_name


def conditional(objective: str, delta: str, p: FoldParams, seed: int, **over) -> ConditionalRanker:
    """A ranker of the paper with the run's sampler settings; every sampled objective of a
    fold uses the same ``seed`` and hence the same sample Ŷ (drawn once, Sec. 4; once per
    fold with a shared ``sample_cache`` in ``over``)."""
    kw = dict(ndcg_k=p.ndcg_k, sample_size=p.sample_size, walk_length=p.walk_length,
              restart_skew=p.restart_skew, phi_scale=p.phi_scale, max_iter=p.max_iter,
              tol=p.tol, n_inits=p.n_inits if objective in ("ExpGain", "L3") else 1,
              random_state=seed)
    kw.update(over)
    return ConditionalRanker(objective, delta, **kw)


def select_by_map(ranker, train, vali, grid, prefer):
    """Validation MAP (binary relevance: LETOR's MAP counts label > 0 as relevant, the same
    ranking of candidates as the paper's AP); ties: the earlier preferred value.  Returns the
    selection and the seconds it took."""
    t0 = time.perf_counter()
    s = select(ranker, train, vali, grid, criterion="MAP", prefer=prefer, version=3)
    return s, time.perf_counter() - t0


def fit_method(name: str, splits: dict, p: FoldParams, seed: int,
               sample_cache: SampleCache | None = None):
    """Figure 3's method ``name`` on the fold, its parameter chosen by validation MAP;
    ``sample_cache``: shared by the conditional models of the fold (one sample Ŷ)."""
    train, vali = splits["train"], splits["vali"]
    if name == "RankSVM":
        return select_by_map(RankSVM(), binary(train), vali, {"C": p.ranksvm_C}, ("C",))
    if name == "Rankboost":
        return select_by_map(RankBoost(), train, vali, {"n_rounds": p.rankboost_rounds},
                             ("n_rounds",))
    if name == "SVMmap":
        return select_by_map(SVMMAP(), train, vali, {"C": p.svmmap_C}, ("C",))
    obj, delta = next((o, d) for o, d in PROPOSED if method_name(o, d) == name)
    return select_by_map(conditional(obj, delta, p, seed, sample_cache=sample_cache), train, vali,
                         {"C": p.C}, ("C",))
