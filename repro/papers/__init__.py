"""The five papers, and the resolvers the runner and the report use to reach their code.

Each paper is a package ``repro/papers/<id>/``: ``__init__.py`` declares ``PAPER``
(bibliographic data), ``NOTES`` and ``ARTIFACTS`` (tables, figures and checks, as data);
``tasks.py`` holds the task functions (one run each) and custom aggregations the artifacts
name; ``figures.py`` the figure functions.  Published numbers are in ``<id>.toml`` next to the
package.  A paper registered from outside (an extension, a test) may be a single module holding
all of these.
"""
from __future__ import annotations

import importlib
import importlib.util

from .. import reference
from ..errors import ReproError
from ..experiment import REFERENCE_TASK

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


def _part(paper: str, part: str):
    """The paper's ``tasks`` or ``figures`` submodule, or the paper module itself."""
    mod = module(paper)
    name = f"{mod.__name__}.{part}"
    if hasattr(mod, "__path__") and importlib.util.find_spec(name) is not None:
        return importlib.import_module(name)
    return mod


def _function(paper: str, part: str, name: str):
    owner = _part(paper, part)
    try:
        return getattr(owner, name)
    except AttributeError:
        raise ReproError(f"{paper}: no function {name!r} in {owner.__name__}") from None


def task(paper: str, name: str):
    """The task function ``name`` of ``paper`` (module-level, so process pools can call it);
    the modern reference's task is shared by every paper."""
    if name == REFERENCE_TASK:
        return reference.task_modern_reference
    return _function(paper, "tasks", name)


def figure(paper: str, name: str):
    """The figure function ``name`` of ``paper``."""
    return _function(paper, "figures", name)


def aggregation(paper: str, name: str):
    """A custom aggregation function of ``paper`` (in its tasks module)."""
    return _function(paper, "tasks", name)


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
