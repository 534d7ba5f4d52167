"""Nothing overwritten by surprise, nothing failed that exits 0, nothing edited that is
served — guards that hold from any working directory.  One numbered section per guard;
commands run from a directory of the test's own (never the checkout's root), and the
checkout's reports/ are compared before and after every refused or failed command."""
from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from repro import papers
from repro.cli import guards
from repro.cli.main import main
from repro.data import catalog as cat
from repro.data.letor import parse_letor
from repro.errors import DataError
from repro.evidence import Evidence
from repro.evidence.record import record
from repro.spec import Artifact, Paper, RunLayout
from test_user_data import letor_lines, write_folds

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def reports_status() -> str:
    """``git status`` of the checkout's committed reports ("" outside a git checkout)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return ""
    return subprocess.run(["git", "status", "--porcelain", "--", "reports"], cwd=ROOT,
                          capture_output=True, text=True).stdout


def repro(*args: str, cwd: Path, **env) -> subprocess.CompletedProcess:
    """``python -m repro ARGS`` in a process of its own, from ``cwd``, with this checkout's
    package and the tests' modules (rankers below) importable."""
    e = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]), **env)
    return subprocess.run([sys.executable, "-m", "repro", *args], cwd=cwd, env=e,
                          capture_output=True, text=True, timeout=900)


@pytest.fixture()
def elsewhere(tmp_path, monkeypatch):
    """A working directory of the test's own, and no user registrations left behind."""
    d = tmp_path / "elsewhere"
    d.mkdir()
    monkeypatch.chdir(d)
    monkeypatch.setattr(cat, "REGISTERED", {})     # no user sets registered
    monkeypatch.setattr(cat, "ALLOWED", set())    # nor allowances
    return d


@pytest.fixture(scope="module")
def user_set(tmp_path_factory) -> Path:
    return write_folds(tmp_path_factory.mktemp("userset") / "mine", letor_lines())


def on_user(folder: Path, out: Path, *more: str) -> list[str]:
    return ["pahikkala2010.table7", "--quick", "--no-pdf", "--dataset", f"u={folder}", "--on",
            "u", "--out", str(out), *more]


# --- rankers a user might write (``--ranker LABEL=test_guards:Class``) --------------------------

class Plain:
    """Scores by the feature sum."""
    param_grid: dict = {}

    def __init__(self, **params):
        self.params = params

    def fit(self, X, y, qid):
        return self

    def predict(self, X):
        return X.sum(axis=1)


class Alpha(Plain):
    """Ridge regression on the labels; α chosen on validation."""
    param_grid = {"alpha": [0.01, 100.0]}

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y, qid):
        self.w = np.linalg.solve(X.T @ X + self.alpha * np.eye(X.shape[1]), X.T @ y)
        return self

    def predict(self, X):
        return X @ self.w


class Exits(Plain):
    def fit(self, X, y, qid):
        sys.exit(0)


class Dies(Plain):
    def fit(self, X, y, qid):
        os._exit(3)


class Wanders(Plain):
    def fit(self, X, y, qid):
        os.chdir("/")
        return self


# --- 1. the committed-reports guard, from any directory ------------------------------------------

@pytest.mark.parametrize("option", [["--allow-unverified", "MQ2008"],
                                    ["--ranker", "x=test_guards:Plain"], ["--on", "u"]])
@pytest.mark.parametrize("where", ["reports", "reports/pahikkala2010", "link"])
def test_committed_reports_are_refused_from_another_directory(elsewhere, user_set, capsys,
                                                              option, where):
    before = reports_status()
    if where == "link":                     # a link to them is them
        out = elsewhere / "link"
        out.symlink_to(guards.PACKAGE_REPORTS)
    else:
        out = ROOT / where
    args = ["pahikkala2010.table7", "--quick", "--no-pdf", "--dataset", f"u={user_set}",
            *option, "--out", str(out)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "inside the committed reports" in err and "nothing was run" in err
    assert reports_status() == before


def test_runs_refuses_the_committed_reports_from_another_directory(elsewhere, capsys):
    before = reports_status()
    assert main(["runs", "pahikkala2010.table7", "--out", str(ROOT / "reports" / "x")]) == 1
    assert "inside the committed reports" in capsys.readouterr().err
    assert reports_status() == before and not (ROOT / "reports" / "x").exists()


# --- 2. a run writes only the artifacts it was asked for -----------------------------------------

def snapshot(out: Path) -> dict:
    return {p.relative_to(out): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.slow
@pytest.mark.parametrize("target", ["fakepaper.table1", "fakepaper.table4"])
def test_quick_into_full_reports_writes_nothing(fake_paper, elsewhere, tmp_path, capsys,
                                                target):
    """table1's quick subset drops folds (values lost); table4's keeps every value but is
    still a --quick run: neither replaces the full run, and no other file moves — the other
    artifacts, the page, the index, the PDF."""
    out = tmp_path / "out"
    assert main(["fakepaper", "--data-dir", str(tmp_path), "--out", str(out), "--no-pdf"]) == 0
    (out / "fakepaper" / "fakepaper.pdf").write_bytes(b"%PDF the committed one")
    before = snapshot(out)
    capsys.readouterr()
    assert main([target, "--quick", "--no-pdf", "--data-dir", str(tmp_path), "--out",
                 str(out)]) == 1
    err = capsys.readouterr().err
    assert "kept the files of 1 artifact(s)" in err and target in err
    assert snapshot(out) == before


@pytest.mark.slow
def test_other_artifacts_files_are_never_rewritten(fake_paper, elsewhere, tmp_path):
    out = tmp_path / "out"
    assert main(["fakepaper", "--data-dir", str(tmp_path), "--out", str(out), "--no-pdf"]) == 0
    other = out / "fakepaper" / "table1.json"
    edited = other.read_text().replace('"value": 2.0', '"value": 2.5')
    other.write_text(edited)                  # not this command's: it stays as it is
    assert main(["fakepaper.table4", "--data-dir", str(tmp_path), "--out", str(out),
                 "--no-pdf"]) == 0
    assert other.read_text() == edited


# --- 3. failed work exits non-zero -------------------------------------------------------------

def _spoil(line: str, how: str) -> str:
    label, qid, *feats = line.split(" ")
    return {"label": f"1.5 {qid} {' '.join(feats)}",
            "negative": f"-1 {qid} {' '.join(feats)}",
            "nan": line.replace(" 2:", " 2:nan 99:", 1),
            "repeated": line.replace(" 3:", " 2:", 1),
            "zero": line.replace(" 1:", " 0:", 1)}[how]


@pytest.mark.parametrize("how", [pytest.param("label", marks=pytest.mark.slow), "negative", "nan",
                                 "repeated", "zero", "split qid"])
def test_bad_user_data_fails_its_runs_and_the_command(elsewhere, tmp_path, capsys, how):
    folder = write_folds(tmp_path / "bad", letor_lines())
    train = folder / "Fold1" / "train.txt"
    lines = train.read_text().splitlines(keepends=True)
    if how == "split qid":                    # a query's lines in two places
        q = lines[0].split()[1]
        end = next(i for i, l in enumerate(lines) if l.split()[1] != q)
        lines = lines[1:end + 2] + lines[:1] + lines[end + 2:]
    else:
        lines[3] = _spoil(lines[3], how)
    train.write_text("".join(lines))
    out = tmp_path / "out"
    assert main(on_user(folder, out)) == 1
    err = capsys.readouterr().err
    assert "run(s) failed" in err and "train.txt" in err
    recs = json.loads((out / "pahikkala2010" / "table7.json").read_text())
    assert any(r["verdict"] == "not run" and r.get("reason", "").startswith("failed: DataError")
               for r in recs)


@pytest.mark.slow
@pytest.mark.parametrize("ranker, jobs", [("Exits", "1"), ("Dies", "1"), ("Dies", "2")])
def test_a_ranker_that_exits_fails_alone_and_the_command_says_so(user_set, tmp_path, ranker,
                                                                jobs):
    p = repro(*on_user(user_set, tmp_path / "out", "--ranker", f"x=test_guards:{ranker}",
                       "--jobs", jobs), cwd=tmp_path)
    assert p.returncode == 1, p.stderr[-2000:]
    assert "1 run(s) failed" in p.stderr
    assert ("sys.exit(0)" if ranker == "Exits" else "ended abruptly (exit status 3)") in p.stderr
    assert "Traceback" not in p.stderr and "BrokenProcessPool" not in p.stderr
    flat = json.loads((tmp_path / "out" / "pahikkala2010" / "table7.json").read_text())
    assert any(r["method"] == "GRankRLS" and r["value"] is not None for r in flat)


@pytest.mark.slow
def test_a_ranker_changing_directory_does_not_move_a_relative_out(user_set, tmp_path):
    p = repro(*on_user(user_set, Path("rel"), "--ranker", "x=test_guards:Wanders"),
              cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    assert (tmp_path / "rel" / "pahikkala2010" / "table7.json").is_file()


PAPER = Paper(id="guardpaper", title="Guards test paper", authors="A. Tester", venue="tests",
              text="none.txt")


def task_die_on_fold_2(ctx):
    if ctx.fold == 2:
        os._exit(3)
    time.sleep(0.2)
    ev = Evidence()
    ev.value("m", "x", float(ctx.fold), ctx.fold)
    return ev.output()


ARTIFACTS = [Artifact(
    "guardpaper", "table1", "A run that dies", task="task_die_on_fold_2",
    layout=RunLayout(datasets=("synthetic",), folds=(1, 2, 3, 4)))]


@pytest.mark.slow
def test_a_broken_pool_fails_only_the_run_that_broke_it(tmp_path, monkeypatch):
    from repro.run.runner import Runner
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    papers.register(sys.modules[__name__])
    try:
        specs = papers.resolve("guardpaper.table1")[0].runs()
        res = Runner(tmp_path, papers.task, jobs=2, progress=False,
                     log=lambda *a, **k: None).run(specs)
    finally:
        papers.unregister("guardpaper")
    status = {s.fold: (r.status, r.why) for s, r in res.items()}
    assert status[2][0] == "failed" and "exit status 3" in status[2][1]
    assert all(status[f][0] == "done" for f in (1, 3, 4))


def test_a_full_cache_disk_stops_the_command_with_one_line(fake_paper, elsewhere, tmp_path,
                                                          monkeypatch, capsys):
    from repro.run import cache

    def full(path, obj):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(cache, "atomic_write_json", full)
    assert main(["fakepaper.table1", "--data-dir", str(tmp_path), "--out",
                 str(tmp_path / "out"), "--no-pdf"]) == 1
    err = capsys.readouterr().err
    assert "could not write the run cache" in err and "the disk is full" in err
    assert "Traceback" not in err and not (tmp_path / "out" / "index.html").exists()


def test_more_folds_than_queries_fail_with_their_counts(elsewhere, tmp_path, capsys):
    (tmp_path / "small.txt").write_text("".join(letor_lines(n_queries=4, n_features=5)))
    (tmp_path / "repro.toml").write_text('[datasets.u]\npath = "small.txt"\nfolds = 10\n')
    out = tmp_path / "out"
    assert main(["pahikkala2010.table7", "--quick", "--no-pdf", "--catalog",
                 str(tmp_path / "repro.toml"), "--on", "u", "--out", str(out)]) == 1
    assert "has 4 queries, fewer than its 10 folds" in capsys.readouterr().err


# --- 4. nothing edited is served --------------------------------------------------------------

def test_a_cache_entry_without_a_digest_is_recomputed(fake_paper, tmp_path):
    from repro.run.runner import Runner
    said = []
    runner = Runner(tmp_path, papers.task, progress=False, log=said.append)
    spec = papers.resolve("fakepaper.table1")[0].runs()[0]
    first = runner.run([spec])[spec]
    path = runner.cache.entry_path(spec, runner.cache.key(spec))
    entry = json.loads(path.read_text())
    del entry["digest"]
    entry["output"]["records"][0]["value"] = 0.9999
    path.write_text(json.dumps(entry))
    again = runner.run([spec])[spec]
    assert not again.cached and again.output == first.output
    assert len(fake_paper.CALLS) == 2 and any("has no digest" in s for s in said)


@pytest.mark.slow
def test_force_checks_verified_data_against_the_catalog(data_root, elsewhere, tmp_path,
                                                        capsys):
    """A partition edited in place (same size and time, so remembered digests still match)
    is refused when --force recomputes: loading hashes what it parses."""
    import lzma
    data = tmp_path / "data"
    shutil.copytree(data_root / "MQ2008", data / "MQ2008")
    xz = data / "MQ2008" / "S1.txt.xz"
    plain = data / "MQ2008" / "S1.txt"
    plain.write_bytes(lzma.decompress(xz.read_bytes()))
    xz.unlink()
    args = ["pahikkala2010.table7", "--quick", "--no-pdf", "--data-dir", str(data), "--out",
            str(tmp_path / "out")]
    assert main(args) == 0
    st = plain.stat()
    raw = bytearray(plain.read_bytes())
    raw[0:1] = b"2" if raw[0:1] != b"2" else b"1"          # the first document's label
    plain.write_bytes(bytes(raw))
    os.utime(plain, ns=(st.st_atime_ns, st.st_mtime_ns))
    capsys.readouterr()
    assert main([*args, "--force"]) == 1
    err = capsys.readouterr().err
    assert "checksum mismatch" in err and "S1.txt" in err


# --- 5. escaped lines and one-line errors ------------------------------------------------------

def test_data_lines_are_printed_escaped_and_shortened():
    line = b"\x1b[31mred\x1b[0m qid:1 " + b" ".join(b"%d:0.5" % j for j in range(1, 80))
    with pytest.raises(DataError) as err:
        parse_letor(b"1 qid:1 1:0.5\n" + line + b"\n", "f.txt")
    text = str(err.value)
    assert "\x1b" not in text and "\\x1b[31mred" in text
    assert len(text.split("): ", 1)[1]) <= 160 and text.endswith("…")


@pytest.mark.parametrize("entry, says", [
    ('path = 5', "path must be a path in quotes"),
    ('path = "all.txt"\nfolds = "five"', "folds must be a whole number"),
    ('path = "all.txt"\nfolds = true', "folds must be a whole number")])
def test_catalog_values_of_the_wrong_type_are_one_line_errors(elsewhere, capsys, entry, says):
    (elsewhere / "all.txt").write_text("".join(letor_lines(n_queries=10, n_features=3)))
    (elsewhere / "repro.toml").write_text(f"[datasets.u]\n{entry}\n")
    assert main(["pahikkala2010.table7", "--on", "u", "--out", "o"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]


@pytest.mark.parametrize("make, says", [
    (lambda d: (d / "afile").write_text("x") and d / "afile", "not a directory"),
    (lambda d: (d / "afile").write_text("x") and d / "afile" / "cache", "not a directory")])
def test_an_unusable_cache_directory_is_a_one_line_error(fake_paper, elsewhere, tmp_path,
                                                         monkeypatch, capsys, make, says):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(make(tmp_path)))
    assert main(["fakepaper.table1", "--data-dir", str(tmp_path), "--out",
                 str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot use REPRO_CACHE_DIR" in err[0] and says in err[0]
    assert fake_paper.CALLS == []


def test_eval_names_a_file_that_is_not_a_regular_file(elsewhere, capsys):
    assert main(["eval", "/dev/null", "/dev/null"]) == 1
    assert "/dev/null: is a character device, not a regular file" in capsys.readouterr().err


def test_one_name_for_two_sets_is_refused(elsewhere, user_set, tmp_path, capsys):
    other = write_folds(tmp_path / "other", letor_lines(seed=1))
    assert main(["pahikkala2010.table7", "--dataset", f"u={user_set}", "--dataset",
                 f"u={other}", "--on", "u", "--out", "o"]) == 1
    assert "u is already registered" in capsys.readouterr().err


def test_a_gap_in_the_folds_is_refused(elsewhere, tmp_path, capsys):
    folder = write_folds(tmp_path / "gap", letor_lines())
    shutil.rmtree(folder / "Fold2")
    assert main(["pahikkala2010.table7", "--dataset", f"u={folder}", "--on", "u", "--out",
                 "o"]) == 1
    assert "has Fold1, Fold3, Fold4, Fold5 but no Fold2" in capsys.readouterr().err


def test_staging_folders_of_dead_processes_are_removed(fake_paper, elsewhere, tmp_path,
                                                       monkeypatch):
    base = tmp_path / "tmp"
    base.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(base))
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()                                       # its id belongs to no process now
    dead = base / f"{guards.STAGING_PREFIX}{child.pid}-abc"
    mine = base / f"{guards.STAGING_PREFIX}{os.getpid()}-def"
    old, new = base / f"{guards.STAGING_PREFIX}old", base / f"{guards.STAGING_PREFIX}new"
    for d in (dead, mine, old, new):
        (d / "fakepaper").mkdir(parents=True)
    os.utime(old, (time.time() - 3 * 86400,) * 2)
    assert main(["fakepaper.table1", "--data-dir", str(tmp_path), "--out",
                 str(tmp_path / "out"), "--no-pdf"]) == 0
    assert sorted(p.name for p in base.iterdir()) == sorted([mine.name, new.name])
    assert guards.staging_dir(base).name.startswith(f"{guards.STAGING_PREFIX}{os.getpid()}-")


# --- 6. user runs say what they are ------------------------------------------------------------

def test_an_on_run_shows_the_users_rows_and_says_user_data(elsewhere, user_set, tmp_path,
                                                           capsys):
    out = tmp_path / "out"
    assert main(on_user(user_set, out)) == 0
    text = capsys.readouterr().out
    rows = [l for l in text.splitlines() if l.startswith("u ")]
    assert {l.split()[1] for l in rows} >= {"GRankRLS", "RankRLS"}
    assert "value(s) say: user data: u (unverified)" in text
    assert "Values computed on user data: u (unverified)." in (out / "index.html").read_text()


def test_a_user_rankers_chosen_parameters_are_recorded(elsewhere, user_set, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(on_user(user_set, out, "--ranker", "a=test_guards:Alpha")) == 0
    assert "chosen on validation: {'alpha':" in capsys.readouterr().out
    meta = json.loads((out / "pahikkala2010" / "table7.meta.json").read_text())
    chosen = [r["chosen"] for r in meta["runs"] if "chosen" in r]
    assert len(chosen) == 1 and chosen[0]["alpha"] in Alpha.param_grid["alpha"]
    assert all("chosen" not in r for r in meta["runs"] if "task_user_ranker" not in r["run"])


def test_values_over_several_sets_carry_the_mark_of_an_unverified_copy():
    from repro.judge.assemble import UNVERIFIED_COPY, data_marks_of
    from repro.judge.published import PublishedSet, PublishedValue
    from repro.judge.verdicts import compare
    from repro.report.verdicts import verdict_class
    art = Artifact(
        "p", "figure5", "Average ranks",
        layout=RunLayout(datasets=("MQ2008", "OHSUMED")))
    recs = [{"artifact": "figure5", "dataset": ds, "method": "m", "metric": "rank",
             "fold": None, "value": v} for ds, v in (("MQ2008", 1.0), ("OHSUMED", 2.0),
                                                     ("LETOR-8", 3.0))]
    pub = PublishedSet("p", [PublishedValue("figure5", ds, "m", "rank", None, t, "Fig. 5")
                             for ds, t in (("MQ2008", "1.0"), ("OHSUMED", "2.0"),
                                           ("LETOR-8", "3.0"))])
    mark = "unverified copy: MQ2008 (its files do not match the catalog's checksums)"
    marked = data_marks_of(art, {"MQ2008": mark, "OHSUMED": ""})
    # a value over several sets (LETOR-8) carries the marks of every marked set
    assert [marked(r) for r in recs] == [mark, "", mark]
    flat = compare("p", "figure5", recs, pub, {},
                   unverified=lambda r: marked(r).startswith(UNVERIFIED_COPY))
    assert [r["verdict"] for r in flat] == ["unverified", "reproduced", "unverified"]
    assert [r["equivalence"] for r in flat] == ["reproduced"] * 3     # kept beside it
    assert [verdict_class(r) for r in flat] == ["unverified", "reproduced", "unverified"]


def test_the_console_names_values_on_an_unverified_copy():
    from repro.report.terminal import compact_table
    mark = "unverified copy: MQ2008 (its files do not match the catalog's checksums)"
    flat = [{"dataset": "MQ2008", "method": "m", "metric": "MAP", "fold": str(f), "value": 0.4,
             "published": "0.40", "diff": 0.0, "data_mark": mark, "verdict": "unverified",
             "equivalence": "reproduced"} for f in range(1, 4)]
    text = compact_table("p.t", "T", flat, "t.json")
    assert text.count("unverified copy (within ±δ of the published value)") == 3
    assert "3 on an unverified copy" in text and f"3 value(s) say: {mark}" in text


# --- 8. the README's command from another checkout path ---------------------------------------

@pytest.mark.slow
def test_a_recomputation_with_the_same_values_keeps_runs_json(fake_paper, elsewhere, tmp_path,
                                                              monkeypatch):
    out = tmp_path / "out"
    args = ["fakepaper.table1", "--data-dir", str(tmp_path), "--out", str(out), "--no-pdf"]
    assert main(args) == 0
    runs = out / "fakepaper" / "table1.runs.json"
    before = runs.read_bytes()
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "other-cache"))   # recomputes
    assert main(args) == 0 and len(fake_paper.CALLS) == 6
    assert runs.read_bytes() == before


@pytest.mark.slow
def test_a_pdf_is_the_same_from_any_checkout_path(fake_paper, elsewhere, tmp_path):
    pytest.importorskip("weasyprint")
    from repro.report.pdf import render_pdf
    out = tmp_path / "a" / "out"
    assert main(["fakepaper.table1", "--data-dir", str(tmp_path), "--out", str(out),
                 "--no-pdf"]) == 0
    page = out / "fakepaper" / "index.html"         # a link to a file beside it, a figure
    page.write_text(page.read_text().replace(
        "</body>", '<p><a href="timing/index.html#complexity">timing</a>'
                   '<img src="table1.svg"></p></body>'))
    moved = tmp_path / "somewhere" / "else" / "out"
    shutil.copytree(out, moved)
    pdfs = []
    for root in (out, moved):
        render_pdf(root / "fakepaper" / "index.html", root / "fakepaper" / "fakepaper.pdf")
        pdfs.append((root / "fakepaper" / "fakepaper.pdf").read_bytes())
    assert pdfs[0] == pdfs[1]
    text = b"".join(_inflated(pdfs[0]))
    assert b"(timing/index.html#complexity)" in text and str(tmp_path).encode() not in text
    assert b"/Subtype /Image" in text or b"/XObject" in text       # the figure was drawn


def _inflated(pdf: bytes) -> list[bytes]:
    """The PDF's streams, decompressed where they are deflated."""
    import re
    import zlib
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            out.append(zlib.decompress(m.group(1)))
        except zlib.error:
            out.append(m.group(1))
    return out + [pdf]


def test_the_readme_says_how_to_point_at_data_before_running():
    """The set-up's commands point at a data folder before the first run, and that run writes
    into a folder of the user's own."""
    text = (ROOT / "README.md").read_text()
    setup = text[text.index("## Set-up"):text.index("## Data")]
    block = setup[setup.index("```sh"):].split("```")[1].splitlines()
    first = next(i for i, line in enumerate(block) if line.startswith("python -m repro "))
    assert any("REPRO_DATA_DIR=" in line for line in block[:first]) or "--data-dir" in block[first]
    assert "--out" in block[first]
