"""Declarations: papers, their artifacts and the runs an artifact expands to
(:mod:`.declarations`).  Pure data: nothing here loads data, runs or judges."""
from .declarations import (REFERENCE_TASK, REFERENCE_TASKS, USER_RANKER_TASK, Artifact, Paper,
                           ReferenceRanker, RunContext, RunSpec, canonical)

__all__ = ["REFERENCE_TASK", "REFERENCE_TASKS", "USER_RANKER_TASK", "Artifact", "Paper",
           "ReferenceRanker", "RunContext", "RunSpec", "canonical"]
