"""pahikkala2010's complexity study: training time of greedy RankRLS against m, n and k on
synthetic data (the O(kmn) claim of §3), single-threaded."""
from __future__ import annotations

from ...data.synthetic import make_documents
from ...evidence.record import record
from ...rankers.lqo import greedy_path
from ...run.timing import fit_exponent, scaling_sweep, single_thread_blas


def task_complexity(ctx) -> dict:
    """Training time of greedy RankRLS against m, n and k (synthetic data, 50 docs/query),
    by :func:`repro.run.timing.scaling_sweep`, single-threaded."""
    p = ctx.params
    out, recs = {}, []
    with single_thread_blas():
        for axis in ("m", "n", "k"):
            base = {**p["base"], **(p.get("k_sweep", {}) if axis == "k" else {})}
            points = [{**base, axis: int(v)} for v in p[axis]]
            rows = scaling_sweep(
                points, lambda cfg: (make_documents(cfg["m"], cfg["n"], seed=ctx.seed), cfg),
                {"ours": lambda prob: (lambda: greedy_path(prob[0].X, prob[0].y,
                                                           prob[0].query_ptr, 1.0,
                                                           prob[1]["k"]))},
                repeats=p["repeats"], min_total=p.get("min_seconds", 0.5),
                log=lambda msg: ctx.log(f"complexity {axis}: {msg}"))
            out[axis] = [{axis: r["point"][axis], "config": r["point"],
                          "docs": max(1, r["point"]["m"] // 50) * 50,   # make_documents
                          "ours": r["seconds"]["ours"]} for r in rows]
            x = [r["docs"] if axis == "m" else r[axis] for r in out[axis]]
            t = [r["ours"] for r in out[axis]]
            if axis != "k":
                recs.append(record("GRankRLS (ours)", f"exponent in {axis}", fit_exponent(x, t)))
                continue
            # O(kmn) = an O(mn) set-up (centring, the caches) + k steps of O(mn): the claim is
            # about the steps, so the exponent in k is fitted to t(k) − t(1) against k − 1
            # (the sweep starts at k = 1); the total time's slope is recorded beside it
            base_t = t[x.index(1)] if 1 in x else None
            steps = [(k - 1, tk - base_t) for k, tk in zip(x, t) if k > 1 and base_t is not None]
            recs.append(record("GRankRLS (ours)", "exponent in k",
                               fit_exponent([a for a, _ in steps], [b for _, b in steps])
                               if steps else float("nan"),
                               why="" if steps else "the k sweep has no k = 1 baseline"))
            recs.append(record("GRankRLS (ours)", "exponent in k (total time, with the O(mn) "
                               "set-up)", fit_exponent([k for k in x if k > 1],
                                                       [tk for k, tk in zip(x, t) if k > 1])))
    return {"records": recs, "timings": out}
