"""Judging reproduced values: statistics (:mod:`.stats`), intervals (:mod:`.intervals`),
published numbers loaded (:mod:`.published`) and the verdicts against them (:mod:`.verdicts`:
verdicts and claim outcomes as one enumeration, and the rule), aggregation kinds
(:mod:`.kinds`), the claim engine (:mod:`.claims`) and the assembly of an artifact's values
(:mod:`.assemble`)."""
