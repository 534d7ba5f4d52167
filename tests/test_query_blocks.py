"""A run split by queries (repro.evidence.query_blocks): the blocks' records and tables pool
into the unsplit run's, by hand."""
import numpy as np
import pytest

from repro.evidence import query_blocks
from repro.evidence.tables import Evidence


def _block(k, n, qids, values, repeat=0):
    ev = Evidence()
    ev.per_query("PAMIR", "AP", qids, values, value=float(np.mean(values)), n_topics=5,
                 query_block=[k, n])
    ev.value("PAMIR", "C chosen", 0.1)                       # not blocked: kept as it is
    out = ev.output()
    tag = lambda d: {**d, "dataset": "rcv1", "repeat": repeat}
    return [tag(r) for r in out["records"]], [tag(t) for t in out["per_query"]]


def test_blocks_pool_to_the_unsplit_mean_and_table_in_block_order():
    stash, kept = {}, []
    for k, q, v in ((1, ["d", "e"], [0.4, 0.6]), (0, ["a", "b", "c"], [0.1, 0.2, 0.3])):
        recs, tabs = query_blocks.take(*_block(k, 2, q, v), stash)
        kept += recs
        assert tabs == []
    assert [r["metric"] for r in kept] == ["C chosen", "C chosen"]
    recs, tabs = query_blocks.pool(stash)
    assert len(recs) == len(tabs) == 1
    assert tabs[0]["qids"] == ["a", "b", "c", "d", "e"]
    assert tabs[0]["values"] == [0.1, 0.2, 0.3, 0.4, 0.6]
    assert recs[0]["value"] == float(np.mean([0.1, 0.2, 0.3, 0.4, 0.6]))
    assert "query_block" not in recs[0] and recs[0]["n_topics"] == 5


def test_a_missing_block_pools_to_no_value_with_the_reason():
    stash = {}
    query_blocks.take(*_block(0, 3, ["a"], [0.5]), stash)
    query_blocks.take(*_block(2, 3, ["c"], [0.7]), stash)
    recs, tabs = query_blocks.pool(stash)
    assert tabs == [] and recs[0]["value"] is None
    assert recs[0]["why"] == "query blocks 2 of 3 not run"


def test_replicates_pool_apart_and_a_block_twice_is_an_error():
    stash = {}
    query_blocks.take(*_block(0, 1, ["a"], [0.5], repeat=0), stash)
    query_blocks.take(*_block(0, 1, ["a"], [0.9], repeat=1), stash)
    recs, _ = query_blocks.pool(stash)
    assert sorted(r["value"] for r in recs) == [0.5, 0.9]
    with pytest.raises(ValueError, match="twice"):
        query_blocks.take(*_block(0, 1, ["a"], [0.5], repeat=0), stash)
    with pytest.raises(ValueError, match="query_block"):
        query_blocks.take(*_block(2, 2, ["a"], [0.5]), {})
