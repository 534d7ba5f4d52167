"""What every benchmark group shares: a case row (the machine description is
:func:`repro.provenance.machine`, as on every page)."""
from __future__ import annotations


def case(name: str, params: dict, times: dict[str, float], ours: str = "ours", **extra) -> dict:
    """A benchmark row: our time, each peer's time and the ratio peer/ours."""
    peers = {k: v for k, v in times.items() if k != ours}
    return {"name": name, "params": params, "ours_s": times[ours], "peers_s": peers,
            "ratios": {k: v / times[ours] for k, v in peers.items()}, **extra}
