"""``--on`` a user's set on a Dask cluster whose worker processes never saw the set registered
(no registration in them, no ``REPRO_USER_DATASETS`` in their environment): each run carries
the set's registration in its specification, and the records equal those of a local run."""
import os

import pytest

from repro.cli import main as cli
from repro.data import catalog as cat
from test_user_data import clean_env, letor_lines, write_folds  # noqa: F401

try:
    import distributed
except ImportError as exc:     # the `test` extra holds it: missing is a failure, not a skip
    raise ImportError("this test needs dask.distributed: pip install -e '.[test]'") from exc


def records(out):
    """The value records of table7 (run times live in the sidecars, not compared)."""
    return (out / "pahikkala2010" / "table7.json").read_bytes()


@pytest.mark.slow
def test_on_a_user_set_runs_on_dask_workers_that_never_saw_it(clean_env, tmp_path):
    user_set = write_folds(tmp_path / "mine", letor_lines())
    args = ["pahikkala2010.table7", "--quick", "--no-pdf", "--dataset", f"mine={user_set}",
            "--on", "mine"]
    clean_env.delenv("REPRO_USER_DATASETS", raising=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert set(client.run(os.environ.get, "REPRO_USER_DATASETS").values()) == {None}
        assert list(client.run(cat.user_datasets).values()) == [{}, {}]
        clean_env.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache-local"))
        assert cli.main(args + ["--out", str(tmp_path / "local")]) == 0
        clean_env.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache-dask"))     # nothing cached
        assert cli.main(args + ["--out", str(tmp_path / "dask"),
                                "--scheduler", cluster.scheduler_address]) == 0
        # the runs were computed on the workers, which registered the set from the specs
        registered = client.run(cat.user_datasets).values()
        assert any(d.get("mine") and d["mine"].folders == (str(user_set),) for d in registered)
        assert set(client.run(os.environ.get, "REPRO_USER_DATASETS").values()) == {None}
    local = records(tmp_path / "local")
    assert b'"user data: mine (unverified)"' in local and b'"value": null' not in local
    assert records(tmp_path / "dask") == local
