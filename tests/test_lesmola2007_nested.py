"""lesmola2007 Table 1's nested cross-validation (C chosen on each outer fold's training queries
only) beside the literal selection, the curve over C and the optimism records in the artifact,
and Figure 2's note on MQ2008's short queries, computed from the data."""
from dataclasses import replace

import numpy as np
import pytest

from repro.judge import kinds as aggregate
from repro import papers as registry
from repro.pipeline import build_artifact
from repro.data import catalog as cat
from repro.data.load import load_letor_fold
from repro.evidence import SIDECAR_SUFFIX, TableIndex, decode_sidecar, table_mean
from repro.evidence.record import matches
from repro.papers import lesmola2007 as paper
from repro.papers.lesmola2007 import figures, names, uci, web
from repro.judge.published import load
from repro.run.runner import Runner

DATA = cat.data_dir()
SMALL = {"queries": {"page-blocks": 12}, "docs": 40, "folds": 3, "grid": [0.01, 10.0],
         "methods": ["DORM", "SVM"], "inner_folds": 2}
TYPED = uci.UciParams.build(SMALL, "lesmola2007.task_fold.uci")


def have(name):
    return cat.data_state(name, DATA)[0]


def art(name):
    return next(a for a in paper.ARTIFACTS if a.name == name)


def _by(ev):
    return {(r["method"], r["metric"], r.get("C")): r for r in ev.records}


@pytest.mark.skipif(not have("page-blocks"), reason="UCI Page Blocks not in the data directory")
def test_nested_selection_never_sees_the_outer_test_fold():
    data = uci.table1_queries("page-blocks", DATA, 12, 40)
    fold, per = 2, 12 // 3
    a = _by(uci.uci_fold(data, "page-blocks", fold, TYPED, lambda m: None))
    # the outer test fold's grades reversed: its test values move, the nested choice must not
    test_rows = np.arange(data.query_ptr[(fold - 1) * per], data.query_ptr[fold * per])
    flipped = replace(data, y=data.y.copy())
    flipped.y[test_rows] = flipped.y.max() - flipped.y[test_rows]
    b = _by(uci.uci_fold(flipped, "page-blocks", fold, TYPED, lambda m: None))
    for m in SMALL["methods"]:
        assert a[(m, names.NDCG10, 10.0)]["value"] != b[(m, names.NDCG10, 10.0)]["value"]
        key = (names.nested(m), names.NESTED_C, None)
        assert a[key]["value"] == b[key]["value"]
        assert a[key]["inner_means"] == b[key]["inner_means"]
        # the nested value is the literal value of the same fold at the C chosen inside
        chosen = a[key]["value"]
        assert a[(names.nested(m), names.NDCG10, None)]["value"] == \
            a[(m, names.NDCG10, chosen)]["value"]
        assert a[key]["inner_means"][f"{chosen:g}"] == max(a[key]["inner_means"].values())
    # …while the training queries' grades (reversed within each training query) move them
    other = replace(data, y=data.y.copy())
    for q in range(fold * per, data.n_queries):
        rows = slice(data.query_ptr[q], data.query_ptr[q + 1])
        other.y[rows] = other.y[rows][::-1]
    c = _by(uci.uci_fold(other, "page-blocks", fold, TYPED, lambda m: None))
    key = (names.nested("DORM"), names.NESTED_C, None)
    assert c[key]["inner_means"] != a[key]["inner_means"]


class _Stub:
    """A ranker that scores every document 0 (every C ties) and notes what it was fitted on."""
    seen: list = []

    def fit_grid(self, data, grid):
        _Stub.seen.append(set(data.qids.tolist()))
        for c in grid["C"]:
            yield {"C": c}, self

    def predict(self, X):
        return np.zeros(X.shape[0])


@pytest.mark.skipif(not have("page-blocks"), reason="UCI Page Blocks not in the data directory")
def test_inner_cv_splits_by_query_and_breaks_ties_to_the_smaller_c(monkeypatch):
    data = uci.table1_queries("page-blocks", DATA, 9, 30)
    monkeypatch.setattr(uci, "uci_ranker", lambda method: _Stub())
    _Stub.seen = []
    chosen, means = uci.inner_cv(data, "SVM", [10.0, 0.1, 1.0], 3)
    assert chosen == 0.1 and len(set(means.values())) == 1
    held = [set(range(9)) - s for s in _Stub.seen]          # each query held out exactly once
    assert sorted(q for h in held for q in h) == list(range(9))
    assert all(len(h) == 3 for h in held)


def _records(nested_vals, literal_vals):
    recs = []
    for f in range(3):
        for c, v in literal_vals.items():
            recs.append({"method": "DORM", "metric": names.NDCG10, "value": v[f],
                         "fold": str(f + 1), "C": c, "fitted_C": c, "dataset": "pendigits"})
        recs.append({"method": names.nested("DORM"), "metric": names.NDCG10,
                     "value": nested_vals[f], "fold": str(f + 1), "dataset": "pendigits",
                     "selection": names.NESTED_SELECTION})
    return recs


def test_optimism_is_the_literal_mean_minus_the_nested_mean():
    a3 = art("table1").replace(folds={"pendigits": (1, 2, 3)})
    literal = {0.1: [50.0, 62.0, 70.0], 1000.0: [66.0, 55.0, 61.0]}
    out, _ = aggregate.apply(a3, _records([50.0, 55.0, 61.0], literal), [], None)
    out = [r for r in out if matches(a3.judging.select, r)]
    opt = [r for r in out if r["metric"] == names.OPTIMISM]
    assert len(opt) == 1 and opt[0]["method"] == "DORM"
    assert opt[0]["value"] == pytest.approx(np.mean([50, 62, 70]) - np.mean([50, 55, 61]))
    nested = [r for r in out if r["method"] == names.nested("DORM") and r["fold"] is None]
    assert {r["metric"] for r in nested} == {names.NDCG10, names.NDCG10 + names.SPREAD_SUFFIX}
    # the nested rows never take the published key of the literal ones
    assert not [r for r in out if r["method"] == "DORM" and r["fold"] is None
                and r["metric"] == names.NDCG10 and r.get("selection")]


@pytest.mark.slow
@pytest.mark.skipif(not have("page-blocks"), reason="UCI Page Blocks not in the data directory")
def test_curve_nested_and_optimism_reach_the_artifact(tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    a = art("table1").replace(datasets=("page-blocks",), folds={"page-blocks": (1, 2, 3)},
               params={**paper.PARAMS, "uci": SMALL}, repeats=1)      # one sample
    res = Runner(DATA, registry.task).run(a.runs())
    assert all(r.status == "done" for r in res.values()), [r.why for r in res.values()]
    out = tmp_path / "out"
    flat = build_artifact(a, list(res.values()), load("lesmola2007"), out, False)
    index = TableIndex(decode_sidecar((out / f"table1{SIDECAR_SUFFIX}").read_bytes())["tables"])
    folds = ["1", "2", "3"]
    for m in SMALL["methods"]:
        curve = {r["fitted_C"]: r for r in flat if r["method"] == m
                 and r.get("series") == names.C_SERIES}
        assert sorted(curve) == SMALL["grid"]
        for c, r in curve.items():                  # each C's fold mean, from the sidecar
            assert r["fold"] == names.C_LABEL.format(C=c) and "C" not in r
            tables = [index.find({**r, "fold": f}) for f in folds]
            assert np.mean([table_mean(t) for t in tables]) == pytest.approx(r["value"])
        one = {(r["method"], r["metric"]): r for r in flat if r["fold"] is None
               and r["dataset"] == "page-blocks"}
        literal = one[(m, names.NDCG10)]
        assert literal["value"] == pytest.approx(max(r["value"] for r in curve.values()))
        nested = one[(names.nested(m), names.NDCG10)]
        fold_recs = [r for r in flat if r["method"] == names.nested(m)
                     and r["metric"] == names.NDCG10 and r["fold"] in folds]
        assert len(fold_recs) == 3
        for r in fold_recs:                         # nested fold values have their tables
            assert table_mean(index.find(r)) == pytest.approx(r["value"], rel=1e-9)
        assert nested["value"] == pytest.approx(np.mean([r["value"] for r in fold_recs]))
        assert one[(m, names.OPTIMISM)]["value"] == pytest.approx(
            literal["value"] - nested["value"])
        chosen = [r for r in flat if r["method"] == names.nested(m)
                  and r["metric"] == names.NESTED_C]
        assert sorted(r["fold"] for r in chosen) == folds
        assert nested["published"] is None              # shown, never compared
    assert (out / "table1.svg").is_file()


# --- Figure 2: MQ2008's short queries --------------------------------------------------------

@pytest.mark.skipif(not have("MQ2008"), reason="MQ2008 not in the data directory")
def test_figure2_short_query_numbers_are_computed_from_the_data():
    p = {"sizes": {"MQ2008": ["all"]}, "grid": [1.0], "methods": ["BM25"], "c_schemes": False}
    ev = web.run_web_fold("MQ2008", 3, web.WebParams.build(p, "test"), DATA, lambda m: None)
    got = {(r["method"], r["metric"]): r["value"] for r in ev.records}
    sizes = np.diff(load_letor_fold("MQ2008", 3, DATA)["test"].query_ptr)
    assert got[("data", names.TEST_QUERIES)] == sizes.size
    for n in range(1, 11):
        short = int((sizes < n).sum())
        assert got[("data", names.SHORT.format(n=n))] == short
        # LETOR 4.0: a query shorter than n scores NDCG@n = 0, so the mean over all queries is
        # the mean over the long ones scaled by their share
        assert got[("BM25", f"NDCG@{n}")] == pytest.approx(
            got[("BM25", names.ndcg_long(n))] * (sizes.size - short) / sizes.size, rel=1e-9)
    assert got[("data", names.SHORT.format(n=9))] > got[("data", names.SHORT.format(n=8))]


def _flat(short: dict[int, int], total=100):
    flat = [{"dataset": "web-search-lesmola", "method": "data", "metric": names.TEST_QUERIES,
             "fold": "1", "value": total}]
    flat += [{"dataset": "web-search-lesmola", "method": "data", "fold": "1", "value": v,
              "metric": names.SHORT.format(n=n)} for n, v in short.items()]
    for m in names.FIGURE2_METHODS:
        for n in range(1, 11):
            long = 40.0 + n
            flat.append({"dataset": "web-search-lesmola", "method": m, "fold": "avg",
                         "metric": names.ndcg_long(n), "value": long})
            flat.append({"dataset": "web-search-lesmola", "method": m, "fold": "avg",
                         "metric": f"NDCG@{n}", "value": long * (total - short[n]) / total})
    return flat


def test_figure2_note_is_written_from_the_records():
    short = {n: (0 if n < 8 else 10 if n == 8 else 48) for n in range(1, 11)}
    note = figures.short_query_note(_flat(short), "web-search-lesmola")
    assert note.startswith("MQ2008 (stand-in for the paper's web-search data)")
    assert "Of its 100 test queries" in note and "n = 9: 48 (48.0%)" in note
    assert "from n = 8 to n = 9" in note and "DORM (NDCG) 43.2 → 25.5 (dotted: 48.0 → 49.0)" \
        in note
    moved = {n: (0 if n < 6 else 30) for n in range(1, 11)}
    assert "from n = 5 to n = 6" in figures.short_query_note(_flat(moved), "web-search-lesmola")
    assert figures.short_query_note(_flat({n: 0 for n in range(1, 11)}),
                                    "web-search-lesmola") == ""


def test_figure2_panel_says_mq2008_stands_in_and_carries_the_note():
    short = {n: (0 if n < 9 else 50) for n in range(1, 11)}
    fig = figures.figure_ndcg_at_n(art("figure2"), {}, _flat(short), None)[""]
    assert [ax.get_title() for ax in fig.axes] == [
        "MQ2008 (stand-in for the paper's web-search data)"]
    from repro.papers.plotting import note_of
    note = note_of(fig)                    # the page prints it as the figure's caption
    assert "web-search-lesmola" not in note and "test queries" in note
    assert "n = 9: 50 (50.0%)" in note
    assert len([ln for ln in fig.axes[0].lines if ln.get_linestyle() == ":"]) == 6
    assert names.shown_as("page-blocks") == "page-blocks"


def test_optimism_gets_a_paired_interval_over_the_same_test_queries():
    """literal − nested over the same queries: a paired bootstrap of the per-query
    differences (Difference with tables), equal to scipy's paired t-test."""
    from scipy import stats
    from repro.judge.kinds import Difference, difference
    a = art("table1").replace(folds={"pendigits": (1, 2)})
    rng = np.random.default_rng(4)
    recs, tables, diffs = [], [], []
    for f in ("1", "2"):
        lit = rng.uniform(40, 90, 20)
        nes = lit - rng.normal(0.5, 1.0, 20)
        diffs.append(lit - nes)
        for method, vals in (("lit", lit), ("nes", nes)):
            rec = {"dataset": "pendigits", "method": method, "metric": "m", "fold": f,
                   "value": float(vals.mean())}
            recs.append(rec)
            tables.append({**{k: v for k, v in rec.items() if k != "value"},
                           "qids": list(range(20)), "values": vals.tolist()})
    for method in ("lit", "nes"):
        recs.append({"dataset": "pendigits", "method": method, "metric": "m", "fold": None,
                     "value": float(np.mean([r["value"] for r in recs
                                             if r["method"] == method and r["fold"]]))})
    decl = Difference("optimism", "lit", {"method": "lit", "fold": None},
                      {"method": "nes", "fold": None})
    (rec,), _ = difference(a, recs, decl, tables=tables)
    d = np.concatenate(diffs)
    assert rec["value"] == pytest.approx(d.mean())
    assert rec["n_queries"] == 40 and rec["ci95"][0] < rec["value"] < rec["ci95"][1]
    assert rec["p_value"] == pytest.approx(stats.ttest_1samp(d, 0).pvalue)
    (folds,), _ = difference(a, recs, decl, tables=[])      # no tables: over the fold values
    assert folds["n_queries"] is None and folds["n_folds"] == 2 and "fold values" in \
        folds["ci_basis"]
