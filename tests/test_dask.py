"""The Dask backend: runs sent to a distributed cluster (a LocalCluster of worker processes
here) give byte-identical records to the local run; a worker that dies mid-run has its run
resubmitted and the artifact completes; only the client writes the cache."""
import json
from dataclasses import replace

import pytest

from repro import papers
from repro.pipeline import Options, run_artifacts
from repro.run.cache import RunCache
from repro.run.runner import Runner

distributed = pytest.importorskip("distributed", reason="the `cluster` extra (dask) is needed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c:
        yield c


pytestmark = pytest.mark.usefixtures("fake_paper")     # conftest: registered, own cache


def records(out, paper="fakepaper"):
    return {p.name: p.read_bytes() for p in sorted((out / paper).glob("table*.json"))
            if not p.name.endswith((".meta.json", ".runs.json"))}     # run times: sidecars


@pytest.mark.slow
def test_dask_records_are_byte_identical_to_local_runs(cluster, tmp_path, monkeypatch):
    arts = [a for a in papers.resolve("fakepaper") if a.name in ("table1", "table4", "table5")]
    quiet = dict(pdf=False, log=lambda *a, **k: None, progress=False)
    run_artifacts(arts, Options(tmp_path, tmp_path / "local", **quiet))
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache2"))     # nothing cached
    run_artifacts(arts, Options(tmp_path, tmp_path / "pool", jobs=2, **quiet))
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache3"))
    run_artifacts(arts, Options(tmp_path, tmp_path / "dask",
                                scheduler=cluster.scheduler_address, **quiet))
    local = records(tmp_path / "local")
    assert {"table1.json", "table4.json", "table5.json"} <= set(local)
    assert records(tmp_path / "pool") == local
    assert records(tmp_path / "dask") == local
    # results came back to the client, which wrote the cache: a rerun computes nothing
    runner = Runner(tmp_path, papers.task, cache_only=True, progress=False,
                    log=lambda *a, **k: None)
    specs = [s for a in arts for s in a.runs()]
    assert all(r.cached for r in runner.run(specs).values())


@pytest.mark.slow
def test_a_worker_dying_mid_run_is_resubmitted(cluster, tmp_path):
    marker = tmp_path / "died"
    art = papers.resolve("fakepaper.table5")[0].replace(
                 params={"sleep": 0.2, "die_once": str(marker)})
    specs = art.runs()
    res = Runner(tmp_path, papers.task, scheduler=cluster.scheduler_address, progress=False,
                 log=lambda *a, **k: None).run(specs)
    assert marker.exists()                                 # one worker did die
    assert [r.status for r in res.values()] == ["done"] * 4
    # the same values as a local run (the marker exists now: nobody dies)
    local = Runner(tmp_path, papers.task, force=True, progress=False,
                   log=lambda *a, **k: None).run(specs)
    assert [r.output for r in res.values()] == [r.output for r in local.values()]
    for r in res.values():                                 # cached by the client, whole
        entry = json.loads(RunCache.entry_path(r.spec, r.key).read_text())
        assert entry["output"] == r.output
