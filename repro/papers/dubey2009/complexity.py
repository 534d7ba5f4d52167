"""Cost of the objectives and of the sampler against |Ŷ| and n⁺n⁻ on seeded synthetic
queries (a timing run; our figure)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...data.synthetic import make_queries
from ...evidence import Evidence
from ...rankers.conditional import ConditionalObjective, draw_sample, good_first
from ...run.timing import fit_exponent, scaling_sweep, single_thread_blas
from ...spec.params import StudyParams, study


@dataclass(frozen=True)
class ComplexityParams(StudyParams):
    """Synthetic queries of ``features`` features: ``queries`` queries of ``base_docs``
    documents for the |Ŷ| sweep over ``sample_sizes``; the n⁺n⁻ sweep over ``docs`` documents
    per query at a sample of ``fixed_sample``; walks of ``walk_length``; the fastest of
    ``repeats`` calls lasting ``min_seconds`` together."""
    features: int
    queries: int
    base_docs: int
    walk_length: int
    sample_sizes: list[int]
    docs: list[int]
    fixed_sample: int
    repeats: int
    min_seconds: float


@study(ComplexityParams)
def task_complexity(ctx) -> dict:
    """Objective + gradient time against |Ŷ| (sampled ConvexLoss) and against n⁺n⁻ (ExpGain_AUC
    in closed form, sampled ConvexLoss at fixed |Ŷ|, and the sampler per state), on seeded
    synthetic queries (10% good documents); single-threaded, fastest of several calls."""
    p = ComplexityParams.of(ctx)
    rng = np.random.default_rng(ctx.seed)
    out, ev = {}, Evidence()

    def problem(n_docs, n_queries):
        d = make_queries(n_queries, int(n_docs), p.features, n_levels=2,
                         level_probs=[0.9, 0.1], seed=int(rng.integers(2**31)))
        return d, good_first(d.X, d.y, d.query_ptr)

    with single_thread_blas():
        d, gf = problem(p.base_docs, p.queries)
        w = rng.normal(size=p.features) / np.sqrt(p.features)

        samples = {}

        def with_sample(m):
            sample = draw_sample(gf, m, p.walk_length, rng=int(rng.integers(2**31)))
            samples[m] = sample
            return ConditionalObjective(gf, sample, "ConvexLoss", "NDCG", C=1.0)

        sweep = scaling_sweep(p.sample_sizes, with_sample,
                              {"ConvexLoss": lambda fun: (lambda: fun(w))},
                              repeats=p.repeats, min_total=p.min_seconds)
        rows = [{"sample_size": r["point"], "rows": int(samples[r["point"]].row_ptr[-1]),
                 "seconds": r["seconds"]["ConvexLoss"]} for r in sweep]
        out["sample_size"] = rows
        ev.value("ConvexLoss (sampled)", "exponent in |Ŷ|",
                 fit_exponent([r["rows"] for r in rows], [r["seconds"] for r in rows]))

        def sized(n_docs):
            d, gf = problem(n_docs, p.queries)
            sample = draw_sample(gf, p.fixed_sample, p.walk_length,
                                 rng=int(rng.integers(2**31)))
            return {"gf": gf, "pairs": float((gf.n_pos * gf.n_neg).sum()),
                    "auc": ConditionalObjective(gf, None, "ExpGain", "AUC", C=1.0),
                    "cvx": ConditionalObjective(gf, sample, "ConvexLoss", "NDCG", C=1.0)}

        contenders = {
            "sampler": lambda q: (lambda: draw_sample(q["gf"], p.fixed_sample,
                                                      p.walk_length, rng=1)),
            "ExpGain_AUC": lambda q: (lambda: q["auc"](w)),
            "ConvexLoss": lambda q: (lambda: q["cvx"](w))}
        problems = {}
        sweep = scaling_sweep(p.docs, lambda n: problems.setdefault(n, sized(n)), contenders,
                              repeats=p.repeats, min_total=p.min_seconds)
        rows = [{"docs": r["point"], "pairs": problems[r["point"]]["pairs"],
                 **{k: r["seconds"][k] for k in ("ExpGain_AUC", "ConvexLoss", "sampler")}}
                for r in sweep]
        out["pairs"] = rows
        x = [r["pairs"] for r in rows]
        for name in ("ExpGain_AUC", "ConvexLoss", "sampler"):
            ev.value(name if name != "sampler" else "swap sampler (rejection-free)",
                     "exponent in n⁺n⁻", fit_exponent(x, [r[name] for r in rows]))
    ev.detail["timings"] = out
    return ev.output()
