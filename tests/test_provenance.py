"""Provenance comes from the package's own source tree, decided before writing: run from
another repository, pages still name this one; rewritten report files are not local changes."""
import os
import subprocess

import pytest

import repro
from repro.run import provenance as prov


def git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.fixture()
def repo(tmp_path):
    """A git repository holding a package directory and a reports/ directory."""
    r = tmp_path / "checkout"
    (r / "pkg").mkdir(parents=True)
    (r / "reports").mkdir()
    (r / "pkg" / "a.py").write_text("x = 1\n")
    (r / "reports" / "index.html").write_text("<p>old</p>\n")
    git("init", "-q", cwd=r)
    git("-c", "user.name=t", "-c", "user.email=t@t", "add", "-A", cwd=r)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c1", cwd=r)
    prov.source_state.cache_clear()
    yield r
    prov.source_state.cache_clear()


def test_commit_of_the_package_tree_not_of_the_current_directory(repo, tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    git("init", "-q", cwd=other)
    monkeypatch.chdir(other)
    st = prov.source_state(repo / "pkg")
    assert st["commit"] == git("rev-parse", "HEAD", cwd=repo) and not st["dirty"]
    assert st["short"] == st["commit"][:12] and len(st["date"]) == 10


def test_rewritten_reports_are_not_local_changes_but_sources_are(repo):
    (repo / "reports" / "index.html").write_text("<p>new</p>\n")
    assert prov.source_state(repo / "pkg")["dirty"] is False
    prov.source_state.cache_clear()
    (repo / "pkg" / "a.py").write_text("x = 2\n")
    st = prov.source_state(repo / "pkg")
    assert st["dirty"] is True and st["short"].endswith("+local changes")


def test_outside_git(tmp_path):
    d = tmp_path / "plain"
    d.mkdir()
    assert prov.source_state(d)["short"] == "unknown (not a git checkout)"


def test_describe_names_commit_date_and_machine():
    text = prov.describe()
    assert repro.__version__ in text and "CPUs" in text and "Python" in text


@pytest.mark.slow
def test_blas_names_every_library_the_same_way_in_every_process():
    """numpy and scipy load their own OpenBLAS and threadpoolctl lists them in an order that
    follows the hash seed: the provenance line must not (it is printed on every page, so a
    rerun would rewrite every page half of the time)."""
    import subprocess
    import sys
    code = "import scipy.linalg; from repro.run.provenance import blas; print(blas())"
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}
                           ).stdout.strip() for seed in range(4)}
    assert len(seen) == 1, seen
    (line,) = seen
    if " for " in line:                      # several libraries: numpy's first, each named
        assert line.split("; ")[0].endswith(" for numpy"), line
