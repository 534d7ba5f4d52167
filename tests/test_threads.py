"""Results do not depend on the environment's thread settings: every run executes with
single-threaded BLAS, in this process and in every worker.  The fake paper's ``task_blas``
digests matrix products whose last bits change with OpenBLAS's thread count (it splits a
15,211 × 46 product across threads — the size of MQ2008, where TRON at C = 2^20 took 31 or
36 Newton iterations depending on the threads before the limit)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
SCRIPT = """
import json, sys
sys.path.insert(0, {tests!r})
import fakepaper
from repro import papers
from repro.spec import RunSpec
from repro.run.runner import Runner
papers.register(fakepaper)
specs = [RunSpec("fakepaper", "task_blas", "synthetic", f, 0, "{{}}") for f in (1, 2)]
res = Runner({tmp!r}, papers.task, jobs={jobs}, force=True, progress=False,
             log=lambda *a, **k: None).run(specs)
print(json.dumps([r.output for r in res.values()]))
"""


def run(tmp_path, threads, jobs):
    env = {k: v for k, v in os.environ.items() if k not in VARS}
    if threads is not None:
        env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = str(threads)
    env["REPRO_CACHE_DIR"] = str(tmp_path / "cache")
    code = SCRIPT.format(tests=str(ROOT / "tests"), tmp=str(tmp_path), jobs=jobs)
    p = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                       capture_output=True, text=True)
    return json.loads(p.stdout.splitlines()[-1])


@pytest.mark.slow
def test_records_do_not_depend_on_thread_settings(tmp_path):
    base = run(tmp_path, None, 1)
    assert run(tmp_path, 1, 1) == base
    assert run(tmp_path, 2, 1) == base
    assert run(tmp_path, 2, 2) == base            # pool workers, too
    assert run(tmp_path, None, 2) == base
