"""How many replicates a value needs: a two-stage (group-sequential) design for the verdict
rule of :mod:`repro.judge.equivalence`, declared as data, and the simulation of its error
rates.

**The rule at one stage** on ``n`` replicates with mean difference ``d̂`` from the published
value and standard deviation ``s``: ``d̂`` has standard error ``s/√n`` with ``n − 1`` degrees
of freedom; the value is *reproduced* when the ``reproduce`` interval of ``d`` (90 % in the
single-stage rule) lies inside ±δ, *deviates* when the ``deviate`` interval (95 %) lies
entirely beyond +δ or −δ, and is *inconclusive* otherwise.

**The design** (:data:`TWO_STAGE`): 3 replicates; a value the first stage leaves inconclusive
gets 5 more (8 in all), and the rule is applied again to all 8.  Looking twice would raise
the chance of calling a value reproduced at |d| = δ above the test's 5 % (two chances to
pass), so both stages use wider intervals, of one common level (Pocock 1977; Jennison &
Turnbull 2000, ch. 2 and 6): the level is the one at which the probability of *reproduced*
at |d| = δ is 5 % where it is largest, for a replicate spread small against δ (there the
decision is a one-sided t-test at each stage, and its error does not depend on the spread);
the *deviates* intervals likewise, for 2.5 % at |d| = δ.  :func:`calibrate` finds the levels by
simulation; the declared levels are its result, and a test checks they still hold.

**Error rates** (:func:`rates`, simulated with a seeded NumPy generator; replicates normal with
standard deviation σ around the published value + d; δ = 1): a perfect reproduction whose
spread is at most δ/2 is called reproduced with probability ≥ 90 %; a shift of 2δ deviates
with probability ≥ 90 % (σ ≤ δ/2); a value at |d| = δ is called reproduced with probability
≤ 5 % whatever σ.  ``docs/verdicts.md`` shows the table (:func:`table`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from .equivalence import DEVIATES, INCONCLUSIVE, REPRODUCED


@dataclass(frozen=True)
class Stage:
    """One look: the replicates it has in all, and the two-sided levels of the intervals that
    decide *reproduced* (inside ±δ) and *deviates* (beyond ±δ)."""
    replicates: int
    reproduce: float
    deviate: float

    def __post_init__(self):
        if self.replicates < 2:
            raise ValueError(f"Stage.replicates: a standard deviation needs ≥ 2 replicates, "
                             f"got {self.replicates}")
        for name in ("reproduce", "deviate"):
            level = getattr(self, name)
            if not 0 < level < 1:
                raise ValueError(f"Stage.{name}: an interval level in (0, 1), got {level!r}")


@dataclass(frozen=True)
class Design:
    """Stages in order, each with more replicates than the one before; a value decided at a
    stage gets no more replicates.  ``projected``: a value left inconclusive goes on to the
    next stage only where that stage would decide it if its mean and spread stayed as they
    are (its standard error shrunk to the next stage's replicates): replicates only where
    they can decide something — a value whose uncertainty more replicates cannot shrink
    enough (another sample of queries) keeps the replicates it has."""
    name: str
    stages: tuple[Stage, ...]
    projected: bool = False

    def __post_init__(self):
        ns = [s.replicates for s in self.stages]
        if not ns or ns != sorted(set(ns)):
            raise ValueError(f"Design {self.name!r}: stages need increasing replicate counts, "
                             f"got {ns}")

    @property
    def max_replicates(self) -> int:
        return self.stages[-1].replicates


#: the single-stage rule of :mod:`repro.judge.equivalence` on 3 and on 8 replicates
FIXED_3 = Design("3 replicates", (Stage(3, 0.90, 0.95),))
FIXED_8 = Design("8 replicates", (Stage(8, 0.90, 0.95),))
#: the common levels of the two stages (:func:`calibrate`, seed 2026, 400,000 draws)
POCOCK_REPRODUCE, POCOCK_DEVIATE = 0.9455, 0.9736
#: 3 replicates, then 8 for the values the first stage leaves inconclusive
TWO_STAGE = Design("3, then 8 if inconclusive",
                   (Stage(3, POCOCK_REPRODUCE, POCOCK_DEVIATE),
                    Stage(8, POCOCK_REPRODUCE, POCOCK_DEVIATE)), projected=True)

#: the interval levels (reproduce, deviate) of the single-stage rule
SINGLE_STAGE_LEVELS = (0.90, 0.95)


def levels(extend_to: int, replicates: int) -> tuple[float, float]:
    """The interval levels of a value on ``replicates`` replicates of an artifact whose second
    stage extends to ``extend_to`` (0: none): :data:`TWO_STAGE`'s at either of its stages,
    else the single-stage rule's (a ``--quick`` run's 2 replicates, a value with one run)."""
    if extend_to:
        counts = tuple(st.replicates for st in TWO_STAGE.stages)
        if extend_to != counts[-1]:
            raise ValueError(f"extend_to: the declared design extends to {counts[-1]} "
                             f"replicates, got {extend_to}")
        if replicates in counts:
            st = TWO_STAGE.stages[counts.index(replicates)]
            return st.reproduce, st.deviate
    return SINGLE_STAGE_LEVELS


#: the nominal error rates the design keeps (δ = 1): (what, d, σ, outcome, bound, at least?).
#: At |d| = δ the rate does not depend on σ while σ is small against δ (the upper side decides:
#: a one-sided t-test), so one spread stands for all
NOMINAL = (
    ("a perfect reproduction (d = 0, σ = δ/2) is reproduced", 0.0, 0.5, REPRODUCED, 0.90, True),
    ("a shift of 2δ (σ = δ/2) deviates", 2.0, 0.5, DEVIATES, 0.90, True),
    ("|d| = δ (σ ≤ δ/2) is reproduced", 1.0, 0.5, REPRODUCED, 0.05, False),
    ("|d| = δ (σ ≤ δ/2) deviates", 1.0, 0.5, DEVIATES, 0.025, False),
)


def _t(level: float, n: int) -> float:
    return float(stats.t.ppf(0.5 + level / 2, n - 1))


def verdicts(design: Design, draws: np.ndarray, delta: float = 1.0) -> tuple[np.ndarray,
                                                                             np.ndarray]:
    """The outcome of each row of ``draws`` (rows: values; columns: differences of the
    replicates from the published value, at least ``design.max_replicates`` of them) and how
    many replicates it used: the rule of each stage applied to the first ``replicates``
    columns, in order, to the rows still inconclusive."""
    draws = np.asarray(draws, dtype=np.float64)
    if draws.ndim != 2 or draws.shape[1] < design.max_replicates:
        raise ValueError(f"draws: expected rows of ≥ {design.max_replicates} replicates, got "
                         f"shape {draws.shape}")
    out = np.full(draws.shape[0], INCONCLUSIVE, dtype=object)
    used = np.zeros(draws.shape[0], dtype=np.int64)
    open_ = np.ones(draws.shape[0], dtype=bool)
    for k, st in enumerate(design.stages):
        x = draws[open_, :st.replicates]
        used[open_] = st.replicates
        d = x.mean(axis=1)
        s = x.std(axis=1, ddof=1)
        rep, dev = _decide(d, s, st.replicates, st, delta)
        idx = np.flatnonzero(open_)
        out[idx[rep]] = REPRODUCED
        out[idx[dev & ~rep]] = DEVIATES
        open_[idx[rep | dev]] = False
        if design.projected and k + 1 < len(design.stages):
            nxt = design.stages[k + 1]
            p_rep, p_dev = _decide(d, s, nxt.replicates, nxt, delta)
            open_[idx[~(rep | dev) & ~(p_rep | p_dev)]] = False   # more would not decide
    return out, used


def _decide(d, s, n: int, st: Stage, delta: float):
    """Which of the means ``d`` with replicate spreads ``s`` the rule of stage ``st`` calls
    reproduced and deviates, on ``n`` replicates."""
    se = s / np.sqrt(n)
    hr = _t(st.reproduce, n) * se
    hd = _t(st.deviate, n) * se
    return (d - hr >= -delta) & (d + hr <= delta), (d - hd > delta) | (d + hd < -delta)


def rates(design: Design, d: float, sigma: float, n: int = 200_000, seed: int = 2026,
          delta: float = 1.0) -> dict:
    """Simulated probabilities of each outcome and the mean number of replicates, for
    replicates ~ N(d, σ²) around the published value (``n`` values, a seeded generator)."""
    rng = np.random.default_rng(seed)
    draws = d + sigma * rng.standard_normal((int(n), design.max_replicates))
    out, used = verdicts(design, draws, delta)
    return {REPRODUCED: float(np.mean(out == REPRODUCED)),
            DEVIATES: float(np.mean(out == DEVIATES)),
            INCONCLUSIVE: float(np.mean(out == INCONCLUSIVE)),
            "replicates": float(used.mean())}


def calibrate(counts=(3, 8), n: int = 400_000, seed: int = 2026) -> tuple[float, float]:
    """The common levels (reproduce, deviate) of a design with stages of ``counts``
    replicates at which, for a spread small against δ (σ = δ/100), a value at |d| = δ is
    reproduced with probability 5 % and deviates with probability 2.5 %, each decision
    calibrated without the other stopping a value (the conservative, non-binding choice);
    rounded up to 4 decimals.  For each simulated value and stage, the widest interval level
    at which the stage decides follows from its t statistic; the value is decided at level L
    when some stage decides at L, so the level is a quantile of those maxima."""
    rng = np.random.default_rng(seed)
    draws = 1.0 + 0.01 * rng.standard_normal((int(n), max(counts)))
    widest = {"reproduce": [], "deviate": []}
    for c in counts:
        x = draws[:, :c]
        d = x.mean(axis=1)
        se = x.std(axis=1, ddof=1) / np.sqrt(c)
        inside = np.minimum(1.0 - d, d + 1.0) / se        # reproduced iff t quantile ≤ this
        beyond = np.maximum(d - 1.0, -1.0 - d) / se       # deviates iff t quantile < this
        widest["reproduce"].append(2 * stats.t.cdf(inside, c - 1) - 1)
        widest["deviate"].append(2 * stats.t.cdf(beyond, c - 1) - 1)
    levels = []
    for which, target in (("reproduce", 0.05), ("deviate", 0.025)):
        level = float(np.quantile(np.max(widest[which], axis=0), 1 - target))
        levels.append(float(np.ceil(level * 1e4) / 1e4))
    return levels[0], levels[1]


def table(designs=(FIXED_3, TWO_STAGE, FIXED_8), n: int = 200_000,
          seed: int = 2026) -> list[dict]:
    """Each nominal rate under each design: ``{"what", "d", "sigma", "outcome", "bound",
    "at_least", design name: rate, design name + " replicates": mean replicates}``."""
    rows = []
    for what, d, sigma, outcome, bound, at_least in NOMINAL:
        row = {"what": what, "d": d, "sigma": sigma, "outcome": outcome, "bound": bound,
               "at_least": at_least}
        for design in designs:
            r = rates(design, d, sigma, n, seed)
            row[design.name] = r[outcome]
            row[design.name + " replicates"] = r["replicates"]
        rows.append(row)
    return rows
