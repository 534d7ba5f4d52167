"""Rankers usable as a library: ``fit(X, y, qid)`` / ``predict(X)`` (see ``base``).

* :class:`RankRLS`, :class:`GreedyRankRLS` — Pahikkala et al. (2010);
* :class:`RankSVM` (L2-loss linear RankSVM by TRON, Lee & Lin 2014) and
  :class:`CuttingPlaneRankSVM` (1-slack L1-loss, TreeRankSVM-style) — baselines for the others;
* :class:`DominationRank` — Stevens (2010), coordinate descent on the domination loss
  (``domination``; per-keyword models and PAMIR's baseline in ``domination``/``pamir``).
"""
from .base import Ranker, group_by_query
from .cutting_plane import CuttingPlaneRankSVM
from .domination import DominationRank
from .rankrls import GreedyRankRLS, RankRLS
from .ranksvm import RankSVM

__all__ = ["Ranker", "group_by_query", "RankRLS", "GreedyRankRLS", "RankSVM",
           "CuttingPlaneRankSVM", "DominationRank"]
