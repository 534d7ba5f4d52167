"""The shell commands a page shows beside an artifact, a table, a cell or a claim: how to
recompute its values and how to write their per-query values."""
from __future__ import annotations

#: the placeholder of the data directory in the commands a page shows
DATA_PLACEHOLDER = "DATA"


def commands(paper: str, artifact: str) -> dict:
    """The shell commands that recompute an artifact's values and write its per-query values
    (the reader replaces ``DATA`` by their data directory)."""
    target = f"{paper}.{artifact}"
    return {"recompute": f"python -m repro {target} --data-dir {DATA_PLACEHOLDER}",
            "runs": f"python -m repro runs {target} --out runs/ --data-dir {DATA_PLACEHOLDER}"}
