"""Judging reproduced values: statistics (:mod:`.stats`), intervals (:mod:`.intervals`),
published numbers (:mod:`.published`), aggregation kinds (:mod:`.kinds`) and the assembly of an
artifact's values (:mod:`.assemble`)."""
