"""Declared aggregations: fold means only over complete folds, query-weighted microaverages
only over every dataset, custom functions of the paper."""
import math

import numpy as np
import pytest

from repro.judge.kinds import apply
from repro.spec import Artifact, Reference
from repro.judge.kinds import Custom, FoldMean, MicroAverage


def rec(ds, fold, value, method="m", metric="MAP", **extra):
    return {"dataset": ds, "fold": None if fold is None else str(fold), "method": method,
            "metric": metric, "value": value, **extra}


def art(**kw):
    return Artifact(
        "p", "t1", "t").replace(**kw)


def no_custom(paper, name):
    raise AssertionError("no custom aggregation expected")


def test_fold_mean_is_the_numpy_mean_in_fold_order():
    a = art(datasets=("A",), folds=(1, 2, 3), aggregate=(FoldMean(select={"metric": "MAP"}),))
    recs = [rec("A", f, v) for f, v in zip((3, 1, 2), (0.3, 0.1, 0.25))]
    recs.append(rec("A", 1, 5.0, metric="k"))
    out, why = apply(a, recs, [], no_custom)
    avg = [r for r in out if r["fold"] == "avg"]
    assert len(avg) == 1 and avg[0]["value"] == float(np.mean([0.1, 0.25, 0.3]))
    assert why == {}


def test_no_fold_mean_for_incomplete_folds_and_nan_propagates():
    a = art(datasets=("A",), folds=(1, 2, 3), aggregate=(FoldMean(),))
    out, _ = apply(a, [rec("A", 1, 0.1), rec("A", 2, 0.2)], [], no_custom)
    assert not [r for r in out if r["fold"] == "avg"]
    out, _ = apply(a, [rec("A", 1, 0.1), rec("A", 2, None), rec("A", 3, 0.3)], [], no_custom)
    avg = [r for r in out if r["fold"] == "avg"][0]
    assert math.isnan(avg["value"]) and "undefined" in avg["why"]


def test_fold_mean_uses_the_folds_declared_for_the_dataset():
    a = art(datasets=("A", "B"), folds={"*": (1, 2), "B": (None,)}, aggregate=(FoldMean(),))
    out, _ = apply(a, [rec("A", 1, 1.0), rec("A", 2, 2.0), rec("B", None, 9.0)], [], no_custom)
    assert [(r["dataset"], r["value"]) for r in out if r["fold"] == "avg"] == [("A", 1.5)]


def test_microaverage_is_query_weighted_and_needs_every_dataset():
    a = art(datasets=("A", "B", "C"), aggregate=(MicroAverage(),))
    recs = [rec("A", "avg", 0.5, queries=10), rec("B", "avg", 0.2, queries=30),
            rec("C", "avg", 0.8, queries=60)]
    out, why = apply(a, recs, [], no_custom)
    micro = [r for r in out if r["dataset"] == "microaverage"]
    assert len(micro) == 1 and micro[0]["fold"] == "avg"
    assert micro[0]["value"] == pytest.approx((0.5 * 10 + 0.2 * 30 + 0.8 * 60) / 100)
    assert micro[0]["queries"] == 100 and why == {}
    out, why = apply(a, recs[:2], [], no_custom)
    assert not [r for r in out if r["dataset"] == "microaverage"]
    assert why == {"microaverage": "the microaverage needs every dataset of the table; "
                                   "missing: C"}


def test_stand_in_labels_and_custom_functions():
    a = art(datasets=("A", "corel5k"), stand_ins={"corel5k": "google"},
            aggregate=(MicroAverage(select={"method": "m"}), Custom("extra")))
    recs = [rec("A", None, 1.0, queries=1), rec("google", None, 0.0, queries=3,
                                                   data_used="corel5k", stand_in=True)]
    seen = []

    def custom(paper, name):
        assert (paper, name) == ("p", "extra")
        return lambda art_, outputs: seen.append(outputs) or [rec("A", "avg", 7.0, method="x")]
    out, _ = apply(a, recs, [("spec", {"o": 1})], custom)
    micro = [r for r in out if r["dataset"] == "microaverage"][0]
    assert micro["value"] == 0.25 and seen == [[("spec", {"o": 1})]]
    assert [r["value"] for r in out if r["method"] == "x"] == [7.0]


def test_a_fold_mean_is_made_once_when_two_aggregations_match():
    """The modern reference's hidden fold mean and a declared FoldMean that also matches its
    records (stevens2010 figure4 selects by metric) give one "avg" record, not two."""
    a = art(datasets=("A",), folds=(1, 2), aggregate=(FoldMean(select={"metric": "MAP"}),),
            reference=Reference({}, "MAP", ("MAP",)))
    recs = [rec("A", f, v, method="LambdaMART", modern=True) for f, v in ((1, 0.2), (2, 0.4))]
    recs += [rec("A", f, v) for f, v in ((1, 0.1), (2, 0.3))]
    out, _ = apply(a, recs, [], no_custom)
    avg = sorted((r["method"], r["value"]) for r in out if r["fold"] == "avg")
    assert avg == [("LambdaMART", pytest.approx(0.3)), ("m", pytest.approx(0.2))]
