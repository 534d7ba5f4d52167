"""Typed study parameters: each study (a task function) declares a frozen dataclass of the
parameters it reads, next to it, and builds it from its run's parameter dict with
:meth:`StudyParams.of`; the study then reads attributes (``p.sample_size``), not keys.

Building is strict: a key the dataclass does not declare, or a field without a default that
the run does not give, raises :class:`ParamsError` naming the paper, the study and the fields —
a typo in a declaration fails loudly instead of leaving a default in place.  A field whose type
is itself a :class:`StudyParams` is built from the nested dict the same way; other values are
kept as the run's JSON gives them (lists, dicts, numbers, strings).

The dataclass only reads: the run's parameter dict, and so its identity and seed
(:class:`~repro.spec.declarations.RunSpec`), is what the artifact declares, never a field's
default.  :func:`study` marks a task with its dataclass, so that every declared run can be
checked without running it (:func:`check_run`)."""
from __future__ import annotations

import dataclasses
import typing
from typing import Any, Callable, Mapping, TypeVar

from ..errors import ReproError

T = TypeVar("T", bound="StudyParams")


class ParamsError(ReproError, ValueError):
    """A run's parameters do not match the dataclass of its study."""


@dataclasses.dataclass(frozen=True)
class StudyParams:
    """Base of a study's parameter dataclass (subclasses are ``@dataclass(frozen=True)``)."""

    @classmethod
    def build(cls: type[T], params: Mapping[str, Any], where: str) -> T:
        """The dataclass of ``params``; ``where`` names the paper and study in the error."""
        if not isinstance(params, Mapping):
            raise ParamsError(f"{where}: parameters must be a mapping for {cls.__name__}, "
                              f"got {type(params).__name__}")
        fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
        unknown = sorted(set(params) - set(fields))
        missing = sorted(name for name, f in fields.items() if name not in params
                         and f.default is dataclasses.MISSING
                         and f.default_factory is dataclasses.MISSING)
        if unknown or missing:
            said = [f"unknown parameter(s) {unknown}" if unknown else "",
                    f"missing parameter(s) {missing}" if missing else ""]
            raise ParamsError(f"{where}: {'; '.join(s for s in said if s)} for "
                              f"{cls.__name__} (fields: {sorted(fields)})")
        hints = typing.get_type_hints(cls)
        values = {}
        for name, value in params.items():
            kind = hints.get(name)
            if isinstance(kind, type) and issubclass(kind, StudyParams):
                value = kind.build(value, f"{where}.{name}")
            values[name] = value
        return cls(**values)

    @classmethod
    def of(cls: type[T], ctx) -> T:
        """The dataclass of the parameters of the run ``ctx`` (a :class:`RunContext`)."""
        return cls.build(ctx.params, f"{ctx.spec.paper}.{ctx.spec.task}")


@dataclasses.dataclass(frozen=True)
class NoParams(StudyParams):
    """The parameters of a study that reads none: any key its runs declare is unknown."""


def study(params_type: type[StudyParams]) -> Callable:
    """Mark a task function with the dataclass of its parameters (``task.params_type``)."""
    def mark(task):
        task.params_type = params_type
        return task
    return mark


def check_run(task, spec) -> StudyParams | None:
    """Build the parameters of run ``spec`` for ``task`` (None: the task declares no
    dataclass); raises :class:`ParamsError` as the run itself would."""
    kind = getattr(task, "params_type", None)
    return None if kind is None else kind.build(spec.params, f"{spec.paper}.{spec.task}")
