"""The §5.1 protocol of Dubey et al. (2009) on one fold: binary relevance, optional cleaning,
the measures "as the paper defines them" (Sec. 1.6) beside the official LETOR 3.0 script, with
ties in file order and broken at random, and the rankers with their validation grids.

* Relevance is binary: good = label ≥ 1 (Sec. 1.1; OHSUMED's 1 and 2 are good).
* Cleaning (Sec. 5.1.1, "removing documents of a particular query that has conflicting
  relevance labels, and removing queries that have no relevant document"): within a query,
  documents whose feature vectors are identical but whose binary labels differ are all removed;
  then queries without a good document are removed.  Applied to the splits named by the
  ``clean`` option ("none", "train", "train+vali", "all").
* Paper measures (Sec. 1.6): AP = (1/n⁺) Σ_i (1 + i)/(1 + r_i), NDCG@k with binary gain and
  D(0) = D(1) = 1, D(i) = 1/log₂(1 + i) — averaged over the queries that have a good document
  (AP is undefined without one).  Official measures: :func:`repro.protocol.measures` with the
  LETOR 3.0 conventions (graded gain 2^label − 1, every query counts, AP = 0 without a relevant
  document).  Both rank by score with ties in file order (the official script's stable sort);
  :func:`measure_all` adds each measure with ties broken uniformly at random, averaged over
  a few seeded orders.
"""
from __future__ import annotations

import numpy as np

from ...data.queries import QueryData
from ...metrics import evaluate
from ...rankers import deltas

METRICS = ("MAP", "NDCG@1", "NDCG@5", "NDCG@10")
THRESHOLD = 1.0
CLEAN_MODES = {"none": (), "train": ("train",), "train+vali": ("train", "vali"),
               "all": ("train", "vali", "test")}


def subset_docs(data: QueryData, keep: np.ndarray, source: str) -> QueryData:
    """The documents ``keep`` (boolean, one per document) of ``data``; queries left empty are
    dropped."""
    keep = np.asarray(keep, dtype=bool)
    counts = np.add.reduceat(keep.astype(np.int64), data.query_ptr[:-1])
    qs = np.flatnonzero(counts > 0)
    ptr = np.concatenate([[0], np.cumsum(counts[qs])]).astype(np.int64)
    return QueryData(np.ascontiguousarray(data.X[keep]), data.y[keep], ptr, data.qids[qs],
                     None if data.docids is None else data.docids[keep], source,
                     None if data.line_no is None else data.line_no[keep])


def clean(data: QueryData, threshold: float = THRESHOLD) -> tuple[QueryData, dict]:
    """Sec. 5.1.1 cleaning; returns the cleaned data and what was removed."""
    good = data.y >= threshold
    keep = np.ones(data.n_docs, dtype=bool)
    groups = 0
    for q in range(data.n_queries):
        sl = data.query(q)
        Xq = np.ascontiguousarray(data.X[sl])
        _, inv, cnt = np.unique(Xq, axis=0, return_inverse=True, return_counts=True)
        inv = inv.ravel()
        for gid in np.flatnonzero(cnt > 1):
            members = np.flatnonzero(inv == gid)
            labels = good[sl][members]
            if labels.any() and not labels.all():
                keep[sl.start + members] = False
                groups += 1
    conflicts = int((~keep).sum())
    has_good = np.add.reduceat((good & keep).astype(np.int64), data.query_ptr[:-1]) > 0
    no_good = int((~has_good).sum())
    keep &= np.repeat(has_good, data.query_sizes)
    out = subset_docs(data, keep, data.source + " (cleaned)")
    return out, {"conflict_groups": groups, "conflicting_documents": conflicts,
                 "queries_without_good": no_good, "documents": data.n_docs,
                 "queries": data.n_queries}


def paper_measures(data: QueryData, scores, rng: np.random.Generator | None = None,
                   threshold: float = THRESHOLD) -> dict[str, float]:
    """MAP and NDCG@1/5/10 as Sec. 1.6 defines them (queries with a good document)."""
    scores = np.asarray(scores, dtype=np.float64)
    ap, nd = [], {1: [], 5: [], 10: []}
    for q in range(data.n_queries):
        sl = data.query(q)
        good = data.y[sl] >= threshold
        if not good.any():
            continue
        r = deltas.ranks_from_scores(good, scores[sl], rng)[None, :]
        ap.append(deltas.ap_from_ranks(r)[0])
        for k in nd:
            nd[k].append(deltas.ndcg_from_ranks(r, k)[0])
    out = {"MAP": float(np.mean(ap))}
    out.update({f"NDCG@{k}": float(np.mean(v)) for k, v in nd.items()})
    return out


def official_measures(data: QueryData, scores, rng: np.random.Generator | None = None
                      ) -> dict[str, float]:
    """MAP and NDCG@1/5/10 by the LETOR 3.0 script's conventions; ``rng``: break ties at
    random (documents shuffled within queries before the script's stable sort)."""
    y, s = data.y, np.asarray(scores, dtype=np.float64)
    if rng is not None:
        perm = np.concatenate([lo + rng.permutation(hi - lo) for lo, hi in
                               zip(data.query_ptr[:-1], data.query_ptr[1:])])
        y, s = y[perm], s[perm]
    ev = evaluate(y, s, data.query_ptr, data.qids, version=3, max_k=10)
    return {"MAP": float(ev.map), **{f"NDCG@{k}": float(ev.avg_ndcg[k - 1]) for k in (1, 5, 10)}}


def measure_all(data: QueryData, scores, tie_seeds: int, seed: int) -> dict[str, dict]:
    """``{"paper": …, "paper random ties": …, "LETOR 3.0": …, "LETOR 3.0 random ties": …}``,
    random ties averaged over ``tie_seeds`` seeded orders."""
    out = {"paper": paper_measures(data, scores), "LETOR 3.0": official_measures(data, scores)}
    for name, fn in (("paper random ties", paper_measures),
                     ("LETOR 3.0 random ties", official_measures)):
        vals = [fn(data, scores, np.random.default_rng([seed, t])) for t in range(tie_seeds)]
        out[name] = {m: float(np.mean([v[m] for v in vals])) for m in METRICS}
    return out
