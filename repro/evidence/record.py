"""A record: one value with the fields that identify it — the one place that says which fields
those are, and when a value is a number.

A task returns its values as flat dicts (:func:`record`, :meth:`repro.evidence.Evidence.value`);
the assembly adds the published value and its judgement.  Every field a record or a per-query
table carries is in one category:

* **cell** (:data:`CELL`): artifact, dataset, method, metric, fold — where the value sits in the
  paper's tables; a published value is keyed by these alone (:func:`cell`);
* **value** (:data:`VALUE`): the value, or why there is none;
* **prose** (:data:`PROSE`): words about the value (a note, an explanation of a deviation);
* **description** (:data:`DESCRIPTION`): how the value was obtained, not which value it is (the
  weight of a mean, its number of queries, a time, the text shown, the replicates behind it:
  their number, values and spread, and whether the value is deterministic);
* **provenance** (:data:`PROVENANCE`): where it comes from (paper, data used, a stand-in, the
  modern reference, a run that did not happen, a user's data or ranker);
* **comparison** (:data:`COMPARISON`): the comparison with the paper (published value, verdict,
  the kind of the published value) — added by :mod:`repro.judge.verdicts`;
* **judgement** (:data:`JUDGEMENT`): intervals and tests (:mod:`repro.judge`);
* **table data** (:data:`TABLE_DATA`): a per-query table's query ids, values and weights;
* any other scalar field is a **further key field** (``part``, ``size``, ``criterion``, ``C``).

**The key** of a record or of a per-query table is its cell fields and further key fields:
every scalar field in no other category (:func:`key`).  That one rule gives

* the key of a per-query table (:func:`table_key`): a task's extra fields that are key fields
  become the table's (:meth:`repro.evidence.Evidence.per_query`), and a record finds its table
  by them (:class:`repro.evidence.TableIndex`);
* the key of a record apart from its fold (:func:`group_key`): the records of one setting over
  folds, their fold mean's key;
* the cell (:func:`cell`), by which published values are joined and flat records sorted.

A record's *seed text* (:func:`seed_fields`, for its bootstrap interval) names the record as
measured: every scalar field but its value, prose and comparison — its key with its
description and provenance, so that the same evidence always gives the same interval.

**Definedness** (:func:`number`): a value is defined when it is a real, finite number (not a
bool); None, NaN, infinities, text and truth values are undefined.  Means, intervals, tests and
verdicts use this one rule.

:func:`matches` is the one filter by field values (an artifact's ``select``, an aggregation's
``select``).
"""
from __future__ import annotations

import json
import math
import numbers
import re

import numpy as np

#: where a value sits in a paper's tables: the key of a published value
CELL = ("artifact", "dataset", "method", "metric", "fold")
#: the cell within one artifact (artifact aside)
IN_ARTIFACT = CELL[1:]
#: the fields a value over folds keeps (dataset, method, metric: the cell without its fold)
OVER_FOLDS = CELL[1:4]
#: the value, or why there is none
VALUE = ("value", "why")
#: words about the value
PROSE = ("note", "explanation")
#: how the value was obtained (its weight, its number of queries, a time, the text shown; the
#: replicates behind a value of a replicated artifact, :mod:`repro.judge.replicates`; the
#: sampling variance of a mean over queries an aggregation pooled itself; the block of the
#: queries a part of a run split by queries computed it on, :mod:`repro.evidence.query_blocks`)
DESCRIPTION = ("shown", "weight", "queries", "seconds", "replicates", "replicate_values",
               "spread", "deterministic", "sampling_var", "sampling_df", "sampling_what",
               "query_block", "chosen", "per_scheme")
#: where the value comes from
PROVENANCE = ("paper", "data_used", "stand_in", "modern", "not_run", "data_mark",
              "user_method")
#: the comparison with the paper's value (:mod:`repro.judge.verdicts`)
COMPARISON = ("published", "diff", "verdict", "source", "kind", "kind_why", "tolerance_why")
#: intervals and tests (:mod:`repro.judge.intervals`, :mod:`repro.judge.claims`)
JUDGEMENT = ("ci95", "n_queries", "n_folds", "ci_basis", "outcome", "effect", "p_value",
             "p_unadjusted", "test", "comparisons", "compared", "versus", "numbers",
             "effect_ratio", "delta_ri", "published_numbers", "trend", "counts",
             "testable_cells",
             # the noise a verdict allows (repro.judge.noise)
             "noise", "noise_words", "ci_margin", "query_ci95", "query_ci_basis",
             # the rules over a column (repro.judge.columns)
             "verdict_alone", "same_as", "column", "column_offset", "offset", "orderings",
             # a claim's tests and their adjustment (repro.judge.claims)
             "p_claim", "p_permutation", "adjustment", "outcome_alone", "deviating",
             "requires", "bound", "compared_cells",
             # equivalence within a margin (repro.judge.equivalence)
             "d", "d_ci90", "d_ci95", "d_se", "d_df", "margin", "margin_basis", "margin_why",
             "equivalence_bound", "equivalence_bound_margins", "deviation_bound",
             "reachable_bound", "reachable_bound_margins",
             "equivalence", "uncertainty", "se_queries", "verdict_offset_removed",
             "offset_removed_bound", "reason", "interval_levels",
             # the replicate design's second stage (repro.judge.design, repro.pipeline.extend)
             "projected", "second_stage",
             # a claim judged as a replication (repro.judge.claims)
             "family", "effect_ci95", "published_effect", "effect_ratio_ci95", "p_adjusted",
             "p_direction", "same_test_as", "decided_by", "count", "paper_cells",
             "sign_test")
#: a per-query table's data (its key fields aside)
TABLE_DATA = ("qids", "values", "weights")
#: the further key fields of the papers' records and tables (besides :data:`CELL`): a field
#: in no category and not declared here is refused by :func:`check_fields` (a closed schema);
#: a paper declares a key field of its own with :func:`declare_key_fields`
KEY_FIELDS = {"LETOR_3.0", "LETOR_3.0_random_ties", "cg_iterations", "claim", "convention",
              "criterion", "eps", "evaluation", "figure", "fitted_C", "iterations", "key",
              "lam", "m", "mean_difference", "minuend_value", "n_topics", "newton_iterations",
              "objective", "ours_on", "pair_array_MB", "pairs", "paper_cleaned_test",
              "paper_count", "paper_random_ties", "part", "published_on", "range", "reg",
              "relative_gradient", "section", "selection", "series", "split", "statement",
              "status", "subtrahend_value", "tron_status", "repeat"}

#: every field that is not a key field
NOT_KEY = frozenset(VALUE + PROSE + DESCRIPTION + PROVENANCE + COMPARISON + JUDGEMENT
                    + TABLE_DATA)
#: the fields a seed text leaves out: the value, its prose and the comparison with the paper
_NOT_SEED = frozenset(VALUE + PROSE + COMPARISON)


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


# --- the key -----------------------------------------------------------------------------------

#: fields that a later stage writes (the judge's tests beside a user's method, say) and
#: declares where it writes them (:func:`declare_fields`): never key fields
DECLARED: set[str] = set()


def declare_fields(*names: str) -> None:
    """Declare fields that are no key (a stage's own description of a record it writes)."""
    DECLARED.update(names)


def is_key(name: str, value=None) -> bool:
    """Whether a field is a key field: a scalar in no other category."""
    return (name not in NOT_KEY and name not in DECLARED
            and not isinstance(value, (dict, list)))


def declare_key_fields(*names: str) -> None:
    """Declare further key fields (a paper's own: a grid parameter its records carry)."""
    KEY_FIELDS.update(names)


def check_fields(rec: dict, where: str = "record") -> None:
    """ValueError naming every field of ``rec`` that no category declares (the closed
    schema: a misspelt or undeclared field fails instead of silently becoming a key)."""
    bad = sorted(k for k in rec if k not in NOT_KEY and k not in KEY_FIELDS
                 and k not in CELL and k not in DECLARED)
    if bad:
        raise ValueError(f"{where}: undeclared field(s) {', '.join(map(repr, bad))} "
                         f"(declare a key field with repro.evidence.record."
                         f"declare_key_fields, any other with declare_fields, or add it to "
                         f"its category here)")


def key(rec: dict) -> dict:
    """The key fields of a record or a per-query table (see the module docstring)."""
    return {k: v for k, v in rec.items() if is_key(k, v)}


def table_key(table: dict) -> dict:
    """The identifying fields of a query table: its key (all but its data and its reason)."""
    return key(table)


def key_text(fields: dict) -> str:
    """A canonical, hashable text of identifying fields (values compared as strings)."""
    return json.dumps({k: (None if v is None else str(v)) for k, v in fields.items()},
                      sort_keys=True, separators=(",", ":"))


def cell(rec: dict) -> tuple:
    """The cell of a record: ``(artifact, dataset, method, metric, fold)``."""
    return tuple(rec.get(k) for k in CELL)


def group_key(rec: dict) -> tuple:
    """A record's key apart from its fold (the records of one setting over folds)."""
    return tuple(sorted((k, str(v)) for k, v in key(rec).items() if k != "fold"))


def seed_fields(rec: dict) -> list:
    """The record as measured, for its seed: ``[(field, text)]`` of every scalar field but its
    value, prose and comparison, sorted."""
    return sorted((k, str(v)) for k, v in rec.items()
                  if k not in _NOT_SEED and not isinstance(v, (dict, list)))


def common_fields(recs: list[dict], set_here: tuple = ()) -> dict:
    """Fields equal in every record of a group, but the value (and why it is missing) and the
    fields ``set_here`` (those the caller sets itself)."""
    first = recs[0]
    return {k: v for k, v in first.items() if k not in VALUE and k not in set_here
            and all(r.get(k) == v for r in recs[1:])}


def natural_key(value) -> tuple:
    """Sort key ordering "selected_2" before "selected_10" and "fold 9" before "avg"."""
    text = "" if value is None else str(value)
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t)
                 for t in re.split(r"(\d+)", text) if t != "")


# --- definedness -------------------------------------------------------------------------------

def number(v) -> float | None:
    """``v`` as a float when it is defined — a real, finite number that is not a bool — else
    None (None, NaN, ±inf, text, True/False)."""
    if v is None or isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def defined(v) -> bool:
    """Whether ``v`` is a defined value (:func:`number`)."""
    return number(v) is not None


def numbers_of(values) -> np.ndarray:
    """``values`` as a float array, undefined values NaN."""
    return np.asarray([np.nan if number(v) is None else float(v) for v in values],
                      dtype=np.float64)
