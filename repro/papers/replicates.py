"""How many replicates the papers' stochastic artifacts run: a single run of a
method with randomness is one draw, not a value.  An artifact declares ``**replicated(quick)``:
``Artifact.repeats`` runs of every (dataset, fold), replicate r seeded from the run's identity
(``RunSpec.seed``; replicate 0 keeps the seed the runs always had), and fewer under
``--quick`` (a smoke run: enough for a spread, not for a verdict).  Which part of a run a
replicate recomputes (only what varies) is each task's business: ``ctx.spec.repeat``."""

#: replicates of a stochastic artifact (Bouthillier et al., MLSys 2021, use 5 or more)
REPEATS = 5
#: replicates under --quick
QUICK_REPEATS = 2


def replicated(quick: dict) -> dict:
    """The keyword arguments of a replicated artifact, whose ``--quick`` overrides are
    ``quick``: ``repeats`` and ``quick`` with its ``repeats``."""
    return {"repeats": REPEATS, "quick": {**quick, "repeats": QUICK_REPEATS}}
