"""The README's library example runs exactly as written (on MQ2008 from REPRO_DATA_DIR)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import need

ROOT = Path(__file__).resolve().parents[1]
HEADING = "### The rankers as a library"


def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index(HEADING):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_example_loads_fits_scores_and_searches():
    code = readme_example()
    assert "load_letor_fold" in code and "GridSearchCV" in code and "GroupKFold" in code


@pytest.mark.slow
def test_the_readme_library_example_runs_as_written(data_root, tmp_path):
    need(data_root, "MQ2008")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REPRO_DATA_DIR": str(data_root)}
    proc = subprocess.run([sys.executable, "-c", readme_example()], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ndcg, best = proc.stdout.strip().splitlines()
    assert 0 < float(ndcg) < 1
    params, score = best.rsplit(" ", 1)
    assert params in ("{'C': 0.1}", "{'C': 1.0}") and 0 < float(score) < 1
