"""Helpers of the report tests: the committed pages, and pages rendered on purpose (a paper
with a published table far wider than a page; a hand-made page with an over-wide table)."""
from __future__ import annotations

import os
import types
from pathlib import Path

from repro.spec import Artifact, Paper, RunLayout

# The committed reports, or another report directory to check (REPRO_CHECK_REPORTS=DIR).
REPORTS = Path(os.environ.get("REPRO_CHECK_REPORTS")
               or Path(__file__).resolve().parent.parent / "reports")


def rendered_with_verdict_legend(html: str) -> bool:
    """Whether a page was rendered by the current report code (its stylesheet has the
    palette's legend swatches of the equivalence verdicts): pages rendered before are not held
    to its checks."""
    return ".sw.reproduced" in html


def committed_pages() -> list[Path]:
    """Every HTML page of the committed reports."""
    if not REPORTS.is_dir():
        return []
    return sorted(REPORTS.glob("*.html")) + sorted(REPORTS.glob("*/index.html")) + \
        sorted(REPORTS.glob("*/timing/index.html"))


def committed_pdfs() -> list[Path]:
    return sorted(REPORTS.glob("*/*.pdf")) + sorted(REPORTS.glob("*/timing/*.pdf"))


WIDE_COLUMNS = [f"set{i:02d}" for i in range(1, 41)]


def wide_paper(tmp: Path) -> types.ModuleType:
    """A paper whose one published table has 40 columns of 4-decimal values (far wider than a
    landscape page), plus a small table: its pages must still fit."""
    toml = tmp / "widepaper.toml"
    rows = []
    for r, method in enumerate(("alpha", "beta-method", "gamma")):
        cells = ", ".join(f'"0.{(r * 41 + j) % 9000 + 1000:04d}"' for j in range(len(WIDE_COLUMNS)))
        rows.append(f'  ["{method}", {cells}],')
    toml.write_text("\n".join([
        "[tolerance]", "default = 0.0", "",
        "[[table]]", 'artifact = "table1"', 'source = "Table 1 (forty data sets)"',
        'metric = "MAP"', 'rows = "method"', 'cols = "dataset"',
        "columns = [" + ", ".join(f'"{c}"' for c in WIDE_COLUMNS) + "]",
        "data = [", *rows, "]", "",
        "[[table]]", 'artifact = "table2"', 'source = "Table 2"', 'dataset = "set01"',
        'rows = "metric"', 'cols = "method"', 'columns = ["alpha", "gamma"]',
        'data = [["MAP", "0.5000", "0.25"], ["NDCG@10", "0.6100", "0.33"]]', ""]),
        encoding="utf-8")
    mod = types.ModuleType("widepaper")
    mod.PAPER = Paper(id="widepaper", title="A paper with a very wide table", authors="A. Tester",
                      venue="tests", text="none.txt")
    mod.PUBLISHED_PATH = toml
    mod.NOTES = ["Nothing is implemented: every value is 'not run'."]
    mod.ARTIFACTS = [Artifact(
        "widepaper", "table1", "Forty data sets",
        layout=RunLayout(datasets=("synthetic",))),
                     Artifact(
                         "widepaper", "table2", "A small table",
                         layout=RunLayout(datasets=("synthetic",)))]
    return mod


def render_wide_paper(tmp: Path, pdf: bool) -> Path:
    """Write the wide paper's JSON, page (and PDF) into ``tmp/out``; returns the out dir."""
    from repro.judge.published import load
    from repro.pipeline import build_artifact
    from repro.report.index import render_index
    from repro.report.pages import render_paper
    mod = wide_paper(tmp)
    out = tmp / "out"
    published = load("widepaper", mod.PUBLISHED_PATH)
    for art in mod.ARTIFACTS:
        build_artifact(art, [], published, out / "widepaper", False)
    render_paper(mod, out, mod.NOTES, pdf=pdf, log=lambda *a, **k: None)
    render_index([mod], out)
    return out


def overwide_page(tmp: Path) -> Path:
    """A hand-made page with the suite's style and a table of 60 long numbers per row in one
    unbreakable line (what the old renderer produced for wide tables), a missing image and a
    broken link: every checker must report it."""
    from repro.report.render import css as _css
    cells = "".join(f"<td>{1234567.891 + i:.3f}</td>" for i in range(60))
    html = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{_css()}'
            f"table.bad td {{ white-space: nowrap; }}</style></head><body>"
            f"<h1>Over-wide</h1><table class=\"bad\"><thead><tr>"
            + "".join(f"<th>c{i}</th>" for i in range(60)) + "</tr></thead><tbody><tr>"
            + cells + "</tr></tbody></table>"
            '<img src="missing.svg" alt="missing"><a href="nowhere.html">broken</a>'
            "</body></html>")
    path = tmp / "overwide.html"
    path.write_text(html, encoding="utf-8")
    return path


# --- a paper with intervals, claims and a previous rendering ---------------------------------

CLAIMS_PAPER = "claimpaper"


def _claims_toml(tmp: Path) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    toml = tmp / "claimpaper.toml"
    toml.write_text("\n".join([
        "[tolerance]", "default = 0.0", "",
        "[[table]]", 'artifact = "table1"', 'source = "Table 1 (NDCG@10)"', 'metric = "NDCG@10"',
        'fold = "avg"', 'rows = "method"', 'cols = "dataset"', 'columns = ["MQ2007", "MQ2008"]',
        'data = [["alpha", "0.4410", "0.4720"], ["beta", "0.4300", "0.4650"]]', ""]),
        encoding="utf-8")
    return toml


def claims_paper(tmp: Path) -> types.ModuleType:
    """A paper with one published table whose values carry 95% intervals, and claim records
    judged by paired tests (two of them key claims)."""
    mod = types.ModuleType(CLAIMS_PAPER)
    mod.PAPER = Paper(id=CLAIMS_PAPER, title="A paper with intervals and claims",
                      authors="A. Tester", venue="tests", text="none.txt")
    mod.PUBLISHED_PATH = _claims_toml(tmp)
    # a transcript line reference in prose: kept off the visible page
    mod.NOTES = ["Table 1 is transcribed from the paper's text (lines 12–14, l.20)."]
    mod.ARTIFACTS = [Artifact(
        CLAIMS_PAPER, "table1", "Two methods on two sets",
        layout=RunLayout(datasets=("MQ2007", "MQ2008"))),
                     Artifact(
                         CLAIMS_PAPER, "claims", "Claims of the text",
                         layout=RunLayout(datasets=("MQ2007", "MQ2008")))]
    return mod


def _value(method, dataset, value, published, seeds_var=0.0, n=784, margin=0.005):
    """A value record judged by the equivalence rule (deterministic unless ``seeds_var``: the
    variance of our mean over 5 seeds)."""
    from repro.judge.equivalence import Margin, Part, Uncertainty, tost
    parts = (Part(seeds_var, 4, "seeds", "the standard error of our mean over 5 seeds"),) \
        if seeds_var else ()
    e = tost(value - float(published), Uncertainty(parts),
             Margin(margin, "resolution", "one standard error of the value over the paper's "
                                          "test queries"))
    return {"paper": CLAIMS_PAPER, "artifact": "table1", "dataset": dataset, "method": method,
            "metric": "NDCG@10", "fold": "avg", "value": value, "published": published,
            "diff": e.d, "source": "Table 1", **e.fields(), "verdict": e.outcome,
            "uncertainty": [{"source": p.source, "var": p.var, "df": p.df, "what": p.what}
                            for p in parts],
            "se_queries": margin, "noise": "same queries",
            "noise_words": "our mean over 5 seeds" if seeds_var else "none: d exact",
            "query_ci95": [value - 0.011, value + 0.011], "n_queries": n, "n_folds": 5,
            "query_ci_basis": f"bootstrap over {n} test queries, stratified by 5 folds, "
                              f"10000 resamples"}


def table1_records(second: bool = False) -> list[dict]:
    """The values of table1 (reproduced, inconclusive, reproduced, reproduced); ``second``: a
    later rendering in which one value moved (and its verdict with it: deviates) and one moved
    below the 10th significant digit (not a change)."""
    beta07 = 0.4191 if second else 0.4302
    return [_value("alpha", "MQ2007", 0.44104, "0.4410"),
            _value("alpha", "MQ2008", 0.46912 + (1e-13 if second else 0.0), "0.4720",
                   seeds_var=0.003 ** 2),
            _value("beta", "MQ2007", beta07, "0.4300"),
            _value("beta", "MQ2008", 0.4651, "0.4650")]


def table1_tables() -> list[dict]:
    """Per-query tables behind table1's values (the page offers a per-query command only
    where an artifact has them)."""
    return [{"dataset": ds, "method": m, "metric": "NDCG@10", "fold": "1",
             "qids": ["q1", "q2"], "values": [0.4, 0.5]}
            for m in ("alpha", "beta") for ds in ("MQ2007", "MQ2008")]


#: the outcomes of :func:`claim_records`, in order, and those of the key claims
CLAIM_OUTCOMES = ["replicated", "reversed", "inconclusive", "replicated", "not testable"]
KEY_OUTCOMES = ["replicated", "reversed", "replicated"]


def claim_records() -> list[dict]:
    """Claims judged as replications: two key claims in two cells (replicated, reversed), a
    secondary trend (inconclusive), a key claim on stand-in data (replicated) and one not
    testable here."""
    base = {"paper": CLAIMS_PAPER, "artifact": "claims", "fold": None, "published": None,
            "diff": None, "source": None, "claim": True, "verdict": "claim"}
    holm = "Holm across the 3 distinct tests of the paper's key claims (claimpaper.claims)"
    return [
        {**base, "dataset": "MQ2007", "method": "alpha", "metric": "NDCG@10: alpha - beta",
         "statement": "alpha beats beta in NDCG@10", "outcome": "replicated",
         "value": 0.0213, "effect": 0.0213, "effect_ci95": [0.0071, 0.0352], "p_value": 0.0031,
         "p_adjusted": 0.0093, "adjustment": holm, "family": "key", "p_direction": 1,
         "n_queries": 1692, "test": "paired t-test over 1692 test queries pooled over 5 folds "
         "(scipy.stats.ttest_rel); 95% bootstrap interval of the mean difference",
         "decided_by": "paired t-test", "compared": "alpha − beta",
         "numbers": {"alpha": 0.4410, "beta": 0.4197}, "published_effect": 0.011,
         "effect_ratio": 1.94, "effect_ratio_ci95": [0.65, 3.2], "key": True},
        {**base, "dataset": "MQ2008", "method": "alpha", "metric": "NDCG@10: alpha - beta",
         "statement": "alpha beats beta in NDCG@10", "outcome": "reversed",
         "value": -0.0120, "effect": -0.0120, "effect_ci95": [-0.0201, -0.0042],
         "p_value": 0.004, "p_adjusted": 0.0093, "adjustment": holm, "family": "key",
         "p_direction": -1, "n_queries": 784, "decided_by": "paired t-test",
         "compared": "alpha − beta",
         "test": "paired t-test over 784 test queries pooled over 5 folds", "key": True,
         "numbers": {"alpha": 0.4691, "beta": 0.4811}},
        {**base, "dataset": "MQ2008", "method": "gamma", "metric": "MAP trend",
         "statement": "MAP rises with the number of features", "outcome": "inconclusive",
         "value": 0.12, "effect": 0.12, "effect_ci95": [-0.05, 0.29], "p_value": 0.21,
         "p_adjusted": 0.21, "family": "secondary", "p_direction": 1,
         "adjustment": "Benjamini–Hochberg across the 1 distinct tests of the paper's other "
                       "claims (claimpaper.claims)", "n_folds": 5,
         "test": "Spearman ρ over fold values (scipy.stats.spearmanr)"},
        {**base, "dataset": "web", "data_used": "MQ2008", "stand_in": True,
         "method": "alpha", "metric": "NDCG@10", "statement": "alpha beats beta on web data",
         "outcome": "replicated", "value": 0.0301, "effect": 0.0301,
         "effect_ci95": [0.011, 0.049], "p_value": 0.002, "p_adjusted": 0.006,
         "adjustment": holm, "family": "key", "p_direction": 1, "n_queries": 784,
         "compared": "alpha − beta", "decided_by": "paired t-test",
         "test": "paired t-test over 784 test queries pooled over 5 folds", "key": True,
         "numbers": {"alpha": 0.4811, "beta": 0.4510}},
        {**base, "dataset": "Yahoo-set2", "method": "gamma", "metric": "MAP",
         "statement": "gamma beats alpha on Yahoo", "outcome": "not testable",
         "family": "secondary", "value": float("nan"), "effect": float("nan"),
         "effect_ci95": None, "p_value": None, "n_queries": None,
         "test": "paired t-test", "why": "data missing: Yahoo-set2"}]


def render_claims_paper(tmp: Path, pdf: bool, second: bool = True) -> Path:
    """Write the claims paper into ``tmp/out``: a first rendering, then (``second``) a later
    one in which one value moved — what changed is recorded — and its page (and PDF) and the
    index; returns the out dir."""
    from repro.judge.published import load
    from repro.report.build import write_artifact
    from repro.report.index import render_index
    from repro.report.pages import render_paper
    mod = claims_paper(tmp)
    out = tmp / "out"
    published = load(CLAIMS_PAPER, mod.PUBLISHED_PATH)
    table1, claims = mod.ARTIFACTS
    renders = [False, True] if second else [False]
    for later in renders:
        write_artifact(table1, table1_records(later), table1_tables(), [], [], published,
                       out / CLAIMS_PAPER, False)
        write_artifact(claims, claim_records(), [], [], [], published, out / CLAIMS_PAPER, False)
        render_paper(mod, out, mod.NOTES, pdf=pdf and later == renders[-1],
                     log=lambda *a, **k: None)
    render_index([mod], out, pdf=pdf, log=lambda *a, **k: None)
    return out


class _Visible:
    """What a reader sees of a page without opening anything: its body's text, less styles,
    scripts and the contents of closed ``<details>`` (their ``<summary>`` shows)."""

    def __init__(self, html: str):
        from html.parser import HTMLParser
        self.parts: list[str] = []
        stack: list[str] = []          # open tags that hide or reveal: style, details, summary
        parts = self.parts

        class P(HTMLParser):
            def handle_starttag(self, tag, attrs):
                if tag in ("style", "script", "head", "details", "summary"):
                    stack.append(tag)

            def handle_endtag(self, tag):
                if tag in ("style", "script", "head", "details", "summary"):
                    while stack and stack.pop() != tag:
                        pass

            def handle_data(self, data):
                if any(t in ("style", "script", "head") for t in stack):
                    return
                if "details" in stack:
                    first = stack.index("details")
                    inner = stack[first + 1:]
                    if "summary" not in inner or "details" in inner[:inner.index("summary")]:
                        return
                parts.append(data)
        P().feed(html)


def visible_text(html: str) -> str:
    """The text a reader sees of a page (closed details show only their summary)."""
    return " ".join(" ".join(_Visible(html).parts).split())


def visible_words(html: str) -> int:
    """Words a reader sees on a page: tokens holding a letter or a digit."""
    import re
    return sum(1 for t in visible_text(html).split() if re.search(r"\w", t))
