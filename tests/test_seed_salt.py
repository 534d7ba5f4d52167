"""The seed salt (``--seed-salt``): every derived seed's text gets the salt appended, so a
second rendering draws anew; without a salt seeds and run identities are as they always were."""
import json
import subprocess
import sys

import pytest

from repro.judge.stats import seed_from
from repro.papers.lesmola2007 import uci
from repro.spec import SEED_SALT_ENV, RunSpec, salted, seed_salt

SPEC = RunSpec("p", "task", "ds", 1, 2, json.dumps({"a": 1}))


def test_without_a_salt_seeds_and_identities_are_unchanged(monkeypatch):
    monkeypatch.delenv(SEED_SALT_ENV, raising=False)
    assert seed_salt() == "" and salted("x/y") == "x/y"
    # the seed is the first 4 bytes of sha256 of the identity text (little endian)
    import hashlib
    text = "p/task/ds/1/2"
    assert SPEC.seed == int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")
    assert "seed_salt" not in SPEC.identity
    assert uci.sample_name("page-blocks", 1) == "lesmola2007/uci/page-blocks/replicate 1"


def test_a_salt_changes_every_derived_seed_and_the_identity(monkeypatch):
    monkeypatch.delenv(SEED_SALT_ENV, raising=False)
    plain = (SPEC.seed, seed_from("claim|a|b"), uci.sample_name("page-blocks", 0))
    monkeypatch.setenv(SEED_SALT_ENV, "second")
    salted_ = (SPEC.seed, seed_from("claim|a|b"), uci.sample_name("page-blocks", 0))
    assert all(a != b for a, b in zip(plain, salted_))
    assert uci.sample_name("page-blocks", 0) == "lesmola2007/uci/page-blocks/salt second"
    assert SPEC.identity["seed_salt"] == "second"          # cached apart from unsalted runs
    monkeypatch.setenv(SEED_SALT_ENV, "third")
    assert SPEC.seed not in (plain[0], salted_[0])


def test_a_salted_run_needs_a_directory_of_its_own(tmp_path):
    done = subprocess.run([sys.executable, "-m", "repro", "pahikkala2010.table7", "--quick",
                           "--seed-salt", "s2"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode != 0
    assert "--seed-salt" in done.stderr and "--out DIR" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_run_carries_its_salt_to_a_worker_without_it(monkeypatch, tmp_path):
    """The runner puts the command's salt into each spec; a worker whose environment has no
    salt (a Dask worker started elsewhere) derives the run's seed, its identity and the seeds
    a task draws by text (lesmola2007's UCI samples) as the salted command would."""
    from repro.run import backends
    from repro.run.runner import Runner
    monkeypatch.setenv(SEED_SALT_ENV, "second")
    want = (SPEC.seed, SPEC.identity, uci.sample_name("page-blocks", 0))
    shipped = Runner.__new__(Runner)
    shipped.data_dir = tmp_path
    spec = Runner._shipped(shipped, SPEC)
    assert spec.seed_salt == "second"
    monkeypatch.delenv(SEED_SALT_ENV)                 # the worker's environment
    assert SPEC.seed != want[0]                        # an unsalted spec draws otherwise here
    seen = {}

    def task(ctx):
        seen["seed"] = ctx.spec.seed
        seen["sample"] = uci.sample_name("page-blocks", 0)
        return {}

    res = backends._compute(spec, task, backends.RunContext(spec, tmp_path), 0.0)
    assert res.status == "done", res.why
    assert (seen["seed"], spec.identity, seen["sample"]) == want
    assert seed_salt() == ""                           # the worker's environment restored
