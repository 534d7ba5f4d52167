"""Declarations: papers, their artifacts, the runs an artifact expands to, and how the records
of its runs are aggregated.

A paper package (``repro/papers/<id>/``) declares ``PAPER`` and ``ARTIFACTS`` as data.  An
artifact names a *task* (a function of the paper's ``tasks`` module computing one run), the
datasets, folds, repeats and parameters; ``quick`` overrides them for smoke runs.  One run is
one (task, dataset, fold, repeat, parameters): runs expand over the artifact's datasets × folds ×
repeats, so folds run apart (``--jobs`` spreads them, editing one fold's code reruns only what
changed).  Artifacts that declare the same run share it (computed and cached once).  A run's
seed is derived from its identity, never from global state or execution order.

Values computed across runs — fold averages, a query-weighted microaverage over datasets, the
maxima of validation curves averaged over folds — are declared in ``Artifact.aggregate`` and
computed when the records are gathered (:mod:`repro.aggregate`), never inside a task.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Paper:
    id: str
    title: str
    authors: str
    venue: str
    text: str                       # file name in ../shared/papers
    summary: str = ""


REFERENCE_TASK = "task_modern_reference"     # repro.reference: the modern reference runs


@dataclass(frozen=True)
class FoldMean:
    """Aggregation: the mean over folds of every record matched by ``select``, as a record with
    ``fold = label`` — only where the record exists for every fold the artifact declares (a
    --quick run on fewer folds gets none).  Folds are averaged in declaration order."""
    select: dict = field(default_factory=dict)
    label: str = "avg"


@dataclass(frozen=True)
class MicroAverage:
    """Aggregation: a query-weighted average over datasets of every record matched by
    ``select`` (records carry their number of queries in the field ``weight``), as a record
    with ``dataset = label`` — only where every dataset of the artifact contributed."""
    select: dict = field(default_factory=dict)
    weight: str = "queries"
    label: str = "microaverage"


@dataclass(frozen=True)
class Custom:
    """Aggregation by a function of the paper's ``tasks`` module:
    ``function(artifact, outputs) -> records``, with ``outputs`` the outputs of the artifact's
    finished runs as ``(RunSpec, output)`` pairs in declaration order."""
    function: str


@dataclass
class Artifact:
    """One table, figure or check of a paper, declared as data (not frozen: a declaration is
    built once at import; :meth:`effective` returns a modified copy, never mutates)."""
    paper: str
    name: str                       # the paper's own label: "table7", "figure4", "sectionII"
    title: str
    kind: str = "table"             # table | figure | check
    datasets: tuple[str, ...] = ()  # catalog ids (or "synthetic") the runs use
    stand_ins: dict = field(default_factory=dict)   # dataset used -> the paper's dataset
    task: str | None = None         # function of the paper's tasks module; None = not implemented
    not_run: str = ""               # with task None: why it cannot run (else "not implemented yet")
    folds: tuple | dict = (None,)   # fold ids (None: no folds), or {dataset or "*": fold ids}
    repeats: int = 1
    params: dict = field(default_factory=dict)
    quick: dict = field(default_factory=dict)       # overrides of folds/repeats/params
    metrics: tuple[str, ...] = ()   # the measures reported (shown in the report)
    methods: tuple[str, ...] = ()   # the rankers compared (shown in the report)
    select: dict = field(default_factory=dict)      # record filter: field -> allowed values
    aggregate: tuple = ()           # FoldMean / MicroAverage / Custom, applied in order
    reference: dict = field(default_factory=dict)   # modern reference runs (repro.reference):
    #                                 {"version": 3|4, "criterion": "MAP", "metrics": [...]}
    figure: str | None = None       # function of the paper's figures module drawing the figure
    description: str = ""
    choices: tuple[str, ...] = ()   # protocol details the paper leaves open, as decided here
    timing: bool = False            # its runs measure time: never run beside another run

    @property
    def id(self) -> str:
        return f"{self.paper}.{self.name}"

    def effective(self, quick: bool) -> "Artifact":
        """The declaration with ``quick`` overrides applied (for --quick)."""
        if not quick or not self.quick:
            return self
        q = dict(self.quick)
        params = {**self.params, **q.pop("params", {})}
        return replace(self, params=params, **q)

    def folds_for(self, dataset: str) -> tuple:
        """The folds run on ``dataset``."""
        if isinstance(self.folds, dict):
            return tuple(self.folds.get(dataset, self.folds.get("*", (None,))))
        return tuple(self.folds)

    def runs(self, quick: bool = False) -> list["RunSpec"]:
        art = self.effective(quick)
        if art.task is None:
            return []
        params = canonical(art.params)
        specs = [RunSpec(self.paper, art.task, ds, fold, rep, params, quick, art.timing)
                 for ds in art.datasets for fold in art.folds_for(ds)
                 for rep in range(art.repeats)]
        if art.reference:
            ref = canonical({**art.reference, "quick_grid": bool(quick)})
            specs += [RunSpec(self.paper, REFERENCE_TASK, ds, fold, 0, ref, quick)
                      for ds in art.datasets if ds not in art.stand_ins
                      for fold in art.folds_for(ds)]
        return specs


def canonical(obj: Any) -> str:
    """Canonical JSON (sorted keys, no spaces) of a parameter dict; numpy scalars allowed."""
    def default(o):
        if isinstance(o, (np.integer,)):
            return int(o)
        if isinstance(o, (np.floating,)):
            return float(o)
        if isinstance(o, (tuple, range, np.ndarray)):
            return list(o)
        raise TypeError(f"parameter value {o!r} is not JSON-serialisable")
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=default)


@dataclass(frozen=True)
class RunSpec:
    paper: str
    task: str
    dataset: str
    fold: int | str | None
    repeat: int
    params_json: str
    quick: bool = False
    exclusive: bool = False     # a timing run: executed alone (not part of its identity)

    @property
    def params(self) -> dict:
        return json.loads(self.params_json)

    @property
    def label(self) -> str:
        fold = "" if self.fold is None else f"/fold{self.fold}"
        rep = f"/rep{self.repeat}" if self.repeat else ""
        return f"{self.paper}/{self.task}/{self.dataset}{fold}{rep}" + (" (quick)" if self.quick else "")

    @property
    def identity(self) -> dict:
        """What determines the run's result (``quick`` does not: its overrides are already
        in the folds and parameters, so a run that --quick leaves unchanged is shared)."""
        return {"paper": self.paper, "task": self.task, "dataset": self.dataset,
                "fold": self.fold, "repeat": self.repeat, "params": self.params}

    @property
    def seed(self) -> int:
        """A 32-bit seed derived from paper/task/dataset/fold/repeat (not from parameters, so a
        widened grid keeps its random draws)."""
        text = f"{self.paper}/{self.task}/{self.dataset}/{self.fold}/{self.repeat}"
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


@dataclass
class RunContext:
    """What a task receives: its spec, seed, data directory and a progress logger."""
    spec: RunSpec
    data_dir: Path
    log: Any = print

    @property
    def params(self) -> dict:
        return self.spec.params

    @property
    def dataset(self) -> str:
        return self.spec.dataset

    @property
    def fold(self) -> int | None:
        return self.spec.fold

    @property
    def seed(self) -> int:
        return self.spec.seed

    def rng(self, stream: int = 0) -> np.random.Generator:
        """Independent generator for sub-stream ``stream`` of this run's seed."""
        return np.random.default_rng([self.spec.seed, stream])


def record(method: str, metric: str, value, fold=None, **extra) -> dict:
    """One reproduced value as a task returns it (the runner adds paper/artifact/dataset)."""
    out = {"method": method, "metric": metric, "value": value,
           "fold": None if fold is None else str(fold)}
    out.update(extra)
    return out


def matches(select: dict, rec: dict) -> bool:
    """Whether a record passes a filter ``{field: allowed value or values}``."""
    for k, allowed in select.items():
        allowed = allowed if isinstance(allowed, (list, tuple, set, frozenset)) else [allowed]
        if rec.get(k) not in allowed:
            return False
    return True
