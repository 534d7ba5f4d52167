"""The leelin2014 paper module: its tasks reproduce the supplement's numbers (Sec. II.1 example,
Table (I) on MQ2008) and run end to end on small settings."""
from pathlib import Path

import numpy as np
import pytest

import reference_letor

from repro.metrics import yahoo_ndcg10

from repro.data import catalog as cat
from repro.spec import RunContext, RunSpec, canonical
from repro.papers import leelin2014 as decl
from repro.papers.leelin2014 import figures, table_i, tasks as mod
from repro.papers.leelin2014.common import _power, _solve, load_split
from repro.judge.published import load as load_published

PUB = load_published("leelin2014")


def ctx(task, dataset, params, data_dir=Path("."), fold=None):
    spec = RunSpec("leelin2014", task, dataset, fold, 0, canonical(params))
    return RunContext(spec, Path(data_dir), log=lambda msg: None)


def published(artifact):
    return {v.key: v for v in PUB.for_artifact(artifact)}


def keyed(artifact, recs, dataset=None, fold=None):
    out = {}
    for r in recs:
        f = r["fold"] if r["fold"] is not None else fold
        out[(artifact, r.get("dataset", dataset), r["method"], r["metric"], f)] = r["value"]
    return out


def test_section_ii_reproduces_worked_example():
    out = mod.task_section_ii(ctx("task_section_ii", "synthetic", {}))
    got = keyed("sectionII", out["records"])
    pubs = published("sectionII")
    assert len(pubs) == 8
    for key, pub in pubs.items():
        assert got[key] == pub.value, key
    # every method gives the printed l_1^+ = 0, l_2^+ = 4; y_6 does not matter
    assert [v for k, v in got.items() if k[3] in ("l_1^+", "l_2^+")] == [0, 4] * 3
    assert got[("sectionII", "Sec. II.1 example", "direct counting (Sec. II.1)",
                "same numbers for y_6 = 1, 2, 3", None)] is True


def test_table_i_mq2008_fold1(data_root):
    params = dict(decl.ARTIFACTS[1].layout.params, eps_sensitivity=[1e-3])
    out = mod.task_table_i(ctx("task_table_i", "MQ2008", params, data_root, fold=1))
    got = keyed("tableI", out["records"], dataset="MQ2008")
    pct = got[("tableI", "MQ2008", "TRON, C = 2^20", "zero dual variables (%)", "1")]
    assert round(pct, 2) == 22.44                               # Table (I)
    assert got[("tableI", "MQ2008", "TRON, C = 2^20", "pairs with wᵀ(x_i − x_j) ≥ 1", "1")] == 11741
    assert got[("tableI", "MQ2008", "training set", "pairs p", "1")] == 52325
    assert got[("tableI", "MQ2008", "training set", "documents l", "1")] == 9630
    assert out["solves"][0]["relative_gradient"] <= 1e-7
    loose = got[("tableI", "MQ2008", "TRON, C = 2^20, ε = 0.001", "zero dual variables (%)", "1")]
    assert loose < 22.4                                         # the tool's default stops early
    for key, pub in published("tableI").items():                # our keys are the paper's
        if key[1] == "MQ2008":
            assert key in got, key


def pair_loop_accuracy(data, s) -> float:
    """Correctly ordered pairs (s_i > s_j for y_i > y_j; a tie is an error) over all pairs of
    documents of one query with different labels, counted pair by pair."""
    right = total = 0
    qp = data.query_ptr
    for q in range(len(qp) - 1):
        y, z = data.y[qp[q]:qp[q + 1]], s[qp[q]:qp[q + 1]]
        for i in range(len(y)):
            for j in range(len(y)):
                if y[i] > y[j]:
                    total += 1
                    right += int(z[i] > z[j])
    return right / total


@pytest.mark.slow
def test_figure_ii_small_run(data_root):
    params = dict(decl.ARTIFACTS[2].layout.params, cp_max_iter=12, tron_eps=1e-4)
    out = mod.task_figure_ii(ctx("task_figure_ii", "MQ2008", params, data_root, fold=1))
    tr = out["tron"]
    assert tr[0]["iter"] == 0 and tr[0]["cg"] == 0
    assert all(b["cg"] >= a["cg"] for a, b in zip(tr, tr[1:]))
    assert all(b["f"] <= a["f"] for a, b in zip(tr, tr[1:]))
    d = tr[out["tron_default_index"]]
    assert d["gnorm"] <= 1e-3 * tr[0]["gnorm"]
    # the default point is where TRON with ε = 1e-3 stops (the same iterates up to there);
    # its measures: pairwise accuracy over all pairs by a pair loop, LETOR 4.0 MeanNDCG by the
    # script's reference (same process, same BLAS: equal, whatever the kernel)
    train, test = (load_split("MQ2008", 1, part, data_root) for part in ("train", "test"))
    _, res = _solve(train, _power(params["C_L2"]["MQ2008"]), params["default_eps"])
    s = test.X @ res.w
    assert d["pairwise accuracy"] == pytest.approx(pair_loop_accuracy(test, s), rel=1e-15)
    _, avg = reference_letor.evaluate_set(test, s, 4)
    assert d["NDCG"] == pytest.approx(avg["MeanNDCG"], rel=1e-12)
    assert len(out["cp"]) == 13 and out["cp"][-1]["iter"] == 12
    assert "pairwise accuracy" in out["cp"][-1]
    methods = {r["method"] for r in out["records"]}
    assert "cutting plane (TreeRankSVM)" in methods
    faster = [r for r in out["records"] if r["metric"] == "Tree-TRON faster (1 = yes)"]
    key = ("figureII", "MQ2008", faster[0]["method"], faster[0]["metric"], faster[0]["fold"])
    assert key in published("figureII")


def test_complexity_small_run():
    """A tiny run: every method times the same computation (f, ∇f, Hv agree with the tree's),
    each (k, l) cell has its own data (a size added in between leaves the others' data — f at
    w — unchanged), the exponents compared with the paper are those of the counted
    operations (equal to a hand computation from the brute-force counts), the time exponents
    carry the interval of their rounds, and the figure draws both with their exponents."""
    from reference_pair_counting import operation_counts, pairs
    from repro.data.synthetic import cell_rng, one_query
    from repro.run.timing import fit_exponent
    params = dict(decl.ARTIFACTS[3].layout.params, sizes=[60, 240], levels=[2, "l"], repeats=2,
                  max_pairs=1e4, fit_from=50, pairs_fit_from=50, min_seconds=0.0)
    c = ctx("task_complexity", "synthetic", params)
    out = mod.task_complexity(c)
    assert set(out["curves"]) == {"2", "l"}
    for k in ("2", "l"):
        cur = out["curves"][k]
        assert all(t > 0 for m in ("direct", "joachims", "tree") for t in cur[m])
        assert cur["pairs"][-1] is None and cur["pairs"][0] > 0      # 240²/2 > max_pairs
        assert all(len(r) == 2 for r in out["rounds"][k]["tree"])
        assert max(out["max_rel_diff"][k]) < 1e-12
    diff = [r for r in out["records"] if r["metric"].startswith("max relative difference")]
    assert len(diff) == 2 and all(r["value"] < 1e-12 for r in diff)
    got = {(r["method"], r["metric"]): r for r in out["records"] if "exponent" in r["metric"]}
    assert not any(m == "explicit pairs" for m, _ in got)            # one size only: no fit
    for k in (2, "l"):
        for m, label in (("tree", "(c) order-statistic tree"), ("direct", "(a) direct counting")):
            want = []
            for l in (60, 240):
                X, y, qp, w, _ = one_query(l, l if k == "l" else k, params["n_features"],
                                           cell_rng(c.seed, l, k))
                s, t, lv = operation_counts(m, X @ w, y, qp)
                want.append(s + 2 * t + 2 * lv)
            assert out["counts"][str(k)][m] == want
            rec = got[(label, f"exponent in l (k = {k})")]
            assert rec["value"] == pytest.approx(fit_exponent([60, 240], want), abs=1e-12)
            tim = got[(label, f"time exponent in l (k = {k})")]
            assert tim["ci95"][0] <= tim["value"] <= tim["ci95"][1]
    # explicit pairs: every pair for f, those inside the margin twice more
    X, y, qp, w, _ = one_query(60, 60, params["n_features"], cell_rng(c.seed, 60, "l"))
    H, L = pairs(y, qp)
    assert out["counts"]["l"]["pairs"][0] == len(H) + 2 * int(np.sum(1 - X[H] @ w + X[L] @ w > 0))
    wider = mod.task_complexity(ctx("task_complexity", "synthetic",
                                    dict(params, sizes=[60, 120, 240], levels=["l", 5, 2],
                                         repeats=1)))
    for k in ("2", "l"):
        assert wider["f"][k][0] == out["f"][k][0] and wider["f"][k][2] == out["f"][k][1]
        assert wider["counts"][k]["tree"][::2] == out["counts"][k]["tree"]
        assert wider["counts"][k]["pairs"][0] == out["counts"][k]["pairs"][0]

    class Res:
        status = "done"
        output = out
    fig = figures.figure_complexity(decl.ARTIFACTS[3], {"run": Res()}, out["records"],
                                    PUB)[""]
    labels = [t.get_text() for ax in fig.axes for t in ax.get_legend().get_texts()]
    assert any(t.startswith("(c) tree (") and "[" not in t for t in labels)   # counts
    assert any(t.startswith("(c) tree (") and "[" in t for t in labels)       # times


def test_count_exponent_of_exact_squares_is_two():
    """The fit the records use gives the exponent of exact power laws to rounding: the
    explicit-pair count l(l − 1)/2 (k = l, every pair once) fits 2 + O(1/l), and c·l² fits
    2 to 1e-6."""
    from repro.run.timing import fit_exponent
    ls = [1000, 2000, 4000, 8000]
    assert fit_exponent(ls, [3 * l * l for l in ls]) == pytest.approx(2.0, abs=1e-6)
    half = fit_exponent(ls, [l * (l - 1) // 2 for l in ls])
    assert 2.0 < half < 2.0 + 1e-3


def test_table_i_labels_and_no_pairs(monkeypatch):
    """Method labels carry params["C"] (the published key at the default); a training set
    without pairs gives a NaN percentage (stored as null); no timing in the records."""
    from repro.data.queries import QueryData
    from repro.files import jsonable
    assert mod.c_label("2^20") == "2^20" and mod.c_label(2.0 ** 20) == "2^20"
    assert mod.c_label(0.5) == "2^-1" and mod.c_label(3.0) == "3"
    table = decl.ARTIFACTS[1]
    pub_methods = {v.key[2] for v in PUB.for_artifact("tableI")}
    assert f"TRON, C = {mod.c_label(table.layout.params['C'])}" in pub_methods
    flat = QueryData(np.arange(8.0).reshape(4, 2), np.array([1.0, 1.0, 0.0, 2.0]),
                     [0, 2, 3, 4], [1, 2, 3])            # one level / one document per query
    monkeypatch.setattr(table_i, "load_split", lambda *a: flat)
    params = dict(table.layout.params, C="2^3", eps_sensitivity=[1e-3])
    out = mod.task_table_i(ctx("task_table_i", "MQ2008", params, fold=1))
    got = keyed("tableI", out["records"], dataset="MQ2008")
    pct = got[("tableI", "MQ2008", "TRON, C = 2^3", "zero dual variables (%)", "1")]
    assert isinstance(pct, float) and np.isnan(pct)
    assert ("tableI", "MQ2008", "TRON, C = 2^3, ε = 0.001", "zero dual variables (%)", "1") in got
    for r in out["records"]:
        if r["metric"] == "zero dual variables (%)":
            assert jsonable(r)["value"] is None and r["why"] == "the training set has no pairs"
    assert not any("seconds" in r for r in out["records"])
    assert all(d["seconds"] >= 0 for d in out["solves"])


def yahoo_ndcg10_loop(y, s, qp):
    """The plain per-query loop (the authors' ndcg.m, one query at a time)."""
    vals = []
    for q in range(len(qp) - 1):
        a, b = qp[q], qp[q + 1]
        yq = y[a:b]
        ranked = yq[np.argsort(-s[a:b], kind="stable")][:10]
        ideal = np.sort(yq)[::-1][:10]
        disc = 1.0 / np.log2(np.arange(2, ranked.size + 2))
        idcg = float((2.0 ** ideal - 1) @ disc)
        vals.append(1.0 if idcg == 0 else float((2.0 ** ranked - 1) @ disc) / idcg)
    return float(np.mean(vals))


@pytest.mark.parametrize("seed", range(6))
def test_yahoo_ndcg10_equals_per_query_loop(seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, 25, 40)
    sizes[:4] = [1, 0, 2, 10]                    # one document, an empty query, short, exactly 10
    qp = np.concatenate([[0], np.cumsum(sizes)])
    n = int(qp[-1])
    y = rng.integers(0, 5, n).astype(float)
    y[qp[4]:qp[5]] = 0.0                          # ideal DCG 0 → 1
    s = rng.integers(-3, 4, n) / 2.0 if seed % 2 else rng.normal(size=n)   # ties in scores
    assert yahoo_ndcg10(y, s, qp) == pytest.approx(yahoo_ndcg10_loop(y, s, qp), rel=1e-13)


def test_yahoo_ndcg_and_scaling():
    y = np.array([2.0, 0.0, 1.0, 0.0, 0.0])
    s = np.array([0.1, 0.9, 0.5, 0.3, 0.2])
    qp = np.array([0, 3, 5])
    # query 1: ranked labels (0, 1, 2), ideal (2, 1, 0); query 2 has no relevant document → 1
    dcg = 1 / np.log2(3) + 3 / np.log2(4)
    idcg = 3 + 1 / np.log2(3)
    assert yahoo_ndcg10(y, s, qp) == pytest.approx((dcg / idcg + 1) / 2)
    from repro.data.queries import QueryData
    tr = QueryData(np.array([[0.0, 5, 1], [2.0, 5, 3], [4.0, 5, 2]]), np.zeros(3), [0, 3], [1])
    te = QueryData(np.array([[6.0, 1, 2]]), np.zeros(1), [0, 1], [2])
    a, b = mod.scale_like(tr, te)
    np.testing.assert_allclose(a.X, [[0, 0, 0], [0.5, 0, 1], [1, 0, 0.5]])
    np.testing.assert_allclose(b.X, [[1.5, 0, 0.5]])


def test_declarations():
    names = [a.name for a in decl.ARTIFACTS]
    assert names == ["sectionII", "tableI", "figureII", "complexity"]
    for art in decl.ARTIFACTS:
        for ds in art.datasets:
            if ds != "synthetic":
                assert cat.dataset(ds).kind == "letor"
        assert art.runs() and art.runs(quick=True)
    p = decl.PROTOCOL
    assert set(p["figure_II_C_L1"]) <= set(p["figure_II_C_L2"]) == set(decl.ARTIFACTS[2].datasets)
    # one run per fold of Table (I), plus all of the data; Yahoo has no folds
    runs = decl.ARTIFACTS[1].runs()
    assert [s.fold for s in runs if s.dataset == "MQ2008"] == [1, 2, 3, 4, 5, "all"]
    assert [s.fold for s in runs if s.dataset == "Yahoo-set2"] == [None]
