"""Benchmark group ``sampler``: the swap sampler of Dubey et al. (2009), Fig. 2.

Peers, all in one run:

1. the Cython literal sampler (``repro._kernels.swap_sampler``) against a pure-Python
   transcription of Fig. 2 on the same data structures (:class:`PythonFig2`, here), in attempts
   per second (lines 3–11; same O(1) validity test, same state), on OHSUMED Fold1 training
   queries;
2. the rejection-free sampler against the Cython literal sampler, in accepted moves per second,
   on walks of the experiments' shape (restarts at y_q with probability 0.9, else at the worst
   ranking; 10 moves per walk) over every OHSUMED Fold1 training query, without recording the
   states (the samplers' own work);
3. the same walks recording every state (what drawing Ŷ costs end to end), for information;
4. Dubey et al.'s sampled objective (``repro._kernels.conditional``, ConvexLoss with Δ_NDCG, the
   Figure 3 sample of 1,000 states per query) against the same objective and score gradient
   in NumPy from every sampled ranking's wins (:func:`numpy_objective`, here), per evaluation
   (the kernel's one exp per sampled ranking is the fixed exp of ``kernels/fixed_exp.h``).

Times are normalised per million attempts (1) or per million accepted moves (2, 3); a ratio is
peer / ours (> 1: ours is faster).
"""
from __future__ import annotations

import random

import numpy as np

from ..data.load import load_letor
from ..errors import DataCorrupt, DataMissing
from ..rankers import swap_sampler as ss
from .common import Timings, case, interleaved


def per_unit(t: Timings, units: dict[str, float]) -> Timings:
    """The same rounds in seconds per 10⁶ units (attempts, moves) of each contender, so that
    per-round ratios compare rates."""
    return Timings({k: [x / units[k] * 1e6 for x in v] for k, v in t.times.items()}, t.ours,
                   t.load_before, t.load_after, t.cpu)


class PythonFig2:
    """Fig. 2 in plain Python on the kernel's state (merged order cut into one-class blocks,
    each block's wins, each document's block): the benchmark's peer."""

    def __init__(self, n_pos: int, n_neg: int, order, seed: int):
        self.n_pos, self.n_neg, self.n = n_pos, n_neg, n_pos + n_neg
        self.rng = random.Random(seed)
        self.load(list(order))

    def load(self, order: list[int]) -> None:
        self.order = order[:]
        self.pos = [0] * self.n
        for p, d in enumerate(order):
            self.pos[d] = p
        self.bstart, self.bsize, self.btype = [], [], []
        for p, d in enumerate(order):
            t = d < self.n_pos
            if not self.btype or self.btype[-1] != t:
                self.bstart.append(p)
                self.bsize.append(1)
                self.btype.append(t)
            else:
                self.bsize[-1] += 1
        self.bwin = [0] * len(self.bsize)
        goods = bads = 0
        for k in range(len(self.bsize) - 1, -1, -1):
            if self.btype[k]:
                self.bwin[k] = bads
                goods += self.bsize[k]
            else:
                self.bwin[k] = goods
                bads += self.bsize[k]
        self.relabel(0)

    def relabel(self, k0: int) -> None:
        self.blk = getattr(self, "blk", [0] * self.n)
        for k in range(k0, len(self.bsize)):
            for p in range(self.bstart[k], self.bstart[k] + self.bsize[k]):
                self.blk[self.order[p]] = k

    def swap(self, p: int, q: int) -> None:
        a, b = self.order[p], self.order[q]
        self.order[p], self.order[q] = b, a
        self.pos[b], self.pos[a] = p, q

    def apply(self, k: int, pu: int, pv: int) -> None:
        """Flip u (block k) and v (block k+1), as the kernel's ``_apply_move``."""
        e = self.bstart[k + 1]
        tu, tv, wu, wv = self.btype[k], self.btype[k + 1], self.bwin[k], self.bwin[k + 1]
        size_k, size_k1 = self.bsize[k], self.bsize[k + 1]
        self.swap(pu, e - 1)
        self.swap(pv, e)
        self.swap(e - 1, e)
        new, lo, hi = [], k, k + 2
        if size_k == 1 and k > 0:
            lo = k - 1
            new.append((self.bstart[k - 1], self.bsize[k - 1] + 1, self.bwin[k - 1], tv))
        else:
            if size_k > 1:
                new.append((self.bstart[k], size_k - 1, wu, tu))
            new.append((e - 1, 1, wv + 1, tv))
        if size_k1 == 1 and k + 2 < len(self.bsize):
            hi = k + 3
            new.append((e, self.bsize[k + 2] + 1, self.bwin[k + 2], tu))
        else:
            new.append((e, 1, wu - 1, tu))
            if size_k1 > 1:
                new.append((e + 1, size_k1 - 1, wv, tv))
        for arr, i in ((self.bstart, 0), (self.bsize, 1), (self.bwin, 2), (self.btype, 3)):
            arr[lo:hi] = [b[i] for b in new]
        self.relabel(lo)

    def attempt(self) -> int:
        """One attempt of Fig. 2, lines 3–11: 0 no flip, 1 invalid flip, 2 accepted."""
        g = self.rng.randrange(self.n_pos)                            # lines 3-4
        b = self.n_pos + self.rng.randrange(self.n_neg)
        kg, kb = self.blk[g], self.blk[b]                             # line 5
        if kg < kb:                                                   # lines 6-7
            num = self.n_neg - self.bwin[kg] + self.bwin[kb] + 1
        else:                                                         # line 9
            num = self.n_pos + self.bwin[kg] - self.bwin[kb] + 1
        if self.rng.randrange(self.n + 2) >= num:                     # line 10
            return 0
        if abs(kg - kb) != 1:                                         # line 11
            return 1
        if kg < kb:
            self.apply(kg, self.pos[g], self.pos[b])
        else:
            self.apply(kb, self.pos[b], self.pos[g])
        return 2

    def wins(self) -> np.ndarray:
        out = np.empty(self.n, dtype=np.int32)
        for k in range(len(self.bsize)):
            for p in range(self.bstart[k], self.bstart[k] + self.bsize[k]):
                out[self.order[p]] = self.bwin[k]
        return out


def python_chain(n_pos: int, n_neg: int, order, n_attempts: int, seed: int) -> tuple[int, int, int]:
    """``(attempts, flips, accepted moves)`` of the Python transcription (as
    :func:`repro.rankers.swap_sampler.literal_chain`)."""
    s = PythonFig2(n_pos, n_neg, order, seed)
    flips = moves = 0
    for _ in range(n_attempts):
        r = s.attempt()
        flips += r > 0
        moves += r == 2
    return n_attempts, flips, moves


def _queries(train) -> list[tuple[int, int]]:
    out = []
    for q in range(train.n_queries):
        g = train.y[train.query(q)] >= 1
        if 0 < g.sum() < g.size:
            out.append((int(g.sum()), int((~g).sum())))
    return out


def numpy_objective(wins_q: list, delta_q: list, n_pos, S, query_ptr, scale) -> tuple:
    """ConvexLoss Σ_q [LSE(u + Δ) − u_0] and its gradient in the scores, in NumPy from the
    wins of every sampled ranking (u_j = s (2 wins_j·S − c_q), O(|Ŷ_q| n_q) per query): the
    benchmark's peer of the kernel's forest evaluation."""
    v = np.zeros(S.shape[0])
    total = 0.0
    for q, (W, dl) in enumerate(zip(wins_q, delta_q)):
        lo, hi = int(query_ptr[q]), int(query_ptr[q + 1])
        p = int(n_pos[q])
        Sq = S[lo:hi]
        nopp = np.r_[np.full(p, hi - lo - p), np.full(hi - lo - p, p)].astype(np.float64)
        u = scale[q] * (2.0 * (W @ Sq) - nopp @ Sq)
        t = u + dl
        mx = t.max()
        e = np.exp(t - mx)
        z = e.sum()
        total += mx + np.log(z) - u[0]
        gam = e / z
        gam[0] -= 1.0
        v[lo:hi] += scale[q] * (2.0 * (gam @ W) - nopp * gam.sum())
    return total, v


def _objective_case(train, quick: bool) -> dict:
    """One evaluation of the sampled ConvexLoss_NDCG objective: the kernel against NumPy."""
    from ..rankers.conditional import ConditionalObjective, ConditionalRanker
    size = 100 if quick else 1000
    r = ConditionalRanker(objective="ConvexLoss", delta="NDCG", sample_size=size)
    gf, sample, _ = r._prepare(train.X, train.y, train.query_ptr)
    fun = ConditionalObjective(gf, sample, "ConvexLoss", "NDCG", 1.0)
    S = gf.X @ (np.random.default_rng(0).standard_normal(gf.X.shape[1]) * 0.1)
    wins = [sample.query_wins(gf, q).astype(np.float64) for q in range(gf.n_queries)]
    dl = [fun.delta_values[sample.row_ptr[q]:sample.row_ptr[q + 1]] for q in range(gf.n_queries)]
    f_ours, v_ours = fun.loss(S)
    f_np, v_np = numpy_objective(wins, dl, gf.n_pos, S, gf.query_ptr, fun.scale)
    reps = 20 if quick else 200
    fns = {"ours": lambda: [fun.loss(S) for _ in range(reps)],
           "NumPy from every ranking's wins": lambda: [
               numpy_objective(wins, dl, gf.n_pos, S, gf.query_ptr, fun.scale)
               for _ in range(max(1, reps // 10))]}
    t = interleaved(fns, repeats=3 if quick else 7)
    per = per_unit(t, {"ours": reps * 1e6, "NumPy from every ranking's wins":
                       max(1, reps // 10) * 1e6})                # seconds per evaluation
    return case("Dubey et al.'s sampled objective (ConvexLoss, Δ_NDCG): one evaluation, seconds "
                "(kernel: forest of moves, one fixed exp per sampled ranking)",
                {"queries": gf.n_queries, "data": "OHSUMED Fold1 train",
                 "sampled rankings": int(sample.row_ptr[-1]), "states per query": size},
                per, relative_difference_of_f=abs(f_ours - f_np) / abs(f_np),
                max_abs_difference_of_gradient=float(np.abs(v_ours - v_np).max()))


def bench(data_dir, quick: bool) -> list[dict]:
    try:
        train = load_letor("OHSUMED", 1, "train", data_dir)
    except (DataMissing, DataCorrupt, OSError):
        return []
    queries = _queries(train)
    repeats = 3 if quick else 7
    # 1. attempts: Cython literal against pure Python, the same attempts on every query
    py_att = 2000 if quick else 10000
    cy_att = 100000 if quick else 200000
    start = {q: ss.best_order(*q) for q in queries}
    fns = {"ours": lambda: [ss.literal_chain(p, n, start[(p, n)], cy_att, 1) for p, n in queries],
           "pure-Python transcription of Fig. 2": lambda: [
               python_chain(p, n, start[(p, n)], py_att, 1) for p, n in queries]}
    t = interleaved(fns, repeats=max(1, repeats // 2))
    per = per_unit(t, {"ours": cy_att * len(queries),
                       "pure-Python transcription of Fig. 2": py_att * len(queries)})
    rows = [case("Fig. 2 attempts: Cython literal sampler vs pure Python (seconds per 10⁶ "
                 "attempts)", {"queries": len(queries), "data": "OHSUMED Fold1 train",
                               "attempts per query (ours / Python)": [cy_att, py_att],
                               "start": "y_q"}, per)]
    # 2./3. accepted moves on walks of the experiments' shape, without / with recording
    lit_states, rf_states = (22, 2200) if quick else (220, 22000)
    dist = {q: ss.restart_distribution(*q, skew=0.9) for q in queries}
    for record in (False, True):
        moves = {}

        def run(method, states, record=record):
            total = 0
            for i, (p, n) in enumerate(queries):
                o, pr = dist[(p, n)]
                total += ss.walks(p, n, o, pr, states, 10, 1000 + i, method, record=record).moves
            moves[method] = total
        fns = {"ours": lambda: run("rejection_free", rf_states),
               "Cython literal sampler": lambda: run("literal", lit_states)}
        t = interleaved(fns, repeats=repeats)
        per = per_unit(t, {"ours": moves["rejection_free"],
                           "Cython literal sampler": moves["literal"]})
        what = "recording every state" if record else "states not recorded"
        rows.append(case(f"accepted moves: rejection-free vs Cython literal sampler, walks of "
                         f"10 moves, {what} (seconds per 10⁶ moves)",
                         {"queries": len(queries), "data": "OHSUMED Fold1 train",
                          "restarts": "y_q w.p. 0.9, else the worst ranking",
                          "states per query (ours / literal)": [rf_states, lit_states]}, per,
                         moves_per_second={"rejection-free": round(1e6 / per.median("ours")),
                                           "literal": round(1e6 / per.median(
                                               "Cython literal sampler"))}))
    rows.append(_objective_case(train, quick))
    return rows
