"""What every benchmark group shares: a case row and the machine description."""
from __future__ import annotations

import os
import platform

import numpy as np


def case(name: str, params: dict, times: dict[str, float], ours: str = "ours", **extra) -> dict:
    """A benchmark row: our time, each peer's time and the ratio peer/ours."""
    peers = {k: v for k, v in times.items() if k != ours}
    return {"name": name, "params": params, "ours_s": times[ours], "peers_s": peers,
            "ratios": {k: v / times[ours] for k, v in peers.items()}, **extra}


def machine() -> dict:
    return {"python": platform.python_version(), "numpy": np.__version__,
            "platform": platform.platform(), "cpus": os.cpu_count(),
            "processor": platform.processor() or platform.machine()}
