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


# --- issue 25: contradictions adjusted, the family, deviating comparators, p-values -----------

def test_a_contradiction_among_several_comparisons_is_holm_adjusted():
    comps = [_cmp("S", 0.3, 0.01, b) for b in "WXYZ"] + [_cmp("S", 0.02, -0.05, "V")]
    j = E.judge_every(comps)
    # unadjusted, 0.02 the other way would contradict; five comparisons may: 0.02 × 5 = 0.1
    assert j.outcome is Verdict.NOT_SIGNIFICANT
    j = E.judge_every([_cmp("S", 0.3, 0.01, "W")] + [_cmp("S", 0.004, -0.05, "V")])
    assert j.outcome is Verdict.CONTRADICTED and j.adjusted
    assert j.p_value == pytest.approx(0.008) and j.binding.b == "V"


def _claim(statement, p, outcome="holds", **extra):
    return {"claim": True, "statement": statement, "method": statement, "metric": "MAP",
            "dataset": "D", "fold": None, "section": "5", "outcome": outcome, "p_value": p,
            "value": 0.01, "effect": 0.01, **extra}


def test_the_paper_s_claims_are_one_family_adjusted_by_holm():
    recs = [_claim("a", 0.01), _claim("b", 0.03), _claim("c", 0.04, "contradicted"),
            _claim("d", 0.5, "not significant here"), _claim("e", float("nan"),
                                                             "not testable here")]
    recs.append(E.summary_record("a", "5", "n", [recs[0]], {}))
    recs.append(_claim("p < 0.0001", 1e-5, requires=["b"], bound=1e-4))
    E.finish(_art(), recs, [])
    a, b, c, d, e, summary, bound = recs
    assert [r["p_value"] for r in (a, b, c, d)] == pytest.approx(holm([0.01, 0.03, 0.04, 0.5]))
    assert a["outcome"] == "holds" and a["p_claim"] == 0.01 and a["p_unadjusted"] == 0.01
    assert b["outcome"] == "not significant here" and b["outcome_alone"] == "holds"
    assert c["outcome"] == "not significant here" and c["outcome_alone"] == "contradicted"
    assert "Holm's adjustment across the 4 tested claims" in a["adjustment"]
    assert "p_claim" not in e and e["outcome"] == "not testable here"
    # a bound on p-values is no test of its own: it holds only if what it requires holds
    assert "p_claim" not in bound and bound["outcome"] == "not significant here"
    assert summary["value"] == 1.0 and summary["counts"]["holds"] == 1


def _art():
    return Artifact("fakepaper", "claims", "t", datasets=("D",), task="task", folds=(1, 2))


def _pub(values):
    from repro.judge.published import PublishedSet, PublishedValue
    return PublishedSet("fakepaper", [PublishedValue("table1", "D", m, "MAP", None, t, "T1")
                                      for m, t in values.items()])


def test_a_claim_against_baselines_weaker_than_published_is_no_support():
    ours = {"S": 90.0, "X": 3.7, "Y": 30.0, "Z": 40.0}
    recs = [{"dataset": "D", "method": m, "metric": "MAP", "fold": None, "value": v}
            for m, v in ours.items()]

    def holding(opponents):
        cells = [E.compared_cell({"dataset": "D", "method": m, "metric": "MAP"}, None, role)
                 for m, role in [("S", "subject")] + [(o, "opponent") for o in opponents]]
        return _claim("S above every baseline", 1e-6, compared_cells=cells)
    pub = _pub({"S": "76.1", "X": "26.1", "Y": "30.0", "Z": "35.0"})
    weak, fine, strong = holding(["X", "Y"]), holding(["Y"]), holding(["Z"])
    E.finish(_art(), recs + [weak, fine, strong], [], pub)
    assert weak["outcome"] == "holds against deviating baselines"
    assert weak["outcome_alone"] == "holds"
    (x,) = [g for g in weak["deviating"] if g["method"] == "X"]
    assert x["favours_claim"] and x["published"] == "26.1" and x["value"] == 3.7
    assert "not counted as support" in weak["why"]
    assert fine["outcome"] == "holds" and [g["method"] for g in fine["deviating"]] == ["S"]
    # a baseline stronger here than published makes the claim harder: it still holds
    assert strong["outcome"] == "holds"
    assert not next(g for g in strong["deviating"] if g["method"] == "Z")["favours_claim"]


def test_p_values_are_written_to_a_floor():
    from repro.judge.stats import p_words
    assert p_words(1.9e-52) == "p < 1e-4" and p_words(0.0123) == "p = 0.012"
    assert p_words(float("nan")) == "p = n/a"


def test_the_sign_flip_test_is_exact_for_few_units():
    import itertools
    from repro.judge.stats import paired, sign_flip
    d = np.array([0.3, -0.1, 0.25, 0.4, 0.05, 0.2, -0.05, 0.15])
    ref = np.mean([abs(np.mean(d * s)) >= abs(d.mean()) - 1e-12
                   for s in itertools.product((1, -1), repeat=d.size)])
    assert sign_flip(d, seed=1) == pytest.approx(ref)
    res = paired(d, np.zeros_like(d), seed=1)
    assert res.p_permutation == pytest.approx(ref)                  # n < 30: beside it
    assert paired(np.r_[d, d, d, d], np.zeros(32), seed=1).p_permutation is None
