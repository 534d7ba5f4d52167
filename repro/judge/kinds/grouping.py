"""How aggregation kinds group records: by folds (:func:`by_folds`, :func:`complete`) and the
fields a group's records share (:func:`shared`)."""
from __future__ import annotations

from ...evidence.record import common_fields, matches
from ...spec import Artifact


def shared(recs: list[dict]) -> dict:
    """Fields (other than the value and those an aggregation sets: dataset, fold) equal in
    every record of a group."""
    return common_fields(recs, set_here=("fold", "dataset"))


def by_folds(art: Artifact, records: list[dict], select: dict, label, by: tuple) -> tuple:
    """Records matched by ``select`` with a fold, grouped by (dataset, method, metric, *by),
    each group as {fold: record}; and the groups that already have a record at ``label``."""
    groups: dict[tuple, dict] = {}
    have = set()
    for r in records:
        key = (r.get("dataset"), r.get("method"), r.get("metric"),
               *(r.get(f) for f in by))
        if r.get("fold") == label and label is not None:
            have.add(key)
        if r.get("fold") in (None, label) or not matches(select, r):
            continue
        groups.setdefault(key, {})[str(r["fold"])] = r
    return groups, have


def complete(art: Artifact, by_fold: dict) -> list[dict] | None:
    """The group's records in the artifact's declared fold order, or None if one is missing."""
    used = by_fold[next(iter(by_fold))].get("data_used") or \
        by_fold[next(iter(by_fold))].get("dataset")
    declared = [str(f) for f in art.folds_for(used) if f is not None]
    if not declared or any(f not in by_fold for f in declared):
        return None
    return [by_fold[f] for f in declared]
