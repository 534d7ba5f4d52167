"""Defects found trying the suite as a new user would: each test failed before its fix."""
import json
import lzma
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from repro import papers
from repro.files import atomic_write_bytes, atomic_write_json
from repro.cli.main import main
from repro.errors import DataError
from repro.report.terminal import compact_table
from repro.run.runner import Runner

ROOT = Path(__file__).resolve().parents[1]


# 1. a data directory that does not exist stops the command before it writes anything
def test_missing_data_dir_stops_before_writing(tmp_path, capsys):
    out = tmp_path / "reports"
    assert main(["pahikkala2010", "--data-dir", str(tmp_path / "nope"), "--out", str(out),
                 "--no-pdf"]) == 1
    err = capsys.readouterr().err
    assert "does not exist" in err and "--data-dir" in err and "REPRO_DATA_DIR" in err
    assert not out.exists()


def test_missing_data_dir_still_runs_synthetic_artifacts(tmp_path):
    out = tmp_path / "reports"
    assert main(["leelin2014.sectionII", "--data-dir", str(tmp_path / "nope"), "--out",
                 str(out), "--no-pdf"]) == 0
    recs = json.loads((out / "leelin2014" / "sectionII.json").read_text())
    assert any(r["verdict"] in ("reproduced", "consistent") for r in recs)   # computed


# 3. tracebacks
@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n\n"])
def test_eval_on_a_file_without_documents(tmp_path, capsys, content):
    f = tmp_path / "t.txt"
    f.write_text(content)
    assert main(["eval", str(f), str(f)]) == 1
    assert "no document lines" in capsys.readouterr().err


def test_eval_on_a_directory(tmp_path, capsys):
    f = tmp_path / "s.txt"
    f.write_text("1\n")
    assert main(["eval", str(tmp_path), str(f)]) == 1
    assert "is a directory" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("cmd", [["list"], ["data"]])
def test_closed_pipe_is_not_a_traceback(cmd):
    p = subprocess.run(f"{sys.executable} -m repro {' '.join(cmd)} --data-dir /nonexistent "
                       f"| head -1", shell=True, capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0
    assert "Traceback" not in p.stderr and "BrokenPipe" not in p.stderr


def test_a_cache_entry_holding_null_is_recomputed(tmp_path, monkeypatch):
    import fakepaper
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    papers.register(fakepaper)
    try:
        spec = papers.resolve("fakepaper.table1")[0].runs()[0]
        runner = Runner(tmp_path, papers.task)
        runner.run([spec])
        for junk in ("null", "[]", '{"key": "x"}', "3"):
            runner.cache.entry_path(spec, runner.cache.key(spec)).write_text(junk)
            res = runner.run([spec])[spec]
            assert res.status == "done" and not res.cached
    finally:
        papers.unregister("fakepaper")


# 4. one rule for corrupt data: refused runs are "not run: corrupt …", the rest complete,
#    the exit status is non-zero, and `list` agrees
@pytest.fixture()
def corrupt_mq2008(data_root, tmp_path):
    d = tmp_path / "data"
    shutil.copytree(data_root / "MQ2008", d / "MQ2008")
    p = d / "MQ2008" / "S5.txt.xz"                 # Fold1 test
    raw = bytearray(lzma.decompress(p.read_bytes()))
    raw[100] ^= 1
    p.write_bytes(lzma.compress(bytes(raw)))       # re-compressed: decompresses fine
    return d


@pytest.mark.slow
def test_corrupt_file_refuses_its_runs_only(corrupt_mq2008, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "reports"
    code = main(["leelin2014.sectionII", "pahikkala2010.table2", "--quick", "--data-dir",
                 str(corrupt_mq2008), "--out", str(out), "--no-pdf"])
    err = capsys.readouterr().err
    assert code == 1 and "refused" in err and "S5.txt" in err
    ok = json.loads((out / "leelin2014" / "sectionII.json").read_text())
    assert any(r["verdict"] in ("reproduced", "consistent") for r in ok)  # the rest ran
    t2 = json.loads((out / "pahikkala2010" / "table2.json").read_text())
    mine = [r for r in t2 if r["dataset"] == "MQ2008" and r["fold"] == "1"]
    assert mine and all(r["verdict"] == "not run" and r["reason"].startswith("corrupt")
                        for r in mine)
    # --report-only still writes its pages, and still says so by its exit status
    code = main(["all", "--report-only", "--quick", "--data-dir", str(corrupt_mq2008), "--out",
                 str(out), "--no-pdf"])
    assert (out / "index.html").is_file()
    capsys.readouterr()
    assert main(["list", "--data-dir", str(corrupt_mq2008)]) == 0
    listing = capsys.readouterr().out
    lines = listing.splitlines()
    i = next(i for i, l in enumerate(lines) if l.startswith("pahikkala2010.table2 "))
    assert lines[i].split()[1:3] == ["no", "data"]          # status
    assert lines[i + 1].startswith("    data: ") and "MQ2008 [corrupt]" in lines[i + 1]


# 6. report and cache files get the mode a plain open gives (not mkstemp's 0600)
def test_written_files_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        atomic_write_bytes(tmp_path / "a.html", b"x")
        atomic_write_json(tmp_path / "b.json", {"a": 1})
    finally:
        os.umask(old)
    for name in ("a.html", "b.json"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o644


# 7. smaller
def test_reports_quick_is_ignored_by_git():
    assert "/reports-quick/" in (ROOT / ".gitignore").read_text().splitlines()


@pytest.mark.parametrize("jobs", ["0", "-3", "x"])
def test_bad_jobs_are_refused(jobs, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["leelin2014.sectionII", "--jobs", jobs, "--no-pdf"])
    assert exc.value.code == 2 and "--jobs" in capsys.readouterr().err


def test_paper_option_with_a_paper_target_is_an_error(capsys):
    assert main(["pahikkala2010", "--paper", "leelin2014", "--no-pdf"]) == 1
    assert "--paper" in capsys.readouterr().err


def test_typo_gets_a_suggestion_and_the_papers(capsys):
    assert main(["tabel7", "--no-pdf"]) == 1
    err = capsys.readouterr().err
    assert "Did you mean 'table7'" in err and "pahikkala2010" in err
    assert main(["pahikala2010", "--no-pdf"]) == 1
    assert "Did you mean 'pahikkala2010'" in capsys.readouterr().err


def test_list_names_papers_and_says_what_is_implemented(capsys):
    assert main(["list", "--data-dir", "/nonexistent"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("papers: stevens2010, dubey2009, leelin2014, lesmola2007, pahikkala2010")
    assert out.splitlines()[1].split()[:2] == ["artifact", "status"]
    line = next(l for l in out.splitlines() if l.startswith("pahikkala2010.table7 "))
    assert line.split()[1:3] == ["no", "data"]              # one status per artifact
    assert [l for l in out.splitlines() if l.startswith("stevens2010.figure10 ")][0].split(
        )[1:3] == ["cannot", "run"]                         # not "available" beside it


def test_terminal_table_of_a_figure_without_published_values_has_rows():
    flat = [{"dataset": "MQ2008", "method": "GRankRLS", "metric": "maximum of average "
             "validation MAP", "fold": "avg", "value": 0.47, "published": None, "diff": None,
             "verdict": "ours only"}]
    text = compact_table("pahikkala2010.figure3", "t", flat, "x.json")
    assert "maximum of average validation MAP" in text and "0.47" in text
    assert "ours only" in text                       # the report's word for the code


def test_datasets_md_and_readme_runs_name_a_data_dir():
    readme = (ROOT / "README.md").read_text()
    assert "--data-dir" in readme.split("## Running", 1)[1].split("##", 1)[0]


def test_bad_input_is_named(tmp_path):
    with pytest.raises(DataError, match="is a directory"):
        from repro.data.io import read_bytes
        read_bytes(tmp_path)


# --- safe to run on a shared machine and in a checkout ---------------------------------------
# (the bounded pool: tests/test_process_safety.py; rerendering a checkout:
# tests/test_clean_checkout.py)

@pytest.fixture()
def fake(tmp_path, monkeypatch):
    import fakepaper
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    papers.register(fakepaper)
    fakepaper.CALLS.clear()
    yield fakepaper
    papers.unregister("fakepaper")


def _run(tmp_path, *args):
    return main(["fakepaper.table1", "--data-dir", str(tmp_path), "--out",
                 str(tmp_path / "out"), *args])


# 3. a run never replaces computed values with "not run" unless asked, and says so
@pytest.mark.slow
def test_report_only_with_an_empty_cache_keeps_computed_values(fake, tmp_path, monkeypatch,
                                                                capsys):
    assert _run(tmp_path, "--no-pdf") == 0
    table = tmp_path / "out" / "fakepaper" / "table1.json"
    before = table.read_bytes()
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "empty-cache"))
    capsys.readouterr()
    assert _run(tmp_path, "--no-pdf", "--report-only") == 1
    err = capsys.readouterr().err
    assert "kept" in err and "fakepaper.table1" in err and "synthetic / const / x, fold 1" in err
    assert "--allow-downgrade" in err
    assert table.read_bytes() == before
    assert _run(tmp_path, "--no-pdf", "--report-only", "--allow-downgrade") == 0
    recs = json.loads(table.read_text())
    assert recs and all(r["value"] is None for r in recs)


def test_missing_data_keeps_the_values_of_a_data_artifact(fake, tmp_path, capsys):
    from repro.pipeline.promote import lost_values
    old = [{"artifact": "t", "dataset": "MQ2008", "method": "m", "metric": "MAP", "fold": "1",
            "value": 0.4, "verdict": "reproduced"},
           {"artifact": "t", "dataset": "MQ2008", "method": "m", "metric": "MAP", "fold": "2",
            "value": None, "verdict": "not run", "reason": "data missing: MQ2008"}]
    new = [dict(r, value=None, verdict="not run", reason="data missing: MQ2008") for r in old]
    assert lost_values(old, new) == ["MQ2008 / m / MAP, fold 1: data missing: MQ2008"]
    assert lost_values(old, old) == [] and lost_values(old, old[:1]) == []
    assert lost_values(old, []) == ["MQ2008 / m / MAP, fold 1: no longer produced"]


@pytest.mark.slow
def test_no_pdf_removes_a_pdf_that_no_longer_matches_its_page(fake, tmp_path, monkeypatch,
                                                              capsys):
    assert _run(tmp_path, "--no-pdf") == 0
    pdf = tmp_path / "out" / "fakepaper" / "fakepaper.pdf"
    pdf.write_bytes(b"%PDF of the page as it was")
    assert _run(tmp_path, "--no-pdf") == 0                 # same page: the PDF still matches
    assert pdf.exists()
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "empty-cache"))
    assert _run(tmp_path, "--no-pdf", "--report-only", "--allow-downgrade") == 0
    assert not pdf.exists() and "no longer matched" in capsys.readouterr().out


# 6. no raw tracebacks: unwritable or full report directories, unreachable schedulers,
#    bad input inside a run
def test_unwritable_out_is_refused_before_any_run(fake, tmp_path, capsys):
    out = Path("/sys/repro-reports")                    # not writable, even by root
    if os.access("/sys", os.W_OK) and out.parent.exists() and os.geteuid() != 0:
        pytest.skip("/sys is writable here")
    assert main(["fakepaper.table1", "--data-dir", str(tmp_path), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "cannot write the reports to /sys/repro-reports" in err and "nothing was run" in err
    assert "Traceback" not in err and fake.CALLS == []


@pytest.mark.slow
def test_a_full_disk_is_said_and_keeps_the_old_index(fake, tmp_path, monkeypatch, capsys):
    import errno
    assert _run(tmp_path, "--no-pdf") == 0
    index = tmp_path / "out" / "index.html"
    before = index.read_bytes()
    real_replace = os.replace

    def full(src, dst, *a, **k):
        if str(dst).startswith(str(tmp_path / "out")):
            raise OSError(errno.ENOSPC, "No space left on device", str(dst))
        return real_replace(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", full)
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache2"))   # recomputes
    (tmp_path / "out" / "fakepaper" / "table1.runs.json").unlink()     # a file it must write
    capsys.readouterr()
    assert _run(tmp_path, "--no-pdf", "--force") == 1
    err = capsys.readouterr().err
    assert "the disk is full" in err and "kept" in err and "Traceback" not in err
    assert index.read_bytes() == before
    assert not [p for p in (tmp_path / "out").rglob("*.tmp")]


@pytest.mark.slow
def test_unreachable_scheduler_is_a_clear_error(fake, tmp_path, monkeypatch, capsys):
    pytest.importorskip("distributed")
    import time
    monkeypatch.setenv("REPRO_SCHEDULER_TIMEOUT", "2")
    t0 = time.monotonic()
    assert _run(tmp_path, "--no-pdf", "--scheduler", "tcp://127.0.0.1:1") == 1
    err = capsys.readouterr().err
    assert time.monotonic() - t0 < 20
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in err
    assert "Traceback" not in err


def test_bad_input_inside_a_run_is_its_message_without_a_traceback(capsys):
    from repro.spec import RunSpec
    from repro.run.backends import compute

    def task(ctx):
        raise DataError("queries.txt, line 3: expected 'qid:<id>', got 'q:1'")

    res = compute(RunSpec("p", "t", "synthetic", None, 0, "{}"), task, ".")
    assert res.status == "failed" and "queries.txt, line 3" in res.why
    assert "Traceback" not in capsys.readouterr().err


# 7. smaller
def test_quick_fold_mean_figures_keep_their_values():
    from repro.pipeline.plan import quick_view as _quick_view
    art = papers.resolve("dubey2009.figure4")[0]
    assert art.judging.select["fold"] == "avg"
    assert _quick_view(art, False) is art
    view = _quick_view(art, True)
    assert "fold" not in view.judging.select and view.judging.select["part"] == "figure4"


@pytest.mark.slow
def test_quick_dubey_figure4_writes_its_values(data_root, tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "q"
    assert main(["dubey2009.figure4", "--quick", "--data-dir", str(data_root), "--out",
                 str(out), "--no-pdf"]) == 0
    recs = json.loads((out / "dubey2009" / "figure4.json").read_text())
    assert [r for r in recs if r["value"] is not None]


def test_paper_option_suggests_only_that_papers_artifacts(capsys):
    assert main(["figure4", "--paper", "leelin2014", "--no-pdf"]) == 1
    err = capsys.readouterr().err
    assert "Did you mean 'figureII'" in err and "'figure14'" not in err


@pytest.mark.parametrize("cmd, code", [("list", 0), ("data", 1)])
def test_list_and_data_say_the_data_dir_does_not_exist(cmd, code, tmp_path, capsys):
    assert main([cmd, "--data-dir", str(tmp_path / "nope")]) == code
    assert f"data directory {tmp_path / 'nope'} does not exist" in capsys.readouterr().err


def test_data_names_each_artifact_once(data_root, capsys):
    assert main(["data", "HP2004", "--data-dir", str(data_root)]) == 0
    out = capsys.readouterr().out
    needed = out.split("needed by:", 1)[1].split("obtain:", 1)[0]
    ids = [x.strip() for x in needed.replace("\n", " ").split(",")]
    assert "dubey2009.figure4" in ids and len(ids) == len(set(ids))


def test_list_fits_the_terminal(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["list", "--data-dir", "/nonexistent"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(l) for l in lines) <= 80
    assert any(l.startswith("    data: ") for l in lines)


def test_a_cache_entry_edited_by_hand_is_recomputed(fake, tmp_path):
    spec = papers.resolve("fakepaper.table1")[0].runs()[0]
    said = []
    runner = Runner(tmp_path, papers.task, progress=False, log=said.append)
    first = runner.run([spec])[spec]
    path = runner.cache.entry_path(spec, runner.cache.key(spec))
    entry = json.loads(path.read_text())
    assert entry["digest"]
    entry["output"]["records"][0]["value"] = 123.0           # a value changed by hand
    path.write_text(json.dumps(entry))
    fake.CALLS.clear()
    again = runner.run([spec])[spec]
    assert not again.cached and len(fake.CALLS) == 1 and again.output == first.output
    assert any("changed after it was written" in s for s in said)
    assert runner.run([spec])[spec].cached                   # rewritten whole
