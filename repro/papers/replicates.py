"""How many replicates the papers' stochastic artifacts run: a single run of a
method with randomness is one draw, not a value.  An artifact declares ``**replicated(quick)``:
the two-stage design of :mod:`repro.judge.design` — ``RunLayout.repeats`` (3) runs of every
(dataset, fold), replicate r seeded from the run's identity (``RunSpec.seed``; replicate 0
keeps the seed the runs always had), and up to ``RunLayout.extend_to`` (8) for the runs behind
a value the first stage leaves inconclusive and more replicates would decide
(:mod:`repro.pipeline.extend`); under ``--quick`` 2 and no second stage (a smoke run: enough
for a spread, not for a verdict).  Which part of a run a replicate recomputes (only what
varies) is each task's business: ``ctx.spec.repeat``."""
from ..judge.design import TWO_STAGE

#: replicates of a stochastic artifact's first stage, and the second stage's
REPEATS, EXTEND_TO = (st.replicates for st in TWO_STAGE.stages)
#: replicates under --quick
QUICK_REPEATS = 2


def replicated(quick: dict) -> dict:
    """The keyword arguments of a replicated artifact, whose ``--quick`` overrides are
    ``quick``: ``repeats``, ``extend_to`` and ``quick`` with its ``repeats`` (and no second
    stage)."""
    return {"repeats": REPEATS, "extend_to": EXTEND_TO,
            "quick": {**quick, "repeats": QUICK_REPEATS, "extend_to": 0}}
