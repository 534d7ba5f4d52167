"""stevens2010 on the RCV1 stand-in (§8.4, Figures 16–18 and the sparsity claims of the text):
per-topic Domination Rank with feature selection (Alg. 7) on 10 % of the negatives, and PAMIR,
on the MULAN RCV1-v2 subsets (LYRL2004 tf-idf vectors, 101 topics).

Data: the five subsets pooled, exact duplicate documents (same vector and topics) kept once,
then split at random (``split_seed``) 50 / 25 / 25 % into training, validation and test, as
the thesis split Reuters-2000 (line 788).  Topics: those with a document in each split.
Parameters chosen as the thesis did (lines 790–794): on a random subset of 7 topics, the
(regulariser, λ, α) of Domination Rank and the C of PAMIR with the best mean validation AP;
then one model per topic, evaluated on the test split.

Replicates (Figure 16 and the text's claims declare 5): every method here has training
randomness (Domination Rank's negatives drawn per topic, PAMIR's random triplets), so a
replicate r > 0 (its own seed, from the run's identity) reruns the choice of parameters and
every topic on the same split; Figure 17's single-topic study (no published numbers, one run)
is computed in replicate 0 only.

Parts (``REUTERS_SPLIT`` in ``__init__``): the run of a replicate is split into independent
runs by its parameters — Domination Rank (``"dr"``: its choice of parameters, every topic,
Figure 17) and each PAMIR model (``"pamir_runs"``: indices into ``pamir_iterations``, each
part choosing C on the CV topics as the unsplit run does) — with the seed of the unsplit run
and the same sub-streams (a PAMIR model's is its index among the iteration counts), so every
model is the unsplit run's.  The values that compare methods across parts (the topics where
DR beats PAMIR, DR's non-zero weights relative to PAMIR's) are computed when the parts'
outputs are gathered (:func:`.pooled.reuters_comparisons`).  PAMIR-100M is split further by
topics (``pamir_block`` [k, K], :func:`topic_blocks`: contiguous blocks with equal numbers of
training positives): each part replays the model's whole random stream and applies the updates
of its block's topics (:func:`repro.rankers.pamir.pamir_models`, ``models=``), so every topic's
model is the joint run's; its Figure 16 means carry ``query_block`` and are pooled over the
blocks by the assembly (:mod:`repro.evidence.query_blocks`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ...data.multilabel import load_rcv1_subset
from ...evidence import Evidence
from ...rankers.column_access import ColumnData
from ...rankers.domination import DominationProblem
from ...rankers.pamir import pamir_models
from ...spec.params import StudyParams, study
from .corel import _short
from .keywords import configs, density, loss_on, query_measures
from .names import BIGRAMS, FEATURE_SELECTION, METRICS16


def rcv1_splits(data_dir, split_seed: int, subsets=(1, 2, 3, 4, 5)) -> dict:
    parts = [load_rcv1_subset(s, data_dir) for s in subsets]
    X = sp.vstack([p.X for p in parts]).tocsr()
    Y = sp.vstack([p.Y for p in parts]).tocsr()
    keys = {}
    keep = []
    for i in range(X.shape[0]):
        a, b = X.indptr[i], X.indptr[i + 1]
        c, e = Y.indptr[i], Y.indptr[i + 1]
        k = (X.indices[a:b].tobytes(), X.data[a:b].tobytes(), Y.indices[c:e].tobytes())
        if k not in keys:
            keys[k] = i
            keep.append(i)
    keep = np.asarray(keep)
    X, Y = X[keep], Y[keep].toarray() != 0
    perm = np.random.default_rng(split_seed).permutation(X.shape[0])
    n = X.shape[0]
    cut1, cut2 = n // 2, n // 2 + n // 4
    idx = {"train": np.sort(perm[:cut1]), "validation": np.sort(perm[cut1:cut2]),
           "test": np.sort(perm[cut2:])}
    Xs = {k: X[v] for k, v in idx.items()}
    Ys = {k: Y[v] for k, v in idx.items()}
    ok = np.all([Ys[k].sum(axis=0) > 0 for k in Ys], axis=0)
    topics = np.flatnonzero(ok)
    freq = Ys["train"][:, topics].sum(axis=0)
    return {"X": Xs, "Y": Ys, "topics": topics, "names": parts[0].label_names,
            "train_frequency": freq, "n_docs": n, "n_duplicates": int(sum(p.n_samples
                                                                          for p in parts) - n)}


def _eval(w, X, Y, t) -> dict:
    m = query_measures(X["test"] @ w, Y["test"][:, t])
    m["weight density"] = density(w)
    return m


@dataclass(frozen=True)
class ReutersParams(StudyParams):
    """RCV1 (the ``subsets`` of MULAN's split, split by ``split_seed``): Domination Rank's
    (reg, λ, α) chosen on ``cv_topics`` topics (``iterations``, ``tol``, a ``negative_fraction``
    of the negatives sampled), Figure 17 on topic ``single_topic`` over ``single_lambdas``;
    PAMIR at each of ``pamir_iterations`` (the indices ``pamir_runs``; None: all) with C
    among ``pamir_C``.
    A split run's parts: ``dr`` false leaves Domination Rank to another part;
    ``pamir_block`` [k, K] fits the topics of block k of K only; ``max_topics`` (a quick
    run's) keeps the first topics."""
    split_seed: int
    subsets: list[int]
    cv_topics: int
    regularisers: list[str]
    lambdas: list[float]
    alphas: list[float]
    iterations: int
    tol: float
    negative_fraction: float
    single_topic: int
    single_lambdas: list[float]
    pamir_iterations: list[int]
    pamir_C: list[float]
    pamir_runs: list[int] | None = None
    dr: bool = True
    pamir_block: list[int] | None = None
    max_topics: int | None = None


@study(ReutersParams)
def task_reuters(ctx) -> dict:
    """Domination Rank (unless ``dr`` is false) and the PAMIR models of ``pamir_runs`` (default
    all) on every topic (of the first ``max_topics``, if given); Figure 17 with Domination Rank in
    replicate 0."""
    p = ReutersParams.of(ctx)
    dr = p.dr
    data = rcv1_splits(ctx.data_dir, p.split_seed, tuple(p.subsets))
    X, Y, topics, names = data["X"], data["Y"], data["topics"], data["names"]
    if p.max_topics:
        topics = topics[:int(p.max_topics)]
    cols = ColumnData.from_matrix(X["train"]) if dr else None    # Domination Rank's layout
    cv = np.sort(np.random.default_rng(p.split_seed + 1).choice(
        topics, min(int(p.cv_topics), topics.size), replace=False))
    base = {"tol": p.tol, "max_iter": int(p.iterations)}
    problems = {}

    def problem(t):
        if t not in problems:
            problems[t] = DominationProblem(cols, Y["train"][:, t] * 1.0,
                                            sample_negatives=p.negative_fraction,
                                            seed=ctx.rng(1000 + int(t)))
        return problems[t]

    per_topic = {names[t]: {} for t in topics}
    cv_scores, chosen, single = [], None, None
    if dr:
        # parameters of Domination Rank: mean validation AP over the CV topics; the fits of
        # the best configuration so far are kept (the first best, as max() picks it): a solve
        # is a function of its problem and arguments, so they are the CV topics' models below
        kept = None
        for cfg in configs(p.regularisers, p.lambdas, p.alphas):
            aps, fits = [], {}
            for t in cv:
                res = fits[t] = problem(t).solve(cfg["lam"], cfg["reg"],
                                                 induction=cfg["induction"], **base)
                aps.append(query_measures(X["validation"] @ res.w, Y["validation"][:, t])["AP"])
            cv_scores.append({**cfg, "validation_AP": float(np.mean(aps))})
            if kept is None or cv_scores[-1]["validation_AP"] > kept[0]["validation_AP"]:
                kept = (cv_scores[-1], fits)
        chosen = kept[0]                     # max(cv_scores, key=validation AP)
        ctx.log(f"rcv1: chosen {chosen}")
        # one model per topic
        for t in topics:
            res = kept[1].pop(t, None) or problem(t).solve(
                chosen["lam"], chosen["reg"], induction=chosen["induction"], **base)
            per_topic[names[t]][FEATURE_SELECTION] = {**_eval(res.w, X, Y, t),
                                                      "iterations": res.n_iter,
                                                      "rounds": res.rounds,
                                                      "status": res.status}
            if t not in cv:
                problems.pop(t, None)          # keep memory bounded: one problem at a time
        single = (_single_topic(ctx, X, Y, topics, names, cols, chosen, p, base)
                  if ctx.spec.repeat == 0 else None)
    # PAMIR: C on the CV topics (iterations scaled to their share), then all topics jointly
    # (a part with ``pamir_block`` [k, K] applies the updates of block k's topics only)
    freq_all = np.asarray(data["train_frequency"]).ravel()
    block = p.pamir_block
    fitted = (topic_blocks(freq_all[:topics.size], int(block[1]))[int(block[0])]
              if block else np.arange(topics.size))
    pam = _pamir(ctx, X, Y, topics, cv, p, fitted)
    for name, r in pam.items():
        for i in fitted:
            t = topics[i]
            per_topic[names[t]][name] = _eval(r["W"][i], X, Y, t)
    freq = {names[t]: int(f) for t, f in zip(data["topics"], data["train_frequency"])}
    out = {"topics": [names[t] for t in topics], "cv_topics": [names[t] for t in cv],
           "cv_scores": cv_scores, "chosen": chosen, "per_topic": per_topic,
           "pamir": {k: {"C": v["C"], "validation_mean_AP": v["validation_mean_AP"],
                         "iterations": v["iterations"]} for k, v in pam.items()},
           "train_frequency": freq, "single": single,
           "n_docs": data["n_docs"], "n_duplicates": data["n_duplicates"],
           "pamir_block": [int(b) for b in block] if block else None}
    return _evidence(out).output()


def topic_blocks(freq, n_blocks: int) -> list[np.ndarray]:
    """``n_blocks`` contiguous blocks of the topics (positions), each with about the same number
    of training positives (a topic goes to the block its cumulative midpoint falls in): the
    parts of a PAMIR run split by topics do about equal work, and concatenated in block order
    they are the topics in order."""
    freq = np.asarray(freq, dtype=np.float64).ravel()
    if n_blocks < 1:
        raise ValueError(f"pamir_block: the number of blocks must be ≥ 1, got {n_blocks}")
    mid = np.cumsum(freq) - freq / 2
    which = np.minimum((n_blocks * mid / max(freq.sum(), 1.0)).astype(np.int64), n_blocks - 1)
    return [np.flatnonzero(which == k) for k in range(n_blocks)]


def _pamir(ctx, X, Y, topics, cv, p, fitted) -> dict:
    """The PAMIR models of ``p.pamir_runs`` (indices into ``p.pamir_iterations``; None: all;
    none: nothing is fitted), C chosen on the CV topics first; of the topics, those at the
    positions ``fitted`` are fitted (the random stream is that of all topics: each model is the
    joint run's)."""
    runs = range(len(p.pamir_iterations)) if p.pamir_runs is None else p.pamir_runs
    if not len(runs):
        return {}
    res = {}
    share = len(cv) / max(1, len(topics))
    best = None
    for j, C in enumerate(p.pamir_C):
        n_cv = max(1, int(round(int(p.pamir_iterations[0]) * share)))
        models = pamir_models(X["train"], Y["train"][:, cv], n_cv, float(C),
                              seed=ctx.rng(10 + j))
        S = models.scores(X["validation"])
        ap = float(np.mean([query_measures(S[:, i], Y["validation"][:, t])["AP"]
                            for i, t in enumerate(cv)]))
        if best is None or ap > best[0]:
            best = (ap, float(C))
    for k in runs:
        n_iter = p.pamir_iterations[int(k)]
        models = pamir_models(X["train"], Y["train"][:, topics], int(n_iter), best[1],
                              seed=ctx.rng(50 + int(k)), models=fitted)
        res[f"PAMIR-{_short(n_iter)}"] = {"C": best[1], "validation_mean_AP": best[0],
                                          "iterations": int(n_iter), "W": models.W}
        ctx.log(f"rcv1 PAMIR {n_iter} iterations, C = {best[1]}")
    return res


def _single_topic(ctx, X, Y, topics, names, cols, chosen, p, base) -> dict:
    """Figure 17: the topic numbered like the thesis's query 77 (MULAN's Class77, or the
    nearest topic index that is in the topic list): test AP, P@10 and loss against λ (both
    regularisers, the chosen α), and the course of training at the λ with the best test AP."""
    want = int(p.single_topic) - 1
    t = int(topics[np.argmin(np.abs(topics - want))])
    prob = DominationProblem(cols, Y["train"][:, t] * 1.0,
                             sample_negatives=p.negative_fraction, seed=ctx.rng(1000 + t))
    test_loss = loss_on(X["test"], Y["test"][:, t])
    sweep = []
    for reg in p.regularisers:
        for lam in p.single_lambdas:
            res = prob.solve(lam, reg, induction=chosen["induction"], **base)
            m = _eval(res.w, X, Y, t)
            sweep.append({"reg": reg, "lam": float(lam), **m, "iterations": res.n_iter,
                          "test_loss": test_loss(res.w)})
    best = max(sweep, key=lambda r: (r["AP"], r["lam"]))
    course = []

    def watch(row):
        if "w" in row:
            w = row["w"]
            course.append({"iterations": row["n_iter"], **_eval(w, X, Y, t),
                           "test_loss": test_loss(w)})
    prob.solve(best["lam"], best["reg"], induction=chosen["induction"], callback=watch,
               keep_history=False, **base)
    return {"topic": names[t], "index": t + 1, "sweep": sweep, "best": best, "course": course}


def _evidence(out) -> Evidence:
    """Figure 16's means over the topics (with their per-topic tables) of the methods this run
    fitted, the parameters chosen, Figure 17's single topic and the sparsity claim of each
    method (Domination Rank's and PAMIR-10M's zero weights); the values that compare methods
    (Figure 18's count, DR's non-zero weights relative to PAMIR's) are
    :func:`.pooled.reuters_comparisons`'."""
    ev = Evidence(**out)
    topics = list(out["per_topic"])
    # the PAMIR models of the run too: a part whose block of topics is empty still returns
    # its (empty) block of each mean, so that the blocks pool
    methods = list(dict.fromkeys([*(m for r in out["per_topic"].values() for m in r),
                                  *out["pamir"]]))
    block = out.get("pamir_block")
    means = {}
    for m in methods:
        fitted = [t for t in topics if m in out["per_topic"][t]]
        part = {"query_block": block} if block and m.startswith("PAMIR") else {}
        for metric in METRICS16:
            vals = [out["per_topic"][t][m][metric] for t in fitted]
            v = float(np.mean(vals)) if vals else float("nan")
            means[(m, metric)] = v
            ev.per_query(m, metric, fitted, vals, value=v, n_topics=len(topics),
                         figure="figure16", **part)
    if out["chosen"] is not None:             # Domination Rank ran here
        _dr_values(ev, out, means[(FEATURE_SELECTION, "weight density")])
    if ("PAMIR-10M", "weight density") in means and not block:
        pm = means[("PAMIR-10M", "weight density")]
        ev.value("PAMIR", "percent zero weights", 100 * (1 - pm), claim=True,
                 shown=f"{100 * (1 - pm):.1f}%", iterations="10M")
    return ev


def _dr_values(ev: Evidence, out: dict, dr: float) -> None:
    """Domination Rank's values besides its means: the bigram rows no stand-in has, its zero
    weights (mean density ``dr``), the parameters chosen and Figure 17's best λ."""
    for m in ("PAMIR-1M", FEATURE_SELECTION):
        for metric in ("AP", "P@10"):
            ev.value(m, metric, None, dataset=BIGRAMS, figure="figure16",
                     why="no stand-in: the 4M bigram counts need the raw Reuters-2000 text")
    ev.value(FEATURE_SELECTION, "percent zero weights", 100 * (1 - dr), claim=True,
             shown=f"{100 * (1 - dr):.2f}%")
    ev.value(FEATURE_SELECTION, "λ chosen on the CV topics", out["chosen"]["lam"],
             figure="figure16")
    ev.value(FEATURE_SELECTION, "regulariser chosen (1 = ℓ1, 2 = ℓ2²)",
             1 if out["chosen"]["reg"] == "l1" else 2, figure="figure16")
    ev.value(FEATURE_SELECTION, "α chosen (features per round)", out["chosen"]["induction"],
             figure="figure16")
    single = out["single"]
    if single is not None:
        ev.value(FEATURE_SELECTION, f"λ with the best test AP (topic {single['topic']})",
                 single["best"]["lam"], figure="figure17")
        ev.value(FEATURE_SELECTION, f"best test AP (topic {single['topic']})",
                 single["best"]["AP"], figure="figure17")
