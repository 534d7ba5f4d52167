"""Replicates in assembly (repro.judge.replicates, repro.judge.assemble): records and tables of
replicated runs carry ``repeat``; the value shown is the replicate mean with its spread; a
method only replicate 0 has is deterministic; per-query means beside every replicate's table;
declared aggregations on the means, each aggregated value with its replicates' values."""
import numpy as np
import pytest

from repro.evidence import TableIndex, table_mean
from repro.judge import assemble, replicates as R
from repro.judge.kinds import Best, Custom, FoldMean
from repro.run.result import RunResult
from repro.spec import Artifact, Judging, RunLayout, RunSpec


def test_a_group_is_the_key_without_repeat_and_without_floats_it_does_not_need():
    recs = [{"method": "m", "metric": "MAP", "fold": "1", "C": c, "fitted_C": c,
             "other_convention": 0.5 + rep / 10, "value": 0.1 * rep + c, "repeat": rep}
            for rep in range(3) for c in (0.1, 1.0)]
    groups = R.group(recs)
    # the grid value C tells records of one replicate apart: it is part of the identity; the
    # other convention's value differs by replicate but is not needed: it is not
    assert len(groups) == 2 and all(sorted(g) == [0, 1, 2] for g in groups.values())
    assert {dict(k)["C"] for k in groups} == {"0.1", "1.0"}
    assert all("other_convention" not in dict(k) for k in groups)
    with pytest.raises(ValueError, match="replicate 0 has two values"):
        R.group(recs + [dict(recs[0])])
    assert len(R.group(recs + [dict(recs[0])], strict=False)) == 1    # the ambiguous one out


def test_the_mean_of_replicates_carries_its_spread_and_a_method_run_once_is_deterministic():
    recs = [{"method": "sgd", "metric": "MAP", "fold": "1", "value": v, "repeat": rep,
             "seconds": 1.0 + rep} for rep, v in enumerate((0.50, 0.52, 0.57))]
    recs += [{"method": "closed form", "metric": "MAP", "fold": "1", "value": 0.40,
              "repeat": 0}]
    recs += [{"method": "tied", "metric": "MAP", "fold": "1", "value": 0.3, "repeat": rep}
             for rep in range(3)]
    recs += [{"method": "nan", "metric": "MAP", "fold": "1", "value": v, "repeat": rep}
             for rep, v in enumerate((0.3, float("nan"), 0.4))]
    got = {r["method"]: r for r in R.mean_records(recs, 3)}
    sgd = got["sgd"]
    assert "repeat" not in sgd and sgd["value"] == pytest.approx(np.mean([0.50, 0.52, 0.57]))
    assert sgd["replicate_values"] == [0.50, 0.52, 0.57] and sgd["replicates"] == 3
    assert sgd["spread"] == pytest.approx(np.std([0.50, 0.52, 0.57], ddof=1))
    assert sgd["deterministic"] is False and sgd["seconds"] == pytest.approx(2.0)
    once = got["closed form"]
    assert once["replicates"] == 1 and once["deterministic"] is True and once["value"] == 0.40
    assert got["tied"]["deterministic"] is True and got["tied"]["spread"] == 0.0
    assert np.isnan(got["nan"]["value"]) and "undefined" in got["nan"]["why"]


def test_per_query_means_beside_each_replicate_table():
    same = [{"method": "m", "metric": "MAP", "fold": "1", "qids": [1, 2, 3],
             "values": [0.1 * rep, 0.5, None if rep == 1 else 1.0], "repeat": rep,
             **({"why": "no relevant document"} if rep == 1 else {})} for rep in range(3)]
    own = [{"method": "u", "metric": "MAP", "fold": "1", "qids": [10 * rep, 10 * rep + 1],
            "values": [0.2 + rep, 0.4], "repeat": rep} for rep in range(2)]
    means = {t["method"]: t for t in R.mean_tables(same + own, 3)}
    m = means["m"]
    assert "repeat" not in m and m["replicates"] == 3 and m["qids"] == [1, 2, 3]
    assert m["values"][0] == pytest.approx(0.1) and m["values"][1] == 0.5
    assert m["values"][2] is None and m["why"] == "no relevant document"
    u = means["u"]                                  # each replicate its own queries: pooled
    assert u["qids"] == ["0:0", "0:1", "1:10", "1:11"] and u["values"] == [0.2, 0.4, 1.2, 0.4]
    # a record finds the mean, a replicate's record its own table
    index = TableIndex(same + [m])
    rec = {"method": "m", "metric": "MAP", "fold": "1"}
    assert index.find(rec) is m and index.find({**rec, "repeat": 2}) is same[2]
    assert index.find_fold({"method": "m", "metric": "MAP", "fold": "avg"}, "1") is m


# --- through the assembly: fabricated runs of a replicated artifact ---------------------------

def _results(art, values, once=None, grid=None):
    """RunResults of ``art``: ``values[rep][fold]`` = per-query values of method "sgd" (on
    queries 0..n−1 of each fold); ``once[fold]``: those of method "exact", in replicate 0
    only; ``grid[rep][fold][C]``: a value of method "svm" at each C."""
    out = []
    for rep, by_fold in enumerate(values):
        for fold, vals in by_fold.items():
            recs, tables = [], []

            def add(method, v, **extra):
                tables.append({"method": method, "metric": "MAP", "fold": str(fold),
                               "qids": list(range(len(v))), "values": list(v), **extra})
                recs.append({"method": method, "metric": "MAP", "fold": str(fold),
                             "value": float(np.mean(v)), **extra})
            add("sgd", vals)
            if rep == 0 and once:
                add("exact", once[fold])
            for c, v in ((grid or {}).get(rep, {}).get(fold, {})).items():
                recs.append({"method": "svm", "metric": "MAP", "fold": str(fold), "C": c,
                             "value": v})
            spec = RunSpec(art.paper, art.task, "D", fold, rep, "{}")
            out.append(RunResult(spec, "done", output={"records": recs, "per_query": tables}))
    return out


def _art(**kw):
    return Artifact(
        "fakepaper", "t", "t", task="task",
        layout=RunLayout(datasets=("D",), folds=(1, 2), repeats=3)).replace(**kw)


def _query_means_one_by_one(columns):
    """The reference: each query's replicate values through ``number``, then ``np.mean``."""
    out = []
    for per_q in zip(*columns):
        nums = [R.number(v) for v in per_q]
        out.append(None if any(v is None for v in nums) else float(np.mean(nums)))
    return out


@pytest.mark.parametrize("k", [2, 3, 5, 8, 9, 17])
def test_query_means_equal_the_mean_of_each_query_bit_for_bit(k):
    """Replicate values whose order of summation shows in the last bits (magnitudes 10⁻¹²
    to 10¹²), with undefined ones (None, NaN, ±inf) and ints among them: the vectorised means
    are the one-by-one ``np.mean`` of each query's values, bit for bit; text or a bool takes
    the one-by-one path with the same result."""
    rng = np.random.default_rng(k)
    n = 400
    cols = (rng.standard_normal((k, n)) * 10.0 ** rng.integers(-12, 12, (k, n))).tolist()
    for r, q, v in [(0, 3, None), (k - 1, 5, float("nan")), (1, 7, float("inf")),
                    (0, 9, 3), (k - 1, 9, -2), (1, 11, float("-inf"))]:
        cols[r][q] = v
    ref = _query_means_one_by_one(cols)
    got = R.query_means(cols)
    assert [g is None for g in got] == [x is None for x in ref]
    assert sum(g is None for g in got) == 4
    assert all(g is None or (type(g) is float and g == x and np.signbit(g) == np.signbit(x))
               for g, x in zip(got, ref))
    # the data tell orders of summation apart: the reversed order differs in some query
    # (two values: addition commutes)
    assert k == 2 or any(sum(c[q] for c in reversed(cols)) / k != ref[q] for q in range(20, n))
    odd = [list(c) for c in cols]
    odd[0][13], odd[1][15] = "n/a", True
    assert R.query_means(odd) == _query_means_one_by_one(odd)
    assert R.query_means(odd)[13] is None and R.query_means(odd)[15] is None


def test_fold_means_are_computed_on_replicate_means_with_each_replicate_s_own_value():
    art = _art(aggregate=(FoldMean(),))
    rng = np.random.default_rng(0)
    vals = [{f: rng.random(4).tolist() for f in (1, 2)} for _ in range(3)]
    once = {f: rng.random(4).tolist() for f in (1, 2)}
    tables = []
    recs, _ = assemble.gather_records(art, _results(art, vals, once), tables=tables)
    avg = {r["method"]: r for r in recs if r["fold"] == "avg"}
    own = [np.mean([np.mean(vals[rep][f]) for f in (1, 2)]) for rep in range(3)]
    assert avg["sgd"]["value"] == pytest.approx(np.mean(own))
    assert avg["sgd"]["replicate_values"] == pytest.approx(own)
    assert avg["sgd"]["spread"] == pytest.approx(np.std(own, ddof=1))
    # a method computed once: its fold mean too (replicate 0's runs alone), not "identical
    # in all 3 replicates"
    assert avg["exact"]["deterministic"] is True and avg["exact"]["replicates"] == 1
    assert "replicate_values" not in avg["exact"] and "spread" not in avg["exact"]
    assert avg["exact"]["value"] == pytest.approx(np.mean([np.mean(once[f]) for f in (1, 2)]))
    fold1 = next(r for r in recs if r["method"] == "exact" and r["fold"] == "1")
    assert fold1["replicates"] == 1 and fold1["deterministic"] is True
    assert all("repeat" not in r for r in recs)
    # the sidecar: every replicate's tables (with repeat) and the means (without)
    reps = sorted(t.get("repeat", -1) for t in tables if t["method"] == "sgd")
    assert reps == [-1, -1, 0, 0, 1, 1, 2, 2]
    assert [t.get("repeat") for t in tables if t["method"] == "exact"] == [None, None, 0, 0]
    index = TableIndex(tables)
    mean1 = index.find({"method": "sgd", "metric": "MAP", "fold": "1", "dataset": "D"})
    assert table_mean(mean1) == pytest.approx(np.mean([np.mean(vals[r][1]) for r in range(3)]))


def test_a_selection_on_replicate_means_keeps_each_replicate_s_own_choice():
    art = _art(aggregate=(FoldMean(select={"method": "svm"}, label=None, by=("C",)),
                          Best(over="C", select={"method": "svm"}, criterion={"fold": None})))
    vals = [{f: [0.5, 0.5] for f in (1, 2)} for _ in range(3)]
    # replicate 2 alone prefers C = 10; the means prefer C = 1
    grid = {rep: {f: {1.0: 0.6, 10.0: 0.7 if rep == 2 else 0.5} for f in (1, 2)}
            for rep in range(3)}
    recs, _ = assemble.gather_records(art, _results(art, vals, grid=grid))
    chosen = [r for r in recs if r["method"] == "svm" and r["fold"] is None and "C" not in r]
    assert len(chosen) == 1 and chosen[0]["value"] == pytest.approx(0.6)
    # each replicate's own procedure: C = 1 twice, C = 10 once
    assert chosen[0]["replicate_values"] == pytest.approx([0.6, 0.6, 0.7])


def test_a_custom_aggregation_runs_per_replicate_and_is_averaged(monkeypatch):
    def spread_of_runs(art, outputs):
        return [{"dataset": "D", "method": "runs", "metric": "count", "fold": None,
                 "value": float(len(outputs) + outputs[0][0].repeat)}]
    art = _art(aggregate=(Custom("spread_of_runs"),))
    vals = [{f: [0.5] for f in (1, 2)} for _ in range(3)]
    # the resolver of custom aggregations is passed in (judge/ imports no papers' registry)
    with pytest.raises(LookupError, match="needs a resolver"):
        assemble.gather_records(art, _results(art, vals))
    recs, _ = assemble.gather_records(art, _results(art, vals),
                                      aggregation=lambda p, n: spread_of_runs)
    runs = next(r for r in recs if r["method"] == "runs")
    assert runs["replicate_values"] == [2.0, 3.0, 4.0] and runs["value"] == 3.0


def test_a_single_run_artifact_is_unchanged():
    art = Artifact(
        "fakepaper", "t", "t", task="task",
        layout=RunLayout(datasets=("D",), folds=(1, 2)),
        judging=Judging(aggregate=(FoldMean(),)))
    res = _results(art, [{f: [0.2, 0.4] for f in (1, 2)}])
    tables = []
    recs, _ = assemble.gather_records(art, res, tables=tables)
    assert all("repeat" not in r and "replicates" not in r for r in recs)
    assert all("repeat" not in t and "replicates" not in t for t in tables)
