"""The two-stage replicate design (repro.judge.design): its simulated error rates at their
nominal levels, its levels reproduced by the calibration, and the simulated rule the same as
the verdict rule of repro.judge.equivalence."""
import numpy as np
import pytest

from repro.judge.design import (FIXED_3, FIXED_8, NOMINAL, POCOCK_DEVIATE, POCOCK_REPRODUCE,
                                TWO_STAGE, Design, Stage, calibrate, rates, verdicts)
from repro.judge.equivalence import DEVIATES, REPRODUCED, Margin, Part, Uncertainty, tost


@pytest.mark.parametrize("what,d,sigma,outcome,bound,at_least", NOMINAL,
                         ids=[n[0] for n in NOMINAL])
def test_two_stage_design_keeps_each_nominal_rate(what, d, sigma, outcome, bound, at_least):
    """Each rate at its nominal level ± 2 % (200,000 simulated values: Monte Carlo error
    below 0.07 %), and on the right side of it."""
    got = rates(TWO_STAGE, d, sigma)[outcome]
    if at_least:
        assert got >= bound
    else:
        assert abs(got - bound) <= 0.02 and got <= bound + 0.002


def test_three_replicates_alone_miss_the_power_the_design_reaches():
    """The single-stage rule on 3 replicates calls a perfect reproduction reproduced about
    half the time; the design reaches ≥ 90 % with fewer replicates on average than 8."""
    one = rates(FIXED_3, 0.0, 0.5)
    two = rates(TWO_STAGE, 0.0, 0.5)
    assert one[REPRODUCED] < 0.7 <= 0.9 <= two[REPRODUCED]
    assert 3 < two["replicates"] < 8
    far = rates(TWO_STAGE, 5.0, 0.5)             # decided at once: 3 replicates
    assert far[DEVIATES] > 0.99 and far["replicates"] < 3.1


def test_looking_twice_at_the_single_stage_levels_inflates_the_error():
    """Without the wider intervals a second look raises the chance of 'reproduced' at
    |d| = δ above 5 % — what the design's levels correct."""
    naive = Design("naive", (Stage(3, 0.90, 0.95), Stage(8, 0.90, 0.95)))
    assert rates(naive, 1.0, 0.5)[REPRODUCED] > 0.07
    assert rates(FIXED_8, 1.0, 0.5)[REPRODUCED] <= 0.052


def test_declared_levels_are_the_calibrated_ones():
    rep, dev = calibrate(n=400_000, seed=2026)
    assert (rep, dev) == (POCOCK_REPRODUCE, POCOCK_DEVIATE)
    assert 0.90 < POCOCK_REPRODUCE < 0.95 < POCOCK_DEVIATE < 0.975 + 0.01


def test_simulated_rule_is_the_verdict_rule():
    """At one stage, the simulation's outcome of every set of replicates is tost()'s on
    their mean, with the standard error of the mean over n replicates (n − 1 df)."""
    rng = np.random.default_rng(7)
    for n in (3, 8):
        design = Design("one", (Stage(n, 0.90, 0.95),))
        draws = rng.normal(rng.uniform(-3, 3, (400, 1)), rng.uniform(0.05, 1.5, (400, 1)),
                           (400, n))
        got, used = verdicts(design, draws)
        assert (used == n).all()
        margin = Margin(1.0, "declared", "test")
        for row, outcome in zip(draws, got):
            unc = Uncertainty((Part(row.var(ddof=1) / n, n - 1, "seeds"),))
            assert tost(row.mean(), unc, margin).outcome == outcome
        assert len(set(got)) == 3                  # every outcome occurs


def test_bad_designs_are_refused_naming_the_field():
    with pytest.raises(ValueError, match="Stage.replicates"):
        Stage(1, 0.9, 0.95)
    with pytest.raises(ValueError, match="Stage.deviate"):
        Stage(3, 0.9, 1.5)
    with pytest.raises(ValueError, match="increasing replicate counts"):
        Design("x", (Stage(8, 0.9, 0.95), Stage(3, 0.9, 0.95)))
    with pytest.raises(ValueError, match="draws"):
        verdicts(TWO_STAGE, np.zeros((4, 3)))
