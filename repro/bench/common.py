"""What every benchmark group shares: the timing protocol that holds on a busy machine, and a
case row (the machine description is :func:`repro.run.provenance.machine`, as on every page).

Protocol (:func:`interleaved`): after a warm-up call of each contender, ``repeats`` rounds;
in each round every contender runs once, back to back (ours, peer, …; the order rotates from
one round to the next so that neither side always runs first).  A load spike then slows both
sides of a round alike, so the ratio *within* a round (peer seconds / our seconds) is far
steadier than either time: each case stores, for every peer, the min / median / max of these
per-round ratios besides the min / median / max of every time.  The CPU model (from
``/proc/cpuinfo``) and the load averages just before and after the case are recorded with it,
so a reader can tell a quiet run from a crowded one.

Adopting it in a group: replace ``time_alternating(fns, repeats=r)`` by
``interleaved(fns, repeats=r)`` and pass its result to :func:`case` unchanged (``case`` also
still takes a plain ``{name: seconds}`` dict, for cases timed some other way).
"""
from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable


#: How :func:`interleaved` times, as recorded with every case it timed.
PROTOCOL = ("warm-up, then interleaved rounds (each contender once per round, order rotating); "
            "times and ratios are medians over rounds, ratio = peer / ours within a round")


@lru_cache(maxsize=1)
def cpu_model() -> str:
    """The processor's model name (``/proc/cpuinfo``), else :func:`platform.processor`."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Processor", "cpu model") and value.strip():
                return value.strip()
    except OSError:
        pass
    import platform
    return platform.processor() or platform.machine() or "unknown"


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages (None where the system does not say)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def spread(values) -> dict[str, float]:
    """``{"min", "median", "max"}`` of ``values``."""
    v = list(values)
    return {"min": min(v), "median": statistics.median(v), "max": max(v)}


@dataclass
class Timings:
    """Times of one case, per contender (``times[name][round]``), timed by
    :func:`interleaved`; ``ours`` names our contender."""
    times: dict[str, list[float]]
    ours: str = "ours"
    load_before: list[float] | None = None
    load_after: list[float] | None = None
    cpu: str = field(default_factory=cpu_model)

    @property
    def repeats(self) -> int:
        return len(self.times[self.ours])

    def median(self, name: str) -> float:
        return statistics.median(self.times[name])

    def ratios(self, peer: str) -> list[float]:
        """Per-round ratios peer seconds / our seconds (> 1: ours is faster)."""
        return [p / o for p, o in zip(self.times[peer], self.times[self.ours])]

    def fields(self) -> dict:
        """The protocol's record for a case row (flat ``{contender: number}`` dicts, as the
        benchmarks page shows them): per peer the min / median / max of the per-round ratios,
        per contender the fastest and slowest time (the medians are ``ours_s``/``peers_s``)."""
        peers = [k for k in self.times if k != self.ours]
        ratio = {k: spread(self.ratios(k)) for k in peers}
        return {"repeats": self.repeats,
                "ratio_min": {k: ratio[k]["min"] for k in peers},
                "ratio_median": {k: ratio[k]["median"] for k in peers},
                "ratio_max": {k: ratio[k]["max"] for k in peers},
                "time_min_s": {k: min(v) for k, v in self.times.items()},
                "time_max_s": {k: max(v) for k, v in self.times.items()},
                "protocol": PROTOCOL, "cpu_model": self.cpu,
                "load_average_before": self.load_before, "load_average_after": self.load_after}


def interleaved(fns: dict[str, Callable[[], object]], repeats: int = 7, warmup: int = 1,
                ours: str = "ours", clock: Callable[[], float] = time.perf_counter) -> Timings:
    """Time every callable of ``fns`` (ours under the key ``ours``) in ``repeats`` interleaved
    rounds after ``warmup`` calls each; see the module docstring."""
    if ours not in fns:
        raise ValueError(f"interleaved: no contender named {ours!r} among {list(fns)}")
    if repeats < 1:
        raise ValueError(f"interleaved: repeats must be ≥ 1, not {repeats}")
    load_before = load_average()
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    names = list(fns)
    times: dict[str, list[float]] = {k: [] for k in names}
    for r in range(repeats):
        for k in names[r % len(names):] + names[:r % len(names)]:
            t0 = clock()
            fns[k]()
            times[k].append(clock() - t0)
    return Timings(times, ours, load_before, load_average())


def case(name: str, params: dict, times: dict[str, float] | Timings, ours: str = "ours",
         **extra) -> dict:
    """A benchmark row: our time, each peer's time and the ratio peer/ours.

    With :class:`Timings` the times are medians, the ratio is the median of the per-round
    ratios, and the protocol's fields (:meth:`Timings.fields`) are added.  Extra fields
    (``**extra``) are stored as given."""
    if isinstance(times, Timings):
        t = times
        peers = {k: t.median(k) for k in t.times if k != t.ours}
        return {"name": name, "params": params, "ours_s": t.median(t.ours), "peers_s": peers,
                "ratios": {k: statistics.median(t.ratios(k)) for k in peers},
                **t.fields(), **extra}
    peers = {k: v for k, v in times.items() if k != ours}
    return {"name": name, "params": params, "ours_s": times[ours], "peers_s": peers,
            "ratios": {k: v / times[ours] for k, v in peers.items()}, **extra}
