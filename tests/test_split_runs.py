"""Runs for wide machines: timing artifacts have runs of their own (a value run is
never executed alone), and a long run split into parts (``RunLayout.split``) computes what the
unsplit run computed — every model with the same seed, the same records and per-query tables —
in independent runs."""
import json
from collections import Counter
from dataclasses import replace

import pytest

from repro import papers
from repro.data import catalog as cat
from repro.evidence import query_blocks
from repro.papers import dubey2009, stevens2010
from repro.papers.dubey2009.names import BASELINES, FLOOR, METHODS, STOCHASTIC
from repro.papers.stevens2010.names import LETOR_VARIANTS
from repro.spec import PerDataset, RunContext

DATA = cat.data_dir()
PAPERS = papers.paper_ids()


def have(name):
    return cat.data_state(name, DATA)[0]


def art(paper, name):
    return next(a for a in papers.artifacts(paper) if a.name == name)


def _identity(spec) -> str:
    return json.dumps(spec.identity, sort_keys=True)


@pytest.mark.parametrize("paper", PAPERS)
def test_only_timing_runs_are_exclusive_and_no_value_run_is_one(paper):
    """The runner executes a run alone if any artifact declaring it is a timing artifact: so a
    timing artifact must not declare a value artifact's run, or the value run is serialised."""
    for quick in (False, True):
        timing = {_identity(s) for a in papers.artifacts(paper) if a.timing
                  for s in a.runs(quick)}
        values = [s for a in papers.artifacts(paper) if not a.timing for s in a.runs(quick)]
        assert not any(s.exclusive for s in values)
        shared = sorted({s.label for s in values if _identity(s) in timing})
        assert not shared, f"value runs a timing artifact also declares: {shared}"


@pytest.mark.parametrize("paper", PAPERS)
def test_split_parts_keep_the_unsplit_seed_and_have_labels_of_their_own(paper):
    labels = Counter()
    for a in papers.artifacts(paper):
        for quick in (False, True):
            whole = {(s.task, s.dataset, s.fold, s.repeat): s
                     for s in a.replace(split=()).runs(quick)}
            runs = a.runs(quick)
            for s in runs:
                assert s.seed == whole[(s.task, s.dataset, s.fold, s.repeat)].seed
            if not quick:
                labels.update({s.label: 1 for s in runs})
            per_run = Counter((s.task, s.dataset, s.fold, s.repeat) for s in runs)
            for key, n in per_run.items():
                assert n == len(a.parts_for(key[1])) if key[0] == a.task else n == 1
    # one label per distinct run (progress, recorded times and run listings key on it)
    by_label = {}
    for a in papers.artifacts(paper):
        for s in a.runs():
            assert by_label.setdefault(s.label, _identity(s)) == _identity(s), s.label


def test_letor_parts_cover_the_variants_once():
    a = art("stevens2010", "figure4")
    for ds in a.datasets:
        parts = [over["variants"] for _, over in a.parts_for(ds)]
        assert sorted(v for p in parts for v in p) == sorted(a.layout.params["variants"])
        assert all(len(p) == 1 for p in parts)
    assert set(a.layout.params["variants"]) == set(LETOR_VARIANTS)
    # every artifact of the LETOR task declares the same parts: they share the runs
    assert all(x.layout.split == a.layout.split for x in stevens2010.ARTIFACTS
               if x.task == "task_letor_fold")


def test_dubey_parts_cover_figure3_and_the_studies_once():
    """The OHSUMED parts fit every Figure 3 method once, the floor once and the studies once,
    as the unsplit run did; every artifact of the fold task declares the same parts."""
    a = art("dubey2009", "figure3")
    parts = [{**a.layout.params, **over} for _, over in a.parts_for("OHSUMED")]
    fig3 = [p for p in parts if "OHSUMED" in p["figure3_datasets"]]
    assert sorted(m for p in fig3 for m in p["methods"]) == sorted(METHODS)
    assert sum(p.get("floor", True) for p in fig3) == 1
    assert sum("OHSUMED" in p["sensitivity_datasets"] for p in parts) == 1
    assert set(BASELINES) | set(STOCHASTIC) == set(METHODS)
    assert all(x.layout.split == PerDataset.given(dubey2009.SPLIT, ()) for x in dubey2009.ARTIFACTS
               if x.task == "task_fold")


def _records_and_tables(outputs) -> tuple[Counter, Counter]:
    """The runs' records and tables, those computed on blocks of the queries pooled as the
    assembly pools them (:mod:`repro.evidence.query_blocks`)."""
    recs, tabs, stash = Counter(), Counter(), {}
    for out in outputs:
        r, t = query_blocks.take(list(out.get("records", [])), list(out.get("per_query", [])),
                                 stash)
        recs.update(json.dumps(x, sort_keys=True) for x in r)
        tabs.update(json.dumps(x, sort_keys=True) for x in t)
    r, t = query_blocks.pool(stash)
    recs.update(json.dumps(x, sort_keys=True) for x in r)
    tabs.update(json.dumps(x, sort_keys=True) for x in t)
    return recs, tabs


def _combined_equals_unsplit(a, dataset, fold, repeat=0):
    run = papers.task(a.paper, a.task)
    key = (dataset, fold, repeat)
    whole = [s for s in a.replace(split=()).runs(quick=True)
             if (s.dataset, s.fold, s.repeat) == key and s.task == a.task]
    parts = [s for s in a.runs(quick=True)
             if (s.dataset, s.fold, s.repeat) == key and s.task == a.task]
    assert len(whole) == 1 and len(parts) == len(a.parts_for(dataset)) > 1
    one = run(RunContext(whole[0], DATA, log=lambda m: None))
    split = [run(RunContext(s, DATA, log=lambda m: None)) for s in parts]
    recs, tabs = _records_and_tables([one])
    got_recs, got_tabs = _records_and_tables(split)
    assert recs and tabs
    assert got_recs == recs and got_tabs == tabs
    return one, split


@pytest.mark.slow
@pytest.mark.skipif(not have("OHSUMED"), reason="OHSUMED not in the data directory")
def test_letor_parts_combine_to_the_unsplit_fold():
    _combined_equals_unsplit(art("stevens2010", "figure4"), "OHSUMED", 1)


@pytest.mark.slow
@pytest.mark.skipif(not have("OHSUMED"), reason="OHSUMED not in the data directory")
def test_dubey_parts_combine_to_the_unsplit_fold():
    a = art("dubey2009", "figure3").replace(
               quick={**dubey2009.QUICK,
                      "params": {**dubey2009.QUICK["params"], "C": [1.0], "n_inits": 1,
                                 "ranksvm_C": [1e-3], "svmmap_C": [1.0],
                                 "rankboost_rounds": [10]}})
    one, split = _combined_equals_unsplit(a, "OHSUMED", 1)
    assert sum(1 for out in split for r in out["records"] if r["method"] == FLOOR) == \
        sum(1 for r in one["records"] if r["method"] == FLOOR) > 0


def test_reuters_parts_fit_each_method_once_with_its_unsplit_stream():
    """Domination Rank in one part, each PAMIR model in parts of its own — all its topics, or
    each of its blocks of topics once — by its index among the iteration counts (its random
    sub-stream, ``ctx.rng(50 + index)``, is the unsplit run's); every Reuters artifact
    declares the same parts and the comparisons across them."""
    a = art("stevens2010", "figure16")
    parts = [{**a.layout.params, **over} for _, over in a.parts_for("rcv1-subsets")]
    n = len(a.layout.params["pamir_iterations"])
    assert sum(p.get("dr", True) for p in parts) == 1
    blocks = Counter((k, tuple(p.get("pamir_block", (0, 1))))
                     for p in parts for k in p.get("pamir_runs", range(n)))
    for k in range(n):
        mine = sorted(b for (j, b) in blocks if j == k)
        assert mine == [(b, len(mine)) for b in range(len(mine))], mine
    assert all(c == 1 for c in blocks.values())
    assert any(len([b for (j, b) in blocks if j == k]) > 1 for k in range(n))   # PAMIR-100M
    for x in stevens2010.ARTIFACTS:
        if x.task == "task_reuters":
            assert x.layout.split == PerDataset.given(stevens2010.REUTERS_SPLIT, ())
            if x.name in ("figure18", "text"):
                assert stevens2010.REUTERS_AGG[0] in x.judging.aggregate


@pytest.mark.slow
@pytest.mark.skipif(not have("rcv1-subsets"), reason="RCV1 subsets not in the data directory")
def test_reuters_parts_combine_to_the_unsplit_run():
    """A tiny Reuters run (3 topics), unsplit and in parts, in replicate 0 (with Figure 17) and
    1: the same records and per-topic tables, and the same comparisons across methods.  Three
    topics in PAMIR-100M's four blocks leave a block empty: its part still returns its (empty)
    block of each mean, and the blocks pool to the unsplit run's."""
    from repro.papers.stevens2010.pooled import reuters_comparisons
    tiny = {**stevens2010.REUTERS_QUICK["params"], "max_topics": 3, "single_lambdas": [1.0],
            "pamir_iterations": [20000, 50000]}
    a = art("stevens2010", "text").replace(quick={"params": tiny, "repeats": 2})
    for rep in (0, 1):
        one, split = _combined_equals_unsplit(a, "rcv1-subsets", None, rep)
        whole = [s for s in a.replace(split=()).runs(quick=True) if s.repeat == rep]
        parts = [s for s in a.runs(quick=True) if s.repeat == rep]
        assert reuters_comparisons(a, list(zip(whole, [one]))) == \
            reuters_comparisons(a, list(zip(parts, split))) != []
        assert (one["single"] is None) == (rep > 0)
        assert any(t["qids"] == [] for out in split for t in out.get("per_query", []))


def test_reuters_comparisons_pool_the_parts_per_topic_values():
    """The counts and ratio that compare DR with PAMIR, from two parts' per-topic values, by
    hand: DR beats PAMIR-100M on topic a only; mean densities 0.1 (DR) and 0.4 (PAMIR-10M)."""
    from repro.papers.stevens2010.names import FEATURE_SELECTION as DR
    from repro.papers.stevens2010.pooled import reuters_comparisons
    from repro.spec import RunSpec
    a = art("stevens2010", "text")
    spec = RunSpec("stevens2010", "task_reuters", "rcv1-subsets", None, 0, "{}")
    dr = {"per_topic": {"a": {DR: {"AP": 0.5, "weight density": 0.05}},
                        "b": {DR: {"AP": 0.2, "weight density": 0.15}}}}
    pamir = {"per_topic": {"a": {"PAMIR-10M": {"AP": 0.1, "weight density": 0.3},
                                 "PAMIR-100M": {"AP": 0.4, "weight density": 0.3}},
                           "b": {"PAMIR-10M": {"AP": 0.3, "weight density": 0.5},
                                 "PAMIR-100M": {"AP": 0.3, "weight density": 0.5}}}}
    got = {r["metric"]: r for r in reuters_comparisons(a, [(spec, dr), (spec, pamir)])}
    count = got["topics where DR beats PAMIR-100M (AP)"]
    assert count["value"] == 1 and count["n_topics"] == 2 and count["figure"] == "figure18"
    ratio = got["nonzero weights relative to PAMIR"]
    assert ratio["value"] == pytest.approx(25.0) and ratio["claim"] and ratio["shown"] == "25.00%"
    assert count["dataset"] == "rcv1-singhal" and count["stand_in"]
    assert reuters_comparisons(a, [(spec, pamir)]) == []          # no Domination Rank
