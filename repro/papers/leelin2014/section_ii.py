"""leelin2014 Sec. II.1: the worked example of the counting methods (a consistency check)."""
from __future__ import annotations

import numpy as np

from ...evidence.record import record
from ...rankers.pair_counting import METHODS, direct_count_trace, sv_counts
from ...spec.params import NoParams, study

EXAMPLE_Z = [-0.9, -0.7, -0.1, 0.15, 0.2, 1.6]
EXAMPLE_Y = [2, 1, 2, 3, 3]          # y_1..y_5 reconstructed; y_6 is not recoverable


@study(NoParams)
def task_section_ii(ctx) -> dict:
    """Sec. II.1's example, computed by the direct-counting kernel (count⁺ after each step of
    the ascending sweep) and by the three counting methods (l_i^+)."""
    NoParams.of(ctx)
    recs, traces = [], {}
    ds = "Sec. II.1 example"
    agree = []
    for y6 in (1, 2, 3):
        cp, lp = direct_count_trace(EXAMPLE_Z, EXAMPLE_Y + [y6])
        traces[y6] = {"count_plus": cp.tolist(), "l_plus": lp.tolist()}
        agree.append(cp[:2].tolist() == traces[1]["count_plus"][:2]
                     and lp[:2].tolist() == traces[1]["l_plus"][:2])
    cp, lp = np.array(traces[1]["count_plus"]), np.array(traces[1]["l_plus"])
    m = "direct counting (Sec. II.1)"
    for i in (0, 1):
        for r in range(3):
            recs.append(record(m, f"count+({r + 1}) at i={i + 1}", int(cp[i, r]), dataset=ds))
        recs.append(record(m, f"l_{i + 1}^+", int(lp[i]), dataset=ds))
    recs.append(record(m, "same numbers for y_6 = 1, 2, 3", bool(all(agree)), dataset=ds))
    names = {"direct": "direct counting (Sec. II.1)", "joachims": "Algorithm (I) (Joachims 2006)",
             "tree": "order-statistic tree (Tree-TRON)"}
    for method in METHODS:
        c = sv_counts(EXAMPLE_Z, EXAMPLE_Y + [1], [0, 6], method=method)
        if method != "direct":
            for i in (0, 1):
                recs.append(record(names[method], f"l_{i + 1}^+", int(c.l_plus[i]), dataset=ds))
    return {"records": recs, "traces": traces}
