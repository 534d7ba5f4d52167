"""Declarations: papers, their artifacts and the runs an artifact expands to
(:mod:`.declarations`), and the typed parameters a study reads from its run
(:mod:`.params`).  Pure data: nothing here loads data, runs or judges."""
from .declarations import (ARITHMETIC, REFERENCE_TASK, REFERENCE_TASKS, SAME_QUERIES, SAMPLE,
                           SAMPLING, SEEDS, STAND_IN, USER_RANKER_TASK, Artifact, Judging, Noise,
                           Paper, PerDataset, Quick, Reference, ReferenceRanker, RunContext,
                           RunLayout, RunSpec, SEED_SALT_ENV, Shown, canonical, salt_in_effect,
                           salted, seed_salt)

__all__ = ["ARITHMETIC", "REFERENCE_TASK", "REFERENCE_TASKS", "SAME_QUERIES", "SAMPLE", "SAMPLING",
           "SEEDS", "STAND_IN", "USER_RANKER_TASK", "Artifact", "Judging", "Noise", "Paper",
           "PerDataset", "Quick", "Reference", "ReferenceRanker", "RunContext", "RunLayout",
           "RunSpec", "Shown", "SEED_SALT_ENV", "canonical", "salt_in_effect", "salted",
           "seed_salt"]
