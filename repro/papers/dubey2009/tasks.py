"""Tasks of dubey2009: one fold of one dataset (Figure 3's methods and the Sec. 5.3 sampling
studies, Figures 4–8), the claims of Sec. 5.2–5.3 and Figure 3's cells (custom aggregations),
the sampler throughput and the objective/sampler complexity sweeps."""
from __future__ import annotations

import time

import numpy as np

from ... import published as _published
from ...data.load import load_letor_fold
from ...data.queries import QueryData
from ...data.synthetic import make_queries
from ...experiment import record
from ...protocol import select
from ...rankers import RankSVM
from ...rankers import deltas as _deltas
from ...rankers import swap_sampler as ss
from ...rankers.conditional import (ConditionalObjective, ConditionalRanker, draw_sample,
                                    good_first)
from ...rankers.rankboost import RankBoost
from ...rankers.svmmap import SVMMAP
from ...timing import best_time, fit_exponent, scaling_sweep, single_thread_blas
from .protocol import CLEAN_MODES, METRICS, THRESHOLD, clean, measure_all, paper_measures

PROPOSED = (("MLE", "AUC"), ("ExpGain", "AUC"), ("ExpGain", "MAP"), ("ExpGain", "NDCG"),
            ("L3", "AUC"), ("L3", "MAP"), ("L3", "NDCG"),
            ("ConvexLoss", "AUC"), ("ConvexLoss", "MAP"), ("ConvexLoss", "NDCG"))
BASELINES = ("SVMmap", "Rankboost", "RankSVM")
FLOOR = "all-equal scores"
CONVENTIONS = ("paper", "paper random ties", "LETOR 3.0", "LETOR 3.0 random ties")


def method_name(objective: str, delta: str) -> str:
    return ConditionalRanker(objective, delta).method_name


METHODS = BASELINES + tuple(method_name(o, d) for o, d in PROPOSED)


# --- one fold ---------------------------------------------------------------------------------

def load_splits(dataset: str, fold, data_dir, mode: str) -> tuple[dict, dict]:
    """The fold's train/vali/test, cleaned as ``mode`` says; and the cleaning counts."""
    if mode not in CLEAN_MODES:
        raise ValueError(f"clean: expected one of {tuple(CLEAN_MODES)}, got {mode!r}")
    splits = load_letor_fold(dataset, int(fold), data_dir)
    info = {}
    for name in CLEAN_MODES[mode]:
        splits[name], info[name] = clean(splits[name], THRESHOLD)
    return splits, info


def binary(data: QueryData) -> QueryData:
    """The same data with labels 0/1 (good = label ≥ 1): what the baselines are trained on."""
    return QueryData(data.X, (data.y >= THRESHOLD).astype(np.float64), data.query_ptr,
                     data.qids, data.docids, data.source + " (binary)", data.line_no)


def conditional(objective: str, delta: str, p: dict, seed: int, **over) -> ConditionalRanker:
    """A ranker of the paper with the run's sampler settings; every sampled objective of a
    fold uses the same ``seed`` and hence the same sample Ŷ (drawn once, Sec. 4)."""
    kw = dict(ndcg_k=p["ndcg_k"], sample_size=p["sample_size"], walk_length=p["walk_length"],
              restart_skew=p["restart_skew"], phi_scale=p["phi_scale"], max_iter=p["max_iter"],
              tol=p["tol"], n_inits=p["n_inits"] if objective in ("ExpGain", "L3") else 1,
              random_state=seed)
    kw.update(over)
    return ConditionalRanker(objective, delta, **kw)


def _select(ranker, train, vali, grid, prefer):
    """Validation MAP (binary relevance: LETOR's MAP counts label > 0 as relevant, the same
    ranking of candidates as the paper's AP); ties: the earlier preferred value."""
    t0 = time.perf_counter()
    s = select(ranker, train, vali, grid, criterion="MAP", prefer=prefer, version=3)
    return s, time.perf_counter() - t0


def _fit_method(name: str, splits: dict, p: dict, seed: int):
    train, vali = splits["train"], splits["vali"]
    if name == "RankSVM":
        return _select(RankSVM(), binary(train), vali, {"C": p["ranksvm_C"]}, ("C",))
    if name == "Rankboost":
        return _select(RankBoost(), train, vali, {"n_rounds": p["rankboost_rounds"]},
                       ("n_rounds",))
    if name == "SVMmap":
        return _select(SVMMAP(), train, vali, {"C": p["svmmap_C"]}, ("C",))
    obj, delta = next((o, d) for o, d in PROPOSED if method_name(o, d) == name)
    return _select(conditional(obj, delta, p, seed), train, vali, {"C": p["C"]}, ("C",))


def _model_info(sel, seconds: float) -> dict:
    m = sel.model
    info = {"params": sel.params, "vali_MAP": sel.score, "seconds": seconds}
    res = getattr(m, "result_", None)
    if res is not None:
        info["n_iter"] = int(res.n_iter)
        info["status"] = res.status
    if getattr(m, "sample_", None) is not None:
        info["sample_rows"] = int(m.sample_.row_ptr[-1])
        info["sample_moves"] = int(m.sample_.moves)
    return info


def run_figure3(splits: dict, p: dict, seed: int, log) -> dict:
    """Every method of Figure 3 on one fold: C (rounds) chosen by validation MAP, test
    measures under both conventions, with ties in file order and at random, and the paper's
    measures on the cleaned test split (when the test split itself is not cleaned)."""
    test = splits["test"]
    cleaned = None if "test" in CLEAN_MODES[p["clean"]] else clean(test, THRESHOLD)[0]
    out = {"methods": {}}
    for name in p["methods"]:
        sel, secs = _fit_method(name, splits, p, seed)
        scores = sel.model.predict(test.X)
        res = measure_all(test, scores, p["tie_seeds"], seed)
        if cleaned is not None:
            res["paper cleaned test"] = paper_measures(cleaned, sel.model.predict(cleaned.X))
        out["methods"][name] = {"test": res, **_model_info(sel, secs)}
        log(f"{name}: {sel.params}, test MAP {out['methods'][name]['test']['paper']['MAP']:.4f} "
            f"({secs:.1f} s)")
    res = measure_all(test, np.zeros(test.n_docs), p["tie_seeds"], seed)
    if cleaned is not None:
        res["paper cleaned test"] = paper_measures(cleaned, np.zeros(cleaned.n_docs))
    out["methods"][FLOOR] = {"test": res}
    return out


def _sens_fit(splits, p, seed, **over) -> tuple[dict, object]:
    sel, secs = _select(conditional("ConvexLoss", "NDCG", p, seed, **over), splits["train"],
                        splits["vali"], {"C": p["C"]}, ("C",))
    m = paper_measures(splits["test"], sel.model.predict(splits["test"].X))
    return {"MAP": m["MAP"], "NDCG@10": m["NDCG@10"], "C": sel.params["C"],
            "seconds": secs}, sel


def _delta_of_orders(orders: np.ndarray, n_pos: int, n_neg: int, kind: str, k: int) -> np.ndarray:
    wins = np.stack([ss.order_wins(o, n_pos)[:n_pos] for o in orders])
    return _deltas.deltas(wins, n_neg, kind, k)


def smear(train: QueryData, s: dict, walk_length: int, seed: int, k: int = 10) -> dict:
    """Figure 7: histograms of Δ (AUC, MAP, NDCG@k) over the states of walks restarted only
    from Δ = 0, only from the shifted ranking with Δ_NDCG nearest 0.5, or only from Δ = 1."""
    gf = good_first(train.X, train.y, train.query_ptr, THRESHOLD)
    bins = np.linspace(0.0, 1.0, int(s["bins"]) + 1)
    seeds = ("Δ = 0", "Δ ≈ 0.5", "Δ = 1")
    hist = {r: {kind: np.zeros(len(bins) - 1) for kind in _deltas.KINDS} for r in seeds}
    moments = {r: {kind: [] for kind in _deltas.KINDS} for r in seeds}
    rng = np.random.default_rng(seed)
    for q in range(gf.n_queries):
        p_, n_ = int(gf.n_pos[q]), int(gf.n_neg[q])
        shifted = ss.restart_set(p_, n_, 21, "NDCG", k)
        d = _delta_of_orders(shifted, p_, n_, "NDCG", k)
        mid = shifted[int(np.argmin(np.abs(d - 0.5)))]
        starts = {"Δ = 0": ss.best_order(p_, n_), "Δ ≈ 0.5": mid, "Δ = 1": ss.worst_order(p_, n_)}
        for r, order in starts.items():
            w = ss.walks(p_, n_, order[None, :], [1.0], int(s["states"]), walk_length,
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


def run_sensitivity(splits: dict, p: dict, seed: int, log, base: dict | None = None) -> dict:
    """Figures 4–8 on one fold (ConvexLoss_NDCG, Sec. 5.3).  ``base``: the ConvexLoss_NDCG
    result at the default sampler settings, when Figure 3 ran on this fold (reused)."""
    s = p["sensitivity"]
    if base is None:
        base = _sens_fit(splits, p, seed)[0]
    out = {"base": base}
    # Figure 4: |Ŷ|, each size with several sample seeds (the first is Figure 3's seed)
    fig4 = {}
    for size in s["sizes"]:
        reps = []
        for r in range(int(s["sample_repeats"])):
            if size == p["sample_size"] and r == 0:
                reps.append(base)
            else:
                reps.append(_sens_fit(splits, p, seed + 7919 * r, sample_size=size)[0])
        fig4[str(size)] = reps
        log(f"figure 4: |Ŷ| = {size}: MAP {np.mean([x['MAP'] for x in reps]):.4f}")
    out["figure4"] = fig4
    # Figure 5: restart skew between Δ = 0 and Δ = 1
    out["figure5"] = {str(skew): base if skew == p["restart_skew"]
                      else _sens_fit(splits, p, seed, restart_skew=skew)[0]
                      for skew in s["skews"]}
    log("figure 5: " + ", ".join(f"{k}: {v['MAP']:.4f}" for k, v in out["figure5"].items()))
    # Figure 6: restart set with Pr ∝ exp(kΔ)
    out["figure6"] = {str(k): _sens_fit(splits, p, seed, restarts="set", restart_k=float(k),
                                        n_restart_states=int(s["restart_states"]))[0]
                      for k in s["ks"]}
    log("figure 6: " + ", ".join(f"k={k}: {v['MAP']:.4f}" for k, v in out["figure6"].items()))
    # Figure 7: Δ smear of walks from three restart seeds
    out["figure7"] = smear(splits["train"], s["smear"], p["walk_length"], seed, p["ndcg_k"])
    # Figure 8: wᵀφ against Δ along the first iterations
    out["figure8"] = trace_dominance(splits["train"], p, s["dominance"], seed, base["C"])
    return out


def trace_dominance(train: QueryData, p: dict, s: dict, seed: int, C: float) -> dict:
    """Figure 8: wᵀφ(x, y) for ``queries`` random training queries × ``rankings`` rankings
    spanning Δ (the shifted rankings of the restart set, Δ_NDCG spread over [0, 1]), along
    the first ``iterations`` L-BFGS iterations of ConvexLoss_NDCG (C chosen on validation),
    averaged over those iterations; also wᵀδφ_q(y) = wᵀφ(y_q) − wᵀφ(y)."""
    ws = []
    model = conditional("ConvexLoss", "NDCG", p, seed, C=C,
                        callback=lambda info: ws.append(info["w"]))
    model.fit_data(train)
    gf = good_first(train.X, train.y, train.query_ptr, THRESHOLD)
    rng = np.random.default_rng([seed, 8])
    qs = np.sort(rng.choice(gf.n_queries, min(int(s["queries"]), gf.n_queries), replace=False))
    iters = ws[1:int(s["iterations"]) + 1]           # ws[0] is the start, w = 0
    points = []
    for q in qs:
        p_, n_ = int(gf.n_pos[q]), int(gf.n_neg[q])
        lo, hi = gf.query_ptr[q], gf.query_ptr[q + 1]
        orders = ss.restart_set(p_, n_, int(s["rankings"]), "NDCG", p["ndcg_k"])  # [0]: y_q
        d = _delta_of_orders(orders, p_, n_, "NDCG", p["ndcg_k"])
        A = np.stack([ss.order_wins(o, p_) for o in orders]).astype(np.float64)
        A[:, :p_] = 2 * A[:, :p_] - n_                # φ_po coefficients of every document
        A[:, p_:] = 2 * A[:, p_:] - p_
        u = np.array([A @ (gf.X[lo:hi] @ w) for w in iters])       # iterations × rankings
        for j in range(len(orders)):
            points.append({"query": int(q), "delta": float(d[j]), "wphi": float(u[:, j].mean()),
                           "wdphi": float((u[:, 0] - u[:, j]).mean())})
    return {"C": C, "iterations": len(iters), "points": points}


def task_fold(ctx) -> dict:
    """One fold of ``ctx.dataset``: Figure 3's methods (if the dataset is one of Figure 3's)
    and the Sec. 5.3 studies (if it is one of Figures 4–8's); records of every artifact."""
    p = ctx.params
    splits, cleaning = load_splits(ctx.dataset, ctx.fold, ctx.data_dir, p["clean"])
    out = {"cleaning": cleaning,
           "sizes": {k: [v.n_queries, v.n_docs] for k, v in splits.items()}}
    seed = ctx.seed
    recs = []
    if ctx.dataset in p["figure3_datasets"]:
        out["figure3"] = run_figure3(splits, p, seed, ctx.log)
    if ctx.dataset in p["sensitivity_datasets"]:
        base = None
        f3 = out.get("figure3", {}).get("methods", {}).get("ConvexLoss_NDCG")
        if f3 is not None:
            base = {"MAP": f3["test"]["paper"]["MAP"], "NDCG@10": f3["test"]["paper"]["NDCG@10"],
                    "C": f3["params"]["C"], "seconds": f3["seconds"]}
        out["sensitivity"] = run_sensitivity(splits, p, seed, ctx.log, base)
        recs += sensitivity_records(out["sensitivity"], ctx.dataset, p)
    return {"records": recs, **out}


# --- records ----------------------------------------------------------------------------------

def microaverage_weights() -> dict[str, float]:
    """The microaverage weight of each Figure 3 column: its LETOR 3.0 query count (TOML
    [protocol]; these weights reproduce the printed microaverages)."""
    return dict(_published.load("dubey2009").protocol.get("microaverage_weights", {}))


def _note(cells: dict) -> str:
    out = (f"ties at random {cells['paper_random_ties']:.4f}; LETOR 3.0 script "
           f"{cells['LETOR_3.0']:.4f} (ties at random {cells['LETOR_3.0_random_ties']:.4f})")
    if "paper_cleaned_test" in cells:
        out += f"; cleaned test split {cells['paper_cleaned_test']:.4f}"
    return out


def figure3_cells(art, outputs) -> list[dict]:
    """Aggregation: Figure 3's cells, the mean over the declared folds of every dataset that
    ran all of them, the value under the paper's definitions (ties in file order), with the
    other conventions in the note and as fields."""
    by = {}
    for spec, out in outputs:
        if "figure3" not in out:
            continue
        for name, m in out["figure3"]["methods"].items():
            for metric in METRICS:
                by.setdefault((spec.dataset, name, metric), {})[str(spec.fold)] = m["test"]
    recs, means, weights = [], {}, microaverage_weights()
    for (ds, name, metric), folds in by.items():
        declared = [str(f) for f in art.folds_for(ds)]
        if any(f not in folds for f in declared):
            continue
        convs = CONVENTIONS + (("paper cleaned test",)
                               if all("paper cleaned test" in folds[f] for f in declared) else ())
        cells = {c.replace(" ", "_"): float(np.mean([folds[f][c][metric] for f in declared]))
                 for c in convs}
        means[(ds, name, metric)] = cells
    for (ds, name, metric), cells in means.items():
        cells = dict(cells)
        note = _note(cells)
        svm, floor = means.get((ds, "RankSVM", metric)), means.get((ds, FLOOR, metric))
        if name not in ("RankSVM", FLOOR) and svm and floor:
            note += (f"; context: our RankSVM {svm['paper']:.4f}, all-equal scores "
                     f"{floor['paper']:.4f} (random order {floor['paper_random_ties']:.4f})")
        recs.append(record(name, metric, cells.pop("paper"), "avg", dataset=ds,
                           part="figure3", queries=weights.get(ds), note=note, **cells))
    return recs


def sensitivity_records(sens: dict, dataset: str, p: dict) -> list[dict]:
    """Per-fold records of Figures 4–8 (fold means by the artifacts' FoldMean).  MQ2008
    records keep their own dataset label (OHSUMED is the declared stand-in for HP2004)."""
    ds = {"dataset": dataset} if dataset == "MQ2008" else {}
    recs = []
    for size, reps in sens["figure4"].items():
        for metric in ("MAP", "NDCG@10"):
            vals = [r[metric] for r in reps]
            recs.append(record(f"ConvexLoss_NDCG, |Ŷ| = {size}", metric, float(np.mean(vals)),
                               part="figure4", **ds))
            if len(vals) > 1:
                recs.append(record(f"ConvexLoss_NDCG, |Ŷ| = {size}", f"{metric} sd over samples",
                                   float(np.std(vals, ddof=1)), part="figure4", **ds))
    for skew, r in sens["figure5"].items():
        for metric in ("MAP", "NDCG@10"):
            recs.append(record(skew_label(float(skew)), metric, r[metric], part="figure5", **ds))
    for k, r in sens["figure6"].items():
        for metric in ("MAP", "NDCG@10"):
            recs.append(record(f"k={int(float(k))}", metric, r[metric], part="figure6", **ds))
    for seed_label, kinds in sens["figure7"]["stats"].items():
        for kind, st in kinds.items():
            recs.append(record(f"restart {seed_label}", f"sd of Δ_{kind}", st["sd"],
                               part="figure7", **ds))
            recs.append(record(f"restart {seed_label}", f"mean of Δ_{kind}", st["mean"],
                               part="figure7", **ds))
    pts = sens["figure8"]["points"]
    recs.append(record("ConvexLoss_NDCG", "median |wᵀφ(x,y)|, iterations 1–10",
                       float(np.median([abs(x["wphi"]) for x in pts])), part="figure8", **ds))
    recs.append(record("ConvexLoss_NDCG", "median |wᵀδφ(y)|, iterations 1–10",
                       float(np.median([abs(x["wdphi"]) for x in pts])), part="figure8", **ds))
    return recs


def skew_label(skew: float) -> str:
    if skew > 0.5:
        return f"restarts {skew:g} toward Δ = 0"
    if skew < 0.5:
        return f"restarts {1 - skew:g} toward Δ = 1"
    return "balanced restarts"


# --- claims (custom aggregation) --------------------------------------------------------------

def _fold_means(art, outputs) -> tuple[dict, dict]:
    """Per dataset that ran every declared fold: Figure 3's cells {method: {metric: mean}}
    (paper measures), and the Sec. 5.3 outputs per fold."""
    f3, sens = {}, {}
    for spec, out in outputs:
        if "figure3" in out:
            f3.setdefault(spec.dataset, {})[str(spec.fold)] = out["figure3"]["methods"]
        if "sensitivity" in out:
            sens.setdefault(spec.dataset, {})[str(spec.fold)] = out["sensitivity"]
    cells = {}
    for ds, folds in f3.items():
        declared = [str(f) for f in art.folds_for(ds)]
        if any(f not in folds for f in declared):
            continue
        names = folds[declared[0]].keys()
        cells[ds] = {m: {k: float(np.mean([folds[f][m]["test"]["paper"][k] for f in declared]))
                         for k in METRICS} for m in names}
        cells[ds]["_letor"] = {m: {k: float(np.mean([folds[f][m]["test"]["LETOR 3.0"][k]
                                                     for f in declared])) for k in METRICS}
                               for m in names}
    sens = {ds: [folds[f] for f in sorted(folds)] for ds, folds in sens.items()
            if all(str(f) in folds for f in art.folds_for(ds))}
    return cells, sens


def _best(cell: dict, names) -> tuple[str, float]:
    names = [n for n in names if n in cell]
    n = max(names, key=lambda k: cell[k])
    return n, cell[n]


CLAIMS_52 = [
    # (id, statement, paper's count, test(cell) -> (holds, evidence))
    ("5.2.1", "MLE beats all baselines", "16 of 32",
     lambda c: (c["MLE"] > max(c[b] for b in BASELINES),
                f"MLE {c['MLE']:.4f} vs best baseline {max(c[b] for b in BASELINES):.4f}")),
    ("5.2.2", "ExpGain (its best variant) beats every baseline", "'best' 26 of 32",
     lambda c: (_best(c, EXPGAIN)[1] > max(c[b] for b in BASELINES),
                f"{_best(c, EXPGAIN)[0]} {_best(c, EXPGAIN)[1]:.4f} vs best baseline "
                f"{max(c[b] for b in BASELINES):.4f}")),
    ("5.2.2", "ExpGain_MAP beats SVMmap", "23 of 32",
     lambda c: (c["ExpGain_MAP"] > c["SVMmap"], f"{c['ExpGain_MAP']:.4f} vs {c['SVMmap']:.4f}")),
    ("5.2.2", "ExpGain_AUC beats RankSVM", "30 of 32",
     lambda c: (c["ExpGain_AUC"] > c["RankSVM"], f"{c['ExpGain_AUC']:.4f} vs {c['RankSVM']:.4f}")),
    ("5.2.2", "ExpGain (its best variant) beats MLE", "21 of 32",
     lambda c: (_best(c, EXPGAIN)[1] > c["MLE"], f"{_best(c, EXPGAIN)[0]} "
                f"{_best(c, EXPGAIN)[1]:.4f} vs MLE {c['MLE']:.4f}")),
    ("5.2.3", "ConvexLoss (its best variant) is the best of all methods", "26 of 32",
     lambda c: (_best(c, CONVEX)[1] >= _best(c, METHODS)[1],
                f"best overall {_best(c, METHODS)[0]} {_best(c, METHODS)[1]:.4f}")),
    ("5.2.3", "ConvexLoss_MAP beats SVMmap", "26 of 32",
     lambda c: (c["ConvexLoss_MAP"] > c["SVMmap"],
                f"{c['ConvexLoss_MAP']:.4f} vs {c['SVMmap']:.4f}")),
    ("5.2.3", "ConvexLoss_AUC beats RankSVM", "25 of 32",
     lambda c: (c["ConvexLoss_AUC"] > c["RankSVM"],
                f"{c['ConvexLoss_AUC']:.4f} vs {c['RankSVM']:.4f}")),
    ("5.2.3", "ConvexLoss_NDCG is the best method", "'across all datasets'",
     lambda c: (c["ConvexLoss_NDCG"] >= _best(c, METHODS)[1],
                f"{c['ConvexLoss_NDCG']:.4f} vs best {_best(c, METHODS)[0]} "
                f"{_best(c, METHODS)[1]:.4f}")),
    ("5.2.3", "ConvexLoss (its best variant) beats MLE", "29 of 32",
     lambda c: (_best(c, CONVEX)[1] > c["MLE"],
                f"{_best(c, CONVEX)[0]} {_best(c, CONVEX)[1]:.4f} vs MLE {c['MLE']:.4f}")),
    ("5.2.3", "ConvexLoss (best variant) beats ExpGain (best variant)", "25 of 32",
     lambda c: (_best(c, CONVEX)[1] > _best(c, EXPGAIN)[1],
                f"{_best(c, CONVEX)[1]:.4f} vs {_best(c, EXPGAIN)[1]:.4f}")),
    ("5.2.3", "ConvexLoss_NDCG beats ExpGain_NDCG", "25 of 32",
     lambda c: (c["ConvexLoss_NDCG"] > c["ExpGain_NDCG"],
                f"{c['ConvexLoss_NDCG']:.4f} vs {c['ExpGain_NDCG']:.4f}")),
    ("5.2.3", "the worse of ConvexLoss_MAP and ConvexLoss_NDCG beats the best baseline",
     "23 of 32",
     lambda c: (min(c["ConvexLoss_MAP"], c["ConvexLoss_NDCG"]) > max(c[b] for b in BASELINES),
                f"{min(c['ConvexLoss_MAP'], c['ConvexLoss_NDCG']):.4f} vs "
                f"{max(c[b] for b in BASELINES):.4f}")),
    ("5.2.3", "an L_3 variant is the best in the column", "'some number of times'",
     lambda c: (_best(c, L3)[1] >= _best(c, METHODS)[1],
                f"{_best(c, L3)[0]} {_best(c, L3)[1]:.4f} vs best {_best(c, METHODS)[0]}")),
]
EXPGAIN = ("ExpGain_AUC", "ExpGain_MAP", "ExpGain_NDCG")
CONVEX = ("ConvexLoss_AUC", "ConvexLoss_MAP", "ConvexLoss_NDCG")
L3 = ("L_3_AUC", "L_3_MAP", "L_3_NDCG")
NOT_TESTABLE = "not testable here"


def _claim(statement: str, section: str, paper: str, results: list[tuple[str, bool, str]],
           why: str = "") -> dict:
    """A claim's record: value = the fraction of the testable cells where it holds."""
    if not results:
        return record(statement, "fraction of cells where it holds", float("nan"), "avg",
                      dataset="all", part="claims", section=section, paper_count=paper,
                      why=f"{NOT_TESTABLE}: {why}" if why else NOT_TESTABLE,
                      note=f"§{section}; paper: {paper}")
    k = sum(h for _, h, _ in results)
    verdict = "holds" if k == len(results) else ("does not hold" if k == 0 else "holds partly")
    cells = "; ".join(f"{cell}: {'✓' if h else '✗'} {ev}" for cell, h, ev in results)
    return record(statement, "fraction of cells where it holds", k / len(results), "avg",
                  dataset="all", part="claims", section=section, paper_count=paper,
                  holds=verdict, note=f"§{section}; {verdict} in {k} of {len(results)} cells "
                                      f"(paper: {paper}) — {cells}")


def claims(art, outputs) -> list[dict]:
    """Aggregation: each claim of Sec. 5.2–5.3 checked on the cells that ran here."""
    cells, sens = _fold_means(art, outputs)
    recs = []
    for section, statement, paper, test in CLAIMS_52:
        res = []
        for ds, c in cells.items():
            for metric in METRICS:
                col = {m: v[metric] for m, v in c.items() if not m.startswith("_")}
                holds, ev = test(col)
                res.append((f"{ds} {metric}", bool(holds), ev))
        recs.append(_claim(statement, section, paper, res,
                           "needs a Figure 3 column (every fold of a LETOR 3.0 set)"))
    recs.append(_claim("Combined (microaveraged) accuracy of ExpGain and ConvexLoss_NDCG is "
                       "the best", "5.2.2–5.2.3", "always", [],
                       "the microaverage needs all seven LETOR 3.0 sets (six Gov sets missing)"))
    recs += _claims_53(sens)
    recs += _gap_context(cells)
    return recs


def _mean_over(folds, path):
    vals = []
    for f in folds:
        v = f
        for key in path:
            v = v[key]
        vals.append(v)
    return float(np.mean(vals))


def _claims_53(sens: dict) -> list[dict]:
    recs, f4, f5, f6, f7, f8 = [], [], [], [], [], []
    for ds, folds in sens.items():
        sizes = list(folds[0]["figure4"])
        m = [np.mean([np.mean([r["MAP"] for r in f["figure4"][s]]) for f in folds]) for s in sizes]
        sd = np.mean([np.std([r["MAP"] for r in f["figure4"][sizes[-1]]], ddof=1)
                      if len(f["figure4"][sizes[-1]]) > 1 else 0.0 for f in folds])
        f4.append((f"{ds} MAP, |Ŷ| {sizes[0]} → {sizes[-1]}", m[-1] >= m[0] and
                   abs(m[-1] - m[-2]) <= max(sd, 1e-12),
                   " → ".join(f"{v:.4f}" for v in m) + f" (sample sd at {sizes[-1]}: {sd:.4f})"))
        skews = list(folds[0]["figure5"])
        vals = {s: _mean_over(folds, ("figure5", s, "MAP")) for s in skews}
        top = max(vals, key=lambda s: float(s))
        f5.append((f"{ds} MAP", all(vals[top] >= v for v in vals.values()),
                   ", ".join(f"Pr(Δ=0 restart) {s}: {v:.4f}" for s, v in vals.items())))
        ks = sorted(folds[0]["figure6"], key=float, reverse=True)
        for metric in ("MAP", "NDCG@10"):
            v = [_mean_over(folds, ("figure6", k, metric)) for k in ks]
            f6.append((f"{ds} {metric}", all(b >= a - 1e-12 for a, b in zip(v, v[1:])),
                       ", ".join(f"k={int(float(k))}: {x:.4f}" for k, x in zip(ks, v))))
        for kind in _deltas.KINDS:
            a = _mean_over(folds, ("figure7", "stats", "Δ = 1", kind, "sd"))
            b = _mean_over(folds, ("figure7", "stats", "Δ = 0", kind, "sd"))
            f7.append((f"{ds} Δ_{kind}", a < b, f"sd from Δ = 1: {a:.4f}, from Δ = 0: {b:.4f}"))
        med = float(np.median([abs(p["wdphi"]) for f in folds for p in f["figure8"]["points"]
                               if p["delta"] > 0]))
        f8.append((f"{ds}", med > 1.0, f"median |wᵀδφ(y)| over iterations 1–10: {med:.3g} "
                                        f"(Δ ≤ 1)"))
    why = "needs every fold of HP2004, OHSUMED or MQ2008"
    recs.append(_claim("accuracy rises with |Ŷ| and is close to saturation at the largest "
                       "size (last step within the sample-to-sample sd)", "5.3.1", "Fig. 4",
                       f4, why))
    recs.append(_claim("skewing restarts toward Δ = 0 gives the best accuracy", "5.3.2",
                       "Fig. 5", f5, why))
    recs.append(_claim("k ≪ 0 is uniformly better (accuracy does not fall as k decreases)",
                       "5.3.2", "Fig. 6", f6, why))
    recs.append(_claim("the smear of sampled Δ is smaller around the Δ = 1 seed than around "
                       "Δ = 0", "5.3.3", "Fig. 7", f7, why))
    recs.append(_claim("wᵀφ quickly dominates Δ (|wᵀδφ| > 1 ≥ Δ after the first iterations)",
                       "5.3.4", "Fig. 8", f8, why))
    return recs


def _gap_context(cells: dict) -> list[dict]:
    """The computed context of the OHSUMED column: our MLE/ConvexLoss level, our RankSVM
    beside the paper's RankSVM cell, the all-equal floor, LETOR's official baselines."""
    if "OHSUMED" not in cells:
        return []
    c, letor = cells["OHSUMED"], cells["OHSUMED"]["_letor"]
    pub = {(v.method, v.metric): v.value for v in _published.load("dubey2009").values
           if v.artifact == "figure3" and v.dataset == "OHSUMED" and v.fold == "avg"}
    st = {(v.method, v.metric): v.text for v in _published.load("stevens2010").values
          if v.dataset == "OHSUMED" and v.baseline}
    ours = [c[m]["MAP"] for m in ("MLE",) + CONVEX]
    publ = [pub.get((m, "MAP")) for m in ("MLE",) + CONVEX]
    publ = [p for p in publ if p is not None]
    ctx = lambda name, value, note: record(name, "MAP", value, "avg", dataset="OHSUMED",
                                           part="claims", section="context", note=note)
    out = [ctx("context: MLE and ConvexLoss_* (mean)", float(np.mean(ours)),
               f"ours {', '.join(f'{v:.4f}' for v in ours)} (spread {max(ours) - min(ours):.4f}); "
               f"published mean {np.mean(publ):.3f} → gap {np.mean(ours) - np.mean(publ):+.3f}"),
           ctx("context: RankSVM (ours, same protocol)", c["RankSVM"]["MAP"],
               f"paper's RankSVM cell {pub.get(('RankSVM', 'MAP'))}; ours with the LETOR 3.0 "
               f"script {letor['RankSVM']['MAP']:.4f}"),
           ctx("context: all-equal scores (file order)", c[FLOOR]["MAP"],
               f"LETOR 3.0 script {letor[FLOOR]['MAP']:.4f}: OHSUMED's file order is itself a "
               f"good ranking, tied scores gain from it"),
           ctx("context: published ListNet / BoltzRank2 (quoted by the paper)",
               float(np.mean([pub.get(("ListNet", "MAP")) or np.nan,
                              pub.get(("BoltzRank2", "MAP")) or np.nan])),
               f"ListNet {pub.get(('ListNet', 'MAP'))}, BoltzRank2 {pub.get(('BoltzRank2', 'MAP'))} "
               f"(Volkovs & Zemel 2009, uncleaned data)")]
    nd = [("RankBoost", "Rankboost"), ("ListNet", None)]
    for letor_name, ours_name in nd:
        v = st.get((letor_name, "NDCG@10"))
        if v is None:
            continue
        note = (f"LETOR 3.0 official {letor_name} baseline, OHSUMED NDCG@10 {v} and NDCG@5 "
                f"{st.get((letor_name, 'NDCG@5'))} (as printed in Stevens 2010, Fig. 4)")
        if ours_name:
            note += (f"; our {ours_name} with the LETOR 3.0 script: NDCG@10 "
                     f"{letor[ours_name]['NDCG@10']:.4f}, NDCG@5 {letor[ours_name]['NDCG@5']:.4f}")
        out.append(record(f"context: LETOR 3.0 {letor_name} baseline", "NDCG@10", float(v),
                          "avg", dataset="OHSUMED", part="claims", section="context", note=note))
    return out


# --- sampler throughput and complexity (timing runs) -------------------------------------------

def _query_sizes(data: QueryData) -> list[tuple[int, int]]:
    out = []
    for q in range(data.n_queries):
        g = data.y[data.query(q)] >= THRESHOLD
        if 0 < g.sum() < g.size:
            out.append((int(g.sum()), int((~g).sum())))
    return out


def task_throughput(ctx) -> dict:
    """Per training query of one fold: the literal and the rejection-free samplers on walks
    of the experiments' shape (restarts as Figure 3's, ``walk_length`` moves), without
    recording the states: attempts and accepted moves per second; single-threaded."""
    p = ctx.params
    train = load_letor_fold(ctx.dataset, int(ctx.fold), ctx.data_dir)["train"]
    rows = []
    with single_thread_blas():
        for i, (npos, nneg) in enumerate(_query_sizes(train)):
            orders, probs = ss.restart_distribution(npos, nneg, skew=p["restart_skew"])
            run = {}
            for method, states in (("literal", p["literal_states"]),
                                   ("rejection_free", p["rf_states"])):
                w = {}

                def call(method=method, states=states):
                    w["w"] = ss.walks(npos, nneg, orders, probs, states, p["walk_length"],
                                      ctx.seed + i, method, record=False)
                t = best_time(call, p["repeats"], min_total=p["min_seconds"])
                run[method] = {"seconds": t, "moves": w["w"].moves, "attempts": w["w"].attempts}
            rows.append({"n_pos": npos, "n_neg": nneg, **run})
    tot = {m: sum(r[m]["seconds"] for r in rows) for m in ("literal", "rejection_free")}
    moves = {m: sum(r[m]["moves"] for r in rows) for m in ("literal", "rejection_free")}
    att = sum(r["literal"]["attempts"] for r in rows)
    rate = {m: moves[m] / tot[m] for m in tot}
    recs = [record("literal (Fig. 2)", "attempts per second", att / tot["literal"]),
            record("literal (Fig. 2)", "accepted moves per second", rate["literal"]),
            record("rejection-free", "accepted moves per second", rate["rejection_free"]),
            record("rejection-free / literal", "ratio of accepted moves per second",
                   rate["rejection_free"] / rate["literal"]),
            record("literal (Fig. 2)", "attempts per accepted move", att / moves["literal"])]
    return {"records": recs, "queries": rows}


def task_complexity(ctx) -> dict:
    """Objective + gradient time against |Ŷ| (sampled ConvexLoss) and against n⁺n⁻ (ExpGain_AUC
    in closed form, sampled ConvexLoss at fixed |Ŷ|, and the sampler per state), on seeded
    synthetic queries (10% good documents); single-threaded, fastest of several calls."""
    p = ctx.params
    rng = np.random.default_rng(ctx.seed)
    out, recs = {}, []

    def problem(n_docs, n_queries):
        d = make_queries(n_queries, int(n_docs), p["features"], n_levels=2,
                         level_probs=[0.9, 0.1], seed=int(rng.integers(2**31)))
        return d, good_first(d.X, d.y, d.query_ptr)

    with single_thread_blas():
        d, gf = problem(p["base_docs"], p["queries"])
        w = rng.normal(size=p["features"]) / np.sqrt(p["features"])

        samples = {}

        def with_sample(m):
            sample = draw_sample(gf, m, p["walk_length"], rng=int(rng.integers(2**31)))
            samples[m] = sample
            return ConditionalObjective(gf, sample, "ConvexLoss", "NDCG", C=1.0)

        sweep = scaling_sweep(p["sample_sizes"], with_sample,
                              {"ConvexLoss": lambda fun: (lambda: fun(w))},
                              repeats=p["repeats"], min_total=p["min_seconds"])
        rows = [{"sample_size": r["point"], "rows": int(samples[r["point"]].row_ptr[-1]),
                 "seconds": r["seconds"]["ConvexLoss"]} for r in sweep]
        out["sample_size"] = rows
        recs.append(record("ConvexLoss (sampled)", "exponent in |Ŷ|",
                           fit_exponent([r["rows"] for r in rows], [r["seconds"] for r in rows])))

        def sized(n_docs):
            d, gf = problem(n_docs, p["queries"])
            sample = draw_sample(gf, p["fixed_sample"], p["walk_length"],
                                 rng=int(rng.integers(2**31)))
            return {"gf": gf, "pairs": float((gf.n_pos * gf.n_neg).sum()),
                    "auc": ConditionalObjective(gf, None, "ExpGain", "AUC", C=1.0),
                    "cvx": ConditionalObjective(gf, sample, "ConvexLoss", "NDCG", C=1.0)}

        contenders = {
            "sampler": lambda q: (lambda: draw_sample(q["gf"], p["fixed_sample"],
                                                      p["walk_length"], rng=1)),
            "ExpGain_AUC": lambda q: (lambda: q["auc"](w)),
            "ConvexLoss": lambda q: (lambda: q["cvx"](w))}
        problems = {}
        sweep = scaling_sweep(p["docs"], lambda n: problems.setdefault(n, sized(n)), contenders,
                              repeats=p["repeats"], min_total=p["min_seconds"])
        rows = [{"docs": r["point"], "pairs": problems[r["point"]]["pairs"],
                 **{k: r["seconds"][k] for k in ("ExpGain_AUC", "ConvexLoss", "sampler")}}
                for r in sweep]
        out["pairs"] = rows
        x = [r["pairs"] for r in rows]
        for name in ("ExpGain_AUC", "ConvexLoss", "sampler"):
            recs.append(record(name if name != "sampler" else "swap sampler (rejection-free)",
                               "exponent in n⁺n⁻", fit_exponent(x, [r[name] for r in rows])))
    return {"records": recs, "timings": out}
