"""Defects found trying the suite as a new user would (issue 12): each test failed before its
fix."""
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
from repro.cache import atomic_write_bytes, atomic_write_json
from repro.cli import main
from repro.data import load as data_load
from repro.data.letor import format_letor
from repro.data.synthetic import make_queries
from repro.errors import DataError
from repro.report.terminal import compact_table
from repro.runner import Runner

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
    assert any(r["verdict"].startswith(("agrees", "consistent")) for r in recs)   # computed


# 2. a damaged parsed-data cache entry is detected, discarded and reparsed
@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_damaged_parse_cache_is_discarded_and_reparsed(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    d = make_queries(20, (3, 8), 5, seed=4)
    buf = format_letor(d)
    first = data_load._parse_cached(buf, "t.txt", 5, True)
    (entry,) = (tmp_path / "cache" / "data").glob("*.npz")
    raw = bytearray(entry.read_bytes())
    if damage == "truncate":
        raw = raw[:len(raw) // 2]
    else:
        raw[len(raw) - 200] ^= 0x10               # inside the last array's data
    entry.write_bytes(bytes(raw))
    again = data_load._parse_cached(buf, "t.txt", 5, True)     # no BadZipFile, same arrays
    np.testing.assert_array_equal(again.X, first.X)
    np.testing.assert_array_equal(again.y, first.y)
    third = data_load._parse_cached(buf, "t.txt", 5, True)     # the entry was rewritten
    np.testing.assert_array_equal(third.X, first.X)
    assert entry.read_bytes() != bytes(raw)


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
            runner.entry_path(spec, runner.key(spec)).write_text(junk)
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


def test_corrupt_file_refuses_its_runs_only(corrupt_mq2008, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "reports"
    code = main(["leelin2014.sectionII", "pahikkala2010.table2", "--quick", "--data-dir",
                 str(corrupt_mq2008), "--out", str(out), "--no-pdf"])
    err = capsys.readouterr().err
    assert code == 1 and "refused" in err and "S5.txt" in err
    ok = json.loads((out / "leelin2014" / "sectionII.json").read_text())
    assert any(r["verdict"].startswith(("agrees", "consistent")) for r in ok)  # the rest ran
    t2 = json.loads((out / "pahikkala2010" / "table2.json").read_text())
    mine = [r for r in t2 if r["dataset"] == "MQ2008" and r["fold"] == "1"]
    assert mine and all(r["verdict"].startswith("not run: corrupt") for r in mine)
    # --report-only still writes its pages, and still says so by its exit status
    code = main(["all", "--report-only", "--quick", "--data-dir", str(corrupt_mq2008), "--out",
                 str(out), "--no-pdf"])
    assert (out / "index.html").is_file()
    capsys.readouterr()
    assert main(["list", "--data-dir", str(corrupt_mq2008)]) == 0
    listing = capsys.readouterr().out
    line = next(l for l in listing.splitlines() if l.startswith("pahikkala2010.table2 "))
    assert "MQ2008 [corrupt]" in line and " no " in line


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
    assert "implemented" in out.splitlines()[1]
    line = next(l for l in out.splitlines() if l.startswith("pahikkala2010.table7 "))
    assert line.rstrip().endswith("yes")


def test_terminal_table_of_a_figure_without_published_values_has_rows():
    flat = [{"dataset": "MQ2008", "method": "GRankRLS", "metric": "maximum of average "
             "validation MAP", "fold": "avg", "value": 0.47, "published": None, "diff": None,
             "verdict": "no published value"}]
    text = compact_table("pahikkala2010.figure3", "t", flat, "x.json")
    assert "maximum of average validation MAP" in text and "0.47" in text


def test_datasets_md_and_readme_runs_name_a_data_dir():
    readme = (ROOT / "README.md").read_text()
    assert "--data-dir" in readme.split("## Running", 1)[1].split("##", 1)[0]


def test_bad_input_is_named(tmp_path):
    with pytest.raises(DataError, match="is a directory"):
        from repro.data.io import read_bytes
        read_bytes(tmp_path)
