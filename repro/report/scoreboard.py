"""The claims of a paper page and of the index (records with ``claim``, each judged as a
replication), as rows that read alone — the claim, its data (stand-ins named), its measure,
the comparison "A − B" with both names, the paper's effect beside ours with its 95% interval
and the effect ratio, the p-value (the claim's own and adjusted across its family) and the
outcome — one group per claim, the groups in the paper's order; and a page's counts in
words."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..evidence.record import defined
from .commands import commands
from .legend import anchor_of_class
from .format import (fmt_count, fmt_effect, fmt_effect_ci, fmt_general, fmt_p, value_order)
from .standins import data_label, is_stand_in
from .verdicts import OUTCOME_WORDS, OUTCOMES, Tally, outcome_class

NOT_TESTABLE = "not testable"


def claim_outcome(r: dict) -> str:
    """A claim record's outcome code: its ``outcome`` field, else "not testable" (a claim not
    run, or one without a test)."""
    return r["outcome"] if r.get("outcome") in OUTCOMES else NOT_TESTABLE


_number = defined          # the one definedness rule (repro.evidence.record)


def p_values(r: dict) -> tuple[float | None, float | None]:
    """(the claim's own p, its p adjusted across its family) of a claim record."""
    raw = r["p_value"] if _number(r.get("p_value")) else None
    adj = r["p_adjusted"] if _number(r.get("p_adjusted")) else None
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
    if _number(r.get("published_effect")):
        extra.append(f"paper's effect {fmt_general(float(r['published_effect']))}")
    if _number(r.get("effect_ratio")):
        rci = r.get("effect_ratio_ci95")
        extra.append(f"effect ratio {fmt_general(float(r['effect_ratio']))}"
                     + (f" [{fmt_general(rci[0])}, {fmt_general(rci[1])}]" if rci else ""))
    if r.get("same_test_as"):
        extra.append(f"the same test as “{r['same_test_as']}”")
    if _number(r.get("delta_ri")):
        extra.append(f"ΔRI {fmt_general(float(r['delta_ri']))}")
    nums = r.get("numbers") or {}
    numbers = "; ".join(f"{k}: {fmt_general(float(v)) if _number(v) else v}"
                        for k, v in sorted(nums.items(), key=lambda kv: value_order(kv[0])))
    stand_ins = stand_ins or {}
    on_stand_in = is_stand_in(r, stand_ins)
    cmd = commands(r.get("paper", ""), r.get("artifact", ""), per_query=per_query)
    css = outcome_class(out)
    return {"statement": r.get("statement") or r.get("metric") or r.get("method") or "",
            "where": _where_in_paper(r), "section": _section(r),
            "dataset": data_label(r, stand_ins),
            "stand_in": on_stand_in, "measure": _measure(r), "compared": compared(r),
            "outcome": OUTCOME_WORDS_BY_CODE.get(out, out), "code": out, "css": css,
            "anchor": anchor_of_class(css),
            "family": r.get("family") or "",
            "effect": fmt_effect(eff, r.get("effect_ci95")),
            "ci": fmt_effect_ci(r.get("effect_ci95")),
            "paper_effect": (fmt_effect(r["published_effect"], r.get("effect_ci95"))
                             if _number(r.get("published_effect")) else ""),
            "ratio": (fmt_general(float(r["effect_ratio"]))
                      if _number(r.get("effect_ratio")) else ""),
            "p": fmt_p(raw), "p_adj": fmt_p(adj) if adj is not None else "",
            "n": n, "test": r.get("test") or "", "why": r.get("why") or "",
            "numbers": numbers, "extra": ", ".join(extra), "key": bool(r.get("key")),
            "artifact": r.get("artifact", ""), "paper": r.get("paper", ""), "href": href,
            "command": cmd["recompute"]}


#: an outcome code's words
OUTCOME_WORDS_BY_CODE = {o.value: w for o, w in OUTCOME_WORDS.items()}


def claims_of(flat: list[dict]) -> list[dict]:
    """Claim records judged as replications (an ``outcome``); a record merely marked
    ``claim`` — a value compared with a claim's number, e.g. stevens2010's "1% as many
    features" — is a value, not a tested claim."""
    return [r for r in flat if r.get("claim") and r.get("outcome") in OUTCOMES]


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
    for agg in art.judging.aggregate:
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
        for r in g["rows"]:      # visible: what a reader needs; the rest on hover
            r["notes"] = "; ".join(x for x in (r["n"], r["why"]) if x)
            r["detail"] = "; ".join(x for x in (r["numbers"], r["extra"],
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
    words = ", ".join(f"{n} {OUTCOME_WORDS_BY_CODE[o]}" for o, n in counts.items() if n)
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
    """A page's counts as a newcomer reads them: of the published values rerun on the
    paper's data, how many reproduced within the paper's resolution, are inconclusive or
    deviate; then the rest (stand-in data, not run, checks, derived values, not compared)."""
    parts = []
    if t.rerun:
        parts.append(f"{_n(t, 'reproduced')} of the {t.rerun} published values rerun on the "
                     f"paper's data reproduced within the paper's resolution, "
                     f"{_n(t, 'inconclusive')} inconclusive, {_n(t, 'deviates')} deviate")
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


REPRODUCED_MEANS = ("“Reproduced” means ours − published lies within ±δ, the paper's own "
                    "resolution (one standard error over its test queries, never below half a "
                    "unit of its last printed digit), by two one-sided tests at 5 %; "
                    "“deviates” that the difference lies beyond ±δ; “inconclusive” neither. "
                    "Claims are judged as replications: our effect beside the paper's, "
                    "replicated when significant in the claimed direction (Holm over each "
                    "paper's key claims, Benjamini–Hochberg over the others).")
