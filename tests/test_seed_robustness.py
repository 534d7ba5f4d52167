"""No verdict depends on the resampling seed: the committed cells (or those of
``REPRO_CHECK_REPORTS=DIR``) re-judged from their sidecars under ten bootstrap seeds keep their
verdicts and their equivalence bounds exactly (d's uncertainty and the margin are closed
forms; no exemption).  The query bootstrap shown beside each value does move with the seed:
the test is live."""
import json

import pytest

from repro import papers
from repro.evidence import SIDECAR_SUFFIX, decode_sidecar
from repro.evidence.record import COMPARISON, JUDGEMENT
from repro.judge import intervals
from repro.judge.published import load
from repro.judge.stats import seed_from
from repro.judge.verdicts import Verdict, compare
from report_pages import REPORTS

#: artifacts whose cells are means over test queries with published values
CELLS = [("dubey2009", "figure3"), ("lesmola2007", "table1"), ("pahikkala2010", "table7"),
         ("stevens2010", "figure4")]
SEEDS = 10


def _cells(paper, name):
    flat = json.loads((REPORTS / paper / f"{name}.json").read_text())
    tables = decode_sidecar((REPORTS / paper / f"{name}{SIDECAR_SUFFIX}").read_bytes())["tables"]
    keep = [r for r in flat if r.get("published") is not None and not r.get("claim")
            and not r.get("column") and isinstance(r.get("value"), (int, float))]
    strip = set(COMPARISON) | set(JUDGEMENT)
    return [{k: v for k, v in r.items() if k not in strip} for r in keep], tables


@pytest.mark.slow
@pytest.mark.parametrize("paper, name", CELLS)
def test_verdicts_do_not_depend_on_the_bootstrap_seed(paper, name, monkeypatch):
    if not (REPORTS / paper / f"{name}{SIDECAR_SUFFIX}").is_file():
        pytest.skip(f"no committed sidecar for {paper}.{name}")
    art = papers.resolve(f"{paper}.{name}")[0]
    cells, tables = _cells(paper, name)
    published = load(paper)
    verdicts, shown = {}, {}
    for salt in range(SEEDS):
        monkeypatch.setattr(intervals, "seed_for",
                            lambda a, r, s=salt: seed_from(f"{s}|{a}|{sorted(r.items())}"))
        recs = [dict(r) for r in cells]
        intervals.attach(art, recs, tables, exact_ok=lambda r: True)
        for r in compare(paper, name, recs, published, {}):
            k = (r["dataset"], r["method"], r["metric"], r["fold"])
            if r.get("value") is None:
                continue
            verdicts.setdefault(k, set()).add((Verdict(r["verdict"]),
                                               r.get("equivalence_bound"), r.get("margin")))
            if r.get("query_ci95"):
                shown.setdefault(k, set()).add(tuple(r["query_ci95"]))
    assert verdicts, f"{paper}.{name}: no cell re-judged"
    flips = {k: v for k, v in verdicts.items() if len(v) > 1}
    assert flips == {}, flips
    assert any(b is not None for v in verdicts.values() for _, b, _ in v)   # the rule ran
    assert any(len(v) > 1 for v in shown.values())        # the bootstrap itself moved
