"""The five papers.  Each module declares ``PAPER`` (bibliographic data), ``ARTIFACTS``
(tables, figures and checks, as data), ``CODE`` (modules whose source is part of its results'
cache keys) and the task / figure functions its artifacts name.  Published numbers are in
``<paper>.toml`` next to the module."""
from __future__ import annotations

import importlib

from ..errors import ReproError

PAPER_IDS = ("stevens2010", "dubey2009", "leelin2014", "lesmola2007", "pahikkala2010")
_REGISTERED: dict = {}


def register(mod) -> None:
    """Add a paper module from outside the package (an extension, or a test)."""
    _REGISTERED[mod.PAPER.id] = mod


def unregister(paper: str) -> None:
    _REGISTERED.pop(paper, None)


def paper_ids() -> tuple[str, ...]:
    return PAPER_IDS + tuple(p for p in _REGISTERED if p not in PAPER_IDS)


def module(paper: str):
    if paper in _REGISTERED:
        return _REGISTERED[paper]
    if paper not in PAPER_IDS:
        raise ReproError(f"unknown paper {paper!r}; papers: {', '.join(paper_ids())}")
    return importlib.import_module(f"{__name__}.{paper}")


def artifacts(paper: str | None = None):
    papers = paper_ids() if paper is None else (paper,)
    return [a for p in papers for a in module(p).ARTIFACTS]


def resolve(target: str, paper: str | None = None):
    """Artifacts named by ``target``: ``all``, a paper id, ``<paper>.<artifact>``, or a short
    artifact name (every paper's artifact of that name, narrowed by ``paper``)."""
    if target == "all":
        return artifacts(paper)
    if target in paper_ids():
        return artifacts(target)
    if "." in target:
        p, name = target.split(".", 1)
        found = [a for a in artifacts(p) if a.name == name]
    else:
        found = [a for a in artifacts(paper) if a.name == target]
    if not found:
        names = sorted({a.name for a in artifacts(paper)})
        raise ReproError(f"no artifact {target!r}" + (f" in {paper}" if paper else "")
                         + f"; artifacts: {', '.join(names)} (see `python -m repro list`)")
    return found
