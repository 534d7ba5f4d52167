"""The Sec. 5.3 studies on one fold (Figures 4–8, ConvexLoss_NDCG): sample size |Ŷ|, restart
skew between Δ = 0 and Δ = 1, restarts from a handcrafted set with Pr ∝ exp(kΔ), the smear of
sampled Δ around three restart seeds, and wᵀφ against Δ along the first iterations."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...data.queries import QueryData
from ...evidence import Evidence
from ...rankers import deltas as _deltas
from ...rankers import swap_sampler as ss
from ...rankers.conditional import SampleCache, good_first
from .figure3 import table
from .names import (FIGURE4, FIGURE5, FIGURE6, FIGURE7, FIGURE8, SENS_METHOD, SENS_METRICS,
                    SMEAR_SEEDS, WDPHI, WPHI, k_label, sample_size_label, seed_label, skew_label)
from .protocol import THRESHOLD, conditional, paper_per_query, paper_average, select_by_map

if TYPE_CHECKING:
    from .fold import Dominance, FoldParams, Smear


def _sens_fit(splits, p, seed, **over) -> tuple[dict, dict]:
    """ConvexLoss_NDCG with C chosen on validation: its test MAP/NDCG@10, C and seconds; and
    the per-query values of the two measures."""
    sel, secs = select_by_map(conditional("ConvexLoss", "NDCG", p, seed, **over),
                              splits["train"], splits["vali"], {"C": p.C}, ("C",))
    pq = paper_per_query(splits["test"], sel.model.predict(splits["test"].X))
    m = paper_average(pq)
    return ({"MAP": m["MAP"], "NDCG@10": m["NDCG@10"], "C": sel.params["C"], "seconds": secs},
            {k: pq[k] for k in SENS_METRICS})


def _delta_of_orders(orders: np.ndarray, n_pos: int, n_neg: int, kind: str, k: int) -> np.ndarray:
    wins = np.stack([ss.order_wins(o, n_pos)[:n_pos] for o in orders])
    return _deltas.deltas(wins, n_neg, kind, k)


def smear(train: QueryData, s: Smear, walk_length: int, seed: int, k: int = 10) -> dict:
    """Figure 7: histograms of Δ (AUC, MAP, NDCG@k) over the states of walks restarted only
    from Δ = 0, only from the shifted ranking with Δ_NDCG nearest 0.5, or only from Δ = 1."""
    gf = good_first(train.X, train.y, train.query_ptr, THRESHOLD)
    bins = np.linspace(0.0, 1.0, int(s.bins) + 1)
    hist = {r: {kind: np.zeros(len(bins) - 1) for kind in _deltas.KINDS} for r in SMEAR_SEEDS}
    moments = {r: {kind: [] for kind in _deltas.KINDS} for r in SMEAR_SEEDS}
    rng = np.random.default_rng(seed)
    for q in range(gf.n_queries):
        p_, n_ = int(gf.n_pos[q]), int(gf.n_neg[q])
        shifted = ss.restart_set(p_, n_, 21, "NDCG", k)
        d = _delta_of_orders(shifted, p_, n_, "NDCG", k)
        mid = shifted[int(np.argmin(np.abs(d - 0.5)))]
        starts = dict(zip(SMEAR_SEEDS, (ss.best_order(p_, n_), mid, ss.worst_order(p_, n_))))
        for r, order in starts.items():
            w = ss.walks(p_, n_, order[None, :], [1.0], int(s.states), walk_length,
                         int(rng.integers(2**63)))
            for kind in _deltas.KINDS:
                dv = _deltas.deltas(w.wins[:, :p_], n_, kind, k)
                hist[r][kind] += np.histogram(dv, bins=bins)[0]
                moments[r][kind].append(dv)
    stats = {r: {kind: {"mean": float(np.mean(np.concatenate(v))),
                        "sd": float(np.std(np.concatenate(v)))} for kind, v in m.items()}
             for r, m in moments.items()}
    return {"bins": bins.tolist(), "hist": {r: {kd: h.tolist() for kd, h in v.items()}
                                            for r, v in hist.items()}, "stats": stats}


def trace_dominance(train: QueryData, p: FoldParams, s: Dominance, seed: int, C: float,
                    sample_cache=None) -> dict:
    """Figure 8: wᵀφ(x, y) for ``queries`` random training queries × ``rankings`` rankings
    spanning Δ (the shifted rankings of the restart set, Δ_NDCG spread over [0, 1]), along
    the first ``iterations`` L-BFGS iterations of ConvexLoss_NDCG (C chosen on validation),
    averaged over those iterations; also wᵀδφ_q(y) = wᵀφ(y_q) − wᵀφ(y).  ``sample_cache``:
    the fold's (the sample of the default-setting fit, reused)."""
    ws = []
    model = conditional("ConvexLoss", "NDCG", p, seed, C=C,
                        callback=lambda info: ws.append(info["w"]), sample_cache=sample_cache)
    model.fit_data(train)
    gf = good_first(train.X, train.y, train.query_ptr, THRESHOLD)
    rng = np.random.default_rng([seed, 8])
    qs = np.sort(rng.choice(gf.n_queries, min(int(s.queries), gf.n_queries), replace=False))
    iters = ws[1:int(s.iterations) + 1]           # ws[0] is the start, w = 0
    points = []
    for q in qs:
        p_, n_ = int(gf.n_pos[q]), int(gf.n_neg[q])
        lo, hi = gf.query_ptr[q], gf.query_ptr[q + 1]
        orders = ss.restart_set(p_, n_, int(s.rankings), "NDCG", p.ndcg_k)  # [0]: y_q
        d = _delta_of_orders(orders, p_, n_, "NDCG", p.ndcg_k)
        A = np.stack([ss.order_wins(o, p_) for o in orders]).astype(np.float64)
        A[:, :p_] = 2 * A[:, :p_] - n_                # φ_po coefficients of every document
        A[:, p_:] = 2 * A[:, p_:] - p_
        u = np.array([A @ (gf.X[lo:hi] @ w) for w in iters])       # iterations × rankings
        for j in range(len(orders)):
            points.append({"query": int(q), "delta": float(d[j]), "wphi": float(u[:, j].mean()),
                           "wdphi": float((u[:, 0] - u[:, j]).mean())})
    return {"C": C, "iterations": len(iters), "points": points}


def restart_set_fits(splits: dict, p: FoldParams, seed: int) -> dict:
    """Figure 6's fits: ConvexLoss_NDCG with restarts drawn from the handcrafted set with
    Pr ∝ exp(kΔ), for every k of the study."""
    s = p.sensitivity
    return {str(k): _sens_fit(splits, p, seed, restarts="set", restart_k=float(k),
                              n_restart_states=int(s.restart_states)) for k in s.ks}


def _tables(ev: Evidence, part: str, runs: dict, label, qids, ds: dict) -> dict:
    for x, (res, pq) in runs.items():
        for metric in SENS_METRICS:
            table(ev, label(x), metric, qids, pq[metric], res[metric], part=part, **ds)
    return {x: res for x, (res, _) in runs.items()}


def run_sensitivity(splits: dict, p: FoldParams, seed: int, log, ev: Evidence | None = None,
                    dataset: str = "", base: tuple[dict, dict] | None = None,
                    repeat: int = 0, sample_cache=None) -> dict:
    """Figures 4–8 on one fold (ConvexLoss_NDCG, Sec. 5.3); records and per-query tables into
    ``ev``.  ``base``: the ConvexLoss_NDCG result at the default sampler settings and its
    per-query values, when Figure 3 ran on this fold (reused).  A replicate ``repeat`` > 0
    (its own seed) runs Figures 6–8: Figure 6 has published numbers, Figures 7–8 are cheap
    and their claims are tested on fold statistics averaged over the replicates; Figures 4–5
    (no numbers; expensive) are replicate 0's, Figure 4 draws two samples per size itself.
    ``sample_cache``: the fold's (:class:`repro.rankers.conditional.SampleCache`): the
    default-setting sample, drawn once for the base fit and Figure 8."""
    s = p.sensitivity
    qids = np.asarray(splits["test"].qids).tolist()
    ds = {"dataset": dataset} if dataset == "MQ2008" else {}   # OHSUMED: the stand-in label
    ev = ev if ev is not None else Evidence()
    sample_cache = sample_cache if sample_cache is not None else SampleCache()
    base = base if base is not None else _sens_fit(splits, p, seed, sample_cache=sample_cache)
    out = {"base": base[0]}
    if repeat == 0:
        _sample_size_and_skew(splits, p, seed, log, ev, base, qids, ds, out)
    # Figure 6: restart set with Pr ∝ exp(kΔ)
    out[FIGURE6] = _tables(ev, FIGURE6, restart_set_fits(splits, p, seed), k_label, qids, ds)
    log("figure 6: " + ", ".join(f"k={k}: {v['MAP']:.4f}" for k, v in out[FIGURE6].items()))
    # Figure 7: Δ smear of walks from three restart seeds
    out[FIGURE7] = smear(splits["train"], s.smear, p.walk_length, seed, p.ndcg_k)
    for seed_name, kinds in out[FIGURE7]["stats"].items():
        for kind, st in kinds.items():
            ev.value(seed_label(seed_name), f"sd of Δ_{kind}", st["sd"], part=FIGURE7, **ds)
            ev.value(seed_label(seed_name), f"mean of Δ_{kind}", st["mean"], part=FIGURE7, **ds)
    # Figure 8: wᵀφ against Δ along the first iterations
    out[FIGURE8] = trace_dominance(splits["train"], p, s.dominance, seed, base[0]["C"],
                                   sample_cache)
    pts = out[FIGURE8]["points"]
    ev.value(SENS_METHOD, WPHI, float(np.median([abs(x["wphi"]) for x in pts])),
             part=FIGURE8, **ds)
    ev.value(SENS_METHOD, WDPHI, float(np.median([abs(x["wdphi"]) for x in pts])),
             part=FIGURE8, **ds)
    return out


def _sample_size_and_skew(splits, p, seed, log, ev, base, qids, ds, out) -> None:
    """Figures 4 and 5 into ``ev`` and ``out`` (replicate 0 only)."""
    s = p.sensitivity
    # Figure 4: |Ŷ|, each size with several sample seeds (the first is Figure 3's seed)
    fig4 = {}
    for size in s.sizes:
        reps = [base if size == p.sample_size and r == 0
                else _sens_fit(splits, p, seed + 7919 * r, sample_size=size)
                for r in range(int(s.sample_repeats))]
        fig4[str(size)] = [res for res, _ in reps]
        for metric in SENS_METRICS:
            vals = [res[metric] for res, _ in reps]
            table(ev, sample_size_label(size), metric, qids,
                  np.mean([pq[metric] for _, pq in reps], axis=0), float(np.mean(vals)),
                  part=FIGURE4, **ds)
            if len(vals) > 1:
                ev.value(sample_size_label(size), f"{metric} sd over samples",
                         float(np.std(vals, ddof=1)), part=FIGURE4, **ds)
        log(f"figure 4: |Ŷ| = {size}: MAP {np.mean([x['MAP'] for x in fig4[str(size)]]):.4f}")
    out["figure4"] = fig4
    # Figure 5: restart skew between Δ = 0 and Δ = 1
    fig5 = {str(skew): base if skew == p.restart_skew
            else _sens_fit(splits, p, seed, restart_skew=skew) for skew in s.skews}
    out[FIGURE5] = _tables(ev, FIGURE5, fig5, lambda x: skew_label(float(x)), qids, ds)
    log("figure 5: " + ", ".join(f"{k}: {v['MAP']:.4f}" for k, v in out[FIGURE5].items()))
