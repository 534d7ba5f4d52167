"""Stand-in data, labelled the same way wherever a page names a data set: a value, a claim,
a table's row or column heading, a scoreboard row — "OHSUMED (stand-in for HP2004)",
"Corel5k (stand-in for Corel-Small-Easy)": a data set by the name a reader knows (a paper's
``[report.names]``: "corel-pamir:Small-Easy" is the thesis's "Corel-Small-Easy"), never by
its catalogue id.

What stands in for what comes from three places: a record computed on substitute data says
so itself (``stand_in``, ``data_used``; its ``dataset`` is then the paper's label); an
artifact's meta lists each data set it used with ``stand_in_for`` (a stand-in that keeps its
own label, such as dubey2009's MQ2008 for HP2004); and a paper's TOML may declare, for the
pages only, data that stands in although its records keep their own label::

    [report.stand_ins]
    # lesmola2007: the web-search claims are also tested on OHSUMED, a second stand-in
    OHSUMED = "web-search-lesmola"

Both tables are read by :func:`repro.judge.published.load`, with the paper's published
values.
"""
from __future__ import annotations

from functools import lru_cache

from .. import papers as registry
from ..judge.published import load as load_published


def declared_stand_ins(paper: str, path=None) -> dict[str, str]:
    """The ``[report.stand_ins]`` of a paper's TOML (data set → the paper's data set it
    stands in for); {} without one."""
    return dict(load_published(paper, path).stand_ins)


@lru_cache(maxsize=4)
def _names(papers: tuple[str, ...]) -> dict[str, str]:
    """Catalogue id → name, over the ``[report.names]`` of ``papers`` (one id, one name)."""
    out: dict[str, tuple[str, str]] = {}
    for pid in papers:
        path = getattr(registry.module(pid), "PUBLISHED_PATH", None)
        for k, v in load_published(pid, path).names.items():
            if k in out and out[k][0] != v:
                raise ValueError(f"data set {k!r} is named {out[k][0]!r} by {out[k][1]} and "
                                 f"{v!r} by {pid} ([report.names] of their TOML files)")
            out[k] = (v, pid)
    return {k: v for k, (v, _) in out.items()}


def name(dataset: str | None) -> str:
    """A data set as a reader knows it: its name in a paper's ``[report.names]``, else its
    label as it is ("MQ2008")."""
    if not dataset:
        return ""
    return _names(tuple(registry.paper_ids())).get(str(dataset), str(dataset))


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
    """"OHSUMED (stand-in for HP2004)", "Corel5k (stand-in for Corel-Small-Easy)"; the data
    set alone (by its name) when it is the paper's."""
    if not paper:
        return name(used)
    return (f"{name(used)} (stand-in for {name(paper)})" if paper != used
            else f"{name(used)} (stand-in)")


def data_label(r: dict, stand_ins: dict[str, str]) -> str:
    """How a page names a record's data set: the data it was computed on, and what that
    stands in for."""
    return label(data_used(r), stands_for(r, stand_ins))
