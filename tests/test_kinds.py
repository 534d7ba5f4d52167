"""Every aggregation kind on hand-made records, its values worked out by hand or by the library
the kind names (numpy, scipy.stats) — one test per kind, and a check that no registered kind
goes without one."""
import math

import numpy as np
import pytest
from scipy import stats

from repro.judge import kinds
from repro.judge.kinds import (Best, Cells, CellsWithGap, Claim, Difference, FoldMean,
                               FoldSpread, MicroAverage, NotCheckable, PairedTest, Ranks,
                               RanksWithPublished, SettingMeans, Spread)
from repro.spec import Artifact


def art(**kw):
    kw.setdefault("datasets", ("A",))
    kw.setdefault("folds", (1, 2, 3))
    return Artifact("nopaper", "t1", "t", **kw)


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


def test_claim_over_fold_values():
    """Without per-query tables a claim pairs the records' fold values (a paired t-test over
    folds): every comparison significant with the claimed sign → holds."""
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
    assert r["outcome"] == "holds" and r["claim"] is True and r["versus"] == "Y"
    assert r["n_folds"] == 5 and "fold values" in r["test"]
    assert r["effect"] == pytest.approx(0.15)


TESTED = {FoldMean, FoldSpread, SettingMeans, PairedTest, Cells, CellsWithGap, NotCheckable,
          Best, Ranks, RanksWithPublished, MicroAverage, Spread, Difference, Claim}


def test_every_registered_kind_has_a_test_here():
    assert set(kinds.KINDS) == TESTED
