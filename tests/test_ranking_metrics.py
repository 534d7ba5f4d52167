"""Pairwise accuracy/AUC, domination and all-pairs error, WTA, MRR and ERU: hand-computed
values and O(n²) brute force."""
import math

import numpy as np
import pytest

from repro.metrics import (all_pairs_error, auc, domination_error, eru, mrr, pair_counts,
                           pairwise_accuracy, wta)


def brute_pairs(y, s):
    pairs = correct = tied = 0
    for i in range(len(y)):
        for j in range(len(y)):
            if y[i] > y[j]:
                pairs += 1
                correct += s[i] > s[j]
                tied += s[i] == s[j]
    return pairs, correct, tied


def brute_domination(y, s):
    dom = [i for i in range(len(y)) if any(y[j] < y[i] for j in range(len(y)))]
    if not dom:
        return math.nan
    failed = sum(any(y[j] < y[i] and s[j] >= s[i] for j in range(len(y))) for i in dom)
    return failed / len(dom)


def test_pair_counts_and_domination_equal_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(100):
        sizes = rng.integers(1, 12, rng.integers(1, 5))
        qp = np.r_[0, np.cumsum(sizes)]
        y = rng.integers(0, rng.integers(1, 4), qp[-1]).astype(float)
        s = np.round(rng.normal(size=qp[-1]), 1)
        counts = pair_counts(y, s, qp)
        dom, _ = domination_error(y, s, qp)
        for q in range(len(sizes)):
            a, b = qp[q], qp[q + 1]
            assert tuple(counts[q]) == brute_pairs(y[a:b], s[a:b])
            want = brute_domination(y[a:b], s[a:b])
            assert (math.isnan(want) and math.isnan(dom[q])) or dom[q] == want


def test_hand_computed_query():
    # labels 2,1,0 with scores 0.1, 0.5, 0.5: pairs (2>1) wrong, (2>0) wrong, (1>0) tie
    y, s, qp = np.array([2., 1, 0]), np.array([0.1, 0.5, 0.5]), np.array([0, 3])
    assert pairwise_accuracy(y, s, qp)[1] == 0.0
    assert auc(y, s, qp)[1] == pytest.approx(0.5 / 3)
    assert all_pairs_error(y, s, qp)[1] == 1.0
    assert domination_error(y, s, qp)[1] == 1.0      # both dominating docs fail
    assert wta(y, s, qp)[1] == 0.0                    # top doc (label 1, first of the tie)
    assert mrr(y, s, qp)[1] == 1 / 3                  # the label-2 document is ranked third
    assert mrr(y, s, qp, threshold=1)[1] == 1.0


def test_pairwise_accuracy_averages():
    y = np.array([1., 0, 1, 0, 0])
    s = np.array([1., 0, 0, 1, 2])
    qp = np.array([0, 2, 5])
    per, by_pairs = pairwise_accuracy(y, s, qp)
    assert per.tolist() == [1.0, 0.0]
    assert by_pairs == 1 / 3                          # 1 correct of 3 pairs
    assert pairwise_accuracy(y, s, qp, average="queries")[1] == 0.5


def test_queries_without_pairs_have_no_value():
    y, s, qp = np.array([1., 1, 0]), np.array([0., 1, 2]), np.array([0, 2, 3])
    per, _ = pairwise_accuracy(y, s, qp)
    assert math.isnan(per[0]) and math.isnan(per[1])
    assert math.isnan(domination_error(y, s, qp)[1])


def test_eru_hand_computed():
    y, s, qp = np.array([3., 5, 1]), np.array([3., 2, 1]), np.array([0, 3])
    a = [1, 2 ** (-1 / 4), 2 ** (-2 / 4)]
    raw = a[0] * 3 + a[1] * 5 + a[2] * 1
    best = a[0] * 5 + a[1] * 3 + a[2] * 1
    assert eru(y, s, qp, d=0, alpha=5, normalized=False)[1] == pytest.approx(raw)
    assert eru(y, s, qp, d=0, alpha=5)[1] == pytest.approx(raw / best)
    assert eru(y, s, qp, d=3, alpha=5, normalized=False)[1] == pytest.approx(a[1] * 2)


def test_many_levels_use_the_per_query_path_with_the_same_counts():
    rng = np.random.default_rng(9)
    sizes = rng.integers(1, 30, 20)
    qp = np.r_[0, np.cumsum(sizes)]
    y = rng.permutation(qp[-1]).astype(float)          # list-style labels: ~300 distinct levels
    s = np.round(rng.normal(size=qp[-1]), 1)
    counts = pair_counts(y, s, qp)
    for q in range(len(sizes)):
        a, b = qp[q], qp[q + 1]
        assert tuple(counts[q]) == brute_pairs(y[a:b], s[a:b])


def test_single_level_queries_have_no_wta_mrr_or_eru_and_leave_the_mean():
    y = np.array([1., 1, 0, 0, 2, 0])
    s = np.array([0.3, 0.1, 0.2, 0.9, 0.1, 0.5])
    qp = np.array([0, 2, 4, 6])                       # queries: {1,1}, {0,0}, {2,0}
    per, mean = wta(y, s, qp)
    assert np.isnan(per[0]) and np.isnan(per[1]) and per[2] == 0.0 and mean == 0.0
    per, mean = mrr(y, s, qp)
    assert np.isnan(per[0]) and np.isnan(per[1]) and per[2] == 0.5 and mean == 0.5
    assert mrr(y, s, qp, threshold=1)[0][1] == 0.0     # explicit threshold: no hit is 0
    per, _ = eru(y, s, qp)
    assert np.isnan(per[1]) and per[0] == 1.0


def _mrr_per_query(ranked, qp, threshold):
    """MRR from its definition, a query at a time (the loop the vectorised code replaced)."""
    vals = []
    for q in range(qp.shape[0] - 1):
        r = ranked[qp[q]:qp[q + 1]]
        if threshold is None and r.min() == r.max():
            vals.append(np.nan)
            continue
        t = r.max() if threshold is None else threshold
        hits = np.flatnonzero(r >= t)
        vals.append(1.0 / (hits[0] + 1) if hits.size else 0.0)
    vals = np.asarray(vals)
    return vals, float(np.nanmean(vals)) if np.any(~np.isnan(vals)) else float("nan")


def test_wta_and_mrr_equal_their_per_query_definitions_bit_for_bit():
    """The vectorised WTA and MRR give, query by query, the values of the loops that define
    them (1/rank of the first hit, NaN on one level at the default threshold), on random
    queries with tied labels and scores, one-document queries and thresholds that no
    document reaches."""
    from repro.metrics.ranking import _ranked_labels
    rng = np.random.default_rng(21)
    for trial in range(400):
        sizes = rng.integers(1, 9, int(rng.integers(1, 8)))
        qp = np.concatenate([[0], np.cumsum(sizes)])
        y = rng.integers(0, int(rng.integers(1, 4)), qp[-1]).astype(float)
        s = (rng.integers(0, 3, qp[-1]).astype(float) if trial % 2
             else rng.normal(size=qp[-1]))
        ranked, q = _ranked_labels(y, s, qp)
        want_wta = np.array([np.nan if r.min() == r.max() else float(r[0] == r.max())
                             for r in (ranked[q[i]:q[i + 1]] for i in range(len(q) - 1))])
        assert np.array_equal(wta(y, s, qp)[0], want_wta, equal_nan=True)
        for t in (None, 1.0, 2.0, 9.0):
            got, want = mrr(y, s, qp, t), _mrr_per_query(ranked, q, t)
            assert np.array_equal(got[0], want[0], equal_nan=True)
            assert np.array_equal(got[1], want[1], equal_nan=True)
