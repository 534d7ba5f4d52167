"""Is ours the paper's value within a declared margin?  Two one-sided tests (Schuirmann 1987;
Lakens 2017) on d = ours − published.

**The difference and its uncertainty.**  ``d`` is our value minus the published one as the
paper prints it.  Its standard error comes from what separates the two values
(:class:`Uncertainty`, built by :mod:`repro.judge.noise`): the standard error of our mean over
replicates (seeds, or the 2⁻⁴⁰ input jitter of an arithmetic replicate), and, where our
sample of queries is not the paper's, the sampling variance of the value on our sample and on
the paper's.  Components are added; the degrees of freedom are Welch–Satterthwaite's.  A value
with no component (a deterministic method on the paper's own test queries) has ``d`` exactly.

**The margin δ** (:func:`resolution`): by default the paper's own resolution — one standard
error of the value over the paper's test queries (from our per-query values on the same
queries; on another sample, the standard error of one sample of the paper's size), never below
half a unit of the published value's last printed digit (the paper's own rounding).  A paper
may declare another margin for some values, with its reason (``[[tolerance.rule]]`` in its
TOML: ``tol`` is the margin).

**The verdict** (:func:`tost`), at 5 %:

* **reproduced** — the 90 % interval of ``d`` lies inside ±δ (both one-sided tests reject a
  difference of δ or more);
* **deviates** — the 95 % interval of ``d`` lies entirely beyond +δ or −δ;
* **inconclusive** — otherwise: more replicates or more queries would decide.

Each value also carries its **equivalence bound** — the smallest margin at which it is
reproduced, ``max(|lo₉₀|, |hi₉₀|)`` — and its **deviation bound** — the largest margin beyond
which it still deviates, ``max(lo₉₅, −hi₉₅, 0)``: at any margin m the value is reproduced
when its equivalence bound ≤ m, deviates when its deviation bound > m, and is inconclusive in
between (:func:`outcome_at`), so a reader can hold it to a margin of their own.

Its **reachable bound** — the equivalence bound of a perfect reproduction (d = 0) with the
same uncertainty, the 90 % interval's half-width — says what the design can show at all: where
it exceeds δ no value can be reproduced, however close (on another sample, both samples' query
sampling make d's standard error at least one δ of its own: ``reproduced`` is out of reach and
the value is ``inconclusive`` or ``deviates``; more replicates cannot change that, only the
paper's own queries could).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats

#: the outcomes of the rule
REPRODUCED, INCONCLUSIVE, DEVIATES = "reproduced", "inconclusive", "deviates"
#: the test's size: each one-sided test at 5 % (the 90 % interval decides equivalence)
ALPHA = 0.05
#: relative slack for comparing a bound with a margin computed from the same numbers
_SLACK = 1e-9


@dataclass(frozen=True)
class Part:
    """One source of uncertainty of ``d``: its variance, degrees of freedom and what it is
    (``source``: "seeds", "arithmetic", "replicates", "our query sample", "the paper's query
    sample")."""
    var: float
    df: float
    source: str
    what: str = ""


@dataclass(frozen=True)
class Uncertainty:
    """The uncertainty of ``d``: its parts (none: ``d`` is known exactly)."""
    parts: tuple[Part, ...] = ()

    @property
    def var(self) -> float:
        return float(sum(p.var for p in self.parts))

    @property
    def se(self) -> float:
        return math.sqrt(self.var)

    @property
    def df(self) -> float:
        """Welch–Satterthwaite degrees of freedom (infinite without parts)."""
        var = self.var
        if var <= 0 or any(p.df <= 0 for p in self.parts if p.var > 0):
            return math.inf
        return var ** 2 / sum(p.var ** 2 / p.df for p in self.parts if p.var > 0)

    def quantile(self, level: float) -> float:
        """The two-sided ``level`` quantile of t with these degrees of freedom."""
        df = self.df
        q = 0.5 + level / 2
        return float(stats.norm.ppf(q)) if not math.isfinite(df) or df > 1e7 else \
            float(stats.t.ppf(q, df))

    def interval(self, d: float, level: float) -> tuple[float, float]:
        h = self.quantile(level) * self.se if self.var > 0 else 0.0
        return d - h, d + h

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(p.source for p in self.parts if p.var > 0)


@dataclass(frozen=True)
class Margin:
    """δ with its basis: ``"resolution"`` (one standard error of the value over the paper's
    test queries), ``"rounding"`` (half a unit of the published value's last digit, where that
    is larger or no standard error exists) or ``"declared"`` (the paper's TOML, with ``why``)."""
    value: float
    basis: str
    why: str


def half_unit(text: str, decimals: int, rounding: bool = True) -> float:
    """Half a unit of the last printed digit of a published value (0 for an exact value such
    as a grid power "2^8", or where ``rounding`` is off: a claimed number)."""
    if not rounding or "^" in text:
        return 0.0
    return 0.5 * 10.0 ** (-decimals)


def resolution(se_queries: float | None, half: float, what: str = "") -> Margin:
    """The default margin: one standard error over the paper's test queries (``se_queries``,
    None where the value has no per-query or per-fold values), never below ``half`` a unit of
    the published value's last digit."""
    if se_queries is not None and math.isfinite(se_queries) and se_queries > half:
        return Margin(float(se_queries), "resolution",
                      "one standard error of the value over the paper's test queries"
                      + (f" ({what})" if what else ""))
    return Margin(float(half), "rounding",
                  "half a unit of the published value's last digit (the paper's rounding)"
                  + ("; larger than one standard error over the test queries"
                     if se_queries is not None else "; no per-query values behind the value"))


@dataclass(frozen=True)
class Equivalence:
    """The rule's result for one value (module docstring)."""
    d: float
    ci90: tuple[float, float]
    ci95: tuple[float, float]
    margin: Margin
    se: float
    df: float
    outcome: str

    @property
    def bound(self) -> float:
        """The equivalence bound: the smallest margin at which the value is reproduced."""
        return max(abs(self.ci90[0]), abs(self.ci90[1]))

    @property
    def deviation_bound(self) -> float:
        """The largest margin beyond which the value still deviates (0: deviates at none)."""
        return max(self.ci95[0], -self.ci95[1], 0.0)

    @property
    def reachable_bound(self) -> float:
        """The equivalence bound of d = 0 with this uncertainty: the 90 % interval's
        half-width (module docstring)."""
        return (self.ci90[1] - self.ci90[0]) / 2.0

    def in_margins(self, x: float) -> float | None:
        m = self.margin.value
        if m > 0:
            return x / m
        return 0.0 if x == 0 else None

    def fields(self) -> dict:
        """The record's fields (``docs/verdicts.md``)."""
        return {"d": self.d, "d_ci90": list(self.ci90), "d_ci95": list(self.ci95),
                "d_se": self.se, "d_df": None if not math.isfinite(self.df) else self.df,
                "margin": self.margin.value, "margin_basis": self.margin.basis,
                "margin_why": self.margin.why, "equivalence_bound": self.bound,
                "equivalence_bound_margins": self.in_margins(self.bound),
                "deviation_bound": self.deviation_bound,
                "reachable_bound": self.reachable_bound,
                "reachable_bound_margins": self.in_margins(self.reachable_bound),
                "equivalence": self.outcome}


def outcome_at(bound: float, deviation_bound: float, margin: float) -> str:
    """The outcome at another margin, from a value's two bounds."""
    if bound <= margin * (1 + _SLACK) + 1e-15:
        return REPRODUCED
    if deviation_bound > margin * (1 + _SLACK):
        return DEVIATES
    return INCONCLUSIVE


def tost(d: float, unc: Uncertainty, margin: Margin,
         levels: tuple[float, float] | None = None) -> Equivalence:
    """Two one-sided tests of |E d| ≥ δ at 5 % each (module docstring).  ``levels``: the
    two-sided levels of the interval that decides *reproduced* and of the one that decides
    *deviates* (default 90 % and 95 %; a two-stage design's wider ones,
    :func:`repro.judge.design.levels`) — the record's ``d_ci90`` and ``d_ci95`` are these."""
    rep, dev = levels or (1 - 2 * ALPHA, 1 - ALPHA)
    ci90 = unc.interval(d, rep)
    ci95 = unc.interval(d, dev)
    e = Equivalence(float(d), ci90, ci95, margin, unc.se, unc.df, INCONCLUSIVE)
    out = outcome_at(e.bound, e.deviation_bound, margin.value)
    return Equivalence(e.d, ci90, ci95, margin, unc.se, unc.df, out)
