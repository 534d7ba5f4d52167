"""The claim engine (repro.judge.claims): claims judged as replications.  Pairing per-query
tables, comparisons, a claim's own test (intersection–union for "beats every", the union over
variants), the record (our effect beside the paper's, the effect ratio), each outcome on
constructed cases (replicated / reversed / not replicated / inconclusive / not testable), the
families (Holm over the key claims, Benjamini–Hochberg over the others), duplicates merged,
claims stated as counts tested by a sign test over their cells, and fold claims decided by
the exact sign-flip test."""
import itertools
import math

import numpy as np
import pytest
from scipy import stats

from repro.evidence import TableIndex
from repro.judge import claims as E
from repro.judge.stats import Paired, holm
from repro.judge.verdicts import Outcome
from repro.spec import Artifact, RunLayout

REPLICATED, NOT_REPLICATED, REVERSED, INCONCLUSIVE, NOT_TESTABLE = (
    o.value for o in (Outcome.REPLICATED, Outcome.NOT_REPLICATED, Outcome.REVERSED,
                      Outcome.INCONCLUSIVE, Outcome.NOT_TESTABLE))


def _cmp(a, p, effect=0.01, b="X", sign=1):
    return E.Comparison(a, b, Paired(effect, (effect, effect), p, 50, "t"), sign=sign)


def _art():
    return Artifact(
        "fakepaper", "claims", "t", task="task",
        layout=RunLayout(datasets=("D",), folds=(1, 2)))


# --- comparisons and a claim's own test ---------------------------------------------------------

def test_compare_is_scipy_s_paired_and_one_sample_t_test():
    rng = np.random.default_rng(1)
    x, y = rng.normal(0.5, 0.1, 30), rng.normal(0.45, 0.1, 30)
    c = E.compare("a", "b", x, y, "seed text")
    assert c.res.p_value == pytest.approx(stats.ttest_rel(x, y).pvalue) and c.p == c.res.p_value
    assert c.res.effect == pytest.approx(np.mean(x - y)) and c.favours
    one = E.compare("a", "0", x, np.zeros_like(x), "seed text")
    assert one.res.p_value == pytest.approx(stats.ttest_1samp(x, 0.0).pvalue)
    # the seed is the text's: the same text, the same interval
    assert E.compare("a", "b", x, y, "seed text").res.ci95 == c.res.ci95
    assert E.compare("a", "b", x, y, "another").res.ci95 != c.res.ci95
    # "smaller is better": the claimed sign turns the effect
    d = E.compare("a", "b", x, y, "seed text", sign=-1).as_dict()
    assert d["effect"] == pytest.approx(-np.mean(x - y)) and not E.compare(
        "a", "b", x, y, "s", sign=-1).favours
    assert d["effect_ci95"][0] <= d["effect"] <= d["effect_ci95"][1]


def test_some_variant_beats_every_opponent_is_a_union_over_variants():
    """The best variant's intersection–union p times the number of variants (one test, not
    an adjustment across the paper's claims)."""
    j = E.judge_variants({"A": [_cmp("A", 0.02)], "B": [_cmp("B", 0.5)], "C": [_cmp("C", 0.9)]})
    assert j.p_value == pytest.approx(0.06) and j.direction == 1 and j.binding.a == "A"
    j = E.judge_variants({"A": [_cmp("A", 0.001), _cmp("A", 0.004)], "B": [_cmp("B", 0.5)]})
    assert j.binding.a == "A" and j.p_value == pytest.approx(0.008)     # 0.004 × 2 variants
    j = E.judge_variants({"A": [_cmp("A", 0.03)]})                      # one comparison
    assert j.p_value == 0.03 and j.how == ""


def test_every_variant_beats_every_opponent_is_bound_by_its_weakest_variant():
    """With ``every``, the claim's p is the largest of the variants' and the comparison the
    record shows is the one that sets it."""
    j = E.judge_variants({"A": [_cmp("A", 0.001)], "B": [_cmp("B", 0.3)]}, every=True)
    assert j.p_value == pytest.approx(0.3) and j.direction == 1
    assert j.binding.a == "B" and j.binding.p == j.p_value


def test_beats_every_is_an_intersection_union_test():
    comps = [_cmp("S", 0.01, 0.10, "X"), _cmp("S", 0.04, 0.02, "Y"), _cmp("S", 0.001, 0.3, "Z")]
    j = E.judge_every(comps)
    # p the largest of the comparisons (each favours the claim); the closest competitor shown
    assert j.direction == 1 and j.binding.b == "Y" and j.p_value == 0.04
    j = E.judge_every(comps[:2] + [_cmp("S", 0.2, 0.01, "Z")])
    assert j.direction == 1 and j.binding.b == "Z" and j.p_value == 0.2
    # against the claim: the most significant contradiction × the comparisons
    j = E.judge_every(comps + [_cmp("S", 0.02, -0.05, "W"), _cmp("S", 0.001, -0.01, "V")])
    assert j.direction == -1 and j.binding.b == "V" and j.p_value == pytest.approx(0.005)
    j = E.judge_every([_cmp("S", 0.01, -0.1, "X", sign=-1)])           # smaller is better
    assert j.direction == 1 and j.p_value == 0.01


def test_a_contradiction_among_several_comparisons_counts_them():
    comps = [_cmp("S", 0.3, 0.01, b) for b in "WXYZ"] + [_cmp("S", 0.02, -0.05, "V")]
    j = E.judge_every(comps)
    assert j.direction == -1 and j.p_value == pytest.approx(0.1)       # 0.02 × 5
    j = E.judge_every([_cmp("S", 0.3, 0.01, "W"), _cmp("S", 0.004, -0.05, "V")])
    assert j.direction == -1 and j.p_value == pytest.approx(0.008) and j.binding.b == "V"
    assert "2 comparisons" in j.how


def test_aligned_pairs_by_query_id_within_folds_and_pools():
    art = Artifact(
        "p", "t", "t",
        layout=RunLayout(datasets=("A", "B"), folds=(1, 2)))
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


# --- records: our effect beside the paper's -----------------------------------------------------

def test_a_claim_record_holds_our_effect_the_paper_s_and_their_ratio():
    j = E.judge_every([_cmp("A", 0.001, 0.02, "X")])
    j.binding.res.ci95 = (0.01, 0.03)
    r = E.claim_record("A beats X", "5", "n", "D", "MAP", j, "test", {}, {"part": "c"},
                       published_effect=0.04)
    assert r["outcome"] == INCONCLUSIVE                   # decided by the family (finish)
    assert r["value"] == r["effect"] == 0.02 and r["effect_ci95"] == [0.01, 0.03]
    assert r["p_value"] == 0.001 and r["p_direction"] == 1 and r["compared"] == "A − X"
    assert r["decided_by"] == "paired t-test" and r["n_queries"] == 50 and r["part"] == "c"
    assert r["published_effect"] == 0.04
    assert r["effect_ratio"] == pytest.approx(0.5)
    assert r["effect_ratio_ci95"] == pytest.approx([0.25, 0.75])
    u = E.claim_record("A beats X", "5", "n", "D", "NDCG", None, "", {}, {}, why="no data")
    assert u["outcome"] == NOT_TESTABLE and math.isnan(u["value"]) and u["n_queries"] == 0
    assert u["why"] == "no data"


def test_the_effect_ratio_by_hand():
    got = E.ratio_fields(0.02, [0.01, 0.03], 0.04)
    assert set(got) == {"published_effect", "effect_ratio", "effect_ratio_ci95"}
    assert got["published_effect"] == 0.04 and got["effect_ratio"] == pytest.approx(0.5)
    assert got["effect_ratio_ci95"] == pytest.approx([0.25, 0.75])
    # the paper's own numbers against its claim: the ratio's interval stays ordered
    out = E.ratio_fields(0.02, [0.01, 0.03], -0.04)
    assert out["effect_ratio"] == pytest.approx(-0.5)
    assert out["effect_ratio_ci95"] == pytest.approx([-0.75, -0.25])
    assert E.ratio_fields(0.02, [0.01, 0.03], 0.0) == {"published_effect": 0.0}


# --- outcomes on constructed cases --------------------------------------------------------------

def _claim(statement, p, effect=0.01, ci=(0.005, 0.015), direction=1, key=False, **extra):
    return {"claim": True, "statement": statement, "method": statement, "metric": "MAP",
            "dataset": "D", "fold": None, "section": "5", "outcome": INCONCLUSIVE,
            "p_value": p, "p_direction": direction, "value": effect, "effect": effect,
            "effect_ci95": list(ci), "compared": f"{statement} − X", "n_queries": 100,
            "key": key, **extra}


def _alone(rec):
    E.finish(_art(), [rec], [])
    return rec["outcome"]


def test_each_outcome_on_a_constructed_case():
    assert _alone(_claim("a", 0.01)) == REPLICATED
    assert _alone(_claim("a", 0.01, -0.01, (-0.015, -0.005), direction=-1)) == REVERSED
    # not significant, and our effect significantly smaller than the paper's
    assert _alone(_claim("a", 0.4, 0.002, (-0.004, 0.008), published_effect=0.05)) \
        == NOT_REPLICATED
    # not significant, the paper's effect inside our interval: more evidence would decide
    assert _alone(_claim("a", 0.4, 0.02, (-0.01, 0.06), published_effect=0.05)) == INCONCLUSIVE
    # without the paper's effect, "not replicated" cannot be said
    assert _alone(_claim("a", 0.4, 0.002, (-0.004, 0.008))) == INCONCLUSIVE
    # the paper's numbers against its own claim: never "not replicated"
    assert _alone(_claim("a", 0.4, 0.002, (-0.004, 0.008), published_effect=-0.05)) \
        == INCONCLUSIVE
    assert _alone(_claim("a", float("nan"), outcome=NOT_TESTABLE)) == NOT_TESTABLE
    assert _alone(_claim("a", float("nan"))) == NOT_TESTABLE
    # the threshold is the adjusted p at 5 %
    assert _alone(_claim("a", 0.0499)) == REPLICATED and _alone(_claim("a", 0.05)) == INCONCLUSIVE


def test_decide_by_hand():
    base = {"p_direction": 1, "effect_ci95": [0.0, 0.01], "published_effect": 0.02}
    assert E.decide({**base, "p_adjusted": 0.01}) == REPLICATED
    assert E.decide({**base, "p_adjusted": 0.01, "p_direction": -1}) == REVERSED
    assert E.decide({**base, "p_adjusted": 0.3}) == NOT_REPLICATED
    assert E.decide({**base, "p_adjusted": 0.3, "effect_ci95": [0.0, 0.03]}) == INCONCLUSIVE
    assert E.decide({**base, "p_adjusted": None}) == NOT_TESTABLE


def _bh_by_hand(p):
    m = len(p)
    order = np.argsort(p)
    adj = np.empty(m)
    running = 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, p[i] * m / (rank + 1))
        adj[i] = running
    return adj.tolist()


def test_key_claims_are_holm_adjusted_and_the_others_benjamini_hochberg():
    key = [_claim(f"k{i}", p, key=True) for i, p in enumerate((0.01, 0.03, 0.04, 0.5))]
    sec = [_claim(f"s{i}", p) for i, p in enumerate((0.01, 0.02, 0.03, 0.2))]
    E.finish(_art(), key + sec, [])
    assert all(r["family"] == "key" for r in key) and all(r["family"] == "secondary"
                                                          for r in sec)
    assert [r["p_adjusted"] for r in key] == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert [r["p_adjusted"] for r in key] == pytest.approx(holm([0.01, 0.03, 0.04, 0.5]))
    assert [r["p_adjusted"] for r in sec] == pytest.approx([0.04, 0.04, 0.04, 0.2])
    assert [r["p_adjusted"] for r in sec] == pytest.approx(_bh_by_hand([0.01, 0.02, 0.03, 0.2]))
    assert [r["outcome"] for r in key] == [REPLICATED, INCONCLUSIVE, INCONCLUSIVE, INCONCLUSIVE]
    # BH keeps s2 (0.03 → 0.04) where Holm over the same four would not (0.03 × 2 = 0.06)
    assert [r["outcome"] for r in sec] == [REPLICATED, REPLICATED, REPLICATED, INCONCLUSIVE]
    assert "Holm" in key[0]["adjustment"] and "4 distinct tests" in key[0]["adjustment"]
    assert "Benjamini" in sec[0]["adjustment"]
    # each claim's own p is kept beside the adjusted one
    assert [r["p_value"] for r in key] == [0.01, 0.03, 0.04, 0.5]


def test_the_key_family_holds_only_the_key_claims():
    """More secondary claims do not make a key claim harder to replicate."""
    key = _claim("k", 0.03, key=True)
    many = [_claim(f"s{i}", 0.5) for i in range(40)]
    E.finish(_art(), [key] + many, [])
    assert key["p_adjusted"] == pytest.approx(0.03) and key["outcome"] == REPLICATED
    assert "1 distinct tests" in key["adjustment"] and "40 distinct" in many[0]["adjustment"]


def test_the_same_test_under_two_statements_is_one_test_of_its_family():
    """Two statements testing the same comparison on the same evidence are merged
    (``same_test_as``): one test in the family, adjusted once, both with its outcome."""
    a = _claim("a", 0.02, key=True, compared="S − X")
    b = _claim("b", 0.02, key=True, compared="S − X")
    c = _claim("c", 0.04, key=True)
    E.finish(_art(), [a, b, c], [])
    assert b["same_test_as"] == "a" and "same_test_as" not in a and "same_test_as" not in c
    assert a["p_adjusted"] == b["p_adjusted"] == pytest.approx(0.04)    # Holm over 2, not 3
    assert c["p_adjusted"] == pytest.approx(0.04)
    assert "2 distinct tests" in a["adjustment"] and b["adjustment"] == a["adjustment"]
    assert a["outcome"] == b["outcome"] == REPLICATED
    # another effect on the same comparison is another test
    d = _claim("d", 0.02, 0.011, key=True, compared="S − X")
    E.finish(_art(), [_claim("a", 0.02, key=True, compared="S − X"), d], [])
    assert "same_test_as" not in d


def test_a_claim_bounding_earlier_p_values_replicates_only_with_them():
    b = _claim("b", 0.001)
    bound = _claim("p < 0.0001", 1e-5, requires=["b"], bound=1e-4)
    E.finish(_art(), [b, bound], [])
    assert b["outcome"] == REPLICATED and bound["outcome"] == REPLICATED
    # no test of its own and no family: its own p, unadjusted, said so
    assert bound["p_adjusted"] == bound["p_value"] and "none" in bound["adjustment"]
    assert bound["family"] == "secondary" and "same_test_as" not in bound
    b = _claim("b", 0.3)
    bound = _claim("p < 0.0001", 1e-5, requires=["b"], bound=1e-4)
    E.finish(_art(), [b, bound], [])
    assert bound["outcome"] == INCONCLUSIVE
    lonely = _claim("p < 0.0001", 1e-5, requires=["nothing"], bound=1e-4)
    E.finish(_art(), [lonely], [])
    assert lonely["outcome"] == NOT_TESTABLE


# --- claims stated as counts --------------------------------------------------------------------

def _cells(effects, statement="S beats X in 30 of 32", p=0.001):
    return [_claim(statement, p, e, (e - 0.001, e + 0.001), direction=int(np.sign(e)),
                   dataset=f"D{i}", family="cell") for i, e in enumerate(effects)]


def test_a_count_claim_is_a_sign_test_over_its_cells():
    effects = [0.01] * 9 + [-0.02]
    cells = _cells(effects)
    r = E.count_record("S beats X in 30 of 32", "5", "30 of 32", cells, {})
    assert r["counts"] == {"favour": 9, "against": 1} and r["testable_cells"] == 10
    assert r["p_value"] == pytest.approx(stats.binomtest(9, 10, 0.5).pvalue)
    assert r["sign_test"]["smallest_p"] == pytest.approx(2 / 1024)
    assert r["value"] == pytest.approx(0.9) and r["effect"] == pytest.approx(0.4)
    ci = stats.binomtest(9, 10, 0.5).proportion_ci(0.95)
    assert r["effect_ci95"] == pytest.approx([ci.low - 0.5, ci.high - 0.5])
    assert r["paper_count"] == "30 of 32" and r["count"] is True and r["claim"] is True
    assert r["decided_by"] == "exact sign test over cells" and "30 of 32" in r["test"]
    assert r["p_direction"] == 1
    # an untestable cell is no evidence either way
    more = cells + [_claim("S beats X in 30 of 32", float("nan"), float("nan"),
                           outcome=NOT_TESTABLE, family="cell")]
    assert E.count_record("S beats X in 30 of 32", "5", "30 of 32", more, {})[
        "testable_cells"] == 10
    assert E.is_count("30 of 32") and E.is_count("'best' 26 out of 32") and not E.is_count("Fig. 4")


def test_four_cells_cannot_decide_a_count_and_say_so():
    r = E.count_record("S beats X in 8 of 8", "5", "8 of 8", _cells([0.01] * 4), {})
    assert r["p_value"] == pytest.approx(0.125) and r["sign_test"]["smallest_p"] == 0.125
    assert "4 cells cannot decide" in r["test"]
    recs = _cells([0.01] * 4, "S beats X in 8 of 8") + [r]
    r["key"] = True
    E.finish(_art(), recs, [])
    assert r["outcome"] == INCONCLUSIVE and r["family"] == "key"


def test_in_the_families_a_count_is_one_claim_and_its_cells_are_unadjusted_evidence():
    cells = _cells([0.01] * 9 + [-0.02], p=0.03)
    count = E.count_record("S beats X in 30 of 32", "5", "30 of 32", cells, {})
    count["key"] = True
    others = [_claim(f"k{i}", 0.02, key=True) for i in range(3)]
    recs = cells + [count] + others
    E.finish(_art(), recs, [])
    assert all(c["family"] == "cell" for c in cells)
    # a cell is tested alone: its p is not adjusted by the paper's claims
    assert all(c["p_adjusted"] == pytest.approx(0.03) for c in cells)
    assert all("none" in c["adjustment"] for c in cells)
    assert [c["outcome"] for c in cells] == [REPLICATED] * 9 + [REVERSED]
    # the count is one test of the key family (with the three others: Holm over 4)
    p_count = stats.binomtest(9, 10, 0.5).pvalue
    assert count["family"] == "key"
    assert count["p_adjusted"] == pytest.approx(holm([p_count, 0.02, 0.02, 0.02])[0])
    assert "4 distinct tests" in count["adjustment"]
    # finish recomputes the count from its cells as judged
    assert count["counts"] == {"favour": 9, "against": 1}


def test_two_counts_with_the_same_numbers_are_two_tests():
    """A count tests its own cells: two statements whose counts coincide (0 of 4 each) are
    not one test of the family."""
    a = _cells([-0.01] * 4, "S beats X in 23 of 32")
    b = _cells([-0.02] * 4, "T beats Y in 16 of 32")
    ca = E.count_record("S beats X in 23 of 32", "5", "23 of 32", a, {})
    cb = E.count_record("T beats Y in 16 of 32", "5", "16 of 32", b, {})
    E.finish(_art(), a + b + [ca, cb], [])
    assert "same_test_as" not in ca and "same_test_as" not in cb
    assert "2 distinct tests" in cb["adjustment"]


# --- claims over fold values --------------------------------------------------------------------

def test_five_folds_never_decide_a_claim_the_exact_sign_flip_test_does():
    """Five fold values all favouring a claim: a t-test would say p ≈ 1e-5, the exact
    sign-flip test cannot go below 2/2⁵ = 0.0625 — the claim is not replicated on five folds;
    six unanimous folds can (2/64)."""
    x = np.array([0.50, 0.52, 0.49, 0.51, 0.53])
    y = x - np.array([0.030, 0.031, 0.029, 0.030, 0.032])
    assert stats.ttest_rel(x, y).pvalue < 1e-4
    c = E.compare("A", "B", x, y, "seed", test="sign-flip")
    assert c.res.p_value == pytest.approx(0.0625) and c.res.test == "sign-flip"
    j = E.judge_variants({"A": [c]})
    r = E.claim_record("A beats B", "5", "", "D", "MAP", j, E.fold_test_words(5, "folds"),
                       {}, {}, fold_test=True, key=True)
    assert r["decided_by"] == "exact sign-flip test" and r["n_folds"] == 5
    assert "5 folds cannot decide" in r["test"]
    E.finish(_art(), [r], [])
    assert r["p_adjusted"] == pytest.approx(0.0625) and r["outcome"] == INCONCLUSIVE
    # the same test over six unanimous folds can decide
    x6, y6 = np.r_[x, 0.5], np.r_[y, 0.47]
    c6 = E.compare("A", "B", x6, y6, "seed", test="sign-flip")
    assert c6.res.p_value == pytest.approx(2 / 64)
    assert "cannot decide" not in E.fold_test_words(6, "folds")
    r6 = E.claim_record("A beats B", "5", "", "D", "MAP", E.judge_variants({"A": [c6]}),
                        "", {}, {}, fold_test=True, key=True)
    E.finish(_art(), [r6], [])
    assert r6["outcome"] == REPLICATED


def test_no_fold_p_below_the_exact_floor_for_any_five_folds():
    rng = np.random.default_rng(3)
    for _ in range(20):
        d = rng.normal(0.03, 0.01, 5)
        c = E.compare("A", "B", d, np.zeros(5), "seed", test="sign-flip")
        assert c.res.p_value >= 0.0625 - 1e-12


# --- context beside a claim ---------------------------------------------------------------------

def _pub(values):
    from repro.judge.published import PublishedSet, PublishedValue
    return PublishedSet("fakepaper", [PublishedValue("table1", "D", m, "MAP", None, t, "T1")
                                      for m, t in values.items()])


def test_deviating_baselines_are_listed_beside_a_claim_and_leave_its_outcome():
    ours = {"S": 90.0, "X": 3.7, "Y": 30.0, "Z": 40.0}
    recs = [{"dataset": "D", "method": m, "metric": "MAP", "fold": None, "value": v}
            for m, v in ours.items()]

    def claim(opponents):
        cells = [E.compared_cell({"dataset": "D", "method": m, "metric": "MAP"}, None, role)
                 for m, role in [("S", "subject")] + [(o, "opponent") for o in opponents]]
        return _claim("S above every baseline", 1e-6, compared_cells=cells)
    pub = _pub({"S": "76.1", "X": "26.1", "Y": "30.0", "Z": "35.0"})
    weak, fine, strong = claim(["X", "Y"]), claim(["Y"]), claim(["Z"])
    E.finish(_art(), recs + [weak, fine, strong], [], pub)
    assert weak["outcome"] == fine["outcome"] == strong["outcome"] == REPLICATED
    (x,) = [g for g in weak["deviating"] if g["method"] == "X"]
    assert x["favours_claim"] and x["published"] == "26.1" and x["value"] == 3.7
    assert x["verdict"] == "deviates"
    assert [g["method"] for g in fine["deviating"]] == ["S"]
    # a baseline stronger here than published makes the claim harder: it does not favour it
    assert not next(g for g in strong["deviating"] if g["method"] == "Z")["favours_claim"]


# --- the tests' arithmetic ----------------------------------------------------------------------

def test_p_values_are_written_to_a_floor():
    from repro.judge.stats import p_words
    assert p_words(1.9e-52) == "p < 1e-4" and p_words(0.0123) == "p = 0.012"
    assert p_words(float("nan")) == "p = n/a"


def test_the_sign_flip_test_is_exact_for_few_units():
    from repro.judge.stats import paired, sign_flip
    d = np.array([0.3, -0.1, 0.25, 0.4, 0.05, 0.2, -0.05, 0.15])
    ref = np.mean([abs(np.mean(d * s)) >= abs(d.mean()) - 1e-12
                   for s in itertools.product((1, -1), repeat=d.size)])
    assert sign_flip(d, seed=1) == pytest.approx(ref)
    res = paired(d, np.zeros_like(d), seed=1)
    assert res.p_permutation == pytest.approx(ref)                  # n < 30: beside it
    assert paired(np.r_[d, d, d, d], np.zeros(32), seed=1).p_permutation is None
    assert paired(d, np.zeros_like(d), seed=1, test="sign-flip").p_value == pytest.approx(ref)
