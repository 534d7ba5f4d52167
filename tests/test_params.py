"""Typed study parameters (repro.spec.params): built strictly from a run's parameter dict, the
error naming the paper, the study and the field; a declared typo is caught for a real study."""
import json
from dataclasses import FrozenInstanceError, dataclass, replace

import pytest

from repro import papers
from repro.spec.params import ParamsError, StudyParams, check_run, study


@dataclass(frozen=True)
class Inner(StudyParams):
    states: int


@dataclass(frozen=True)
class Outer(StudyParams):
    sample_size: int
    inner: Inner
    grid: list[float]
    floor: bool = True


GOOD = {"sample_size": 100, "inner": {"states": 5}, "grid": [0.1, 1.0]}


def test_a_dict_builds_its_dataclass_with_nested_ones_and_defaults():
    p = Outer.build(GOOD, "paper.task_x")
    assert p.sample_size == 100 and p.inner == Inner(5) and p.grid == [0.1, 1.0]
    assert p.floor is True
    assert Outer.build({**GOOD, "floor": False}, "paper.task_x").floor is False
    with pytest.raises(FrozenInstanceError):
        p.sample_size = 3


def test_an_unknown_key_is_an_error_naming_the_study_and_the_key():
    with pytest.raises(ParamsError, match=r"paper\.task_x: unknown parameter\(s\) "
                                          r"\['sample_sise'\].*Outer"):
        Outer.build({**GOOD, "sample_sise": 3}, "paper.task_x")


def test_a_missing_key_is_an_error_and_a_default_does_not_hide_a_typo():
    bad = {k: v for k, v in GOOD.items() if k != "grid"}
    with pytest.raises(ParamsError, match=r"missing parameter\(s\) \['grid'\]"):
        Outer.build(bad, "paper.task_x")
    with pytest.raises(ParamsError, match=r"unknown parameter\(s\) \['flor'\]"):
        Outer.build({**GOOD, "flor": False}, "paper.task_x")


def test_a_nested_error_names_the_path():
    with pytest.raises(ParamsError, match=r"paper\.task_x\.inner: unknown parameter\(s\) "
                                          r"\['state'\]"):
        Outer.build({**GOOD, "inner": {"state": 5}}, "paper.task_x")
    with pytest.raises(ParamsError, match=r"paper\.task_x\.inner: parameters must be a mapping"):
        Outer.build({**GOOD, "inner": 5}, "paper.task_x")


def test_a_typo_in_a_papers_declaration_fails_before_running():
    """dubey2009's fold runs with one declared key misspelt: the check of the declarations
    (what test_declarations runs over every run) raises, naming the paper, study and key."""
    art = next(a for a in papers.artifacts("dubey2009") if a.task == "task_fold")
    spec = art.runs(quick=True)[0]
    task = papers.task("dubey2009", spec.task)
    check_run(task, spec)
    params = dict(spec.params)
    params["sample_sise"] = params.pop("sample_size")
    bad = replace(spec, params_json=json.dumps(params))
    with pytest.raises(ParamsError, match=r"dubey2009\.task_fold: unknown parameter\(s\) "
                                          r"\['sample_sise'\]; missing parameter\(s\) "
                                          r"\['sample_size'\]"):
        check_run(task, bad)


def test_study_marks_a_task_and_an_unmarked_task_is_not_checked():
    @study(Inner)
    def task(ctx):
        return Inner.of(ctx)
    assert task.params_type is Inner
    assert check_run(lambda ctx: None, None) is None
