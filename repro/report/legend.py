"""What a page's colours and terms mean: the legend of the verdict colours a page uses (from
the enumeration, :mod:`.palette`: each colour's short word and its meaning — never a word
explained by itself) and the glossary of the terms its claim rows use (effect, interval,
adjusted p, effect ratio, ΔRI), where they appear."""
from __future__ import annotations

from .palette import classes, meaning, short
from .verdicts import BUCKETS, HEADERS, LABELS

#: the classes every value legend shows (the reproduction verdicts), whatever the page has
ALWAYS = ("reproduced", "inconclusive", "deviates", "stand-in", "not-run")


def legend(present: set[str] | list[str]) -> list[dict]:
    """The legend of a page whose records have the colour classes ``present``: the
    reproduction verdicts always, every other class the page uses, in the enumeration's
    order; each with its short word and meaning."""
    wanted = set(present) | set(ALWAYS)
    order = classes() + sorted(c for c in wanted if c not in classes())
    skip = {"claim", "column", "ours-only"} | {c for c in order if c.startswith("claim-")}
    return [{"css": c, "word": short(c), "meaning": meaning(c), "anchor": anchor_of_class(c)}
            for c in order if c in wanted and c not in skip]


#: colour class -> its glossary anchor, where it differs from the class
_ANCHORS = {"consistent": "check", "inconsistent": "check", "column": "offset",
            "claim-replicated": "replicated", "claim-not-replicated": "not-replicated",
            "claim-reversed": "reversed", "claim-inconclusive": "claim-inconclusive",
            "claim-not-testable": "not-testable"}
#: the classes the glossary defines under their own name
_OWN = ("reproduced", "inconclusive", "deviates", "stand-in", "not-run", "derived",
        "unverified")


def anchor_of_class(css: str) -> str:
    """The glossary anchor of a colour class ("" where the glossary has no entry: the link
    goes to the glossary's top)."""
    return css if css in _OWN else _ANCHORS.get(css, "")


#: terms of the claim rows, in the order a reader meets them
TERMS = {
    "A − B": "what the effect compares: the mean per-query (or per-fold) value of the "
             "method or setting named first minus that of the one named second",
    "effect": "our advantage in the direction the paper claims: the mean paired difference "
              "A − B, signed so that positive supports the claim",
    "95% interval": "the interval of that mean difference (bootstrap over queries; "
                    "t-interval over folds)",
    "p": "the claim's own test (for a claim over several comparisons, as its test says)",
    "adjusted p": "the p-value adjusted across the paper's claims: Holm over its key claims, "
                  "Benjamini–Hochberg over the others",
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


def bucket_meanings() -> dict[str, str]:
    """Bucket → what its count column means ("" where the header says it all)."""
    return {b: ("" if LABELS[b].strip().lower() == HEADERS[b].strip().lower() else LABELS[b])
            for b in BUCKETS}
