"""The colours of verdicts and claim outcomes — one palette for table cells, legends and
figures — and the words a legend gives each colour.

A verdict's colour class is its code (:func:`repro.report.verdicts.verdict_class`: "not run"
→ "not-run", a claim's outcome → "claim-replicated"); every class has a *fill* (a cell's
background) and a *mark* (a figure's dot or bar: the same hue, stronger); a class the palette
does not name is grey.  The stylesheet's verdict rules are generated from the palette
(:func:`verdict_css`), so that a page and its figures use the same colours.
"""
from __future__ import annotations

from .verdicts import SHORT

#: colour class -> (fill, mark)
PALETTE = {
    "reproduced": ("#dcf1dc", "#2e7d32"),
    "inconclusive": ("#fff2c2", "#b58900"),
    "deviates": ("#f6d2d2", "#c62828"),
    "stand-in": ("#e0eaf8", "#3b6fb6"),
    "derived": ("#efe9d6", "#8d7a3a"),
    "consistent": ("#e6f0e6", "#558b2f"),
    "inconsistent": ("#f3dcdc", "#ad4747"),
    "unverified": ("#fbe9d0", "#d08a1e"),
    "not-compared": ("#f7f7f2", "#8d8d7a"),
    "ours-only": ("#ffffff", "#9e9e9e"),
    "baseline": ("#fafafa", "#9e9e9e"),
    "unreadable": ("#fafafa", "#9e9e9e"),
    "undefined": ("#f1f1f1", "#9e9e9e"),
    "not-run": ("#f1f1f1", "#9e9e9e"),
    "modern": ("#f1eefa", "#6a4fb3"),
    "user": ("#eaf5f0", "#2a8a6a"),
    "column": ("#fde3c8", "#e07020"),
    "claim": ("#f1f1f1", "#9e9e9e"),
    "claim-replicated": ("#dcf1dc", "#2e7d32"),
    "claim-not-replicated": ("#f6d2d2", "#c62828"),
    "claim-reversed": ("#e8c2c2", "#8e1b1b"),
    "claim-inconclusive": ("#fff2c2", "#b58900"),
    "claim-not-testable": ("#f1f1f1", "#9e9e9e"),
}
GREY = ("#f1f1f1", "#9e9e9e")

#: what a legend says of a class (its meaning, never its own name again)
MEANING = {
    "reproduced": "ours − published inside ±δ, the paper's resolution (two one-sided tests)",
    "inconclusive": "neither inside nor beyond ±δ: more replicates or queries would decide",
    "deviates": "ours − published beyond ±δ (its 95% interval)",
    "stand-in": "computed on substitute data: not a reproduction",
    "derived": "a value derived from the paper's words or partly from its numbers",
    "consistent": "a check of our reading of the paper holds",
    "inconsistent": "a check of our reading fails",
    "unverified": "computed on an unverified copy of the data",
    "not-compared": "shown beside ours; the paper does not say what it measures",
    "not-run": "not run (the reason is given)",
    "modern": "a modern method beside the paper's (LambdaMART)",
    "user": "your method, beside the paper's",
    "column": "ours − published over a column: its offset and ordering",
    "claim-replicated": "our effect significant in the claimed direction",
    "claim-not-replicated": "our effect significantly smaller than the paper's",
    "claim-reversed": "our effect significant in the other direction",
    "claim-inconclusive": "neither: more queries or data sets would decide",
    "claim-not-testable": "no evidence here to test it (the reason is given)",
}


def colours(css: str) -> tuple[str, str]:
    """(fill, mark) of a colour class (grey for a class the palette does not name)."""
    return PALETTE.get(css, GREY)


def fill(css: str) -> str:
    return colours(css)[0]


def mark(css: str) -> str:
    return colours(css)[1]


def classes() -> list[str]:
    """Every colour class, in the palette's order."""
    return list(PALETTE)


def short(css: str) -> str:
    """A class's short word ("agrees", "within noise", "stand-in")."""
    return SHORT.get(css, css)


def meaning(css: str) -> str:
    """What a legend says of a class: its meaning, never its own word again."""
    return MEANING.get(css, "")


def verdict_css() -> str:
    """The stylesheet's verdict rules: a cell's, a claim outcome's and a legend swatch's
    background for every class (so that new members of the enumeration are coloured)."""
    rules = []
    for c in classes():
        f = fill(c)
        rules.append(f"td.{c}, .legend .{c}, .sw.{c} {{ background: {f}; }}")
    rules.append("td.not-run, td.undefined, td.claim-not-testable { color: #666; } "
                 "td.baseline, td.unreadable, td.not-compared { color: #555; }")
    return "\n".join(rules)
