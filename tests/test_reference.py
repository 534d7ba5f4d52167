"""The modern reference (LambdaMART through LightGBM) beside the LETOR tables: run under the
table's protocol, labelled as not in the paper, fold-averaged, and "not run" with the install
hint when LightGBM is absent."""
import pytest

import reference_letor

from repro import papers
from repro.judge import published as pub
from repro.judge import verdicts
from repro.spec import REFERENCE_TASK
from repro.papers import pahikkala2010
from repro.rankers import lambdamart
from repro.evidence.reference import METHOD
from repro.data.load import load_letor_fold
from repro.judge.assemble import gather_records
from repro.run.runner import Runner

pytest.importorskip("lightgbm", reason="the `modern` extra (lightgbm) is needed")


def table7():
    return next(a for a in pahikkala2010.ARTIFACTS if a.name == "table7")


def test_reference_runs_follow_the_tables_folds_and_protocol():
    full, quick = table7().runs(), table7().runs(quick=True)
    ref = [s for s in full if s.task == REFERENCE_TASK]
    assert [s.fold for s in ref] == [1, 2, 3, 4, 5]
    assert ref[0].params == {"version": 4, "criterion": "MAP", "quick_grid": False,
                             "metrics": ["MAP", "P@10", "MeanNDCG", "NDCG@10"]}
    qref = [s for s in quick if s.task == REFERENCE_TASK]
    assert [s.fold for s in qref] == [1] and qref[0].params["quick_grid"] is True
    assert Runner(".", papers.task).cache.key(qref[0]) != Runner(".", papers.task).cache.key(ref[0])


@pytest.mark.slow
def test_quick_reference_run_on_mq2008(data_root, monkeypatch, tmp_path):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path))
    art = table7()
    specs = [s for s in art.runs(quick=True) if s.task == REFERENCE_TASK]
    res = Runner(data_root, papers.task, progress=False, log=lambda *a, **k: None).run(specs)
    recs, _ = gather_records(art, list(res.values()))
    flat = verdicts.compare("pahikkala2010", "table7", recs, pub.load("pahikkala2010"), {})
    mine = [r for r in flat if r["method"] == METHOD]
    assert [(r["metric"], r["fold"]) for r in mine] == [("MAP", "1")]
    assert mine[0]["verdict"] == verdicts.Verdict.MODERN
    # the value is the test MAP of LambdaMART refitted with the chosen parameters and the
    # run's seed (LightGBM is deterministic, single-threaded, BLAS-free), by the LETOR 4.0
    # script's reference
    (spec,) = specs
    out = res[spec].output
    folds = load_letor_fold("MQ2008", 1, data_root)
    model = lambdamart.LambdaMART(seed=spec.seed % (2 ** 31), **out["chosen"])
    model.fit_data(folds["train"])
    test = folds["test"]
    _, avg = reference_letor.evaluate_set(test, model.predict(test.X), 4)
    assert mine[0]["value"] == pytest.approx(avg["MAP"], rel=1e-12)
    # without LightGBM: not run, saying how to install it
    monkeypatch.setattr(lambdamart, "lightgbm", None)
    res = Runner(data_root, papers.task, force=True, progress=False,
                 log=lambda *a, **k: None).run(specs)
    recs, _ = gather_records(art, list(res.values()))
    flat = verdicts.compare("pahikkala2010", "table7", recs, pub.load("pahikkala2010"), {})
    (row,) = [r for r in flat if r["method"] == METHOD]
    assert row["verdict"] == "not run" and "[modern]" in row["reason"]
