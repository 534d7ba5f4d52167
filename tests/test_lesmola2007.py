"""lesmola2007: declarations, the UCI query sampler, the CV selection of Table 1, short
protocol runs on real data (UCI and MQ2008), and the EachMovie tables' reason."""

import numpy as np
import pytest

from repro import papers as registry
from repro.data import catalog as cat
from repro.errors import DataMissing
from repro.experiment import RunSpec
from repro.papers import lesmola2007 as paper
from repro.papers.lesmola2007 import tasks

DATA = cat.data_dir()


def have(name):
    return cat.data_state(name, DATA)[0]


def test_declarations():
    names = [a.name for a in paper.ARTIFACTS]
    assert names == ["table1", "figure1", "figure2", "figure3", "figure4", "figure5", "figure6",
                     "figure7", "table2", "table3", "table4", "claims", "complexity"]
    for art in paper.ARTIFACTS:
        assert art.task is not None
        registry.task("lesmola2007", art.task)                 # resolvable
        if art.figure:
            registry.figure("lesmola2007", art.figure)
        if art.name not in ("table3", "table4"):
            assert art.choices, f"{art.name}: state the choices"
        assert art.runs() and art.runs(quick=True)
    # every fold artifact shares one run per (dataset, fold)
    t1 = {(s.dataset, s.fold): s for s in paper.ARTIFACTS[0].runs()}
    claims = {(s.dataset, s.fold): s for s in paper.ARTIFACTS[11].runs()}
    assert all(claims[k] == v for k, v in t1.items())
    assert len([k for k in t1 if k[0] == "pendigits"]) == 10
    assert {a.stand_ins.get("MQ2008") for a in paper.ARTIFACTS[2:9]} == {"web-search-lesmola"}


def test_eachmovie_is_withdrawn():
    ok, why = cat.data_state("eachmovie", DATA)
    if not ok:
        assert why.startswith("EachMovie withdrawn")
    with pytest.raises(DataMissing, match="not implemented"):
        tasks.task_eachmovie(None)


def test_ndcg_at_is_eq14():
    y = np.array([2.0, 0.0, 1.0, 0.0, 1.0])
    s = np.array([0.1, 0.9, 0.5, 0.2, 0.5])        # ranking: 1, 2, 4 (tie: document order), 3, 0
    ideal = 3.0 + 1.0 / np.log2(3.0)
    dcg = 0.0 + 1.0 / np.log2(3.0) + 1.0 / np.log2(4.0)
    assert tasks.ndcg_at(y, s, [0, 5], n=3)[0] == pytest.approx(dcg / (ideal + 1.0 / np.log2(4.0)))
    assert tasks.ndcg_at(np.zeros(3), np.arange(3.0), [0, 3])[0] == 0.0


@pytest.mark.skipif(not have("page-blocks"), reason="UCI Page Blocks not in the data directory")
def test_uci_queries_follow_the_protocol():
    d = tasks.uci_queries("page-blocks", DATA, 20, 100)
    assert d.n_queries == 20 and np.all(d.query_sizes == 100)
    assert d.X.min() >= 0.0 and d.X.max() <= 1.0
    assert set(np.unique(d.y)) <= {0.0, 1.0, 2.0, 3.0, 4.0}
    for q in range(d.n_queries):                   # no document twice within a query
        Xq = d.X[d.query_ptr[q]:d.query_ptr[q + 1]]
        assert np.unique(Xq, axis=0).shape[0] >= 95        # (the file has duplicate rows)
    again = tasks.uci_queries("page-blocks", DATA, 20, 100)
    np.testing.assert_array_equal(d.X, again.X)    # seeded by the dataset's name


@pytest.mark.skipif(not have("page-blocks"), reason="UCI Page Blocks not in the data directory")
def test_short_uci_run_dorm_beats_the_classifier():
    p = {"queries": {"page-blocks": 10}, "docs": 60, "folds": 5, "grid": [10.0],
         "methods": ["DORM", "SVM"]}
    r = tasks.run_uci_fold("page-blocks", 1, p, DATA, lambda m: None)
    assert r["train"] == [8, 480] and r["test"] == [2, 120]
    d, s = r["ndcg"]["DORM"]["10.0"], r["ndcg"]["SVM"]["10.0"]
    assert 0 <= s < d <= 100


def test_uci_select_chooses_c_by_the_mean_over_folds():
    vals = {"0.1": [50.0, 60.0, 70.0], "1.0": [65.0, 55.0, 60.0], "10.0": [60.0, 60.0, 60.0]}
    outputs = []
    for f in range(3):
        out = {"uci": {"folds": 3, "ndcg": {
            "DORM": {c: v[f] for c, v in vals.items()},
            "SVM": {c: v[f] - 10.0 + f for c, v in vals.items()}}}}
        outputs.append((RunSpec("lesmola2007", "task_fold", "pendigits", f + 1, 0, "{}"), out))
    recs = tasks.uci_select(paper.ARTIFACTS[0], outputs)
    mean = {(r["method"], r["metric"], r["fold"]): r["value"] for r in recs}
    # mean 60 for every C: the tie goes to the smallest C
    assert mean[("DORM", "C (chosen by 10-fold CV)", None)] == 0.1
    assert mean[("DORM", "NDCG@10", None)] == pytest.approx(60.0)
    assert mean[("DORM", "NDCG@10 ±", None)] == pytest.approx(10.0)     # sample std
    assert mean[("DORM", "NDCG@10", "2")] == 60.0
    p = [r for r in recs if r["metric"] == "paired t-test p-value"]
    assert len(p) == 1 and p[0]["method"] == "DORM vs SVM" and p[0]["mean_difference"] == 9.0
    assert tasks.uci_select(paper.ARTIFACTS[0], outputs[:2]) == []      # folds missing


@pytest.mark.skipif(not have("MQ2008"), reason="MQ2008 not in the data directory")
def test_short_web_run():
    p = {"sizes": {"MQ2008": [30, 60]}, "grid": [1.0],
         "methods": ["BM25", "DORM (MRR)", "ROCArea"], "c_schemes": False}
    r = tasks.run_web_fold("MQ2008", 1, p, DATA, lambda m: None)
    assert r["sizes"] == ["30", "60"]
    recs = tasks.web_records(r, 1)
    got = {(x["method"], x["metric"]): x["value"] for x in recs}
    for m in ("BM25", "DORM (MRR)", "ROCArea"):
        for k in range(1, 11):
            assert 0 <= got[(m, f"NDCG@{k}")] <= 100
        assert 0 <= got[(m, "MRR (m=60)")] <= 100
    assert ("ROCArea", "# SVs (NDCG@10 optimization)") in got
    assert ("DORM (MRR)", "# Iter (MRR optimization)") in got
    assert got[("DORM (MRR)", "% in QP (MRR optimization)")] <= 100
    # BM25 (feature 25 of LETOR 4.0) needs no training: the same at every size
    assert got[("BM25", "MRR (m=30)")] == got[("BM25", "MRR (m=60)")]
