"""The glossary page (``glossary.html`` at the report's root): every verdict word, claim
outcome and term of the claim rows defined once; every page links its verdict words here
(:func:`.matrix.gloss`) instead of defining them again."""
from __future__ import annotations

from pathlib import Path

from .legend import TERMS
from .matrix import GLOSSARY_FILE
from .palette import meaning
from .pdf import write_page
from .render import common, footer_css, template

#: (anchor, word, colour class or "", definition), in the order a reader meets them
ENTRIES = [
    ("delta", "δ, the paper's resolution", "",
     "the margin a published value is judged against: one standard error of the value over "
     "the paper's test queries — the smallest difference the paper's own experiment could "
     "tell apart — never below half a unit of the value's last printed digit; a paper may "
     "declare another margin with its reason"),
    ("d", "d", "", "ours − published; its 90% interval holds our run-to-run spread (seeds, "
     "arithmetic jitter) and, where our queries are not the paper's, query sampling"),
    ("reproduced", "reproduced", "reproduced",
     "ours − published lies inside ±δ: the 90% interval of d inside ±δ (two one-sided tests "
     "at 5 %; 94.55% for a value of the two-stage replicate design, which looks twice); a "
     "deterministic value on the paper's own queries when |d| < δ"),
    ("inconclusive", "inconclusive", "inconclusive",
     "neither inside nor beyond ±δ: more replicates or more queries would decide (where 8 "
     "replicates would, the two-stage design runs them)"),
    ("deviates", "deviates", "deviates", "the 95% interval of d lies entirely beyond +δ or −δ "
     "(97.36% in the two-stage replicate design)"),
    ("stand-in", "stand-in", "stand-in",
     "computed on substitute data, named with the data it stands in for (the paper's was "
     "never public): never a reproduction, never deviating"),
    ("not-run", "not run", "not-run", "not computed here; each page gives the reason (data "
     "not available, not implemented, failed)"),
    ("derived", "derived value", "derived", meaning("derived") + "; never counted as "
     "reproduced"),
    ("check", "consistency check", "consistent",
     "a check of our reading of the paper: consistent when the equivalence rule says "
     "reproduced, inconsistent otherwise"),
    ("unverified", "unverified copy", "unverified", meaning("unverified")),
    ("offset", "column offset", "column",
     "the mean of d over one column (one data set and measure) with its interval: an offset "
     "shared by every method, the standard baselines included, points at a difference of "
     "evaluation or data, not of method; context, never a verdict"),
    ("key-claim", "key claim", "", "a headline claim of the paper; the key claims of a "
     "paper are one family, Holm-adjusted; its other claims Benjamini–Hochberg-adjusted"),
    ("replicated", "replicated", "claim-replicated",
     "our effect is significant in the claimed direction after the family's adjustment "
     "(a paired test on per-query values; over folds, the exact sign-flip test)"),
    ("not-replicated", "not replicated", "claim-not-replicated",
     "not significant in the claimed direction, and our effect significantly smaller than "
     "the paper's"),
    ("reversed", "reversed", "claim-reversed", "our effect is significant in the other "
                                               "direction"),
    ("claim-inconclusive", "inconclusive (claim)", "claim-inconclusive",
     "neither replicated, reversed nor not replicated: more queries or data sets would "
     "decide"),
    ("not-testable", "not testable here", "claim-not-testable",
     "no evidence here to test the claim; its row gives the reason"),
    *[(t.replace(" ", "-").replace("%", "").replace("−", "minus").replace("Δ", "delta-"),
       t, "", text) for t, text in TERMS.items() if t != "stand-in"],
]


def anchor_of(term: str) -> str:
    """The glossary anchor of a claim-row term ("effect ratio" → "effect-ratio")."""
    for a, word, _, _ in ENTRIES:
        if word == term:
            return a
    raise KeyError(f"no glossary entry for {term!r}")


def render_glossary(out_root: Path, log=print, written: list | None = None) -> Path:
    """``<out>/glossary.html``: every definition the pages link to."""
    html = template("glossary.html.j2").render(
        entries=[{"id": a, "word": w, "css": c, "text": t} for a, w, c, t in ENTRIES],
        **common(), footer=footer_css("repro-rank glossary"))
    path = Path(out_root) / GLOSSARY_FILE
    write_page(html, path, Path(out_root) / "glossary.pdf", False, log, None, written)
    return path
