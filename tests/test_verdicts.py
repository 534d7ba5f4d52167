"""Verdicts and outcomes as one enumeration: the sentences written in the JSON, read back (an
unknown sentence raises), their colour classes, short words and buckets."""
import json
from pathlib import Path

import pytest

from repro.judge.published import PublishedValue
from repro.judge.verdicts import (OUTCOMES, SHORT, STAND_IN_DIFFERS, Bucket, Judged, Verdict,
                                  bucket, judge, mark_verdict, not_run_reason, verdict_class)

REPORTS = Path(__file__).resolve().parents[1] / "reports"


def _committed_verdicts() -> set[str]:
    out = set()
    for f in REPORTS.glob("*/**/*.json"):
        if f.name.endswith((".meta.json", ".runs.json")) or f.name in ("benchmarks.json",
                                                                        "changes.json"):
            continue
        data = json.loads(f.read_text(encoding="utf-8"))
        for r in data if isinstance(data, list) else data.get("records", []):
            out.add(r["verdict"])
    return out


def test_every_committed_verdict_reads_back_to_the_same_sentence():
    seen = _committed_verdicts()
    assert len(seen) > 30
    kinds = set()
    for text in seen:
        j = Judged.parse(text)
        assert j.text == text
        kinds.add(j.verdict)
    assert {Verdict.AGREES, Verdict.WITHIN_NOISE, Verdict.DEVIATES, Verdict.NOT_RUN,
            Verdict.HOLDS, Verdict.BASELINE} <= kinds


@pytest.mark.parametrize("text", ["agree", "not run", "deviates!", "stand-in data: deviates",
                                  "derived value: not run: x", "holds here", "", None])
def test_an_unknown_sentence_raises(text):
    with pytest.raises(ValueError, match="not a verdict"):
        Judged.parse(text)
    with pytest.raises(ValueError):
        verdict_class(text)


# every qualified form: (sentence, class, bucket with a published value)
FORMS = [
    ("agrees (paper's rounding)", "agrees", "agrees"),
    ("within noise (published value inside our 95% interval)", "within-noise", "noise"),
    ("within tolerance", "within", "within"),
    ("deviates", "deviates", "deviates"),
    ("consistent (check, not a reproduction)", "consistent", "check"),
    ("inconsistent (check)", "inconsistent", "check"),
    ("derived value: agrees (paper's rounding)", "derived-agrees", "derived"),
    ("derived value: within noise (published value inside our 95% interval)",
     "derived-within", "derived"),
    ("derived value: within tolerance", "derived-within", "derived"),
    ("derived value: deviates", "derived-deviates", "derived"),
    ("stand-in data: equal at the paper's rounding", "stand-in", "stand-in"),
    ("stand-in data: published value inside our 95% interval", "stand-in", "stand-in"),
    ("stand-in data: published value within the stated tolerance", "stand-in", "stand-in"),
    ("stand-in data: published value outside our 95% interval", "stand-in", "stand-in"),
    ("stand-in data: " + STAND_IN_DIFFERS, "stand-in", "stand-in"),
    ("stand-in data: derived value: deviates", "stand-in", "stand-in"),
    ("stand-in data: consistent (check, not a reproduction)", "stand-in", "stand-in"),
    ("unverified copy: agrees (paper's rounding)", "unverified", "unverified"),
    ("unverified copy: stand-in data: published value inside our 95% interval", "unverified",
     "unverified"),
    ("shown, not compared: a ± of unstated meaning", "not-compared", "not compared"),
    ("published baseline (not rerun)", "baseline", "baseline"),
    ("published value unreadable", "unreadable", "unreadable"),
    ("undefined (NaN)", "undefined", "undefined"),
    ("undefined (NaN): no pairs", "undefined", "undefined"),
    ("not run: data missing: MQ2007 (see `python -m repro data`)", "not-run", "not run"),
    ("modern reference (not in the paper)", "modern", "modern"),
    ("user method (not in the paper)", "user", "user"),
    ("holds", "holds", "claims"),
    ("contradicted", "contradicted", "claims"),
    ("not significant here", "not-significant", "claims"),
    ("not testable here", "not-testable", "claims"),
    ("holds against deviating baselines", "holds-deviating", "claims"),
    ("borderline (published value within the estimation error of our interval's bound)",
     "borderline", "borderline"),
    ("stand-in data: published value at the edge of our 95% interval (borderline)",
     "stand-in", "stand-in"),
    ("deviates (deterministic: no run-to-run spread to allow)", "deviates-once",
     "deterministic"),
    ("unverified copy: deviates (deterministic: no run-to-run spread to allow)", "unverified",
     "unverified"),
    ("offset (in a column whose values are systematically off the published ones)", "offset",
     "offset"),
    ("same evidence: as ConvexLoss_MAP (identical per-query values, counted once)",
     "same-evidence", "same evidence"),
    ("offset column (ours − published systematic: Holm-adjusted t-test)", "column-offset",
     "columns"),
    ("no systematic offset (column)", "column-level", "columns"),
]


@pytest.mark.parametrize("text, css, bucket_", FORMS)
def test_class_short_word_and_bucket_of_every_form(text, css, bucket_):
    j = Judged.parse(text)
    assert j.text == text and j.css == css == verdict_class(text)
    assert css in SHORT
    assert bucket({"verdict": text, "published": "0.5"}) == bucket_
    assert isinstance(bucket({"verdict": text, "published": "0.5"}), Bucket)


def test_buckets_without_a_published_value_and_of_shown_kinds():
    assert bucket({"verdict": "no published value", "published": None}) == "ours only"
    assert bucket({"verdict": "not run: x", "published": None}) == "empty"
    assert bucket({"verdict": "agrees (paper's rounding)", "published": "1",
                   "kind": "shown"}) == "not compared"
    assert bucket({"verdict": "holds", "published": None}) == "claims"


def test_stand_in_values_say_where_the_published_value_lies():
    inner = {t: Judged.parse(t).inner_css for t, _, _ in FORMS if t.startswith("stand-in")}
    assert inner["stand-in data: equal at the paper's rounding"] == "agrees"
    assert inner["stand-in data: published value inside our 95% interval"] == "within-noise"
    assert inner["stand-in data: " + STAND_IN_DIFFERS] == "deviates"
    assert inner["stand-in data: derived value: deviates"] == "derived-deviates"


def test_outcomes_are_verdicts_and_their_words():
    assert [o.value for o in OUTCOMES] == ["holds", "contradicted", "not significant here",
                                           "not testable here",
                                           "holds against deviating baselines"]
    assert all(o.is_outcome and o.bucket is Bucket.CLAIMS for o in OUTCOMES)
    assert not Verdict.AGREES.is_outcome
    assert Verdict("holds") is Verdict.HOLDS and Verdict.HOLDS == "holds"
    assert json.dumps({"o": Verdict.NOT_SIGNIFICANT}) == '{"o": "not significant here"}'


def test_marks_and_reasons():
    assert mark_verdict("deviates") == "unverified copy: deviates"
    assert mark_verdict("unverified copy: deviates") == "unverified copy: deviates"
    assert mark_verdict("not run: x") == "not run: x"
    assert not_run_reason("not run: data missing: A") == "data missing: A"
    assert not_run_reason("deviates") == "deviates"


def test_buckets_have_words_and_order():
    assert [b.value for b in Bucket if b.comparable] == [
        "agrees", "noise", "within", "borderline", "offset", "same evidence", "deviates",
        "deterministic", "stand-in", "unverified", "check", "derived", "undefined", "not run"]
    assert all(b.label and b.header for b in Bucket)
    assert [b.value for b in Bucket if b.always] == ["agrees", "noise", "deviates", "not run"]


def test_the_rule_writes_the_enumeration():
    pv = PublishedValue("t", "D", "A", "MAP", "avg", "0.4722", "Table 1")
    assert judge(0.47224, pv, 0.0)[1] == Judged(Verdict.AGREES)
    diff, j = judge(0.45, pv, 0.0, stand_in=True, kind="derived")
    assert j.text == "stand-in data: derived value: deviates" and diff == pytest.approx(-0.0222)
    assert judge(0.45, pv, 0.0, kind="shown")[1].verdict is Verdict.SHOWN
    assert judge(float("nan"), pv, 0.0) == (None, None)
    assert judge(0.4, None, 0.0)[1].verdict is Verdict.NO_PUBLISHED


def test_the_rule_with_noise_borderline_and_no_spread():
    """Rounding, then the interval the noise allows (borderline within the estimation error
    of a bound), then a tolerance; a value without spread (a point interval) that differs
    beyond the rounding deviates as deterministic — a reproduction only."""
    pv = PublishedValue("t", "D", "A", "MAP", "avg", "0.601", "Figure 3")     # ± 0.0005
    def said(value, **kw):
        return judge(value, pv, kw.pop("tol", 0.0), **kw)[1].verdict
    assert said(0.590, ci95=[0.58, 0.60]) is Verdict.DEVIATES            # 0.601 > 0.6005
    assert said(0.590, ci95=[0.58, 0.60], margin=0.001) is Verdict.BORDERLINE
    assert said(0.590, ci95=[0.58, 0.6009], margin=0.001) is Verdict.BORDERLINE  # inside too
    assert said(0.590, ci95=[0.58, 0.61], margin=0.001) is Verdict.WITHIN_NOISE
    assert said(0.590, ci95=[0.58, 0.6009], margin=0.001, tol=0.02) is Verdict.WITHIN
    assert said(0.590, ci95=[0.590, 0.590]) is Verdict.ONCE
    assert said(0.6006, ci95=[0.6006, 0.6006]) is Verdict.AGREES
    assert said(0.590, ci95=[0.590, 0.590], kind="derived") is Verdict.DEVIATES
    assert said(0.590, ci95=[0.590, 0.590], stand_in=True) is Verdict.DEVIATES
    assert said(0.590, ci95=[0.58, 0.60], margin=0.001, kind="derived") is Verdict.DEVIATES
    assert said(0.590) is Verdict.DEVIATES                               # no interval at all
    assert Judged(Verdict.ONCE).explained and not Judged(Verdict.BORDERLINE).explained
