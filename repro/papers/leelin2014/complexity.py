"""leelin2014's complexity study: f, ∇f and ∇²f·d of the counting methods and explicit pairs
against the number of documents and relevance levels (O(l log l + lk))."""
from __future__ import annotations

import numpy as np

from ...data.synthetic import cell_rng, one_query
from ...evidence.record import record
from ...rankers.pair_counting import count_pairs
from ...rankers.ranksvm import ExplicitPairObjective, L2RankSVMObjective
from ...run.timing import fit_exponent, fun_grad_hv, scaling_sweep, single_thread_blas

def _max_rel_diff(a: dict, b: dict) -> float:
    """Largest relative difference between two evaluations' f, ∇f and ∇²f·d."""
    out = 0.0
    for key in ("f", "grad", "hv"):
        x, y = np.asarray(a[key], float), np.asarray(b[key], float)
        out = max(out, float(np.max(np.abs(x - y)) / max(1.0, float(np.max(np.abs(y))))))
    return out


def task_complexity(ctx) -> dict:
    """One query of l documents with k equiprobable relevance levels (``"l"``: every document
    its own level, as in the -list sets), n features: time of f(w), ∇f(w) and ∇²f(w)d for the
    three counting methods and for explicit pairs (formed once, outside the timing), by
    :func:`repro.run.timing.scaling_sweep` (the fastest of ``repeats`` or more calls), all thread
    pools limited to one thread.  The data of each (k, l) cell come from their own stream
    (:func:`repro.data.synthetic.cell_rng`).

    Besides the times, the output keeps per cell f(w) (``"f"``) and the largest relative
    difference of f, ∇f, ∇²f·d of every method from the tree's (``"max_rel_diff"``): the
    methods timed compute the same thing (also a record per k)."""
    P = ctx.params
    sizes = P["sizes"]
    curves = {}
    recs = []
    labels = {"direct": "(a) direct counting", "joachims": "(b) Joachims Alg. (I)",
              "tree": "(c) order-statistic tree", "pairs": "explicit pairs"}
    fvals, diffs = {}, {}

    def counting(method):
        return lambda prob: fun_grad_hv(L2RankSVMObjective(prob[0], prob[1], prob[2], 1.0,
                                                           method), prob[3], prob[4])

    contenders = {"tree": counting("tree"), "direct": counting("direct"),
                  "joachims": counting("joachims"),
                  "pairs": lambda prob: fun_grad_hv(ExplicitPairObjective(*prob[:3], 1.0),
                                                    prob[3], prob[4])}
    with single_thread_blas():
        for k in P["levels"]:
            def kk(l, k=k):
                return l if k == "l" else int(k)

            def skip(method, l, k=k):
                if method == "pairs":
                    return l * l / 2 > P["max_pairs"]
                return method != "tree" and l * min(kk(l), l) > P["max_lk"]

            pairs = {}

            def make(l, k=k, pairs=pairs):
                prob = one_query(l, kk(l), P["n_features"], cell_rng(ctx.seed, l, k))
                pairs[l] = count_pairs(prob[1], prob[2])
                return prob

            rows = scaling_sweep(sizes, make, contenders, repeats=P["repeats"], skip=skip,
                                 log=lambda msg, k=k: ctx.log(f"k={k} l={msg}"))
            cur = {m: [r["seconds"][m] for r in rows] for m in labels}
            fk = [float(r["values"]["tree"]["f"]) for r in rows]
            dk = [max(_max_rel_diff(v, r["values"]["tree"]) for v in r["values"].values())
                  for r in rows]
            curves[str(k)] = cur
            fvals[str(k)], diffs[str(k)] = fk, dk
            recs.append(record("all methods timed", f"max relative difference of f, ∇f, Hv "
                               f"from (c) (k = {k})", max(dk), dataset="synthetic"))
            for m, ts in cur.items():
                pts = [(l, t) for l, t in zip(sizes, ts) if t is not None]
                start = P.get("pairs_fit_from", P["fit_from"]) if m == "pairs" else P["fit_from"]
                big = [(l, t) for l, t in pts if l >= start]
                if len(big) >= 2:
                    recs.append(record(labels[m], f"exponent in l (k = {k})",
                                       fit_exponent([a for a, _ in big], [b for _, b in big]),
                                       dataset="synthetic"))
            # the explicit-pair method does O(p) work; its time per pair shows the memory
            # hierarchy (its arrays hold 24 bytes per pair) — the computed context of a slope
            # above 2
            for l, t in zip(sizes, cur["pairs"]):
                if t is not None and pairs[l]:
                    recs.append(record("explicit pairs", f"nanoseconds per pair at l = {l} "
                                       f"(k = {k})", 1e9 * t / pairs[l], dataset="synthetic",
                                       pairs=int(pairs[l]),
                                       pair_array_MB=round(24 * pairs[l] / 2 ** 20, 1)))
            both = [i for i, (a, b) in enumerate(zip(cur["pairs"], cur["tree"]))
                    if a is not None and b is not None]
            if both:
                i = both[-1]
                recs.append(record("explicit pairs / (c) tree",
                                   f"time ratio at l = {sizes[i]} (k = {k})",
                                   cur["pairs"][i] / cur["tree"][i], dataset="synthetic"))
    return {"records": recs, "sizes": sizes, "curves": curves, "n_features": P["n_features"],
            "levels": [str(k) for k in P["levels"]], "fit_from": P["fit_from"],
            "pairs_fit_from": P.get("pairs_fit_from", P["fit_from"]), "f": fvals,
            "max_rel_diff": diffs}
