"""Ranking metrics.  ``family``: the one NDCG / AP / precision family, with named conventions
(:data:`CONVENTIONS`: the LETOR 3.0/4.0 and MSLR scripts, trec_eval, the GBDT libraries, each
paper's own); ``letor_eval``: the official LETOR arithmetic (P@k, MAP, NDCG@k, MeanNDCG) that
the family's LETOR conventions use; ``ranking``: pairwise accuracy/AUC, MRR, WTA, ERU,
domination and all-pairs error, the Yahoo challenge NDCG@10; ``scorer``: measures by name for
one qid per document and scikit-learn scorers (``letor_scorer``)."""
from .family import (CONVENTIONS, Convention, average_precision, dcg_at, discounts,
                     get_convention, ndcg, precision, script_mean)
from .letor_eval import LetorEval, evaluate, evaluate_data, group_documents
from .scorer import letor_measure, letor_scorer
from .ranking import (all_pairs_error, auc, domination_error, eru, mrr, pair_counts,
                      pairwise_accuracy, wta, yahoo_ndcg10)

__all__ = ["CONVENTIONS", "Convention", "average_precision", "dcg_at", "discounts",
           "get_convention", "ndcg", "precision", "script_mean",
           "LetorEval", "evaluate", "evaluate_data", "group_documents", "letor_measure",
           "letor_scorer",
           "all_pairs_error", "auc", "domination_error", "eru", "mrr", "pair_counts",
           "pairwise_accuracy", "wta", "yahoo_ndcg10"]
