"""The modern reference beside the papers' LETOR tables: LightGBM's LambdaMART
(:class:`repro.rankers.lambdamart.LambdaMART`) run under each table's own protocol — the same
folds, parameters chosen on the validation split by the table's criterion, the same
evaluation (LETOR 3.0 or 4.0 conventions) — and labelled "modern reference, not in the paper",
so a reader sees where the 2007–2010 methods stand today.

An artifact asks for it with ``RunLayout.reference = Reference(4, "MAP", metrics)``
(:class:`repro.spec.Reference`; ``version`` may map datasets to conventions:
``{"OHSUMED": 3, "*": 4}``; ``fields``: fields every record carries, e.g. the table part a
paper's ``select`` filters on): its runs then include one ``task_modern_reference`` run per
dataset and fold, with :meth:`~repro.spec.Reference.params` as their parameters, and its fold
averages are added when records are gathered.  Without the ``modern`` extra
these runs are "not run" and say how to install it.

The mechanism is general (:class:`repro.spec.ReferenceRanker`): :func:`run_reference`
runs any ranker with ``fit_grid``/``predict`` under an artifact's reference protocol, and a
user's ranker (``--ranker``, :func:`task_user_ranker` below) is another instance of it, labelled
"user method (not in the paper)".  Under ``--on`` the per-dataset conventions are those of the
dataset the user's set stands for (``ctx.like``).

Grid (small, chosen here for cost — two ensembles per fold, the smaller tree counts are their
prefixes; the paper tables give none): 100, 300 or 500 trees, 15 or 63 leaves, learning rate
0.1, at least 20 documents per leaf; ties in the validation criterion go to fewer trees, then
fewer leaves.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..data.load import load_letor_fold
from ..errors import ReproError
from ..spec.params import StudyParams, study
from . import Evidence
from .protocol import measured, select
from ..rankers.lambdamart import LambdaMART

METHOD = "LambdaMART (modern reference, not in the paper)"
GRID = {"n_estimators": [100, 300, 500], "learning_rate": [0.1], "num_leaves": [15, 63]}
QUICK_GRID = {"n_estimators": [50], "learning_rate": [0.1], "num_leaves": [15]}
PREFER = ("n_estimators", "num_leaves")


def conventions(version, dataset: str) -> int:
    """The LETOR conventions (3 or 4) of a reference protocol for ``dataset``: ``version`` is
    one number or a mapping per dataset (``{"OHSUMED": 3, "*": 4}``)."""
    if isinstance(version, dict):
        return version.get(dataset, version.get("*"))
    return version


@dataclass(frozen=True)
class ReferenceParams(StudyParams):
    """The parameters of a reference run (:meth:`repro.spec.Reference.params`): LETOR
    ``version`` (one number or per dataset), the validation ``criterion``, the test
    ``metrics``, the ``fields`` its records carry, ``quick_grid`` (the smaller grid of
    ``--quick``) or an explicit ``grid``; a user ranker's run adds ``ranker``
    (:func:`parse_ranker`)."""
    version: int | dict
    criterion: str
    metrics: list[str]
    quick_grid: bool = False
    fields: dict = field(default_factory=dict)
    grid: dict | None = None
    ranker: dict | None = None


def run_reference(ctx, ranker, grid, prefer, method: str) -> dict:
    """One fold of ``ctx.dataset`` under the reference protocol of its parameters (``version``,
    ``criterion``, ``metrics``, ``fields``): ``ranker`` (``fit_grid``/``predict``) fitted on
    ``train`` for every candidate of ``grid``, the candidate chosen on ``vali`` by the
    criterion (ties by ``prefer``, :func:`repro.evidence.protocol.select`), the chosen model's test
    measures stored with each query's value under ``method`` (records marked ``modern``: a
    method beside the paper's)."""
    p = ReferenceParams.of(ctx)
    version = conventions(p.version, ctx.like)
    splits = load_letor_fold(ctx.dataset, int(ctx.fold), ctx.data_dir)
    sel = select(ranker, splits["train"], splits["vali"], grid, criterion=p.criterion,
                 prefer=prefer, version=version)
    test = measured(splits["test"], sel.model.predict(splits["test"].X), p.metrics,
                    version=version)
    extra = dict(p.fields)                        # fields the table's records carry
    ev = Evidence(chosen=sel.params, candidates=sel.candidates)
    ev.measured(method, test, ctx.fold, modern=True, **extra)
    ev.value(method, f"validation {p.criterion}", sel.score, ctx.fold, modern=True,
             chosen=sel.params, **extra)
    return ev.output()


@study(ReferenceParams)
def task_modern_reference(ctx) -> dict:
    """LambdaMART on one fold of ``ctx.dataset``: parameters chosen on ``vali`` by
    ``criterion``, test measures ``metrics`` with LETOR ``version`` conventions."""
    p = ReferenceParams.of(ctx)
    grid = p.grid or (QUICK_GRID if p.quick_grid else GRID)
    return run_reference(ctx, LambdaMART(seed=ctx.seed % (2 ** 31)), grid, PREFER, METHOD)


# --- a user's ranker beside the paper's methods (``--ranker``) ---------------------------------

USER_LABEL = "user method (not in the paper)"
ENTRY_POINTS = "repro.rankers"          # entry-point group of installed packages' rankers


def user_method(label: str) -> str:
    """The method name of a user ranker's records."""
    return f"{label} (user method, not in the paper)"


class _UserGrid:
    """A user's scikit-learn-style ranker (``fit(X, y, qid)`` / ``predict(X)``; any class,
    not necessarily a :class:`repro.rankers.base.Ranker`) seen by
    :func:`repro.evidence.protocol.select`: one fresh instance per grid candidate, fitted on the
    training split with one query id per document."""

    def __init__(self, cls, params: dict):
        self.cls, self.params = cls, dict(params)

    def get_params(self) -> dict:
        return dict(self.params)

    def fit_grid(self, data, grid):
        from ..rankers.base import expand_grid
        for cand in expand_grid(grid):
            model = self.cls(**{**self.params, **cand})
            fitted = model.fit(data.X, data.y, data.qid_per_doc)
            yield cand, (model if fitted is None else fitted)


def load_class(target: str):
    """The class named ``module:Class`` (or ``module.Class``), imported; the module may also
    be a file (``./myranker.py:Ridge``, ``/abs/path/myranker.py:Ridge``) or a module of the
    working directory that is not on ``sys.path`` (``myranker:Ridge``)."""
    import importlib
    mod, sep, name = target.partition(":")
    if not sep:
        mod, _, name = target.rpartition(".")
    if not mod or not name:
        raise ReproError(f"--ranker: {target!r}: expected module:Class or path/to/file.py:Class")
    local = Path(mod.replace(".", "/") + ".py")
    if mod.endswith(".py") or "/" in mod:
        obj = _module_from_file(Path(mod))
    else:
        try:
            obj = importlib.import_module(mod)
        except ImportError as exc:
            if not local.is_file():
                raise ReproError(f"--ranker: cannot import module {mod!r} ({exc}); give a "
                                 f"module on the Python path, or the file: "
                                 f"--ranker LABEL=path/to/{mod.split('.')[-1]}.py:{name}") from None
            obj = _module_from_file(local)
    for part in name.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ReproError(f"--ranker: module {mod!r} has no {name!r}") from None
    if not callable(getattr(obj, "fit", None)) or not callable(getattr(obj, "predict", None)):
        raise ReproError(f"--ranker: {target} has no fit(X, y, qid) / predict(X)")
    return obj


_FROM_FILE = "_repro_user_ranker_"


def _module_from_file(path: Path):
    """The module of the Python file ``path``, imported once per process under a name made
    from its absolute path (so that its classes pickle in this process)."""
    import hashlib
    import importlib.util
    path = path.resolve()
    if not path.is_file():
        raise ReproError(f"--ranker: {path}: no such Python file")
    name = _FROM_FILE + hashlib.sha256(str(path).encode()).hexdigest()[:16]
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[name]
            raise ReproError(f"--ranker: {path}: cannot import it ({type(exc).__name__}: "
                             f"{exc})") from None
    return sys.modules[name]


def class_target(cls) -> str:
    """How a worker process finds ``cls`` again: ``module:Class``, or ``/abs/file.py:Class``
    for a class loaded from a file."""
    if cls.__module__.startswith(_FROM_FILE):
        return f"{sys.modules[cls.__module__].__file__}:{cls.__qualname__}"
    return f"{cls.__module__}:{cls.__qualname__}"


def _source_digest(cls) -> str:
    """sha256 of the file defining ``cls`` (part of its runs' identity: editing the user's
    ranker reruns its runs)."""
    import hashlib
    import inspect
    try:
        path = inspect.getsourcefile(cls) or inspect.getfile(cls)
        return "sha256:" + hashlib.sha256(open(path, "rb").read()).hexdigest()
    except (OSError, TypeError):
        return "unknown"


def entry_point_rankers() -> dict[str, str]:
    """Rankers declared by installed packages in the entry-point group ``repro.rankers``
    (``label = "module:Class"``)."""
    from importlib.metadata import entry_points
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINTS)}


def parse_ranker(text: str):
    """``LABEL=module:Class[:json-params]`` (or ``LABEL`` alone for an entry point of group
    ``repro.rankers``) → a :class:`repro.spec.ReferenceRanker`.  The grid: the class's
    ``param_grid`` attribute, or ``"param_grid"`` in the JSON parameters (which wins); every
    other JSON parameter is passed to the constructor."""
    import json
    from ..spec import ReferenceRanker
    label, sep, rest = text.partition("=")
    label = label.strip()
    if not sep:
        eps = entry_point_rankers()
        if label not in eps:
            raise ReproError(f"--ranker {text!r}: expected LABEL=module:Class[:json-params]"
                             + (f" or one of the installed rankers: {', '.join(sorted(eps))}"
                                if eps else " (no ranker is installed in the entry-point "
                                f"group {ENTRY_POINTS})"))
        rest = eps[label]
    if not label:
        raise ReproError(f"--ranker {text!r}: the label is empty")
    mod, _, after = rest.partition(":")
    name, _, params_text = after.partition(":")
    params = {}
    if params_text:
        try:
            params = json.loads(params_text)
        except ValueError as exc:
            raise ReproError(f"--ranker {label}: parameters are not JSON ({exc}): "
                             f"{params_text!r}") from None
        if not isinstance(params, dict):
            raise ReproError(f"--ranker {label}: parameters must be a JSON object, got "
                             f"{params_text!r}")
    cls = load_class(f"{mod}:{name}")
    grid = params.pop("param_grid", None)
    if grid is None:
        grid = getattr(cls, "param_grid", None) or {}
    if not isinstance(grid, dict) or not all(isinstance(v, (list, tuple)) for v in grid.values()):
        raise ReproError(f"--ranker {label}: param_grid must map parameter names to lists of "
                         f"values, got {grid!r}")
    return ReferenceRanker(label=user_method(label), params={
        "label": label, "class": class_target(cls), "params": params,
        "param_grid": {k: list(v) for k, v in grid.items()}, "source": _source_digest(cls)})


@study(ReferenceParams)
def task_user_ranker(ctx) -> dict:
    """A user's ranker (``ranker`` of its parameters) on one fold, under the artifact's
    reference protocol: the same folds, validation selection over its grid (ties to the first
    candidate in grid order) and evaluation as the modern reference."""
    r = ReferenceParams.of(ctx).ranker
    if r is None:
        raise ReproError(f"{ctx.spec.label}: a user ranker's run without its ranker")
    cls = load_class(r["class"])
    return run_reference(ctx, _UserGrid(cls, r["params"]), r["param_grid"], (),
                         user_method(r["label"]))
