"""The colours of verdicts and claim outcomes — one palette for table cells, legends and
figures — and the words a legend gives each colour.

A verdict's colour class is its member's ``css`` in :class:`repro.judge.verdicts.Verdict`
(with the qualified classes "stand-in", "unverified", "derived-…"); every class has a *fill*
(a cell's background) and a *mark* (a figure's dot or bar: the same hue, stronger).  A class
this palette does not name — a member added to the enumeration later — takes its bucket's
colour, else a neutral grey, so that a new verdict is drawn and legended without a change
here.  The stylesheet's verdict rules are generated from the palette (:func:`verdict_css`),
so that a page and its figures use the same colours.
"""
from __future__ import annotations

from ..judge.verdicts import SHORT, Bucket, Verdict

#: colour class -> (fill, mark)
PALETTE = {
    "agrees": ("#dcf1dc", "#2e7d32"),
    "within-noise": ("#d3ede6", "#00897b"),
    "within": ("#fff2c2", "#b58900"),
    "deviates": ("#f6d2d2", "#c62828"),
    "stand-in": ("#e0eaf8", "#3b6fb6"),
    "unverified": ("#fbe9d0", "#d08a1e"),
    "consistent": ("#e6f0e6", "#558b2f"),
    "inconsistent": ("#f6d2d2", "#c62828"),
    "derived-agrees": ("#e6f0e6", "#7cb342"),
    "derived-within": ("#f8f2d8", "#c9a227"),
    "derived-deviates": ("#f6d2d2", "#e57373"),
    "not-compared": ("#f7f7f2", "#8d8d7a"),
    "no-published": ("#ffffff", "#9e9e9e"),
    "baseline": ("#fafafa", "#9e9e9e"),
    "unreadable": ("#fafafa", "#9e9e9e"),
    "undefined": ("#f1f1f1", "#9e9e9e"),
    "not-run": ("#f1f1f1", "#9e9e9e"),
    "modern": ("#f1eefa", "#6a4fb3"),
    "user": ("#eaf5f0", "#2a8a6a"),
    "holds": ("#dcf1dc", "#2e7d32"),
    "contradicted": ("#f6d2d2", "#c62828"),
    "not-significant": ("#fff2c2", "#b58900"),
    "not-testable": ("#f1f1f1", "#9e9e9e"),
    "borderline": ("#efe4f7", "#8e5bb5"),
    "deviates-once": ("#f6d2d2", "#c62828"),
    "offset": ("#fde3c8", "#e07020"),
    "same-evidence": ("#e8eef2", "#607d8b"),
    "column-offset": ("#fde3c8", "#e07020"),
    "column-level": ("#f1f1f1", "#9e9e9e"),
    "holds-deviating": ("#f3ead2", "#b08a2e"),
}
#: the colour of a bucket whose classes the palette does not name (new verdicts of issue 25's
#: judge, say), by the bucket's key
BUCKET_COLOURS = {
    "agrees": PALETTE["agrees"], "noise": PALETTE["within-noise"],
    "within": PALETTE["within"], "deviates": PALETTE["deviates"],
    "offset": ("#fde3c8", "#e07020"), "borderline": ("#efe4f7", "#8e5bb5"),
    "same evidence": ("#e8eef2", "#607d8b"), "stand-in": PALETTE["stand-in"],
    "unverified": PALETTE["unverified"], "check": PALETTE["consistent"],
    "derived": PALETTE["derived-within"], "claims": PALETTE["not-significant"],
}
GREY = ("#f1f1f1", "#9e9e9e")

#: what a legend says of a class (its meaning, never its own name again); a class without
#: an entry here is explained by its bucket's label
MEANING = {
    "agrees": "equal to the published value at the paper's rounding",
    "within-noise": "the published value lies inside our 95% interval",
    "within": "within a tolerance whose reason is computed",
    "deviates": "the published value lies outside our 95% interval",
    "stand-in": "computed on substitute data: not a reproduction",
    "unverified": "computed on an unverified copy of the data",
    "consistent": "a check of our reading of the paper holds",
    "inconsistent": "a check of our reading fails",
    "derived-agrees": "a value derived from the paper's words agrees",
    "derived-within": "a derived value lies within its tolerance",
    "derived-deviates": "a derived value deviates",
    "not-compared": "shown beside ours; the paper does not say what it measures",
    "not-run": "not run (the reason is given)",
    "modern": "a modern method beside the paper's (LambdaMART)",
    "user": "your method, beside the paper's",
    "holds": "p < 0.05 with the claimed sign",
    "contradicted": "p < 0.05 with the opposite sign",
    "not-significant": "no significant difference either way",
    "not-testable": "no paired values to test (the reason is given)",
    "borderline": "the published value lies within the estimation error of our interval's bound",
    "deviates-once": "a deterministic method off the published value (no spread to allow)",
    "offset": "in a column systematically off the published values: counted apart",
    "same-evidence": "per-query values identical to another cell's: counted once",
    "column-offset": "ours − published is systematic over the column (Holm-adjusted t-test of the mean offset)",
    "column-level": "no systematic offset over the column",
    "holds-deviating": "holds here against a comparator that is itself weaker than published",
}


def _bucket_of_class() -> dict[str, Bucket]:
    out = {v.css: v.bucket for v in Verdict}
    out.update({"stand-in": Bucket.STAND_IN, "unverified": Bucket.UNVERIFIED,
                "derived-agrees": Bucket.DERIVED, "derived-within": Bucket.DERIVED,
                "derived-deviates": Bucket.DERIVED})
    return out


def colours(css: str) -> tuple[str, str]:
    """(fill, mark) of a colour class: the palette's, else its bucket's, else grey."""
    if css in PALETTE:
        return PALETTE[css]
    b = _bucket_of_class().get(css)
    return BUCKET_COLOURS.get(b.value, GREY) if b is not None else GREY


def fill(css: str) -> str:
    return colours(css)[0]


def mark(css: str) -> str:
    return colours(css)[1]


def classes() -> list[str]:
    """Every colour class the enumeration and its qualifiers give, in the enumeration's
    order."""
    out = list(dict.fromkeys([v.css for v in Verdict] + ["stand-in", "unverified",
                                                          "derived-agrees", "derived-within",
                                                          "derived-deviates"]))
    return out


def short(css: str) -> str:
    """A class's short word ("agrees", "within noise", "stand-in")."""
    return SHORT.get(css, css)


def meaning(css: str) -> str:
    """What a legend says of a class: its meaning, never its own word again."""
    if css in MEANING:
        return MEANING[css]
    b = _bucket_of_class().get(css)
    text = b.label if b is not None else ""
    return "" if text.strip().lower() == short(css).strip().lower() else text


def verdict_css() -> str:
    """The stylesheet's verdict rules: a cell's, a claim outcome's and a legend swatch's
    background for every class (so that new members of the enumeration are coloured)."""
    rules = []
    for c in classes():
        f = fill(c)
        rules.append(f"td.{c}, .legend .{c}, .sw.{c} {{ background: {f}; }}")
    rules.append("td.not-run, td.undefined, td.not-testable { color: #666; } "
                 "td.baseline, td.unreadable, td.not-compared { color: #555; }")
    return "\n".join(rules)
