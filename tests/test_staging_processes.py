"""The targets judged and staged on the --jobs processes (repro.pipeline.run:
stage_in_processes): the same report files, byte for byte, as one process judging and writing
them one after the other."""
import pytest

from repro.cli.main import main
from repro.pipeline import run as pipeline_run

pytestmark = pytest.mark.usefixtures("fake_paper")


def _files(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_artifacts_staged_on_two_processes_have_the_bytes_of_one(tmp_path, monkeypatch):
    calls = []
    real = pipeline_run.iter_in_processes

    def spy(fn, items, workers):
        calls.append((fn.__name__, len(items), workers))
        return real(fn, items, workers)

    monkeypatch.setattr(pipeline_run, "iter_in_processes", spy)
    two, one = tmp_path / "two", tmp_path / "one"
    args = ["fakepaper", "--data-dir", str(tmp_path), "--no-pdf"]
    assert main(args + ["--jobs", "2", "--out", str(two)]) == 0
    assert main(args + ["--jobs", "1", "--report-only", "--out", str(one)]) == 0
    assert [c[0] for c in calls] == ["_stage_job", "_stage_job"]
    assert calls[0][1] >= 3 and calls[0][2] == 2 and calls[1][2] == 1
    a, b = _files(two), _files(one)
    assert a.keys() == b.keys() and any(k.suffix == ".json" for k in a)
    assert [k for k in a if a[k] != b[k]] == []
