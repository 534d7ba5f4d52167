"""What separates our value from the published one: the uncertainty of d = ours − published
that :mod:`repro.judge.equivalence` tests against the margin, and the standard error over the
paper's test queries that sizes the default margin (``Noise`` in :mod:`repro.spec`, declared
per artifact or per dataset; Bouthillier et al., MLSys 2021).

Three sources of uncertainty:

* **seeds** — training randomness (sampler and optimiser seeds, random starts, triplet
  draws), measured by the artifact's replicates (:mod:`.replicates`): the standard error of
  our mean over R replicates, s²/R with R − 1 degrees of freedom;
* **arithmetic** — a deterministic but sensitive method, replicated on inputs perturbed by a
  seeded 2⁻⁴⁰ relative jitter: the same s²/R;
* **query sampling** — where our sample of queries is not the paper's (``Noise.basis``
  "sample", and stand-in data): the sampling variance of our value (the stratified variance of
  the mean of fold means, ``Σ_f s_f²/n_f / F²``, or the variance of its fold values over their
  number) and that of the paper's value on its own sample of the same size; where our
  replicates each draw their own sample, their spread already holds our sampling, and one run
  of the paper's varies as one of ours (s²).

On the paper's own test queries (``"same queries"``: the official LETOR folds) query sampling
cannot separate two values: only seeds and arithmetic do, and a deterministic method has d
exactly.  The published value is taken as the paper's result, known to its printed rounding
(the margin is never below half a unit of its last digit).

The standard error over the paper's test queries (``se_queries``) is the paper's own
resolution: the default margin (:func:`repro.judge.equivalence.resolution`).

Each record says its noise: ``noise`` (the basis), ``noise_words`` (what the interval of d
accounts for) and ``uncertainty`` (its parts: source, variance, degrees of freedom);
:func:`why` is the sentence a page says once per artifact (``Noise.why``, or the basis's
default).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..spec import ARITHMETIC, SAME_QUERIES, SAMPLE, SAMPLING, SEEDS, STAND_IN, Artifact, Noise
from .design import SINGLE_STAGE_LEVELS, levels
from .equivalence import Part, Uncertainty
from .replicates import replicates_of


#: why a basis is the right one (a page says it once per artifact, unless ``Noise.why`` does)
DEFAULT_WHY = {
    SAME_QUERIES: (
        "Same test queries as the paper: query sampling cannot separate two scores on "
        "identical queries, so the difference from a published value is uncertain only by "
        "our seeds (the standard error of our mean over replicates); a method without "
        "randomness has the difference exactly."),
    SAMPLE: (
        "Our sample of queries is not the paper's: the difference from a published value is "
        "uncertain by our seeds and by the sampling of both samples of queries."),
    STAND_IN: (
        "Stand-in data (a substitute for the paper's): the difference is computed as on "
        "another sample, but a value on other data is never counted as reproduced or "
        "deviating."),
}


#: the words of a timing artifact's value (a time, a ratio or a fitted exponent of one timed
#: sweep, run alone): no interval — the queries are not what separates it from a cost claim
TIMING_WORDS = "none: one timed sweep, run alone (timings are not replicated)"
#: the words of a timing artifact's deterministic value (a fitted exponent of counted
#: operations, the same on every machine: ``deterministic`` and one replicate)
COUNT_WORDS = "none: counted operations, deterministic (the same on every machine)"


def basis(art: Artifact, rec: dict) -> str:
    """The basis a record is judged on: "stand-in" for a value on substitute data, else the
    artifact's declared basis for its dataset."""
    if rec.get("stand_in"):
        return STAND_IN
    return declared(art, rec).basis


def declared(art: Artifact, rec: dict) -> Noise:
    """The artifact's :class:`~repro.spec.Noise` for the record's dataset (or data used)."""
    for name in (rec.get("data_used"), rec.get("dataset")):
        if art.judging.noise.names(name):
            return art.judging.noise.of(name)
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
            n = art.noise_for(ds) if ds is not None else art.judging.noise.default
            key = (n.basis, n.why or DEFAULT_WHY[n.basis])
        out.setdefault(key, []).append(ds)
    whole = len(out) == 1
    return [{"datasets": None if whole else [d for d in dss if d is not None],
             "basis": b, "why": w} for (b, w), dss in out.items()]


# --- the uncertainty of ours − published ---------------------------------------------------------

@dataclass
class Within:
    """The sampling noise of one run's value: ``var`` (of the value), its degrees of freedom
    and how it was measured (``what``: "105 test queries stratified by 5 folds")."""
    var: float
    df: float
    what: str


@dataclass
class Separation:
    """What separates a value from the published one: the parts of the uncertainty of
    d = ours − published (:class:`repro.judge.equivalence.Uncertainty`), the standard error of
    the value over the paper's test queries (the default margin; None without per-query or
    per-fold values) and the record's words (``noise``: the basis; ``noise_words``: what the
    interval of d accounts for)."""
    uncertainty: Uncertainty
    se_queries: float | None
    basis: str
    words: str
    levels: tuple[float, float] = SINGLE_STAGE_LEVELS

    def fields(self) -> dict:
        return {"uncertainty": [{"source": p.source, "var": p.var,
                                 "df": None if not math.isfinite(p.df) else p.df,
                                 "what": p.what} for p in self.uncertainty.parts],
                "se_queries": self.se_queries, "noise": self.basis,
                "noise_words": self.words, "interval_levels": list(self.levels)}


def uncertainty_of(fields: dict) -> Uncertainty:
    """The :class:`Uncertainty` a record's ``uncertainty`` field describes."""
    return Uncertainty(tuple(Part(float(p["var"]), math.inf if p.get("df") is None
                                  else float(p["df"]), p["source"], p.get("what", ""))
                             for p in fields.get("uncertainty") or ()))


def _spread_source(sources: tuple) -> str:
    """The name of what a replicated value's spread measures."""
    got = [s for s in sources if s in (SEEDS, ARITHMETIC)]
    return " and ".join(got) if got else "replicates"


def separation(art: Artifact, rec: dict, within: Within | None, exact: bool,
               replicates: int | None = None) -> Separation:
    """What separates ``rec``'s value from the published one (module docstring).
    ``within``: the sampling noise of one run's value (None: no per-query or per-fold values
    behind it); ``exact``: the value is one deterministic result with nothing to resample.
    ``replicates``: the separation the value would have on that many replicates with the
    same spread (the second stage's projection, :mod:`repro.judge.design`)."""
    values = replicates_of(rec)
    n_rep = len(values) if values else int(rec.get("replicates") or 1)
    if replicates is not None:
        n_rep = replicates
    sep = _separation(art, rec, within, exact, values, n_rep)
    return replace(sep, levels=levels(art.layout.extend_to, n_rep))


def _separation(art: Artifact, rec: dict, within: Within | None, exact: bool, values,
                n_rep: int) -> Separation:
    b = basis(art, rec)
    decl = declared(art, rec)
    reps = replicate_words(n_rep, decl.sources)
    once = values is None or all(v == values[0] for v in values)
    var = None if once else float(np.var(values, ddof=1))      # between replicates
    se_q = math.sqrt(within.var) if within is not None and within.var >= 0 else None
    if art.timing:
        counted = rec.get("deterministic") and rec.get("replicates") == 1
        return Separation(Uncertainty(), se_q, b, COUNT_WORDS if counted else TIMING_WORDS)
    ours = Part(0.0 if var is None else var / n_rep, n_rep - 1, _spread_source(decl.sources),
                f"the standard error of our mean over {reps}")
    if b == SAME_QUERIES:
        if not once:
            words = f"our mean over {reps} (the paper's test queries: no query sampling)"
        elif rec.get("replicates") == 1 and rec.get("deterministic"):
            words = "none: deterministic, computed once on the paper's test queries (d exact)"
        elif values is not None:
            words = f"none: identical in all {reps} on the paper's test queries (d exact)"
        else:
            words = "none: one run on the paper's test queries (d exact)"
        return Separation(Uncertainty(() if once else (ours,)), se_q, b, words)
    # another sample, or stand-in data: replicates and the two samples of queries
    prefix = "stand-in data: " if b == STAND_IN else ""
    if within is None and once:
        if exact:
            return Separation(Uncertainty(), None, b,
                              "none: one deterministic result (nothing to resample)")
        return Separation(Uncertainty((Part(math.inf, math.inf, "unknown",
                                            "no per-query or per-fold values behind the "
                                            "value"),)), None, b,
                          "unknown: no per-query or per-fold values behind the value")
    if SAMPLING in decl.sources and not once:
        # our mean over R samples and the paper's one run on its own sample vary as our
        # replicates do: one estimate, s²(1/R + 1) with R − 1 degrees of freedom (the
        # prediction interval of one run), not two independent parts
        part = Part(var * (1 + 1 / n_rep), n_rep - 1, "replicates and the paper's sample",
                    f"the standard error of our mean over {reps} (each its own sample) and the "
                    f"variance of the paper's one run on its own sample, from the same "
                    f"replicates: s²(1 + 1/{n_rep})")
        return Separation(Uncertainty((part,)), math.sqrt(var), b,
                          f"{prefix}our mean over {reps} (each its own sample) and the "
                          f"paper's own sample")
    parts, words = ([], []) if once else ([ours], [f"our mean over {reps}"])
    if within is not None:      # our sample and the paper's, one estimate of one variance
        parts.append(Part(2 * within.var, within.df, "our query sample and the paper's",
                          f"the sampling variance of our value over {within.what}, and of the "
                          f"paper's on a sample of the same size: 2w²"))
        words.append(f"our sample of {within.what}")
    else:                       # replicates of seeds, but no per-query values behind them
        parts.append(Part(math.inf, math.inf, "unknown",
                          "the paper's sample: no per-query or per-fold values to size it"))
        words.append("(no per-query values to size the samples)")
    words.append("the paper's own sample")
    return Separation(Uncertainty(tuple(parts)), se_q, b, prefix + " and ".join(words))
