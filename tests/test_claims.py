"""The claim engine (repro.judge.claims): pairing per-query tables, comparisons, the two
judgement rules (variants with Holm; "beats every" as an intersection–union test), and the
words of a claim's record."""
import math

import numpy as np
import pytest
from scipy import stats

from repro.evidence import TableIndex
from repro.judge import claims as E
from repro.judge.stats import Paired, holm
from repro.judge.verdicts import Verdict
from repro.spec import Artifact


def _cmp(a, p, effect=0.01, b="X", sign=1):
    return E.Comparison(a, b, Paired(effect, (effect, effect), p, 50, "t"), sign=sign)


def test_compare_is_scipy_s_paired_and_one_sample_t_test():
    rng = np.random.default_rng(1)
    x, y = rng.normal(0.5, 0.1, 30), rng.normal(0.45, 0.1, 30)
    c = E.compare("a", "b", x, y, "seed text")
    assert c.res.p_value == pytest.approx(stats.ttest_rel(x, y).pvalue)
    assert c.res.effect == pytest.approx(np.mean(x - y)) and c.p_adj == c.res.p_value
    one = E.compare("a", "0", x, np.zeros_like(x), "seed text")
    assert one.res.p_value == pytest.approx(stats.ttest_1samp(x, 0.0).pvalue)
    # the seed is the text's: the same text, the same interval
    assert E.compare("a", "b", x, y, "seed text").res.ci95 == c.res.ci95
    assert E.compare("a", "b", x, y, "another").res.ci95 != c.res.ci95


def test_variants_are_holm_adjusted_and_the_binding_is_the_closest_call():
    j = E.judge_variants({"A": [_cmp("A", 0.02)], "B": [_cmp("B", 0.5)], "C": [_cmp("C", 0.9)]})
    assert j.adjusted and j.outcome is Verdict.NOT_SIGNIFICANT
    assert [c.p_adj for c in j.comparisons] == pytest.approx(holm([0.02, 0.5, 0.9]))
    j = E.judge_variants({"A": [_cmp("A", 0.001), _cmp("A", 0.004)], "B": [_cmp("B", 0.5)]})
    assert j.outcome is Verdict.HOLDS and j.binding.a == "A"
    assert j.p_value == j.binding.p_adj == pytest.approx(0.008)       # 0.004 × 2 (Holm)
    # every variant must: one short of significance fails the claim and binds it
    j = E.judge_variants({"A": [_cmp("A", 0.001)], "B": [_cmp("B", 0.3)]}, every=True)
    assert j.outcome is Verdict.NOT_SIGNIFICANT and j.binding.a == "B"
    # one comparison: no adjustment
    j = E.judge_variants({"A": [_cmp("A", 0.03)]})
    assert not j.adjusted and j.outcome is Verdict.HOLDS and j.p_value == 0.03


def test_beats_every_is_an_intersection_union_test():
    comps = [_cmp("S", 0.01, 0.10, "X"), _cmp("S", 0.04, 0.02, "Y"), _cmp("S", 0.001, 0.3, "Z")]
    j = E.judge_every(comps)
    # no adjustment; holds; the closest competitor shown, p the largest of the comparisons
    assert j.outcome is Verdict.HOLDS and not j.adjusted
    assert j.binding.b == "Y" and j.p_value == 0.04
    j = E.judge_every(comps[:2] + [_cmp("S", 0.2, 0.01, "Z")])
    assert j.outcome is Verdict.NOT_SIGNIFICANT and j.binding.b == "Z" and j.p_value == 0.2
    j = E.judge_every(comps + [_cmp("S", 0.02, -0.05, "W"), _cmp("S", 0.001, -0.01, "V")])
    assert j.outcome is Verdict.CONTRADICTED and j.binding.b == "V"     # most significant
    # "smaller is better": the sign of the claim
    j = E.judge_every([_cmp("S", 0.01, -0.1, "X", sign=-1)])
    assert j.outcome is Verdict.HOLDS


def test_aligned_pairs_by_query_id_within_folds_and_pools():
    art = Artifact("p", "t", "t", datasets=("A", "B"), folds=(1, 2))
    tables = []
    for ds in ("A", "B"):
        for f in ("1", "2"):
            qids = [f"{ds}{f}-{i}" for i in range(3)]
            for m, shift in (("x", 0.0), ("y", 0.1)):
                vals = [0.1 * i + shift for i in range(3)]
                if m == "y":                       # another order, one query undefined
                    qids_m, vals = qids[::-1], vals[::-1]
                    vals[0] = None
                else:
                    qids_m = qids
                tables.append({"dataset": ds, "fold": f, "method": m, "metric": "MAP",
                               "part": "p", "qids": qids_m, "values": vals})
    index = TableIndex(tables)
    x = E.aligned(art, index, ("A", "B"), {"part": "p"}, ("x", "y"), "MAP")
    assert x.shape == (12, 2)
    ok = ~np.isnan(x[:, 1])
    assert np.allclose(x[ok, 1] - x[ok, 0], 0.1) and (~ok).sum() == 4
    assert E.aligned(art, index, ("A",), {"part": "q"}, ("x",), "MAP") is None
    assert E.mean_of(art, index, "A", {"part": "p"}, "x", "MAP") == pytest.approx(0.1)


def test_words_of_a_record():
    j = E.judge_variants({"A": [_cmp("A", 0.001)], "B": [_cmp("B", 0.5)]})
    assert E.describe_test(j, 100, 5).startswith(
        "paired t-test over 100 test queries pooled over 5 folds (scipy.stats.ttest_rel)")
    assert "2 comparisons, p-values adjusted by Holm's method" in E.describe_test(j, 100, 5)
    assert E.describe_test(E.judge_variants({"A": [_cmp("A", 0.01)]}), 9, 3, what="t of x") \
        .startswith("t of x, over 9 test queries")
    note = E.binding_note("binding", "5.2", "3 of 4", j, {"A": 0.5, "X": 0.4})
    assert note.startswith("§5.2; paper: 3 of 4. Binding comparison A − X (means 0.5000 vs "
                           "0.4000): mean per-query difference +0.0100")
    assert note.endswith("p = 0.002 (Holm-adjusted)")
    assert E.binding_note("difference", "5.3", "Fig. 4", None) is None
    assert E.binding_note("binding", "5.3", "Fig. 4", None) == "§5.3; paper: Fig. 4"


def test_claim_and_summary_records():
    j = E.judge_variants({"A": [_cmp("A", 0.001)], "B": [_cmp("B", 0.5)]})
    r = E.claim_record("A beats X", "5", "n", "D", "MAP", j, "test", {}, {"part": "c"})
    assert r["outcome"] == "holds" and r["value"] == r["effect"] == 0.01
    assert r["p_value"] == j.p_value and r["compared"] == "A − X" and r["part"] == "c"
    assert len(r["comparisons"]) == 2 and r["p_unadjusted"] == 0.001
    u = E.claim_record("A beats X", "5", "n", "D", "NDCG", None, "", {}, {}, why="no data")
    assert u["outcome"] == "not testable here" and math.isnan(u["value"]) and u["n_queries"] == 0
    s = E.summary_record("A beats X", "5", "n", [r, u], {"part": "c"})
    assert s["counts"] == {"holds": 1, "contradicted": 0, "not significant here": 0,
                           "not testable here": 1, "holds against deviating baselines": 0}
    assert s["value"] == 1.0 and s["testable_cells"] == 1 and s["dataset"] == "all"
