"""lesmola2007: declarations and names, the UCI query sampler, NDCG of eq. (14), the declared
choice of C of Table 1 (fold means per C, best C, ±, paired t-tests) and the claims, short
protocol runs on real data (UCI and MQ2008) with their per-query sidecars, and the EachMovie
tables' reason."""
import zlib
from dataclasses import replace

import numpy as np
import pytest
from scipy.stats import ttest_rel

from repro.papers.replicates import REPEATS
from repro.judge import kinds as aggregate
from repro import papers as registry
from repro.pipeline import build_artifact
from repro.data import catalog as cat
from repro.data.uci import uci_queries
from repro.errors import DataError, DataMissing
from repro.evidence import SIDECAR_SUFFIX, TableIndex, decode_sidecar, table_mean
from repro.evidence.record import matches
from repro.metrics.family import ndcg
from repro.papers import lesmola2007 as paper
from repro.papers.lesmola2007 import names, runtime, tasks, uci, web
from repro.judge.published import load
from repro.run.runner import Runner

DATA = cat.data_dir()


def have(name):
    return cat.data_state(name, DATA)[0]


def art(name):
    return next(a for a in paper.ARTIFACTS if a.name == name)


def test_declarations():
    assert [a.name for a in paper.ARTIFACTS] == [
        "table1", "figure1", "figure2", "figure3", "figure4", "figure5", "figure6", "figure7",
        "table2", "table2-qp", "table3", "table4", "claims", "complexity"]
    for a in paper.ARTIFACTS:
        assert a.task is not None
        registry.task("lesmola2007", a.task)                 # resolvable
        if a.shown.figure:
            registry.figure("lesmola2007", a.shown.figure)
        if a.name not in ("table3", "table4"):
            assert a.shown.choices, f"{a.name}: state the choices"
        assert a.runs() and a.runs(quick=True)
        assert not any(type(d).__name__ == "Custom" for d in a.judging.aggregate)   # all declared
    # every fold artifact shares one run per (dataset, fold, replicate); Table 1 and the
    # claims have 5 replicates (each draws a sample of its own), the web-search ones
    # names.WEB_REPEATS arithmetic replicates, shared with the claims' web runs
    t1 = {(s.dataset, s.fold, s.repeat): s for s in art("table1").runs()}
    claims = {(s.dataset, s.fold, s.repeat): s for s in art("claims").runs()}
    assert all(claims[k] == v for k, v in t1.items())
    assert len([k for k in t1 if k[0] == "pendigits"]) == 10 * REPEATS
    web = {(s.dataset, s.fold, s.repeat) for s in art("figure2").runs()}
    assert {k[2] for k in web} == set(range(names.WEB_REPEATS)) and web <= set(claims)
    assert art("table1").noise_for("pendigits").basis == "sample"
    assert art("claims").noise_for("MQ2008").basis == "same queries"
    assert {art(f"figure{i}").stand_ins.get("MQ2008") for i in range(2, 8)} == \
        {"web-search-lesmola"}
    # measured times only on timing artifacts
    assert {a.name for a in paper.ARTIFACTS if a.timing} == {"figure7", "table2-qp",
                                                             "complexity"}


def test_timing_runs_are_not_the_value_runs():
    """Figure 7 and Table 2's "% in QP" time refits of their own: one timing run per
    web fold, none of them a value run, so the value runs of the web folds pool."""
    timing = {s for a in paper.ARTIFACTS if a.timing for s in a.runs()}
    values = {s for a in paper.ARTIFACTS if not a.timing for s in a.runs()}
    assert timing and values and not timing & values
    assert not any(s.exclusive for s in values)
    for name in ("figure7", "table2-qp"):
        runs = art(name).runs()
        assert {s.task for s in runs} == {"task_runtime"}
        assert {(s.dataset, s.fold) for s in runs} == {
            (s.dataset, s.fold) for s in art("figure2").runs()}
        assert set(names.FIGURE7_METHODS) <= set(runs[0].params["methods"])
    # the timing runs refit what they time and nothing else: Figure 7's and Table 2's methods
    table2 = {m for rows in names.TABLE2.values() for m, _ in rows}
    assert set(art("figure7").runs()[0].params["methods"]) == set(names.FIGURE7_METHODS) | table2


def test_modules_are_small_and_run_code_imports_no_declaration():
    from pathlib import Path

    from repro.run.codekey import closure
    pkg = Path(paper.__file__).parent
    for f in pkg.glob("*.py"):
        assert len(f.read_text().splitlines()) <= 400, f.name
    run = closure("repro.papers.lesmola2007.folds")
    assert "repro.papers.lesmola2007.uci" in run and "repro.papers.lesmola2007.web" in run
    for other in ("repro.papers.lesmola2007", "repro.papers.lesmola2007.choices",
                  "repro.papers.lesmola2007.figures", "repro.judge.kinds"):
        assert other not in run             # editing a claim or a label reruns nothing


# --- names -------------------------------------------------------------------------------------

def produced() -> tuple[set, set]:
    """Every method and metric a task or a declared aggregation of the paper produces."""
    methods = set(paper.UCI_PARAMS["methods"]) | set(web.web_rankers("MQ2008"))
    methods |= {names.nested(m) for m in paper.UCI_PARAMS["methods"]}
    methods |= {label for rows in names.TABLE2.values() for _, label in rows}
    methods |= {f"DORM vs {m}" for m in names.UCI_BASELINES} | {names.SCHEMES_LABEL}
    methods |= {f"{names.nested('DORM')} vs {names.nested(m)}" for m in names.UCI_BASELINES}
    methods |= {"data", names.CLAIM_T1, names.CLAIM_63, names.CLAIM_64, names.CLAIM_65}
    sizes = {s for v in paper.WEB_SIZES.values() for s in v}
    metrics = {names.NDCG10, names.NDCG10 + names.SPREAD_SUFFIX, names.CHOSEN_C,
               names.P_VALUE, names.SECONDS, *names.NDCG_AT, *names.TABLE2_COUNTS,
               *names.TABLE2_QP, names.NESTED_C, names.NESTED_P, names.OPTIMISM,
               names.TEST_QUERIES, *(names.SHORT.format(n=n) for n in range(1, 11)),
               *(names.ndcg_long(n) for n in range(1, 11))}
    metrics |= {names.by_size(m, s) for _, m, _ in names.BY_SIZE for s in sizes}
    metrics |= {names.MAX_DIFFERENCE.format(metric=names.by_size(names.NDCG10, s))
                for s in sizes}
    metrics |= {d.statement for a in paper.ARTIFACTS for d in a.judging.aggregate
                if isinstance(d, aggregate.Claim)}
    return methods, metrics


def _named(select: dict | None, field: str) -> list:
    if not select or field not in select:
        return []
    v = select[field]
    return list(v) if isinstance(v, (list, tuple)) else [v]


def unknown_names(artifacts, published) -> list[str]:
    """What a declaration, an aggregation or a published cell names that no task produces."""
    methods, metrics = produced()
    bad = []
    for a in artifacts:
        if a.task in (None, "task_eachmovie", "task_complexity", "task_docs_per_query"):
            continue
        selects = [("select", a.judging.select)]
        for d in a.judging.aggregate:
            for f in ("select", "subject", "others", "shown", "criterion", "minuend",
                      "subtrahend"):
                if isinstance(getattr(d, f, None), dict):
                    selects.append((f"{type(d).__name__}.{f}", getattr(d, f)))
            if isinstance(getattr(d, "subject", None), str):          # PairedTest
                selects.append((f"{type(d).__name__}.subject", {"method": d.subject}))
            if isinstance(getattr(d, "others", None), (tuple, list)):
                selects += [(f"{type(d).__name__}.others", {"method": m}) for m in d.others]
        for where, sel in selects:
            bad += [f"{a.name} {where}: method {m!r}" for m in _named(sel, "method")
                    if m not in methods]
            bad += [f"{a.name} {where}: metric {m!r}" for m in _named(sel, "metric")
                    if m not in metrics and "{" not in m]
        for v in published.for_artifact(a.name):
            if v.method not in methods and not v.baseline:
                bad.append(f"{a.name} published: method {v.method!r}")
            if v.metric not in metrics:
                bad.append(f"{a.name} published: metric {v.metric!r}")
    return bad


def test_every_declared_name_is_produced_by_a_task():
    pub = load("lesmola2007")
    assert unknown_names(paper.ARTIFACTS, pub) == []
    typo = art("figure2").replace(select={"method": ["DORM (NCDG)"], "metric": ["NDCG@10"]})
    assert unknown_names([typo], pub) == ["figure2 select: method 'DORM (NCDG)'"]
    typo = art("claims").replace(aggregate=(aggregate.Claim("Sec. 6.3", "x", others={
       "method": "RankSVM", "metric": "MRR (m=al)"}),))
    assert len(unknown_names([typo], pub)) == 2


@pytest.mark.slow
@pytest.mark.skipif(not (have("MQ2008") and have("page-blocks")), reason="data not present")
def test_short_runs_produce_the_declared_names():
    methods, metrics = produced()
    p = {"sizes": {"MQ2008": [30, "all"]}, "grid": [1.0],
         "methods": ["BM25", "DORM (MRR)", "ROCArea"], "c_schemes": False}
    got = web.run_web_fold("MQ2008", 1, web.WebParams.build(p, "test"), DATA,
                           lambda m: None).records
    p = {"queries": {"page-blocks": 10}, "docs": 60, "folds": 5, "grid": [1.0],
         "methods": list(paper.UCI_PARAMS["methods"]), "inner_folds": 2}
    got += uci.run_uci_fold("page-blocks", 1, uci.UciParams.build(p, "test"), DATA,
                            lambda m: None).records
    assert {r["method"] for r in got} <= methods
    assert {r["metric"] for r in got} - metrics == {"NDCG@10 (m=30)", "MRR (m=30)",
                                                    "WTA (m=30)", "WTA correct (m=30)"}
    assert {names.nested("DORM"), "data"} <= {r["method"] for r in got}


# --- measures and data -------------------------------------------------------------------------

def test_eachmovie_is_withdrawn():
    ok, why = cat.data_state("eachmovie", DATA)
    if not ok:
        assert why.startswith("EachMovie withdrawn")
    with pytest.raises(DataMissing, match="not implemented"):
        tasks.task_eachmovie(None)


def test_ndcg_of_eq14():
    y = np.array([2.0, 0.0, 1.0, 0.0, 1.0])
    s = np.array([0.1, 0.9, 0.5, 0.2, 0.5])        # ranking: 1, 2, 4 (tie: document order), 3, 0
    ideal = 3.0 + 1.0 / np.log2(3.0)
    dcg = 0.0 + 1.0 / np.log2(3.0) + 1.0 / np.log2(4.0)
    got = ndcg(y, s, np.array([0, 5]), 3, uci.CONVENTION)[0]
    assert got == pytest.approx(dcg / (ideal + 1.0 / np.log2(4.0)))
    assert ndcg(np.zeros(3), np.arange(3.0), np.array([0, 3]), 10, uci.CONVENTION)[0] == 0.0


@pytest.mark.skipif(not have("page-blocks"), reason="UCI Page Blocks not in the data directory")
def test_uci_queries_follow_the_protocol():
    d = uci.table1_queries("page-blocks", DATA, 20, 100)
    assert d.n_queries == 20 and np.all(d.query_sizes == 100)
    assert d.X.min() >= 0.0 and d.X.max() <= 1.0
    assert set(np.unique(d.y)) <= {0.0, 1.0, 2.0, 3.0, 4.0}
    for q in range(d.n_queries):                   # no document twice within a query
        Xq = d.X[d.query_ptr[q]:d.query_ptr[q + 1]]
        assert np.unique(Xq, axis=0).shape[0] >= 95        # (the file has duplicate rows)
    again = uci.table1_queries("page-blocks", DATA, 20, 100)
    np.testing.assert_array_equal(d.X, again.X)    # seeded by the dataset's name
    # the data module takes its seed from the caller: a text stands for its CRC-32
    same = uci_queries("page-blocks", DATA, 20, 100, seed=zlib.crc32(b"lesmola2007/uci/page-blocks"))
    np.testing.assert_array_equal(d.X, same.X)
    other = uci_queries("page-blocks", DATA, 20, 100, seed="another draw")
    assert not np.array_equal(d.X, other.X)
    # replicates: replicate 0 is the draw above; each later one draws a sample of its own
    assert uci.sample_name("page-blocks", 0) == "lesmola2007/uci/page-blocks"
    assert uci.sample_name("page-blocks", 2) == "lesmola2007/uci/page-blocks/replicate 2"
    np.testing.assert_array_equal(uci.table1_queries("page-blocks", DATA, 20, 100, 0).X, d.X)
    reps = [uci.table1_queries("page-blocks", DATA, 20, 100, r).X for r in (1, 2)]
    assert not np.array_equal(reps[0], d.X) and not np.array_equal(reps[0], reps[1])
    np.testing.assert_array_equal(uci.table1_queries("page-blocks", DATA, 20, 100, 1).X, reps[0])
    with pytest.raises(DataError, match="n_docs = 100000 exceeds"):
        uci.table1_queries("page-blocks", DATA, 2, 100000)


@pytest.mark.skipif(not have("pendigits"), reason="UCI Pen Digits not in the data directory")
def test_short_uci_run_dorm_beats_the_classifier():
    """Pen digits, where Table 1's gap is wide: DORM's fold value moves by a few points with
    the BLAS kernel (70.2 / 72.2 / 69.2 under SkylakeX / Sandybridge / Haswell; on every fold
    69–84 against the SVM's 11–19), so the margin asserted is one that holds on every kernel.
    (On page-blocks at this size the two are level — DORM 49–51 against 52.7 over 5 folds —
    and one fold's order flips with the kernel.)"""
    p = {"queries": {"pendigits": 10}, "docs": 60, "folds": 5, "grid": [10.0],
         "methods": ["DORM", "SVM"]}
    ev = uci.run_uci_fold("pendigits", 1, uci.UciParams.build(p, "test"), DATA, lambda m: None)
    assert ev.detail["train"] == [8, 480] and ev.detail["test"] == [2, 120]
    val = {r["method"]: r for r in ev.records}
    d, s = val["DORM"]["value"], val["SVM"]["value"]
    assert 0 <= s < d <= 100
    assert d > s + 30, (d, s)
    assert val["DORM"]["C"] == val["DORM"]["fitted_C"] == 10.0
    t = TableIndex([t.as_dict() for t in ev.tables]).find(val["DORM"])
    assert t["qids"] == [0, 1] and table_mean(t) == pytest.approx(d, rel=1e-12)


# --- aggregation declared ----------------------------------------------------------------------

def _table1_records(vals: dict, folds=3) -> list[dict]:
    """Fold records as the UCI task stores them: DORM and SVM, per C."""
    recs = []
    for f in range(folds):
        for c, v in vals.items():
            for method, x in (("DORM", v[f]), ("SVM", v[f] - 10.0 + f)):
                recs.append({"method": method, "metric": "NDCG@10", "value": x,
                             "fold": str(f + 1), "C": float(c), "fitted_C": float(c),
                             "dataset": "pendigits"})
    return recs


def test_table1_chooses_c_by_the_mean_over_folds():
    vals = {0.1: [50.0, 60.0, 70.0], 1.0: [65.0, 55.0, 60.0], 10.0: [60.0, 60.0, 60.0]}
    a3 = art("table1").replace(folds={"pendigits": (1, 2, 3)})
    recs, _ = aggregate.apply(a3, _table1_records(vals), [], None)
    out = [r for r in recs if matches(a3.judging.select, r)]
    got = {(r["method"], r["metric"], r["fold"]): r for r in out}
    # mean 60 for every C: the tie goes to the smallest C
    assert got[("DORM", names.CHOSEN_C, None)]["value"] == 0.1
    assert got[("DORM", "NDCG@10", None)]["value"] == pytest.approx(60.0)
    assert got[("DORM", "NDCG@10 ±", None)]["value"] == pytest.approx(10.0)     # sample std
    assert got[("DORM", "NDCG@10", "2")]["value"] == 60.0
    assert got[("DORM", "NDCG@10", "2")]["fitted_C"] == 0.1          # its table's key
    assert got[("SVM", names.CHOSEN_C, None)]["value"] == 0.1
    p = [r for r in out if r["metric"] == "paired t-test p-value"]
    assert len(p) == 1 and p[0]["method"] == "DORM vs SVM" and p[0]["mean_difference"] == 9.0
    want = ttest_rel([50.0, 60.0, 70.0], [40.0, 51.0, 62.0]).pvalue
    assert p[0]["value"] == pytest.approx(want)
    assert not any("C" in r for r in out)     # the grid field stays out of the JSON: the
    curve = {(r["method"], r["fitted_C"]): r["value"] for r in out    # curve is keyed by fold
             if r.get("series") == names.C_SERIES}                    # label and fitted_C
    assert curve == {(m, c): pytest.approx(np.mean(v) - (10.0 - 1.0 if m == "SVM" else 0.0))
                     for c, v in vals.items() for m in ("DORM", "SVM")}
    assert {r["fold"] for r in out if r.get("series")} == {"avg at C=0.1", "avg at C=1",
                                                           "avg at C=10"}
    assert len(out) == 2 * 3 + 2 * 3 + 1 + 2 * 3
    # a missing fold: no selection, no mean
    short, _ = aggregate.apply(a3, [r for r in _table1_records(vals) if r["fold"] != "3"],
                               [], None)
    assert not [r for r in short if r["fold"] is None]


def test_claims_are_declared_paired_tests():
    """Sec. 6.3's claims are paired t-tests over the test queries behind both values: DORM
    above every method on each query replicates; DORM with 20 queries below RSVM on each query
    is reversed (outcomes decided once the artifact's claims are judged as families)."""
    a = art("claims").replace(datasets=("OHSUMED",), folds={"OHSUMED": (1,)})
    rng = np.random.default_rng(0)
    qids = list(range(30))
    base = rng.uniform(20, 60, 30)
    means = {("DORM (NDCG)", "NDCG@10"): 40.0, ("RSVM", "NDCG@10"): 39.0,
             ("BM25", "NDCG@10"): 30.0, ("SVM", "NDCG@10"): 38.5, ("ROCArea", "NDCG@10"): 35.0,
             ("Precision@10", "NDCG@10"): 20.0, ("DORM (NDCG)", "NDCG@10 (m=20)"): 38.0}
    recs, tables = [], []
    for (m, metric), v in means.items():
        noise = rng.normal(0, 0.05, 30)
        vals = base - base.mean() + v + noise - noise.mean()
        rec = {"dataset": "OHSUMED", "fold": "1", "method": m, "metric": metric,
               "value": float(vals.mean())}
        if metric != "NDCG@10":
            rec["m"] = 20
        recs.append(rec)
        tables.append({**{k: v for k, v in rec.items() if k != "value"},
                       "qids": qids, "values": vals.tolist()})
    out, _ = aggregate.apply(a, recs, [], None, tables)
    from repro.judge.claims import finish
    finish(a, out, tables)
    claims = {r["metric"]: r for r in out if r["method"] == "Sec. 6.3"}
    c = claims["DORM (NDCG) beats every other method in NDCG@10 (text: by 2–3%)"]
    assert c["outcome"] == "replicated" and c["p_adjusted"] < 0.05 and c["versus"] == "RSVM"
    assert c["decided_by"] == "paired t-test"
    assert c["effect"] == pytest.approx(1.0, abs=0.05) and c["n_queries"] == 30
    assert c["numbers"] == {"DORM (NDCG)": 40.0, "RSVM": 39.0}
    c = claims["DORM with the first 20 queries beats every other method with all of them "
               "(NDCG@10)"]
    assert c["outcome"] == "reversed" and c["effect"] < 0 and c["p_direction"] == -1
    assert c["numbers"] == {"DORM (m=20)": 38.0, "RSVM (all)": 39.0}


# --- short runs, artifacts and their sidecars --------------------------------------------------

def _sidecar_check(a, tmp_path, monkeypatch, three):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    res = Runner(DATA, registry.task).run(a.runs())
    assert all(r.status == "done" for r in res.values()), [r.why for r in res.values()]
    out = tmp_path / "out"
    flat = build_artifact(a, list(res.values()), load("lesmola2007"), out, False)
    side = decode_sidecar((out / f"{a.name}{SIDECAR_SUFFIX}").read_bytes())
    index = TableIndex(side["tables"])
    folds = [str(f) for f in a.folds_for(a.datasets[0])]
    mean_fold = None if a.name == "table1" else "avg"
    for method, metric in three:
        recs = {r["fold"]: r for r in flat if r["method"] == method and r["metric"] == metric
                and r["dataset"] == a.stand_ins.get(a.datasets[0], a.datasets[0])
                and r.get("series") != names.C_SERIES}      # the curve over C: its own test
        assert set(recs) == {*folds, mean_fold}, (method, metric)
        for f in folds:                                   # fold value = mean over queries
            t = index.find(recs[f])
            assert t is not None and len(t["qids"]) > 0
            vals = [v for v in t["values"] if v is not None]
            assert np.mean(vals) == pytest.approx(recs[f]["value"], rel=1e-9)
        assert np.mean([recs[f]["value"] for f in folds]) == pytest.approx(
            recs[mean_fold]["value"], rel=1e-12)
    return flat


@pytest.mark.slow
@pytest.mark.skipif(not have("page-blocks"), reason="UCI Page Blocks not in the data directory")
def test_table1_fold_means_are_recomputed_from_the_sidecar(tmp_path, monkeypatch):
    params = {**paper.PARAMS, "uci": {"queries": {"page-blocks": 12}, "docs": 40, "folds": 3,
                                      "grid": [0.1, 10.0], "methods": ["DORM", "SVM", "ROCArea"]}}
    a = art("table1").replace(datasets=("page-blocks",), folds={"page-blocks": (1, 2, 3)},
               params=params, repeats=1)                            # one sample
    flat = _sidecar_check(a, tmp_path, monkeypatch,
                          [("DORM", "NDCG@10"), ("SVM", "NDCG@10"), ("ROCArea", "NDCG@10")])
    assert {r["metric"] for r in flat if r["method"] == "DORM vs SVM"} == {
        "paired t-test p-value"}


@pytest.mark.slow
@pytest.mark.skipif(not have("MQ2008"), reason="MQ2008 not in the data directory")
def test_web_fold_means_are_recomputed_from_the_sidecar(tmp_path, monkeypatch):
    params = {**paper.PARAMS, "web": {"sizes": {"MQ2008": ["all"]}, "grid": [1.0],
                                      "methods": ["BM25", "SVM"], "c_schemes": False}}
    a = art("figure5").replace(folds={"MQ2008": (1, 2)}, datasets=("MQ2008",),
               params=params)
    _sidecar_check(a, tmp_path, monkeypatch, [("BM25", "MRR (m=all)"), ("SVM", "MRR (m=all)")])
    a = art("figure2").replace(folds={"MQ2008": (1, 2)}, datasets=("MQ2008",), params=params)
    _sidecar_check(a, tmp_path, monkeypatch, [("BM25", "NDCG@10"), ("SVM", "NDCG@3")])


@pytest.mark.slow
@pytest.mark.skipif(not have("MQ2008"), reason="MQ2008 not in the data directory")
def test_short_web_run():
    p = {"sizes": {"MQ2008": [30, 60]}, "grid": [1.0],
         "methods": ["BM25", "DORM (MRR)", "ROCArea"], "c_schemes": False}
    ev = web.run_web_fold("MQ2008", 1, web.WebParams.build(p, "test"), DATA, lambda m: None)
    assert ev.detail["sizes"] == ["30", "60"]
    got = {(x["method"], x["metric"]): x["value"] for x in ev.records}
    for m in ("BM25", "DORM (MRR)", "ROCArea"):
        for k in range(1, 11):
            assert 0 <= got[(m, f"NDCG@{k}")] <= 100
        assert 0 <= got[(m, "MRR (m=60)")] <= 100
    assert ("ROCArea", "# SVs (NDCG@10 optimization)") in got
    assert ("DORM (MRR)", "# Iter (MRR optimization)") in got
    # no measured time in a value run (it pools: the timing runs of .runtime measure them)
    assert not any(m in (names.SECONDS, *names.TABLE2_QP) for _, m in got)
    # BM25 (feature 25 of LETOR 4.0) needs no training: the same at every size
    assert got[("BM25", "MRR (m=30)")] == got[("BM25", "MRR (m=60)")]
    # MRR is a mean over the queries with two levels or more: undefined ones carry a reason
    t = TableIndex([t.as_dict() for t in ev.tables]).find(
        next(r for r in ev.records if r["method"] == "BM25" and r["metric"] == "MRR (m=60)"))
    assert None in t["values"] and t["why"] == web.ONE_LEVEL
    assert np.mean([v for v in t["values"] if v is not None]) == pytest.approx(
        got[("BM25", "MRR (m=60)")] , rel=1e-12)


@pytest.mark.slow
@pytest.mark.skipif(not have("MQ2008"), reason="MQ2008 not in the data directory")
def test_runtime_run_times_the_value_runs_selections():
    """A timing run (Figure 7, Table 2's % in QP) refits the timed methods over the grid and
    chooses them as the value run does: the models whose QP share it reports are the value
    run's (same # SVs), and each timed method has its seconds."""
    from repro.spec import RunContext, RunSpec
    from repro.spec.declarations import canonical
    methods = ["BM25", "ROCArea", "DORM (MRR)"]
    spec = RunSpec("lesmola2007", "task_runtime", "MQ2008", 1, 0,
                   canonical({"grid": [1.0], "methods": methods, "repeats": 2}), exclusive=True)
    out = runtime.task_runtime(RunContext(spec, DATA, log=lambda m: None))
    got = {(r["method"], r["metric"]): r["value"] for r in out["records"]}
    assert {m for m, k in got if k == names.SECONDS} == set(methods)
    assert all(got[(m, names.SECONDS)] >= 0 for m in methods)
    assert set(got) - {(m, names.SECONDS) for m in methods} == {
        ("ROCArea", "% in QP (NDCG@10 optimization)"), ("ROCArea", "% in QP (MRR optimization)"),
        ("DORM (MRR)", "% in QP (MRR optimization)")}
    assert all(0 <= v <= 100 for (_, k), v in got.items() if k != names.SECONDS)
    p = web.WebParams(sizes={"MQ2008": ["all"]}, grid=[1.0], methods=methods, c_schemes=False)
    value = web.run_web_fold("MQ2008", 1, p, DATA, lambda m: None)
    counts = {(x["method"], x["metric"]) for x in value.records if x["metric"].startswith("#")}
    assert counts == {(m, k.replace("% in QP", "# SVs")) for m, k in got if k != names.SECONDS} \
        | {(m, k.replace("% in QP", "# Iter")) for m, k in got if k != names.SECONDS}


def test_web_runs_have_arithmetic_replicates():
    """The web-search methods are deterministic but move under last-bit arithmetic: every
    web-search artifact has WEB_REPEATS replicates judged with that spread; OHSUMED, the second
    stand-in, is marked a stand-in like MQ2008; a web run of a later replicate (a second
    stage of the claims' UCI sampling, repro.pipeline.extend) computes nothing."""
    from repro.pipeline.extend import every_extension
    from repro.spec import ARITHMETIC, RunContext
    for a in paper.ARTIFACTS:
        if a.task == "task_fold" and set(a.datasets) & set(names.WEB):
            assert a.layout.repeats >= names.WEB_REPEATS and a.layout.quick.repeats >= 2
            noise = a.noise_for("MQ2008")
            assert noise.sources == (ARITHMETIC,)
            assert set(a.stand_ins) == set(names.WEB)
    claims = art("claims")
    spec = next(s for s in every_extension(claims, False)
                if s.dataset == "OHSUMED" and s.repeat >= names.WEB_REPEATS)
    out = tasks.task_fold(RunContext(spec, DATA, log=lambda m: None))
    assert out.get("records", []) == [] and out.get("per_query", []) == []


def test_complexity_counts_augmentations_beside_the_time():
    """Beside each time exponent, the exponent of the fit's counted LAP augmentations
    (deterministic): the slope of the rows' counts, the same in a second run."""
    from repro.run.timing import fit_exponent
    from repro.spec import RunContext
    art = next(a for a in paper.ARTIFACTS if a.name == "complexity")
    spec = art.runs(quick=True)[0]
    outs = [tasks.task_complexity(RunContext(spec, data_dir=None, log=lambda m: None))
            for _ in range(2)]
    for axis in ("queries", "docs"):
        rows = outs[0]["rows"][axis]
        assert all(r["augmentations"] > 0 for r in rows)
        assert [r["augmentations"] for r in rows] == [r["augmentations"]
                                                       for r in outs[1]["rows"][axis]]
        rec = next(r for r in outs[0]["records"]
                   if r["metric"] == f"exponent in {axis} of the counted LAP augmentations")
        assert rec["value"] == pytest.approx(fit_exponent([r[axis] for r in rows],
                                                          [r["augmentations"] for r in rows]))
        assert rec["deterministic"] and rec["replicates"] == 1
        assert any(r["metric"] == f"exponent in {axis}" for r in outs[0]["records"])
