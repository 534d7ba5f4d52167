"""Limits of a user's ranker, enforced in the process it runs in: wall-clock time
(``--ranker-timeout``, ``$REPRO_RANKER_TIMEOUT``; default an hour) and memory
(``--ranker-memory``, ``$REPRO_RANKER_MEMORY``; default 80 % of the machine's memory).

The process sets its own address-space limit (``resource.setrlimit(RLIMIT_AS)``: an allocation
beyond it fails with ``MemoryError``) and an alarm (``signal.alarm``: the kernel ends the
process when the time is up); the command also ends it a few seconds later if it is still
there (a ranker that catches the alarm), so a run over a limit fails alone, saying which."""
from __future__ import annotations

import math
import os
import re
import resource
import signal
from dataclasses import dataclass

from ..errors import ReproError

TIMEOUT_ENV = "REPRO_RANKER_TIMEOUT"
MEMORY_ENV = "REPRO_RANKER_MEMORY"
DEFAULT_TIMEOUT = 3600.0
DEFAULT_MEMORY_SHARE = 0.8
_UNITS = {"": 1, "s": 1, "m": 60, "min": 60, "h": 3600}
_SIZES = {"": 1, "b": 1, "k": 2**10, "kb": 2**10, "m": 2**20, "mb": 2**20, "g": 2**30,
          "gb": 2**30, "t": 2**40, "tb": 2**40}


def parse_duration(text: str, what: str = "--ranker-timeout") -> float:
    """Seconds of ``90``, ``90s``, ``30m``, ``1.5h``."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(s|m|min|h)?\s*", str(text).lower())
    if not m or float(m.group(1)) <= 0:
        raise ReproError(f"{what} {text!r}: expected a positive duration such as 90, 90s, 30m "
                         f"or 2h")
    return float(m.group(1)) * _UNITS[m.group(2) or ""]


def parse_size(text: str, what: str = "--ranker-memory") -> int:
    """Bytes of ``4096``, ``500M``, ``8G``, ``1.5GB``."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?b?)\s*", str(text).lower())
    if not m or float(m.group(1)) <= 0:
        raise ReproError(f"{what} {text!r}: expected a positive size such as 500M, 8G or 1.5GB")
    return int(float(m.group(1)) * _SIZES[m.group(2)])


def machine_memory() -> int | None:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def size_text(n: int) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"


@dataclass(frozen=True)
class Limits:
    seconds: float
    memory: int | None         # bytes of address space; None: no limit

    def describe_timeout(self) -> str:
        return f"timed out after {self.seconds:g} s (--ranker-timeout)"

    def describe_memory(self) -> str:
        return (f"out of memory (over the --ranker-memory limit of {size_text(self.memory)})"
                if self.memory else "out of memory")


def ranker_limits() -> Limits:
    """The limits of this command (``$REPRO_RANKER_TIMEOUT``, ``$REPRO_RANKER_MEMORY``, which
    the options set), else the defaults."""
    t = os.environ.get(TIMEOUT_ENV, "").strip()
    m = os.environ.get(MEMORY_ENV, "").strip()
    total = machine_memory()
    memory = parse_size(m, MEMORY_ENV) if m else (
        int(total * DEFAULT_MEMORY_SHARE) if total else None)
    return Limits(parse_duration(t, TIMEOUT_ENV) if t else DEFAULT_TIMEOUT, memory)


#: The limits this process runs under (set by :func:`apply`), for the messages of its run.
CURRENT: Limits | None = None


def apply(limits: Limits) -> None:
    """In the ranker's process: its memory limit and its alarm."""
    global CURRENT
    CURRENT = limits
    if limits.memory:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = limits.memory if hard == resource.RLIM_INFINITY else min(limits.memory, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(max(1, math.ceil(limits.seconds)))
