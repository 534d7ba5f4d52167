"""A run into a fresh ``--out`` writes what was asked: the requested artifacts' files, their
papers' pages, the index and their PDFs, and no other artifact's files; the console lists
each file written or left unchanged; the index links the PDFs from its first render, so a
second identical run changes no byte."""
import pytest

from repro.cli.main import main
from repro.data import catalog as cat

pytestmark = pytest.mark.usefixtures("fake_paper")


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    d = tmp_path / "elsewhere"
    d.mkdir()
    monkeypatch.chdir(d)
    monkeypatch.setattr(cat, "REGISTERED", {})     # no user sets registered
    monkeypatch.setattr(cat, "ALLOWED", set())    # nor allowances
    return d


def files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_one_artifact_writes_only_its_files_and_the_pages(elsewhere, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["fakepaper.table4", "--data-dir", str(tmp_path), "--out", str(out),
                 "--no-pdf"]) == 0
    got = files(out)
    assert not [f for f in got if f.startswith("fakepaper/table") and
                not f.startswith("fakepaper/table4")], got
    assert "fakepaper/table4.json" in got and "fakepaper/index.html" in got
    assert "index.html" in got
    said = capsys.readouterr().out
    assert f"wrote     {out}/fakepaper/: " in said and "table4.json" in said
    assert "not run: no cached result" not in (out / "fakepaper" / "index.html").read_text()
    # the same command again: every file listed as unchanged, none as written
    assert main(["fakepaper.table4", "--data-dir", str(tmp_path), "--out", str(out),
                 "--no-pdf"]) == 0
    said = capsys.readouterr().out
    assert "wrote " not in said
    assert f"unchanged {out}/fakepaper/: " in said
    root = next(l for l in said.splitlines() if l.startswith(f"unchanged {out}/: "))
    assert {"index.html", "glossary.html"} <= set(root.split(": ", 1)[1].split(", "))


@pytest.mark.slow
def test_the_first_render_links_the_pdfs_and_a_second_run_changes_nothing(elsewhere, tmp_path,
                                                                            capsys):
    pytest.importorskip("weasyprint")
    out = tmp_path / "out"
    argv = ["fakepaper.table4", "--data-dir", str(tmp_path), "--out", str(out)]
    assert main(argv) == 0
    got = files(out)
    assert {"index.html", "index.pdf", "fakepaper/index.html", "fakepaper/fakepaper.pdf",
            "fakepaper/table4.json"} <= set(got)
    assert not [f for f in got if f.startswith("fakepaper/table") and
                not f.startswith("fakepaper/table4")], got
    assert 'href="fakepaper/fakepaper.pdf"' in (out / "index.html").read_text()
    said = capsys.readouterr().out
    assert "fakepaper.pdf" in said and "index.pdf" in said
    before = {f: (out / f).read_bytes() for f in got}
    assert main(argv) == 0
    assert {f: (out / f).read_bytes() for f in files(out)} == before
    assert "wrote " not in capsys.readouterr().out


def test_a_data_folder_without_the_needed_sets_exits_1_naming_them(elsewhere, tmp_path,
                                                                   capsys):
    empty = tmp_path / "data"
    empty.mkdir()
    out = tmp_path / "out"
    assert main(["fakepaper.table2", "--data-dir", str(empty), "--out", str(out),
                 "--no-pdf"]) == 1
    err = capsys.readouterr().err
    assert "holds none of the datasets" in err and "MQ2007" in err and "--allow-missing" in err
    assert not out.exists()
    assert main(["fakepaper.table2", "--data-dir", str(empty), "--out", str(out),
                 "--no-pdf", "--allow-missing"]) == 0
    assert "not run" in (out / "fakepaper" / "table2.json").read_text()
    # an artifact on synthetic data runs from the same folder
    assert main(["fakepaper.table4", "--data-dir", str(empty), "--out", str(out),
                 "--no-pdf"]) == 0


def test_jobs_above_the_cpus_is_said_in_a_fully_cached_run(elsewhere, tmp_path, capsys,
                                                          monkeypatch):
    argv = ["fakepaper.table4", "--data-dir", str(tmp_path), "--out", str(tmp_path / "out"),
            "--no-pdf", "--jobs", "3"]
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert main(argv) == 0
    capsys.readouterr()
    assert main(argv) == 0                             # every run cached: nothing executes
    said = capsys.readouterr()
    assert "running" not in said.out
    assert "--jobs 3 is more than this machine's 2 CPU(s)" in said.out + said.err
