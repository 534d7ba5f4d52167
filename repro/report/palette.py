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

#: colour class -> (fill, mark); the verdicts' colours differ from each other (so do the
#: claim outcomes'); a claim outcome shares the hue of the verdict of the same meaning
PALETTE = {
    "reproduced": ("#dcf1dc", "#2e7d32"),
    "inconclusive": ("#fff2c2", "#b58900"),
    "deviates": ("#f6d2d2", "#c62828"),
    "stand-in": ("#e0eaf8", "#3b6fb6"),
    "derived": ("#efedd0", "#827717"),
    "consistent": ("#d6eff2", "#00838f"),
    "inconsistent": ("#f6d6e6", "#ad1457"),
    "unverified": ("#fbe4cf", "#e65100"),
    "not-compared": ("#f5f5e6", "#a6a05a"),
    "ours-only": ("#ffffff", "#bdbdbd"),
    "baseline": ("#f7f7f7", "#6e6e6e"),
    "unreadable": ("#ece7e4", "#6d4c41"),
    "undefined": ("#e4e4e4", "#424242"),
    "not-run": ("#efefef", "#9e9e9e"),
    "modern": ("#ebe6f7", "#4527a0"),
    "user": ("#f3e3f6", "#8e24aa"),
    "column": ("#fde3c8", "#b35a00"),
    "claim": ("#f1f1f1", "#9e9e9e"),
    "claim-replicated": ("#dcf1dc", "#2e7d32"),
    "claim-not-replicated": ("#f6d2d2", "#c62828"),
    "claim-reversed": ("#e8c2c2", "#8e1b1b"),
    "claim-inconclusive": ("#fff2c2", "#b58900"),
    "claim-not-testable": ("#efefef", "#9e9e9e"),
}
GREY = ("#f1f1f1", "#9e9e9e")

#: what a legend says of a class: its meaning, never a word of its short word again
#: ("not run: the reason is given beside the value", not "not run: not run")
MEANING = {
    "reproduced": "ours − published inside ±δ, the paper's resolution (two one-sided tests)",
    "inconclusive": "neither inside nor beyond ±δ: more replicates or queries would decide",
    "deviates": "ours − published beyond ±δ (its 95% interval)",
    "stand-in": "computed on substitute sets: not a reproduction",
    "derived": "computed from the paper's words, or partly from its published numbers",
    "consistent": "our reading of the paper passes a test of it",
    "inconsistent": "our reading of the paper fails a test of it",
    "unverified": "computed on files whose checksums do not match the catalogue's (or have none)",
    "not-compared": "the paper does not say what its number measures",
    "ours-only": "no published number to compare with",
    "baseline": "the paper copied it from elsewhere",
    "unreadable": "the source's digits cannot be read",
    "undefined": "the computation gives no number",
    "not-run": "the reason is given beside the value",
    "modern": "LambdaMART, a later learner, for scale",
    "user": "yours, beside the published ones",
    "column": "ours − published over all cells under one heading: their offset and ordering",
    "claim-replicated": "our effect significant in the claimed direction",
    "claim-not-replicated": "our effect significantly smaller than the paper's",
    "claim-reversed": "our effect significant in the other direction",
    "claim-inconclusive": "neither: more queries or data sets would decide",
    "claim-not-testable": "no evidence in this suite (the reason is given)",
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
