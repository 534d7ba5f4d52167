"""The record module: field categories, the one key rule, seeds, definedness — and a scan of
the package that fails when a second list of key fields appears outside it."""
import ast
import math
from pathlib import Path

import numpy as np
import pytest

import repro
from repro.evidence import Evidence, TableIndex
from repro.evidence import record as R
from repro.judge import intervals
from repro.judge.stats import seed_from


def test_categories_are_disjoint_and_the_cell_is_key():
    cats = [R.VALUE, R.PROSE, R.DESCRIPTION, R.PROVENANCE, R.COMPARISON, R.JUDGEMENT,
            R.TABLE_DATA, R.CELL]
    seen = [f for c in cats for f in c]
    assert len(seen) == len(set(seen))
    assert not set(R.CELL) & R.NOT_KEY
    assert R.IN_ARTIFACT == ("dataset", "method", "metric", "fold")
    assert R.OVER_FOLDS == ("dataset", "method", "metric")


def test_the_key_is_every_scalar_field_in_no_other_category():
    rec = {"artifact": "t1", "dataset": "D", "method": "m", "metric": "MAP", "fold": "1",
           "value": 0.5, "why": "", "note": "n", "weight": 3, "queries": 10, "paper": "p",
           "stand_in": True, "data_used": "X", "published": "0.5", "verdict": "reproduced",
           "ci95": [0.4, 0.6], "n_queries": 10, "size": 50, "criterion": "MAP",
           "numbers": {"a": 1}, "values": [1, 2]}
    assert R.key(rec) == {"artifact": "t1", "dataset": "D", "method": "m", "metric": "MAP",
                          "fold": "1", "size": 50, "criterion": "MAP"}
    assert R.cell(rec) == ("t1", "D", "m", "MAP", "1")
    # the fold mean of a setting and its folds share the key apart from the fold
    assert R.group_key(rec) == R.group_key({**rec, "fold": "avg", "weight": 7, "note": "x"})
    assert R.group_key(rec) != R.group_key({**rec, "size": 100})
    # a table is keyed by the same rule as its record
    table = {"method": "m", "metric": "MAP", "fold": "1", "dataset": "D", "size": 50,
             "criterion": "MAP", "qids": [1, 2], "values": [0.1, None], "why": "w",
             "weights": [1, 1]}
    assert R.table_key(table) == {k: v for k, v in R.key(rec).items() if k != "artifact"}
    assert TableIndex([table]).find(rec) is table
    assert TableIndex([table]).find({**rec, "size": 100}) is None


def test_a_task_s_further_fields_key_its_table_as_its_record():
    ev = Evidence()
    rec = ev.per_query("m", "MAP", [1, 2, 3], [0.1, 0.2, 0.6], fold=1, size=50, weight=3,
                       note="about it")
    (table,) = [t.as_dict() for t in ev.tables]
    assert R.table_key(table) == {"method": "m", "metric": "MAP", "fold": "1", "size": 50}
    assert rec["weight"] == 3 and rec["note"] == "about it"
    assert TableIndex([table]).find(rec) is table


def test_seed_text_names_the_record_as_measured():
    """The seed of a record's interval: every scalar field but its value, prose and its
    comparison with the paper — frozen: a change here moves every interval."""
    rec = {"artifact": "t1", "dataset": "D", "method": "m", "metric": "MAP", "fold": "1",
           "value": 0.5, "why": "w", "note": "n", "explanation": "e", "published": "0.4",
           "diff": 0.1, "verdict": "v", "source": "s", "queries": 10, "stand_in": True,
           "n_queries": 7, "series": {"x": 1}}
    assert R.seed_fields(rec) == [
        ("artifact", "t1"), ("dataset", "D"), ("fold", "1"), ("method", "m"),
        ("metric", "MAP"), ("n_queries", "7"), ("queries", "10"), ("stand_in", "True")]
    assert intervals.seed_for("p/t1", rec) == seed_from(
        "p/t1|[('artifact', 't1'), ('dataset', 'D'), ('fold', '1'), ('method', 'm'), "
        "('metric', 'MAP'), ('n_queries', '7'), ('queries', '10'), ('stand_in', 'True')]")
    assert intervals.seed_for("p/t1", rec) == 386696088      # as before the record module


@pytest.mark.parametrize("v, want", [
    (0.5, 0.5), (3, 3.0), (np.float32(0.25), 0.25), (np.int64(4), 4.0), (None, None),
    (float("nan"), None), (float("inf"), None), (-float("inf"), None), (True, None),
    (np.bool_(False), None), ("0.5", None)])
def test_one_definedness_rule(v, want):
    assert R.number(v) == want
    assert R.defined(v) is (want is not None)


def test_numbers_of_marks_undefined_values_nan():
    got = R.numbers_of([1, None, float("inf"), 0.5])
    assert got[0] == 1.0 and math.isnan(got[1]) and math.isnan(got[2]) and got[3] == 0.5


def test_common_fields():
    recs = [{"value": 1, "why": "a", "fold": "1", "C": 1, "note": "x"},
            {"value": 2, "why": "b", "fold": "2", "C": 1, "note": "y"}]
    assert R.common_fields(recs, set_here=("fold",)) == {"C": 1}


# --- no second list of key fields ----------------------------------------------------------

#: field names that, listed together, decide what identifies a record
_NOT_KEY_MARKERS = set(R.VALUE) | set(R.TABLE_DATA)


def key_lists(source: str) -> list[tuple[int, list[str]]]:
    """Literal collections of field names in ``source`` that look like a list of key fields:
    three or more cell fields (a key), or two or more fields of the non-key categories one of
    which is the value, its reason or a table's data (a list of fields to skip)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            continue
        names = [e.value for e in node.elts
                 if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if len(names) != len(node.elts) or len(names) < 2:
            continue
        cells = set(names) & set(R.CELL)
        skipped = set(names) & R.NOT_KEY
        if len(cells) >= 3 or (len(skipped) >= 2 and skipped & _NOT_KEY_MARKERS):
            found.append((node.lineno, names))
    return found


def test_the_scan_finds_a_second_list_of_key_fields():
    src = ('_SEED_SKIP = {"value", "published", "diff", "verdict", "why", "note"}\n'
           'KEY_FIELDS = ("artifact", "dataset", "method", "metric", "fold")\n'
           'fixed = ["dataset", "method", "fold"]\n'
           'ok = ("published", "diff", "verdict")\n'          # display columns: no key
           'also_ok = ("dataset", "metric")\n')
    assert [line for line, _ in key_lists(src)] == [1, 2, 3]


@pytest.mark.slow
def test_no_module_but_record_lists_key_fields():
    root = Path(repro.__file__).parent
    offenders = []
    for path in sorted(root.rglob("*.py")):
        if path == root / "evidence" / "record.py":
            continue
        for line, names in key_lists(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(root.parent)}:{line}: {names}")
    assert offenders == [], ("key fields are decided in repro/evidence/record.py only; use "
                             "its categories (CELL, key(), group_key(), ...):\n"
                             + "\n".join(offenders))
