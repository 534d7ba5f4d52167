"""Rules over a column (repro.judge.columns): context beside each cell's own verdict, never
instead of it — identical evidence marked (``same_as``), the column's offset (t-test, Holm
across the artifact's columns, the sign test beside it, what shares it), each cell's verdict
after removing a significant offset, and the ordering of the methods (Kendall's τ-b on values
rounded to the paper's precision, none under four cells)."""
import numpy as np
import pytest
from scipy import stats

from repro.judge import columns
from repro.judge.verdicts import RULE, Verdict
from repro.report.verdicts import bucket
from repro.spec import Artifact, RunLayout

REPRODUCED, INCONCLUSIVE, DEVIATES = (Verdict.REPRODUCED.value, Verdict.INCONCLUSIVE.value,
                                      Verdict.DEVIATES.value)


def _art():
    return Artifact(
        "p", "fig", "t", task="task",
        layout=RunLayout(datasets=("D",), folds=(1, 2)))


def _verdict(d, margin):
    """The rule on an exact d (no uncertainty): reproduced inside ±δ, deviates beyond."""
    return REPRODUCED if abs(d) <= margin else DEVIATES


def _cell(method, value, published, verdict=None, metric="MAP", margin=0.01, decimals=3,
          **extra):
    d = value - published
    return {"paper": "p", "artifact": "fig", "dataset": "D", "method": method,
            "metric": metric, "fold": "avg", "value": value,
            "published": f"{published:.{decimals}f}", "diff": d, "d": d,
            "margin": margin, "margin_basis": "resolution", "uncertainty": [],
            "verdict": verdict or _verdict(d, margin), **extra}


def _tables(method, values, metric="MAP", repeat=None):
    return [{"method": method, "metric": metric, "fold": str(f), "dataset": "D",
             "qids": [0, 1, 2], "values": list(v), **({} if repeat is None else
                                                        {"repeat": repeat})}
            for f, v in zip((1, 2), values)]


def _holm2(p, q):
    lo, hi = sorted((p, q))
    first = min(1.0, 2 * lo)
    return (first, max(first, hi)) if p <= q else (max(first, hi), first)


def test_cells_with_identical_per_query_values_are_marked_and_keep_their_verdicts():
    same = ([0.2, 0.4, 0.6], [0.8, 0.2, 0.5])
    other = ([0.3, 0.4, 0.6], [0.8, 0.2, 0.5])
    mean = float(np.mean([np.mean(v) for v in same]))
    flat = [_cell("B", mean, 0.50, INCONCLUSIVE), _cell("A", mean, 0.50, DEVIATES),
            _cell("C", float(np.mean([np.mean(v) for v in other])), 0.50, INCONCLUSIVE),
            _cell("A", mean, 0.50, INCONCLUSIVE, metric="NDCG")]
    tables = (_tables("A", same) + _tables("B", same) + _tables("C", other)
              + _tables("A", same, "NDCG"))
    columns.same_evidence(_art(), flat, tables, {"A": 0, "B": 1, "C": 2})
    b, a, c, a_ndcg = flat
    # A comes first in the paper's order; B says whose evidence it is, and keeps its verdict
    assert "same_as" not in a and b["same_as"] == "A"
    assert a["verdict"] == DEVIATES and b["verdict"] == INCONCLUSIVE
    assert bucket(b) == "inconclusive"                   # counted as its own comparison
    assert "same_as" not in c and "same_as" not in a_ndcg


def test_replicates_must_all_coincide_for_the_same_evidence():
    vals = ([0.2, 0.4, 0.6], [0.8, 0.2, 0.5])
    shifted = ([0.3, 0.4, 0.6], [0.8, 0.2, 0.5])
    rep = {"replicates": 2, "replicate_values": [0.5, 0.5]}
    mean_tables = _tables("A", vals) + _tables("B", vals)
    tables = (mean_tables + _tables("A", vals, repeat=0) + _tables("A", vals, repeat=1)
              + _tables("B", vals, repeat=0) + _tables("B", shifted, repeat=1))
    mean = float(np.mean([np.mean(v) for v in vals]))
    flat = [_cell("A", mean, 0.5, INCONCLUSIVE, **rep), _cell("B", mean, 0.5, INCONCLUSIVE, **rep)]
    columns.same_evidence(_art(), flat, tables, {"A": 0, "B": 1})
    assert all("same_as" not in r for r in flat)          # replicate 1 differs
    tables = tables[:-2] + _tables("B", vals, repeat=1)
    columns.same_evidence(_art(), flat, tables, {"A": 0, "B": 1})
    assert flat[1]["same_as"] == "A"


def _removed_by_hand(d, mean, se, n, margin):
    """TOST of d − offset with the offset's standard error (n − 1 df) as d's only
    uncertainty: reproduced when the 90 % interval lies inside ±δ, deviates when the 95 %
    interval lies beyond."""
    x = d - mean
    h90 = stats.t.ppf(0.95, n - 1) * se
    h95 = stats.t.ppf(0.975, n - 1) * se
    if max(abs(x - h90), abs(x + h90)) <= margin:
        return REPRODUCED
    if x - h95 > margin or x + h95 < -margin:
        return DEVIATES
    return INCONCLUSIVE


def test_an_offset_is_context_each_cell_keeps_its_verdict_and_gets_one_offset_removed():
    rng = np.random.default_rng(0)
    pub = rng.uniform(0.4, 0.6, 10)
    ours = pub - 0.03 + rng.normal(0, 0.004, 10)
    ours[9] = pub[9] + 0.02                               # one cell on the other side
    flat = [_cell(f"m{i}", float(o), float(p)) for i, (o, p) in enumerate(zip(ours, pub))]
    before = [r["verdict"] for r in flat]
    mixed = [_cell(f"m{i}", 0.5 + (0.01 if i % 2 else -0.01), 0.5, metric="NDCG", margin=0.02)
             for i in range(6)]
    recs = columns.offsets("p", "fig", flat + mixed, {})
    by_metric = {r["metric"]: r for r in recs}
    off_rec = by_metric["MAP"]
    assert off_rec["verdict"] == Verdict.COLUMN.value and off_rec["column"] is True
    assert bucket(off_rec) == "columns"
    # each cell keeps its own verdict (the offset is context, never instead of it)
    assert [r["verdict"] for r in flat] == before
    assert before.count(DEVIATES) == 10                   # |d| > 0.01 everywhere
    d = np.array([r["d"] for r in flat])
    o = off_rec["offset"]
    n = d.size
    se = d.std(ddof=1) / np.sqrt(n)
    assert o["mean"] == pytest.approx(d.mean()) and o["se"] == pytest.approx(se)
    h = stats.t.ppf(0.975, n - 1) * se
    assert o["ci95"] == pytest.approx([d.mean() - h, d.mean() + h])
    assert o["below"] == 9 and o["above"] == 1 and o["within_margin"] == 0
    assert o["sign_p_value"] == pytest.approx(stats.binomtest(1, 10, 0.5).pvalue)
    t_p = stats.ttest_1samp(d, 0.0).pvalue
    nd = np.array([r["d"] for r in mixed])
    assert o["t_p_value"] == pytest.approx(t_p) and o["test"] == "t-test"
    assert o["family"] == 2
    assert o["p_holm"] == pytest.approx(_holm2(t_p, stats.ttest_1samp(nd, 0).pvalue)[0])
    assert o["significant"] is True
    # what shares the offset: the methods on its side beyond their margin
    assert sorted(o["shared_by"]["methods"]) == [f"m{i}" for i in range(9)]
    assert o["shared_by"]["others"] == ["m9"] and o["shared_by"]["all"] is False
    # the verdict with the offset removed, against a hand computation
    hand = [_removed_by_hand(r["d"], d.mean(), se, n, 0.01) for r in flat]
    assert [r["verdict_offset_removed"] for r in flat] == hand
    assert hand[9] == DEVIATES and INCONCLUSIVE in hand   # the outlier widens the offset's se
    assert all(r["column_offset"] == pytest.approx(d.mean()) for r in flat)
    # an insignificant offset: no offset-removed verdicts
    ndcg = by_metric["NDCG"]["offset"]
    assert ndcg["significant"] is False
    assert [r["verdict"] for r in mixed] == [REPRODUCED] * 6      # |d| < δ
    assert all("verdict_offset_removed" not in r for r in mixed)


def test_an_offset_shared_by_every_method_says_so():
    flat = [_cell(f"m{i}", 0.5 - 0.03 - 0.002 * i, 0.5) for i in range(6)]
    (rec,) = columns.offsets("p", "fig", flat, {})
    assert rec["offset"]["shared_by"]["all"] is True
    assert rec["offset"]["shared_by"]["others"] == []


def test_the_offset_is_decided_by_the_mean_not_by_counting_signs():
    """Nine of eleven cells below by about 0.04 (sign test p = 0.065) is a significant offset
    of the mean (t-test p ≈ 0.005), and one more distinct cell below does not change that."""
    diffs = [-0.09, -0.07, -0.06, -0.05, -0.05, -0.04, -0.04, -0.03, -0.02, 0.01, 0.005]
    for extra in ([], [-0.045]):
        flat = [_cell(f"m{i}", 0.5 + d, 0.5, margin=0.001) for i, d in
                enumerate(diffs + extra)]
        (rec,) = columns.offsets("p", "fig", flat, {})
        o = rec["offset"]
        assert o["test"] == "t-test" and o["p_holm"] < 0.05 and o["significant"], o
        assert all("verdict_offset_removed" in r for r in flat)
    assert stats.binomtest(9, 11).pvalue > 0.05 > stats.binomtest(10, 12).pvalue


def test_the_offset_removed_verdict_can_reproduce_what_the_cell_alone_does_not():
    """A column uniformly 0.03 below the paper (margin 0.01): every cell deviates alone, and
    each is reproduced up to the column's offset when the offset is tight."""
    flat = [_cell(f"m{i}", 0.5 - 0.03 + 0.0005 * ((-1) ** i), 0.5) for i in range(8)]
    (rec,) = columns.offsets("p", "fig", flat, {})
    assert rec["offset"]["significant"]
    assert all(r["verdict"] == DEVIATES for r in flat)
    assert all(r["verdict_offset_removed"] == REPRODUCED for r in flat)


def test_too_few_cells_cannot_make_an_offset_verdict():
    flat = [_cell(f"m{i}", 0.4, 0.5) for i in range(4)]     # identical d: no t-test
    (rec,) = columns.offsets("p", "fig", flat, {})
    assert rec["offset"]["test"] == "sign test"
    assert rec["offset"]["sign_p_value"] == pytest.approx(0.125)
    assert rec["offset"]["significant"] is False
    assert all(r["verdict"] == DEVIATES and "verdict_offset_removed" not in r for r in flat)


def test_the_ordering_of_the_methods_and_the_pairs_that_swap():
    flat = [_cell("A", 0.60, 0.70), _cell("B", 0.65, 0.60), _cell("C", 0.50, 0.50),
            _cell("D", 0.40, 0.45)]
    (rec,) = columns.offsets("p", "fig", flat, {"A": 0, "B": 1, "C": 2, "D": 3})
    (od,) = rec["orderings"]
    ref = stats.kendalltau([0.70, 0.60, 0.50, 0.45], [0.60, 0.65, 0.50, 0.40])
    assert od["kendall_tau"] == pytest.approx(ref.statistic) and od["methods"] == 4
    assert od["swaps"] == [["A", "B"]]                    # A above B published, below here


def test_kendall_tau_is_on_values_rounded_to_the_paper_s_precision():
    """A 1-ulp difference (and any difference below the paper's last printed digit) is a tie,
    not an order: no swap, and τ-b counts the tie."""
    b_ours = float(np.nextafter(0.6, 1.0))
    assert b_ours > 0.6
    flat = [_cell("A", 0.6, 0.70), _cell("B", b_ours, 0.60), _cell("C", 0.5, 0.50),
            _cell("D", 0.4, 0.45)]
    (rec,) = columns.offsets("p", "fig", flat, {"A": 0, "B": 1, "C": 2, "D": 3})
    (od,) = rec["orderings"]
    tied = stats.kendalltau([0.70, 0.60, 0.50, 0.45], [0.6, 0.6, 0.5, 0.4]).statistic
    unrounded = stats.kendalltau([0.70, 0.60, 0.50, 0.45], [0.6, b_ours, 0.5, 0.4]).statistic
    assert tied != pytest.approx(unrounded)
    assert od["kendall_tau"] == pytest.approx(tied)
    assert od["swaps"] == []
    # two decimals printed: 0.604 and 0.596 are both 0.60 at the paper's precision
    flat = [_cell("A", 0.596, 0.70, decimals=2), _cell("B", 0.604, 0.60, decimals=2),
            _cell("C", 0.5, 0.50, decimals=2), _cell("D", 0.4, 0.45, decimals=2)]
    (rec,) = columns.offsets("p", "fig", flat, {"A": 0, "B": 1, "C": 2, "D": 3})
    (od,) = rec["orderings"]
    assert od["kendall_tau"] == pytest.approx(tied) and od["swaps"] == []


def test_no_ordering_under_four_cells():
    flat = [_cell("A", 0.60, 0.70), _cell("B", 0.65, 0.60), _cell("C", 0.50, 0.50)]
    (rec,) = columns.offsets("p", "fig", flat, {"A": 0, "B": 1, "C": 2})
    assert rec["orderings"] == []
    assert columns.MIN_ORDERED == 4
    (rec,) = columns.offsets("p", "fig", flat + [_cell("D", 0.4, 0.45)], {})
    assert len(rec["orderings"]) == 1


def test_only_reproductions_on_the_paper_s_data_make_a_column():
    flat = [_cell("A", 0.4, 0.5), _cell("B", 0.4, 0.5),
            _cell("C", 0.4, 0.5, Verdict.STAND_IN.value, stand_in=True),
            _cell("D", 0.4, 0.5, Verdict.DERIVED.value, kind="derived"),
            _cell("E", 0.4, 0.5, Verdict.UNVERIFIED.value),
            _cell("F", 0.4, 0.5, Verdict.INCONSISTENT.value, kind="consistency")]
    (rec,) = columns.offsets("p", "fig", flat, {})
    assert rec["offset"]["cells"] == 2
    assert columns.offsets("p", "fig", flat[2:], {}) == []
    assert {v.value for v in RULE} == {REPRODUCED, INCONCLUSIVE, DEVIATES}


def test_identical_evidence_counts_once_in_the_offset_and_keeps_its_verdict():
    """A cell identical to another (``same_as``) keeps its verdict and gets its offset-removed
    one like the rest; the offset's mean is over the distinct cells."""
    flat = [_cell(f"m{i}", 0.5 - 0.03 - 0.002 * i, 0.5) for i in range(8)]
    flat[3]["same_as"] = "m2"
    (rec,) = columns.offsets("p", "fig", flat, {})
    o = rec["offset"]
    assert o["distinct"] == 7 and o["cells"] == 8
    distinct = [r["d"] for i, r in enumerate(flat) if i != 3]
    assert o["mean"] == pytest.approx(np.mean(distinct))
    assert flat[3]["verdict"] == DEVIATES and flat[3]["same_as"] == "m2"
    assert all("verdict_offset_removed" in r for r in flat)
