"""The swap sampler (Fig. 2): literal and rejection-free kernels against the brute-force
pair-matrix reference (``reference_swap_sampler``)."""
import itertools

import numpy as np
import pytest
from scipy import stats

import reference_swap_sampler as ref
from repro.errors import DataError
from repro.rankers import swap_sampler as ss

SIZES = [(1, 1), (1, 5), (5, 1), (2, 2), (3, 4), (6, 9), (12, 40)]


def test_reference_validity_is_brute_force_consistent():
    for n_pos, n_neg in [(1, 3), (2, 2), (2, 3), (3, 2)]:
        for bits in itertools.product((-1, 1), repeat=n_pos * n_neg):
            y = np.array(bits, dtype=np.int8).reshape(n_pos, n_neg)
            assert ref.is_valid(y) == ref.is_valid_by_permutations(y)


def test_wins_determine_a_valid_ranking():
    for n_pos, n_neg in [(2, 3), (3, 3)]:
        for key, y in ref.all_valid(n_pos, n_neg).items():
            assert np.array_equal(ref.y_from_wins(np.array(key), n_pos), y)


def _check_rows(walk, n_pos):
    prev = None
    for row, step in zip(walk.wins, walk.step):
        y = ref.y_from_wins(row, n_pos)
        assert ref.is_valid(y), row
        assert np.array_equal(ref.wins_of_y(y), row), row        # the wins are y's own
        if step > 0:
            assert (y != prev).sum() == 1                        # one flip per move
        prev = y


@pytest.mark.parametrize("method", ss.METHODS)
@pytest.mark.parametrize("n_pos,n_neg", SIZES)
def test_samplers_emit_only_valid_rankings(method, n_pos, n_neg):
    for policy in ("extremes", "set"):
        orders, p = ss.restart_distribution(n_pos, n_neg, policy, skew=0.5, k=-2.0, n_states=5)
        w = ss.walks(n_pos, n_neg, orders, p, 60, 9, seed=n_pos * 100 + n_neg, method=method)
        assert w.wins.shape == (60, n_pos + n_neg)
        assert w.moves == int((w.step > 0).sum())
        _check_rows(w, n_pos)
        # restart rows are the restart states themselves
        for r in np.flatnonzero(w.step == 0):
            assert np.array_equal(w.wins[r], ss.order_wins(orders[w.restart[r]], n_pos))


def _states_of(n_pos, n_neg, limit=None, seed=0):
    states = list(ref.all_valid(n_pos, n_neg).values())
    if limit is not None and len(states) > limit:
        pick = np.random.default_rng(seed).choice(len(states), limit, replace=False)
        states = [states[i] for i in pick]
    return states


@pytest.mark.parametrize("n_pos,n_neg,limit", [(1, 1, None), (1, 4, None), (4, 1, None),
                                               (2, 3, None), (3, 3, None), (2, 4, None),
                                               (4, 3, 60), (4, 4, 40)])
def test_rejection_free_move_probabilities_equal_the_literal_sampler(n_pos, n_neg, limit):
    for y in _states_of(n_pos, n_neg, limit):
        order = ref.topological_order(y)
        got = ss.move_probabilities(n_pos, n_neg, order)
        np.testing.assert_allclose(got, ref.literal_move_probabilities(y), rtol=1e-12, atol=0)


def _next_state_counts(walk, n_pos):
    rows = walk.wins[walk.step == 1]
    keys, counts = np.unique(rows, axis=0, return_counts=True)
    return {tuple(k): c for k, c in zip(keys, counts)}


@pytest.mark.parametrize("method", ss.METHODS)
def test_one_step_frequencies_match_the_exact_move_distribution(method):
    n_pos, n_neg = 3, 4
    # a state a few moves from y_q, with blocks of several sizes
    order = np.array([0, 3, 4, 1, 5, 2, 6], dtype=np.int32)
    y = ref.y_from_order(order, n_pos)
    P = ref.literal_move_probabilities(y)
    exact = {}
    for g, b in zip(*np.nonzero(P)):
        z = y.copy()
        z[g, b] = -z[g, b]
        exact[tuple(ref.wins_of_y(z))] = P[g, b]
    w = ss.walks(n_pos, n_neg, order[None, :], [1.0], 40000, 1, seed=11, method=method)
    counts = _next_state_counts(w, n_pos)
    assert set(counts) <= set(exact)
    keys = sorted(exact)
    obs = np.array([counts.get(k, 0) for k in keys])
    exp = np.array([exact[k] for k in keys]) * obs.sum()
    assert stats.chisquare(obs, exp).pvalue > 1e-3


def test_literal_attempts_per_move_from_the_best_ranking():
    """From y_q every flip is valid and θ = 1/(n + 2): attempts are geometric, mean n + 2."""
    n_pos, n_neg = 4, 6
    w = ss.walks(n_pos, n_neg, ss.best_order(n_pos, n_neg)[None, :], [1.0], 2 * 20000, 1,
                 seed=5, method="literal")
    assert w.moves == 20000
    mean = w.attempts / w.moves
    sd = np.sqrt(1 - 1 / 12) * 12 / np.sqrt(w.moves)       # geometric(p = 1/12)
    assert abs(mean - 12) < 4 * sd
    assert w.flips == w.moves                               # every flip from y_q is valid


def test_long_chains_agree_in_distribution():
    """Long chains of both samplers visit the states of a small query with the stationary
    distribution of the exact (enumerated) move chain.  Every move changes the number of
    +1 entries by one, so the chain has period 2: it is thinned by an odd stride (weaker
    autocorrelation, both parities kept)."""
    n_pos, n_neg = 2, 3
    keys, T = ref.transition_matrix(n_pos, n_neg)
    vals, vecs = np.linalg.eig(T.T)
    pi = np.real(vecs[:, np.argmin(np.abs(vals - 1))])
    pi = pi / pi.sum()
    index = {k: i for i, k in enumerate(keys)}
    counts = {}
    for method in ss.METHODS:
        w = ss.walks(n_pos, n_neg, ss.best_order(n_pos, n_neg)[None, :], [1.0], 120001, 120000,
                     seed=3, method=method)
        thinned = w.wins[1000::21]
        c = np.zeros(len(keys))
        for row in thinned:
            c[index[tuple(row)]] += 1
        counts[method] = c
        assert stats.chisquare(c, pi * c.sum()).pvalue > 1e-3
    table = np.stack([counts[m] for m in ss.METHODS])
    assert stats.chi2_contingency(table).pvalue > 1e-3


def test_restart_distributions():
    orders, p = ss.restart_distribution(3, 5, "extremes", skew=0.9)
    assert np.array_equal(orders[0], ss.best_order(3, 5)) and p[0] == 0.9
    assert np.array_equal(ss.order_wins(orders[1], 3), [0, 0, 0, 3, 3, 3, 3, 3])
    orders, p = ss.restart_distribution(3, 5, "set", k=-5.0, n_states=6, delta="AUC")
    auc_delta = np.array([1 - ss.order_wins(o, 3)[:3].sum() / 15 for o in orders])
    assert auc_delta[0] == 0 and auc_delta[-1] == 1 and np.all(np.diff(auc_delta) > 0)
    np.testing.assert_allclose(p, np.exp(-5 * auc_delta) / np.exp(-5 * auc_delta).sum())
    # with NDCG@10 the set spreads Δ over [0, 1] (evenly spread j would leave most at Δ = 1)
    orders = ss.restart_set(3, 60, 6, "NDCG", 10)
    dn = [1 - float(np.sum(np.where(np.arange(3) + j < 10, 1 / np.maximum(1, np.log2(np.arange(3) + j + 1)), 0)))
          / (1 + 1 + 1 / np.log2(3)) for j in [int(np.argmax(o < 3)) for o in orders]]
    assert dn[0] == 0 and dn[-1] == 1 and max(np.diff(dn)) < 0.45 and len(orders) >= 4
    # Pr ∝ exp(kΔ) with k = 0 is uniform over the set
    _, p0 = ss.restart_distribution(3, 5, "set", k=0.0, n_states=6)
    np.testing.assert_allclose(p0, 1 / len(p0))


def test_seeds_and_determinism():
    o, p = ss.restart_distribution(4, 7)
    a = ss.walks(4, 7, o, p, 50, 5, seed=1)
    b = ss.walks(4, 7, o, p, 50, 5, seed=1)
    c = ss.walks(4, 7, o, p, 50, 5, seed=2)
    assert np.array_equal(a.wins, b.wins) and not np.array_equal(a.wins, c.wins)


def test_bad_input_is_refused():
    with pytest.raises(DataError, match="at least one good and one bad"):
        ss.restart_distribution(0, 3)
    o, p = ss.restart_distribution(2, 2)
    with pytest.raises(DataError, match="permutation"):
        ss.walks(2, 2, np.array([[0, 0, 1, 2]]), [1.0], 5, 2, seed=0)
    with pytest.raises(DataError, match="probabilities"):
        ss.walks(2, 2, o, [np.nan, 1.0], 5, 2, seed=0)
    with pytest.raises(DataError, match="sampler"):
        ss.walks(2, 2, o, p, 5, 2, seed=0, method="gibbs")
    with pytest.raises(DataError, match="restart_skew"):
        ss.restart_distribution(2, 2, skew=1.5)


def test_throughput_chains_run():
    """The throughput entry points move the chain (counts only; speed is a benchmark)."""
    a, f, m = ss.literal_chain(5, 20, ss.best_order(5, 20), 20000, seed=1)
    assert a == 20000 and 0 < m <= f <= a
    assert ss.rejection_free_chain(5, 20, ss.best_order(5, 20), 1000, seed=1) >= 2
