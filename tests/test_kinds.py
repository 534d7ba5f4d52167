"""Every aggregation kind on hand-made records, its values worked out by hand or by the library
the kind names (numpy, scipy.stats) — one test per kind, and a check that no registered kind
goes without one."""
import math

import numpy as np
import pytest
from scipy import stats

from repro.judge import kinds
from repro.judge.claims import finish
from repro.judge.kinds import (FIRST, LAST, Best, CellClaim, Cells, CellsWithGap, Claim,
                               Difference, FoldClaim, FoldMean, FoldSpread, Grid, MicroAverage,
                               NotCheckable, PairedTest, Ranks, RanksWithPublished,
                               SettingMeans, Spread)
from repro.spec import Artifact, RunSpec


def art(**kw):
    kw.setdefault("datasets", ("A",))
    kw.setdefault("folds", (1, 2, 3))
    return Artifact(
        "nopaper", "t1", "t").replace(**kw)


def rec(fold, value, method="m", metric="MAP", dataset="A", **extra):
    return {"dataset": dataset, "method": method, "metric": metric,
            "fold": None if fold is None else str(fold), "value": value, **extra}


def run(decl, records, a=None, **inputs):
    out, why = kinds.KINDS[type(decl)](a or art(), records, decl, **inputs)
    return out, why


def test_fold_mean():
    out, _ = run(FoldMean(), [rec(f, v, note="same") for f, v in ((2, 0.2), (1, 0.1), (3, 0.6))])
    (r,) = out
    assert r["fold"] == "avg" and r["value"] == pytest.approx(0.3) and r["note"] == "same"
    out, _ = run(FoldMean(), [rec(1, 0.1), rec(2, 0.2)])                 # fold 3 missing
    assert out == []


def test_fold_spread_is_the_sample_standard_deviation():
    out, _ = run(FoldSpread(), [rec(f, v) for f, v in ((1, 1.0), (2, 2.0), (3, 4.0))])
    (r,) = out
    assert r["metric"] == "MAP ±" and r["fold"] == "avg"
    assert r["value"] == pytest.approx(math.sqrt(((1 - 7 / 3) ** 2 + (2 - 7 / 3) ** 2
                                                  + (4 - 7 / 3) ** 2) / 2))
    out, _ = run(FoldSpread(ddof=0, suffix=" sd"), [rec(f, v) for f, v in
                                                     ((1, 1.0), (2, 2.0), (3, 4.0))])
    assert out[0]["metric"] == "MAP sd" and out[0]["value"] == pytest.approx(np.std([1, 2, 4]))
    out, _ = run(FoldSpread(), [rec(1, 1.0), rec(2, None), rec(3, 4.0)])
    assert math.isnan(out[0]["value"]) and out[0]["why"] == "a fold's value is undefined"


def test_setting_means_emit_one_curve_point_per_setting():
    recs = [rec(f, v + c, C=c) for c in (0.1, 1.0) for f, v in ((1, 0.1), (2, 0.2), (3, 0.3))]
    out, _ = run(SettingMeans("C", select={"metric": "MAP"}, label="avg at C={C:g}",
                              series="MAP by C"), recs)
    got = {r["fold"]: r for r in out}
    assert set(got) == {"avg at C=0.1", "avg at C=1"}
    assert got["avg at C=1"]["value"] == pytest.approx(1.2)
    assert all("C" not in r and r["series"] == "MAP by C" for r in out)


def test_paired_test_over_folds_is_scipy_s():
    a, b = [0.5, 0.6, 0.55], [0.4, 0.45, 0.5]
    recs = [rec(f, v, method="X") for f, v in zip((1, 2, 3), a)]
    recs += [rec(f, v, method="Y") for f, v in zip((1, 2, 3), b)]
    out, _ = run(PairedTest("X"), recs)
    (r,) = out
    assert r["method"] == "X vs Y" and r["metric"] == "paired t-test p-value"
    assert r["value"] == pytest.approx(stats.ttest_rel(a, b).pvalue)
    # beside it the exact sign-flip test over the same folds (every sign pattern)
    d = np.asarray(a) - np.asarray(b)
    pats = np.array(np.meshgrid(*[[1, -1]] * d.size)).reshape(d.size, -1).T
    ref = np.mean(np.abs((pats * d).mean(axis=1)) >= abs(d.mean()) - 1e-12)
    assert r["p_permutation"] == pytest.approx(ref)
    assert r["mean_difference"] == pytest.approx(np.mean(a) - np.mean(b))
    out, _ = run(PairedTest("X", test="wilcoxon", others=("Z",)), recs)
    assert out == []                                           # no Z


def test_cells_take_the_main_variant_and_the_others_as_fields():
    recs = [rec(f, v + (0.1 if conv == "other" else 0.0), convention=conv, per_fold=True)
            for conv in ("main", "other") for f, v in ((1, 0.2), (2, 0.4), (3, 0.6))]
    decl = Cells(select={"per_fold": True}, variant="convention", main="main",
                 drop=("per_fold",), weights={"A": 50}, notes=(("other {:.2f}", ("other",)),))
    (r,) = run(decl, recs)[0]
    assert r["value"] == pytest.approx(0.4) and r["other"] == pytest.approx(0.5)
    assert r["convention"] == "main" and "per_fold" not in r and r["queries"] == 50
    assert r["note"] == "other 0.50" and r["fold"] == "avg"


def test_cells_with_gap_without_published_values_are_the_cells():
    recs = [rec(f, 0.5, convention="main") for f in (1, 2, 3)]
    cells = Cells(select={}, variant="convention", main="main")
    assert run(CellsWithGap(cells, context="see x"), recs)[0] == run(cells, recs)[0]
    assert kinds.gap_text(0.5, 0.6, 2, "MAP", "see x") == \
        "the published value 0.60 sits 0.100 MAP above ours (see x)"
    assert kinds.gap_text(0.6, 0.5, 1, "MAP") == "ours is 0.100 MAP above the published value 0.5"


def test_not_checkable_is_said_once_the_artifact_has_values():
    decl = NotCheckable({"method": "m", "metric": "x", "dataset": None}, why="no data")
    assert run(decl, [])[0] == []
    (r,) = run(decl, [rec(1, 0.5)])[0]
    assert r == {"fold": None, "method": "m", "metric": "x", "dataset": None, "value": None,
                 "why": "no data"}


def test_best_chooses_by_the_criterion_and_ties_by_the_smaller_setting():
    recs = [rec("avg", v, C=c) for c, v in ((0.1, 0.5), (1.0, 0.7), (10.0, 0.7))]
    recs += [rec(f, 0.6 + 0.01 * f, C=c) for c in (0.1, 1.0, 10.0) for f in (1, 2)]
    out, _ = run(Best(over="C", chosen_metric="chosen C"), recs)
    chosen = [r for r in out if r["metric"] == "chosen C"]
    assert len(chosen) == 1 and chosen[0]["value"] == 1.0 and chosen[0]["fold"] == "avg"
    shown = [r for r in out if r["metric"] == "MAP"]
    assert sorted(r["fold"] for r in shown) == ["1", "2", "avg"]
    assert all("C" not in r for r in out)
    out, _ = run(Best(over="C", prefer="larger", emit="criterion",
                      metric_format="max {metric}"), recs)
    assert [(r["metric"], r["value"]) for r in out] == [("max MAP", 0.7)]


def test_ranks_are_competition_ranks_averaged_over_datasets():
    recs = [rec("avg", v, method=m, dataset=d) for d, vals in
            (("A", {"x": 0.9, "y": 0.9, "z": 0.1}), ("B", {"x": 0.2, "y": 0.5, "z": 0.3}))
            for m, v in vals.items()]
    out, _ = run(Ranks(), recs)
    got = {r["method"]: r["value"] for r in out}
    assert got == {"x": pytest.approx((1 + 3) / 2), "y": pytest.approx((1 + 1) / 2),
                   "z": pytest.approx((3 + 2) / 2)}
    assert all(r["dataset"] == "average" and r["metric"] == "average rank (MAP)" for r in out)
    per, _ = run(Ranks(average_over=None, descending=False), recs)
    assert {(r["dataset"], r["method"]): r["value"] for r in per}[("A", "z")] == 1.0


def test_ranks_with_published_without_published_values_are_the_ranks():
    recs = [rec("avg", v, method=m, dataset=d) for d, vals in
            (("A", {"x": 0.9, "y": 0.5}), ("B", {"x": 0.2, "y": 0.5})) for m, v in vals.items()]
    out, _ = run(RanksWithPublished(Ranks(), artifact="t1", fold="avg"), recs)
    got = {r["method"]: r for r in out}
    assert got["x"]["value"] == 1.5 and got["y"]["value"] == 1.5
    assert got["x"]["ours_on"] == "A, B" and got["x"]["published_on"] == ""
    assert "note" not in got["x"]


def test_micro_average_weighs_by_queries_and_needs_every_dataset():
    a = art(datasets=("A", "B"))
    out, why = run(MicroAverage(), [rec("1", 0.2, queries=10), rec("1", 0.5, dataset="B",
                                                                     queries=30)], a)
    assert out[0]["value"] == pytest.approx((0.2 * 10 + 0.5 * 30) / 40)
    assert out[0]["queries"] == 40.0 and out[0]["dataset"] == "microaverage" and why == {}
    out, why = run(MicroAverage(), [rec("1", 0.2, queries=10)], a)
    assert out == [] and "missing: B" in why["microaverage"]


def test_spread_is_the_range_over_entities():
    recs = [rec("avg", v, method=m, m=20) for m, v in (("a", 0.3), ("b", 0.5), ("c", 0.4))]
    recs += [rec(1, 0.0, method="a", m=10), rec(2, 0.0, method="a", m=30)]
    decl = Spread("all", select={"fold": "avg"}, entities=("a", "b", "c"), keep=("m",),
                  values_field="per")
    (r,) = run(decl, recs)[0]
    assert r["value"] == pytest.approx(0.2) and r["method"] == "all" and r["m"] == 20
    assert r["metric"] == "max difference in MAP" and r["per"] == {"a": 0.3, "b": 0.5, "c": 0.4}
    (r,) = run(Spread("all", select={"fold": "avg"}, entities=("a", "b"),
                      fold_fields=("m",)), [dict(x, m=None) if x["fold"] == "avg" else x
                                             for x in recs][:2] + recs[3:])[0]
    assert r["value"] == pytest.approx(0.2)
    assert run(Spread("all", select={"fold": "avg"}, entities=("a", "d")), recs)[0] == []


def test_difference_of_two_records_without_tables_has_no_interval():
    recs = [rec(None, 0.7, method="lit"), rec(None, 0.5, method="nes")]
    decl = Difference("optimism", "lit − nes", minuend={"method": "lit"},
                      subtrahend={"method": "nes"})
    (r,) = run(decl, recs, tables=[])[0]
    assert r["value"] == pytest.approx(0.2) and r["method"] == "lit − nes"
    assert r["minuend_value"] == 0.7 and "ci95" not in r
    (r,) = run(decl, [recs[0], rec(None, None, method="nes")], tables=[])[0]
    assert math.isnan(r["value"]) and r["why"]


def _decided(recs, a):
    """The outcomes once the artifact's claims are judged as families (claims.finish)."""
    finish(a, recs, [])
    return [r["outcome"] for r in recs]


def test_claim_over_fold_values():
    """Without per-query tables a claim pairs the records' fold values, decided by the exact
    sign-flip test: five folds all favouring the claim give p = 2/2⁵ = 0.0625 — five folds
    cannot decide it (a t-test over them would say p < 1e-4)."""
    a = art(folds=(1, 2, 3, 4, 5))
    recs = []
    noise = (0.003, -0.002, 0.001, -0.004, 0.002)             # mean 0
    for m, shift in (("S", 0.2), ("X", 0.0), ("Y", 0.05)):
        vals = [0.3 + shift + 0.01 * f + (e if m == "S" else 0.0)
                for f, e in zip(range(1, 6), noise)]
        recs += [rec(f, v, method=m) for f, v in zip(range(1, 6), vals)]
        recs.append(rec(None, float(np.mean(vals)), method=m))
    decl = Claim("C1", "S beats every other", subject={"method": "S", "fold": None},
                 others={"method": ["X", "Y"], "fold": None})
    (r,) = run(decl, recs, a, tables=[])[0]
    assert r["claim"] is True and r["compared"] == "S − Y"
    assert r["n_folds"] == 5 and "fold values" in r["test"]
    assert "5 folds cannot decide" in r["test"]
    assert r["decided_by"] == "exact sign-flip test"
    assert r["p_value"] == pytest.approx(0.0625)
    assert r["effect"] == pytest.approx(0.15)
    s_, y = [np.array([x["value"] for x in recs if x["method"] == m and x["fold"] is not None])
             for m in ("S", "Y")]
    assert stats.ttest_rel(s_, y).pvalue < 1e-4
    assert _decided([r], a) == ["inconclusive"]


def _tables(datasets, methods: dict, folds=("1", "2"), n=15, part="p"):
    """Per-query tables: each method's value of a query = the query's base + the method's
    shift + small zero-mean noise."""
    out = []
    for ds in datasets:
        for f in folds:
            rng = np.random.default_rng([len(ds), int(f)])
            base = rng.uniform(0.2, 0.8, n)
            for k, (m, shift) in enumerate(methods.items()):
                noise = np.random.default_rng([len(ds), int(f), k]).normal(0, 0.005, n)
                out.append({"dataset": ds, "fold": f, "method": m, "metric": "MAP",
                            "part": part, "qids": [f"{ds}{f}-{i}" for i in range(n)],
                            "values": (base + shift + noise).tolist()})
    return out


def test_cell_claim_variants_with_holm_pooled_cells_and_a_summary_row():
    a = art(datasets=("A", "B", "C"), folds=(1, 2))
    tables = _tables(("A", "B"), {"v1": 0.05, "v2": 0.0, "o": 0.0})
    decl = CellClaim("v beats o", "1", "2 of 3", {"part": "p"}, ("MAP",), variants=("v1", "v2"),
                     opponents=("o",), fields={"part": "claims"}, key="MAP")
    *cells, summary = run(decl, [], a, tables=tables)[0]
    # a claim the paper states as a count ("2 of 3"): the count is the (key) claim, its
    # cells its evidence (family "cell", unadjusted)
    assert _decided(cells + [summary], a) == ["replicated", "replicated", "inconclusive"]
    assert [r["family"] for r in cells] == ["cell", "cell"] and summary["family"] == "key"
    assert all(r["p_adjusted"] == r["p_value"] for r in cells)
    r = cells[0]
    assert r["method"] == "v beats o" and r["compared"] == "v1 − o" and summary["key"] is True
    assert not r.get("key") and r["part"] == "claims" and r["n_queries"] == 30
    # some variant beats the opponent: the best variant's p × 2 variants, said in the test
    assert len(r["comparisons"]) == 2 and "2 variant(s)" in r["test"]
    assert "the best variant's × 2" in r["test"] and r["note"].startswith("§1; paper: 2 of 3")
    assert r["numbers"] == {m: pytest.approx(np.mean([
        np.mean(t["values"]) for t in tables if t["dataset"] == "A" and t["method"] == m]),
        abs=1e-4) for m in ("v1", "v2", "o")}
    assert summary["counts"] == {"favour": 2, "against": 0} and summary["dataset"] == "all"
    assert summary["p_value"] == pytest.approx(0.5) and "2 cells cannot decide" in summary["test"]
    # the sets pooled into one cell; a set missing: not testable, said once per metric
    (pooled,) = run(CellClaim("v beats o", "1", "n", {"part": "p"}, ("MAP",), ("v1",), ("o",),
                              pooled=("A", "B"), label="both", summary=False), [], a,
                    tables=tables)[0]
    assert pooled["dataset"] == "both" and pooled["n_queries"] == 60 and pooled["numbers"] == {}
    assert "the queries of the 2 sets pooled" in pooled["test"]
    (missing,) = run(CellClaim("v beats o", "1", "n", {"part": "p"}, ("MAP",), ("v1",), ("o",),
                               pooled=("A", "C"), label="both", summary=False, why="needs C"),
                     [], a, tables=tables)[0]
    assert missing["outcome"] == "not testable" and missing["why"].endswith("needs C")
    # no cell at all: the fallback says why
    (none,) = run(CellClaim("v beats o", "1", "n", {"part": "q"}, ("MAP",), ("v1",), ("o",),
                            fallback="all", why="no part q"), [], a, tables=tables)[0]
    assert none["dataset"] == "all" and none["outcome"] == "not testable"
    assert none["why"] == "not testable: no part q" and none["metric"] is None
    # a count with no testable cell: its record says so
    none = run(CellClaim("v beats o", "1", "3 of 4", {"part": "q"}, ("MAP",), ("v1",), ("o",),
                         fallback="all", why="no part q"), [], a, tables=tables)[0]
    assert none[-1]["count"] is True and none[-1]["testable_cells"] == 0
    assert math.isnan(none[-1]["value"]) and none[-1]["outcome"] == "not testable"


def test_cell_claim_on_a_grid_with_a_trend_and_steps():
    a = art(folds=(1, 2), params={"g": [1, 2, 4]})
    grid = Grid(("g",), "s={}".format, name="size {}".format)
    tables = _tables(("A",), {"s=1": 0.0, "s=2": 0.04, "s=4": 0.05})
    rise = CellClaim("rises", "1", "Fig. 1", {"part": "p"}, ("MAP",), grid=grid, variants=LAST,
                     opponents=FIRST, trend="the sizes", what="t of {last} against {first}",
                     note="difference", summary=False)
    (r,) = run(rise, [], a, tables=tables)[0]
    assert _decided([r], a) == ["replicated"] and r["compared"] == "s=4 − s=1"
    assert r["test"].startswith("t of 4 against 1, over 30 test queries")
    assert "Spearman" in r["test"] and r["trend"]["rho"] > 0 and r["trend"]["n"] == 90
    assert set(r["numbers"]) == {"size 1", "size 2", "size 4"}
    assert r["note"].startswith("§1; paper: Fig. 1. s=4 − s=1: advantage +0.0")
    steps = CellClaim("saturates", "1", "Fig. 1", {"part": "p"}, ("MAP",), grid=grid, steps=True,
                      note="difference", summary=False)
    (r,) = run(steps, [], a, tables=tables)[0]
    assert _decided([r], a) == ["replicated"] and r["compared"] == "gain 1 → 2 − gain 2 → 4"
    assert r["effect"] == pytest.approx(0.03, abs=0.005)
    a2 = art(folds=(1, 2), params={"g": [1, 4]})
    (r,) = run(steps, [], a2, tables=tables)[0]
    assert r["outcome"] == "not testable" and "three values" in r["why"]


def test_fold_claim_is_a_test_over_folds_one_sample_against_a_constant():
    a = art(folds=(1, 2, 3, 4))
    xs = {1: 1.2, 2: 0.9, 3: 1.4, 4: 1.1}
    outputs = [(RunSpec("nopaper", "t", "A", f, 0, "{}"), {"stat": x}) for f, x in xs.items()]
    decl = FoldClaim("x above 0", "2", "Fig. 2", ("x", "zero"), lambda o: {
        "m": {"a": o["stat"], "b": 0.0, "what": "x against 0", "shown": {"mean x": o["stat"]}}},
        caveat="Folds overlap", fallback="A")
    (r,) = run(decl, [], a, outputs=outputs)[0]
    assert r["n_folds"] == 4 and "n_queries" not in r
    # the exact sign-flip test decides: 4 positive differences, the most extreme of 16
    # patterns (p = 2/16), where the t-test would say p ≈ 0.002
    assert r["decided_by"] == "exact sign-flip test"
    assert r["p_value"] == r["p_permutation"] == pytest.approx(2 / 16)
    assert stats.ttest_1samp(list(xs.values()), 0.0).pvalue < 0.01
    ci = stats.ttest_1samp(list(xs.values()), 0.0).confidence_interval(0.95)
    assert r["effect_ci95"] == pytest.approx([ci.low, ci.high])
    assert r["test"] == ("exact sign-flip permutation test over 4 folds of x against 0 "
                         "(scipy.stats.permutation_test; its smallest two-sided p is 0.12: 4 "
                         "folds cannot decide at 5 %); 95% t-interval of the mean difference. "
                         "Folds overlap")
    assert r["numbers"] == {"mean x": pytest.approx(1.15)}
    assert _decided([r], a) == ["inconclusive"]
    (r,) = run(decl, [], a, outputs=outputs[:3])[0]                    # a fold missing
    assert r["outcome"] == "not testable" and r["dataset"] == "A" and r["metric"] is None


TESTED = {CellClaim, FoldClaim, FoldMean, FoldSpread, SettingMeans, PairedTest, Cells, CellsWithGap, NotCheckable,
          Best, Ranks, RanksWithPublished, MicroAverage, Spread, Difference, Claim}


def test_every_registered_kind_has_a_test_here():
    assert set(kinds.KINDS) == TESTED
