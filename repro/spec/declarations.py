"""Declarations: papers, their artifacts, the runs an artifact expands to, and how the records
of its runs are aggregated.

A paper package (``repro/papers/<id>/``) declares ``PAPER`` and ``ARTIFACTS`` as data.  An
artifact names a *task* (a function of the paper's ``tasks`` module computing one run), the
datasets, folds, repeats and parameters (its :class:`RunLayout`); ``quick`` overrides them for
smoke runs; :class:`Judging` says how its records become values, :class:`Shown` what the report
shows beside them.  One run is
one (task, dataset, fold, repeat, parameters): runs expand over the artifact's datasets × folds ×
repeats, so folds run apart (``--jobs`` spreads them, editing one fold's code reruns only what
changed).  Artifacts that declare the same run share it (computed and cached once).  A run's
seed is derived from its identity, never from global state or execution order.

Values computed across runs — fold averages, a query-weighted microaverage over datasets, the
maxima of validation curves averaged over folds — are declared in ``Judging.aggregate`` and
computed when the records are gathered (:mod:`repro.judge.kinds`), never inside a task.
"""
from __future__ import annotations

import hashlib
import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, field, fields as dataclass_fields, replace
from pathlib import Path
from typing import Any, Generic, Mapping, TypeVar

import numpy as np


@dataclass(frozen=True)
class Paper:
    id: str
    title: str
    authors: str
    venue: str
    text: str                       # file name in ../shared/papers
    summary: str = ""
    order: int = 100                # where the paper stands among the others (then by id)


REFERENCE_TASK = "task_modern_reference"     # repro.evidence.reference: the modern reference runs
USER_RANKER_TASK = "task_user_ranker"        # repro.evidence.reference: a user's ranker beside them
REFERENCE_TASKS = (REFERENCE_TASK, USER_RANKER_TASK)


@dataclass(frozen=True)
class ReferenceRanker:
    """A ranker run beside a paper's methods under an artifact's reference protocol
    (``RunLayout.reference``: the table's folds, its validation criterion, its measures and
    LETOR conventions): one run of ``task`` per dataset and fold.  The modern reference
    (:mod:`repro.evidence.reference`, LambdaMART) is the built-in one — its runs keep their
    parameters, so their cache keys and records are unchanged; a user's ranker
    (``--ranker``, :func:`repro.evidence.reference.task_user_ranker`) adds
    ``{"ranker": params}`` to the run's parameters, ``params`` being its label, class,
    parameters, grid and source digest."""
    label: str                              # the method name of its records
    task: str = USER_RANKER_TASK
    params: dict = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Reference:
    """The modern reference runs of an artifact (:mod:`repro.evidence.reference`, one per
    dataset and fold under the artifact's protocol): the LETOR ``version`` of its
    conventions (3 or 4, or ``{dataset or "*": version}``), parameters chosen on the
    validation split by ``criterion``, the test ``metrics``; ``fields``: fields its records
    carry, to stand beside the table's."""
    version: int | dict
    criterion: str
    metrics: tuple[str, ...]
    fields: dict = field(default_factory=dict, hash=False)

    def params(self, quick: bool) -> dict:
        """The parameters of its runs (``fields`` only when given: the keys its runs always
        had, so their identities are unchanged)."""
        out = {"version": self.version, "criterion": self.criterion,
               "metrics": list(self.metrics), "quick_grid": bool(quick)}
        return {**out, "fields": self.fields} if self.fields else out


#: the bases of a comparison with a published value (see :class:`Noise`)
SAME_QUERIES, SAMPLE, STAND_IN = "same queries", "sample", "stand-in"
#: the environment variable of a seed salt (``--seed-salt``): a text appended to every derived
#: seed's text — runs' seeds (:attr:`RunSpec.seed`), sample draws named by text, the judge's
#: resampling seeds — so that a whole rendering can be redone with a second set of seeds;
#: empty (the default) leaves every seed, and every run's identity, as it always was
SEED_SALT_ENV = "REPRO_SEED_SALT"


def seed_salt() -> str:
    """The seed salt in effect ('' = none): :data:`SEED_SALT_ENV`."""
    return os.environ.get(SEED_SALT_ENV, "")


def salted(text: str, salt: str | None = None) -> str:
    """``text`` naming a seed, with ``salt`` (default: the seed salt in effect) appended
    (unchanged without one)."""
    salt = seed_salt() if salt is None else salt
    return f"{text}/salt {salt}" if salt else text


@contextmanager
def salt_in_effect(salt: str):
    """The seed salt ``salt`` in effect inside the block (a worker running a spec that
    carries it: :attr:`RunSpec.seed_salt`), the previous one restored after."""
    before = os.environ.get(SEED_SALT_ENV)
    if salt:
        os.environ[SEED_SALT_ENV] = salt
    else:
        os.environ.pop(SEED_SALT_ENV, None)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(SEED_SALT_ENV, None)
        else:
            os.environ[SEED_SALT_ENV] = before


#: the sources of run-to-run variation replicates can measure
SEEDS, SAMPLING, ARITHMETIC = "seeds", "sampling", "arithmetic"


@dataclass(frozen=True)
class Noise:
    """Which variation separates our value from the published one, and so what the interval
    of ours − published accounts for (``docs/verdicts.md``).

    ``basis``: ``"same queries"`` — our test queries are the paper's (the official LETOR
    folds): query sampling cannot separate two scores on identical queries, so only our
    replicates' spread does (a deterministic method has the difference exactly);
    ``"sample"`` — our sample of queries or documents is not the paper's: the replicates and
    the sampling of both samples.  Values on stand-in data are judged as stand-ins whatever
    the basis.  ``sources``: what the artifact's replicates
    (``RunLayout.repeats`` > 1) vary — ``"seeds"`` (training randomness), ``"sampling"`` (each
    replicate draws its own sample), ``"arithmetic"`` (a deterministic but sensitive method:
    replicates perturb the input by a seeded relative jitter) — empty for a single run.
    ``why``: one sentence for the page, why this is the variation that matters here."""
    basis: str = SAME_QUERIES
    sources: tuple[str, ...] = ()
    why: str = ""

    def __post_init__(self):
        if self.basis not in (SAME_QUERIES, SAMPLE):
            raise ValueError(f"Noise.basis must be {SAME_QUERIES!r} or {SAMPLE!r}, "
                             f"got {self.basis!r}")
        bad = [s for s in self.sources if s not in (SEEDS, SAMPLING, ARITHMETIC)]
        if bad:
            raise ValueError(f"Noise.sources: unknown source(s) {bad}; known: {SEEDS!r}, "
                             f"{SAMPLING!r}, {ARITHMETIC!r}")


T = TypeVar("T")
#: the key of a per-dataset declaration that stands for every dataset not named
EVERY = "*"


@dataclass(frozen=True)
class PerDataset(Generic[T]):
    """A value an artifact declares per dataset: ``default`` for every dataset, ``only`` the
    datasets that differ, ``((dataset, value), ...)``.  A declaration writes either the value
    itself (the same for every dataset) or ``{dataset or "*": value}``
    (:meth:`given`); :meth:`of` is the one lookup."""
    default: T
    only: tuple[tuple[str, T], ...] = ()

    @classmethod
    def given(cls, value, default) -> "PerDataset":
        """``value`` as declared — a :class:`PerDataset`, a ``{dataset or "*": value}``
        mapping (without ``"*"``: ``default`` for the others) or one value for every
        dataset."""
        if isinstance(value, PerDataset):
            return value
        if isinstance(value, Mapping):
            return cls(value.get(EVERY, default),
                       tuple((str(k), v) for k, v in value.items() if k != EVERY))
        return cls(value)

    def of(self, dataset: str | None) -> T:
        """The value declared for ``dataset``."""
        return next((v for k, v in self.only if k == dataset), self.default)

    def names(self, dataset: str | None) -> bool:
        """Whether ``dataset`` has a value of its own (not the default)."""
        return any(k == dataset for k, _ in self.only)


#: the per-dataset fields (RunLayout's, Judging's) and the default of a dataset a declaration
#: does not name
_PER_DATASET = {"folds": (None,), "noise": Noise(), "split": ()}


@dataclass(frozen=True)
class Quick:
    """An artifact's ``--quick`` overrides (a smoke run): its folds (per dataset, like
    ``RunLayout.folds``), replicates and second stage, and parameters (shallow overrides of
    ``RunLayout.params``); None: as declared.  A declaration may give the mapping
    ``{"folds": …, "repeats": …, "extend_to": …, "params": {…}}``; another key is refused."""
    folds: PerDataset | None = None
    repeats: int | None = None
    extend_to: int | None = None
    params: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.folds is not None:
            object.__setattr__(self, "folds", PerDataset.given(self.folds,
                                                              _PER_DATASET["folds"]))

    @classmethod
    def given(cls, value) -> "Quick":
        if isinstance(value, Quick):
            return value
        if not isinstance(value, Mapping):
            raise TypeError(f"RunLayout.quick: a mapping of overrides, got {value!r}")
        names = {f.name for f in dataclass_fields(cls)}
        unknown = sorted(set(value) - names)
        if unknown:
            raise TypeError(f"RunLayout.quick: unknown override(s) {unknown} (allowed: "
                            f"{sorted(names)})")
        return cls(**value)

    def __bool__(self) -> bool:
        return any(v is not None for v in (self.folds, self.repeats, self.extend_to)) or \
            bool(self.params)

    def overrides(self) -> dict:
        """The :class:`RunLayout` fields it overrides (parameters aside)."""
        return {k: v for k, v in (("folds", self.folds), ("repeats", self.repeats),
                                  ("extend_to", self.extend_to)) if v is not None}


@dataclass(frozen=True)
class RunLayout:
    """What an artifact runs: one run per (dataset, fold, repeat, part) of the task, with the
    parameters; and the modern reference's (and users' rankers') runs beside them.

    ``folds`` and ``split`` are :class:`PerDataset` (given as one value for every dataset or
    ``{dataset or "*": value}``), ``quick`` a :class:`Quick` (given as one or as its mapping):
    held as such whichever way they were given."""
    datasets: tuple[str, ...] = ()
    """Catalog ids (or ``"synthetic"``) the runs use."""
    stand_ins: dict = field(default_factory=dict)
    """Dataset used → the paper's dataset it stands in for."""
    like: dict = field(default_factory=dict)
    """User dataset → the dataset it stands for (``--on``: the task's per-dataset settings are
    the latter's)."""
    folds: PerDataset[tuple] = (None,)
    """Fold ids run on each dataset (None: no folds), per dataset."""
    split: PerDataset[tuple] = ()
    """Parts of each run, ``((name, parameter overrides), ...)``, per dataset: one run per part
    (:meth:`parts_for`)."""
    repeats: int = 1
    """Replicates of every run (seeds derive from the repeat)."""
    extend_to: int = 0
    """A second stage (:mod:`repro.judge.design`): the replicates the runs behind a value left
    inconclusive are extended to (0: one stage; never under ``--quick``)."""
    params: dict = field(default_factory=dict)
    """The task's parameters (every run's, before a part's overrides)."""
    quick: Quick = field(default_factory=Quick)
    """``--quick``'s overrides of the folds, repeats, second stage and parameters."""
    timing: bool = False
    """Its runs measure time: never run beside another run (a timing artifact has runs of its
    own: it never shares a run with a value artifact, whose runs always pool)."""
    reference: Reference | None = None
    """The modern reference runs beside the paper's methods (None: none)."""
    rankers: tuple = ()
    """Users' rankers (:class:`ReferenceRanker`) run under the reference protocol."""

    def __post_init__(self):
        for name in ("folds", "split"):
            object.__setattr__(self, name, PerDataset.given(getattr(self, name),
                                                            _PER_DATASET[name]))
        object.__setattr__(self, "quick", Quick.given(self.quick))

    def effective(self, quick: bool) -> "RunLayout":
        """The layout with ``--quick``'s overrides applied when ``quick``."""
        if not quick or not self.quick:
            return self
        return replace(self, params={**self.params, **self.quick.params},
                       **self.quick.overrides())

    def folds_for(self, dataset: str) -> tuple:
        """The folds run on ``dataset``."""
        return tuple(self.folds.of(dataset))

    def parts_for(self, dataset: str) -> tuple[tuple[str | None, dict], ...]:
        """The parts each run on ``dataset`` is split into (see :meth:`Artifact.parts_for`)."""
        return tuple(self.split.of(dataset)) or ((None, {}),)


@dataclass(frozen=True)
class Judging:
    """How the records of an artifact's runs become its values, and what variation a
    comparison with a published value accounts for."""
    select: dict = field(default_factory=dict)
    """Record filter: field → allowed values."""
    aggregate: tuple = ()
    """FoldMean / MicroAverage / Custom / …, applied in order when the records are gathered
    (:mod:`repro.judge.kinds`)."""
    noise: PerDataset[Noise] = field(default_factory=Noise)
    """What separates our value from the published one, per dataset (:class:`PerDataset`,
    given as one :class:`Noise` or ``{dataset or "*": Noise}``)."""

    def __post_init__(self):
        object.__setattr__(self, "noise", PerDataset.given(self.noise, _PER_DATASET["noise"]))


@dataclass(frozen=True)
class Shown:
    """What the report shows of an artifact besides its values."""
    metrics: tuple[str, ...] = ()
    """The measures reported."""
    methods: tuple[str, ...] = ()
    """The rankers compared."""
    figure: str | None = None
    """Function of the paper's figures module drawing the figure (None: no figure)."""
    description: str = ""
    """What the artifact is (usually from the paper's ``prose.md``)."""
    choices: tuple[str, ...] = ()
    """Protocol details the paper leaves open, as decided here."""


#: the group of each field an artifact holds in a group (:meth:`Artifact.replace`)
_GROUPS = ("layout", "judging", "shown")
_GROUP_OF = {f.name: g for g, cls in zip(_GROUPS, (RunLayout, Judging, Shown))
             for f in dataclass_fields(cls)}


@dataclass
class Artifact:
    """One table, figure or check of a paper, declared as data (not frozen: a declaration is
    built once at import; :meth:`effective` and :meth:`replace` return modified copies, never
    mutate).

    Its identity (paper, name, title, kind, task) at the top; the rest in three groups:
    ``layout`` (:class:`RunLayout`: what runs), ``judging`` (:class:`Judging`: how the records
    become values and are judged) and ``shown`` (:class:`Shown`: what the report shows)."""
    paper: str
    name: str                       # the paper's own label: "table7", "figure4", "sectionII"
    title: str
    kind: str = "table"             # table | figure | check
    task: str | None = None         # function of the paper's tasks module; None = not implemented
    not_run: str = ""               # with task None: why it cannot run (else "not implemented yet")
    layout: RunLayout = field(default_factory=RunLayout)    # what runs
    judging: Judging = field(default_factory=Judging)       # records -> values -> verdicts
    shown: Shown = field(default_factory=Shown)             # what the report shows

    def __setattr__(self, name, value):
        if name in _GROUP_OF:       # a group's field set on the artifact would be ignored
            raise AttributeError(f"Artifact.{name} is a field of its {_GROUP_OF[name]} "
                                 f"({type(getattr(self, _GROUP_OF[name])).__name__}): use "
                                 f"art.replace({name}=...)")
        object.__setattr__(self, name, value)

    @property
    def id(self) -> str:
        return f"{self.paper}.{self.name}"

    @property
    def datasets(self) -> tuple[str, ...]:
        """The datasets its runs use (``layout.datasets``)."""
        return self.layout.datasets

    @property
    def stand_ins(self) -> dict:
        """Dataset used → the paper's dataset it stands in for (``layout.stand_ins``)."""
        return self.layout.stand_ins

    @property
    def timing(self) -> bool:
        """Whether its values are measured times (``layout.timing``)."""
        return self.layout.timing

    def replace(self, **changes) -> "Artifact":
        """A copy with ``changes``: top-level fields, whole groups, or any field of a group by
        its own name (``art.replace(datasets=..., folds=..., select=...)``)."""
        top, grouped = {}, {g: {} for g in _GROUPS}
        for name, value in changes.items():
            if name in _GROUP_OF:
                grouped[_GROUP_OF[name]][name] = value
            else:
                top[name] = value
        for g, ch in grouped.items():
            if ch:
                top[g] = replace(top.get(g, getattr(self, g)), **ch)
        return replace(self, **top)

    def effective(self, quick: bool) -> "Artifact":
        """The declaration with ``quick`` overrides applied (for --quick)."""
        if not quick or not self.layout.quick:
            return self
        return replace(self, layout=self.layout.effective(quick))

    def noise_for(self, dataset: str) -> Noise:
        """The :class:`Noise` declared for ``dataset`` (or for every dataset)."""
        return self.judging.noise.of(dataset)

    def folds_for(self, dataset: str) -> tuple:
        """The folds run on ``dataset``."""
        return self.layout.folds_for(dataset)

    def parts_for(self, dataset: str) -> tuple[tuple[str | None, dict], ...]:
        """The parts each run on ``dataset`` is split into, ``(name, overrides)``: parameter
        overrides (shallow, over the artifact's parameters), one independent run each, so that
        the parts of a long run execute side by side; the name is in the run's label.  A part's
        run differs from the others only by its parameters, which a seed does not derive from
        (:attr:`RunSpec.seed`): every model keeps the seed it has in the unsplit run, and the
        aggregations see the parts' records together as they saw the unsplit run's.
        ``((None, {}),)``: not split."""
        return self.layout.parts_for(dataset)

    def runs(self, quick: bool = False) -> list["RunSpec"]:
        art = self.effective(quick)
        if art.task is None:
            return []
        lay = art.layout
        like = lay.like.get
        specs = [RunSpec(self.paper, art.task, ds, fold, rep,
                         canonical({**lay.params, **over}), quick, lay.timing, like(ds), part)
                 for ds in lay.datasets for fold in lay.folds_for(ds)
                 for rep in range(lay.repeats) for part, over in lay.parts_for(ds)]
        if lay.reference is not None:
            ref = canonical(lay.reference.params(quick))
            specs += [RunSpec(self.paper, REFERENCE_TASK, ds, fold, 0, ref, quick, like=like(ds))
                      for ds in lay.datasets if ds not in lay.stand_ins
                      for fold in lay.folds_for(ds)]
            for rr in lay.rankers:
                p = canonical({**lay.reference.params(quick), "ranker": rr.params})
                specs += [RunSpec(self.paper, rr.task, ds, fold, 0, p, quick, like=like(ds))
                          for ds in lay.datasets if ds not in lay.stand_ins
                          for fold in lay.folds_for(ds)]
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
    like: str | None = None     # ``--on``: the artifact's dataset this (user) dataset stands for
    part: str | None = None     # the part of a split run (``RunLayout.split``; its parameters
    #                             say what it computes): in the label only
    user_set: str | None = None  # a user's set (the run's dataset): its registration, shipped
    #                              to the workers (:mod:`repro.data.shipped`; set by the runner)
    allow_unverified: bool = False  # --allow-unverified for its dataset, shipped to the
    #                                 workers (set by the runner): permits, not in its identity
    seed_salt: str | None = None    # the seed salt of the command (set by the runner), shipped
    #                                 to the workers; None: the one in effect where it is read

    @property
    def params(self) -> dict:
        return json.loads(self.params_json)

    @property
    def label(self) -> str:
        fold = "" if self.fold is None else f"/fold{self.fold}"
        rep = f"/rep{self.repeat}" if self.repeat else ""
        part = f"/{self.part}" if self.part else ""
        return (f"{self.paper}/{self.task}/{self.dataset}{fold}{rep}{part}"
                + (" (quick)" if self.quick else ""))

    @property
    def identity(self) -> dict:
        """What determines the run's result (``quick`` does not: its overrides are already
        in the folds and parameters, so a run that --quick leaves unchanged is shared)."""
        out = {"paper": self.paper, "task": self.task, "dataset": self.dataset,
               "fold": self.fold, "repeat": self.repeat, "params": self.params}
        if self.like is not None:           # only --on runs carry it: other keys unchanged
            out["like"] = self.like
        if self.user_set is not None:       # a user's set: its content digest and split, not
            out["user_set"] = json.loads(self.user_set)["identity"]    # its path
        if self.salt:                       # only salted runs carry it: other keys unchanged
            out["seed_salt"] = self.salt
        return out

    @property
    def salt(self) -> str:
        """The run's seed salt: the one it carries (:attr:`seed_salt`, set where the command
        runs, so that a worker elsewhere draws the same seeds), else the one in effect."""
        return self.seed_salt if self.seed_salt is not None else seed_salt()

    @property
    def seed(self) -> int:
        """A 32-bit seed derived from paper/task/dataset/fold/repeat (not from parameters, so a
        widened grid keeps its random draws)."""
        text = salted(f"{self.paper}/{self.task}/{self.dataset}/{self.fold}/{self.repeat}",
                      self.salt)
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


@dataclass
class RunContext:
    """What a task receives: its spec, seed, data directory, a progress logger, and how many
    threads one large fit may use (``threads``: 1 inside a pool; a run alone may use the
    machine — kernels that take it give the same numbers for any count)."""
    spec: RunSpec
    data_dir: Path
    log: Any = print
    threads: int = 1

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
    def like(self) -> str:
        """The dataset whose per-dataset settings apply (BM25 feature, LETOR conventions,
        training sizes, …): under ``--on NAME`` the artifact's dataset the user's set ``NAME``
        stands in for, else the run's own dataset."""
        return self.spec.like or self.spec.dataset

    @property
    def seed(self) -> int:
        return self.spec.seed

    def rng(self, stream: int = 0) -> np.random.Generator:
        """Independent generator for sub-stream ``stream`` of this run's seed."""
        return np.random.default_rng([self.spec.seed, stream])
