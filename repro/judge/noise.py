"""Which noise a verdict allows: the interval behind "within noise", chosen by what separates
our value from the published one (issue 25; Bouthillier et al., MLSys 2021; ``Noise`` in
:mod:`repro.spec`, declared per artifact or per dataset).

Three kinds of noise:

* **run-to-run** — training randomness (sampler and optimiser seeds, random starts, triplet
  draws) or arithmetic (a sensitive method under a perturbed input), measured by the
  artifact's replicates (:mod:`.replicates`);
* **sampling** — which queries (and documents) a value is computed on: measured within a run
  by the variance of the mean over its test queries (stratified by fold), or by the
  replicates where each draws its own sample (``Noise.sources`` has ``"sampling"``);
* **none** — a deterministic method on the paper's own queries.

The interval (:func:`allowed`) by basis:

* **same queries** (``Noise.basis`` "same queries": our test queries are the paper's, e.g.
  the official LETOR folds).  Query sampling cannot separate two scores on identical queries:
  the published value is one run of the paper's own, judged against the *prediction interval
  of one run* from our R replicates, ``m ± t₀.₉₇₅,R−1 · sd · √(1 + 1/R)`` (``m``: the mean of
  the replicate values).  A value without run-to-run spread — a method computed once, a value
  identical in every replicate, or an artifact that declares no replicates — allows none: it
  agrees at the paper's rounding or deviates (:attr:`~repro.judge.verdicts.Verdict.ONCE`),
  the difference explained in its note.
* **sample** (our sample is not the paper's) and values on **stand-in** data (whatever the
  declared basis): a two-level prediction interval of the difference between one new run on
  a new sample and our value.  Its variance is the between-replicate variance ``s²`` times
  ``(1 + 1/R)`` (which includes the sample when each replicate draws its own), plus, when our
  replicates share one sample, twice the within-run variance ``w²`` of the mean over the test
  queries (ours and the new sample's): ``s²(1 + 1/R) + 2w²``; ``t`` has the Welch–
  Satterthwaite degrees of freedom.  ``w²`` is the stratified variance of the mean of fold
  means, ``Σ_f s_f²/n_f / F²`` (a weighted mean: the ratio estimator's), or, for a value that
  is no mean over queries, the variance of its fold values over their number.

Every interval is computed in closed form from the values (no resampling): no verdict depends
on a random seed.  What a verdict cannot tell apart it says: the published value within the
estimation error of a bound is **borderline** (:func:`allowed` gives the margin: the standard
error of the bound from the estimation error of the standard deviation, ``h/√(2·df)`` for a
half-width ``h`` with ``df`` degrees of freedom).

Each record says its noise: ``noise`` (the basis), ``noise_words`` (what the interval is made
of, e.g. "our run-to-run spread over 5 seeds") and ``ci_basis`` (how it is computed);
:func:`why` is the sentence a page says once per artifact (``Noise.why``, or the basis's
default).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..spec import ARITHMETIC, SAME_QUERIES, SAMPLE, SAMPLING, SEEDS, STAND_IN, Artifact, Noise
from .replicates import replicates_of

LEVEL = 0.95

#: why a basis is the right one (a page says it once per artifact, unless ``Noise.why`` does)
DEFAULT_WHY = {
    SAME_QUERIES: (
        "Same test queries as the paper: query sampling cannot separate two scores on "
        "identical queries, so a published value is judged against our run-to-run spread "
        "(the prediction interval of one run from our replicates; a method without "
        "randomness has none and agrees at the paper's rounding or deviates). Arithmetic "
        "noise is checked by `python -m repro stability`."),
    SAMPLE: (
        "Our sample of queries is not the paper's: a published value is judged against a "
        "two-level interval of one run on another sample — the spread between our "
        "replicates and the sampling noise of the test queries within a run."),
    STAND_IN: (
        "Stand-in data (a substitute for the paper's): the published value is placed "
        "against a two-level interval (replicates and test queries); it is never said to "
        "deviate."),
}


#: the words of a timing artifact's value (a time, a ratio or a fitted exponent of one timed
#: sweep, run alone): no interval — the queries are not what separates it from a cost claim
TIMING_WORDS = "none: one timed sweep, run alone (timings are not replicated)"
TIMING_HOW = (TIMING_WORDS + "; a claimed cost (an exponent derived from the paper's O(·) "
              "statement) is exact, not a measurement: the value is within the rule's stated "
              "tolerance, whose reason sizes the timing noise (load, clock), or deviates")


def basis(art: Artifact, rec: dict) -> str:
    """The basis a record is judged on: "stand-in" for a value on substitute data, else the
    artifact's declared basis for its dataset."""
    if rec.get("stand_in"):
        return STAND_IN
    return declared(art, rec).basis


def declared(art: Artifact, rec: dict) -> Noise:
    """The artifact's :class:`~repro.spec.Noise` for the record's dataset (or data used)."""
    noise = art.noise
    if isinstance(noise, dict):
        for name in (rec.get("data_used"), rec.get("dataset")):
            if name in noise:
                return noise[name]
    return art.noise_for(str(rec.get("data_used") or rec.get("dataset")))


def replicate_words(n: int, sources: tuple) -> str:
    """"5 seeds", "5 samples", "5 perturbed inputs", "5 replicates (seeds, sampling)"."""
    one = {SEEDS: "seeds", SAMPLING: "samples", ARITHMETIC: "perturbed inputs"}
    if len(sources) == 1:
        return f"{n} {one[sources[0]]}"
    return f"{n} replicates" + (f" ({', '.join(sources)})" if sources else "")


def why(art: Artifact) -> list[dict]:
    """The sentences a page says once per artifact: ``[{"datasets": [...] or None (all),
    "basis": ..., "why": ...}]`` — the declared ``Noise.why`` or the basis's default, and the
    stand-in sentence where the artifact has stand-ins."""
    out: dict[tuple, list] = {}
    for ds in art.datasets or (None,):
        if ds is not None and ds in art.stand_ins:
            key = (STAND_IN, DEFAULT_WHY[STAND_IN])
        else:
            n = art.noise_for(ds) if ds is not None else (
                art.noise if isinstance(art.noise, Noise) else art.noise_for("*"))
            key = (n.basis, n.why or DEFAULT_WHY[n.basis])
        out.setdefault(key, []).append(ds)
    whole = len(out) == 1
    return [{"datasets": None if whole else [d for d in dss if d is not None],
             "basis": b, "why": w} for (b, w), dss in out.items()]


# --- the interval a verdict allows -------------------------------------------------------------

@dataclass
class Within:
    """The sampling noise of one run's value: ``var`` (of the value), its degrees of freedom
    and how it was measured (``what``: "105 test queries stratified by 5 folds")."""
    var: float
    df: float
    what: str


@dataclass
class Allowed:
    """What a verdict allows: the interval (None: no basis), the borderline margin, and the
    words of the record (``noise``, ``noise_words``, ``ci_basis``)."""
    ci95: tuple | None
    margin: float
    basis: str
    words: str
    how: str

    def fields(self) -> dict:
        return {"ci95": None if self.ci95 is None else [float(self.ci95[0]),
                                                          float(self.ci95[1])],
                "ci_margin": float(self.margin), "noise": self.basis,
                "noise_words": self.words, "ci_basis": self.how}


def t_quantile(df: float) -> float:
    return float(stats.t.ppf(0.5 + LEVEL / 2, df)) if df < 1e7 else \
        float(stats.norm.ppf(0.5 + LEVEL / 2))


def prediction(values: list[float]) -> tuple[float, float, float, float]:
    """``(centre, half-width, margin, sd)`` of the prediction interval of one run from the
    replicate ``values``: mean ± t₀.₉₇₅,R−1 · sd · √(1 + 1/R); margin = half-width/√(2(R−1))."""
    v = np.asarray(values, dtype=np.float64)
    r = v.size
    sd = float(v.std(ddof=1))
    h = t_quantile(r - 1) * sd * math.sqrt(1 + 1 / r)
    return float(v.mean()), h, h / math.sqrt(2 * (r - 1)), sd


def two_level(centre: float, values: list[float] | None, within: Within | None,
              own_samples: bool) -> tuple[float, float, float]:
    """``(half-width, margin, df)`` of the two-level prediction interval (module docstring):
    variance s²(1 + 1/R) [+ 2w² when the replicates share one sample], Welch–Satterthwaite
    degrees of freedom."""
    parts = []                                            # (variance, degrees of freedom)
    if values is not None:
        r = len(values)
        parts.append((float(np.var(values, ddof=1)) * (1 + 1 / r), r - 1))
    if within is not None and not (own_samples and values is not None):
        parts.append((2 * within.var, within.df))
    var = sum(p for p, _ in parts)
    if not parts or var <= 0:
        return 0.0, 0.0, float("inf")
    df = var ** 2 / sum(p ** 2 / d for p, d in parts if d > 0) if all(
        d > 0 for _, d in parts) else float("inf")
    h = t_quantile(df) * math.sqrt(var)
    return h, h / math.sqrt(2 * df) if math.isfinite(df) else 0.0, df


def allowed(art: Artifact, rec: dict, value: float, within: Within | None,
            exact: bool) -> Allowed | None:
    """The interval a verdict of ``rec`` allows (module docstring).  ``within``: the sampling
    noise of one run's value (None: no per-query or per-fold values behind it); ``exact``:
    the value is one deterministic result with nothing to resample.  None: no interval."""
    b = basis(art, rec)
    decl = declared(art, rec)
    values = replicates_of(rec)
    n_rep = len(values) if values else int(rec.get("replicates") or 1)
    reps = replicate_words(n_rep, decl.sources)
    once = values is None or all(v == values[0] for v in values)
    if b == SAME_QUERIES:
        if not once:
            centre, h, margin, sd = prediction(values)
            return Allowed((centre - h, centre + h), margin, b,
                           f"our run-to-run spread over {reps}",
                           f"prediction interval of one run from our {reps}: mean ± "
                           f"t(0.975, {n_rep - 1}) · sd · √(1 + 1/{n_rep}), sd "
                           f"{sd:.3g}; the published value is one run of its own on the same "
                           f"test queries")
        if art.timing:
            return Allowed((value, value), 0.0, b, TIMING_WORDS, TIMING_HOW)
        if rec.get("replicates") == 1 and rec.get("deterministic"):
            words = "none: deterministic (computed once)"
        elif values is not None:
            words = f"none: identical in all {reps}"
        else:
            words = "none: one run (the artifact declares no replicates)"
        return Allowed((value, value), 0.0, b, words,
                       f"{words}; the published value was computed on the same test "
                       f"queries, where query sampling cannot separate two values: it "
                       f"agrees at the paper's rounding or deviates")
    # a sample, or stand-in data: replicates and queries
    own = SAMPLING in decl.sources
    if within is None and once:
        if exact:
            return Allowed((value, value), 0.0, b,
                           "none: one deterministic result (nothing to resample)",
                           "exact: one deterministic result with no queries or folds to "
                           "resample (the interval is the value itself)")
        return None
    centre = float(np.mean(values)) if values is not None and not once else value
    h, margin, df = two_level(centre, None if once else values, within, own)
    if h == 0.0:
        return Allowed((value, value), 0.0, b, "none: no spread between replicates or "
                       "queries", "no spread: every replicate and query gives the same value")
    parts = ([f"{reps}" + (" (each its own sample)" if own else "")] if not once else []) \
        + ([within.what] if within is not None and not (own and not once) else [])
    words = (("stand-in data: " if b == STAND_IN else "") + "the sampling interval over "
             + " × ".join(parts))
    how = ("two-level prediction interval of one run on another sample: "
           + ("between-replicate variance × (1 + 1/R)" if not once else "")
           + (" + " if not once and within is not None and not own else "")
           + ("2 × the variance of the mean over " + within.what
              if within is not None and not (own and not once) else "")
           + (f"; t with {df:.0f} degrees of freedom (Welch–Satterthwaite)"
              if math.isfinite(df) else "; normal quantile"))
    return Allowed((centre - h, centre + h), margin, b, words, how)
