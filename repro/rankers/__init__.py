"""Rankers usable as a library: ``fit(X, y, qid)`` / ``predict(X)`` (see ``base``).

* :class:`RankRLS`, :class:`GreedyRankRLS` — Pahikkala et al. (2010);
* :class:`RankSVM` (L2-loss linear RankSVM by TRON, Lee & Lin 2014) and
  :class:`CuttingPlaneRankSVM` (1-slack L1-loss, TreeRankSVM-style) — baselines for the others;
* :class:`ConditionalRanker` — MLE, ExpGain, L₃, ConvexLoss (Dubey et al. 2009), with its
  baselines :class:`RankBoost` (Freund et al. 2003) and :class:`SVMMAP` (Yue et al. 2007);
* :class:`DominationRank` — Stevens (2010), coordinate descent on the domination loss
  (``domination``; per-keyword models and PAMIR's baseline in ``domination``/``pamir``);
* :class:`DORM` — Le & Smola (2007), with the baselines :class:`ROCAreaSVM`,
  :class:`PrecisionAtKSVM` (Joachims 2005), :class:`LinearSVM` and :class:`SingleFeature`;
* :class:`GainRegression` — least squares on the NDCG gains, a reference scorer of our own
  (the computed context of lesmola2007's Table 1).
"""
from .base import Ranker, group_by_query
from .conditional import ConditionalRanker
from .cutting_plane import CuttingPlaneRankSVM
from .domination import DominationRank
from .rankboost import RankBoost
from .rankrls import GreedyRankRLS, RankRLS
from .dorm import DORM
from .gain_regression import GainRegression
from .linear_svm import LinearSVM
from .ranksvm import RankSVM
from .single_feature import SingleFeature
from .svmmap import SVMMAP
from .svmperf import PrecisionAtKSVM, ROCAreaSVM

__all__ = ["Ranker", "group_by_query", "RankRLS", "GreedyRankRLS", "RankSVM",
           "CuttingPlaneRankSVM", "ConditionalRanker", "RankBoost", "SVMMAP",
           "DominationRank", "DORM", "ROCAreaSVM", "PrecisionAtKSVM", "LinearSVM",
           "SingleFeature", "GainRegression"]
