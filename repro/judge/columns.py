"""Rules over a column of a table: what the cells of one column say together that no cell says
alone (issue 25, items 3–4).  A *column* is the reproduction cells (a published number rerun on
the paper's data: not stand-in, derived, a check, an unverified copy) of one artifact that
share a dataset and a metric (and any further key field but the method and the fold):

* **same evidence** (:func:`same_evidence`) — cells of one column and fold whose per-query
  values (every replicate's) are identical are one piece of evidence: the first in the
  paper's order of methods keeps its verdict, the others say "same evidence: as X" (field
  ``same_as``; their own verdict in ``verdict_alone``) and are counted apart — unless their
  column is offset, where they say "offset" like the rest of the column (``same_as`` kept):
  no cell of an offset column counts as reproduced, and identity is a bit-level property that
  another BLAS kernel can break (dubey2009 Figure 3, ConvexLoss_MAP = L_3_NDCG at NDCG@1 under
  SkylakeX, not under Sandybridge), so it must not decide a verdict there;
* **offset** (:func:`offsets`) — the mean of ours − published over the column's distinct
  cells with its t-interval and one-sample t-test (``scipy.stats.ttest_1samp``): the issue's
  "mean offset with its interval; where it is significant".  The t-tests of an artifact's
  columns are one family, adjusted by Holm's method; where the adjusted p < 0.05 the column
  is *offset*: its cells that do not agree at the paper's rounding are counted "offset", not
  reproduced (``verdict_alone`` keeps what they would have been alone).  Beside it, the sign
  test (``scipy.stats.binomtest``: cells above and below the published value beyond its
  rounding), Holm-adjusted the same way, is reported but does not decide: on a dozen cells its
  p-value moves in coarse steps (9 of 11 below: 0.065; 10 of 12: 0.039), so one cell that
  another BLAS kernel makes distinct — or no longer identical to another — flipped a whole
  column (dubey2009 Figure 3's NDCG@1 under ``OPENBLAS_CORETYPE=Sandybridge``), while the
  t-test's p moved from 0.0052 to 0.0026.  A column whose differences have no spread (a t-test
  is undefined) is decided by the sign test;
* **ordering** — per fold of the column, Kendall's τ (``scipy.stats.kendalltau``, τ-b)
  between the published and the reproduced values of its methods, and the pairs that swap
  (the paper has a above b, we have b above a), as repro_eval does (Breuer et al., SIGIR
  2020).

Each column with two cells or more gets a record (:data:`METHOD`; ``column`` true; fields
``offset`` and ``orderings``) whose verdict is "offset column" or "no systematic offset".
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ..evidence import TableIndex
from ..evidence.record import key, number
from . import intervals
from .stats import holm
from .verdicts import Judged, Verdict

ALPHA = 0.05
#: the method of a column's record
METHOD = "ours − published (column)"
#: the verdicts of a cell that takes part in a column's rules (a reproduction on our data)
_CELL = (Verdict.AGREES, Verdict.WITHIN_NOISE, Verdict.WITHIN, Verdict.BORDERLINE,
         Verdict.DEVIATES, Verdict.ONCE)


def _cell(r: dict) -> bool:
    """A reproduction cell: a published number rerun on the paper's verified data."""
    if r.get("column") or number(r.get("value")) is None or r.get("kind"):
        return False
    try:      # a cell marked "same evidence" is still a cell of its column (as it was alone)
        j = Judged.parse(r.get("verdict_alone", r["verdict"]) if "same_as" in r else
                         r["verdict"])
    except ValueError:
        return False
    return (j.verdict in _CELL and not (j.derived or j.stand_in or j.unverified)
            and r.get("published") is not None and r.get("diff") is not None)


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
        first = recs[0]["method"]
        for r in recs[1:]:
            r["verdict_alone"] = r["verdict"]
            r["same_as"] = first
            r["verdict"] = Judged(Verdict.SAME_EVIDENCE, reason=(
                f"as {first} (identical per-query values, counted once)")).text
            r.pop("explanation", None)


# --- offsets and orderings ----------------------------------------------------------------------

def _ordering(cells: list[dict]) -> dict:
    pub = np.array([float(r["value"]) - float(r["diff"]) for r in cells])
    ours = np.array([float(r["value"]) for r in cells])
    names = [str(r.get("method")) for r in cells]
    swaps = [[names[i], names[j]] for i in range(len(cells)) for j in range(len(cells))
             if pub[i] > pub[j] and ours[i] < ours[j]]
    tau, p = (stats.kendalltau(pub, ours) if len(cells) >= 2 else (float("nan"),) * 2)
    return {"methods": len(cells), "kendall_tau": float(tau), "tau_p_value": float(p),
            "swaps": swaps}


def _offset(cells: list[dict]) -> dict:
    d = np.array([float(r["diff"]) for r in cells])
    tied = [Judged.parse(r["verdict"]).verdict is Verdict.AGREES for r in cells]
    above = int(sum(1 for x, t in zip(d, tied) if not t and x > 0))
    below = int(sum(1 for x, t in zip(d, tied) if not t and x < 0))
    n = d.size
    out = {"cells": n, "mean": float(d.mean()), "ci95": None, "t_p_value": float("nan"),
           "above": above, "below": below, "tied": int(sum(tied)),
           "sign_p_value": float(stats.binomtest(above, above + below, 0.5).pvalue)
           if above + below else 1.0}
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    if n > 1 and sd > 0:
        h = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
        out.update(ci95=[out["mean"] - h, out["mean"] + h],
                   t_p_value=float(stats.ttest_1samp(d, 0.0).pvalue))
    return out


def offsets(paper: str, artifact: str, flat: list[dict], order: dict) -> list[dict]:
    """The column records of an artifact (module docstring); the cells of an offset column
    that do not agree at the paper's rounding say "offset" (in place)."""
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
            r.get("method"), len(order))))} for f, rs in by_fold.items() if len(rs) >= 2]
        fields = dict(k)
        rec = {"paper": paper, "artifact": artifact, **{f: cells[0].get(f) for f in fields},
               "method": METHOD, "fold": None, "value": off["mean"], "published": None,
               "diff": None, "source": None, "column": True, "offset": off,
               "orderings": orderings,
               "verdict": (Verdict.COLUMN_OFFSET if off["significant"] else
                           Verdict.COLUMN_LEVEL).value}
        rec["note"] = column_note(rec)
        out.append(rec)
        if off["significant"]:
            for r in cells:
                alone = r.get("verdict_alone", r["verdict"])
                if Judged.parse(alone).verdict is Verdict.AGREES:
                    continue
                # offset takes precedence over same evidence: in an offset column no cell
                # counts as reproduced, so identity (a bit-level property: two models that
                # rank every query alike in all replicates under one BLAS kernel may not under
                # another) no longer changes a verdict; `same_as` stays beside it
                r["verdict_alone"] = alone
                r["verdict"] = Verdict.OFFSET.value
                r["column_offset"] = off["mean"]
    return out


def column_note(rec: dict) -> str:
    """The column in words: its offset and test, and the ordering of its methods."""
    o = rec["offset"]
    ci = o["ci95"]
    text = (f"ours − published over {o['distinct']} distinct cells: mean {o['mean']:+.4g}"
            + (f" (95% t-interval [{ci[0]:+.4g}, {ci[1]:+.4g}])" if ci else "")
            + (f", t-test p = {o['t_p_value']:.2g}" if o["test"] == "t-test" else "")
            + f"; Holm-adjusted across the artifact's {o['family']} columns "
              f"{o['p_holm']:.2g} ({o['test']}, deciding); {o['below']} below, {o['above']} "
              f"above, {o['tied']} equal at the rounding, sign test p = "
              f"{o['sign_p_value']:.2g} (Holm {o['sign_p_holm']:.2g})"
            + (" — offset: its cells that do not agree are not counted as reproduced"
               if o["significant"] else ""))
    for od in rec["orderings"]:
        swaps = "; ".join(f"{a} > {b} published, < here" for a, b in od["swaps"][:6]) + (
            f"; … ({len(od['swaps'])} swapped pairs)" if len(od["swaps"]) > 6 else "")
        text += (f". Ordering{' (fold ' + str(od['fold']) + ')' if od['fold'] else ''} of "
                 f"{od['methods']} methods: Kendall's τ {od['kendall_tau']:+.2f}"
                 + (f"; swapped: {swaps}" if od["swaps"] else "; no pair swapped"))
    return text


def apply(art, paper: str, flat: list[dict], tables: list[dict], published) -> list[dict]:
    """Same evidence, then offsets and orderings (in place); returns the column records."""
    order = method_order(published, art.name)
    same_evidence(art, flat, tables, order)
    return offsets(paper, art.name, flat, order)
