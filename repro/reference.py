"""The modern reference beside the papers' LETOR tables: LightGBM's LambdaMART
(:class:`repro.rankers.lambdamart.LambdaMART`) run under each table's own protocol — the same
folds, parameters chosen on the validation split by the table's criterion, the same
evaluation (LETOR 3.0 or 4.0 conventions) — and labelled "modern reference, not in the paper",
so a reader sees where the 2007–2010 methods stand today.

An artifact asks for it with ``Artifact.reference = {"version": 4, "criterion": "MAP",
"metrics": [...]}`` (``version`` may map datasets to conventions: ``{"OHSUMED": 3, "*": 4}``; ``fields``: fields
every record carries, e.g. the table part a paper's ``select`` filters on): its runs then include one ``task_modern_reference`` run per dataset and
fold, and its fold averages are added when records are gathered.  Without the ``modern`` extra
these runs are "not run" and say how to install it.

Grid (small, chosen here for cost — two ensembles per fold, the smaller tree counts are their
prefixes; the paper tables give none): 100, 300 or 500 trees, 15 or 63 leaves, learning rate
0.1, at least 20 documents per leaf; ties in the validation criterion go to fewer trees, then
fewer leaves.
"""
from __future__ import annotations

from .data.load import load_letor_fold
from .experiment import record
from .protocol import measures, select
from .rankers.lambdamart import LambdaMART

METHOD = "LambdaMART (modern reference, not in the paper)"
GRID = {"n_estimators": [100, 300, 500], "learning_rate": [0.1], "num_leaves": [15, 63]}
QUICK_GRID = {"n_estimators": [50], "learning_rate": [0.1], "num_leaves": [15]}
PREFER = ("n_estimators", "num_leaves")


def task_modern_reference(ctx) -> dict:
    """LambdaMART on one fold of ``ctx.dataset``: parameters chosen on ``vali`` by
    ``params["criterion"]``, test measures ``params["metrics"]`` with LETOR
    ``params["version"]`` conventions."""
    p = ctx.params
    version = p["version"]
    if isinstance(version, dict):                  # per dataset: {"OHSUMED": 3, "*": 4}
        version = version.get(ctx.dataset, version.get("*"))
    splits = load_letor_fold(ctx.dataset, int(ctx.fold), ctx.data_dir)
    grid = p.get("grid") or (QUICK_GRID if p.get("quick_grid") else GRID)
    sel = select(LambdaMART(seed=ctx.seed % (2 ** 31)), splits["train"], splits["vali"], grid,
                 criterion=p["criterion"], prefer=PREFER, version=version)
    test = measures(splits["test"], sel.model.predict(splits["test"].X), p["metrics"],
                    version=version)
    extra = dict(p.get("fields", {}))             # fields the table's records carry
    recs = [record(METHOD, m, v, ctx.fold, modern=True, **extra) for m, v in test.items()]
    recs.append(record(METHOD, f"validation {p['criterion']}", sel.score, ctx.fold,
                       modern=True, chosen=sel.params, **extra))
    return {"records": recs, "chosen": sel.params, "candidates": sel.candidates}
