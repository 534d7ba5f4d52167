"""Replicates of a selected value keep their replicate values when replicates select
different settings (each replicate's own C): a fit's reported C must not split a value from
its replicates."""
from __future__ import annotations

from repro.judge.replicates import attach_values, group


def _grid(rep, chosen):
    recs = [{"dataset": "D", "method": "DORM", "metric": "NDCG@10", "fold": None, "C": c,
             "fitted_C": c, "value": 50.0 + c + rep, "repeat": rep} for c in (0.1, 1.0, 10.0)]
    recs.append({"dataset": "D", "method": "DORM", "metric": "NDCG@10", "fold": None,
                 "fitted_C": chosen, "value": 50.0 + chosen + rep, "repeat": rep})
    return recs


def test_the_grid_field_separates_a_replicate_s_records_not_the_fitted_value():
    items = _grid(0, 10.0) + _grid(1, 1.0)
    got = group(items)
    # four identities (three grid points and the chosen value), each in both replicates
    assert len(got) == 4 and all(sorted(v) == [0, 1] for v in got.values())


def test_a_selected_value_gets_the_values_of_each_replicate_s_own_selection():
    mean = [{"dataset": "D", "method": "DORM", "metric": "NDCG@10", "fold": None,
             "fitted_C": 10.0, "value": 60.5}]
    per = [[{k: v for k, v in r.items() if k != "repeat"} for r in _grid(rep, chosen)]
           for rep, chosen in ((0, 10.0), (1, 1.0))]
    attach_values(mean, per)
    assert mean[0]["replicate_values"] == [60.0, 52.0]
    assert mean[0]["replicates"] == 2
