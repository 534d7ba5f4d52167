"""stevens2010's names: every method and measure that a declaration (an artifact's ``select``,
an aggregation's ``select``) or a published cell of stevens2010.toml names is one that the
paper's runs (and declared aggregations) produce — checked on tiny runs of every task, with
the method labels of the declared parameters."""
import pytest

from repro.judge import kinds as aggregate
from repro import papers
from repro.judge import published as pub
from repro.judge.kinds import NotCheckable, RanksWithPublished
from repro.judge.kinds import Custom
from repro.spec import RunContext, RunSpec, canonical
from repro.papers import stevens2010 as paper
from repro.papers.stevens2010 import names, reuters, tasks

PUB = pub.load("stevens2010")


def _ctx(task, dataset, fold, params, data_dir):
    spec = RunSpec("stevens2010", task, dataset, fold, 0, canonical(params), True)
    return RunContext(spec, data_dir, log=lambda m: None)


@pytest.fixture(scope="module")
def outputs(data_root):
    """Tiny runs of every task with the declared method labels: all LETOR variants, PAMIR at
    the declared iteration counts (Reuters' PAMIR trained on a thousandth of them, its label
    kept), the declared measures."""
    mp = pytest.MonkeyPatch()
    real = reuters.pamir_models
    mp.setattr(reuters, "pamir_models",
               lambda X, Y, n, C, seed, **kw: real(X, Y, max(1, int(n) // 1000), C, seed, **kw))
    try:
        letor = {**paper.LETOR_PARAMS, "lambda_exponents": [2, 3], "lambda_step": 1.0,
                 "regularisers": ["l2"], "margins": [1.0]}
        corel = {**paper.COREL_PARAMS, **paper.COREL_QUICK["params"], "max_queries_per_shard": 2,
                 "pamir_iterations": paper.COREL_PARAMS["pamir_iterations"]}
        rcv1 = {**paper.REUTERS_PARAMS, **paper.REUTERS_QUICK["params"], "max_topics": 3,
                "iterations": 2000, "single_lambdas": [1.0],
                "pamir_iterations": paper.REUTERS_PARAMS["pamir_iterations"]}
        google = {**paper.GOOGLE_PARAMS, **paper.GOOGLE_QUICK["params"]}
        out = {
            "task_letor_fold": tasks.task_letor_fold(
                _ctx("task_letor_fold", "OHSUMED", 1, letor, data_root)),
            "task_corel": tasks.task_corel(_ctx("task_corel", "corel5k", 1, corel, data_root)),
            "task_reuters": tasks.task_reuters(
                _ctx("task_reuters", "rcv1-subsets", None, rcv1, data_root)),
            "task_google": tasks.task_google(_ctx("task_google", "corel5k", None, google,
                                                  data_root)),
        }
    finally:
        mp.undo()
    return out


def produced(art, outputs) -> set:
    """(method, metric) of the artifact's records: its run's records and its aggregations'."""
    out = outputs.get(art.task)
    if out is None:
        return set()
    recs = []
    for r in out.get("records", []):
        r = dict(r)
        r.setdefault("dataset", art.stand_ins.get(art.datasets[0], art.datasets[0]))
        recs.append(r)
    recs, _ = aggregate.apply(art, recs, [(None, out)], papers.aggregation)
    return {(r.get("method"), r.get("metric")) for r in recs}


def _allowed(select: dict, field: str) -> list:
    v = select.get(field, [])
    return list(v) if isinstance(v, (list, tuple, set, frozenset)) else [v]


def unknown_names(art, made: set) -> list[str]:
    """Names in the artifact's declarations or published cells that nothing produces."""
    methods = {m for m, _ in made} | {v.method for v in PUB.values if v.baseline}
    metrics = {x for _, x in made}
    selects = [("select", art.judging.select)]
    for agg in art.judging.aggregate:
        if isinstance(agg, RanksWithPublished):
            selects.append((type(agg).__name__, agg.ranks.select))
        elif isinstance(agg, NotCheckable):
            continue                 # a record of its own (checked against the TOML below)
        elif not isinstance(agg, Custom):
            selects.append((type(agg).__name__, agg.select))
    bad = [f"{where}: method {m!r}" for where, sel in selects for m in _allowed(sel, "method")
           if m not in methods]
    bad += [f"{where}: metric {m!r}" for where, sel in selects
            for m in _allowed(sel, "metric") if m not in metrics]
    checkable = {(a.fields["method"], a.fields["metric"]) for a in art.judging.aggregate
                 if isinstance(a, NotCheckable)}
    bad += [f"published {v.method!r} / {v.metric!r} ({v.source})"
            for v in PUB.for_artifact(art.name)
            if not v.baseline and (v.method, v.metric) not in made | checkable]
    return bad


@pytest.mark.slow
def test_every_declared_and_published_name_is_produced(outputs):
    checked = 0
    for art in paper.ARTIFACTS:
        if art.task is None or art.task == "task_complexity":
            continue
        made = produced(art, outputs)
        assert made, art.name
        assert unknown_names(art, made) == [], art.name
        checked += 1
    assert checked == 13
    # the names module is what the runs use
    letor = {r["method"] for r in outputs["task_letor_fold"]["records"]}
    assert letor == {m for m, _ in names.LETOR_VARIANTS.values()}
    corel = {t["method"] for t in outputs["task_corel"]["per_query"]}
    assert corel == set(names.COREL_VARIANTS) | set(names.COREL_PAMIR)
    rcv1 = {t["method"] for t in outputs["task_reuters"]["per_query"]}
    assert rcv1 == {names.FEATURE_SELECTION, *names.REUTERS_PAMIR}


@pytest.mark.slow
def test_a_wrong_name_is_caught(outputs):
    import dataclasses
    fig4 = next(a for a in paper.ARTIFACTS if a.name == "figure4")
    made = produced(fig4, outputs)
    bad = fig4.replace(select={"method": ["DR-Layered", "DR-Layerd"]})
    assert unknown_names(bad, made) == ["select: method 'DR-Layerd'"]
    fig6 = next(a for a in paper.ARTIFACTS if a.name == "figure6")
    made6 = produced(fig6, outputs) - {("PAMIR-1M", "AP")}        # a run that lost a method
    assert any("PAMIR-1M" in b for b in unknown_names(fig6, made6))
    fig5 = next(a for a in paper.ARTIFACTS if a.name == "figure5")
    agg = fig5.judging.aggregate[-1]
    wrong = dataclasses.replace(agg, ranks=dataclasses.replace(
        agg.ranks, select={**agg.ranks.select, "metric": ["NDCG@5", "NDCG@11"]}))
    assert unknown_names(fig5.replace(aggregate=(fig5.judging.aggregate[0], wrong)),
                         produced(fig5, outputs)) == ["RanksWithPublished: metric 'NDCG@11'"]
