"""The claims scoreboard of a paper page and of the index (records with ``claim``, each judged
by a paired test: its outcome, effect, 95% interval and p-value; on the index the ``key`` claims
of each paper), and a page's counts in words ("reproduced" = agrees at the paper's rounding,
or within noise)."""
from __future__ import annotations

from .commands import commands
from .format import fmt_count, fmt_effect, fmt_effect_ci, fmt_general, fmt_p
from .verdicts import OUTCOMES, Tally, verdict_class


def claim_outcome(r: dict) -> str:
    """A claim record's outcome: its ``outcome`` field, else its verdict when that is an
    outcome, else "not testable here" (a claim not run, or one without a test)."""
    if r.get("outcome") in OUTCOMES:
        return r["outcome"]
    if r.get("verdict") in OUTCOMES:
        return r["verdict"]
    return "not testable here"


def claim_row(r: dict, href: str = "") -> dict:
    """A scoreboard row of one claim record."""
    out = claim_outcome(r)
    eff = r.get("effect", r.get("value")) if out != "not testable here" else None
    effect = fmt_effect(eff)
    ci = fmt_effect_ci(r.get("ci95"))
    n = (f"{fmt_count(r['n_queries'])} queries" if r.get("n_queries") else
         f"{r['n_folds']} folds" if r.get("n_folds") else "")
    extra = []
    if isinstance(r.get("effect_ratio"), (int, float)):
        extra.append(f"effect ratio {fmt_general(float(r['effect_ratio']))}")
    if isinstance(r.get("delta_ri"), (int, float)):
        extra.append(f"ΔRI {fmt_general(float(r['delta_ri']))}")
    numbers = "; ".join(f"{k}: {fmt_general(float(v)) if isinstance(v, (int, float)) else v}"
                        for k, v in (r.get("numbers") or {}).items())
    cmd = commands(r.get("paper", ""), r.get("artifact", ""))
    return {"statement": r.get("statement") or r.get("metric") or r.get("method") or "",
            "dataset": (r.get("dataset") or "") + (
                f" (stand-in: {r['data_used']})" if r.get("stand_in") and r.get("data_used")
                else ""), "outcome": out,
            "css": verdict_class(out) if out in OUTCOMES else "not-testable",
            "effect": effect, "ci": ci, "p": fmt_p(r.get("p_value")), "n": n,
            "test": r.get("test") or "", "why": r.get("why") or "",
            "numbers": numbers, "extra": ", ".join(extra), "key": bool(r.get("key")),
            "artifact": r.get("artifact", ""), "href": href, "command": cmd["recompute"]}


def claims_of(flat: list[dict]) -> list[dict]:
    """Claim records judged by a test (an ``outcome``); a record merely marked ``claim`` —
    a value compared with a claim's number, e.g. stevens2010's "1% as many features" — is a
    value, not a tested claim."""
    return [r for r in flat if r.get("claim") and (r.get("outcome") in OUTCOMES
                                                    or r.get("verdict") in OUTCOMES)]


def scoreboard(claims: list[dict], key_only: bool) -> dict:
    """The claims a scoreboard shows (the ``key`` ones with ``key_only``, all when none is
    marked key) and the count of each outcome in words."""
    shown = [r for r in claims if r.get("key")] if key_only else list(claims)
    if key_only and not shown:
        shown = list(claims)
    counts = {o: sum(1 for r in shown if claim_outcome(r) == o) for o in OUTCOMES}
    words = ", ".join(f"{n} {o}" for o, n in counts.items() if n)
    return {"claims": shown, "counts": counts, "words": words, "total": len(shown),
            "all": len(claims), "keyed": any(r.get("key") for r in claims)}


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

