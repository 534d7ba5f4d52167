"""Figure 1: documents per query of the web-search stand-ins."""
from __future__ import annotations

import numpy as np

from ...data.load import load_letor
from ...evidence import Evidence
from ...spec.params import NoParams, study


@study(NoParams)
def task_docs_per_query(ctx) -> dict:
    """Figure 1: documents per query over the whole data set (every fold's test split)."""
    NoParams.of(ctx)
    sizes = []
    for fold in range(1, 6):
        d = load_letor(ctx.dataset, fold, "test", ctx.data_dir)
        sizes += np.diff(d.query_ptr).tolist()
    s = np.array(sizes)
    ev = Evidence(sizes=sizes)
    ev.value("data", "median documents per query", float(np.median(s)))
    ev.value("data", "queries", int(s.size))
    ev.value("data", "documents", int(s.sum()))
    return ev.output()
