"""Ranking metrics.  ``letor_eval``: the official LETOR conventions (P@k, MAP, NDCG@k,
MeanNDCG); ``ranking``: pairwise accuracy/AUC, MRR, WTA, ERU, domination and all-pairs error,
the Yahoo challenge NDCG@10."""
from .letor_eval import LetorEval, evaluate, evaluate_data
from .ranking import (all_pairs_error, auc, domination_error, eru, mrr, pair_counts,
                      pairwise_accuracy, wta, yahoo_ndcg10)

__all__ = ["LetorEval", "evaluate", "evaluate_data",
           "all_pairs_error", "auc", "domination_error", "eru", "mrr", "pair_counts",
           "pairwise_accuracy", "wta", "yahoo_ndcg10"]
