"""Rankers usable as a library: ``fit(X, y, qid)`` / ``predict(X)`` (see ``base``)."""
from .base import Ranker, group_by_query
from .rankrls import GreedyRankRLS, RankRLS

__all__ = ["Ranker", "group_by_query", "RankRLS", "GreedyRankRLS"]
