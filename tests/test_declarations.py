"""Every paper's declarations resolve: tasks, figures and custom aggregations exist, datasets
are in the catalog, quick runs exist for implemented artifacts, names are unique."""
import pytest

from repro import papers
from repro.data import catalog as cat
from repro.judge.kinds import Custom
from repro.judge.published import load

PAPERS = papers.paper_ids()


@pytest.mark.parametrize("paper", PAPERS)
def test_declarations_resolve(paper):
    mod = papers.module(paper)
    assert mod.PAPER.id == paper
    names = [a.name for a in mod.ARTIFACTS]
    assert len(names) == len(set(names)), "artifact names must be unique"
    known = set(cat.catalog()) | {cat.SYNTHETIC}
    for art in mod.ARTIFACTS:
        assert art.paper == paper
        for ds in art.datasets:
            assert ds in known, f"{art.id}: dataset {ds!r} is not in the catalog"
        for ds in art.stand_ins:
            assert ds in art.datasets, f"{art.id}: stand-in {ds!r} is not a dataset it runs"
        if art.task is None:
            assert art.runs() == []
            continue
        assert callable(papers.task(paper, art.task))
        if art.figure:
            assert callable(papers.figure(paper, art.figure))
        for agg in art.aggregate:
            if isinstance(agg, Custom):
                assert callable(papers.aggregation(paper, agg.function))
        assert art.runs(), f"{art.id}: no runs"
        assert art.runs(quick=True), f"{art.id}: no quick runs"
        assert len(art.runs(quick=True)) <= len(art.runs())


@pytest.mark.parametrize("paper", PAPERS)
def test_published_values_name_declared_artifacts(paper):
    names = {a.name for a in papers.module(paper).ARTIFACTS}
    for v in load(paper).values:
        assert v.artifact in names, f"{paper}.toml: value for unknown artifact {v.artifact!r}"


# --- names are checked (over the committed reports: what the tasks produced) -------------------

import json
from pathlib import Path

REPORTS = Path(__file__).resolve().parent.parent / "reports"
#: a published cell no task produced a value for: its verdict and reason
NO_VALUE = {"verdict": "not run", "reason": "no reproduced value"}


def _records(art):
    base = REPORTS / art.paper / ("timing" if art.timing else "")
    try:
        return json.loads((base / f"{art.name}.json").read_text())
    except (OSError, ValueError):
        return None


def _ours(recs):
    return [r for r in recs if r.get("value") is not None and not r.get("modern")]


def unproduced_names(art, recs) -> list[str]:
    """Names an artifact's ``select`` asks for that none of its own values has (checked only
    where the artifact produced values: a dataset not run has none).  Aggregations' inputs
    are records the page may not show; each paper's tests check them against its runs."""
    ours = _ours(recs)
    if not ours:
        return []
    have = {f: {str(r.get(f)) for r in ours} for f in ("method", "metric")}
    wanted = [("select", art.select)]
    bad = []
    for where, sel in wanted:
        for f in ("method", "metric"):
            allowed = sel.get(f)
            if allowed is None:
                continue
            allowed = allowed if isinstance(allowed, (list, tuple, set)) else [allowed]
            if not any(str(a) in have[f] for a in allowed):
                bad.append(f"{art.id}: {where} names {f} {sorted(map(str, allowed))} but no "
                           f"value of the artifact has one of them")
    return bad


def silent_cells(recs) -> list[str]:
    """Published cells left without a value and without a reason: a TOML cell naming a
    method or metric no task produces (a typo gives an empty cell, not an error).  The
    transcription's unresolved rows are named as such and excused."""
    return [f"{r['artifact']}: {r['dataset']} / {r['method']} / {r['metric']} / {r['fold']}"
            for r in recs if all(r.get(k) == v for k, v in NO_VALUE.items())
            and not str(r.get("method", "")).startswith("unresolved-row")]


@pytest.mark.parametrize("paper", PAPERS)
def test_declared_names_are_produced_by_the_tasks(paper):
    bad = []
    for art in papers.module(paper).ARTIFACTS:
        recs = _records(art)
        if recs is None:
            continue
        bad += unproduced_names(art, recs) + silent_cells(recs)
    assert bad == []


def test_the_name_check_catches_a_typo():
    from repro.spec import Artifact
    art = Artifact("p", "t", "T", select={"method": ["RankRSL"]})
    recs = [{"artifact": "t", "dataset": "d", "method": "RankRLS", "metric": "MAP",
             "fold": "1", "value": 0.4, "verdict": "ours only"},
            {"artifact": "t", "dataset": "d", "method": "RankSMV", "metric": "MAP",
             "fold": "1", "value": None, **NO_VALUE},
            {"artifact": "t", "dataset": "d", "method": "RankRLS", "metric": "MAP",
             "fold": "2", "value": None, "verdict": "not run", "reason": "data missing: d"}]
    assert unproduced_names(art, recs) == [
        "p.t: select names method ['RankRSL'] but no value of the artifact has one of them"]
    assert silent_cells(recs) == ["t: d / RankSMV / MAP / 1"]
