"""Runs of pahikkala2010's §4 protocol: one fold (Tables 1–10, Figures 1–4).  The fold means
and the maxima of the fold-averaged validation curves are declared aggregations
(``AGGREGATE`` in the package); the complexity sweep is :mod:`.complexity`."""
from __future__ import annotations

from dataclasses import dataclass

from ...data.load import load_letor_fold
from ...evidence import Evidence
from ...evidence.protocol import measured, select
from ...rankers.rankrls import GreedyRankRLS, RankRLS
from ...spec.params import StudyParams, study
from .names import CURVE, CURVE_METRICS, METHODS, METRICS


def _exponents(pair) -> list[int]:
    lo, hi = (int(v) for v in pair)
    if lo > hi:
        raise ValueError(f"lambda exponent range [{lo}, {hi}] is empty")
    return list(range(lo, hi + 1))


def run_fold(dataset: str, fold: int, params: FoldParams, data_dir=None,
             log=lambda msg: None) -> dict:
    """The §4 protocol on one fold: greedy RankRLS (λ, k) and RankRLS λ chosen by validation
    MAP (ties: smaller λ, then smaller k), both evaluated on the test split."""
    splits = load_letor_fold(dataset, fold, data_dir)
    train, vali, test = splits["train"], splits["vali"], splits["test"]
    k_max = min(int(params.k_max), train.n_features)
    exps = _exponents(params.lambda_exponents)
    g = select(GreedyRankRLS(), train, vali,
               {"lam": [2.0 ** e for e in exps], "k": list(range(1, k_max + 1))},
               criterion="MAP", prefer=("lam", "k"), measures_=CURVE_METRICS, version=4)
    curves = {str(e): {m: g.curve(m, {"lam": 2.0 ** e}, along="k") for m in CURVE_METRICS}
              for e in exps}
    model = g.model
    feats, w = model.path_.prefix(model.k_)
    greedy_out = {"lambda_exponent": exps[[2.0 ** e for e in exps].index(g.params["lam"])],
                  "k": model.k_, "features": [int(f) + 1 for f in feats],
                  "weights": w.tolist(), "vali_MAP": g.score,
                  "lqo_errors": model.lqo_errors_.tolist(),
                  "test": measured(test, model.predict(test.X), METRICS, version=4)}
    rexps = _exponents(params.rankrls_lambda_exponents)
    r = select(RankRLS(), train, vali, {"lam": [2.0 ** e for e in rexps]}, criterion="MAP",
               prefer=("lam",), version=4)
    rankrls_out = {"lambda_exponent": rexps[[2.0 ** e for e in rexps].index(r.params["lam"])],
                   "vali_MAP": r.score, "weights": r.model.coef_.tolist(),
                   "test": measured(test, r.model.predict(test.X), METRICS, version=4)}
    log(f"fold {fold}: greedy λ = 2^{greedy_out['lambda_exponent']}, k = {model.k_}, first "
        f"features {greedy_out['features'][:5]}; RankRLS λ = 2^{rankrls_out['lambda_exponent']}")
    return {"fold": fold, "GRankRLS": greedy_out, "RankRLS": rankrls_out, "curves": curves,
            "k_max": k_max, "n_train": [train.n_queries, train.n_docs]}


@dataclass(frozen=True)
class FoldParams(StudyParams):
    """The §4 protocol's grids: greedy RankRLS over λ = 2^e, e in ``lambda_exponents`` =
    [lo, hi], and k = 1 … ``k_max``; RankRLS over λ = 2^e, e in ``rankrls_lambda_exponents``."""
    lambda_exponents: list[int]
    k_max: int
    rankrls_lambda_exponents: list[int]


@study(FoldParams)
def task_fold(ctx) -> dict:
    """One fold of ``ctx.dataset`` (Tables 1–10, Figures 1–4): the selected models, their
    test measures with each test query's value, and the validation curves (as records of
    metric ``validation <measure> curve`` per λ exponent and k, averaged and maximised by the
    declared aggregations)."""
    r = run_fold(ctx.dataset, int(ctx.fold), FoldParams.of(ctx), ctx.data_dir, ctx.log)
    f, g = r["fold"], r["GRankRLS"]
    ev = Evidence(fold=f, k_max=r["k_max"], n_train=r["n_train"], curves=r["curves"],
                  **{m: {k: v for k, v in r[m].items() if k != "test"} for m in METHODS})
    ev.value("GRankRLS", "lambda", 2.0 ** g["lambda_exponent"], f,
             shown=f"2^{g['lambda_exponent']}")
    ev.value("GRankRLS", "k", g["k"], f)
    for j, feat in enumerate(g["features"][:10], start=1):
        ev.value("GRankRLS", f"selected_{j}", feat, f)
    ev.value("GRankRLS", "validation MAP", g["vali_MAP"], f)
    ev.value("RankRLS", "log2 lambda", r["RankRLS"]["lambda_exponent"], f)
    ev.value("RankRLS", "validation MAP", r["RankRLS"]["vali_MAP"], f)
    for method in METHODS:
        ev.measured(method, r[method]["test"], f, METRICS)
    for e, by_metric in r["curves"].items():
        for metric, values in by_metric.items():
            for k, v in enumerate(values[:r["k_max"]], start=1):
                ev.value("GRankRLS", CURVE.format(metric=metric), v, f,
                         lambda_exponent=int(e), k=k)
    return ev.output()
