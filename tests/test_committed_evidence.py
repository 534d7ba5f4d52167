"""The committed reports (or ``REPRO_CHECK_REPORTS=DIR``) carry their evidence: every artifact
whose values are means over test queries has its per-query sidecar, and fold values and fold
means recomputed from the sidecars are the values of the JSON — three fold means per paper, and
every fold value with a table; every judged value carries the equivalence rule's fields, and
its verdict is what they say; every decided claim carries its test."""
import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from repro import papers
from repro.evidence import SIDECAR_SUFFIX, TableIndex, decode_sidecar, table_mean

from report_pages import REPORTS
#: leelin2014 reports query means on one fold only (Figure II): its fold values are checked
NO_FOLD_MEANS = {"leelin2014"}
WITH_QUERY_MEANS = {            # artifacts of each paper known to report query means
    "pahikkala2010": ["table7", "table8", "table9", "table10"],
    "leelin2014": ["figureII"],
    "stevens2010": ["figure4", "figure9", "figure16"],
    "dubey2009": ["figure3", "figure4", "figure5", "figure6"],
    "lesmola2007": ["table1", "figure2", "figure3", "figure5"],
}


def _has_values(paper, name) -> bool:
    """Whether an artifact was rendered into REPORTS with values (not a page made without
    its runs, e.g. ``--report-only`` from an empty cache)."""
    f = REPORTS / paper / f"{name}.json"
    return f.is_file() and any(isinstance(r.get("value"), (int, float))
                               for r in json.loads(f.read_text()))


def _load(paper, name):
    if not _has_values(paper, name):
        pytest.skip(f"{paper}.{name} not rendered with values into {REPORTS}")
    flat = json.loads((REPORTS / paper / f"{name}.json").read_text())
    path = REPORTS / paper / f"{name}{SIDECAR_SUFFIX}"
    return flat, decode_sidecar(path.read_bytes())


@pytest.mark.slow
@pytest.mark.parametrize("paper", sorted(WITH_QUERY_MEANS))
def test_three_fold_means_per_paper_are_recomputed_from_the_sidecars(paper):
    checked = values = 0
    names = [n for n in WITH_QUERY_MEANS[paper] if _has_values(paper, n)]
    if not names:
        pytest.skip(f"{paper} not rendered with values into {REPORTS}")
    for name in names:
        flat, side = _load(paper, name)
        assert side["artifact"] == f"{paper}.{name}"
        index = TableIndex(side["tables"])
        for r in flat:
            if r.get("value") is None:
                continue
            t = index.find(r)
            if t is not None:                            # a fold value: its queries' mean
                assert table_mean(t) == pytest.approx(r["value"], rel=1e-9, abs=1e-12), r
                values += 1
                continue
            art = papers.resolve(f"{paper}.{name}")[0]
            used = r.get("data_used") or r["dataset"]
            folds = [str(f) for f in art.folds_for(used) if f is not None]
            tables = [index.find({**r, "fold": f}) for f in folds]
            if len(folds) < 2 or any(t is None for t in tables):
                continue
            assert np.mean([table_mean(t) for t in tables]) == \
                pytest.approx(r["value"], rel=1e-9, abs=1e-12), r
            checked += 1
    if paper in NO_FOLD_MEANS:
        assert values >= 3, f"{paper}: only {values} values recomputed from sidecars"
    else:
        assert checked >= 3, f"{paper}: only {checked} fold means recomputed from sidecars"


def test_every_artifact_with_query_tables_in_the_cache_has_its_sidecar():
    missing = [f"{p}/{n}" for p, names in WITH_QUERY_MEANS.items() for n in names
               if _has_values(p, n) and not (REPORTS / p / f"{n}{SIDECAR_SUFFIX}").is_file()]
    assert missing == []


# --- intervals and claims on the committed pages -----------------------------------------

def _pages():
    for paper_dir in sorted(p for p in REPORTS.iterdir() if p.is_dir()):
        for f in sorted([*paper_dir.glob("*.json"), *paper_dir.glob("timing/*.json")]):
            if f.name.endswith((".meta.json", ".runs.json")) or f.name == "changes.json":
                continue
            yield paper_dir.name, f, json.loads(f.read_text())


def test_every_judged_value_carries_the_rule_s_fields_and_its_verdict_is_theirs():
    """Each value rerun on the paper's data or on a stand-in: d = ours − published, its 90 %
    and 95 % intervals around d, the margin with its basis, the bounds — and a verdict that is
    the rule applied to them (reproduced when the bound ≤ δ, deviates when the deviation bound
    > δ); the uncertainty's parts and words say what the interval accounts for."""
    from repro.judge.equivalence import outcome_at
    from repro.judge.published import parse_number
    from repro.report.verdicts import RERUN, bucket
    bad, checked = [], 0
    for paper, f, flat in _pages():
        for r in flat:
            b = bucket(r)
            if b not in RERUN + ("stand-in",):
                continue
            checked += 1
            where = f"{paper}/{f.name}: {r.get('dataset')} {r.get('method')} {r.get('metric')} " \
                    f"{r.get('fold')}"
            lo90, hi90 = r["d_ci90"]
            lo95, hi95 = r["d_ci95"]
            ok = (r["d"] == pytest.approx(r["value"] - parse_number(r["published"]),
                                          abs=1e-9)
                  and lo95 <= lo90 <= r["d"] + 1e-12 and r["d"] - 1e-12 <= hi90 <= hi95
                  and r["margin"] >= 0
                  and r["margin_basis"] in ("resolution", "rounding", "declared")
                  and r["equivalence_bound"] == pytest.approx(max(abs(lo90), abs(hi90)))
                  and r["deviation_bound"] == pytest.approx(max(lo95, -hi95, 0.0))
                  and isinstance(r["uncertainty"], list) and r.get("noise_words"))
            rule = outcome_at(r["equivalence_bound"], r["deviation_bound"], r["margin"])
            ok = ok and r["equivalence"] == rule and (b == "stand-in" or r["verdict"] == rule)
            if not ok:
                bad.append(where)
    assert checked > 50
    assert bad == []


def _paper_dirs() -> list[str]:
    return sorted(p.name for p in REPORTS.iterdir() if (p / "index.html").is_file())


def _total_cell(page: Path, bucket_name: str) -> int:
    """The count a rendered page's table of counts shows for ``bucket_name`` (its total row;
    a bucket without records has no column)."""
    row = re.search(r'<tr class="total">(.*?)</tr>', page.read_text(), re.S).group(1)
    cell = re.search(rf'data-bucket="{bucket_name}">(\d+)<', row)
    return int(cell.group(1)) if cell else 0


def test_no_claim_is_decided_without_its_test():
    """Every claim record on the pages is counted there; a replicated or reversed claim has an
    adjusted p below 5 %, its effect's interval and its test, on the claimed side; none is
    decided by a t-test over five folds; no test is in its family twice."""
    from repro.report.verdicts import OUTCOMES
    claims = [(paper, f, r) for paper, f, flat in _pages() for r in flat
              if r.get("claim") is True and r.get("outcome") in OUTCOMES]
    if not any(r.get("claim") is True for _, _, flat in _pages() for r in flat):
        pytest.skip(f"no claim rendered into {REPORTS}")
    # as many as each paper page's table of counts shows (timing pages are not counted there)
    on_pages = Counter(paper for paper, f, _ in claims if f.parent.name == paper)
    shown = {p: _total_cell(REPORTS / p / "index.html", "claims") for p in _paper_dirs()}
    assert on_pages == Counter({p: n for p, n in shown.items() if n})
    assert sum(on_pages.values()) == _total_cell(REPORTS / "index.html", "claims") > 0
    seen = {}
    for paper, f, r in claims:
        assert r["verdict"] == "claim", r
        assert r.get("family") in ("key", "secondary", "cell"), r
        if r["outcome"] in ("replicated", "reversed"):
            assert r["p_adjusted"] < 0.05 and r.get("effect_ci95") is not None, r
            assert r.get("effect") is not None and r.get("test"), r
            assert (r["outcome"] == "replicated") == (r.get("p_direction", 1) > 0), r
        if r.get("n_folds") and not r.get("n_queries") and r.get("decided_by"):
            assert "t-test" not in r["decided_by"] or r["n_folds"] > 5, r
        if r.get("compared") and r["family"] != "cell" and not r.get("same_test_as") \
                and r.get("p_value") is not None:
            sig = (paper, f.name, r["family"], r.get("dataset"), r.get("metric"),
                   r["compared"], r.get("effect"), r.get("p_value"))
            assert sig not in seen, (r["statement"], seen.get(sig))
            seen[sig] = r["statement"]


def test_figure5_ranks_from_published_values_count_as_derived_not_agreement():
    from repro.report.verdicts import bucket
    if not (REPORTS / "stevens2010" / "figure5.json").is_file():
        pytest.skip(f"stevens2010.figure5 not rendered into {REPORTS}")
    flat = json.loads((REPORTS / "stevens2010" / "figure5.json").read_text())
    judged = [r for r in flat if r.get("value") is not None and r.get("published")]
    assert judged and all(bucket(r) == "derived" for r in judged)
