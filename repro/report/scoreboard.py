"""The claims of a paper page and of the index (records with ``claim``, each judged by a
paired test), as rows that read alone — the claim, its data (stand-ins named), its measure,
the comparison "A − B" with both names, the effect with its 95% interval, the p-value (raw
and, where the record has one, adjusted) and the outcome — one group per claim, the groups
in the paper's order; and a page's counts in words ("reproduced" = agrees at the paper's
rounding, or within noise)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..evidence.record import defined
from .commands import commands
from .format import (fmt_count, fmt_effect, fmt_effect_ci, fmt_general, fmt_p, value_order)
from .standins import data_label, is_stand_in
from .verdicts import OUTCOMES, Tally, verdict_class

#: a claim's adjusted p-value, by the record fields that may hold it (first found), and its
#: raw p-value likewise; a record with ``p_unadjusted`` has its adjusted p in ``p_value``
ADJUSTED_P = ("p_adjusted", "p_holm", "p_adj")
RAW_P = ("p_raw", "p_unadjusted")
NOT_TESTABLE = "not testable here"


def claim_outcome(r: dict) -> str:
    """A claim record's outcome: its ``outcome`` field, else its verdict when that is an
    outcome, else "not testable here" (a claim not run, or one without a test)."""
    if r.get("outcome") in OUTCOMES:
        return r["outcome"]
    if r.get("verdict") in OUTCOMES:
        return r["verdict"]
    return NOT_TESTABLE


_number = defined          # the one definedness rule (repro.evidence.record)


def p_values(r: dict) -> tuple[float | None, float | None]:
    """(raw p, adjusted p) of a claim record; the adjusted one None where the record has
    none (a single comparison, or a test that needs no adjustment)."""
    raw = next((r[k] for k in RAW_P if _number(r.get(k))), None)
    adj = next((r[k] for k in ADJUSTED_P if _number(r.get(k))), None)
    if adj is None and raw is not None and _number(r.get("p_value")):
        adj = r["p_value"]                       # p_value is the adjusted one beside a raw
    if raw is None and _number(r.get("p_value")):
        raw = r["p_value"]
    return raw, adj


def compared(r: dict) -> str:
    """What the effect compares, "A − B" with both names: the record's ``compared``, else
    its subject (the first of its ``numbers``) against ``versus``."""
    if r.get("compared"):
        return str(r["compared"])
    versus = r.get("versus")
    names = list((r.get("numbers") or {}).keys())
    subject = next((n for n in names if n != versus), None)
    if versus and subject:
        return f"{subject} − {versus}"
    return ""


def _measure(r: dict) -> str:
    """The claim's measure: its metric, unless that is the statement itself (then the
    statement names it)."""
    m = r.get("metric")
    return "" if not m or m == r.get("statement") else str(m)


def _section(r: dict) -> str:
    """Where in the paper the claim is made: "§5.2.3", or the label its declaration gives
    ("Sec. 6.3", "Table 1")."""
    if r.get("section"):
        return f"§{r['section']}"
    if r.get("method") and r.get("method") != r.get("statement"):
        return str(r["method"])
    return ""


def _where_in_paper(r: dict) -> str:
    """Where the paper makes the claim and what it counts: "§5.2.3, paper: 26 of 32"."""
    parts = [_section(r)] if _section(r) else []
    if r.get("paper_count"):
        parts.append(f"paper: {r['paper_count']}")
    return ", ".join(parts)


def claim_row(r: dict, href: str = "", stand_ins: dict | None = None,
              per_query: bool = True) -> dict:
    """A scoreboard row of one claim record."""
    out = claim_outcome(r)
    tested = out != NOT_TESTABLE
    eff = r.get("effect", r.get("value")) if tested else None
    raw, adj = p_values(r) if tested else (None, None)
    n = (f"{fmt_count(r['n_queries'])} queries" if r.get("n_queries") else
         f"{r['n_folds']} folds" if r.get("n_folds") else "")
    extra = []
    if _number(r.get("effect_ratio")):
        extra.append(f"effect ratio {fmt_general(float(r['effect_ratio']))}")
    if _number(r.get("delta_ri")):
        extra.append(f"ΔRI {fmt_general(float(r['delta_ri']))}")
    nums = r.get("numbers") or {}
    numbers = "; ".join(f"{k}: {fmt_general(float(v)) if _number(v) else v}"
                        for k, v in sorted(nums.items(), key=lambda kv: value_order(kv[0])))
    stand_ins = stand_ins or {}
    on_stand_in = is_stand_in(r, stand_ins)
    cmd = commands(r.get("paper", ""), r.get("artifact", ""), per_query=per_query)
    css = verdict_class(out) if out in OUTCOMES else "not-testable"
    return {"statement": r.get("statement") or r.get("metric") or r.get("method") or "",
            "where": _where_in_paper(r), "section": _section(r),
            "dataset": data_label(r, stand_ins),
            "stand_in": on_stand_in, "measure": _measure(r), "compared": compared(r),
            "outcome": out, "css": css,
            "effect": fmt_effect(eff, r.get("ci95")), "ci": fmt_effect_ci(r.get("ci95")),
            "p": fmt_p(raw), "p_adj": fmt_p(adj) if adj is not None else "",
            "n": n, "test": r.get("test") or "", "why": r.get("why") or "",
            "numbers": numbers, "extra": ", ".join(extra), "key": bool(r.get("key")),
            "artifact": r.get("artifact", ""), "paper": r.get("paper", ""), "href": href,
            "command": cmd["recompute"]}


def claims_of(flat: list[dict]) -> list[dict]:
    """Claim records judged by a test (an ``outcome``); a record merely marked ``claim`` —
    a value compared with a claim's number, e.g. stevens2010's "1% as many features" — is a
    value, not a tested claim."""
    return [r for r in flat if r.get("claim") and (r.get("outcome") in OUTCOMES
                                                    or r.get("verdict") in OUTCOMES)]


@dataclass(frozen=True)
class Declared:
    """A claim declaration's statement: its pattern (a statement with ``{m}`` matches any
    text there) and its words for a group of rows ("{m}" read as "m")."""
    pattern: re.Pattern
    statement: str

    def match(self, text: str):
        return self.pattern.match(text)


def declared_order(art) -> list[Declared]:
    """The statements of an artifact's claim declarations, in the order declared (the
    paper's)."""
    out = []
    for agg in getattr(art, "aggregate", ()) or ():
        st = getattr(agg, "statement", None)
        if isinstance(st, str) and st:
            parts = re.split(r"\{[^{}]*\}", st)
            out.append(Declared(re.compile("^" + ".+?".join(re.escape(p) for p in parts) + "$"),
                                re.sub(r"\{([^{}]*)\}", r"\1", st)))
    return out


def _section_key(text: str) -> tuple:
    nums = re.findall(r"\d+", text or "")
    return tuple(int(x) for x in nums) if nums else (float("inf"),)


def group_claims(rows: list[dict], order: list[Declared] | None = None,
                 datasets: list[str] | None = None, metrics: list[str] | None = None
                 ) -> list[dict]:
    """The rows of one paper's claims as groups, one per claim (artifact and declared
    statement: "DORM with the first {m} queries …" is one claim whatever m), in the paper's
    order: by section, then as declared (``order``), then as first met; a group's rows by
    data set (``datasets``' order) and measure (``metrics``' order, else numerically: NDCG@5
    before NDCG@10).  Each group: its statement, where the paper makes it, key or not, its
    rows, and the test when every row shares it."""
    order = order or []
    groups: dict[tuple, dict] = {}
    for i, row in enumerate(rows):
        declared = next((j for j, d in enumerate(order) if d.match(row["statement"])),
                        len(order))
        statement = (order[declared].statement if declared < len(order)
                     and order[declared].statement != row["statement"] else row["statement"])
        k = (row["paper"], row["artifact"], statement)
        g = groups.get(k)
        if g is None:
            g = groups[k] = {"statement": statement, "where": row["where"],
                             "artifact": row["artifact"], "paper": row["paper"],
                             "href": row["href"], "rows": [], "first": i,
                             "declared": declared}
        g["rows"].append(row)
    ds_pos = {d: i for i, d in enumerate(datasets or [])}
    m_pos = {m: i for i, m in enumerate(metrics or [])}

    def row_key(row):
        d = row["dataset"].split(" (stand-in")[0]
        return (ds_pos.get(d, len(ds_pos)), value_order(row["dataset"]),
                m_pos.get(row["measure"], len(m_pos)), value_order(row["measure"]))
    out = []
    for g in groups.values():
        g["rows"].sort(key=row_key)
        tests = {r["test"] for r in g["rows"] if r["test"]}
        g["test"] = tests.pop() if len(tests) == 1 and all(r["test"] for r in g["rows"]) \
            else ""
        g["key"] = any(r["key"] for r in g["rows"])
        for r in g["rows"]:
            r["notes"] = "; ".join(x for x in (r["n"], r["extra"], r["why"],
                                               "" if g["test"] else r["test"]) if x)
        g["where"] = next((r["where"] for r in g["rows"] if r["where"]), "")
        g["section"] = next((r["section"] for r in g["rows"] if r["section"]), "")
        out.append(g)
    out.sort(key=lambda g: (g["paper"], _section_key(g["section"]), g["declared"],
                            g["first"]))
    for i, g in enumerate(out, 1):
        g["id"] = f"claim-{g['paper']}-{i}"
    return out


def scoreboard(claims: list[dict], key_only: bool, order: list[Declared] | None = None,
               datasets: list[str] | None = None, metrics: list[str] | None = None) -> dict:
    """The claims a scoreboard shows (the ``key`` ones with ``key_only``, all when none is
    marked key), grouped one group per claim in the paper's order, the count of each outcome
    in words, and whether its rows show effect ratios or ΔRI (the glossary says what they
    are)."""
    shown = [r for r in claims if r.get("key")] if key_only else list(claims)
    if key_only and not shown:
        shown = list(claims)
    counts = {o: sum(1 for r in shown if claim_outcome(r) == o) for o in OUTCOMES}
    words = ", ".join(f"{n} {o}" for o, n in counts.items() if n)
    groups = group_claims(shown, order, datasets, metrics)
    return {"claims": shown, "groups": groups, "counts": counts, "words": words,
            "total": len(shown), "all": len(claims),
            "keyed": any(r.get("key") for r in claims),
            "stand_in": any(r.get("stand_in") for r in shown),
            "adjusted": any(r.get("p_adj") for r in shown),
            "measures": any("effect ratio" in r.get("extra", "") or "ΔRI" in r.get("extra", "")
                            for r in shown)}


def _n(t: Tally, b: str) -> int:
    return t.buckets.get(b, 0)


def counts_in_words(t: Tally) -> str:
    """A page's counts as a newcomer reads them: how many published values were rerun on the
    paper's data, how many of those are reproduced (agrees, within noise), counted apart
    (borderline, offset, same evidence) or deviate, and the rest (stand-in data, not run,
    checks, derived values, not compared)."""
    rerun, good = t.reproduced, t.agreeing
    parts = []
    if rerun:
        tol = f", {_n(t, 'within')} within a computed tolerance" if _n(t, "within") else ""
        apart = ", ".join(f"{_n(t, b)} {words}" for b, words in (
            ("borderline", "borderline"), ("offset", "in offset columns"),
            ("same evidence", "repeating another cell's evidence")) if _n(t, b))
        gone = _n(t, "deviates") + _n(t, "deterministic")
        once = (f" ({_n(t, 'deterministic')} deterministic)" if _n(t, "deterministic")
                else "")
        parts.append(f"{good} of the {rerun} published values rerun on the paper's data are "
                     f"reproduced ({_n(t, 'agrees')} agree at the paper's rounding, "
                     f"{_n(t, 'noise')} within noise{tol})" + (f"; {apart};" if apart else "")
                     + f" and {gone} deviate{once}")
    else:
        parts.append("no published value was rerun on the paper's data")
    for b, words in (("stand-in", "computed on stand-in data (not reproductions)"),
                     ("not run", "not run"), ("check", "consistency checks"),
                     ("derived", "derived values (never counted as reproduced)"),
                     ("not compared", "shown, not compared"),
                     ("unverified", "on an unverified copy of the data")):
        if _n(t, b):
            parts.append(f"{_n(t, b)} {words}")
    return "; ".join(parts) + "."


REPRODUCED_MEANS = ("“Reproduced” means our value agrees with the published one at the "
                    "paper's rounding, or the published value lies inside the 95% interval "
                    "its noise allows (“within noise”: on the paper's own test queries, our "
                    "run-to-run spread over replicates — the prediction interval of one run; "
                    "on another sample, the sampling interval over replicates and queries). "
                    "Values at the edge of that interval (“borderline”), in a column "
                    "systematically off the paper's (“offset”) or repeating another cell's "
                    "per-query values (“same evidence”) are counted apart, never as "
                    "reproduced. Claims are judged by paired tests, Holm-adjusted across each "
                    "paper's claims.")

