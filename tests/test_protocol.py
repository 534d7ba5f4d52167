"""repro.evidence.protocol: measures by name equal the LETOR-exact evaluation; selection on validation
goes through fit_grid, maximises the criterion and breaks ties by the declared rule."""
import numpy as np
import pytest

from repro.data.queries import QueryData
from repro.data.synthetic import make_queries
from repro.errors import DataError
from repro.metrics import evaluate
from repro.evidence.protocol import measures, select
from repro.rankers.base import Ranker


def test_measures_equal_the_evaluation_by_name():
    d = make_queries(12, (3, 15), 4, seed=5)
    s = np.round(d.X[:, 0] * 3) / 3                       # ties
    for version in (3, 4):
        ev = evaluate(d.y, s, d.query_ptr, d.qids, version=version)
        names = ("MAP", "P@3", "NDCG@10") + (("MeanNDCG",) if version == 4 else ())
        got = measures(d, s, names, version=version)
        assert got["MAP"] == ev.map and got["P@3"] == ev.avg_precision[2]
        assert got["NDCG@10"] == ev.avg_ndcg[9]
        if version == 4:
            assert got["MeanNDCG"] == ev.avg_mean_ndcg
    # beyond the script's printed depth (LETOR 4.0 prints 10): still defined
    assert 0 <= measures(d, s, ["P@16"], 4)["P@16"] <= 1


def test_hand_computed_values():
    # one query, labels 2, 0, 1 ranked by score: order (doc0, doc2, doc1)
    d = QueryData(np.zeros((3, 1)), np.array([2.0, 0.0, 1.0]), [0, 3], [1])
    got = measures(d, np.array([3.0, 1.0, 2.0]), ("MAP", "P@2", "NDCG@2"), 4)
    assert got["MAP"] == pytest.approx((1 / 1 + 2 / 2) / 2)
    assert got["P@2"] == 1.0 and got["NDCG@2"] == pytest.approx(1.0)


def test_bad_measure_names_are_refused():
    d = make_queries(2, 4, 2, seed=1)
    for bad in ("AUC", "NDCG@0", "P@x"):
        with pytest.raises(DataError, match="measure"):
            measures(d, d.X[:, 0], [bad])
    with pytest.raises(DataError, match="4.0"):
        measures(d, d.X[:, 0], ["MeanNDCG"], version=3)


class FeatureRanker(Ranker):
    """Scores by one feature times a sign: validation MAP is known per candidate."""
    grids = []

    def __init__(self, feature=0, sign=1.0, lam=1.0):
        self.feature, self.sign, self.lam = feature, sign, lam

    def _fit_grouped(self, X, y, query_ptr):
        self.coef_ = self.sign
        return self

    def fit_grid(self, data, grid):
        FeatureRanker.grids.append(grid)
        yield from super().fit_grid(data, grid)

    def predict(self, X):
        return self.sign * np.asarray(X)[:, self.feature]


def test_select_uses_fit_grid_and_the_tie_rule():
    d = make_queries(10, (4, 9), 3, seed=2)
    grid = {"feature": [0, 1, 2], "sign": [1.0, -1.0], "lam": [4.0, 1.0]}
    FeatureRanker.grids.clear()
    sel = select(FeatureRanker(), d, d, grid, criterion="MAP", prefer=("lam",))
    assert FeatureRanker.grids == [grid]                    # one fit_grid call, the whole grid
    maps = {(c["params"]["feature"], c["params"]["sign"], c["params"]["lam"]): c["MAP"]
            for c in sel.candidates}
    assert len(maps) == 12
    best = max(maps.values())
    assert sel.score == best
    # lam does not change the scores: every best value is tied across lam; smaller lam wins
    assert sel.params["lam"] == 1.0
    assert maps[(sel.params["feature"], sel.params["sign"], 4.0)] == best
    # "-lam" prefers the larger
    sel2 = select(FeatureRanker(), d, d, grid, criterion="MAP", prefer=("-lam",))
    assert sel2.params["lam"] == 4.0 and sel2.score == best
    # without a rule, the first best in grid order
    sel3 = select(FeatureRanker(), d, d, grid, criterion="MAP")
    first = next(c for c in sel3.candidates if c["MAP"] == best)
    assert sel3.params == first["params"]
    assert sel.curve("MAP", {"feature": 0, "sign": 1.0}, along="lam") == \
        [maps[(0, 1.0, 1.0)], maps[(0, 1.0, 4.0)]]
