"""The command line answers before the heavy imports: ``--version``, ``--help``, a misspelled
target and a bad option are handled without NumPy, SciPy, matplotlib, Dask or LightGBM
(``python -X importtime`` lists every module a command imported)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from repro import papers as registry

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "scipy", "matplotlib", "dask", "distributed", "lightgbm", "sklearn",
         "repro._kernels")


def imported(*argv: str) -> tuple[subprocess.CompletedProcess, set[str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "repro", *argv],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    mods = {line.split("|")[-1].strip() for line in proc.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}
    return proc, mods


def heavy(mods: set[str]) -> list[str]:
    return sorted(m for m in mods if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.slow
@pytest.mark.parametrize("argv, code, says", [
    (("--version",), 0, "repro-rank"),
    (("--help",), 0, "usage:"),
    (("figur4",), 1, "Did you mean 'figure4'"),
    (("pahikkala2010.tabel7",), 1, "no artifact 'pahikkala2010.tabel7'"),
    (("nopaper.table7",), 1, "unknown paper 'nopaper'"),
    (("--jobs", "0", "figure4"), 2, "--jobs: must be at least 1"),
])
def test_answers_without_heavy_imports(argv, code, says):
    proc, mods = imported(*argv)
    assert proc.returncode == code, proc.stderr[-2000:]
    assert "repro.cli.main" in mods                  # the listing is real: the command ran
    assert says in proc.stdout + proc.stderr
    assert heavy(mods) == []


@pytest.mark.slow
def test_a_valid_target_does_import_the_declarations():
    """The check above can fail: a real target reaches the declarations (NumPy)."""
    _, mods = imported("pahikkala2010.nosuch")       # refused from the words files: light
    assert heavy(mods) == []
    proc, mods = imported("list", "--data-dir", "/nonexistent-repro-data")
    assert proc.returncode == 0
    assert "numpy" in mods


def test_artifact_names_from_the_words_files_equal_the_declarations():
    """The misspelled-name refusal reads names from each paper's prose.md; they must be the
    declared artifacts exactly."""
    names = registry.artifact_names()
    assert set(names) == set(registry.paper_ids())
    for pid in registry.paper_ids():
        assert sorted(names[pid]) == sorted(a.name for a in registry.artifacts(pid)), pid


def test_refuse_unknown_lets_every_declared_target_through():
    for art in registry.artifacts():
        registry.refuse_unknown(art.id)
        registry.refuse_unknown(art.name)
        registry.refuse_unknown(art.name, art.paper)
    registry.refuse_unknown("all")
    for pid in registry.paper_ids():
        registry.refuse_unknown(pid)
