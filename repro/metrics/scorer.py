"""LETOR measures by name for one qid per document, and scikit-learn scorers built on them.

``letor_measure(y, scores, "NDCG@10", qid=qid, version=4)`` groups documents by query (they
need not be contiguous; ties keep the input order within a query, as the official scripts
keep file order) and averages the named measure over queries with the official LETOR 3.0/4.0
conventions (:func:`repro.metrics.letor_eval.evaluate`).  Names: ``MAP``, ``MeanNDCG`` (4.0
only), ``P@k``, ``NDCG@k``.

``letor_scorer("MAP", version=4)`` is a scikit-learn scorer (``make_scorer``) that requests
``qid`` through metadata routing, for ``cross_val_score(..., scoring=letor_scorer("MAP"),
params={"qid": qid, "groups": qid})`` with routing enabled.  scikit-learn is imported only
when a scorer is made.
"""
from __future__ import annotations

import re

import numpy as np

from ..errors import DataError
from .letor_eval import evaluate

_AT = re.compile(r"^(P|NDCG)@(\d+)$")


def parse_measure(name: str) -> tuple[str, int]:
    """``("MAP", 0)``, ``("MeanNDCG", 0)``, ``("P", k)`` or ``("NDCG", k)``."""
    if name in ("MAP", "MeanNDCG"):
        return name, 0
    m = _AT.match(str(name))
    if not m or int(m.group(2)) < 1:
        raise DataError(f"measure {name!r}: expected MAP, MeanNDCG, P@k or NDCG@k (k ≥ 1)")
    return m.group(1), int(m.group(2))


def letor_measure(y, scores, measure: str = "NDCG@10", qid=None, query_ptr=None,
                  version: int = 4) -> float:
    """The named measure averaged over queries, given one ``qid`` per document or grouped
    documents with ``query_ptr`` offsets."""
    kind, k = parse_measure(measure)
    if kind == "MeanNDCG" and version != 4:
        raise DataError("measure 'MeanNDCG' exists only with the LETOR 4.0 conventions")
    y = np.asarray(y, dtype=np.float64)
    scores = np.asarray(scores, dtype=np.float64)
    if y.shape != scores.shape or y.ndim != 1:
        raise DataError(f"scores: expected {y.shape} (one per document), got {scores.shape}")
    if qid is None and query_ptr is None:
        raise DataError("letor_measure: give qid (one per document) or query_ptr")
    ev = evaluate(y, scores, query_ptr, version=version, max_k=max(k, 1), qid=qid)
    if kind == "MAP":
        return float(ev.map)
    if kind == "MeanNDCG":
        return float(ev.avg_mean_ndcg)
    return float((ev.avg_precision if kind == "P" else ev.avg_ndcg)[k - 1])


def _score_func(y_true, y_pred, qid=None, measure="NDCG@10", version=4):
    if qid is None:
        raise DataError("letor_scorer: qid is required; enable scikit-learn's metadata routing "
                        "(sklearn.set_config(enable_metadata_routing=True)) and pass qid")
    return letor_measure(y_true, y_pred, measure, qid=qid, version=version)


def letor_scorer(measure: str = "NDCG@10", version: int = 4):
    """A scikit-learn scorer of ``measure`` (LETOR ``version`` conventions) taking ``qid``."""
    parse_measure(measure)
    from sklearn.metrics import make_scorer
    scorer = make_scorer(_score_func, measure=measure, version=version)
    return scorer.set_score_request(qid=True)
