"""leelin2014's complexity study: f, ∇f and ∇²f·d of the counting methods and explicit pairs
against the number of documents and relevance levels (O(l log l + lk)).

The claim is decided by counted operations (deterministic, the same on every machine); the
times, with an interval from interleaved rounds, are shown beside and decide nothing."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...data.synthetic import cell_rng, one_query
from ...evidence.record import record
from ...rankers.pair_counting import count_pairs
from ...rankers.ranksvm import ExplicitPairObjective, L2RankSVMObjective
from ...run.timing import (exponent_interval, fit_exponent, fun_grad_hv, interleaved_sweep,
                           single_thread_blas)
from ...spec.params import StudyParams, study

LABELS = {"direct": "(a) direct counting", "joachims": "(b) Joachims Alg. (I)",
          "tree": "(c) order-statistic tree", "pairs": "explicit pairs"}


#: a count exponent's description: one deterministic value (the same on every machine)
COUNTED = {"deterministic": True, "replicates": 1}


def _max_rel_diff(a: dict, b: dict) -> float:
    """Largest relative difference between two evaluations' f, ∇f and ∇²f·d."""
    out = 0.0
    for key in ("f", "grad", "hv"):
        x, y = np.asarray(a[key], float), np.asarray(b[key], float)
        out = max(out, float(np.max(np.abs(x - y)) / max(1.0, float(np.max(np.abs(y))))))
    return out


def _median(ts):
    return None if ts is None else float(np.median(ts))


@dataclass(frozen=True)
class ComplexityParams(StudyParams):
    """One query of each of ``sizes`` documents, ``n_features`` features, each k of ``levels``
    (an integer or "l"); a method skipped above ``max_lk`` (l·k) and explicit pairs above
    ``max_pairs`` pairs; exponents fitted from ``fit_from`` (explicit pairs:
    ``pairs_fit_from``); ``repeats`` interleaved rounds of at least ``min_seconds``."""
    sizes: list[int]
    levels: list[int | str]
    n_features: int
    max_lk: int
    max_pairs: int
    fit_from: int
    pairs_fit_from: int
    repeats: int
    min_seconds: float = 0.05


@study(ComplexityParams)
def task_complexity(ctx) -> dict:
    """One query of l documents with k equiprobable relevance levels (``"l"``: as many levels
    as documents, as in the -list sets), n features, for the three counting methods and
    explicit pairs (formed once, outside the timing); all thread pools limited to one thread.
    The data of each (k, l) cell come from their own stream
    (:func:`repro.data.synthetic.cell_rng`).

    Per method and k, two exponents in l over the sizes from ``fit_from`` (explicit pairs:
    ``pairs_fit_from``):

    * ``"exponent in l (k = …)"`` — fitted on the **counted operations** of one f(w), ∇f(w),
      ∇²f(w)d (the objectives' ``operations``: the sort's comparisons, the sweeps' margin
      tests and level or tree-node operations; explicit pairs: the pairs visited), which is
      compared with the paper's claim;
    * ``"time exponent in l (k = …)"`` — fitted on the wall time of the same evaluation, once
      per interleaved round (:func:`repro.run.timing.interleaved_sweep`, ``repeats`` rounds),
      their mean with the 95 % t interval over the rounds (``ci95``): shown beside.

    The output keeps per cell the counts, the median times and per-round times, f(w)
    (``"f"``) and the largest relative difference of f, ∇f, ∇²f·d of every method from the
    tree's (``"max_rel_diff"``, also a record per k): the methods compute the same thing."""
    P = ComplexityParams.of(ctx)
    sizes = P.sizes
    curves, counts, rounds = {}, {}, {}
    recs = []
    fvals, diffs = {}, {}
    ops: dict[tuple, int] = {}

    def prepared(method, obj, prob):
        ops[(method, prob[0].shape[0])] = obj.operations(prob[3])["total"]
        return fun_grad_hv(obj, prob[3], prob[4])

    def counting(method):
        return lambda prob: prepared(method, L2RankSVMObjective(prob[0], prob[1], prob[2],
                                                                1.0, method), prob)

    contenders = {"tree": counting("tree"), "direct": counting("direct"),
                  "joachims": counting("joachims"),
                  "pairs": lambda prob: prepared("pairs", ExplicitPairObjective(*prob[:3], 1.0),
                                                 prob)}
    with single_thread_blas():
        for k in P.levels:
            def kk(l, k=k):
                return l if k == "l" else int(k)

            def skip(method, l, k=k):
                if method == "pairs":
                    return l * l / 2 > P.max_pairs
                return method != "tree" and l * min(kk(l), l) > P.max_lk

            pairs = {}
            ops.clear()

            def make(l, k=k, pairs=pairs):
                prob = one_query(l, kk(l), P.n_features, cell_rng(ctx.seed, l, k))
                pairs[l] = count_pairs(prob[1], prob[2])
                return prob

            rows = interleaved_sweep(sizes, make, contenders, rounds=P.repeats,
                                     min_time=P.min_seconds, skip=skip,
                                     log=lambda msg, k=k: ctx.log(f"k={k}: {msg}"))
            per_round = {m: [r["seconds"][m] for r in rows] for m in LABELS}
            cur = {m: [_median(ts) for ts in per_round[m]] for m in LABELS}
            cnt = {m: [ops.get((m, l)) for l in sizes] for m in LABELS}
            fk = [float(r["values"]["tree"]["f"]) for r in rows]
            dk = [max(_max_rel_diff(v, r["values"]["tree"]) for v in r["values"].values())
                  for r in rows]
            curves[str(k)], counts[str(k)], rounds[str(k)] = cur, cnt, per_round
            fvals[str(k)], diffs[str(k)] = fk, dk
            recs.append(record("all methods timed", f"max relative difference of f, ∇f, Hv "
                               f"from (c) (k = {k})", max(dk), dataset="synthetic"))
            for m in LABELS:
                start = P.pairs_fit_from if m == "pairs" else P.fit_from
                idx = [i for i, l in enumerate(sizes) if l >= start and cnt[m][i] is not None]
                if len(idx) < 2:
                    continue
                recs.append(record(LABELS[m], f"exponent in l (k = {k})",
                                   fit_exponent([sizes[i] for i in idx],
                                                [cnt[m][i] for i in idx]),
                                   dataset="synthetic", **COUNTED))
                te = exponent_interval([sizes[i] for i in idx], [per_round[m][i] for i in idx])
                recs.append(record(LABELS[m], f"time exponent in l (k = {k})", te["exponent"],
                                   dataset="synthetic", ci95=te["ci"]))
            # the explicit-pair method does O(p) work; its time per pair shows the memory
            # hierarchy (its arrays hold 24 bytes per pair) — why its time slope exceeds 2
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
    return {"records": recs, "sizes": sizes, "curves": curves, "counts": counts,
            "rounds": rounds, "n_features": P.n_features,
            "levels": [str(k) for k in P.levels], "fit_from": P.fit_from,
            "pairs_fit_from": P.pairs_fit_from, "f": fvals,
            "max_rel_diff": diffs}
