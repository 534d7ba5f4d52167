"""The papers, discovered, and the resolvers the runner and the report use to reach their code.

A paper declares itself; nothing lists it.  Papers are found

* by **package scan**: every sub-package of ``repro/papers/`` (a directory with an
  ``__init__.py`` next to a ``<id>.toml`` of published numbers) is a paper;
* by **entry point**: an installed distribution may add papers under the entry-point group
  ``repro.papers`` (``name = "package.module"``, the module being a paper);
* by :func:`register` (a module from outside, e.g. a test).

Each paper is a package ``repro/papers/<id>/``: ``__init__.py`` declares ``PAPER``
(bibliographic data; ``Paper.order`` places it among the others), ``NOTES`` and ``ARTIFACTS``
(tables, figures and checks, as data), their words read from ``prose.md`` (:mod:`.prose`); ``tasks.py`` re-exports the task functions (one run
each, from the module of their study) and any custom aggregation the artifacts name;
``figures.py`` the figure functions.  Published numbers are in ``<id>.toml`` next to the
package.  A paper registered from outside may be a single module holding all of these.
``docs/adding-a-paper.md`` walks through adding one.
"""
from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import pkgutil
from functools import lru_cache
from pathlib import Path

from ..errors import ReproError
from . import prose

ENTRY_POINTS = "repro.papers"
_HERE = Path(__file__).resolve().parent
_REGISTERED: dict = {}


def _scanned() -> list[str]:
    """Sub-packages of ``repro/papers`` that have a TOML of published numbers beside them."""
    return [m.name for m in pkgutil.iter_modules([str(_HERE)])
            if m.ispkg and (_HERE / f"{m.name}.toml").is_file()]


def _entry_points() -> dict[str, str]:
    """``{paper id: module}`` of papers installed under the ``repro.papers`` entry points."""
    try:
        eps = importlib.metadata.entry_points(group=ENTRY_POINTS)
    except Exception:                          # a broken distribution must not stop the suite
        return {}
    return {ep.name: ep.value for ep in eps}


@lru_cache(maxsize=1)
def _discovered() -> tuple[tuple[str, str], ...]:
    """``(paper id, module name)`` of every discovered paper, in ``Paper.order`` then id."""
    found = {name: f"{__name__}.{name}" for name in _scanned()}
    for pid, mod in _entry_points().items():
        found.setdefault(pid, mod)
    order = {}
    for pid, mod in found.items():
        try:
            paper = getattr(importlib.import_module(mod), "PAPER", None)
        except ImportError as exc:
            raise ReproError(f"paper package {mod} cannot be imported: {exc}") from exc
        if paper is None or paper.id != pid:
            raise ReproError(f"paper package {mod} declares no PAPER with id {pid!r}")
        order[pid] = (paper.order, pid)
    return tuple((pid, found[pid]) for pid in sorted(found, key=order.get))


def discovered_ids() -> tuple[str, ...]:
    return tuple(pid for pid, _ in _discovered())


def register(mod) -> None:
    """Add a paper module from outside the package (an extension, or a test)."""
    _REGISTERED[mod.PAPER.id] = mod


def unregister(paper: str) -> None:
    _REGISTERED.pop(paper, None)


def paper_ids() -> tuple[str, ...]:
    ids = discovered_ids()
    return ids + tuple(p for p in _REGISTERED if p not in ids)


def known_ids() -> tuple[str, ...]:
    """Every paper id, sorted, without importing a paper (the package scan, the entry points'
    names and the registered papers): what the command line checks its arguments against."""
    return tuple(sorted({*_scanned(), *_entry_points(), *_REGISTERED}))


def artifact_names() -> dict[str, tuple[str, ...]]:
    """``{paper id: its artifact names}`` without importing the papers of this package: read
    from the sections of each one's ``prose.md`` (every artifact has one: :mod:`.prose`);
    a paper from elsewhere (entry point, :func:`register`) is imported for its names."""
    scanned = set(_scanned())
    out = {}
    for pid in known_ids():
        words = _HERE / pid / prose.FILE
        if pid in scanned and pid not in _REGISTERED and words.is_file():
            out[pid] = tuple(prose.parse(words.read_text(encoding="utf-8"), str(words)).artifacts)
        else:
            out[pid] = tuple(a.name for a in module(pid).ARTIFACTS)
    return out


def refuse_unknown(target: str, paper: str | None = None) -> None:
    """Raise the error of :func:`resolve` for a ``target`` that names no paper or artifact,
    from :func:`artifact_names` alone (so that a misspelled name is refused at once)."""
    names = artifact_names()
    for p in ([paper] if paper else []) + ([target.split(".", 1)[0]] if "." in target else []):
        if p not in names:
            raise ReproError(f"unknown paper {p!r}; papers: {', '.join(known_ids())}")
    if target == "all" or target in names:
        return
    if "." in target:
        p, name = target.split(".", 1)
        if name in names[p]:
            return
    elif target in (names[paper] if paper else {n for ns in names.values() for n in ns}):
        return
    known = sorted(set(names[paper] if paper else (n for ns in names.values() for n in ns)))
    raise ReproError(f"no artifact {target!r}" + (f" in {paper}" if paper else "")
                     + f"; artifacts: {', '.join(known)} (see `python -m repro list`)")


def module(paper: str):
    if paper in _REGISTERED:
        return _REGISTERED[paper]
    found = dict(_discovered())
    if paper not in found:
        raise ReproError(f"unknown paper {paper!r}; papers: {', '.join(paper_ids())}")
    return importlib.import_module(found[paper])


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
    the modern reference's and a user's ranker's tasks are shared by every paper."""
    from ..spec import REFERENCE_TASK, USER_RANKER_TASK
    if name in (REFERENCE_TASK, USER_RANKER_TASK):
        from ..evidence import reference      # LightGBM: imported by the runs that use it
        return (reference.task_modern_reference if name == REFERENCE_TASK
                else reference.task_user_ranker)
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


def conventions() -> dict:
    """The metric conventions the papers declare (a paper's ``CONVENTION``: a
    :class:`repro.metrics.family.Convention` named by its id), by name."""
    out = {}
    for pid in paper_ids():
        conv = getattr(module(pid), "CONVENTION", None)
        if conv is not None:
            out[conv.name] = conv
    return out


def bench_inputs(group: str) -> list:
    """``(paper, input)`` of every paper that declares an input for benchmark ``group``
    (its ``BENCH_INPUTS[group]``): what ``repro.bench`` is handed, so that it names no
    paper."""
    return [(pid, inputs[group]) for pid in paper_ids()
            for inputs in [getattr(module(pid), "BENCH_INPUTS", {})] if group in inputs]
