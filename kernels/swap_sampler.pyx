# cython: language_level=3
"""The MCMC swap sampler of Dubey et al. (2009), Fig. 2 and Sec. 4.1-4.2, literal and
rejection-free.

Kernel of ``repro.rankers.swap_sampler`` (which builds restart states, checks sizes, derives
seeds and documents the conventions).  One query at a time: ``n_pos`` good documents (ids
0..n_pos-1) and ``n_neg`` bad documents (ids n_pos..n-1), n = n_pos + n_neg.

State.  A ranking y ∈ {±1}^{n⁺n⁻} is valid (consistent with a total order) exactly when it is
induced by a *merged order* of the documents; two merged orders induce the same y when they
differ only inside maximal runs of one class.  The state is such a merged order (``order``,
``pos``) cut into its maximal one-class runs, the *blocks* k = 0..K-1 (``bstart``, ``bsize``,
``btype`` 1 = good, 0 = bad), and each block's ``bwin``: the number of documents of the other
class below it.  For a good g, bwin is n_g of Fig. 2 line 5 (bad documents g beats); for a bad
b it is n_b (good documents b beats).  y_gb = +1 iff g's block is above b's block.

Validity of a flip (Fig. 2 line 11).  Flipping y_gb gives a valid ranking iff g and b sit in
adjacent blocks: then moving the upper one to the bottom of its block, the lower one to the top
of its block and swapping them realises the flipped y; if another block lies between them, it
holds a good g' and a bad b' with (for y_gb = +1) g > b' > g' > b, and after the flip
b > g > b' > g' > b is a cycle.  With ``blk`` (each document's block index) the test is
|blk[g] - blk[b]| = 1, O(1).

Flip probability (Fig. 2 lines 6-9, reconstructed: lines 7 and 9 lost symbols in the text's
conversion; the reading of ``../shared/papers/README.md``), with D = 2 + n⁺ + n⁻:
    y_gb = +1:  θ = (n⁻ - n_g + n_b + 1) / D        y_gb = -1:  θ = (n⁺ + n_g - n_b + 1) / D.
Both numerators lie in [1, D - 1] for every valid state (derived: n_g ≥ 1, n_b ≤ n⁺ - 1 when
y_gb = +1 and symmetrically), so 0 < θ < 1.  The coin is an exact integer draw r < num, r
uniform in [0, D).

Literal sampler (``literal_walks``), one Fig. 2 call per move: lines 3-4 draw idx uniform in
[0, n⁺n⁻) as its coordinates (g, b), two independent uniforms, lines 5-9 read n_g, n_b from the blocks, line 10
flips with probability θ, line 11 rejects an invalid candidate, line 12 repeats until a flip is
accepted.  Each attempt is O(1); an accepted move rewrites the blocks (O(K)) and ``blk``
(O(n)).

Rejection-free sampler (``rejection_free_walks``): conditioned on a move, the literal sampler
moves to flip(y, g, b) with probability θ_gb [valid_gb] / Σ_{g'b'} θ_{g'b'} [valid_{g'b'}].
Every valid pair lies in a pair of adjacent blocks (k, k+1), and θ is the same for all pairs
of one block pair (n_g is constant on a good block, n_b on a bad block), so the move is drawn
exactly as: block pair k with integer weight bsize[k]·bsize[k+1]·num_k, then a uniform
document of each block.  O(K) per move, no rejections, no ``blk``.

Both apply a move the same way (``_apply_move``): u (upper, block k) and v (lower, block k+1)
are swapped to the block boundary and exchanged; the blocks k, k+1 become
[k∖u][v][u][k+1∖v], an empty remainder merging v into block k-1 (or u into block k+2); v's
bwin rises by one, u's falls by one.

Walks (Sec. 4, "(re)start a random walk at a well-chosen state y⁰ ... collect y⁰, y¹, …"):
a restart state r is drawn from the cumulative probabilities ``restart_cdf`` over the rows
of ``restarts`` (merged orders, with their wins ``restart_wins``), its state is recorded, then
``walk_length`` moves, each recorded, until ``n_states`` rows are written.  Row t of ``out``
gets the wins of every document (the coefficients of φ_po follow from them): a restart's row
is copied from ``restart_wins``, a move's row from the previous row with the two changed wins
(u loses one, v gains one).  ``out_info[t]`` holds the restart index, the
move number (0 = the restart state), and the documents u and v of the move (``out_info``).

Random numbers: ``xoshiro256.pxd`` (xoshiro256** seeded through splitmix64 from the caller's
64-bit seed; integers below m by Lemire's multiply-shift with rejection, exactly uniform).

Every ``def`` checks array sizes in O(1) and returns -1 (nothing written) if inconsistent;
the wrapper raises.  Values (restarts being permutations of 0..n-1) are the wrapper's job.
"""
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.string cimport memcpy, memmove

from xoshiro256 cimport Rng, rng_below, rng_seed, rng_unit


# --- the state ---------------------------------------------------------------------------------

cdef struct State:
    int32_t* order
    int32_t* pos
    int32_t* blk
    int32_t* bstart
    int32_t* bsize
    int32_t* bwin
    int32_t* btype
    Py_ssize_t K
    Py_ssize_t n
    Py_ssize_t n_pos
    Py_ssize_t n_neg
    int32_t last_u          # documents of the last move: u lost a win, v gained one
    int32_t last_v


cdef inline void _relabel(State* s, Py_ssize_t k0) noexcept nogil:
    """blk[] of every document in blocks k0..K-1."""
    cdef Py_ssize_t k, p
    for k in range(k0, s.K):
        for p in range(s.bstart[k], s.bstart[k] + s.bsize[k]):
            s.blk[s.order[p]] = <int32_t>k


cdef inline void _load(State* s, const int32_t* order, bint with_blk) noexcept nogil:
    """State of the merged order ``order`` (blocks, wins, positions; blk if ``with_blk``)."""
    cdef Py_ssize_t p, k, K = 0
    cdef int32_t t, d
    cdef int32_t goods_below = 0, bads_below = 0
    for p in range(s.n):
        d = order[p]
        s.order[p] = d
        s.pos[d] = <int32_t>p
        t = 1 if d < s.n_pos else 0
        if K == 0 or t != s.btype[K - 1]:
            s.bstart[K] = <int32_t>p
            s.bsize[K] = 1
            s.btype[K] = t
            K += 1
        else:
            s.bsize[K - 1] += 1
    s.K = K
    for k in range(K - 1, -1, -1):
        if s.btype[k]:
            s.bwin[k] = bads_below
            goods_below += s.bsize[k]
        else:
            s.bwin[k] = goods_below
            bads_below += s.bsize[k]
    if with_blk:
        _relabel(s, 0)


cdef inline Py_ssize_t _snap_size(Py_ssize_t n) noexcept nogil:
    return 7 * n + 5


cdef inline void _save(const State* s, int32_t* snap) noexcept nogil:
    """Copy the state into ``snap`` (``_snap_size(n)`` entries)."""
    cdef Py_ssize_t n = s.n, K = s.K
    snap[0] = <int32_t>K
    memcpy(&snap[1], s.order, n * sizeof(int32_t))
    memcpy(&snap[1 + n], s.pos, n * sizeof(int32_t))
    memcpy(&snap[1 + 2 * n], s.blk, n * sizeof(int32_t))
    memcpy(&snap[1 + 3 * n], s.bstart, K * sizeof(int32_t))
    memcpy(&snap[1 + 3 * n + K], s.bsize, K * sizeof(int32_t))
    memcpy(&snap[1 + 3 * n + 2 * K], s.bwin, K * sizeof(int32_t))
    memcpy(&snap[1 + 3 * n + 3 * K], s.btype, K * sizeof(int32_t))


cdef inline void _restore(State* s, const int32_t* snap, bint with_blk) noexcept nogil:
    cdef Py_ssize_t n = s.n, K = snap[0]
    s.K = K
    memcpy(s.order, &snap[1], n * sizeof(int32_t))
    memcpy(s.pos, &snap[1 + n], n * sizeof(int32_t))
    if with_blk:
        memcpy(s.blk, &snap[1 + 2 * n], n * sizeof(int32_t))
    memcpy(s.bstart, &snap[1 + 3 * n], K * sizeof(int32_t))
    memcpy(s.bsize, &snap[1 + 3 * n + K], K * sizeof(int32_t))
    memcpy(s.bwin, &snap[1 + 3 * n + 2 * K], K * sizeof(int32_t))
    memcpy(s.btype, &snap[1 + 3 * n + 3 * K], K * sizeof(int32_t))


cdef inline int64_t _pair_num(const State* s, Py_ssize_t k) noexcept nogil:
    """Numerator of θ (lines 7/9) for a pair of documents in adjacent blocks k, k+1."""
    if s.btype[k]:          # good block above bad block: y_gb = +1 (line 7)
        return s.n_neg - s.bwin[k] + s.bwin[k + 1] + 1
    return s.n_pos + s.bwin[k + 1] - s.bwin[k] + 1          # y_gb = -1 (line 9)


cdef inline void _swap(State* s, Py_ssize_t p, Py_ssize_t q) noexcept nogil:
    cdef int32_t a = s.order[p], b = s.order[q]
    s.order[p] = b
    s.order[q] = a
    s.pos[b] = <int32_t>p
    s.pos[a] = <int32_t>q


cdef inline void _shift_blocks(State* s, Py_ssize_t hi, Py_ssize_t to) noexcept nogil:
    """Move block entries hi..K-1 to start at index ``to``."""
    cdef Py_ssize_t cnt = s.K - hi
    if cnt > 0 and hi != to:
        memmove(&s.bstart[to], &s.bstart[hi], cnt * sizeof(int32_t))
        memmove(&s.bsize[to], &s.bsize[hi], cnt * sizeof(int32_t))
        memmove(&s.bwin[to], &s.bwin[hi], cnt * sizeof(int32_t))
        memmove(&s.btype[to], &s.btype[hi], cnt * sizeof(int32_t))


cdef inline Py_ssize_t _apply_move(State* s, Py_ssize_t k, Py_ssize_t pu,
                                   Py_ssize_t pv) noexcept nogil:
    """Flip the pair (u at position pu in block k, v at pv in block k+1).  Returns the first
    block index whose members changed (for ``_relabel``)."""
    cdef Py_ssize_t a = s.bstart[k]
    cdef Py_ssize_t e = s.bstart[k + 1]
    cdef Py_ssize_t f = e + s.bsize[k + 1]
    cdef int32_t tu = s.btype[k], tv = s.btype[k + 1]
    cdef int32_t wu = s.bwin[k], wv = s.bwin[k + 1]
    cdef bint a_empty = s.bsize[k] == 1, b_empty = s.bsize[k + 1] == 1
    cdef Py_ssize_t lo, hi, c = 0, i
    cdef int32_t ns[4]
    cdef int32_t nz[4]
    cdef int32_t nw[4]
    cdef int32_t nt[4]
    s.last_u = s.order[pu]
    s.last_v = s.order[pv]
    # positions: u to the bottom of block k, v to the top of block k+1, then exchange them
    _swap(s, pu, e - 1)
    _swap(s, pv, e)
    _swap(s, e - 1, e)
    # new blocks replacing old blocks lo..hi-1
    lo = k
    if a_empty and k > 0:            # v joins block k-1 (same class, same wins)
        lo = k - 1
        ns[c] = s.bstart[k - 1]; nz[c] = s.bsize[k - 1] + 1; nw[c] = s.bwin[k - 1]; nt[c] = tv
        c += 1
    else:
        if not a_empty:
            ns[c] = <int32_t>a; nz[c] = <int32_t>(e - 1 - a); nw[c] = wu; nt[c] = tu
            c += 1
        ns[c] = <int32_t>(e - 1); nz[c] = 1; nw[c] = wv + 1; nt[c] = tv
        c += 1
    hi = k + 2
    if b_empty and k + 2 < s.K:      # u joins block k+2
        hi = k + 3
        ns[c] = <int32_t>e; nz[c] = s.bsize[k + 2] + 1; nw[c] = s.bwin[k + 2]; nt[c] = tu
        c += 1
    else:
        ns[c] = <int32_t>e; nz[c] = 1; nw[c] = wu - 1; nt[c] = tu
        c += 1
        if not b_empty:
            ns[c] = <int32_t>(e + 1); nz[c] = <int32_t>(f - e - 1); nw[c] = wv; nt[c] = tv
            c += 1
    _shift_blocks(s, hi, lo + c)
    s.K = s.K + c - (hi - lo)
    for i in range(c):
        s.bstart[lo + i] = ns[i]
        s.bsize[lo + i] = nz[i]
        s.bwin[lo + i] = nw[i]
        s.btype[lo + i] = nt[i]
    return lo


cdef inline void _init_state(State* s, Py_ssize_t n_pos, Py_ssize_t n_neg,
                             int32_t[::1] work) noexcept nogil:
    """Point the state's arrays into ``work`` (≥ 7n + 7 entries, checked by the caller)."""
    cdef Py_ssize_t n = n_pos + n_neg
    s.n = n
    s.n_pos = n_pos
    s.n_neg = n_neg
    s.order = &work[0]
    s.pos = &work[n]
    s.blk = &work[2 * n]
    s.bstart = &work[3 * n]
    s.bsize = &work[4 * n + 1]
    s.bwin = &work[5 * n + 2]
    s.btype = &work[6 * n + 3]
    s.K = 0


cdef inline Py_ssize_t _pick_restart(Rng* rng, const double[::1] cdf) noexcept nogil:
    cdef double u = rng_unit(rng)
    cdef Py_ssize_t r = 0, R = cdf.shape[0]
    while r < R - 1 and u >= cdf[r]:
        r += 1
    return r


# --- moves -------------------------------------------------------------------------------------

cdef inline int _attempt(State* s, Rng* rng) noexcept nogil:
    """One attempt of Fig. 2 (lines 3-11): 0 = no flip (line 10), 1 = flip rejected as invalid
    (line 11), 2 = flip accepted and applied.  idx uniform in [0, n⁺n⁻) is drawn as its two
    coordinates g, b (independent uniforms: the same distribution, no division)."""
    cdef int32_t g = <int32_t>rng_below(rng, <uint64_t>s.n_pos)                 # lines 3-4
    cdef int32_t b = <int32_t>(s.n_pos + rng_below(rng, <uint64_t>s.n_neg))
    cdef int32_t kg = s.blk[g], kb = s.blk[b]                   # line 5: n_g, n_b via blocks
    cdef int64_t num
    if kg < kb:                                                 # line 6: y_gb = +1
        num = s.n_neg - s.bwin[kg] + s.bwin[kb] + 1             # line 7
    else:
        num = s.n_pos + s.bwin[kg] - s.bwin[kb] + 1             # line 9
    if <int64_t>rng_below(rng, <uint64_t>(s.n + 2)) >= num:        # line 10: flip w.p. θ
        return 0
    if kg - kb != 1 and kb - kg != 1:                           # line 11: reject invalid
        return 1
    if kg < kb:
        _relabel(s, _apply_move(s, kg, s.pos[g], s.pos[b]))
    else:
        _relabel(s, _apply_move(s, kb, s.pos[b], s.pos[g]))
    return 2


cdef inline int64_t _literal_move(State* s, Rng* rng, int64_t* flips) noexcept nogil:
    """One call of Fig. 2: attempts until a flip is accepted (line 12); returns the attempts."""
    cdef int64_t attempts = 0
    cdef int res
    while True:
        attempts += 1
        res = _attempt(s, rng)
        if res:
            flips[0] += 1
            if res == 2:
                return attempts


cdef inline void _rf_move(State* s, Rng* rng, int64_t* weights) noexcept nogil:
    """One move drawn from the literal sampler's distribution conditioned on a move."""
    cdef Py_ssize_t k, K1 = s.K - 1
    cdef int64_t total = 0, r
    for k in range(K1):
        total += <int64_t>s.bsize[k] * s.bsize[k + 1] * _pair_num(s, k)
        weights[k] = total
    r = <int64_t>rng_below(rng, <uint64_t>total)
    k = 0
    while weights[k] <= r:
        k += 1
    _apply_move(s, k, s.bstart[k] + <Py_ssize_t>rng_below(rng, <uint64_t>s.bsize[k]),
                s.bstart[k + 1] + <Py_ssize_t>rng_below(rng, <uint64_t>s.bsize[k + 1]))


# --- entry points ------------------------------------------------------------------------------

cdef int64_t _walks(bint literal, Py_ssize_t n_pos, Py_ssize_t n_neg,
                    const int32_t[:, ::1] restarts, const int32_t[:, ::1] restart_wins,
                    const double[::1] restart_cdf,
                    Py_ssize_t walk_length, uint64_t seed, Py_ssize_t m, bint rec,
                    int32_t[:, ::1] out,
                    int32_t[:, ::1] out_info, int64_t[::1] stats,
                    int32_t[::1] work, int64_t[::1] work_w, int32_t[::1] snaps) noexcept nogil:
    cdef State s
    cdef Rng rng
    cdef Py_ssize_t n = n_pos + n_neg, t = 0, r, step
    cdef int64_t attempts = 0, flips = 0, moves = 0
    if (n_pos < 1 or n_neg < 1 or restarts.shape[1] != n or restarts.shape[0] < 1
            or restart_wins.shape[0] != restarts.shape[0] or restart_wins.shape[1] != n
            or restart_cdf.shape[0] != restarts.shape[0] or m < 0
            or (rec and (out.shape[1] != n or out.shape[0] < m or out_info.shape[0] < m
                         or out_info.shape[1] != 4)) or stats.shape[0] < 3
            or work_w.shape[0] < n or walk_length < 0 or work.shape[0] < 7 * n + 7
            or snaps.shape[0] < restarts.shape[0] * _snap_size(n)):
        return -1
    _init_state(&s, n_pos, n_neg, work)
    for r in range(restarts.shape[0]):          # every restart state is built once
        _load(&s, &restarts[r, 0], True)
        _save(&s, &snaps[r * _snap_size(n)])
    rng_seed(&rng, seed)
    while t < m:
        r = _pick_restart(&rng, restart_cdf)
        _restore(&s, &snaps[r * _snap_size(n)], literal)
        if rec:
            memcpy(&out[t, 0], &restart_wins[r, 0], n * sizeof(int32_t))
        step = 0
        while True:
            if rec:
                out_info[t, 0] = <int32_t>r
                out_info[t, 1] = <int32_t>step
                if step == 0:
                    out_info[t, 2] = -1
                    out_info[t, 3] = -1
            t += 1
            if t >= m or step >= walk_length:
                break
            if literal:
                attempts += _literal_move(&s, &rng, &flips)
            else:
                _rf_move(&s, &rng, &work_w[0])
            moves += 1
            step += 1
            if rec:        # the new state differs from the last in two wins
                memcpy(&out[t, 0], &out[t - 1, 0], n * sizeof(int32_t))
                out[t, s.last_u] -= 1
                out[t, s.last_v] += 1
                out_info[t, 2] = s.last_u
                out_info[t, 3] = s.last_v
    stats[0] = attempts
    stats[1] = flips
    stats[2] = moves
    return t


def literal_walks(Py_ssize_t n_pos, Py_ssize_t n_neg, const int32_t[:, ::1] restarts,
                  const int32_t[:, ::1] restart_wins,
                  const double[::1] restart_cdf, Py_ssize_t walk_length, uint64_t seed,
                  Py_ssize_t n_states, bint record,
                  int32_t[:, ::1] out, int32_t[:, ::1] out_info,
                  int64_t[::1] stats, int32_t[::1] work, int64_t[::1] work_w,
                  int32_t[::1] snaps):
    """Walks of the literal Fig. 2 sampler until ``n_states`` states; if ``record``, fills
    ``out`` (≥ n_states rows × n wins) and ``out_info`` (rows × 4: restart index, move number,
    the document that lost a win and the one that gained it in that move, -1 -1 for a restart
    state); otherwise they are not touched (throughput).  Returns the states drawn or -1; ``stats`` = (attempts, flips that
    passed θ, accepted moves).  Workspaces: ``work`` ≥ 7n + 7 int32, ``work_w`` ≥ n int64,
    ``snaps`` ≥ R (7n + 5) int32."""
    cdef int64_t res
    with nogil:
        res = _walks(True, n_pos, n_neg, restarts, restart_wins, restart_cdf, walk_length, seed,
                     n_states, record, out, out_info, stats, work, work_w, snaps)
    return res


def rejection_free_walks(Py_ssize_t n_pos, Py_ssize_t n_neg, const int32_t[:, ::1] restarts,
                  const int32_t[:, ::1] restart_wins,
                         const double[::1] restart_cdf, Py_ssize_t walk_length, uint64_t seed,
                         Py_ssize_t n_states, bint record,
                         int32_t[:, ::1] out, int32_t[:, ::1] out_info,
                         int64_t[::1] stats, int32_t[::1] work, int64_t[::1] work_w,
                         int32_t[::1] snaps):
    """Walks of the rejection-free sampler (same arguments as :func:`literal_walks`;
    ``stats`` = (0, 0, moves))."""
    cdef int64_t res
    with nogil:
        res = _walks(False, n_pos, n_neg, restarts, restart_wins, restart_cdf, walk_length, seed,
                     n_states, record, out, out_info, stats, work, work_w, snaps)
    return res


def move_weights(Py_ssize_t n_pos, Py_ssize_t n_neg, const int32_t[::1] order,
                 int64_t[:, ::1] out, int32_t[::1] work):
    """Integer weight of every flip (g, b) from the merged order ``order`` as the
    rejection-free sampler draws it: num_k (``_pair_num``) for g, b in adjacent blocks
    (k, k+1), 0 for an invalid flip; the move probabilities are ``out / out.sum()``.  Returns
    the number of blocks K, or -1."""
    cdef State s
    cdef Py_ssize_t n = n_pos + n_neg, k, p, q, gi, bi
    if (n_pos < 1 or n_neg < 1 or order.shape[0] != n or out.shape[0] != n_pos
            or out.shape[1] != n_neg or work.shape[0] < 7 * n + 7):
        return -1
    with nogil:
        _init_state(&s, n_pos, n_neg, work)
        _load(&s, &order[0], False)
        out[:, :] = 0
        for k in range(s.K - 1):
            for p in range(s.bstart[k], s.bstart[k] + s.bsize[k]):
                for q in range(s.bstart[k + 1], s.bstart[k + 1] + s.bsize[k + 1]):
                    if s.btype[k]:
                        gi = s.order[p]
                        bi = s.order[q] - n_pos
                    else:
                        gi = s.order[q]
                        bi = s.order[p] - n_pos
                    out[gi, bi] = _pair_num(&s, k)
    return s.K


def literal_chain(Py_ssize_t n_pos, Py_ssize_t n_neg, const int32_t[::1] order,
                  Py_ssize_t n_attempts, uint64_t seed, int64_t[::1] stats,
                  int32_t[::1] work):
    """``n_attempts`` attempts of Fig. 2 (lines 3-11) from ``order``, each valid flip applied
    as the literal sampler does, nothing recorded (throughput).  ``stats`` = (attempts,
    flips that passed θ, accepted moves).  Returns the accepted moves or -1."""
    cdef State s
    cdef Rng rng
    cdef Py_ssize_t n = n_pos + n_neg, a
    cdef int64_t flips = 0, moves = 0
    cdef int res
    if (n_pos < 1 or n_neg < 1 or order.shape[0] != n or stats.shape[0] < 3 or n_attempts < 0
            or work.shape[0] < 7 * n + 7):
        return -1
    with nogil:
        _init_state(&s, n_pos, n_neg, work)
        _load(&s, &order[0], True)
        rng_seed(&rng, seed)
        for a in range(n_attempts):
            res = _attempt(&s, &rng)
            if res:
                flips += 1
                if res == 2:
                    moves += 1
        stats[0] = n_attempts
        stats[1] = flips
        stats[2] = moves
    return moves


def rejection_free_chain(Py_ssize_t n_pos, Py_ssize_t n_neg, const int32_t[::1] order,
                         Py_ssize_t n_moves, uint64_t seed, int32_t[::1] work,
                         int64_t[::1] work_w):
    """``n_moves`` rejection-free moves from ``order``, nothing recorded (throughput).
    Returns the number of blocks at the end, or -1."""
    cdef State s
    cdef Rng rng
    cdef Py_ssize_t n = n_pos + n_neg, a
    if (n_pos < 1 or n_neg < 1 or order.shape[0] != n or n_moves < 0
            or work.shape[0] < 7 * n + 7 or work_w.shape[0] < n):
        return -1
    with nogil:
        _init_state(&s, n_pos, n_neg, work)
        _load(&s, &order[0], False)
        rng_seed(&rng, seed)
        for a in range(n_moves):
            _rf_move(&s, &rng, &work_w[0])
    return s.K
