"""The evidence behind every reproduced value (repro.judge.intervals): the query bootstrap
shown beside it, the standard error over its test queries (the default margin), the
uncertainty of d the verdict uses; the equivalence rule on it (repro.judge.verdicts.judge);
and claims judged by paired tests (repro.judge.kinds.Claim, decided by
repro.judge.claims.finish)."""
import math

import numpy as np
import pytest
from scipy import stats

from repro.judge import intervals
from repro.judge.claims import finish
from repro.judge.kinds import Claim, claim
from repro.spec import SAMPLE, Artifact, Noise, RunLayout
from repro.judge.published import PublishedSet, PublishedValue
from repro.judge.verdicts import Verdict, compare, judge
from repro.report.verdicts import Tally, bucket


def _art(folds=(1, 2, 3)):
    return Artifact(
        "fakepaper", "t", "t", task="task",
        layout=RunLayout(datasets=("D",), folds={"D": folds}))


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
    # on the paper's own queries, one run has d exactly: no part of uncertainty
    assert mean["uncertainty"] == [] and mean["noise"] == "same queries"
    assert mean["noise_words"].startswith("none: one run")
    assert "ci95" not in mean and "ci_margin" not in mean
    # its standard error over the 90 queries, stratified by fold, sizes the margin
    w2 = sum(np.var(t["values"], ddof=1) / 30 for t in tables) / 9
    assert mean["se_queries"] == pytest.approx(math.sqrt(w2))


def test_an_interval_of_the_wrong_statistic_is_never_attached():
    rng = np.random.default_rng(1)
    tables = _tables(rng, "A")
    fields = {"method": "A", "metric": "MAP", "fold": "avg", "dataset": "D",
              "value": float(np.std([np.mean(t["values"]) for t in tables], ddof=1))}
    spread = dict(fields)
    intervals.attach(_art(), [spread], tables, exact_ok=lambda r: False)
    assert "query_ci95" not in spread
    sample = _art().replace(noise=Noise(SAMPLE))
    got = dict(fields)
    intervals.attach(sample, [got], tables, exact_ok=lambda r: False)
    assert "query_ci95" not in got and got["se_queries"] is None
    assert got["noise_words"].startswith("unknown")
    assert math.isinf(got["uncertainty"][0]["var"])


def test_values_that_are_not_query_means_get_a_fold_level_or_exact_interval():
    recs = [{"method": "A", "metric": "iterations", "fold": str(f), "dataset": "D",
             "value": float(v)} for f, v in zip(range(1, 5), (3, 5, 4, 6))]
    mean = {"method": "A", "metric": "iterations", "fold": None, "dataset": "D", "value": 4.5}
    recs.append(mean)
    art = _art((1, 2, 3, 4)).replace(noise=Noise(SAMPLE))
    intervals.attach(art, recs, [])
    assert mean["n_folds"] == 4 and mean["n_queries"] is None
    assert mean["query_ci95"][0] <= 4.5 <= mean["query_ci95"][1]
    assert "fold values" in mean["query_ci_basis"]
    # on a sample: our fold values' s²/4 and the paper's sample of the same size — one
    # estimate, 2w² with 3 degrees of freedom
    w2 = np.var([3, 5, 4, 6], ddof=1) / 4
    assert [(p["source"], p["var"], p["df"]) for p in mean["uncertainty"]] == [
        ("our query sample and the paper's", pytest.approx(2 * w2), 3)]
    assert "4 fold values" in mean["noise_words"]
    assert mean["se_queries"] == pytest.approx(math.sqrt(w2))
    # a fold's own value: one deterministic result, nothing to resample (d exact)
    assert recs[0]["uncertainty"] == [] and recs[0]["noise_words"].startswith("none")


def _pv(text):
    return PublishedValue("t", "D", "A", "MAP", "avg", text, "Table 1")


def test_the_verdict_rule_is_equivalence_within_the_margin():
    """δ: one standard error over the test queries, never below half a unit of the published
    value's last digit; reproduced when the 90 % interval of d lies inside ±δ, deviates when
    the 95 % interval lies beyond, inconclusive otherwise."""
    seeds = [{"source": "seeds", "var": 0.0001, "df": 4}]
    base = {"se_queries": 0.02}
    assert judge({**base, "value": 0.47224}, _pv("0.4722")).outcome == "reproduced"
    assert judge({**base, "value": 0.45}, _pv("0.4722")).outcome == "deviates"     # exact d
    assert judge({**base, "value": 0.46}, _pv("0.4722")).outcome == "reproduced"
    # a noisy value with the same d is inconclusive: noise never makes reproduction easier
    assert judge({**base, "value": 0.46, "uncertainty": seeds}, _pv("0.4722")).outcome \
        == "inconclusive"
    h95 = stats.t.ppf(0.975, 4) * 0.01
    e = judge({**base, "value": 0.40, "uncertainty": seeds}, _pv("0.4722"))
    assert e.outcome == "deviates" and e.ci95 == pytest.approx((-0.0722 - h95, -0.0722 + h95))
    # the rounding floor: "0.47" is known to ±0.005
    e = judge({"value": 0.4740, "se_queries": 0.001}, _pv("0.47"))
    assert e.margin.value == pytest.approx(0.005) and e.margin.basis == "rounding"
    assert e.outcome == "reproduced"
    # stand-in data: never reproduced nor deviating, the rule's outcome kept beside
    pub = PublishedSet("fakepaper", [_pv("0.4722")])
    (r,) = compare("fakepaper", "t", [{"artifact": "t", "dataset": "D", "method": "A",
                                        "metric": "MAP", "fold": "avg", "value": 0.40,
                                        "se_queries": 0.02, "stand_in": True}], pub, {})
    assert r["verdict"] == Verdict.STAND_IN.value and r["equivalence"] == "deviates"
    assert bucket(r) == "stand-in"


def test_derived_and_unstated_values_never_count_as_reproduced():
    flat = [{"verdict": "reproduced", "published": "1"},
            {"verdict": "derived", "equivalence": "reproduced", "published": "1"},
            {"verdict": "not compared", "published": "6", "kind": "shown"},
            {"verdict": "reproduced", "published": "2"}]
    for r in (flat[0], flat[3]):
        r.update(equivalence_bound=0.001, deviation_bound=0.0, margin=0.01)
    t = Tally().add(flat)
    assert t.reproduced == 2 and t.buckets["derived"] == 1 and t.buckets["not compared"] == 1
    assert t.comparable == 3                       # the "±" is shown, not comparable
    assert t.rerun == 2


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
    assert rec["claim"] is True
    a = np.concatenate([t["values"] for t in ta])
    b = np.concatenate([t["values"] for t in tb])
    assert rec["p_value"] == pytest.approx(stats.ttest_rel(a, b).pvalue)
    assert rec["effect"] == pytest.approx(float(np.mean(a - b)))
    assert rec["n_queries"] == 120
    assert rec["effect_ci95"][0] < rec["effect"] < rec["effect_ci95"][1]
    assert rec["value"] == rec["effect"] and rec["decided_by"] == "paired t-test"
    assert _decided(rec) == "replicated"
    assert _decided(_claim_setup(-0.05)[0]) == "reversed"
    assert _decided(_claim_setup(0.0)[0]) == "inconclusive"


def _decided(rec):
    """The claim's outcome once its family is judged (here a family of one)."""
    finish(_art(), [rec], [])
    return rec["outcome"]


def test_a_claim_on_means_without_paired_evidence_is_not_testable():
    recs = [{"method": "A", "metric": "MAP", "fold": "avg", "dataset": "D", "value": 0.6},
            {"method": "B", "metric": "MAP", "fold": "avg", "dataset": "D", "value": 0.5}]
    decl = Claim("Sec. 1", "A beats B", subject={"method": "A"}, others={"method": "B"})
    (rec,) = claim(_art(), recs, decl, tables=[])
    assert rec["outcome"] == "not testable" and "no per-query" in rec["why"]
    assert _decided(rec) == "not testable"
