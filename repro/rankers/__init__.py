"""Rankers usable as a library: ``fit(X, y, qid)`` / ``predict(X)`` (see ``base``).

* :class:`RankRLS`, :class:`GreedyRankRLS` — Pahikkala et al. (2010);
* :class:`RankSVM` (L2-loss linear RankSVM by TRON, Lee & Lin 2014) and
  :class:`CuttingPlaneRankSVM` (1-slack L1-loss, TreeRankSVM-style) — baselines for the others;
* :class:`DORM` — Le & Smola (2007), with the baselines :class:`ROCAreaSVM`,
  :class:`PrecisionAtKSVM` (Joachims 2005), :class:`LinearSVM` and :class:`SingleFeature`.
"""
from .base import Ranker, group_by_query
from .cutting_plane import CuttingPlaneRankSVM
from .rankrls import GreedyRankRLS, RankRLS
from .dorm import DORM
from .linear_svm import LinearSVM
from .ranksvm import RankSVM
from .single_feature import SingleFeature
from .svmperf import PrecisionAtKSVM, ROCAreaSVM

__all__ = ["Ranker", "group_by_query", "RankRLS", "GreedyRankRLS", "RankSVM",
           "CuttingPlaneRankSVM", "DORM", "ROCAreaSVM", "PrecisionAtKSVM", "LinearSVM",
           "SingleFeature"]
