"""The swap sampler of Dubey et al. (2009), Fig. 2 and Sec. 4 (wrapper of the
``repro._kernels.swap_sampler`` kernel, whose docstring gives the algorithm and the state).

The sample Ŷ_q of a query is drawn once, before optimisation (Sec. 4: the transition
probabilities do not depend on w, so L-BFGS sees one consistent objective).  A sample is a
set of walks: a restart state y⁰ is drawn from a restart distribution, recorded, and followed
by ``walk_length`` moves, each state recorded, until ``n_states`` states are drawn.

Fig. 2's flip probability θ (lines 7 and 9) lost its symbols in the text's conversion; it is
*reconstructed* (``../shared/papers/README.md``) as θ = (n⁻ − n_g + n_b + 1)/(2 + n⁺ + n⁻) when
y_gb = +1 and θ = (n⁺ + n_g − n_b + 1)/(2 + n⁺ + n⁻) otherwise: small for flips that would move
a very good g below a very bad b (Sec. 4.2), always in (0, 1).

Two samplers with the same transition probabilities (conditioned on a move):

* ``"literal"``: Fig. 2 line by line — uniform pair, coin θ, reject an invalid candidate,
  repeat until a flip is accepted; the validity test (line 11) is O(1): a flip is valid
  exactly when g and b sit in adjacent good/bad blocks of the merged order;
* ``"rejection_free"`` (used for the experiments): draws a valid move directly, a pair of
  adjacent blocks with weight |block|·|block'|·θ, then a uniform document in each.

Restart distributions (Sec. 4.1, 5.3.2): ``extremes`` — the best ranking y_q (Δ = 0, all
goods first) with probability ``skew`` and the worst (Δ = 1, all bads first) otherwise; or a
handcrafted *restart set* drawn with Pr(y) ∝ exp(kΔ(y)).  The set (the paper does not give
its rankings) is built here as rankings with the goods in one contiguous run below the first
j bads, the j chosen so that their Δ spreads evenly over [0, 1] ("a variety of Δs",
Sec. 4.1; :func:`restart_set`).

Documents are identified within a query as goods 0..n⁺-1, bads n⁺..n-1 (the caller's own
order within each class); a state is returned as the wins of each document (the number of
documents of the other class it beats), from which φ_po and every Δ follow.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels import swap_sampler as _kernel
from ..errors import DataError, check_status
from . import deltas as _deltas

METHODS = ("rejection_free", "literal")


def _check_sizes(n_pos, n_neg) -> tuple[int, int]:
    n_pos, n_neg = int(n_pos), int(n_neg)
    if n_pos < 1 or n_neg < 1:
        raise DataError(f"swap sampler: a query needs at least one good and one bad document "
                        f"(got n⁺ = {n_pos}, n⁻ = {n_neg})")
    return n_pos, n_neg


def best_order(n_pos: int, n_neg: int) -> np.ndarray:
    """Merged order of y_q: all goods, then all bads (Δ = 0)."""
    return np.arange(n_pos + n_neg, dtype=np.int32)


def worst_order(n_pos: int, n_neg: int) -> np.ndarray:
    """Merged order with all bads first (Δ = 1)."""
    return np.concatenate([np.arange(n_pos, n_pos + n_neg), np.arange(n_pos)]).astype(np.int32)


def shifted_order(n_pos: int, n_neg: int, j: int) -> np.ndarray:
    """The first ``j`` bads, then all goods, then the other bads."""
    bads = np.arange(n_pos, n_pos + n_neg)
    return np.concatenate([bads[:j], np.arange(n_pos), bads[j:]]).astype(np.int32)


def order_wins(order: np.ndarray, n_pos: int) -> np.ndarray:
    """Wins of every document (by id) in a merged order."""
    order = np.asarray(order)
    good = order < n_pos
    goods_below = np.cumsum(good[::-1])[::-1] - good          # strictly below each position
    bads_below = np.cumsum(~good[::-1])[::-1] - ~good
    wins = np.empty(order.shape[0], dtype=np.int32)
    wins[order] = np.where(good, bads_below, goods_below)
    return wins


def restart_set(n_pos: int, n_neg: int, n_states: int, delta: str | None = None,
                ndcg_k: int = 10) -> np.ndarray:
    """The handcrafted restart set: at most ``n_states`` distinct shifted orders (all goods in
    one run below the first j bads).  With ``delta`` (a Δ kind) the j are chosen so that the
    Δ of the set spreads over [0, 1]: for each target t = i/(n_states − 1), the smallest j with
    Δ(j) ≥ t (Δ(j) rises with j; for NDCG@k it reaches 1 at j = k, so evenly spread j would
    leave almost every state at Δ = 1); without, j = round(i n⁻/(n_states − 1))."""
    n_pos, n_neg = _check_sizes(n_pos, n_neg)
    if int(n_states) < 2:
        raise DataError(f"n_restart_states: the restart set needs at least 2 states, got {n_states}")
    t = np.linspace(0.0, 1.0, int(n_states))
    if delta is None:
        js = np.unique(np.rint(t * n_neg).astype(int))
    else:
        j = np.arange(n_neg + 1)
        d = _deltas.deltas(np.repeat((n_neg - j)[:, None], n_pos, axis=1), n_neg, delta, ndcg_k)
        js = np.unique(np.minimum(np.searchsorted(d, t - 1e-12, side="left"), n_neg))
    return np.stack([shifted_order(n_pos, n_neg, j) for j in js])


def restart_distribution(n_pos: int, n_neg: int, policy: str = "extremes",
                         skew: float = 0.9, k: float = -10.0, n_states: int = 11,
                         delta: str = "NDCG", ndcg_k: int = 10):
    """``(orders, probabilities)`` of the restart states (Sec. 4.1, 5.3.2).

    ``policy="extremes"``: y_q with probability ``skew``, the worst ranking otherwise.
    ``policy="set"``: :func:`restart_set` with Pr ∝ exp(k Δ(y)), Δ of kind ``delta``.
    """
    n_pos, n_neg = _check_sizes(n_pos, n_neg)
    if policy == "extremes":
        skew = float(skew)
        if not 0.0 <= skew <= 1.0:
            raise DataError(f"restart_skew: a probability in [0, 1] is required, got {skew}")
        return (np.stack([best_order(n_pos, n_neg), worst_order(n_pos, n_neg)]),
                np.array([skew, 1.0 - skew]))
    if policy == "set":
        orders = restart_set(n_pos, n_neg, n_states, delta, ndcg_k)
        wins = np.stack([order_wins(o, n_pos)[:n_pos] for o in orders])
        d = _deltas.deltas(wins, n_neg, delta, ndcg_k)
        logit = float(k) * d
        p = np.exp(logit - logit.max())
        return orders, p / p.sum()
    raise DataError(f"restarts: expected 'extremes' or 'set', got {policy!r}")


@dataclass
class Walks:
    """States drawn for one query: ``wins`` (states × n, documents by id), the restart each
    state descends from (``restart``, index into the restart orders), its move number
    (``step``, 0 = the restart state; the previous row is its predecessor otherwise), the
    documents of its move (``down`` lost a win, ``up`` gained one; -1 for a restart state);
    ``attempts``/``flips`` of the literal sampler (Fig. 2 lines 3/10; 0 for the rejection-free
    one) and the accepted ``moves``."""
    wins: np.ndarray
    restart: np.ndarray
    step: np.ndarray
    down: np.ndarray
    up: np.ndarray
    attempts: int
    flips: int
    moves: int


def walks(n_pos: int, n_neg: int, orders, probabilities, n_states: int, walk_length: int,
          seed: int, method: str = "rejection_free", record: bool = True) -> Walks:
    """Draw ``n_states`` states by walks of ``walk_length`` moves from restarts ``orders``
    (rows: merged orders) drawn with ``probabilities``; ``seed``: a 64-bit integer.  With
    ``record=False`` the walks run without writing the states (``wins`` etc. are empty):
    the sampler's own cost, for throughput measurements."""
    n_pos, n_neg = _check_sizes(n_pos, n_neg)
    n = n_pos + n_neg
    if method not in METHODS:
        raise DataError(f"sampler: expected one of {METHODS}, got {method!r}")
    orders = np.ascontiguousarray(np.atleast_2d(orders), dtype=np.int32)
    p = np.asarray(probabilities, dtype=np.float64)
    if orders.shape[1] != n or p.shape != (orders.shape[0],):
        raise DataError(f"restarts: expected R merged orders of {n} documents and R "
                        f"probabilities, got shapes {orders.shape} and {p.shape}")
    if np.any(np.sort(orders, axis=1) != np.arange(n)):
        raise DataError("restarts: every restart must be a permutation of the query's documents")
    if not (np.all(p >= 0) and np.isfinite(p).all() and p.sum() > 0):
        raise DataError("restarts: probabilities must be finite, non-negative, not all zero")
    n_states, walk_length = int(n_states), int(walk_length)
    if n_states < 1 or walk_length < 0:
        raise DataError(f"n_states must be ≥ 1 and walk_length ≥ 0, got {n_states}, {walk_length}")
    cdf = np.cumsum(p / p.sum())
    cdf[-1] = 1.0
    rows = n_states if record else 0
    out = np.empty((rows, n), dtype=np.int32)
    info = np.empty((rows, 4), dtype=np.int32)
    stats = np.zeros(3, dtype=np.int64)
    fn = _kernel.literal_walks if method == "literal" else _kernel.rejection_free_walks
    restart_wins = np.stack([order_wins(o, n_pos) for o in orders])
    done = fn(n_pos, n_neg, orders, restart_wins, cdf, walk_length, int(seed) & (2**64 - 1),
              n_states, bool(record), out, info, stats, np.empty(7 * n + 7, np.int32), np.empty(n, np.int64),
              np.empty(orders.shape[0] * (7 * n + 5), np.int32))
    check_status(done, f"swap_sampler.{method}_walks")   # cannot fail: the arrays match
    return Walks(out, info[:, 0].copy(), info[:, 1].copy(), info[:, 2].copy(), info[:, 3].copy(),
                 int(stats[0]), int(stats[1]), int(stats[2]))


def _not_an_order(n: int):
    """The chain kernels' -1 for an ``order`` that is not a merged order of n documents."""
    return lambda code: DataError(f"order: expected a merged order of {n} documents")


def move_probabilities(n_pos: int, n_neg: int, order) -> np.ndarray:
    """Probability of each flip (g, b) (n⁺ × n⁻) from the merged order ``order`` as the
    rejection-free sampler draws it (= the literal sampler's, conditioned on a move)."""
    n_pos, n_neg = _check_sizes(n_pos, n_neg)
    out = np.empty((n_pos, n_neg), dtype=np.int64)
    n = n_pos + n_neg
    check_status(_kernel.move_weights(n_pos, n_neg, np.ascontiguousarray(order, dtype=np.int32),
                                      out, np.empty(7 * n + 7, np.int32)),
                 "swap_sampler.move_weights", _not_an_order(n))
    return out / out.sum()


def literal_chain(n_pos: int, n_neg: int, order, n_attempts: int, seed: int) -> tuple[int, int, int]:
    """``(attempts, flips, accepted moves)`` of ``n_attempts`` attempts of Fig. 2 from ``order``,
    nothing recorded (throughput measurements)."""
    n_pos, n_neg = _check_sizes(n_pos, n_neg)
    n = n_pos + n_neg
    stats = np.zeros(3, dtype=np.int64)
    check_status(_kernel.literal_chain(n_pos, n_neg, np.ascontiguousarray(order, dtype=np.int32),
                                       int(n_attempts), int(seed) & (2**64 - 1), stats,
                                       np.empty(7 * n + 7, np.int32)),
                 "swap_sampler.literal_chain", _not_an_order(n))
    return int(stats[0]), int(stats[1]), int(stats[2])


def rejection_free_chain(n_pos: int, n_neg: int, order, n_moves: int, seed: int) -> int:
    """``n_moves`` rejection-free moves from ``order``, nothing recorded (throughput
    measurements); returns the number of blocks of the final state."""
    n_pos, n_neg = _check_sizes(n_pos, n_neg)
    n = n_pos + n_neg
    K = _kernel.rejection_free_chain(n_pos, n_neg, np.ascontiguousarray(order, dtype=np.int32),
                                     int(n_moves), int(seed) & (2**64 - 1),
                                     np.empty(7 * n + 7, np.int32), np.empty(n, np.int64))
    check_status(K, "swap_sampler.rejection_free_chain", _not_an_order(n))
    return int(K)


def wins_to_order_key(wins: np.ndarray) -> np.ndarray:
    """Rows of wins as bytes (one hashable key per ranking: the wins determine y)."""
    wins = np.ascontiguousarray(wins, dtype=np.int32)
    return wins.view(np.dtype((np.void, wins.shape[1] * 4))).ravel()
