"""What separates our value from the published one (repro.judge.noise, through
repro.judge.intervals.attach): the parts of the uncertainty of d = ours − published — our
seeds on the paper's own queries (s²/R), and on another sample or stand-in data both samples
of queries too — none for a deterministic value on the paper's queries (d exact); the standard
error over the test queries that sizes the default margin; the words each record and page
say; and coverage of d's interval checked by simulation."""
import math

import numpy as np
import pytest
from scipy import stats

from repro.judge import intervals, noise
from repro.judge.equivalence import Part, Uncertainty
from repro.judge.published import PublishedValue
from repro.judge.verdicts import judge
from repro.spec import SAME_QUERIES, SAMPLE, SAMPLING, SEEDS, Artifact, Judging, Noise, RunLayout


def _art(basis=SAME_QUERIES, sources=(SEEDS,), folds=(1, 2), **kw):
    return Artifact(
        "fakepaper", "t", "t", task="task",
        layout=RunLayout(datasets=("D",), folds=folds, repeats=5),
        judging=Judging(noise=Noise(basis, sources))).replace(**kw)


def _tables(rng, n=40, folds=("1", "2")):
    return [{"method": "A", "metric": "MAP", "fold": f, "dataset": "D",
             "qids": list(range(n)), "values": rng.random(n).tolist()} for f in folds]


def _avg(tables, replicate_values=None, **extra):
    rec = {"method": "A", "metric": "MAP", "fold": "avg", "dataset": "D",
           "value": float(np.mean([np.mean(t["values"]) for t in tables])), **extra}
    if replicate_values is not None:             # around the tables' mean (the replicates')
        rv = [rec["value"] + v - np.mean(replicate_values) for v in replicate_values]
        rec.update(value=float(np.mean(rv)), replicates=len(rv), replicate_values=rv,
                   spread=float(np.std(rv, ddof=1)), deterministic=False)
    return rec


def _parts(rec):
    return [(p["source"], p["var"], p["df"]) for p in rec["uncertainty"]]


def _stratified(tables):
    """Σ_f s_f²/n_f / F²: the variance of the mean of fold means."""
    return sum(np.var(t["values"], ddof=1) / len(t["values"]) for t in tables) / len(tables) ** 2


REPS = [0.50, 0.52, 0.49, 0.53, 0.51]


def test_same_queries_d_is_uncertain_by_our_seeds_alone():
    tables = _tables(np.random.default_rng(0))
    rec = _avg(tables, REPS)
    intervals.attach(_art(), [rec], tables)
    r = len(REPS)
    ((source, var, df),) = _parts(rec)
    assert source == "seeds" and df == r - 1
    assert var == pytest.approx(np.var(REPS, ddof=1) / r)           # s²/R: our mean's se²
    assert rec["noise"] == "same queries"
    assert rec["noise_words"].startswith("our mean over 5 seeds")
    # the margin's standard error over the paper's test queries (stratified by fold)
    assert rec["se_queries"] == pytest.approx(math.sqrt(_stratified(tables)))
    # the query bootstrap is still shown, but is not what the verdict uses
    assert rec["query_ci95"] and "bootstrap" in rec["query_ci_basis"]
    # queries do not enter d's uncertainty: the same spread on other queries, the same parts
    other_tables = _tables(np.random.default_rng(9), n=5)
    other = _avg(other_tables, REPS)
    intervals.attach(_art(), [other], other_tables)
    assert other["uncertainty"][0]["var"] == pytest.approx(var)
    assert other["se_queries"] != pytest.approx(rec["se_queries"])


def test_a_method_computed_once_has_d_exactly_on_the_paper_s_queries():
    tables = _tables(np.random.default_rng(1))
    once = _avg(tables, replicates=1, deterministic=True)
    intervals.attach(_art(), [once], tables)
    assert once["uncertainty"] == []
    assert once["noise_words"] == ("none: deterministic, computed once on the paper's test "
                                   "queries (d exact)")
    se = once["se_queries"]
    # reproduced when |d| < δ = se_queries, deviates beyond — no zero-width trap
    near = PublishedValue("t", "D", "A", "MAP", "avg", f"{once['value'] + se / 2:.6f}", "T")
    far = PublishedValue("t", "D", "A", "MAP", "avg", f"{once['value'] + 2 * se:.6f}", "T")
    assert judge(once, near).outcome == "reproduced"
    assert judge(once, far).outcome == "deviates"
    same = _avg(tables, [0.5] * 5)
    intervals.attach(_art(), [same], tables)
    assert same["uncertainty"] == []
    assert same["noise_words"] == ("none: identical in all 5 seeds on the paper's test "
                                   "queries (d exact)")
    # identical replicates whose floating-point sd is not exactly 0 (0.7 three times)
    rec = {"method": "A", "metric": "iterations", "fold": None, "dataset": "D", "value": 0.7,
           "replicates": 3, "replicate_values": [0.7] * 3, "spread": 0.0}
    intervals.attach(_art(), [rec], [])
    assert rec["uncertainty"] == [] and rec["noise_words"].startswith(
        "none: identical in all 3 seeds")


def test_a_timed_value_says_it_is_one_timed_sweep_not_the_paper_s_queries():
    rec = {"method": "A", "metric": "exponent in n", "fold": None, "dataset": "D",
           "value": 1.07}
    intervals.attach(Artifact(
        "fakepaper", "t", "t", task="task",
        layout=RunLayout(datasets=("D",), timing=True)), [rec], [])
    assert rec["uncertainty"] == [] and rec["noise_words"] == noise.TIMING_WORDS
    assert "queries" not in rec["noise_words"]
    pv = PublishedValue("t", "D", "A", "exponent in n", None, "1", "T")
    e = judge(rec, pv, {"tol": 0.15, "rounding": False})
    assert e.outcome == "reproduced" and e.margin.basis == "declared"
    counted = {"method": "A", "metric": "exponent in n", "fold": None, "dataset": "D",
               "value": 1.0, "deterministic": True, "replicates": 1}   # counts' exponent
    intervals.attach(Artifact(
        "fakepaper", "t", "t", task="task",
        layout=RunLayout(datasets=("D",), timing=True)), [counted], [])
    assert counted["noise_words"] == noise.COUNT_WORDS and counted["uncertainty"] == []


def test_on_a_sample_d_is_uncertain_by_seeds_and_both_samples_of_queries():
    rng = np.random.default_rng(2)
    tables = _tables(rng)
    w2 = _stratified(tables)
    # replicates share one sample (seeds only): s²/R, and w² (ours) + w² (the paper's) as
    # one part — one estimate of one variance, its degrees of freedom counted once
    shared = _avg(tables, REPS)
    intervals.attach(_art(SAMPLE), [shared], tables)
    s2 = np.var(REPS, ddof=1)
    assert _parts(shared) == [("seeds", pytest.approx(s2 / 5), 4),
                              ("our query sample and the paper's", pytest.approx(2 * w2), 78)]
    u = Uncertainty(tuple(Part(v, df, s) for s, v, df in _parts(shared)))
    var = s2 / 5 + 2 * w2
    assert u.var == pytest.approx(var)
    assert u.df == pytest.approx(var ** 2 / ((s2 / 5) ** 2 / 4 + (2 * w2) ** 2 / 78))
    assert shared["noise_words"] == ("our mean over 5 seeds and our sample of 80 test queries "
                                     "stratified by 2 folds and the paper's own sample")
    # each replicate its own sample: their spread holds our sampling; one run of the paper's
    # on its own sample varies as one of ours — s²(1/R + 1) from one estimate, R − 1 df (the
    # prediction interval of one run)
    own = _avg(tables, REPS)
    intervals.attach(_art(SAMPLE, (SEEDS, SAMPLING)), [own], tables)
    assert _parts(own) == [("replicates and the paper's sample", pytest.approx(s2 * 1.2), 4)]
    assert own["se_queries"] == pytest.approx(math.sqrt(s2))
    # one run on a sample: two independent samples of the same size
    one = _avg(tables)
    intervals.attach(_art(SAMPLE, ()), [one], tables)
    assert _parts(one) == [("our query sample and the paper's", pytest.approx(2 * w2), 78)]


def test_stand_in_data_gets_the_sampling_uncertainty_whatever_the_basis():
    tables = _tables(np.random.default_rng(3))
    rec = _avg(tables, stand_in=True, data_used="X")
    intervals.attach(_art(SAME_QUERIES), [rec], tables)
    assert rec["noise"] == "stand-in"
    assert [p["source"] for p in rec["uncertainty"]] == ["our query sample and the paper's"]
    assert rec["noise_words"].startswith("stand-in data: our sample of 80 test")


def test_a_value_without_any_evidence_on_a_sample_has_an_unknown_uncertainty():
    rec = {"method": "A", "metric": "MAP", "fold": "avg", "dataset": "D", "value": 0.4}
    sep = noise.separation(_art(SAMPLE, ()), rec, None, exact=False)
    assert sep.uncertainty.var == math.inf and sep.se_queries is None
    assert sep.words.startswith("unknown")
    pv = PublishedValue("t", "D", "A", "MAP", "avg", "0.4", "T")
    assert judge({**rec, **sep.fields()}, pv).outcome == "inconclusive"
    exact = noise.separation(_art(SAMPLE, ()), rec, None, exact=True)
    assert exact.uncertainty.parts == ()


def test_the_noise_is_declared_per_dataset():
    art = _art().replace(noise={"D": Noise(SAMPLE, ()), "*": Noise()})
    assert noise.basis(art, {"dataset": "D"}) == "sample"
    assert noise.basis(art, {"dataset": "E"}) == "same queries"
    assert noise.basis(art, {"dataset": "D", "stand_in": True}) == "stand-in"


def test_each_page_says_once_why_its_noise_is_the_right_one():
    art = _art()
    (one,) = noise.why(art)
    assert one["datasets"] is None and one["why"] == noise.DEFAULT_WHY[SAME_QUERIES]
    art = Artifact(
        "p", "t", "t",
        layout=RunLayout(datasets=("D", "E", "S"), stand_ins={"S": "E2"}),
        judging=Judging(
            noise={"D": Noise(SAMPLE, why="Our draw of 50 queries is not theirs."),
                   "*": Noise()}))
    got = {w["basis"]: w for w in noise.why(art)}
    assert got["sample"] == {"datasets": ["D"], "basis": "sample",
                             "why": "Our draw of 50 queries is not theirs."}
    assert got["same queries"]["datasets"] == ["E"] and got["stand-in"]["datasets"] == ["S"]


def test_no_verdict_depends_on_the_bootstrap_seed(monkeypatch):
    """d's uncertainty and the margin are closed forms: under every bootstrap seed the query
    bootstrap shown beside moves, the verdict's numbers do not."""
    from repro.judge import stats as S
    rng = np.random.default_rng(4)
    tables = _tables(rng, n=60)
    art = _art(SAMPLE, ())
    seen_ci, seen = set(), set()
    for salt in range(6):
        monkeypatch.setattr(intervals, "seed_for", lambda a, r, s=salt: S.seed_from(f"{s}"))
        rec = _avg(tables)
        intervals.attach(art, [rec], tables)
        pv = PublishedValue("t", "D", "A", "MAP", "avg", f"{rec['value'] + 0.02:.4f}", "T")
        e = judge(rec, pv)
        seen_ci.add(tuple(rec["query_ci95"]))
        seen.add((e.outcome, e.bound, e.margin.value))
    assert len(seen_ci) > 1 and len(seen) == 1


def _covers(art, ours, within, published):
    rec = {"dataset": "D", "value": float(np.mean(ours)), "replicates": len(ours),
           "replicate_values": [float(x) for x in ours]}
    sep = noise.separation(art, rec, within, exact=False)
    lo, hi = sep.uncertainty.interval(rec["value"] - published, 0.95)
    return lo <= 0.0 <= hi


@pytest.mark.slow
@pytest.mark.parametrize("case", ["same queries", "shared sample", "own samples"])
def test_d_s_interval_covers_a_perfect_reproduction_95_percent_of_the_time(case):
    """Simulation of a perfect reproduction (our runs and the paper's from the same
    population): on the paper's queries the published value is the method's value on them
    (ours differ by seeds); on a sample with shared seeds the paper ran once, deterministic, on
    its own queries; with each replicate on its own sample the paper's one run varies as one
    of ours.  The 95 % interval of d covers 0 in 95 % ± 1.2 % of 4000 trials."""
    rng = np.random.default_rng({"same queries": 11, "shared sample": 12,
                                 "own samples": 13}[case])
    trials, r, n, seed_sd = 4000, 5, 60, 0.01
    art = {"same queries": _art(), "shared sample": _art(SAMPLE),
           "own samples": _art(SAMPLE, (SEEDS, SAMPLING))}[case]
    hits = 0
    for _ in range(trials):
        if case == "same queries":
            q = rng.beta(2, 3, n)
            ours, within, paper = q.mean() + rng.normal(0, seed_sd, r), None, q.mean()
        elif case == "shared sample":
            q, pq = rng.beta(2, 3, n), rng.beta(2, 3, n)
            ours = q.mean() + rng.normal(0, seed_sd, r)
            within = noise.Within(float(np.var(q, ddof=1)) / n, n - 1, "")
            paper = pq.mean()
        else:
            ours = rng.beta(2, 3, (r, n)).mean(axis=1) + rng.normal(0, seed_sd, r)
            within = noise.Within(0.04 / n, n - 1, "")
            paper = rng.beta(2, 3, n).mean() + rng.normal(0, seed_sd)
        hits += _covers(art, ours, within, paper)
    assert abs(hits / trials - 0.95) < 0.012, hits / trials
