"""Every exported ranker works inside scikit-learn's model selection: a Pipeline with a scaler,
``cross_val_score`` with ``GroupKFold`` and the query ids routed to ``fit`` and ``score``, a
``GridSearchCV`` over a parameter — and the scores are the LETOR measures of the suite."""
import numpy as np
import pytest
import sklearn
from sklearn.model_selection import GridSearchCV, GroupKFold, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

import repro.rankers
from repro.data.synthetic import make_queries
from repro.errors import DataError

from repro.metrics.scorer import letor_measure, letor_scorer
from repro.evidence.protocol import measures

EXPORTED = [n for n in repro.rankers.__all__ if n not in ("Ranker", "group_by_query")]
# small, fast settings per ranker, and the parameter searched over (a declared grid)
FAST = {"ConditionalRanker": {"sample_size": 10, "max_iter": 20},
        "DominationRank": {"tol": 1e-4}, "SVMMAP": {"eps": 1e-3}, "DORM": {"eps": 1e-3},
        "ROCAreaSVM": {"eps": 1e-3}, "PrecisionAtKSVM": {"eps": 1e-3, "k": 3},
        "CuttingPlaneRankSVM": {"eps": 1e-4}, "RankBoost": {"n_rounds": 5},
        "GreedyRankRLS": {"k": 2}}
SEARCH = {"RankRLS": ("lam", [0.1, 10.0]), "GreedyRankRLS": ("lam", [0.5, 4.0]),
          "DominationRank": ("lam", [0.1, 10.0]), "RankBoost": ("n_rounds", [2, 5]),
          "SingleFeature": ("feature", [0, 2])}


@pytest.fixture(scope="module")
def data():
    d = make_queries(24, (4, 9), 5, seed=7)
    qid = np.repeat(d.qids, np.diff(d.query_ptr))
    return d.X, d.y, qid


@pytest.fixture(autouse=True)
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


def make(name):
    return getattr(repro.rankers, name)(**FAST.get(name, {}))


@pytest.mark.parametrize("name", EXPORTED)
def test_cross_val_score_with_group_kfold(name, data):
    X, y, qid = data
    got = cross_val_score(make(name), X, y, cv=GroupKFold(3), params={"qid": qid, "groups": qid})
    assert got.shape == (3,) and np.all((got >= 0) & (got <= 1))
    # the same number as fitting the fold by hand and scoring with the suite's measures
    train, test = next(GroupKFold(3).split(X, y, qid))
    model = make(name).fit(X[train], y[train], qid[train])
    assert got[0] == pytest.approx(letor_measure(y[test], model.predict(X[test]), "NDCG@10",
                                                 qid=qid[test]))


@pytest.mark.parametrize("name", EXPORTED)
def test_grid_search_over_a_parameter(name, data):
    X, y, qid = data
    param, values = SEARCH.get(name, ("C", [0.1, 10.0]))
    gs = GridSearchCV(make(name), {param: values}, cv=GroupKFold(3),
                      scoring=letor_scorer("MAP", version=4))
    gs.fit(X, y, qid=qid, groups=qid)
    assert gs.best_params_[param] in values
    assert np.isfinite(gs.best_score_)


@pytest.mark.parametrize("name", EXPORTED)
def test_a_pipeline_with_a_scaler(name, data):
    X, y, qid = data
    pipe = Pipeline([("sc", StandardScaler()), ("r", make(name))]).fit(X, y, qid=qid)
    scores = pipe.predict(X)
    assert scores.shape == y.shape and np.all(np.isfinite(scores))
    assert pipe.score(X, y, qid=qid) == pytest.approx(
        letor_measure(y, scores, "NDCG@10", qid=qid))


def test_a_pipeline_without_metadata_routing_takes_step_parameters(data):
    X, y, qid = data
    with sklearn.config_context(enable_metadata_routing=False):
        pipe = Pipeline([("sc", StandardScaler()), ("r", repro.rankers.RankSVM())])
        pipe.fit(X, y, r__qid=qid)
        ours = repro.rankers.RankSVM().fit(StandardScaler().fit_transform(X), y, qid)
        assert np.allclose(pipe.predict(X), ours.predict(StandardScaler().fit(X).transform(X)))


def test_score_is_ndcg10_of_the_letor4_script_and_needs_qid(data):
    X, y, qid = data
    d = make_queries(24, (4, 9), 5, seed=7)
    model = repro.rankers.RankSVM().fit(X, y, qid)
    assert model.score(X, y, qid=qid) == pytest.approx(
        measures(d, model.predict(X), ("NDCG@10",), version=4)["NDCG@10"])
    with pytest.raises(DataError, match="metadata routing"):
        model.score(X, y)


def test_query_ids_need_not_be_contiguous(data):
    X, y, qid = data
    perm = np.random.default_rng(0).permutation(len(y))
    s = np.arange(len(y), dtype=float)
    a = letor_measure(y, s, "MAP", qid=qid)
    # shuffling documents keeps each query's documents in their relative order only if the
    # scores are untied; with distinct scores the measure is the same
    assert letor_measure(y[perm], s[perm], "MAP", qid=qid[perm]) == pytest.approx(a)


def test_evaluate_takes_one_qid_per_document(data):
    from repro.metrics import evaluate
    X, y, qid = data
    d = make_queries(24, (4, 9), 5, seed=7)
    s = X[:, 0]
    grouped = evaluate(d.y, s, d.query_ptr, d.qids)
    perm = np.random.default_rng(1).permutation(len(y))
    by_doc = evaluate(y[perm], s[perm], qid=qid[perm])
    assert by_doc.map == pytest.approx(grouped.map)
    assert by_doc.avg_ndcg == pytest.approx(grouped.avg_ndcg)
    with pytest.raises(DataError, match="query_ptr"):
        evaluate(y, s)


@pytest.mark.parametrize("how", ["grid", "cross_val_score", "scorer"])
def test_model_selection_without_routing_is_refused_not_nan(how, data):
    """Without metadata routing, scikit-learn would score every candidate without query ids
    (NaN, with warnings) and "select" the first: the search fails, saying how to pass them."""
    X, y, qid = data
    scorer = letor_scorer("MAP")                     # made with routing on (it asks for qid)
    with sklearn.config_context(enable_metadata_routing=False):
        with pytest.raises(ValueError, match="enable_metadata_routing=True") as err:
            if how == "cross_val_score":
                cross_val_score(repro.rankers.RankSVM(), X, y, groups=qid, cv=GroupKFold(3),
                                params={"qid": qid})
            else:
                GridSearchCV(repro.rankers.RankSVM(), {"C": [0.1, 10.0]}, cv=GroupKFold(3),
                             scoring=scorer if how == "scorer" else None
                             ).fit(X, y, qid=qid, groups=qid)
        assert "qid=qid" in str(err.value)
        # outside cross-validation the ranker still fits with its own qid argument
        model = repro.rankers.RankSVM().fit(X, y, qid)
        assert np.isfinite(model.score(X, y, qid=qid))
