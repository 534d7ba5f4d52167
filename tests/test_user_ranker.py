"""A user's ranker (any class with fit(X, y, qid) / predict(X)) beside a
paper's methods (``--ranker``), under the table's folds, grid selection and evaluation, with
paired tests against each paper method; the modern reference is one instance of the same
mechanism and keeps its run identities."""
import json
from pathlib import Path

import numpy as np
import pytest

from repro.cli import main as cli
from repro.evidence import reference
from repro import papers as registry
from repro.data import catalog as cat
from repro.spec import REFERENCE_TASK, USER_RANKER_TASK
from repro.judge.stats import paired
from repro.evidence import decode_sidecar

from test_user_data import write_folds, letor_lines


class TinyRidge:
    """Ridge regression on the labels: a user's ranker, not a repro Ranker."""
    param_grid = {"alpha": [0.1, 10.0]}

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y, qid):
        X = np.asarray(X)
        self.w_ = np.linalg.solve(X.T @ X + self.alpha * np.eye(X.shape[1]), X.T @ y)
        return self

    def predict(self, X):
        return np.asarray(X) @ self.w_


@pytest.fixture
def clean_env(monkeypatch):
    monkeypatch.setattr(cat, "REGISTERED", {})     # no user sets registered
    monkeypatch.setattr(cat, "ALLOWED", set())    # nor allowances


def test_parse_ranker_reads_grid_from_class_or_json():
    rr = reference.parse_ranker(f"tiny={__name__}:TinyRidge")
    assert rr.label == "tiny (user method, not in the paper)"
    assert rr.params["param_grid"] == {"alpha": [0.1, 10.0]} and rr.task == USER_RANKER_TASK
    rr = reference.parse_ranker(f'tiny={__name__}:TinyRidge:{{"param_grid": {{"alpha": [3]}}}}')
    assert rr.params["param_grid"] == {"alpha": [3]} and rr.params["params"] == {}
    with pytest.raises(Exception, match="not JSON"):
        reference.parse_ranker(f"tiny={__name__}:TinyRidge:{{oops")
    with pytest.raises(Exception, match="cannot import"):
        reference.parse_ranker("tiny=no_such_module_xyz:X")


def test_modern_reference_run_identity_is_unchanged():
    art = next(a for a in registry.artifacts("pahikkala2010") if a.name == "table7")
    specs = [s for s in art.runs() if s.task == REFERENCE_TASK]
    assert specs and all("like" not in s.identity for s in specs)
    assert specs[0].params == {"version": 4, "criterion": "MAP", "quick_grid": False,
                               "metrics": list(art.layout.reference.metrics)}


@pytest.mark.slow
def test_user_ranker_beside_table7_with_fold_values_and_paired_tests(clean_env, tmp_path):
    data = write_folds(tmp_path / "mine", letor_lines(n_queries=40, seed=4))
    out = tmp_path / "out"
    code = cli.main(["pahikkala2010.table7", "--quick", "--no-pdf", "--dataset",
                     f"mine={data}", "--on", "mine", "--ranker", f"tiny={__name__}:TinyRidge",
                     "--out", str(out)])
    assert code == 0
    recs = json.loads((out / "pahikkala2010" / "table7.json").read_text())
    label = "tiny (user method, not in the paper)"
    fold = [r for r in recs if r["method"] == label and r["metric"] == "MAP"]
    assert len(fold) == 1 and fold[0]["fold"] == "1" and 0 < fold[0]["value"] <= 1
    assert fold[0]["verdict"] == "user"
    tests = {r["versus"]: r for r in recs if r.get("paired")}
    assert set(tests) == {"GRankRLS", "RankRLS"}
    # the paired test is recomputed from the per-query sidecar
    tables = decode_sidecar((out / "pahikkala2010" / "table7.per-query.json.gz").read_bytes())
    by = {t["method"]: dict(zip(t["qids"], t["values"])) for t in tables["tables"]
          if t["metric"] == "MAP"}
    for other, rec in tests.items():
        q = list(by[label])
        mine, theirs = [by[label][k] for k in q], [by[other][k] for k in q]
        assert rec["n_queries"] == len(q)
        assert rec["effect"] == pytest.approx(np.mean(np.subtract(mine, theirs)))
        assert rec["p_value"] == pytest.approx(paired(mine, theirs, 0).p_value)
        assert rec["ci95"][0] <= rec["effect"] <= rec["ci95"][1]
    html = (out / "pahikkala2010" / "index.html").read_text()
    assert "user method" in html


RIDGE_FILE = '''
import numpy as np


class Ridge:
    param_grid = {"alpha": [1.0]}

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y, qid):
        X = np.asarray(X)
        self.w_ = np.linalg.solve(X.T @ X + self.alpha * np.eye(X.shape[1]), X.T @ y)
        return self

    def predict(self, X):
        return np.asarray(X) @ self.w_
'''


def test_ranker_from_a_file_or_the_working_directory(tmp_path, monkeypatch):
    """``--ranker ridge=./myranker.py:Ridge`` and ``ridge=myranker:Ridge`` (a module of the
    working directory, not on sys.path) load the class; its runs find it again by the file's
    absolute path, from any directory."""
    (tmp_path / "myranker.py").write_text(RIDGE_FILE)
    monkeypatch.chdir(tmp_path)
    for text in ("ridge=./myranker.py:Ridge", f"ridge={tmp_path}/myranker.py:Ridge",
                 "ridge=myranker:Ridge"):
        rr = reference.parse_ranker(text)
        assert rr.params["class"] == f"{tmp_path / 'myranker.py'}:Ridge", text
        assert rr.params["param_grid"] == {"alpha": [1.0]}
    monkeypatch.chdir("/")
    cls = reference.load_class(rr.params["class"])
    assert cls.__name__ == "Ridge" and cls().fit(np.eye(2), [1.0, 0.0], [1, 1]).w_.shape == (2,)
    with pytest.raises(Exception, match="path/to/nosuch.py:Ridge"):
        reference.parse_ranker("ridge=nosuch:Ridge")
    with pytest.raises(Exception, match="no such Python file"):
        reference.parse_ranker(f"ridge={tmp_path}/missing.py:Ridge")
