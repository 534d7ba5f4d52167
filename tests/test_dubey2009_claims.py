"""dubey2009: the claims judged by paired tests on per-query tables (synthetic run outputs
whose per-query values are known), Holm's adjustment of best-of-variants claims, the tests
over folds of the sampler statistics, and Figure 3's per-cell distance to the published
value (its note, the explanation and the figure's caption)."""
import math

import numpy as np
import pytest

from repro import papers
from repro.judge import claims as engine
from repro.judge import kinds as aggregate
from repro.judge import published as pub
from repro.judge import stats as st
from repro.spec import RunSpec
from repro.papers import dubey2009 as paper
from repro.papers.dubey2009 import claims, figures, names
from repro.papers.dubey2009.claims import STATEMENTS_53 as S

ART = {a.name: a for a in paper.ARTIFACTS}
FOLDS = (1, 2, 3, 4, 5)
N_PER_FOLD = 21
CONTRACT = ("claim", "statement", "outcome", "value", "effect", "effect_ci95", "p_value",
            "p_adjusted", "family", "test", "numbers", "method", "metric", "dataset", "fold")


def judged(art, outputs) -> list[dict]:
    """The claims artifact's declared aggregations applied to run outputs, their tables keyed
    as the assembly keys them (the data set as run, the run's fold), then its claims judged as
    families (:func:`repro.judge.claims.finish`: the outcomes)."""
    tables = [{**t, "dataset": spec.dataset, "fold": str(spec.fold)}
              for spec, o in outputs for t in o.get("per_query", [])]
    recs, _ = aggregate.apply(art, [], outputs, papers.aggregation, tables)
    engine.finish(art, recs, tables)
    return recs


def _base(fold: int) -> np.ndarray:
    return np.random.default_rng(fold).uniform(0.2, 0.8, N_PER_FOLD)


def _noise(fold: int, sd: float, stream: int) -> np.ndarray:
    """Zero-mean noise (antithetic pairs, the middle query 0): its mean is exactly 0."""
    h = np.random.default_rng([fold, stream]).normal(0, sd, N_PER_FOLD // 2)
    return np.concatenate([h, [0.0], -h])


def _figure3_outputs(shift: dict, noise: dict | None = None, datasets=("OHSUMED",)):
    """Run outputs with Figure 3 per-query tables (paper's measures): every method's value of
    a query = the query's base value + ``shift[method]`` (+ zero-mean noise for ``noise``)."""
    out = []
    for ds in datasets:
        for f in FOLDS:
            qids = [1000 * f + i for i in range(N_PER_FOLD)]
            tables = []
            for s, m in enumerate(names.METHODS):
                v = _base(f) + shift.get(m, 0.0)
                if m in (noise or {}):
                    v = v + _noise(f, noise[m], s)
                for metric in names.METRICS:
                    tables.append({"method": m, "metric": metric, "part": names.FIGURE3,
                                   "convention": names.PAPER_DEF, "qids": qids,
                                   "values": v.tolist()})
            out.append((RunSpec("dubey2009", "task_fold", ds, f, 0, "{}"),
                        {"records": [], "per_query": tables}))
    return out


def _by(recs, statement, dataset="OHSUMED"):
    return {r["metric"]: r for r in recs if r.get("claim") and r["statement"] == statement
            and r["dataset"] == dataset}


@pytest.mark.slow
def test_outcomes_follow_the_per_query_tables():
    """Better on every query → replicated; equal on average (noise) → inconclusive, even where
    the means differ a little in the claimed direction; reversed → reversed.  These claims are
    stated as counts ("30 of 32"): their cells are the count's evidence, tested alone."""
    shift = {"ConvexLoss_NDCG": 0.05, "ConvexLoss_MAP": 0.002, "ExpGain_AUC": -0.05}
    recs = judged(ART["claims"], _figure3_outputs(
        shift, {"ConvexLoss_NDCG": 0.01, "ConvexLoss_MAP": 0.2, "ExpGain_AUC": 0.01}))
    expect = {"ConvexLoss_NDCG beats ExpGain_NDCG": "replicated",
              "ConvexLoss_MAP beats SVMmap": "inconclusive",
              "ExpGain_AUC beats RankSVM": "reversed"}
    for statement, outcome in expect.items():
        cells = _by(recs, statement)
        assert set(cells) == set(names.METRICS)
        for metric, r in cells.items():
            assert r["outcome"] == outcome, (statement, metric, r["p_value"])
            assert all(k in r for k in CONTRACT) and r["claim"] is True and r["fold"] is None
            assert r["value"] == r["effect"] and r["n_queries"] == N_PER_FOLD * len(FOLDS)
            assert "ttest_rel" in r["test"] and "Holm" not in r["test"]
            assert r["effect_ci95"][0] <= r["effect"] <= r["effect_ci95"][1]
            assert r["family"] == "cell" and r["p_adjusted"] == r["p_value"]
    # the means behind the not-significant cell favour the claim; the test does not
    r = _by(recs, "ConvexLoss_MAP beats SVMmap")["MAP"]
    assert r["numbers"]["ConvexLoss_MAP"] > r["numbers"]["SVMmap"]
    assert r["effect"] == pytest.approx(0.002) and r["p_value"] >= 0.05
    # the effect is the mean per-query difference, and its p-value scipy's paired t-test
    h = _by(recs, "ConvexLoss_NDCG beats ExpGain_NDCG")["NDCG@5"]
    a = np.concatenate([_base(f) + 0.05 + _noise(f, 0.01, names.METHODS.index(
        "ConvexLoss_NDCG")) for f in FOLDS])
    b = np.concatenate([_base(f) for f in FOLDS])
    from scipy import stats
    assert h["effect"] == pytest.approx(float(np.mean(a - b)))
    assert h["p_value"] == pytest.approx(float(stats.ttest_rel(a, b).pvalue))
    # the paper prints both OHSUMED NDCG@5 cells: effect ratio and ΔRI beside the test
    p_cl, p_eg = 0.608, 0.569
    want = st.reproduction_measures(h["numbers"]["ConvexLoss_NDCG"],
                                    h["numbers"]["ExpGain_NDCG"], p_cl, p_eg)
    assert h["effect_ratio"] == pytest.approx(want["effect_ratio"], abs=1e-3)  # numbers: 4 dp
    assert h["delta_ri"] == pytest.approx(want["delta_ri"], abs=1e-3)
    # the claim the paper states as a count is tested as a count: 0 of 4 cells favour it
    summ = next(r for r in recs if r["method"] == "ExpGain_AUC beats RankSVM"
                and r["dataset"] == "all")
    assert summ["counts"] == {"favour": 0, "against": 4} and summ["value"] == 0.0
    assert summ["claim"] is True and summ["count"] is True and summ["paper_count"] == "30 of 32"
    assert summ["p_value"] == pytest.approx(0.125) and summ["outcome"] == "inconclusive"
    assert summ["family"] in ("key", "secondary")
    # the same evidence gives the same intervals (seeds from the claim's identity)
    again = judged(ART["claims"], _figure3_outputs(
        shift, {"ConvexLoss_NDCG": 0.01, "ConvexLoss_MAP": 0.2, "ExpGain_AUC": 0.01}))
    assert [r.get("effect_ci95") for r in again] == [r.get("effect_ci95") for r in recs]


@pytest.mark.slow
def test_pairs_are_matched_by_query_id():
    """A table whose queries come in another order is paired by query id, not by position."""
    outs = _figure3_outputs({"ConvexLoss_NDCG": 0.05}, {"ConvexLoss_NDCG": 0.01})
    for _, o in outs:
        for t in o["per_query"]:
            if t["method"] == "ExpGain_NDCG":
                t["qids"], t["values"] = t["qids"][::-1], t["values"][::-1]
    r = _by(judged(ART["claims"], outs), "ConvexLoss_NDCG beats ExpGain_NDCG")["MAP"]
    assert r["outcome"] == "replicated" and r["effect"] == pytest.approx(0.05)
    assert r["effect_ci95"][1] - r["effect_ci95"][0] < 0.01   # by position: a spread of ~0.3


def _cmp(name, p, effect=0.01):
    return engine.Comparison(name, "MLE", st.Paired(effect, (effect, effect), p, 50, "t"))


def test_best_of_variants_is_a_union_over_variants():
    """One variant at raw p = 0.02 among three: the claim on "its best variant" has p = 0.02 ×
    3 = 0.06 (the union over variants, its own test) and is not replicated at 5 %; at
    p = 0.001 it is (0.003)."""
    j = engine.judge_variants({"A": [_cmp("A", 0.02)], "B": [_cmp("B", 0.5)],
                               "C": [_cmp("C", 0.9)]})
    assert j.p_value == pytest.approx(0.06) and j.direction == 1
    assert engine.decide({"p_adjusted": j.p_value, "p_direction": j.direction}) \
        == "inconclusive"
    j = engine.judge_variants({"A": [_cmp("A", 0.001)], "B": [_cmp("B", 0.5)],
                               "C": [_cmp("C", 0.9, effect=-0.01)]})
    assert j.binding.a == "A" and j.p_value == pytest.approx(0.003) and j.direction == 1
    # "every variant must" (the worse of two): one variant short of significance fails it
    j = engine.judge_variants({"A": [_cmp("A", 0.001)], "B": [_cmp("B", 0.3)]}, every=True)
    assert j.p_value == pytest.approx(0.3)
    # "beats every X" with some X significantly better: against the claim
    j = engine.judge_variants({"A": [_cmp("A", 0.001), _cmp("A", 0.001, effect=-0.02)]})
    assert j.direction == -1 and j.binding.res.effect < 0 and j.p_value == pytest.approx(0.002)
    assert engine.decide({"p_adjusted": j.p_value, "p_direction": j.direction}) == "reversed"


@pytest.mark.slow
def test_best_of_variants_on_tables():
    """Through the aggregation: every variant is tested, the record's p-value is the union's
    (the best variant's × the number of variants) and the test says so."""
    recs = judged(ART["claims"], _figure3_outputs(
        {"ExpGain_AUC": 0.04, "ConvexLoss_NDCG": 0.04},
        {"ExpGain_AUC": 0.01, "ConvexLoss_NDCG": 0.01}))
    r = _by(recs, "ExpGain (its best variant) beats MLE")["MAP"]
    assert r["outcome"] == "replicated" and r["compared"] == "ExpGain_AUC − MLE"
    assert len(r["comparisons"]) == 3 and "3 variant(s)" in r["test"]
    assert "the best variant's × 3" in r["test"]
    assert r["p_value"] == pytest.approx(3 * r["p_unadjusted"])
    # ConvexLoss_NDCG is better than every method but ExpGain_AUC (equal on average): the
    # "best method" claim is not established, nor reversed
    best = _by(recs, "ConvexLoss_NDCG is the best method")["MAP"]
    assert best["outcome"] == "inconclusive" and best["family"] == "key"
    assert best["compared"] == "ConvexLoss_NDCG − ExpGain_AUC"
    assert len(best["comparisons"]) == len(names.METHODS) - 1
    # the worse of ConvexLoss_MAP and ConvexLoss_NDCG: ConvexLoss_MAP is no better
    assert _by(recs, "the worse of ConvexLoss_MAP and ConvexLoss_NDCG beats the best "
                     "baseline")["MAP"]["outcome"] == "inconclusive"


def test_not_testable_without_every_fold():
    outs = [o for o in _figure3_outputs({}) if o[0].fold != 5]
    recs = judged(ART["claims"], outs)
    cl = [r for r in recs if r.get("claim")]
    assert cl and all(r["outcome"] == "not testable" and r.get("why") for r in cl)
    assert all(math.isnan(r["value"]) for r in cl)
    # the combined (microaveraged) claims need all seven LETOR 3.0 sets
    comb = [r for r in recs if r.get("claim") and r["dataset"] == "microaverage"]
    assert len(comb) == 2 * len(names.METRICS)


def _sens_outputs(rise: float, ds="MQ2008"):
    """Sec. 5.3 outputs: Figure 4–6 per-query tables (accuracy rising by ``rise``, halving
    gains with each |Ŷ| step, plus a little zero-mean noise) and sampler statistics per fold
    (Figure 7: sd from Δ = 1 smaller; Figure 8: median |wᵀδφ| about 10)."""
    p = ART["claims"].layout.params["sensitivity"]
    out = []
    for f in FOLDS:
        qids = list(range(N_PER_FOLD))
        base = _base(f)
        tables = []

        def add(part, method, v):
            v = v + _noise(f, 0.002, len(tables))
            for metric in names.SENS_METRICS:
                tables.append({"method": method, "metric": metric, "part": part,
                               "dataset": ds, "qids": qids, "values": list(v)})
        for i, s in enumerate(p["sizes"]):
            add(names.FIGURE4, names.sample_size_label(s), base + rise * (1 - 0.5 ** i))
        for s in p["skews"]:
            add(names.FIGURE5, names.skew_label(float(s)), base + rise * float(s))
        for k in p["ks"]:
            add(names.FIGURE6, names.k_label(k), base - rise * float(k) / 5)
        rng = np.random.default_rng(f)
        stats_ = {seed: {kind: {"sd": sd + 0.001 * rng.random(), "mean": 0.5}
                         for kind in ("AUC", "MAP", "NDCG")}
                  for seed, sd in (("Δ = 0", 0.05), ("Δ ≈ 0.5", 0.03), ("Δ = 1", 0.01))}
        points = [{"query": q, "delta": d, "wphi": 0.0,
                   "wdphi": 10.0 * (1 + 0.1 * rng.random())}
                  for q in range(3) for d in (0.0, 0.5, 1.0)]
        out.append((RunSpec("dubey2009", "task_fold", ds, f, 0, "{}"),
                    {"records": [], "per_query": tables,
                     "sensitivity": {"figure7": {"stats": stats_}, "figure8": {"points": points}}}))
    return out


@pytest.mark.slow
def test_sampler_claims():
    recs = judged(ART["claims"], _sens_outputs(0.01))
    rise = _by(recs, S["rise"], "MQ2008")
    assert {m: r["outcome"] for m, r in rise.items()} == {"MAP": "replicated",
                                                           "NDCG@10": "replicated"}
    assert rise["MAP"]["trend"]["rho"] > 0 and "Spearman" in rise["MAP"]["test"]
    n = len(ART["claims"].layout.params["sensitivity"]["sizes"])
    assert rise["MAP"]["effect"] == pytest.approx(0.01 * (1 - 0.5 ** (n - 1)))
    # halving gains: the last step gains less than the first
    assert _by(recs, S["saturation"], "MQ2008")["MAP"]["outcome"] == "replicated"
    skew = _by(recs, S["skew"], "MQ2008")["MAP"]
    assert skew["outcome"] == "replicated" and len(skew["comparisons"]) == 2
    assert "1 variant(s) × 2 opponent(s)" in skew["test"]       # intersection–union over 2
    assert skew["p_value"] == pytest.approx(max(c["p_value"] for c in skew["comparisons"]))
    assert _by(recs, S["k"], "MQ2008")["MAP"]["outcome"] == "replicated"
    # Figures 7-8: over the five folds, decided by the exact sign-flip test, which five folds
    # cannot bring below 0.0625: never replicated, and the test says so
    smear = _by(recs, S["smear"], "MQ2008")
    assert set(smear) == {"sd of Δ_AUC", "sd of Δ_MAP", "sd of Δ_NDCG"}
    for r in smear.values():
        assert r["outcome"] == "inconclusive" and r["n_folds"] == 5 and "n_queries" not in r
        assert r["decided_by"] == "exact sign-flip test"
        assert r["p_value"] == pytest.approx(0.0625) and "5 folds cannot decide" in r["test"]
        assert r["effect"] == pytest.approx(0.04, abs=0.002)
    dom = _by(recs, S["dominance"], "MQ2008")
    assert [(r["outcome"], r["decided_by"]) for r in dom.values()] == [
        ("inconclusive", "exact sign-flip test")]
    # reversed accuracy: the rise is reversed
    down = _by(judged(ART["claims"], _sens_outputs(-0.01)), S["rise"], "MQ2008")
    assert down["MAP"]["outcome"] == "reversed"
    # no per-query change at all: inconclusive
    flat = _by(judged(ART["claims"], _sens_outputs(0.0)), S["rise"], "MQ2008")
    assert flat["MAP"]["outcome"] == "inconclusive"


@pytest.mark.slow
def test_key_claims():
    recs = judged(ART["claims"], _figure3_outputs({}) + _sens_outputs(0.01, "OHSUMED"))
    key = [r for r in recs if r.get("key")]
    # the key family: only the key claims, each a MAP cell or a count over its cells
    assert 1 <= len(key) <= 5 and all(r.get("claim") and r["family"] == "key" and (
        r["metric"] == "MAP" or r.get("count")) for r in key)
    assert {r["statement"] for r in key} <= set(claims.KEY_CLAIMS)
    assert all(r["family"] != "key" for r in recs if r.get("claim") and not r.get("key"))
    assert len({r["statement"] for r in key}) == len(key)        # each key claim once


# --- Figure 3: the distance to the published cell ----------------------------------------------

def _cell_records(values: dict):
    recs = []
    for f in FOLDS:
        for m in names.METHODS + (names.FLOOR,):
            for conv in names.CONVENTIONS:
                for metric in names.METRICS:
                    recs.append({"method": m, "metric": metric,
                                 "value": values.get((m, metric), 0.5), "fold": str(f),
                                 "part": names.FIGURE3, "convention": conv,
                                 names.PER_FOLD: True, "dataset": "OHSUMED"})
    return recs


def test_gap_note_only_where_the_published_value_is_above():
    published = {(v.method, v.metric): v for v in pub.load("dubey2009").values
                 if v.artifact == "figure3" and v.dataset == "OHSUMED" and v.fold == "avg"}
    above, below = ("MLE", "MAP"), ("RankSVM", "NDCG@1")      # printed 0.543 and 0.667
    values = {above: published[above].value - 0.1, below: published[below].value + 0.03}
    (decl,) = [d for d in ART["figure3"].judging.aggregate if isinstance(d, aggregate.CellsWithGap)]
    assert decl.cells == paper.CELLS
    got, _ = aggregate.cells_with_gap(ART["figure3"], _cell_records(values), decl)
    cell = {(r["method"], r["metric"]): r for r in got}
    assert ("the published value 0.543 sits 0.100 MAP above ours (see 'claims', rows "
            "'context')") in cell[above]["note"]
    assert "sits" not in cell[below]["note"]
    assert "ours is 0.030 NDCG@1 above the published value 0.667" in cell[below]["note"]
    # no readable published value (MLE NDCG@1 is '?'), a quoted baseline, the floor: no text
    assert published[("MLE", "NDCG@1")].value is None
    for k in (("MLE", "NDCG@1"), (names.FLOOR, "MAP")):
        assert "published value" not in cell[k]["note"]
    # each cell its own number: the MAP gaps follow the cells' values
    gaps = {m: r["note"] for (m, metric), r in cell.items() if metric == "MAP"
            and "sits" in r["note"]}
    assert len(set(gaps.values())) == len(gaps) > 3
    # equal at the published rounding
    assert aggregate.gap_text(0.5432, 0.543, 3, "MAP").startswith("equal to the published value")
    # the TOML's explanation states no single gap for the whole column
    why = pub.load("dubey2009").explanations[0]["why"]
    assert "0.09" not in why and "not in all" in why


def test_figure3_plot_marks_the_published_values():
    """The plot draws the published values with gid "published": the page's caption then
    says they are overlaid (repro.report.build.shows_published)."""
    from repro.report.build import shows_published
    flat = [{"dataset": "OHSUMED", "fold": "avg", "method": m, "metric": metric,
             "value": 0.5, "published": "0.543"} for m in names.METHODS
            for metric in names.METRICS]
    figs = figures.figure_figure3(ART["figure3"], {}, flat, pub.load("dubey2009"))
    assert set(figs) == {"OHSUMED"} and shows_published(figs["OHSUMED"])
    flat = [dict(r, published=None) for r in flat]
    figs = figures.figure_figure3(ART["figure3"], {}, flat, pub.load("dubey2009"))
    assert not shows_published(figs["OHSUMED"])
    import matplotlib.pyplot as plt
    plt.close("all")


def test_aggregation_kind_is_registered():
    assert aggregate.KINDS[aggregate.CellsWithGap] is aggregate.cells_with_gap
