"""The claim engine: comparisons of reproduced values on the evidence behind them."""
from __future__ import annotations

from ..spec import Artifact
from . import intervals
from .stats import paired


def compare_paired(art: Artifact, a: dict, b: dict, index, records: list[dict], groups: dict,
                   seed: int) -> dict | None:
    """A paired test of record ``a`` against record ``b`` (``a − b``): over the test queries
    behind both (pooled over folds) when both are means over query tables, else over their
    fold values; None when neither pairing exists."""
    qa, qb = intervals.query_values(art, a, index), intervals.query_values(art, b, index)
    if qa and qb:
        common = [k for k in qa if k in qb]
        if len(common) >= 2:
            res = paired([qa[k] for k in common], [qb[k] for k in common], seed)
            folds = len({f for f, _ in common})
            return {**res.as_dict(), "n_folds": folds, "unit": "queries",
                    "test": f"paired t-test over {res.n_queries} test queries"
                            + (f" pooled over {folds} folds" if folds > 1 else "")
                            + " (scipy.stats.ttest_rel); 95% bootstrap interval of the mean "
                              "difference", "outcome_of": res}
    fa = intervals.fold_values(art, a, records, groups)
    fb = intervals.fold_values(art, b, records, groups)
    if fa and fb and set(fa) == set(fb) and len(fa) >= 2:
        folds = sorted(fa)
        res = paired([fa[f] for f in folds], [fb[f] for f in folds], seed)
        d = res.as_dict()
        d["n_folds"], d["n_queries"] = d.pop("n_queries"), None
        return {**d, "unit": "folds",
                "test": f"paired t-test over {len(folds)} fold values (scipy.stats.ttest_rel; "
                        "the values are not means over queries); 95% bootstrap interval of "
                        "the mean difference", "outcome_of": res}
    return None
