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
3. the same walks recording every state (what drawing Ŷ costs end to end), for information.

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
    return rows
