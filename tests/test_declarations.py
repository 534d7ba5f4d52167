"""Every paper's declarations resolve: tasks, figures and custom aggregations exist, datasets
are in the catalog, quick runs exist for implemented artifacts, names are unique."""
import pytest

from repro import papers
from repro.data import catalog as cat
from repro.experiment import Custom
from repro.published import load

PAPERS = papers.PAPER_IDS


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
