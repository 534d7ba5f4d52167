"""A record: one value with the fields that identify it.

A task returns its values as flat dicts (:func:`record`, :meth:`repro.evidence.Evidence.value`);
the assembly adds the published value and its judgement.  :func:`matches` is the one filter by
field values (an artifact's ``select``, an aggregation's ``select``).
"""
from __future__ import annotations

import re


def record(method: str, metric: str, value, fold=None, **extra) -> dict:
    """One reproduced value as a task returns it (the runner adds paper/artifact/dataset)."""
    out = {"method": method, "metric": metric, "value": value,
           "fold": None if fold is None else str(fold)}
    out.update(extra)
    return out


def matches(select: dict, rec: dict) -> bool:
    """Whether a record passes a filter ``{field: allowed value or values}``."""
    for k, allowed in select.items():
        allowed = allowed if isinstance(allowed, (list, tuple, set, frozenset)) else [allowed]
        if rec.get(k) not in allowed:
            return False
    return True


def natural_key(value) -> tuple:
    """Sort key ordering "selected_2" before "selected_10" and "fold 9" before "avg"."""
    text = "" if value is None else str(value)
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t)
                 for t in re.split(r"(\d+)", text) if t != "")
