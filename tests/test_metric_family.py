"""The NDCG / AP / precision family: every convention on hand-made queries with hand-computed
values (ties, a query without relevant documents, k beyond the query's length, grades 3-4);
the LETOR conventions equal ``evaluate``; each engine equals the implementation it replaced
(``reference_metric_family``, frozen) to the last bit and the plain ``"sum"`` engine to 1e-13."""
import math

import numpy as np
import pytest

import reference_metric_family as ref
from repro.errors import DataError
from repro.metrics import (CONVENTIONS, average_precision, dcg_at, evaluate, ndcg,
                           precision, script_mean, yahoo_ndcg10)
from repro.metrics.family import (ap_from_good_ranks, discounts, good_ranks_from_scores,
                                  ndcg_from_good_ranks, ndcg_vectors)

L3 = math.log2(3.0)
L5 = math.log2(5.0)

# Query A: labels 2, 0, 1; scores tie documents 0 and 1.  Ranked (file order): 2, 0, 1 →
# labels 1, 2, 0.  Worst-case ties: 2, 1, 0 → labels 1, 0, 2.
A_Y, A_S = [2.0, 0.0, 1.0], [0.5, 0.5, 0.9]
# Query B: no relevant document.
B_Y, B_S = [0.0, 0.0], [0.3, 0.1]
# Query C: grades 4, 3, 0, 2; ranked by score: labels 2, 0, 3, 4.
C_Y, C_S = [4.0, 3.0, 0.0, 2.0], [1.0, 2.0, 3.0, 4.0]


def queries(*qs):
    y = np.concatenate([q[0] for q in qs])
    s = np.concatenate([q[1] for q in qs])
    qp = np.r_[0, np.cumsum([len(q[0]) for q in qs])]
    return y, s, qp


Y, S, QP = queries((A_Y, A_S), (B_Y, B_S), (C_Y, C_S))


def test_every_convention_is_declared_with_its_source():
    assert set(CONVENTIONS) == {"letor3", "letor4", "mslr", "trec_eval", "trec_eval_classic",
                                "gbdt", "inner_product", "binary_ranks"}
    for name, c in CONVENTIONS.items():
        assert c.name == name and len(c.source) > 20


def test_the_papers_declare_their_conventions_from_the_librarys():
    """A paper's convention is one of the library's under the paper's id: the same choices,
    so the same values (its source cites the paper)."""
    from dataclasses import replace
    from repro import papers
    declared = papers.conventions()
    same = {n: [lib for lib, c in CONVENTIONS.items()
                if replace(c, name=n, source="") == replace(d, source="")]
            for n, d in declared.items()}
    assert same == {"dubey2009": ["binary_ranks"], "lesmola2007": ["inner_product"],
                    "stevens2010": ["letor4"]}
    assert not set(declared) & set(CONVENTIONS)


@pytest.mark.parametrize("conv", ["letor3", "letor4", "mslr"])
def test_letor_scripts_hand_computed(conv):
    # gain 2^r - 1, positions 1-2 undiscounted: A ranked gains 1, 3, 0 → DCG@3 = 4 = ideal.
    nd = ndcg(Y, S, QP, 3, conv)
    assert nd[0] == 1.0 and nd[1] == 0.0
    assert ndcg(Y, S, QP, 1, conv)[0] == pytest.approx(1 / 3)
    # C: gains 3, 0, 7, 15 at discounts 1, 1, 1/log2 3, 1/2; ideal 15, 7, 3, 0.
    assert nd[2] == pytest.approx((3 + 7 / L3) / (15 + 7 + 3 / L3), rel=1e-14)
    assert ndcg(Y, S, QP, 4, conv)[2] == pytest.approx((3 + 7 / L3 + 7.5) / (22 + 3 / L3),
                                                       rel=1e-14)


def test_worst_case_ties_put_the_less_relevant_document_first():
    # A worst: labels 1, 0, 2 → DCG@3 = 1 + 0 + 3/log2 3, ideal 4.
    assert ndcg(Y, S, QP, 3, "letor4", ties="worst")[0] == pytest.approx((1 + 3 / L3) / 4)
    assert average_precision(Y, S, QP, "letor4", ties="worst")[0] == pytest.approx((1 + 2 / 3) / 2)
    assert ndcg(Y, S, QP, 3, "gbdt", ties="worst")[0] == pytest.approx(
        (1 + 3 / 2) / (3 + 1 / L3))


def test_relevance_threshold_and_grades_3_4():
    # letor4: relevant iff label > 0.  A: relevant at ranks 1, 2 → AP 1; C: ranks 1, 3, 4.
    assert average_precision(Y, S, QP, "letor4").tolist() == pytest.approx(
        [1.0, 0.0, (1 + 2 / 3 + 3 / 4) / 3])
    # mslr: only labels ≥ 2 are relevant.  A: rank 2 → AP 1/2, P@1 = 0, P@2 = 1/2.
    ap = average_precision(Y, S, QP, "mslr")
    assert ap[0] == 0.5 and ap[2] == pytest.approx((1 + 2 / 3 + 3 / 4) / 3)
    assert precision(Y, S, QP, 1, "mslr").tolist() == [0.0, 0.0, 1.0]
    assert precision(Y, S, QP, 2, "mslr").tolist() == [0.5, 0.0, 0.5]
    # mslr gains 2^r - 1 for 3 and 4: C NDCG@4 as letor4's.
    assert ndcg(Y, S, QP, 4, "mslr")[2] == ndcg(Y, S, QP, 4, "letor4")[2]


# document ids of Y's documents: A's tied documents 0 and 1 are "a" and "b"
DOCIDS = ["a", "b", "c", "x", "y", "p", "q", "r", "s"]


def test_trec_eval_linear_gain_log2_discount_and_docid_ties():
    """Current trec_eval (m_ndcg_cut.c, form_res_rels.c): gain = label, every rank 1/log2(rank
    + 1), equal scores by docno descending.  A: c (0.9, label 1), then the tie b (label 0)
    before a (label 2) → labels 1, 0, 2."""
    nd = ndcg(Y, S, QP, 3, "trec_eval", docids=DOCIDS)
    assert nd[0] == pytest.approx((1 + 2 / 2) / (2 + 1 / L3), rel=1e-14)
    assert ndcg(Y, S, QP, 1, "trec_eval", docids=DOCIDS)[0] == 0.5
    # C: gains 2, 0, 3, 4 → DCG@4 = 2 + 0 + 3/2 + 4/log2 5; ideal 4, 3, 2 → 4 + 3/log2 3 + 1.
    assert ndcg(Y, S, QP, 4, "trec_eval", docids=DOCIDS)[2] == pytest.approx(
        (2 + 1.5 + 4 / L5) / (5 + 3 / L3), rel=1e-14)
    # k beyond the length: NDCG@k = NDCG@n, P@k counts holes as irrelevant.
    assert ndcg(Y, S, QP, 20, "trec_eval", docids=DOCIDS)[2] == \
        ndcg(Y, S, QP, 4, "trec_eval", docids=DOCIDS)[2]
    assert precision(Y, S, QP, 5, "trec_eval", docids=DOCIDS)[0] == pytest.approx(2 / 5)
    assert ndcg(Y, S, QP, 3, "trec_eval", docids=DOCIDS)[1] == 0.0
    # AP: relevant at ranks 1 and 3
    assert average_precision(Y, S, QP, "trec_eval", docids=DOCIDS)[0] == pytest.approx(
        (1 + 2 / 3) / 2)
    # renaming the tied documents reverses them: a before b (labels 1, 2, 0)
    swapped = ["b", "a"] + DOCIDS[2:]
    assert ndcg(Y, S, QP, 3, "trec_eval", docids=swapped)[0] == pytest.approx(
        (1 + 2 / L3) / (2 + 1 / L3), rel=1e-14)
    # byte order, as strcmp: "10" < "9"
    assert ndcg([1.0, 0.0], [0.5, 0.5], [0, 2], 1, "trec_eval", docids=["10", "9"])[0] == 0.0


def test_trec_eval_classic_keeps_the_old_discount():
    # A (labels 1, 0, 2 by docid ties): discounts 1, 1, 1/log2 3 → (1 + 2/log2 3) / (2 + 1).
    assert ndcg(Y, S, QP, 3, "trec_eval_classic", docids=DOCIDS)[0] == pytest.approx(
        (1 + 2 / L3) / 3, rel=1e-14)
    # C: gains 2, 0, 3, 4 → 2 + 0 + 3/log2 3 + 4/2; ideal 4, 3, 2, 0 → 7 + 2/log2 3.
    assert ndcg(Y, S, QP, 4, "trec_eval_classic", docids=DOCIDS)[2] == pytest.approx(
        (4 + 3 / L3) / (7 + 2 / L3))


def test_docid_ties_need_the_docids():
    with pytest.raises(DataError, match="docids: ties='docid'"):
        ndcg(Y, S, QP, 3, "trec_eval")


def test_k_beyond_query_length_letor3_letor4_truncate():
    # A has 3 documents, 2 relevant; k = 5.
    assert ndcg(Y, S, QP, 5, "letor4")[0] == 0.0
    assert precision(Y, S, QP, 5, "letor4")[0] == pytest.approx(2 / 5)
    assert ndcg(Y, S, QP, 5, "letor3")[0] == 0.0
    assert precision(Y, S, QP, 5, "letor3")[0] == 0.0
    assert ndcg(Y, S, QP, 5, "gbdt")[0] == ndcg(Y, S, QP, 3, "gbdt")[0]
    assert ndcg(Y, S, QP, 5, "inner_product")[0] == ndcg(Y, S, QP, 3, "inner_product")[0]
    assert ndcg(Y, S, QP, 5, "binary_ranks")[0] == 1.0


def test_gbdt_scores_one_on_a_query_without_relevant_documents():
    assert ndcg(Y, S, QP, 10, "gbdt")[1] == 1.0
    assert average_precision(Y, S, QP, "gbdt")[1] == 1.0
    for conv in ("letor3", "letor4", "mslr", "trec_eval", "inner_product"):
        assert ndcg(Y, S, QP, 10, conv, docids=DOCIDS)[1] == 0.0
        assert average_precision(Y, S, QP, conv, docids=DOCIDS)[1] == 0.0


def test_gbdt_and_inner_product_hand_computed():
    # A: gains 1, 3, 0 at 1/log2(i + 1): DCG = 1 + 3/log2 3; ideal 3 + 1/log2 3.
    want = (1 + 3 / L3) / (3 + 1 / L3)
    assert ndcg(Y, S, QP, 3, "gbdt")[0] == pytest.approx(want, rel=1e-14)
    assert ndcg(Y, S, QP, 3, "inner_product")[0] == pytest.approx(want, rel=1e-14)
    # C: gains 3, 0, 7, 15 → DCG@4 = 3 + 7/2 + 15/log2 5; ideal 15 + 7/log2 3 + 3/2.
    want = (3 + 3.5 + 15 / L5) / (15 + 7 / L3 + 1.5)
    assert ndcg(Y, S, QP, 4, "gbdt")[2] == pytest.approx(want, rel=1e-14)
    assert ndcg(Y, S, QP, 2, "inner_product")[2] == pytest.approx(3 / (15 + 7 / L3), rel=1e-14)


def test_binary_ranks_binary_gain_and_queries_without_a_good_document():
    # C: good (label ≥ 1) at ranks 1, 3, 4 → NDCG@4 = (1 + 1/log2 3 + 1/2) / (1 + 1 + 1/log2 3).
    nd = ndcg(Y, S, QP, 4, "binary_ranks")
    assert np.isnan(nd[1]) and nd[0] == 1.0
    assert nd[2] == pytest.approx((1 + 1 / L3 + 0.5) / (2 + 1 / L3), rel=1e-14)
    ap = average_precision(Y, S, QP, "binary_ranks")
    assert np.isnan(ap[1]) and ap[2] == pytest.approx((1 + 2 / 3 + 3 / 4) / 3)
    assert np.isnan(precision(Y, S, QP, 2, "binary_ranks")[1])
    stricter = CONVENTIONS["binary_ranks"].replace(relevant_min=3.0)
    assert ndcg(Y, S, QP, 4, stricter)[2] == pytest.approx((1 / L3 + 0.5) / 2)


def test_dcg_at_and_discounts():
    assert dcg_at([3.0, 1.0, 7.0], 3) == pytest.approx(3 + 1 / L3 + 3.5)
    assert dcg_at([3.0, 1.0, 7.0], 3, discount="letor") == pytest.approx(4 + 7 / L3)
    assert dcg_at([3.0, 1.0], 10) == pytest.approx(3 + 1 / L3)
    np.testing.assert_array_equal(dcg_at([[1.0, 0.0], [0.0, 1.0]], 1), [1.0, 0.0])
    assert discounts(4, 3, "letor").tolist() == pytest.approx([1, 1, 1 / L3, 0])
    with pytest.raises(DataError, match="k: the cutoff"):
        dcg_at([1.0], 0)


def test_bad_input_is_refused_with_the_argument_named():
    with pytest.raises(DataError, match="convention: expected one of"):
        ndcg(Y, S, QP, 3, "letor5")
    with pytest.raises(DataError, match="k: the cutoff"):
        precision(Y, S, QP, 0)
    with pytest.raises(DataError, match="rng: ties='random'"):
        ndcg(Y, S, QP, 3, "gbdt", ties="random")
    with pytest.raises(DataError, match="ties: expected"):
        ndcg(Y, S, QP, 3, "gbdt", ties="best")
    with pytest.raises(DataError, match="scores: value nan"):
        ndcg(Y, np.r_[S[:-1], np.nan], QP, 3)
    with pytest.raises(DataError, match="gain must be one of"):
        CONVENTIONS["gbdt"].replace(gain="square")
    with pytest.raises(DataError, match="engine 'inner' computes discount 'log2' only"):
        CONVENTIONS["inner_product"].replace(discount="letor")


def test_engines_agree_on_other_gains():
    rng = np.random.default_rng(21)
    for _ in range(50):
        y, s, qp = random_queries(rng)
        inner = CONVENTIONS["inner_product"].replace(gain="linear")
        np.testing.assert_allclose(ndcg(y, s, qp, 5, inner),
                                   ndcg(y, s, qp, 5, inner.replace(engine="sum")),
                                   rtol=1e-13, atol=1e-15)


def random_queries(rng, max_docs=30, levels=5):
    sizes = rng.integers(1, max_docs, rng.integers(1, 8))
    qp = np.r_[0, np.cumsum(sizes)]
    y = rng.integers(0, rng.integers(1, levels), qp[-1]).astype(float)
    s = np.round(rng.normal(size=qp[-1]), 1)          # many ties
    return y, s, qp


@pytest.mark.parametrize("version", [3, 4])
def test_letor_conventions_equal_evaluate_per_query_arrays(version):
    rng = np.random.default_rng(version)
    conv = f"letor{version}"
    for _ in range(100):
        y, s, qp = random_queries(rng)
        k = int(rng.integers(1, 18))
        ev = evaluate(y, s, qp, version=version, max_k=k)
        np.testing.assert_array_equal(ndcg(y, s, qp, k, conv), ev.ndcg[:, k - 1])
        np.testing.assert_array_equal(precision(y, s, qp, k, conv), ev.precision[:, k - 1])
        np.testing.assert_array_equal(average_precision(y, s, qp, conv), ev.ap)
        qids = rng.permutation(qp.shape[0] - 1) * 7 + 3
        ev = evaluate(y, s, qp, qids, version=version, max_k=k)
        assert script_mean(ndcg(y, s, qp, k, conv), qids) == ev.avg_ndcg[k - 1]
        assert script_mean(average_precision(y, s, qp, conv), qids) == ev.map
        # the same definitions, summed by the plain engine
        plain = CONVENTIONS[conv].replace(engine="sum")
        np.testing.assert_allclose(ndcg(y, s, qp, k, plain), ev.ndcg[:, k - 1], rtol=1e-13)
        np.testing.assert_array_equal(precision(y, s, qp, k, plain), ev.precision[:, k - 1])
        np.testing.assert_array_equal(average_precision(y, s, qp, plain), ev.ap)


def test_random_ties_shuffle_within_queries_then_sort_stably():
    rng = np.random.default_rng(5)
    for _ in range(30):
        y, s, qp = random_queries(rng)
        seed = int(rng.integers(1 << 30))
        g = np.random.default_rng(seed)
        perm = np.concatenate([lo + g.permutation(hi - lo) for lo, hi in zip(qp[:-1], qp[1:])])
        ev = evaluate(y[perm], s[perm], qp, version=3, max_k=5)
        got = ndcg(y, s, qp, 5, "letor3", ties="random", rng=np.random.default_rng(seed))
        np.testing.assert_array_equal(got, ev.ndcg[:, 4])


def test_inner_product_equals_the_former_ndcg_at_bit_for_bit():
    rng = np.random.default_rng(14)
    for _ in range(200):
        y, s, qp = random_queries(rng)
        k = int(rng.integers(1, 15))
        got = ndcg(y, s, qp, k, "inner_product")
        np.testing.assert_array_equal(got, ref.lesmola_ndcg_at(y, s, qp, k))
        plain = CONVENTIONS["inner_product"].replace(engine="sum")
        np.testing.assert_allclose(ndcg(y, s, qp, k, plain), got, rtol=1e-13, atol=1e-15)
        lo, hi = qp[0], qp[1]
        for a, b in zip(ndcg_vectors(y[lo:hi], k), ref.dorm_ndcg_vectors(y[lo:hi], k)):
            np.testing.assert_array_equal(a, b)


def test_gbdt_mean_equals_the_former_yahoo_ndcg10_bit_for_bit():
    rng = np.random.default_rng(10)
    for _ in range(200):
        y, s, qp = random_queries(rng)
        assert ndcg(y, s, qp, 10, "gbdt").mean() == ref.yahoo_ndcg10(y, s, qp)
        assert yahoo_ndcg10(y, s, qp) == ref.yahoo_ndcg10(y, s, qp)
        empty = np.insert(qp, 1, qp[0])                  # an empty query scores 1, as before
        assert yahoo_ndcg10(y, s, empty) == ref.yahoo_ndcg10(y, s, empty)


def test_binary_ranks_equals_the_former_paper_measures_bit_for_bit():
    rng = np.random.default_rng(9)
    for _ in range(200):
        y, s, qp = random_queries(rng)
        k = int(rng.integers(1, 15))
        ap, nd = ref.dubey_paper_measures(y, s, qp, k)
        np.testing.assert_array_equal(average_precision(y, s, qp, "binary_ranks"), ap)
        np.testing.assert_array_equal(ndcg(y, s, qp, k, "binary_ranks"), nd)
        seed = int(rng.integers(1 << 30))
        ap, nd = ref.dubey_paper_measures(y, s, qp, k, np.random.default_rng(seed))
        np.testing.assert_array_equal(
            ndcg(y, s, qp, k, "binary_ranks", ties="random", rng=np.random.default_rng(seed)), nd)
        plain = CONVENTIONS["binary_ranks"].replace(engine="sum")
        np.testing.assert_allclose(ndcg(y, s, qp, k, plain), ndcg(y, s, qp, k, "binary_ranks"),
                                   rtol=1e-13)
        np.testing.assert_allclose(average_precision(y, s, qp, plain),
                                   average_precision(y, s, qp, "binary_ranks"), rtol=1e-13)


def test_good_rank_forms_equal_the_former_deltas_functions():
    rng = np.random.default_rng(2)
    for _ in range(200):
        n = int(rng.integers(1, 40))
        good = rng.random(n) < rng.random()
        if not good.any():
            continue
        s = np.round(rng.normal(size=n), 1)
        r = good_ranks_from_scores(good, s)
        np.testing.assert_array_equal(r, ref.deltas_ranks_from_scores(good, s))
        R = np.sort(np.stack([rng.choice(n, good.sum(), replace=False) for _ in range(5)]),
                    axis=1)
        k = int(rng.integers(1, 15))
        np.testing.assert_array_equal(ndcg_from_good_ranks(R, k), ref.deltas_ndcg_from_ranks(R, k))
        np.testing.assert_array_equal(ap_from_good_ranks(R), ref.deltas_ap_from_ranks(R))
        np.testing.assert_array_equal(discounts(max(k, n), k, "letor"),
                                      ref.deltas_discount(k, max(k, n)))


def test_script_mean_leaves_out_queries_without_a_value():
    assert script_mean([1.0, np.nan, 0.5]) == 0.75
    assert math.isnan(script_mean([np.nan]))
    with pytest.raises(DataError, match="qids: expected 2"):
        script_mean([1.0, 0.5], qids=[1])
