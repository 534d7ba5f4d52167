"""The equivalence rule (repro.judge.equivalence): two one-sided tests against a margin, by
hand; the default margin from per-query values; and its error rates by simulation."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from repro.judge import equivalence as eq
from repro.judge.intervals import sampling_variance
from repro.judge.published import PublishedValue
from repro.judge.verdicts import Verdict, compare, judge, margin_for


def _margin(x: float) -> eq.Margin:
    return eq.Margin(x, "declared", "test")


def test_tost_by_hand():
    # d = 0.01 with se 0.004 on 4 degrees of freedom against δ = 0.03
    unc = eq.Uncertainty((eq.Part(0.004 ** 2, 4, "seeds"),))
    e = eq.tost(0.01, unc, _margin(0.03))
    t90, t95 = stats.t.ppf(0.95, 4), stats.t.ppf(0.975, 4)
    assert e.ci90 == pytest.approx((0.01 - t90 * 0.004, 0.01 + t90 * 0.004))
    assert e.ci95 == pytest.approx((0.01 - t95 * 0.004, 0.01 + t95 * 0.004))
    assert e.bound == pytest.approx(0.01 + t90 * 0.004)
    assert e.outcome == eq.REPRODUCED               # 0.0185 < 0.03
    assert e.in_margins(e.bound) == pytest.approx(e.bound / 0.03)
    # the same difference, a margin below its bound: neither inside nor beyond
    assert eq.tost(0.01, unc, _margin(0.015)).outcome == eq.INCONCLUSIVE
    # far beyond: the 95% interval clears +δ
    far = eq.tost(0.05, unc, _margin(0.03))
    assert far.outcome == eq.DEVIATES
    assert far.deviation_bound == pytest.approx(0.05 - t95 * 0.004)


def test_the_reachable_bound_is_what_a_perfect_reproduction_reaches():
    # d's 90 % half-width: the bound of d = 0 with the same uncertainty
    unc = eq.Uncertainty((eq.Part(0.004 ** 2, 4, "seeds"),))
    e = eq.tost(0.01, unc, _margin(0.03))
    assert e.reachable_bound == pytest.approx(stats.t.ppf(0.95, 4) * 0.004)
    assert e.reachable_bound == pytest.approx(eq.tost(0.0, unc, _margin(0.03)).bound)
    assert e.fields()["reachable_bound_margins"] == pytest.approx(e.reachable_bound / 0.03)
    # another sample, 5 replicates that each draw their own: s²(1 + 1/R) with R − 1 df, where
    # s (one sample's standard error) is the margin — no value can be reproduced
    delta = 1.0
    other = eq.Uncertainty((eq.Part(delta ** 2 * (1 + 1 / 5), 4, "replicates"),))
    perfect = eq.tost(0.0, other, _margin(delta))
    assert perfect.reachable_bound == pytest.approx(stats.t.ppf(0.95, 4) * math.sqrt(1.2))
    assert perfect.reachable_bound > delta and perfect.outcome == eq.INCONCLUSIVE
    assert eq.tost(0.0, eq.Uncertainty(), _margin(delta)).reachable_bound == 0.0


def test_a_deterministic_value_has_d_exactly():
    exact = eq.Uncertainty()
    assert eq.tost(-0.0005, exact, _margin(0.03)).outcome == eq.REPRODUCED
    assert eq.tost(-0.0005, exact, _margin(0.03)).bound == pytest.approx(0.0005)
    assert eq.tost(0.05, exact, _margin(0.03)).outcome == eq.DEVIATES
    assert eq.tost(0.0, exact, _margin(0.0)).outcome == eq.REPRODUCED


def test_outcome_at_other_margins_follows_from_the_two_bounds():
    unc = eq.Uncertainty((eq.Part(0.01 ** 2, 9, "seeds"),))
    e = eq.tost(0.03, unc, _margin(0.02))
    for m in (0.005, 0.01, 0.02, 0.04, 0.08):
        assert eq.outcome_at(e.bound, e.deviation_bound, m) == eq.tost(0.03, unc,
                                                                        _margin(m)).outcome


def test_welch_satterthwaite_degrees_of_freedom():
    unc = eq.Uncertainty((eq.Part(4.0, 4, "seeds"), eq.Part(1.0, 50, "our query sample")))
    assert unc.df == pytest.approx(25.0 / (16 / 4 + 1 / 50))
    assert eq.Uncertainty().df == math.inf


def test_the_default_margin_is_one_standard_error_over_the_queries_floored_by_rounding():
    rng = np.random.default_rng(3)
    folds = [rng.uniform(0, 1, n) for n in (20, 21, 22)]
    w = sampling_variance(folds)
    se = math.sqrt(sum(np.var(f, ddof=1) / f.size for f in folds) / 9)
    assert math.sqrt(w.var) == pytest.approx(se)
    m = eq.resolution(math.sqrt(w.var), eq.half_unit("0.4701", 4))
    assert m.basis == "resolution" and m.value == pytest.approx(se)
    # a published "0.47" is known to ±0.005: the floor wins over a smaller standard error
    floor = eq.resolution(0.001, eq.half_unit("0.47", 2))
    assert floor.basis == "rounding" and floor.value == pytest.approx(0.005)
    assert eq.half_unit("2^8", 0) == 0.0


def test_a_declared_rule_is_the_margin():
    pv = PublishedValue("t", "D", "A", "exponent", None, "1", "claim")
    rule = {"tol": 0.15, "rounding": False, "why": "one complexity class apart"}
    m = margin_for(pv, {"se_queries": 0.5}, rule)
    assert (m.value, m.basis, m.why) == (0.15, "declared", "one complexity class apart")


def test_compare_writes_codes_and_the_rule_s_numbers():
    class Pub:                                    # a minimal published set
        values = [PublishedValue("fig", "D", "A", "MAP", "avg", "0.4701", "Fig. 4"),
                  PublishedValue("fig", "D", "B", "MAP", "avg", "0.30", "Fig. 4")]
        parents: dict = {}

        def for_artifact(self, name):
            return self.values

        def rule(self, r):
            return None

        def kind(self, r):
            return "reproduction", ""

        def explanation(self, r):
            return ""
    recs = [{"artifact": "fig", "dataset": "D", "method": m, "metric": "MAP", "fold": "avg",
             "value": v, "uncertainty": [], "se_queries": 0.03}
            for m, v in (("A", 0.46963), ("B", 0.40))]
    got = {r["method"]: r for r in compare("p", "fig", recs, Pub(), {})}
    assert got["A"]["verdict"] == Verdict.REPRODUCED.value
    assert got["A"]["d"] == pytest.approx(-0.00047) and got["A"]["margin"] == 0.03
    assert got["A"]["equivalence_bound"] == pytest.approx(0.00047)
    assert got["B"]["verdict"] == Verdict.DEVIATES.value
    assert got["B"]["equivalence_bound_margins"] == pytest.approx(0.1 / 0.03)
    # no uncertainty recorded where one is needed: an unknown part makes it inconclusive
    unknown = {**recs[0], "uncertainty": [{"source": "unknown", "var": math.inf, "df": None}]}
    assert judge(unknown, Pub.values[0]).outcome == eq.INCONCLUSIVE


def _rates(r: int, sd: float, shift: float, trials: int, seed: int) -> tuple[float, float]:
    """(reproduced, deviates) rates of the rule for a value whose replicates have seed spread
    ``sd`` (in margins) around a true difference ``shift`` (in margins), δ = 1."""
    rng = np.random.default_rng(seed)
    x = rng.normal(shift, sd, (trials, r))
    out = []
    for row in x:
        var = float(np.var(row, ddof=1)) / r
        e = eq.tost(float(row.mean()), eq.Uncertainty((eq.Part(var, r - 1, "seeds"),)),
                    _margin(1.0))
        out.append(e.outcome)
    out = np.array(out)
    return float(np.mean(out == eq.REPRODUCED)), float(np.mean(out == eq.DEVIATES))


@pytest.mark.parametrize("r", [5, 8])
def test_coverage_by_simulation(r):
    # a perfect reproduction whose seed spread is half the margin is reproduced ≥ 90%
    reproduced, deviates = _rates(r, 0.5, 0.0, 4000, seed=11)
    assert reproduced >= 0.90 and deviates <= 0.01
    # a true shift of 2δ deviates ≥ 90%, and is never called reproduced
    reproduced, deviates = _rates(r, 0.5, 2.0, 4000, seed=12)
    assert deviates >= 0.90 and reproduced <= 0.01


def test_a_noisier_method_is_harder_not_easier_to_call_reproduced():
    quiet = _rates(5, 0.2, 0.3, 2000, seed=21)[0]
    noisy = _rates(5, 1.0, 0.3, 2000, seed=21)[0]
    assert quiet > 0.9 and noisy < 0.5
