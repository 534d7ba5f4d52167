"""`python -m repro stability`: the comparison of two renderings (values that
moved, beside their spread; verdicts that flipped), the exit status, where it writes — and one
end-to-end rerun of a small paper under two OpenBLAS kernels.

This module is also the small paper of the end-to-end test (``stabpaper``: a constant with a
published value, and a digest of matrix products whose last bits change with the BLAS kernel),
registered in the reruns' processes by a driver script."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from repro.cli import main as cli, stability
from repro.evidence.record import record
from repro.spec import Artifact, Paper, RunLayout

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

# --- the small paper -----------------------------------------------------------------------------

PAPER = Paper(id="stabpaper", title="Stability test paper", authors="A. Tester", venue="tests",
              text="none.txt")
PUBLISHED_PATH = TESTS / "fixtures" / "stabpaper.toml"
NOTES = []


def task_digest(ctx):
    """A constant (published: 2.00) and digests of X @ w and Xᵀu (15,211 × 46: OpenBLAS's
    kernels sum in different orders, with or without FMA)."""
    import hashlib
    rng = ctx.rng()
    X = rng.normal(size=(15211, 46))
    z, g = X @ rng.normal(size=46), X.T @ rng.normal(size=15211)
    digest = hashlib.sha256(z.tobytes() + g.tobytes()).hexdigest()
    return {"records": [record("const", "x", 2.0),
                        record("blas", "digest", int(digest[:12], 16))]}


ARTIFACTS = [
    Artifact(
        "stabpaper", "table1", "A constant and a BLAS digest", task="task_digest",
        layout=RunLayout(datasets=("synthetic",))),
    Artifact(
        "stabpaper", "timing", "Timing (left out)", task="task_digest",
        layout=RunLayout(datasets=("synthetic",), timing=True)),
]

DRIVER = """
import sys
sys.path[:0] = [{root!r}, {tests!r}]
import test_stability
from repro import papers
papers.register(test_stability)
from repro.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


# --- the comparison --------------------------------------------------------------------------

def rec(method, value, verdict="ours only", **extra):
    return {"paper": "p", "artifact": "t", "dataset": "d", "method": method, "metric": "m",
            "fold": "avg", "value": value, "verdict": verdict, **extra}


def _judged(method, value, verdict, bound=None, ci90=None, **extra):
    """A value record as the equivalence rule writes it."""
    return rec(method, value, verdict, published="0.5", equivalence=verdict,
               **({} if bound is None else {"equivalence_bound": bound, "d_ci90": ci90}),
               **extra)


def test_compare_lists_moved_values_against_their_spread_and_flipped_verdicts():
    base = {"p/t": [_judged("a", 0.5, "inconclusive", spread=0.01, replicates=5),
                    _judged("b", 0.30, "deviates", spread=0.02, replicates=5),
                    _judged("c", 0.7, "reproduced", deterministic=True),
                    rec("d", 1.0 + 1e-13)]}
    other = {"p/t": [_judged("a", 0.52, "inconclusive", spread=0.01, replicates=5),
                     _judged("b", 0.31, "inconclusive", spread=0.02, replicates=5),
                     _judged("c", 0.7, "reproduced", deterministic=True),
                     rec("d", 1.0)]}
    got = stability.compare(base, other)
    assert got["compared"] == 4 and got["judged"] == 3
    moved = {m["where"].split(" / ")[1]: m for m in got["moved"]}
    assert set(moved) == {"a", "b"}              # d: the same at 10 significant digits
    assert moved["a"]["against"] == pytest.approx(2.0)          # 0.02 = 2 sd over replicates
    assert moved["a"]["basis"] == "sd over 5 replicates"
    assert moved["b"]["against"] == pytest.approx(0.5)          # 0.01 = half an sd
    # a value compared with a published one comes first, whatever its size
    pub = stability.compare({"p/t": [rec("a", 0.5), rec("b", 0.3, published="0.31")]},
                            {"p/t": [rec("a", 0.6), rec("b", 0.301, published="0.31")]})
    assert [m["where"] for m in pub["moved"]] == ["p/t: d / b / m", "p/t: d / a / m"]
    assert [(f["where"], f["old"], f["new"], f["kind"]) for f in got["flipped"]] == [
        ("p/t: d / b / m", "deviates", "inconclusive", "inconclusive")]
    assert got["opposed"] == [] and got["inconclusive_moves"] == 1
    assert got["inconclusive_share"] == pytest.approx(1 / 3)
    lines = stability.report_lines(got, [stability.Rerun("machine", None, Path("x")),
                                         stability.Rerun("Sandybridge", "Sandybridge",
                                                         Path("y"))], 10)
    assert lines[0].startswith("compared 4 records: 2 value(s) moved, 1 verdict(s) flipped")
    assert "0 between opposed outcomes, 1 into or out of inconclusive" in lines[0]
    assert any("2 × the sd over 5 replicates" in line for line in lines)
    assert any("deviates → inconclusive" in line for line in lines)
    # one of three judged records into inconclusive is more than 2 %: the rule refuses it
    assert any("into or out of inconclusive" in w for w in stability.failed_rule(got))


def test_a_move_is_measured_against_the_half_width_of_d_s_interval():
    """A value without replicates (judged on another sample) moves against the 95 % interval
    of d = ours − published that its verdict rests on."""
    got = stability.compare({"p/t": [_judged("b", 0.30, "deviates", d_ci95=[-0.22, -0.18])]},
                            {"p/t": [_judged("b", 0.31, "deviates", d_ci95=[-0.21, -0.17])]})
    (m,) = got["moved"]
    assert m["against"] == pytest.approx(0.5) and m["basis"] == "95% half-width"


def test_the_stability_rule_classes_each_flip():
    """Never between opposed outcomes; at most 2 % of judged records into or out of
    inconclusive; each equivalence bound within its own 90 % interval."""
    k = stability._kind_of_flip
    assert k("reproduced", "deviates") == k("deviates", "reproduced") == "opposed"
    assert k("claim: replicated", "claim: reversed") == "opposed"
    assert k("claim: replicated", "claim: not replicated") == "opposed"
    assert k("reproduced", "inconclusive") == k("claim: inconclusive", "claim: reversed") \
        == "inconclusive"
    assert k("stand-in", "not run") == "other"
    many = [_judged(f"m{i}", 0.5, "reproduced", bound=0.01, ci90=[-0.01, 0.005])
            for i in range(100)]
    moved = [dict(r) for r in many]
    moved[0].update(verdict="inconclusive", equivalence="inconclusive", value=0.51,
                    equivalence_bound=0.02)                       # +0.01 > half-width 0.0075
    moved[1].update(value=0.50001, equivalence_bound=0.011)       # +0.001: within
    got = stability.compare({"p/t": many}, {"p/t": moved})
    assert got["inconclusive_share"] == pytest.approx(0.01)
    assert [b["where"] for b in got["bounds_beyond"]] == ["p/t: d / m0 / m"]
    refused = stability.failed_rule(got)
    assert len(refused) == 1 and "equivalence bound" in refused[0]
    moved[0].update(equivalence_bound=0.012)
    got = stability.compare({"p/t": many}, {"p/t": moved})
    assert stability.failed_rule(got) == []                       # 1 % inconclusive: allowed
    moved[2].update(verdict="deviates", equivalence="deviates", value=0.6)
    assert "opposed" in stability.failed_rule(stability.compare({"p/t": many},
                                                                {"p/t": moved}))[0]


def test_a_record_on_one_side_only_is_a_change():
    got = stability.compare({"p/t": [rec("a", 0.5)]}, {"p/t": [rec("a", 0.5), rec("b", 0.1)]})
    assert [f["where"] for f in got["flipped"]] == ["p/t: d / b / m"]
    assert got["flipped"][0]["old"] is None
    assert got["moved"] == []


def _fake_reruns(monkeypatch, base, other, status=(0, 0)):
    """``stability.run_one`` writing ``base`` / ``other`` as the two renderings."""
    calls = []

    def run_one(targets, rerun, args, say=print):
        n = len(calls)
        calls.append((targets, rerun.name, rerun.coretype))
        d = rerun.out / "p"
        d.mkdir(parents=True)
        (d / "t.json").write_text(json.dumps(base if n == 0 else other))
        (d / "t.meta.json").write_text("{}")
        # an artifact sharing the runs, rendered too: not a target, not compared
        (d / "u.json").write_text(json.dumps([rec("z", float(n), f"verdict {n}")]))
        rerun.status = status[n]
        rerun.kernel = {"internal_api": "openblas", "architecture": f"K{n}"}
    monkeypatch.setattr(stability, "run_one", run_one)
    return calls


real_rendered = stability.rendered


def test_rendered_reads_the_targets_only(tmp_path):
    for art, recs in (("t", [rec("a", 1.0)]), ("u", [rec("b", 2.0)])):
        (tmp_path / "p").mkdir(exist_ok=True)
        (tmp_path / "p" / f"{art}.json").write_text(json.dumps(recs))
    (tmp_path / "p" / "t.meta.json").write_text("{}")
    (tmp_path / "p" / "timing").mkdir()
    (tmp_path / "p" / "timing" / "t.json").write_text(json.dumps([rec("c", 3.0)]))
    assert stability.rendered(tmp_path, ["p.t"]) == {"p/t": [rec("a", 1.0)]}


@pytest.fixture()
def stab_paper():
    from repro import papers
    papers.register(sys.modules[__name__])
    yield
    papers.unregister("stabpaper")


def test_exit_status_is_1_when_a_verdict_flipped(tmp_path, monkeypatch, stab_paper, capsys):
    calls = _fake_reruns(monkeypatch, [rec("a", 0.5, "deviates")],
                         [rec("a", 0.6, "reproduced")])
    monkeypatch.setattr(stability, "rendered",
                        lambda out, targets: real_rendered(out, ["p.t"]))
    code = cli.main(["stability", "stabpaper", "--work", str(tmp_path / "w")])
    out = capsys.readouterr().out
    assert code == 1
    # the timing artifact is left out; the machine's kernel, then the second one
    assert calls == [(["stabpaper.table1"], "machine", None),
                     (["stabpaper.table1"], "Sandybridge", "Sandybridge")]
    assert "1 verdict(s) flipped" in out and "deviates → reproduced" in out
    assert "1 between opposed outcomes" in out
    saved = json.loads((tmp_path / "w" / "stability.json").read_text())
    assert saved["flipped"][0]["new"] == "reproduced"
    assert saved["flipped"][0]["kind"] == "opposed"
    assert [r["kernel"]["architecture"] for r in saved["reruns"]] == ["K0", "K1"]


def test_exit_status_is_0_when_only_values_moved(tmp_path, monkeypatch, stab_paper, capsys):
    _fake_reruns(monkeypatch, [rec("a", 0.5, "deviates")], [rec("a", 0.51, "deviates")])
    monkeypatch.setattr(stability, "rendered",
                        lambda out, targets: real_rendered(out, ["p.t"]))
    code = cli.main(["stability", "stabpaper.table1", "--coretype", "Haswell",
                     "--against", "Nehalem", "--work", str(tmp_path / "w")])
    got = capsys.readouterr()
    assert code == 0
    assert "1 value(s) moved, 0 verdict(s) flipped (Nehalem → Haswell)" in got.out
    # the kernels the reruns report are checked against those asked for
    assert "asked for the Haswell kernel, OpenBLAS ran K1" in got.err


def test_a_failed_rerun_exits_1(tmp_path, monkeypatch, stab_paper, capsys):
    _fake_reruns(monkeypatch, [rec("a", 0.5)], [rec("a", 0.5)], status=(0, 1))
    monkeypatch.setattr(stability, "rendered",
                        lambda out, targets: real_rendered(out, ["p.t"]))
    assert cli.main(["stability", "stabpaper.table1", "--work", str(tmp_path / "w")]) == 1
    assert "the rerun under Sandybridge exited with status 1" in capsys.readouterr().err


def test_refuses_the_committed_reports_a_used_work_dir_and_timing_only(tmp_path, monkeypatch,
                                                                        stab_paper, capsys):
    calls = _fake_reruns(monkeypatch, [], [])
    assert cli.main(["stability", "stabpaper.table1", "--work", str(ROOT / "reports" / "x")]) == 1
    assert "inside the committed reports" in capsys.readouterr().err
    used = tmp_path / "used"
    used.mkdir()
    (used / "old.txt").write_text("x")
    assert cli.main(["stability", "stabpaper.table1", "--work", str(used)]) == 1
    assert "not empty" in capsys.readouterr().err
    assert cli.main(["stability", "stabpaper.timing", "--work", str(tmp_path / "w")]) == 1
    assert "timing artifact" in capsys.readouterr().err
    assert cli.main(["stability", "stabpaper.table1", "--coretype", "Haswell", "--against",
                     "Haswell", "--work", str(tmp_path / "w2")]) == 1
    assert "the same kernel" in capsys.readouterr().err
    assert calls == []
    assert not (ROOT / "reports" / "x").exists()


# --- end to end ------------------------------------------------------------------------------

def _openblas_x86() -> bool:
    info = stability.blas_kernel(dict(os.environ))
    return info.get("internal_api") == "openblas" and os.uname().machine in ("x86_64", "AMD64")


@pytest.mark.slow
def test_reruns_a_paper_under_two_kernels(tmp_path, monkeypatch, stab_paper, capsys):
    """Both reruns in processes of their own, with their own cache and reports, under the
    kernels asked for; the digest moves, the constant's verdict does not: exit status 0."""
    if not _openblas_x86():
        pytest.skip("needs OpenBLAS on x86-64 (OPENBLAS_CORETYPE)")
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER.format(root=str(ROOT), tests=str(TESTS)))
    monkeypatch.setattr(stability, "PROGRAM", (sys.executable, str(driver)))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(TESTS)]))
    before = _reports_status()
    work = tmp_path / "w"
    code = cli.main(["stability", "stabpaper", "--against", "Nehalem", "--coretype", "Haswell",
                     "--work", str(work)])
    out = capsys.readouterr().out
    saved = json.loads((work / "stability.json").read_text())
    arch = [r["kernel"].get("architecture") for r in saved["reruns"]]
    if arch != ["Nehalem", "Haswell"]:
        pytest.skip(f"OpenBLAS here does not run the kernels asked for (got {arch})")
    assert code == 0, out + "".join(Path(r["log"]).read_text() for r in saved["reruns"])
    assert [r["status"] for r in saved["reruns"]] == [0, 0]
    assert saved["targets"] == ["stabpaper.table1"]              # the timing artifact left out
    for name in ("Nehalem", "Haswell"):
        assert (work / name / "reports" / "stabpaper" / "table1.json").is_file()
        assert any((work / name / "cache").iterdir())          # a cache of its own
    assert [m["where"] for m in saved["moved"]] == ["stabpaper/table1: synthetic / blas / digest"]
    assert saved["flipped"] == []
    const = [r for r in json.loads((work / "Haswell" / "reports" / "stabpaper" /
                                    "table1.json").read_text()) if r["method"] == "const"]
    assert const[0]["verdict"] == "reproduced"
    assert "1 value(s) moved, 0 verdict(s) flipped (Nehalem → Haswell)" in out
    assert _reports_status() == before


def _reports_status() -> str:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return ""
    return subprocess.run(["git", "status", "--porcelain", "--", "reports"], cwd=ROOT,
                          capture_output=True, text=True).stdout


def test_the_digest_task_is_deterministic_under_one_kernel(tmp_path):
    """The end-to-end test's premise: the same kernel gives the same digest."""
    from repro.spec import RunContext, RunSpec
    spec = RunSpec("stabpaper", "task_digest", "synthetic", None, 0, "{}")
    a = task_digest(RunContext(spec, tmp_path))["records"][1]["value"]
    b = task_digest(RunContext(spec, tmp_path))["records"][1]["value"]
    assert a == b and isinstance(a, int) and np.isfinite(a)
