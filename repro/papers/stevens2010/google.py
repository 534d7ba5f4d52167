"""stevens2010's Google-image studies (§8.3, Figures 9 and 13–15) on the Corel5k stand-in:
keywords play the queries.

Figure 9: ten keywords; the official 4,500 training images split evenly (seeded) into training
and validation halves; Domination Rank with feature selection (Alg. 7) and sampled negatives
for every λ of a log grid, ℓ1 and ℓ2²; validation domination loss (per positive) and AP against
λ, averaged over the ten keywords; λ and the regulariser chosen by the minimum validation loss,
as the thesis did (line 688).  Figures 13–15: one of the ten keywords (the one with the median
number of training positives) on the official 500 test images: test loss and AP against λ
(Figure 13), weight density and iterations to convergence against λ (Figure 14), and the
course of training at the λ with the best test AP (Figure 15).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...data.multilabel import load_corel5k
from ...evidence import Evidence
from ...rankers.column_access import ColumnData
from ...rankers.domination import DominationProblem
from ...spec.params import StudyParams, study
from .keywords import density, domination_loss, lambda_grid, query_measures
from .names import FEATURE_SELECTION as METHOD


def _splits(data_dir, split_seed: int, min_pos: int):
    tr, te = load_corel5k("train", data_dir), load_corel5k("test", data_dir)
    perm = np.random.default_rng(split_seed).permutation(tr.n_samples)
    half = tr.n_samples // 2
    a, b = np.sort(perm[:half]), np.sort(perm[half:])
    X = {"train": tr.X[a], "validation": tr.X[b], "test": te.X}
    Y = {"train": tr.Y[a].toarray() != 0, "validation": tr.Y[b].toarray() != 0,
         "test": te.Y.toarray() != 0}
    ok = ((Y["train"].sum(0) >= min_pos) & (Y["validation"].sum(0) >= min_pos)
          & (Y["test"].sum(0) >= 3))
    return X, Y, np.flatnonzero(ok), tr.label_names


@dataclass(frozen=True)
class GoogleParams(StudyParams):
    """The stand-in of the Google images study: ``n_queries`` keywords (drawn with
    ``split_seed`` + 1 among those with ``min_positives`` positives in training and validation),
    λ on the log grid ``lambda_exponents`` / ``lambda_step`` for each of ``regularisers``,
    feature induction ``alpha``, a ``negative_fraction`` of the negatives sampled,
    ``iterations_per_feature`` × d iterations, ``tol``."""
    split_seed: int
    n_queries: int
    min_positives: int
    regularisers: list[str]
    lambda_exponents: list[float]
    lambda_step: float
    alpha: float
    negative_fraction: float
    iterations_per_feature: int
    tol: float


@study(GoogleParams)
def task_google(ctx) -> dict:
    p = GoogleParams.of(ctx)
    X, Y, eligible, names = _splits(ctx.data_dir, p.split_seed, p.min_positives)
    pick = np.random.default_rng(p.split_seed + 1).choice(eligible, p.n_queries,
                                                             replace=False)
    pick = np.sort(pick)
    cols = ColumnData.from_matrix(X["train"])
    d = cols.n_features
    fit = {"tol": p.tol, "max_iter": int(p.iterations_per_feature) * d,
           "induction": p.alpha}
    lams = lambda_grid(p)
    npos = Y["train"][:, pick].sum(axis=0)
    single = int(pick[np.argsort(npos, kind="stable")[len(pick) // 2]])
    rows = []
    for q in pick:
        problem = DominationProblem(cols, Y["train"][:, q] * 1.0,
                                    sample_negatives=p.negative_fraction,
                                    seed=ctx.rng(100 + int(q)))
        for reg in p.regularisers:
            for lam in lams:
                res = problem.solve(lam, reg, **fit)
                row = {"keyword": names[q], "index": int(q), "reg": reg, "lam": lam,
                       "validation_loss": domination_loss(X["validation"], Y["validation"][:, q],
                                                          res.w),
                       "validation_AP": query_measures(X["validation"] @ res.w,
                                                       Y["validation"][:, q])["AP"],
                       "density": density(res.w), "iterations": res.n_iter,
                       "status": res.status, "rounds": res.rounds}
                if q == single:
                    row["test_loss"] = domination_loss(X["test"], Y["test"][:, q], res.w)
                    row["test_AP"] = query_measures(X["test"] @ res.w, Y["test"][:, q])["AP"]
                rows.append(row)
        ctx.log(f"google stand-in: keyword {names[q]} done")
    # Figure 9: averages over the keywords; the choice by minimum validation loss
    curves = {}
    for reg in p.regularisers:
        for lam in lams:
            sel = [r for r in rows if r["reg"] == reg and r["lam"] == lam]
            curves.setdefault(reg, []).append({
                "lam": lam, "validation_loss": float(np.mean([r["validation_loss"] for r in sel])),
                "validation_AP": float(np.mean([r["validation_AP"] for r in sel]))})
    chosen = min(((reg, c) for reg in curves for c in curves[reg]),
                 key=lambda t: (t[1]["validation_loss"], -t[1]["lam"]))
    # Figures 13-15: the single keyword; training course at its best test AP
    one = [r for r in rows if r["index"] == single]
    best = max(one, key=lambda r: (r["test_AP"], r["lam"]))
    course = _course(cols, X, Y, single, best, p, fit, ctx)
    ev = Evidence(keywords=[names[q] for q in pick], single=names[single], rows=rows,
                  curves=curves, chosen={"reg": chosen[0], **chosen[1]},
                  best_single={k: best[k] for k in ("reg", "lam", "test_AP", "test_loss",
                                                    "density", "iterations")},
                  course=course)
    at = [r for r in rows if r["reg"] == chosen[0] and r["lam"] == chosen[1]["lam"]]
    _records(ev, chosen, best, course, names[single], at)
    return ev.output()


def _course(cols, X, Y, q, best, p, fit, ctx) -> list[dict]:
    """Test loss, AP and weight density after every sweep (and round) of the training at
    the best test AP (Figure 15)."""
    problem = DominationProblem(cols, Y["train"][:, q] * 1.0,
                                sample_negatives=p.negative_fraction,
                                seed=ctx.rng(100 + int(q)))
    course = []

    def watch(row):
        if "w" not in row:
            return
        w = row["w"]
        course.append({"iterations": row["n_iter"], "train_objective": row["f"],
                       "test_loss": domination_loss(X["test"], Y["test"][:, q], w),
                       "test_AP": query_measures(X["test"] @ w, Y["test"][:, q])["AP"],
                       "density": density(w)})
    problem.solve(best["lam"], best["reg"], callback=watch, keep_history=False, **fit)
    return course


def _records(ev: Evidence, chosen, best, course, keyword, at) -> None:
    """Figure 9's choice (its validation means with the ten keywords' values, ``at`` the rows
    at the chosen λ), and the single keyword's values (Figures 13–15)."""
    reg, c = chosen
    shown = "ℓ1" if reg == "l1" else "ℓ2²"
    kws = [r["keyword"] for r in at]
    ev.value(METHOD, "λ chosen by validation loss", c["lam"], figure="figure9",
             shown=f"{c['lam']:g} ({shown})")
    ev.value(METHOD, "regulariser chosen by validation loss (1 = ℓ1, 2 = ℓ2²)",
             1 if reg == "l1" else 2, figure="figure9")
    ev.per_query(METHOD, "validation domination loss at the chosen λ", kws,
                 [r["validation_loss"] for r in at], value=c["validation_loss"],
                 figure="figure9")
    ev.per_query(METHOD, "validation AP at the chosen λ", kws,
                 [r["validation_AP"] for r in at], value=c["validation_AP"], figure="figure9")
    ev.value(METHOD, f"best test AP (keyword {keyword})", best["test_AP"], figure="figure13",
             lam=best["lam"], reg=best["reg"])
    ev.value(METHOD, "test domination loss at the best AP", best["test_loss"],
             figure="figure13")
    ev.value(METHOD, "weight density at the best AP", best["density"], figure="figure14")
    ev.value(METHOD, "iterations to convergence at the best AP", best["iterations"],
             figure="figure14", status=best["status"])
    ev.value(METHOD, "iterations of the training course",
             course[-1]["iterations"] if course else None, figure="figure15")
    ev.value(METHOD, "test AP at the end of training",
             course[-1]["test_AP"] if course else None, figure="figure15")
