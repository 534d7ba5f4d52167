"""Per-query models on binary relevance (Corel keywords, RCV1 topics; §8.2–8.4): measures of one
query's ranking, Domination Rank fits chosen on a validation set, and PAMIR's measures.

Measures of one query (all documents of a split ranked by score, ties in document order as in
the LETOR scripts): AP (average precision; LETOR's per-query AP), P@10, domination error (eq. 1;
a positive tied with a negative counts as not dominating it, as in
:func:`repro.metrics.ranking.domination_error` — eq. 1's strict ">" would make w = 0 perfect),
all-pairs error (the fraction of positive–negative pairs in the wrong order, a tie counting ½:
the expected error of a random order among tied documents, 1 − AUC; sparse models on binary
features tie many documents at score 0), and the domination loss per dominating instance
(eq. 6 averaged over the positives).
"""
from __future__ import annotations

import numpy as np

from ...metrics import evaluate
from ...metrics.ranking import domination_error, pairwise_accuracy
from ...rankers.domination import DominationProblem


def lambda_grid(params) -> list[float]:
    """λ on the log grid 10^lo, 10^(lo+step), …, 10^hi of a study's parameters
    (``lambda_exponents`` = [lo, hi], ``lambda_step``; every λ sweep of the thesis's
    experiments here)."""
    lo, hi = params.lambda_exponents
    step = float(params.lambda_step)
    n = int(round((hi - lo) / step)) + 1
    return [float(10.0 ** (lo + i * step)) for i in range(n)]


def query_measures(scores: np.ndarray, rel: np.ndarray) -> dict[str, float]:
    """AP, P@10, domination error and all-pairs error of one query (binary ``rel``)."""
    y = np.asarray(rel, dtype=np.float64)
    s = np.asarray(scores, dtype=np.float64).ravel()
    qp = np.array([0, y.shape[0]], dtype=np.int64)
    ev = evaluate(y, s, qp, version=4, max_k=10)
    return {"AP": float(ev.ap[0]), "P@10": float(ev.precision[0, 9]),
            "domination error": float(domination_error(y, s, qp)[1]),
            "all-pairs error": 1.0 - float(pairwise_accuracy(y, s, qp, ties=0.5)[1])}


def domination_loss(X, rel: np.ndarray, w: np.ndarray) -> float:
    """Eq. 6 at ``w`` on the documents ``X`` with binary relevance ``rel``, per positive."""
    return loss_on(X, rel)(w)


def loss_on(X, rel: np.ndarray):
    """:func:`domination_loss` on fixed documents as a function of ``w``: the problem is built
    once (every call recomputes the whole cached state from ``w``, so a value does not
    depend on the calls before it)."""
    P = DominationProblem(X, np.asarray(rel, dtype=np.float64))

    def loss(w: np.ndarray) -> float:
        P.reset(w)
        return P.loss() / P.n_dominating
    return loss


def density(w: np.ndarray) -> float:
    """Fraction of non-zero weights ("weight density", "percent nonsparse")."""
    return float(np.count_nonzero(w)) / max(1, np.asarray(w).shape[0])


def configs(regs, lams, alphas=(None,)) -> list[dict]:
    return [{"reg": r, "lam": float(l), "induction": a} for r in regs for l in lams
            for a in alphas]


def fit_selected(cols, y_train, X_val, y_val, grid: list[dict], fit: dict,
                 sample: float = 1.0, seed=None) -> dict:
    """Domination Rank for one query: every configuration of ``grid`` (reg, λ, induction α)
    trained on ``cols``/``y_train`` with the options ``fit`` (tol, max_iter), the one with the
    best validation AP kept (ties: the earlier in grid order).  Negatives sampled once per
    query (``sample``, ``seed``), shared by every configuration."""
    problem = DominationProblem(cols, y_train, sample_negatives=sample, seed=seed)
    best = None
    for cfg in grid:
        res = problem.solve(cfg["lam"], cfg["reg"], induction=cfg["induction"], **fit)
        ap = query_measures(X_val @ res.w, y_val)["AP"]
        if best is None or ap > best[0]:
            best = (ap, cfg, res)
    ap, cfg, res = best
    return {"config": cfg, "validation_AP": ap, "w": res.w, "iterations": res.n_iter,
            "rounds": res.rounds, "status": res.status}
