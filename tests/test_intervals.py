"""Intervals on every reproduced value, the verdict rule that uses them, and claims judged by
paired tests (repro.judge.intervals, repro.judge.published.judge, repro.judge.kinds.Claim)."""
import numpy as np
import pytest
from scipy import stats

from repro.judge import intervals
from repro.judge.kinds import Claim, claim
from repro.spec import SAMPLE, Artifact, Noise
from repro.judge.published import PublishedValue
from repro.judge.verdicts import STAND_IN_DIFFERS, Verdict, judge

AGREES, DEVIATES, WITHIN_NOISE = Verdict.AGREES, Verdict.DEVIATES, Verdict.WITHIN_NOISE


def said(*args, **kw) -> str:
    """The verdict :func:`judge` writes."""
    return judge(*args, **kw)[1].text
from repro.report.verdicts import Tally, bucket


def _art(folds=(1, 2, 3)):
    return Artifact("fakepaper", "t", "t", datasets=("D",), task="task", folds={"D": folds})


def _tables(rng, method, shift=0.0, folds=("1", "2", "3"), n=30):
    out = []
    for f in folds:
        vals = np.clip(rng.normal(0.5 + shift, 0.2, n), 0, 1)
        out.append({"method": method, "metric": "MAP", "fold": f, "dataset": "D",
                    "qids": [f"{f}-{i}" for i in range(n)], "values": vals.tolist()})
    return out


def _fold_records(tables):
    return [{"method": t["method"], "metric": "MAP", "fold": t["fold"], "dataset": "D",
             "value": float(np.mean(t["values"]))} for t in tables]


def _mean_record(tables, label="avg"):
    return {"method": tables[0]["method"], "metric": "MAP", "fold": label, "dataset": "D",
            "value": float(np.mean([np.mean(t["values"]) for t in tables]))}


def test_a_fold_mean_gets_a_stratified_bootstrap_interval_that_covers_it():
    rng = np.random.default_rng(0)
    tables = _tables(rng, "A")
    recs = _fold_records(tables) + [_mean_record(tables)]
    intervals.attach(_art(), recs, tables)
    mean = recs[-1]
    lo, hi = mean["query_ci95"]
    assert lo < mean["value"] < hi
    assert mean["n_queries"] == 90 and mean["n_folds"] == 3
    assert "stratified by 3 folds" in mean["query_ci_basis"]
    assert "10000 resamples" in mean["query_ci_basis"]
    # its width is that of a mean of 90 values with sd ~0.2: about ±1.96·0.2/√90 ≈ ±0.041
    assert 0.05 < hi - lo < 0.12
    # a fold value: a bootstrap over its own 30 queries, wider than the mean's
    f1 = recs[0]
    assert f1["n_queries"] == 30 and f1["query_ci95"][1] - f1["query_ci95"][0] > hi - lo
    again = _fold_records(tables) + [_mean_record(tables)]
    intervals.attach(_art(), again, tables)
    assert again[-1]["query_ci95"] == mean["query_ci95"]         # seeded by identity
    # on the paper's own queries, one run allows no noise: the verdict's interval is a point
    assert mean["ci95"] == [mean["value"]] * 2 and mean["noise"] == "same queries"
    assert mean["noise_words"].startswith("none: one run")


def test_an_interval_of_the_wrong_statistic_is_never_attached():
    rng = np.random.default_rng(1)
    tables = _tables(rng, "A")
    fields = {"method": "A", "metric": "MAP", "fold": "avg", "dataset": "D",
              "value": float(np.std([np.mean(t["values"]) for t in tables], ddof=1))}
    spread = dict(fields)
    intervals.attach(_art(), [spread], tables, exact_ok=lambda r: False)
    assert "query_ci95" not in spread
    sample = _art()
    sample.noise = Noise(SAMPLE)
    got = dict(fields)
    intervals.attach(sample, [got], tables, exact_ok=lambda r: False)
    assert got["ci95"] is None and got["ci_basis"].startswith("no interval")


def test_values_that_are_not_query_means_get_a_fold_level_or_exact_interval():
    recs = [{"method": "A", "metric": "iterations", "fold": str(f), "dataset": "D",
             "value": float(v)} for f, v in zip(range(1, 5), (3, 5, 4, 6))]
    mean = {"method": "A", "metric": "iterations", "fold": None, "dataset": "D", "value": 4.5}
    recs.append(mean)
    art = _art((1, 2, 3, 4))
    art.noise = Noise(SAMPLE)
    intervals.attach(art, recs, [])
    assert mean["n_folds"] == 4 and mean["n_queries"] is None
    assert mean["query_ci95"][0] <= 4.5 <= mean["query_ci95"][1]
    assert "fold values" in mean["query_ci_basis"]
    # the sampling interval: ±t(3)·√(2·s²/4)
    h = stats.t.ppf(0.975, 3) * np.sqrt(2 * np.var([3, 5, 4, 6], ddof=1) / 4)
    assert mean["ci95"] == pytest.approx([4.5 - h, 4.5 + h])
    assert "4 fold values" in mean["noise_words"]
    assert recs[0]["ci95"] == [3.0, 3.0] and recs[0]["ci_basis"].startswith("exact")


def _pv(text):
    return PublishedValue("t", "D", "A", "MAP", "avg", text, "Table 1")


def test_the_verdict_rule_is_rounding_then_interval_then_deviates():
    assert said(0.47224, _pv("0.4722"), 0.0, ci95=[0.40, 0.50]) == AGREES
    assert said(0.45, _pv("0.4722"), 0.0, ci95=[0.40, 0.50]) == WITHIN_NOISE
    assert said(0.45, _pv("0.4722"), 0.0, ci95=[0.40, 0.46]) == DEVIATES
    assert said(0.45, _pv("0.4722"), 0.0) == DEVIATES                  # no interval
    # the published value is known to its rounding: 0.47 covers [0.465, 0.475]
    assert said(0.45, _pv("0.47"), 0.0, ci95=[0.40, 0.466]) == WITHIN_NOISE
    # stand-in data: never "deviates"
    v = said(0.45, _pv("0.4722"), 0.0, stand_in=True, ci95=[0.40, 0.46])
    assert v == "stand-in data: published value outside our 95% interval"
    assert said(0.45, _pv("0.4722"), 0.0, stand_in=True) == "stand-in data: " + STAND_IN_DIFFERS
    assert bucket({"verdict": WITHIN_NOISE, "published": "0.47"}) == "noise"


def test_derived_and_unstated_values_never_count_as_reproduced():
    flat = [{"verdict": AGREES, "published": "1"},
            {"verdict": "derived value: " + AGREES, "published": "1"},
            {"verdict": "shown, not compared: ± of unknown meaning", "published": "6",
             "kind": "shown"},
            {"verdict": WITHIN_NOISE, "published": "2"}]
    t = Tally().add(flat)
    assert t.agreeing == 2 and t.buckets["derived"] == 1 and t.buckets["not compared"] == 1
    assert t.comparable == 3                       # the "±" is shown, not comparable


def _claim_setup(shift_b, rng_seed=3, n=40):
    rng = np.random.default_rng(rng_seed)
    ta = _tables(rng, "A", 0.0, n=n)
    tb = [{**t, "method": "B", "values": (np.clip(np.asarray(t["values"]) - shift_b
                                                  + rng.normal(0, 0.02, n), -1, 2)).tolist()}
          for t in ta]
    recs = [_mean_record(ta), _mean_record(tb)]
    decl = Claim("Sec. 1", "A beats B", subject={"method": "A", "fold": "avg"},
                 others={"method": "B", "fold": "avg"})
    out = claim(_art(), recs, decl, tables=ta + tb)
    assert len(out) == 1
    return out[0], ta, tb


def test_a_claim_is_a_paired_test_over_the_queries_behind_both_values():
    rec, ta, tb = _claim_setup(0.05)                    # A above B on most queries
    assert rec["outcome"] == "holds" and rec["claim"] is True
    a = np.concatenate([t["values"] for t in ta])
    b = np.concatenate([t["values"] for t in tb])
    assert rec["p_value"] == pytest.approx(stats.ttest_rel(a, b).pvalue)
    assert rec["effect"] == pytest.approx(float(np.mean(a - b)))
    assert rec["n_queries"] == 120 and rec["ci95"][0] < rec["effect"] < rec["ci95"][1]
    assert rec["value"] == rec["effect"]
    assert _claim_setup(-0.05)[0]["outcome"] == "contradicted"
    assert _claim_setup(0.0)[0]["outcome"] == "not significant here"


def test_a_claim_on_means_without_paired_evidence_is_not_testable():
    recs = [{"method": "A", "metric": "MAP", "fold": "avg", "dataset": "D", "value": 0.6},
            {"method": "B", "metric": "MAP", "fold": "avg", "dataset": "D", "value": 0.5}]
    decl = Claim("Sec. 1", "A beats B", subject={"method": "A"}, others={"method": "B"})
    (rec,) = claim(_art(), recs, decl, tables=[])
    assert rec["outcome"] == "not testable here" and "no per-query" in rec["why"]
