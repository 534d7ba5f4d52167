"""The committed reports carry their evidence: every artifact whose values are means over test
queries has its per-query sidecar, and fold values and fold means recomputed from the sidecars
are the values of the JSON — three fold means per paper, and every fold value with a table."""
import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from repro import papers
from repro.evidence import SIDECAR_SUFFIX, TableIndex, decode_sidecar, table_mean

REPORTS = Path(__file__).resolve().parent.parent / "reports"
#: leelin2014 reports query means on one fold only (Figure II): its fold values are checked
NO_FOLD_MEANS = {"leelin2014"}
WITH_QUERY_MEANS = {            # artifacts of each paper known to report query means
    "pahikkala2010": ["table7", "table8", "table9", "table10"],
    "leelin2014": ["figureII"],
    "stevens2010": ["figure4", "figure9", "figure16"],
    "dubey2009": ["figure3", "figure4", "figure5", "figure6"],
    "lesmola2007": ["table1", "figure2", "figure3", "figure5"],
}


def _load(paper, name):
    flat = json.loads((REPORTS / paper / f"{name}.json").read_text())
    path = REPORTS / paper / f"{name}{SIDECAR_SUFFIX}"
    return flat, decode_sidecar(path.read_bytes())


@pytest.mark.parametrize("paper", sorted(WITH_QUERY_MEANS))
def test_three_fold_means_per_paper_are_recomputed_from_the_sidecars(paper):
    checked = values = 0
    for name in WITH_QUERY_MEANS[paper]:
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
               if not (REPORTS / p / f"{n}{SIDECAR_SUFFIX}").is_file()]
    assert missing == []


# --- intervals and claims on the committed pages (issue 16's acceptance) ---------------------

def _pages():
    for paper_dir in sorted(p for p in REPORTS.iterdir() if p.is_dir()):
        for f in sorted([*paper_dir.glob("*.json"), *paper_dir.glob("timing/*.json")]):
            if f.name.endswith((".meta.json", ".runs.json")) or f.name == "changes.json":
                continue
            yield paper_dir.name, f, json.loads(f.read_text())


def test_every_reproduced_or_stand_in_value_has_its_interval_and_basis():
    from repro.report.verdicts import bucket
    missing, checked = [], 0
    for paper, f, flat in _pages():
        for r in flat:
            if bucket(r) not in ("agrees", "noise", "within", "deviates", "stand-in"):
                continue
            checked += 1
            basis = r.get("ci_basis") or ""
            # an interval over queries or folds says how many; an exact one, one with no
            # spread to allow (a deterministic value: "none: …") and a two-level prediction
            # interval (replicates × samples) say how they are made in their basis
            ok = "ci95" in r and basis and (
                r.get("n_queries") or r.get("n_folds")
                or basis.startswith(("exact", "none:", "two-level")))
            if r.get("ci95") is not None:
                lo, hi = r["ci95"]
                ok = ok and lo <= r["value"] + 1e-9 and r["value"] - 1e-9 <= hi
            if not ok:
                missing.append(f"{paper}/{f.name}: {r.get('dataset')} {r.get('method')} "
                               f"{r.get('metric')} {r.get('fold')}")
    assert checked > 100
    assert missing == []


def _paper_dirs() -> list[str]:
    return sorted(p.name for p in REPORTS.iterdir() if (p / "index.html").is_file())


def _total_cell(page: Path, bucket_name: str) -> int:
    """The count a rendered page's table of counts shows for ``bucket_name`` (its total row;
    a bucket without records has no column)."""
    row = re.search(r'<tr class="total">(.*?)</tr>', page.read_text(), re.S).group(1)
    cell = re.search(rf'data-bucket="{bucket_name}">(\d+)<', row)
    return int(cell.group(1)) if cell else 0


def test_no_claim_holds_without_its_paired_test():
    from repro.report.verdicts import OUTCOMES
    claims = [(paper, f, r) for paper, f, flat in _pages() for r in flat
              if r.get("claim") is True and r.get("outcome") in OUTCOMES]
    # as many as each paper page's table of counts shows (timing pages are not counted there)
    on_pages = Counter(paper for paper, f, _ in claims if f.parent.name == paper)
    shown = {p: _total_cell(REPORTS / p / "index.html", "claims") for p in _paper_dirs()}
    assert on_pages == Counter({p: n for p, n in shown.items() if n})
    assert sum(on_pages.values()) == _total_cell(REPORTS / "index.html", "claims") > 0
    claims = [r for _, _, r in claims]
    for r in claims:
        assert r["verdict"] == r["outcome"], r
        if r["outcome"] in ("holds", "contradicted"):
            assert r["p_value"] < 0.05 and r.get("ci95") is not None, r
            assert r.get("effect") is not None and r.get("test"), r


def test_figure5_ranks_from_published_values_count_as_derived_not_agreement():
    from repro.report.verdicts import bucket
    flat = json.loads((REPORTS / "stevens2010" / "figure5.json").read_text())
    judged = [r for r in flat if r.get("value") is not None and r.get("published")]
    assert judged and all(bucket(r) == "derived" for r in judged)
