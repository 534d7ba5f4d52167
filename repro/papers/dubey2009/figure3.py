"""Figure 3 on one fold (§5.1): every method fitted with its parameter chosen by validation
MAP, measured on the test split under each convention (paper's definitions / LETOR 3.0 script,
ties in file order / at random, and the paper's measures on the cleaned test split when the
test split itself is not cleaned), as per-query evidence; the all-equal floor beside them.

Replicates (``RunLayout.repeats``): replicate 0 is the run as it always was; a later replicate
(its own seed, derived from the run's identity) refits only the methods with training
randomness (:data:`.names.STOCHASTIC`: the sample Ŷ and the random starts) — the baselines and
the floor are deterministic, computed once, in replicate 0."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...evidence import Evidence
from .names import CLEANED, FIGURE3, FLOOR, METRICS, PAPER_DEF, PER_FOLD, STOCHASTIC, UNDEFINED
from .protocol import (CLEAN_MODES, THRESHOLD, Measures, clean, fit_method, measure_all,
                       paper_average, paper_per_query)

if TYPE_CHECKING:
    from .fold import FoldParams


def model_info(sel, seconds: float) -> dict:
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


def table(ev: Evidence, method: str, metric: str, qids, values, value: float, **keys) -> dict:
    """A mean over test queries of the paper's or the script's measure: its record (the value
    the evaluation computed) and its per-query table (NaN = undefined, with the reason)."""
    values = np.asarray(values, dtype=np.float64)
    return ev.per_query(method, metric, qids, values, value=value,
                        why=UNDEFINED if np.isnan(values).any() else "", **keys)


def emit(ev: Evidence, method: str, m: Measures, cleaned: tuple | None) -> None:
    """Records (one per convention and metric) and tables of one method on one fold; they
    feed Figure 3's cells (the ``Cells`` aggregation), not shown themselves."""
    parts = [(c, m.qids, m.summary[c], m.per_query[c]) for c in m.summary]
    if cleaned is not None:
        qids, pq = cleaned
        parts.append((CLEANED, qids, paper_average(pq), pq))
    for conv, qids, summary, per_query in parts:
        for metric in METRICS:
            rec = table(ev, method, metric, qids, per_query[metric], summary[metric],
                        part=FIGURE3, convention=conv)
            rec[PER_FOLD] = True          # a record field, not a table key: see Cells


def computes(p: FoldParams, repeat: int) -> bool:
    """Whether a run of parameters ``p`` computes anything of Figure 3 in replicate
    ``repeat``: a method (:func:`replicated`) or the floor (replicate 0, unless ``p.floor``
    is false: a split run leaves it to another part)."""
    return bool(replicated(p.methods, repeat)) or (repeat == 0 and p.floor)


def replicated(methods, repeat: int) -> list[str]:
    """The methods a run computes: all of them in replicate 0, the stochastic ones
    (:data:`.names.STOCHASTIC`) in a later replicate."""
    return [m for m in methods if repeat == 0 or m in STOCHASTIC]


def run_figure3(splits: dict, p: FoldParams, seed: int, log, ev: Evidence,
                repeat: int = 0, sample_cache=None) -> tuple[dict, tuple | None]:
    """Every method of ``p.methods`` on one fold, into ``ev`` (in a replicate ``repeat`` > 0
    only the stochastic ones, :func:`replicated`), and the floor (unless ``p.floor`` is
    false).  Returns the models' details (chosen parameter, validation MAP, seconds,
    iterations) and the ConvexLoss_NDCG result that the Sec. 5.3 studies reuse as their
    default setting, with its per-query values (None if it did not run).  ``sample_cache``
    (:class:`repro.rankers.conditional.SampleCache`): the conditional models share one draw
    of Ŷ (they draw the same one)."""
    test = splits["test"]
    cleaned = None if "test" in CLEAN_MODES[p.clean] else clean(test, THRESHOLD)[0]

    def measure(scores_of):
        m = measure_all(test, scores_of(test), p.tie_seeds, seed)
        c = None if cleaned is None else (np.asarray(cleaned.qids).tolist(),
                                          paper_per_query(cleaned, scores_of(cleaned)))
        return m, c

    detail, base = {}, None
    for name in replicated(p.methods, repeat):
        sel, secs = fit_method(name, splits, p, seed, sample_cache)
        m, c = measure(lambda d: sel.model.predict(d.X))
        emit(ev, name, m, c)
        detail[name] = model_info(sel, secs)
        log(f"{name}: {sel.params}, test MAP {m.summary[PAPER_DEF]['MAP']:.4f} ({secs:.1f} s)")
        if name == "ConvexLoss_NDCG":
            base = ({"MAP": m.summary[PAPER_DEF]["MAP"], "NDCG@10": m.summary[PAPER_DEF]["NDCG@10"],
                     "C": sel.params["C"], "seconds": secs},
                    {k: m.per_query[PAPER_DEF][k] for k in ("MAP", "NDCG@10")})
    if repeat == 0 and p.floor:
        m, c = measure(lambda d: np.zeros(d.n_docs))
        emit(ev, FLOOR, m, c)
    return {"methods": detail}, base
