"""A paper's one line and its reproduction matrix (repro.report.matrix): counts in words from
the judged records, verdict words linked to the glossary, data sets not available named, a
shared column offset said only when every column shows it; one bar per artifact whose
segments add up to its values."""
from __future__ import annotations

import re

from repro.report.matrix import matrix_row, paper_line, shared_offset
from repro.report.verdicts import Tally


def _rec(verdict: str, **kw) -> dict:
    return {"verdict": verdict, "published": "0.5", "margin": 0.01, "equivalence_bound": 0.001,
            "deviation_bound": 0.0, **kw}


def _text(markup) -> str:
    return re.sub(r"<[^>]+>", "", str(markup))


def test_the_line_counts_in_words_and_links_its_verdicts():
    t = Tally().add([_rec("reproduced")] * 3 + [_rec("deviates")] +
                    [_rec("not run", reason="data missing: MQ2007")])
    line = paper_line(t, [{"dataset": "MQ2007", "status": "not run",
                           "why": "data missing: MQ2007 (see `python -m repro data`)"}], "../")
    assert _text(line) == ("3 of 4 published values reproduced within the paper's resolution, "
                           "1 deviates; 1 not run; MQ2007 not available here")
    assert 'href="../glossary.html#reproduced"' in str(line)
    assert 'href="../glossary.html#not-run"' in str(line)


def test_a_shared_offset_is_said_only_when_every_column_shows_it():
    col = {"significant": True, "mean": -0.1052, "shared_by": {"all": True}}
    assert _text(shared_offset([col, {**col, "mean": -0.042}])) == (
        "ours 0.042–0.11 below the paper's in every column, the standard baselines included: "
        "a difference of evaluation or data")
    partly = {**col, "mean": -0.032, "shared_by": {"all": False}}
    assert _text(shared_offset([col, partly])) == "ours 0.032–0.11 below the paper's in every column"
    assert shared_offset([col, {**col, "significant": False}]) is None
    assert shared_offset([col, {**col, "mean": 0.05}]) is None
    assert shared_offset([]) is None


def test_a_matrix_row_adds_up_to_its_values():
    t = Tally().add([_rec("reproduced")] * 2 + [_rec("stand-in")] * 6 + [_rec("baseline")])
    row = matrix_row("table3", "Table 3", t, "p/index.html#table3")
    assert row["label"] == "Table 3" and row["total"] == 8      # the baseline is no value
    assert [(s["word"], s["n"]) for s in row["segments"]] == [("reproduced", 2), ("stand-in", 6)]
    assert sum(s["pct"] for s in row["segments"]) == 100
    assert matrix_row("t", "", Tally().add([_rec("baseline")]), "") is None


def test_values_no_result_could_have_reproduced_are_said():
    # a perfect reproduction's bound (reachable_bound) beyond the margin: out of reach
    far = _rec("inconclusive", reachable_bound_margins=2.34, equivalence_bound=0.03)
    near = _rec("reproduced", reachable_bound_margins=0.4)
    t = Tally().add([far, far, near])
    assert t.out_of_reach == 2
    assert _text(paper_line(t, [])) == (
        "1 of 3 published values reproduced within the paper's resolution, 2 inconclusive; "
        "2 could not have been shown reproduced: their uncertainty alone (another query "
        "sample, seed spread) exceeds the margin")
    every = Tally().add([far])
    assert _text(paper_line(every, [])).startswith(
        "0 of 1 published value reproduced within the paper's resolution, 1 inconclusive; "
        "none of them could have been shown reproduced")
    assert Tally().add([_rec("stand-in", reachable_bound_margins=5.0)]).out_of_reach == 0
