"""Every ranker of ``repro.rankers`` follows the interface: scikit-learn estimator conventions
(``sklearn.base.clone`` works and round-trips ``get_params``), ``fit``/``fit_data`` agree,
``fit_grid`` yields the same models as separate fits, in grid order.

Rankers are discovered by importing every module of the package, so a new ranker is covered
without being listed here.  Each must be constructible with no arguments.
"""
import importlib
import pkgutil

import numpy as np
import pytest
from sklearn.base import clone

import repro.rankers
from repro.data.synthetic import make_queries
from repro.rankers.base import Ranker, expand_grid


def all_rankers():
    for m in pkgutil.walk_packages(repro.rankers.__path__, "repro.rankers."):
        importlib.import_module(m.name)
    seen, todo = [], list(Ranker.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.append(cls)
            todo.extend(cls.__subclasses__())
    return sorted((c for c in seen if c.__module__.startswith("repro.rankers")
                   and c.__module__ != "repro.rankers.base"),     # base classes: no ranker
                  key=lambda c: c.__name__)


RANKERS = all_rankers()

# per ranker: (base parameters, grid) for the fit_grid check; a new ranker must add a line
GRIDS = {
    "RankRLS": ({}, {"lam": [0.1, 10.0]}),
    "GreedyRankRLS": ({}, {"lam": [0.5, 4.0], "k": [1, 3]}),
    "RankSVM": ({"eps": 1e-10}, {"C": [10.0, 0.1, 1.0]}),          # warm-started over C
    "CuttingPlaneRankSVM": ({"eps": 1e-9}, {"C": [0.1, 1.0]}),
    "DominationRank": ({"tol": 1e-8}, {"lam": [0.1, 10.0], "reg": ["l1", "l2"]}),
    "ConditionalRanker": ({"sample_size": 20}, {"C": [0.1, 10.0]}),   # one sample Ŷ per grid
    "RankBoost": ({}, {"n_rounds": [3, 10]}),                          # prefixes of one run
    "SVMMAP": ({"eps": 1e-6}, {"C": [0.1, 1.0]}),
    "LambdaMART": ({"num_leaves": 4}, {"n_estimators": [5, 2], "learning_rate": [0.1, 0.3]}),
    "DORM": ({"eps": 1e-9}, {"C": [10.0, 0.1, 1.0]}),                # warm-started over C
    "ROCAreaSVM": ({"eps": 1e-9}, {"C": [1.0, 0.1]}),
    "PrecisionAtKSVM": ({"eps": 1e-9, "k": 3}, {"C": [1.0, 0.1]}),
    "LinearSVM": ({"eps": 1e-10}, {"C": [0.1, 1.0]}),
    "SingleFeature": ({}, {"feature": [0, 2], "sign": [1.0, -1.0]}),
    "GainRegression": ({}, {"C": [0.1, 10.0], "target": ["gain", "grade"]}),
}


def test_rankers_found():
    names = {c.__name__ for c in RANKERS}
    assert {"RankRLS", "GreedyRankRLS", "RankSVM", "CuttingPlaneRankSVM"} <= names


@pytest.mark.parametrize("cls", RANKERS, ids=lambda c: c.__name__)
def test_clone_round_trips_params(cls):
    r = cls()
    params = r.get_params()
    assert params, f"{cls.__name__} has no parameters?"
    c = clone(r)
    assert type(c) is cls and c is not r
    assert c.get_params().keys() == params.keys()
    for k, v in params.items():
        assert c.get_params()[k] is v or c.get_params()[k] == v
    # set_params then clone keeps the new values; unknown names are refused
    first = next(iter(params))
    r.set_params(**{first: "marker"})
    assert clone(r).get_params()[first] == "marker"
    with pytest.raises(ValueError, match="unknown parameter"):
        r.set_params(no_such_parameter=1)


@pytest.mark.parametrize("cls", RANKERS, ids=lambda c: c.__name__)
def test_fit_equals_fit_data_and_fit_grid(cls):
    d = make_queries(6, (4, 9), 5, seed=3)
    perm = np.random.default_rng(0).permutation(d.n_docs)       # ungrouped input order
    a = cls().fit(d.X[perm], d.y[perm], d.qid_per_doc[perm])
    b = cls().fit_data(d)
    np.testing.assert_allclose(a.predict(d.X), b.predict(d.X), rtol=1e-6, atol=1e-8)
    # a fitted attribute ends with "_" and does not leak into the parameters
    assert set(b.get_params()) == set(cls().get_params())
    assert any(k.endswith("_") and not k.startswith("_") for k in vars(b))
    assert cls.__name__ in GRIDS, f"add {cls.__name__} to GRIDS in this test"
    base, grid = GRIDS[cls.__name__]
    got = list(cls(**base).fit_grid(d, grid))
    assert [p for p, _ in got] == expand_grid(grid)
    for params, model in got:
        single = cls(**{**base, **params}).fit_data(d)
        assert model.get_params() == single.get_params()
        np.testing.assert_allclose(model.predict(d.X), single.predict(d.X), rtol=1e-5,
                                   atol=1e-6)
