"""The outcome of one run: what the cache stores, the backends return and reports read."""
from __future__ import annotations

from dataclasses import dataclass

from ..spec import RunSpec


@dataclass
class RunResult:
    spec: RunSpec
    status: str                     # done | not run | failed
    why: str = ""
    output: dict | None = None
    seconds: float | None = None
    cached: bool = False
    key: str = ""
    finished: str = ""
    refused: bool = False           # its data failed verification (corrupt): not run
    blas: str = ""                  # the BLAS library and kernel it was computed with
