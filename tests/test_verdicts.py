"""Verdicts as data: one enumeration of codes (repro.judge.verdicts), the report owning every
word, colour class and bucket (repro.report.verdicts, palette, legend), the rule that writes
the codes (two one-sided tests against the paper's margin), nothing reading judged output back
by string matching, and the closed schema of records."""
import ast
import json
import math
import os
from pathlib import Path

import pytest
from scipy import stats

from repro.evidence.record import check_fields, declare_key_fields, KEY_FIELDS
from repro.judge.published import PublishedSet, PublishedValue
from repro.judge.verdicts import (COMPARABLE, RULE, Outcome, Verdict, category, compare,
                                  judge, margin_for, not_run)
from repro.report import legend, palette
from repro.report.verdicts import (BUCKETS, HEADERS, LABELS, OUTCOME_WORDS, SHORT, WORDS,
                                   bucket, css_of, not_run_reason, outcome_class, verdict_class,
                                   words)

ROOT = Path(__file__).resolve().parents[1]
REPORTS = Path(os.environ.get("REPRO_CHECK_REPORTS") or ROOT / "reports")
CODES = {v.value for v in Verdict}
OUTCOMES = {o.value for o in Outcome}


# --- the enumeration and the report's words ----------------------------------------------------

@pytest.mark.parametrize("v", list(Verdict))
def test_every_code_has_a_bucket_words_and_a_colour_class(v):
    rec = {"verdict": v.value, "published": "0.5"}
    b = bucket(rec)
    assert b in BUCKETS and LABELS[b] and HEADERS[b]
    assert WORDS[v] and words(rec).startswith(WORDS[v]) if v is not Verdict.CLAIM else True
    css = verdict_class(rec)
    assert css == css_of(v.value) or v is Verdict.CLAIM
    assert " " not in css and css in SHORT and SHORT[css]
    assert css in palette.PALETTE, f"{css} has no colour (would be grey)"
    assert Verdict(v.value) is v and str(v) == v.value
    assert json.dumps({"verdict": v}) == json.dumps({"verdict": v.value})


@pytest.mark.parametrize("o", list(Outcome))
def test_every_claim_outcome_has_words_and_a_colour_class(o):
    rec = {"verdict": Verdict.CLAIM.value, "outcome": o.value, "published": None}
    assert bucket(rec) == "claims"
    css = verdict_class(rec)
    assert css == outcome_class(o.value) == "claim-" + o.value.replace(" ", "-")
    assert css in palette.PALETTE and css in palette.MEANING and SHORT[css] == OUTCOME_WORDS[o]
    assert words(rec) == "claim " + OUTCOME_WORDS[o]
    assert Outcome(rec["outcome"]) is o


def test_the_outcomes_and_the_rule_s_verdicts_are_the_issue_s_codes():
    assert OUTCOMES == {"replicated", "not replicated", "reversed", "inconclusive",
                        "not testable"}
    assert {v.value for v in RULE} == {"reproduced", "deviates", "inconclusive"}
    assert {"reproduced", "deviates", "inconclusive", "stand-in", "derived",
            "not run"} <= CODES
    gone = {"agrees", "within noise", "within tolerance", "borderline", "offset",
            "same evidence", "holds", "contradicted", "not significant here"}
    assert not gone & (CODES | OUTCOMES)


def test_a_record_that_holds_no_code_raises():
    for bad in ("agrees (paper's rounding)", "deviates (deterministic)", "holds", "", None):
        with pytest.raises(ValueError):
            Verdict(bad)
        with pytest.raises(ValueError):
            verdict_class({"verdict": bad})
        with pytest.raises(ValueError):
            bucket({"verdict": bad, "published": "0.5"})
    with pytest.raises(ValueError):
        Outcome("holds")


def test_buckets_without_a_published_value_and_of_shown_kinds():
    assert bucket({"verdict": "ours only", "published": None}) == "ours only"
    assert bucket({"verdict": "reproduced", "published": None}) == "ours only"
    assert bucket({"verdict": "not run", "published": None}) == "empty"
    assert bucket({"verdict": "not run", "published": "0.3"}) == "not run"
    assert bucket({"verdict": "reproduced", "published": "1", "kind": "shown"}) == "not compared"
    assert bucket({"verdict": "claim", "outcome": "replicated", "published": None}) == "claims"
    assert bucket({"verdict": "column", "published": None}) == "columns"
    assert bucket({"verdict": "consistent", "published": "4"}) == bucket(
        {"verdict": "inconsistent", "published": "4"}) == "check"


def test_reasons_live_beside_the_code_not_in_it():
    rec = not_run("data missing: MQ2007")
    assert rec == {"verdict": "not run", "reason": "data missing: MQ2007"}
    assert not_run_reason(rec) == "data missing: MQ2007"
    assert words({**rec, "published": "0.3"}) == "not run: data missing: MQ2007"
    assert not_run_reason({"verdict": "not run"}) == "no value"
    # the equivalence outcome of a value on other terms is said beside its category
    w = words({"verdict": "stand-in", "equivalence": "deviates"})
    assert w.startswith(WORDS[Verdict.STAND_IN]) and "beyond ±δ" in w


def test_every_legend_entry_has_a_word_and_never_explains_itself():
    entries = legend.legend(set(palette.classes()))
    assert {e["css"] for e in entries} >= {"reproduced", "inconclusive", "deviates",
                                           "stand-in", "not-run"}
    for e in entries:
        assert e["word"] == palette.short(e["css"]) and e["word"]
        assert e["meaning"].strip().lower() != e["word"].strip().lower()
    for css in ("reproduced", "inconclusive", "deviates", "stand-in", "not-run"):
        assert palette.meaning(css)


# --- the rule writes the codes ------------------------------------------------------------------

def _pv(text="0.4722"):
    return PublishedValue("t", "D", "A", "MAP", "avg", text, "Table 1")


def test_a_deterministic_value_is_reproduced_inside_its_margin_and_deviates_beyond():
    """No uncertainty (d exact): reproduced when |d| ≤ δ, deviates when |d| > δ; the margin
    is one standard error over the test queries, never below half a unit of the last digit."""
    rec = {"value": 0.4730, "se_queries": 0.002}
    e = judge(rec, _pv())
    assert e.margin.value == 0.002 and e.margin.basis == "resolution"
    assert e.d == pytest.approx(0.0008) and e.ci90 == (e.d, e.d)
    assert e.outcome == "reproduced" and e.bound == pytest.approx(0.0008)
    e = judge({"value": 0.4750, "se_queries": 0.002}, _pv())
    assert e.outcome == "deviates" and e.deviation_bound == pytest.approx(0.0028)
    # a standard error below the paper's rounding: half a unit of the fourth decimal
    e = judge({"value": 0.47224, "se_queries": 0.00001}, _pv())
    assert e.margin.basis == "rounding" and e.margin.value == pytest.approx(0.00005)
    assert e.outcome == "reproduced"
    e = judge({"value": 0.47230}, _pv())
    assert e.margin.basis == "rounding" and e.outcome == "deviates"
    assert judge({"value": float("nan")}, _pv()) is None
    assert judge({"value": 0.4}, None) is None


def test_a_noisy_value_needs_its_90_percent_interval_inside_the_margin():
    """Seeds make it harder, not easier, to be reproduced: the same d = 0 with a wide
    interval is inconclusive; with a narrow one reproduced (hand TOST)."""
    def rec(var, df=4):
        return {"value": 0.4722, "se_queries": 0.002,
                "uncertainty": [{"source": "seeds", "var": var, "df": df}]}
    narrow = judge(rec(1e-7), _pv())
    h = stats.t.ppf(0.95, 4) * math.sqrt(1e-7)
    assert narrow.ci90 == pytest.approx((-h, h), abs=1e-12)
    assert narrow.outcome == "reproduced" and narrow.bound == pytest.approx(h)
    wide = judge(rec(1e-5), _pv())
    assert wide.outcome == "inconclusive"
    assert judge({**rec(1e-5), "value": 0.4722}, _pv()).outcome == "inconclusive"
    far = judge({**rec(1e-7), "value": 0.4822}, _pv())
    assert far.outcome == "deviates"
    h95 = stats.t.ppf(0.975, 4) * math.sqrt(1e-7)
    assert far.deviation_bound == pytest.approx(0.01 - h95)


def test_a_declared_margin_is_the_paper_s_with_its_reason():
    pv = PublishedValue("complexity", "synthetic", "m", "exponent", None, "1", "src")
    m = margin_for(pv, {}, {"tol": 0.15, "why": "an O(m) claim", "rounding": False})
    assert (m.value, m.basis, m.why) == (0.15, "declared", "an O(m) claim")
    assert judge({"value": 1.1}, pv, {"tol": 0.15, "rounding": False}).outcome == "reproduced"
    assert judge({"value": 1.4}, pv, {"tol": 0.15, "rounding": False}).outcome == "deviates"
    assert category("derived", False, "reproduced") is Verdict.DERIVED
    assert category("consistency", False, "reproduced") is Verdict.CONSISTENT
    assert category("consistency", False, "inconclusive") is Verdict.INCONSISTENT
    assert category("reproduction", True, "reproduced") is Verdict.STAND_IN
    assert category("reproduction", False, "deviates") is Verdict.DEVIATES


def test_compare_writes_codes_and_the_fields_of_the_rule():
    pub = PublishedSet("p", [_pv("0.4722"), PublishedValue("t", "D", "B", "MAP", "avg",
                                                           "0.5000", "Table 1"),
                             PublishedValue("t", "E", "A", "MAP", "avg", "0.3", "Table 1")])
    recs = [{"artifact": "t", "dataset": "D", "method": "A", "metric": "MAP", "fold": "avg",
             "value": 0.4723, "se_queries": 0.001},
            {"artifact": "t", "dataset": "D", "method": "B", "metric": "MAP", "fold": "avg",
             "value": 0.47, "se_queries": 0.001, "stand_in": True},
            {"artifact": "t", "dataset": "D", "method": "C", "metric": "MAP", "fold": "avg",
             "value": 0.47}]
    out = compare("p", "t", recs, pub, {"E": "data missing: E"})
    by = {(r["dataset"], r["method"]): r for r in out}
    a = by[("D", "A")]
    assert a["verdict"] == "reproduced" and a["equivalence"] == "reproduced"
    for f in ("d", "d_ci90", "d_ci95", "margin", "margin_basis", "equivalence_bound",
              "deviation_bound"):
        assert f in a
    assert a["d"] == a["diff"] == pytest.approx(0.0001)
    b = by[("D", "B")]
    assert b["verdict"] == "stand-in" and b["equivalence"] == "deviates"
    assert by[("D", "C")]["verdict"] == "ours only"
    assert by[("E", "A")] == {**by[("E", "A")], "verdict": "not run",
                              "reason": "data missing: E"}
    assert all(r["verdict"] in CODES for r in out)
    for r in out:
        check_fields(r)


# --- nothing reads judged output back by string matching ----------------------------------------

_JUDGED = {"verdict", "outcome", "verdict_offset_removed", "equivalence"}
_TEXT_METHODS = {"startswith", "endswith", "partition", "rpartition", "split", "find",
                 "index", "rfind", "count", "removeprefix", "removesuffix"}
_ALLOWED = CODES | OUTCOMES | {"reproduced", "inconclusive", "deviates"}


def _judged_read(node) -> bool:
    """``x["verdict"]`` or ``x.get("verdict", …)`` (and the other judged fields)."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value in _JUDGED
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get" and node.args
            and isinstance(node.args[0], ast.Constant)):
        return node.args[0].value in _JUDGED
    return False


def _strings(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for e in node.elts:
            yield from _strings(e)


def string_matches(source: str, filename: str = "<src>") -> list[str]:
    """Where ``source`` reads a judged field back as text: a text method called on it
    (``r["verdict"].startswith(…)``), a substring test (``"agrees" in r["verdict"]``), a
    regular expression over it, or a comparison with a string that is no code."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        where = f"{filename}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in _TEXT_METHODS and _judged_read(node.func.value):
                found.append(f"{where}: .{node.func.attr}() on a judged field")
            if (isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                    and any(_judged_read(a) for a in node.args)):
                found.append(f"{where}: a regular expression over a judged field")
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, sides, sides[1:]):
                if isinstance(op, (ast.In, ast.NotIn)) and _judged_read(right):
                    found.append(f"{where}: a substring test on a judged field")
                    continue
                for a, b in ((left, right), (right, left)):
                    if _judged_read(a):
                        bad = [s for s in _strings(b) if s not in _ALLOWED]
                        if bad:
                            found.append(f"{where}: compared with {bad!r}, not a code")
    return found


def test_the_scanner_catches_reading_a_sentence_back():
    bad = ('r["verdict"].startswith("stand-in data:")\n'
           '"within noise" in rec.get("verdict", "")\n'
           'r["verdict"] == "agrees (paper\'s rounding)"\n'
           'r.get("outcome") in ("holds", "contradicted")\n'
           're.match(r"deviates", r["verdict"])\n')
    assert len(string_matches(bad)) == 5
    good = ('r["verdict"] == "reproduced"\nr.get("outcome") in ("replicated", "reversed")\n'
            'Verdict(r["verdict"]) is Verdict.DEVIATES\n')
    assert string_matches(good) == []


def test_nothing_reads_judged_output_back_by_string_matching():
    files = sorted((ROOT / "repro" / "judge").rglob("*.py")) + sorted(
        (ROOT / "repro" / "report").rglob("*.py")) + sorted((ROOT / "repro" / "cli").rglob(
            "*.py"))
    assert len(files) > 20
    found = []
    for f in files:
        found += string_matches(f.read_text(encoding="utf-8"), str(f.relative_to(ROOT)))
    assert found == []


# --- the closed schema -------------------------------------------------------------------------

def test_the_closed_schema_refuses_an_undeclared_field():
    ok = {"artifact": "t", "dataset": "D", "method": "A", "metric": "MAP", "fold": "avg",
          "value": 0.5, "verdict": "reproduced", "d": 0.0, "margin": 0.01,
          "equivalence_bound": 0.0, "statement": "x"}
    check_fields(ok)
    with pytest.raises(ValueError, match="'verdcit'"):
        check_fields({**ok, "verdcit": "reproduced"}, "t.json")
    with pytest.raises(ValueError, match="t.json"):
        check_fields({**ok, "ci_margin": 0.01, "foo": 1}, "t.json")
    try:
        declare_key_fields("test_only_grid_parameter")
        check_fields({**ok, "test_only_grid_parameter": 3})
    finally:
        KEY_FIELDS.discard("test_only_grid_parameter")
    with pytest.raises(ValueError):
        check_fields({**ok, "test_only_grid_parameter": 3})


# --- the rendered records hold codes only -------------------------------------------------------

def _records(root: Path):
    for f in sorted(root.glob("*/**/*.json")):
        if f.name.endswith((".meta.json", ".runs.json")) or f.name in ("benchmarks.json",
                                                                        "changes.json"):
            continue
        data = json.loads(f.read_text(encoding="utf-8"))
        for r in data if isinstance(data, list) else data.get("records", []):
            yield f, r


def test_every_rendered_verdict_is_a_code():
    """The committed reports (or ``REPRO_CHECK_REPORTS=DIR``) hold codes only; every claim
    record an outcome and a family."""
    recs = list(_records(REPORTS))
    if not recs:
        pytest.skip(f"no rendered records under {REPORTS}")
    bad = sorted({r["verdict"] for _, r in recs if r.get("verdict") not in CODES})
    assert bad == []
    for f, r in recs:
        if r["verdict"] == "claim":
            assert r.get("outcome") in OUTCOMES, (f, r.get("statement"))
            assert r.get("family") in ("key", "secondary", "cell"), (f, r.get("statement"))
        if r["verdict"] in COMPARABLE and r["verdict"] not in ("not run", "undefined"):
            assert r.get("equivalence") in ("reproduced", "inconclusive", "deviates"), f
