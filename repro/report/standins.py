"""Stand-in data, labelled the same way wherever a page names a data set: a value, a claim,
a table's row or column heading, a scoreboard row — "OHSUMED (stand-in for HP2004)".

What stands in for what comes from three places: a record computed on substitute data says
so itself (``stand_in``, ``data_used``; its ``dataset`` is then the paper's label); an
artifact's meta lists each data set it used with ``stand_in_for`` (a stand-in that keeps its
own label, such as dubey2009's MQ2008 for HP2004); and a paper's TOML may declare, for the
pages only, data that stands in although its records keep their own label::

    [report.stand_ins]
    # lesmola2007: the web-search claims are also tested on OHSUMED, a second stand-in
    OHSUMED = "web-search-lesmola"
"""
from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path


def declared_stand_ins(paper: str, path=None) -> dict[str, str]:
    """The ``[report.stand_ins]`` of a paper's TOML (data set → the paper's data set it
    stands in for); {} without one."""
    p = Path(path) if path else resources.files("repro.papers").joinpath(f"{paper}.toml")
    try:
        raw = tomllib.loads(Path(str(p)).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in raw.get("report", {}).get("stand_ins", {}).items()}


def stand_ins_of(meta: dict | None, declared: dict[str, str] | None = None) -> dict[str, str]:
    """Data set used → the paper's data set it stands in for, of one artifact: its meta's
    ``stand_in_for`` entries and the paper's declared ones."""
    out = dict(declared or {})
    for d in (meta or {}).get("datasets", []):
        if d.get("stand_in_for") and d.get("status") == "used":
            out[d["dataset"]] = d["stand_in_for"]
    return out


def data_used(r: dict) -> str:
    """The data set a record's value was computed on."""
    return str(r.get("data_used") or r.get("dataset") or "")


def stands_for(r: dict, stand_ins: dict[str, str]) -> str | None:
    """The paper's data set a record's data stands in for (None: the paper's own data)."""
    used = data_used(r)
    if r.get("stand_in"):
        label = r.get("dataset")
        return label if label and label != used else stand_ins.get(used) or label
    return stand_ins.get(used)


def is_stand_in(r: dict, stand_ins: dict[str, str]) -> bool:
    """Whether a record's value was computed on stand-in data (a value not run is on no
    data: never)."""
    return stands_for(r, stand_ins) is not None


def label(used: str, paper: str | None) -> str:
    """"OHSUMED (stand-in for HP2004)"; the data set alone when it is the paper's."""
    if not paper:
        return used
    return f"{used} (stand-in for {paper})" if paper != used else f"{used} (stand-in)"


def data_label(r: dict, stand_ins: dict[str, str]) -> str:
    """How a page names a record's data set: the data it was computed on, and what that
    stands in for."""
    return label(data_used(r), stands_for(r, stand_ins))
