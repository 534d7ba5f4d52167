"""The evidence contract: a task returns records with the per-query tables behind them; the
tables reach the artifact's sidecar ``<artifact>.per-query.json.gz``, from which every fold
value and fold mean is recomputed; the sidecar is deterministic."""
import math

import numpy as np
import pytest

import fakepaper
from repro import papers
from repro.pipeline import build_artifact
from repro.evidence import (SIDECAR_SUFFIX, Evidence, QueryTable, TableIndex, decode_sidecar,
                            encode_sidecar, table_mean)
from repro.judge.published import load
from repro.run.runner import Runner


pytestmark = pytest.mark.usefixtures("fake_paper")     # conftest: registered, own cache


def test_a_table_keeps_its_record_and_undefined_values_need_a_reason():
    ev = Evidence()
    rec = ev.per_query("m", "MAP", [3, 1, 2], [0.5, 0.25, 1.0], fold=2, size=50)
    assert rec == {"method": "m", "metric": "MAP", "value": pytest.approx(1.75 / 3),
                   "fold": "2", "size": 50}
    out = ev.output()
    assert out["per_query"] == [{"method": "m", "metric": "MAP", "fold": "2", "size": 50,
                                 "qids": [3, 1, 2], "values": [0.5, 0.25, 1.0]}]
    index = TableIndex(out["per_query"])
    assert index.find({**rec, "verdict": "deviates", "note": "x"}) is out["per_query"][0]
    assert index.find({**rec, "size": 100}) is None            # another setting's record
    assert index.find({**rec, "fold": "3"}) is None
    with pytest.raises(ValueError, match="reason"):
        QueryTable("m", "MAP", [1, 2], [0.5, float("nan")])
    with pytest.raises(ValueError, match="2 query ids but 3 values"):
        QueryTable("m", "MAP", [1, 2], [0.5, 0.1, 0.2])


def test_a_weighted_table_averages_over_its_weights():
    t = QueryTable("m", "pairwise accuracy", [1, 2, 3], [0.5, None, 1.0], why="no pairs",
                   weights=[2, 0, 1]).as_dict()
    assert table_mean(t) == pytest.approx((2 * 0.5 + 1.0) / 3)
    assert table_mean({**t, "weights": [2, 1, 1]}) == pytest.approx(2 / 3)  # None never counts
    assert math.isnan(table_mean({**t, "values": [None, None, None]}))


def test_the_sidecar_is_deterministic_and_round_trips():
    tables = [QueryTable("b", "MAP", [1], [0.5]).as_dict(),
              QueryTable("a", "MAP", [1], [0.25]).as_dict()]
    blob = encode_sidecar("p.t", tables)
    assert blob == encode_sidecar("p.t", tables[::-1])          # sorted, no gzip timestamp
    assert [t["method"] for t in decode_sidecar(blob)["tables"]] == ["a", "b"]


def test_fold_values_and_means_are_recomputed_from_the_sidecar(tmp_path):
    art = papers.resolve("fakepaper.table6")[0]
    res = Runner(tmp_path, papers.task).run(art.runs())
    out = tmp_path / "out"
    flat = build_artifact(art, list(res.values()), load("fakepaper", fakepaper.PUBLISHED_PATH),
                          out, False)
    side = decode_sidecar((out / f"table6{SIDECAR_SUFFIX}").read_bytes())
    assert side["artifact"] == "fakepaper.table6"
    index = TableIndex(side["tables"])
    folds = [r for r in flat if r["fold"] in ("1", "2", "3")]
    assert len(folds) == 2 * 2 * 3                             # 2 features × 2 measures × 3
    for r in folds:                                            # fold value = mean over queries
        t = index.find(r)
        assert t is not None and len(t["qids"]) == 30
        assert table_mean(t) == pytest.approx(r["value"], rel=1e-12)
    for r in (r for r in flat if r["fold"] == "avg"):          # avg = mean of the fold tables
        means = [table_mean(index.find({**r, "fold": f})) for f in ("1", "2", "3")]
        assert np.mean(means) == pytest.approx(r["value"], rel=1e-12)
    assert sum(r["fold"] == "avg" for r in flat) == 4
