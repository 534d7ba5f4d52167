"""The shell commands a page shows beside an artifact, a table, a cell or a claim: how to
recompute its values (into a directory of the reader's own: ``--out``, never the committed
reports) and, where the artifact has per-query values, how to write them — with the options
the page was made with (``--on``, ``--ranker``, ``--allow-unverified``)."""
from __future__ import annotations

#: the placeholder of the data directory in the commands a page shows
DATA_PLACEHOLDER = "DATA"
#: where the commands a page shows write their reports
OUT_PLACEHOLDER = "my-reports/"


def commands(paper: str, artifact: str, options: list[str] | tuple = (),
             per_query: bool = True) -> dict:
    """The shell commands that recompute an artifact's values and (``per_query``: the
    artifact has per-query values) write its per-query values; ``options``: the flags the
    page was made with (the reader replaces ``DATA`` by their data directory)."""
    target = f"{paper}.{artifact}"
    extra = "".join(f" {o}" for o in options)
    out = {"recompute": f"python -m repro {target}{extra} --data-dir {DATA_PLACEHOLDER} "
                        f"--out {OUT_PLACEHOLDER}",
           "runs": ""}
    if per_query:
        out["runs"] = (f"python -m repro runs {target}{extra} --out runs/ --data-dir "
                       f"{DATA_PLACEHOLDER}")
    return out


def page_options(meta: dict) -> list[str]:
    """The command-line options an artifact's page was made with, from its meta: ``--on``
    (a user's data set in place of the paper's), ``--ranker`` (a user's rankers beside the
    paper's methods), ``--allow-unverified`` (an unverified copy of a catalogued set)."""
    opts = list(meta.get("options") or [])
    if opts:
        return opts
    for d in meta.get("datasets", []):       # meta files written before "options"
        if d.get("like"):
            opts.append(f"--on {d['dataset']}")
    return opts
