"""Rules over a column of a table: what the cells of one column say together that no cell says
alone — context beside each cell's own verdict, never instead of it.  A *column* is the
reproduction cells (a published number rerun on the paper's verified data: verdict
reproduced, inconclusive or deviates) of one artifact that share a dataset and a metric (and
any further key field but the method and the fold):

* **same evidence** (:func:`same_evidence`) — cells of one column and fold whose per-query
  values (every replicate's) are identical are one piece of evidence: the later ones in the
  paper's order of methods carry ``same_as`` (the first's method).  Their verdicts stay: each
  is still a comparison with a different published number;
* **offset** (:func:`offsets`) — the mean of d = ours − published over the column's distinct
  cells with its t-interval and one-sample t-test (``scipy.stats.ttest_1samp``), the t-tests
  of an artifact's columns Holm-adjusted as one family; the sign test
  (``scipy.stats.binomtest``) beside it.  The column's record says what shares the offset
  (``offset.shared_by``: how many of its methods lie on the offset's side beyond their margin — all
  of them, the standard baselines included, points at a difference of evaluation or data, not
  of method).  Where the offset is significant, each cell also gets its verdict after removing
  it (``verdict_offset_removed``: the equivalence test of d − offset, the offset's own
  uncertainty added) — "reproduced up to the column's offset";
* **ordering** — per fold of the column, Kendall's τ-b (``scipy.stats.kendalltau``) between
  the published and the reproduced values of its methods, both rounded to the paper's
  precision (ties as ties), and the pairs that swap (Breuer et al., SIGIR 2020); none for a
  column of fewer than four cells.

Each column with two cells or more gets a record (:data:`METHOD`; verdict ``column``; fields
``offset`` — with ``shared_by`` — and ``orderings``).
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ..evidence import TableIndex
from ..evidence.record import key, number
from . import equivalence as eq
from . import intervals
from .noise import uncertainty_of
from .published import decimals_of
from .stats import holm
from .verdicts import RULE, Verdict

ALPHA = 0.05
#: the method of a column's record
METHOD = "ours − published (column)"
#: the fewest cells whose ordering is worth a τ
MIN_ORDERED = 4
_RULE = {v.value for v in RULE}


def _cell(r: dict) -> bool:
    """A reproduction cell: a published number rerun on the paper's verified data."""
    return (not r.get("column") and number(r.get("value")) is not None and not r.get("kind")
            and r.get("verdict") in _RULE and r.get("published") is not None
            and number(r.get("d")) is not None)


def column_key(r: dict, with_fold: bool) -> tuple:
    """The column of a cell: its key but the method (and, without ``with_fold``, the fold),
    float-valued fields aside (another convention's value kept as a field)."""
    return tuple(sorted((k, str(v)) for k, v in key(r).items()
                        if k != "method" and (with_fold or k != "fold")
                        and not isinstance(v, float)))


def method_order(published, artifact: str) -> dict:
    """The paper's order of methods in the artifact's published values."""
    order: dict = {}
    for v in published.for_artifact(artifact):
        order.setdefault(v.method, len(order))
    return order


# --- same evidence ------------------------------------------------------------------------------

def evidence_of(art, r: dict, index: TableIndex) -> tuple | None:
    """The per-query values behind a cell — every replicate's tables (or the single run's),
    at its own fold or each declared fold — as a hashable tuple; None without tables."""
    if not intervals.query_values(art, r, index):
        return None
    folds = intervals.declared_folds(art, r)
    fold = None if r.get("fold") is None else str(r["fold"])
    reps = range(len(r["replicate_values"])) if r.get("replicate_values") else (
        [0] if r.get("replicates") == 1 else [None])
    out = []
    for rep in reps:
        probe = r if rep is None else {**r, "repeat": rep}
        own = index.find(probe)
        tables = [own] if own is not None else (
            [index.find_fold(probe, f) for f in folds] if fold not in folds else [None])
        if any(t is None for t in tables):
            if rep:                     # computed once: replicate 0's tables are all there is
                break
            return None
        out.append(tuple((tuple(t["qids"]), tuple(t["values"])) for t in tables))
    return tuple(out)


def same_evidence(art, flat: list[dict], tables: list[dict], order: dict) -> None:
    """Mark the cells whose evidence another cell of their column already is (in place)."""
    index = TableIndex(tables)
    groups: dict[tuple, dict] = {}
    for r in flat:
        if not _cell(r):
            continue
        ev = evidence_of(art, r, index)
        if ev is not None:
            groups.setdefault((column_key(r, True), ev), []).append(r)
    for recs in groups.values():
        if len(recs) < 2:
            continue
        recs.sort(key=lambda r: (order.get(r.get("method"), len(order)), str(r.get("method"))))
        for r in recs[1:]:
            r["same_as"] = recs[0]["method"]


# --- offsets and orderings ----------------------------------------------------------------------

def _rounded(values, decimals: list[int]) -> np.ndarray:
    return np.array([round(float(v), d) for v, d in zip(values, decimals)])


def _ordering(cells: list[dict]) -> dict:
    """Kendall's τ-b of the published against our values, both at the paper's precision."""
    dec = [decimals_of(str(r["published"])) for r in cells]
    pub = _rounded([float(r["value"]) - float(r["d"]) for r in cells], dec)
    ours = _rounded([float(r["value"]) for r in cells], dec)
    names = [str(r.get("method")) for r in cells]
    swaps = [[names[i], names[j]] for i in range(len(cells)) for j in range(len(cells))
             if pub[i] > pub[j] and ours[i] < ours[j]]
    tau, p = stats.kendalltau(pub, ours)
    return {"methods": len(cells), "kendall_tau": float(tau), "tau_p_value": float(p),
            "swaps": swaps, "rounded_to": "the paper's printed precision"}


def _offset(cells: list[dict]) -> dict:
    d = np.array([float(r["d"]) for r in cells])
    margins = [float(r.get("margin") or 0.0) for r in cells]
    above = int(sum(1 for x, m in zip(d, margins) if x > m))
    below = int(sum(1 for x, m in zip(d, margins) if x < -m))
    n = d.size
    out = {"cells": n, "mean": float(d.mean()), "ci95": None, "t_p_value": float("nan"),
           "se": None, "above": above, "below": below, "within_margin": n - above - below,
           "sign_p_value": float(stats.binomtest(above, above + below, 0.5).pvalue)
           if above + below else 1.0}
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    if n > 1 and sd > 0:
        se = sd / math.sqrt(n)
        h = float(stats.t.ppf(0.975, n - 1)) * se
        out.update(ci95=[out["mean"] - h, out["mean"] + h], se=se,
                   t_p_value=float(stats.ttest_1samp(d, 0.0).pvalue))
    return out


def _shared_by(cells: list[dict], mean: float) -> dict:
    """Which methods lie on the offset's side beyond their own margin."""
    side = [str(r.get("method")) for r in cells
            if np.sign(float(r["d"])) == np.sign(mean)
            and abs(float(r["d"])) > float(r.get("margin") or 0.0)]
    rest = [str(r.get("method")) for r in cells if str(r.get("method")) not in side]
    return {"methods": side, "others": rest, "all": not rest}


def removed(r: dict, off: dict) -> str:
    """A cell's verdict after removing its column's offset: the equivalence test of
    d − offset, the offset's uncertainty (its standard error over the column) added."""
    unc = uncertainty_of(r)
    if off.get("se"):
        unc = eq.Uncertainty(unc.parts + (eq.Part(off["se"] ** 2, off["cells"] - 1,
                                                  "column offset"),))
    margin = eq.Margin(float(r["margin"]), r.get("margin_basis", ""), r.get("margin_why", ""))
    return eq.tost(float(r["d"]) - off["mean"], unc, margin).outcome


def offsets(paper: str, artifact: str, flat: list[dict], order: dict) -> list[dict]:
    """The column records of an artifact (module docstring); each cell of an offset column
    gets its verdict with the offset removed (in place)."""
    columns: dict[tuple, list] = {}
    for r in flat:
        if _cell(r):
            columns.setdefault(column_key(r, False), []).append(r)
    columns = {k: v for k, v in columns.items() if len(v) >= 2}
    stats_of = {}
    for k, cells in columns.items():
        distinct = [r for r in cells if "same_as" not in r]
        stats_of[k] = _offset(distinct)
    deciding = [s["t_p_value"] if math.isfinite(s["t_p_value"]) else s["sign_p_value"]
                for s in stats_of.values()]
    adjusted = holm(deciding) if stats_of else []
    sign_adjusted = holm([s["sign_p_value"] for s in stats_of.values()]) if stats_of else []
    out = []
    for (k, cells), p_adj, s_adj in zip(columns.items(), adjusted, sign_adjusted):
        off = {**stats_of[k], "distinct": stats_of[k]["cells"], "cells": len(cells),
               "p_holm": float(p_adj), "test": ("t-test" if math.isfinite(
                   stats_of[k]["t_p_value"]) else "sign test"),
               "sign_p_holm": float(s_adj), "family": len(columns)}
        off["significant"] = bool(p_adj < ALPHA)
        by_fold: dict = {}
        for r in cells:
            by_fold.setdefault(r.get("fold"), []).append(r)
        orderings = [{"fold": f, **_ordering(sorted(rs, key=lambda r: order.get(
            r.get("method"), len(order))))} for f, rs in by_fold.items()
            if len(rs) >= MIN_ORDERED]
        fields = dict(k)
        rec = {"paper": paper, "artifact": artifact, **{f: cells[0].get(f) for f in fields},
               "method": METHOD, "fold": None, "value": off["mean"], "published": None,
               "diff": None, "source": None, "column": True, "offset": off,
               "orderings": orderings, "verdict": Verdict.COLUMN.value}
        off["shared_by"] = _shared_by(cells, off["mean"])
        out.append(rec)
        if off["significant"]:
            for r in cells:
                r["verdict_offset_removed"] = removed(r, off)
                r["column_offset"] = off["mean"]
    return out


def apply(art, paper: str, flat: list[dict], tables: list[dict], published) -> list[dict]:
    """Same evidence, then offsets and orderings (in place); returns the column records."""
    order = method_order(published, art.name)
    same_evidence(art, flat, tables, order)
    return offsets(paper, art.name, flat, order)
