"""Code keys by construction: a task's key follows the source of every module it imports, at
any depth, and nothing else."""
import shutil
from pathlib import Path

import pytest

import repro
from repro.codekey import closure, code_key

TASKS = "repro.papers.pahikkala2010.tasks"


@pytest.fixture()
def tree(tmp_path):
    """A copy of the package sources (and kernels/) that the test may edit."""
    src = Path(repro.__file__).parent
    root = tmp_path / "repro"
    shutil.copytree(src, root, ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.c"))
    kernels = src.parent / "kernels"
    if kernels.is_dir():
        shutil.copytree(kernels, tmp_path / "kernels")
    return root


def edit(path: Path):
    path.write_text(path.read_text() + "\n# an edit\n")


def test_changing_a_helper_a_task_uses_changes_its_key(tree):
    k0 = code_key(TASKS, tree)
    assert code_key(TASKS, tree) == k0                          # deterministic
    edit(tree / "rankers" / "lqo.py")                           # imported through rankrls
    k1 = code_key(TASKS, tree)
    assert k1 != k0
    edit(tree / "timing.py")                                    # the scaling sweep
    assert code_key(TASKS, tree) != k1


def test_changing_a_kernel_source_changes_the_key(tree):
    if not (tree.parent / "kernels" / "lqo.pyx").is_file():
        pytest.skip("no kernels/ next to the package (installed without sources)")
    k0 = code_key(TASKS, tree)
    edit(tree.parent / "kernels" / "lqo.pyx")
    assert code_key(TASKS, tree) != k0


def test_modules_not_imported_leave_the_key_alone(tree):
    k0 = code_key(TASKS, tree)
    edit(tree / "papers" / "leelin2014" / "tasks.py")          # another paper
    edit(tree / "report" / "html.py")                           # rendering
    edit(tree / "papers" / "pahikkala2010" / "figures.py")     # drawing, not computing
    assert code_key(TASKS, tree) == k0


def test_closure_follows_relative_and_nested_imports():
    mods = set(closure(TASKS))
    # tasks → protocol → metrics → letor_eval → its kernel; tasks → rankrls → lqo → kernel
    assert {"repro.protocol", "repro.metrics", "repro.metrics.letor_eval",
            "repro._kernels.letor_eval", "repro.rankers.rankrls", "repro.rankers.lqo",
            "repro._kernels.lqo", "repro.data.queries", "repro.errors"} <= mods
