"""What a page's colours and terms mean: the legend of the verdict colours a page uses (from
the enumeration, :mod:`.palette`: each colour's short word and its meaning — never a word
explained by itself) and the glossary of the terms its claim rows use (effect, interval,
adjusted p, effect ratio, ΔRI), where they appear."""
from __future__ import annotations

from ..judge.verdicts import Bucket
from .palette import classes, meaning, short

#: the classes every value legend shows (the reproduction verdicts), whatever the page has
ALWAYS = ("agrees", "within-noise", "deviates", "stand-in", "not-run")


def legend(present: set[str] | list[str]) -> list[dict]:
    """The legend of a page whose records have the colour classes ``present``: the
    reproduction verdicts always, every other class the page uses, in the enumeration's
    order; each with its short word and meaning."""
    wanted = set(present) | set(ALWAYS)
    order = classes() + sorted(c for c in wanted if c not in classes())
    skip = {"holds", "contradicted", "not-significant", "not-testable", "no-published"}
    return [{"css": c, "word": short(c), "meaning": meaning(c)}
            for c in order if c in wanted and c not in skip]


#: terms of the claim rows, in the order a reader meets them
TERMS = {
    "A − B": "what the effect compares: the mean per-query (or per-fold) value of the "
             "method or setting named first minus that of the one named second",
    "effect": "the mean paired difference A − B (positive: A above B), printed at the "
              "precision of its interval",
    "95% interval": "the bootstrap interval of that mean difference",
    "p": "the paired test's p-value, as computed",
    "adjusted p": "the p-value adjusted for the several comparisons behind one claim "
                  "(Holm's method, as the test says); '—' where the test needs none",
    "effect ratio": "our effect divided by the published one (Breuer et al., SIGIR 2020): 1 "
                    "is the published improvement at full size, 0.4 at 40 % of it, negative "
                    "the opposite direction",
    "ΔRI": "our relative improvement minus the published one, RI = (A − B) / B (Breuer et "
           "al. 2020): 0 is the same relative gain",
    "stand-in": "a claim or value computed on substitute data (named with the data it "
                "stands in for): never a reproduction of the paper's number",
}


def glossary(board: dict) -> list[tuple[str, str]]:
    """The terms a scoreboard's rows use, with their meaning: the row's columns always
    (where it has claims), adjusted p, effect ratio, ΔRI and stand-in where they appear."""
    if not board.get("total"):
        return []
    rows = board.get("claims", [])
    used = ["A − B", "effect", "95% interval", "p"]
    if any(r.get("p_adj") for r in rows):
        used.append("adjusted p")
    if any("effect ratio" in r.get("extra", "") for r in rows):
        used.append("effect ratio")
    if any("ΔRI" in r.get("extra", "") for r in rows):
        used.append("ΔRI")
    if any(r.get("stand_in") for r in rows):
        used.append("stand-in")
    return [(t, TERMS[t]) for t in used]


#: what a count column means, by bucket (a bucket without an entry: its label, unless that
#: only repeats its header)
_BUCKET_MEANING = {
    "agrees": "equal to the published value at the paper's rounding",
    "noise": "the published value lies inside our 95% interval",
    "within": "within a tolerance whose reason is computed",
    "deviates": "the published value lies outside our 95% interval",
    "stand-in": "computed on substitute data (not reproductions)",
    "check": "checks of our reading of the paper (not reproductions)",
    "derived": "values derived from the paper's words (never counted as reproduced)",
    "undefined": "our value is NaN",
    "not run": "published values we did not rerun (the reason is given)",
    "claims": "claims judged by paired tests",
}


def _same(a: str, b: str) -> bool:
    """Whether two words say the same ("agree" and "agrees")."""
    a, b = a.strip().lower().rstrip("s"), b.strip().lower().rstrip("s")
    return a == b or a.startswith(b) and len(a) - len(b) <= 2


def bucket_meanings() -> dict[str, str]:
    """Bucket → what its count column means ("" where the header says it all)."""
    out = {}
    for b in Bucket:
        text = _BUCKET_MEANING.get(b.value, b.label)
        out[b.value] = "" if _same(text, b.header) else text
    return out
