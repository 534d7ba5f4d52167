"""Code keys by construction: a task's key follows the source of every module it imports, at
any depth, and nothing else."""
import shutil
from pathlib import Path

import pytest

import repro
from repro.run.codekey import cimported_pxds, closure, code_key

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


@pytest.mark.slow
def test_changing_a_helper_a_task_uses_changes_its_key(tree):
    k0 = code_key(TASKS, tree)
    assert code_key(TASKS, tree) == k0                          # deterministic
    edit(tree / "rankers" / "lqo.py")                           # imported through rankrls
    k1 = code_key(TASKS, tree)
    assert k1 != k0
    edit(tree / "run" / "timing.py")                            # the scaling sweep
    assert code_key(TASKS, tree) != k1


def test_changing_a_kernel_source_changes_the_key(tree):
    if not (tree.parent / "kernels" / "lqo.pyx").is_file():
        pytest.skip("no kernels/ next to the package (installed without sources)")
    k0 = code_key(TASKS, tree)
    edit(tree.parent / "kernels" / "lqo.pyx")
    assert code_key(TASKS, tree) != k0


@pytest.mark.slow
def test_modules_not_imported_leave_the_key_alone(tree):
    k0 = code_key(TASKS, tree)
    edit(tree / "papers" / "leelin2014" / "tasks.py")          # another paper
    edit(tree / "report" / "pages.py")                          # rendering
    edit(tree / "papers" / "pahikkala2010" / "figures.py")     # drawing, not computing
    assert code_key(TASKS, tree) == k0


@pytest.mark.slow
def test_closure_follows_relative_and_nested_imports():
    mods = set(closure(TASKS))
    # tasks → protocol → metrics → letor_eval → its kernel; tasks → rankrls → lqo → kernel
    assert {"repro.evidence.protocol", "repro.metrics", "repro.metrics.letor_eval",
            "repro._kernels.letor_eval", "repro.rankers.rankrls", "repro.rankers.lqo",
            "repro._kernels.lqo", "repro.data.queries", "repro.errors"} <= mods


DOMINATION = "repro.papers.stevens2010.letor"          # Domination Rank's LETOR runs


@pytest.mark.slow
def test_touching_a_cimported_pxd_changes_the_domination_key(tree):
    pxd = tree.parent / "kernels" / "column_access.pxd"
    if not pxd.is_file():
        pytest.skip("no kernels/ next to the package (installed without sources)")
    assert "repro._kernels.domination" in closure(DOMINATION)
    k0 = code_key(DOMINATION, tree)
    edit(pxd)
    assert code_key(DOMINATION, tree) != k0
    k1 = code_key(TASKS, tree)                   # greedy RankRLS cimports no column access
    edit(pxd)
    assert code_key(TASKS, tree) == k1


def test_kernels_key_the_shared_pxd_files_they_cimport():
    """The random generator and the sort live in one ``.pxd`` each: the keys of the kernels
    that cimport them follow them, and only those."""
    kernels = Path(repro.__file__).parent.parent / "kernels"
    if not kernels.is_dir():
        pytest.skip("no kernels/ next to the package (installed without sources)")
    users = {"xoshiro256.pxd": {"swap_sampler", "pamir"},
             "stable_sort.pxd": {"assignment", "pair_counting"}}
    for pxd, stems in users.items():
        keyed = {pyx.stem for pyx in kernels.glob("*.pyx")
                 if kernels / pxd in cimported_pxds(pyx, kernels)}
        assert keyed == stems, pxd


@pytest.mark.slow
def test_touching_an_included_header_changes_the_keys_of_its_kernels(tree):
    """``fixed_exp.h`` (included through ``fixed_exp.pxd``) holds the arithmetic of the
    domination and conditional kernels: editing it reruns Domination Rank's runs, not greedy
    RankRLS's."""
    header = tree.parent / "kernels" / "fixed_exp.h"
    if not header.is_file():
        pytest.skip("no kernels/ next to the package (installed without sources)")
    k0, other = code_key(DOMINATION, tree), code_key(TASKS, tree)
    edit(header)
    assert code_key(DOMINATION, tree) != k0
    assert code_key(TASKS, tree) == other


@pytest.mark.slow
def test_a_rebuilt_extension_changes_the_key_of_runs_that_load_it(tree):
    ext = tree / "_kernels" / "lqo.cpython-test.so"
    ext.write_bytes(b"a build")
    k0 = code_key(TASKS, tree)
    ext.write_bytes(b"another build of the same source")
    k1 = code_key(TASKS, tree)
    assert k1 != k0
    (tree / "_kernels" / "domination.cpython-test.so").write_bytes(b"unrelated build")
    assert code_key(TASKS, tree) == k1           # a kernel the runs do not load


def test_the_loaded_extension_is_the_one_hashed():
    from repro._kernels import lqo
    from repro.run.codekey import built_extension
    assert built_extension("lqo") == Path(lqo.__file__)


def _task_modules(paper: str) -> dict[str, str]:
    """task name → the module defining it, for every implemented artifact of ``paper``."""
    from repro import papers
    out = {}
    for art in papers.module(paper).ARTIFACTS:
        if art.task:
            out[art.task] = papers.task(paper, art.task).__module__
    return out


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["pahikkala2010", "leelin2014"])
def test_editing_one_study_changes_only_its_runs_keys(tree, paper):
    mods = _task_modules(paper)
    assert len(set(mods.values())) == len(mods), f"{paper}: one module per study of runs"
    before = {t: code_key(m, tree) for t, m in mods.items()}
    target_task, target_mod = sorted(mods.items())[0]
    edit(tree.joinpath(*target_mod.split(".")[1:]).with_suffix(".py"))
    after = {t: code_key(m, tree) for t, m in mods.items()}
    changed = {t for t in mods if after[t] != before[t]}
    assert changed == {target_task}


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["pahikkala2010", "leelin2014"])
def test_declarations_figures_and_labels_re_run_nothing(tree, paper):
    mods = _task_modules(paper)
    before = {t: code_key(m, tree) for t, m in mods.items()}
    pkg = tree / "papers" / paper
    for name in ("__init__.py", "figures.py", "claims.py"):
        if (pkg / name).is_file():
            edit(pkg / name)
    assert {t: code_key(m, tree) for t, m in mods.items()} == before
