"""Rendering is a pure function of the results — a rerun from the cache into
a checkout's own reports/ leaves `git status --porcelain` empty (PDFs included: fixed dates),
and only `bench` writes the benchmarks page.

Each test clones this repository into a temporary directory and renders into the clone's
reports/ with this checkout's code (--quick, so that the first, computing run is short; it
replaces the clone's full values, hence --allow-downgrade), commits there, then reruns the
same command from the cache."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                                reason="needs git and a git checkout")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    path = tmp_path_factory.mktemp("checkout") / "repro-rank"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(path)], check=True)
    _git(path, "config", "user.email", "test@example.invalid")
    _git(path, "config", "user.name", "test")
    return path


def _render(clone: Path, cache: Path, data_root: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, REPRO_CACHE_DIR=str(cache), REPRO_DATA_DIR=str(data_root))
    return subprocess.run([sys.executable, "-m", "repro", *args, "--quick", "--out",
                           str(clone / "reports")], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=1800)


# The PDF's reproducibility is checked on pahikkala2010 (lesmola2007's is long to render).
@pytest.mark.slow
@pytest.mark.parametrize("target, pdf", [("pahikkala2010.table7", []),
                                         ("lesmola2007", ["--no-pdf"])])
def test_cached_rerun_leaves_the_checkout_clean(clone, data_root, tmp_path, target, pdf):
    cache = tmp_path / "cache"
    benchmarks = (clone / "reports" / "benchmarks.html").read_bytes()
    first = _render(clone, cache, data_root, target, "--allow-downgrade", *pdf)
    assert first.returncode == 0, first.stderr[-3000:]
    assert (clone / "reports" / "benchmarks.html").read_bytes() == benchmarks   # bench's alone
    _git(clone, "add", "-A")
    _git(clone, "commit", "-q", "--allow-empty", "-m", f"rendered {target}")
    again = _render(clone, cache, data_root, target, *pdf)
    assert again.returncode == 0, again.stderr[-3000:]
    assert _git(clone, "status", "--porcelain") == ""
