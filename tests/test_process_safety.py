"""A bounded pool whose workers end with the command, however the
command ends (SIGKILL, SIGTERM, SIGINT), leaving the cache consistent."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import fakepaper
from repro import papers
from repro.run import backends
from repro.run.backends import MAX_JOBS_PER_CPU, pool_size
from repro.run.runner import Runner

ROOT = Path(__file__).resolve().parents[1]

# A command line on the fake paper whose runs sleep for a minute: `python DRIVER args…`.
DRIVER = """
import sys
sys.path.insert(0, {tests!r})
import fakepaper
from repro import papers
for i, art in enumerate(fakepaper.ARTIFACTS):
    if art.name == "table5":
        fakepaper.ARTIFACTS[i] = art.replace(params=dict(art.layout.params, sleep=60.0))
papers.register(fakepaper)
from repro.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def _children(pid: int) -> list[int]:
    """Live (not zombie) processes whose parent is ``pid``."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.fixture()
def command(tmp_path):
    """Start the sleeping command with ``--jobs 2``; yields (process, its two workers)."""
    script = tmp_path / "driver.py"
    script.write_text(DRIVER.format(tests=str(ROOT / "tests")))
    env = dict(os.environ, REPRO_CACHE_DIR=str(tmp_path / "cache"))
    # SIGINT at its default in the command, as for a command in a terminal: a test runner
    # started in the background (``nohup … &``) passes SIGINT on ignored, and Python then
    # installs no KeyboardInterrupt handler
    proc = subprocess.Popen([sys.executable, str(script), "fakepaper.table5", "--jobs", "2",
                             "--no-pdf", "--data-dir", str(tmp_path), "--out",
                             str(tmp_path / "out")], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    workers = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = _children(proc.pid)
        assert proc.poll() is None, proc.communicate()
    assert len(workers) == 2, "the pool did not start its two workers"
    yield proc, workers
    for pid in [proc.pid, *workers]:           # whatever the test did: nothing left behind
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.communicate()


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_sigkill_of_the_command_ends_its_workers(command):
    proc, workers = command
    proc.kill()
    proc.wait()
    time.sleep(5)
    assert [w for w in workers if _alive(w)] == []


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_and_sigint_stop_the_workers_and_exit(command, tmp_path, sig, code):
    proc, workers = command
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code
    assert "Traceback" not in err and "finished runs are cached" in err
    time.sleep(1)
    assert [w for w in workers if _alive(w)] == []
    cache = tmp_path / "cache"                 # consistent: no temporary or partial entries
    assert not [p for p in cache.rglob("*") if p.name.endswith(".tmp")]
    for entry in cache.rglob("*.json"):
        json.loads(entry.read_text())


def test_pool_is_capped_at_the_runs_and_the_cpus(tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    sizes = []

    class Spy(backends.ProcessPoolExecutor):
        def __init__(self, max_workers=None, *a, **k):
            sizes.append(max_workers)
            super().__init__(max_workers, *a, **k)

    monkeypatch.setattr(backends, "ProcessPoolExecutor", Spy)
    papers.register(fakepaper)
    try:
        specs = papers.resolve("fakepaper.table1")[0].runs()          # 3 runs
        said = []
        res = Runner(tmp_path, papers.task, jobs=100000, progress=False,
                     log=said.append).run(specs)
    finally:
        papers.unregister("fakepaper")
    assert all(r.status == "done" for r in res.values())
    assert sizes == [3]
    assert any("--jobs 100000" in s and "CPU" in s for s in said)
    assert pool_size(100000, 10_000, cpus=2) == 2 * MAX_JOBS_PER_CPU
    assert pool_size(1, 50, cpus=8) == 1 and pool_size(4, 2, cpus=8) == 2


def _pid_and_square(x):
    time.sleep(0.05)
    return os.getpid(), x * x


def _fails_on_two(x):
    if x == 2:
        raise ValueError("two")
    time.sleep(0.05)
    return x


def _queue_workers(pid: int) -> list[int]:
    """Live children of ``pid`` but multiprocessing's resource tracker (started once per
    process by the first pool, it stays)."""
    def tracker(c):
        try:
            return b"resource_tracker" in Path(f"/proc/{c}/cmdline").read_bytes()
        except OSError:                 # it ended meanwhile
            return True
    return [c for c in _children(pid) if _alive(c) and not tracker(c)]


@pytest.mark.parametrize("workers", [1, 2])
def test_process_queue_runs_submitted_calls_and_returns_them_in_order(workers):
    q = backends.ProcessQueue(_pid_and_square, workers)
    for i in range(5):
        q.append(i)
    out = q.results()
    assert [v for _, v in out] == [0, 1, 4, 9, 16] and q.items == list(range(5))
    pids = {p for p, _ in out}
    # one worker: here, at results(); two: in forked processes, started at the first append
    assert (pids == {os.getpid()}) if workers == 1 else (os.getpid() not in pids)
    assert _queue_workers(os.getpid()) == []
    assert q.results() == out                   # asked again: the same results, not recomputed
    q.append(5)                                 # a call after results() runs too
    assert q.results()[:5] == out and q.results()[5][1] == 25


def test_process_queue_failure_stops_its_workers():
    q = backends.ProcessQueue(_fails_on_two, 2)
    for i in range(6):
        q.append(i)
    with pytest.raises(ValueError, match="two"):
        q.results()
    time.sleep(0.5)
    assert _queue_workers(os.getpid()) == []
    q.stop()                                    # already stopped: nothing to do


@pytest.mark.parametrize("workers", [1, 2])
def test_iter_in_processes_yields_in_order_and_leaves_no_worker(workers):
    it = backends.iter_in_processes(_pid_and_square, list(range(5)), workers)
    first = next(it)                            # the first result while the rest go on
    assert first[1] == 0
    out = [first] + list(it)
    assert [v for _, v in out] == [0, 1, 4, 9, 16]
    pids = {p for p, _ in out}
    assert (pids == {os.getpid()}) if workers == 1 else (os.getpid() not in pids)
    assert _queue_workers(os.getpid()) == []


def test_iter_in_processes_stops_its_workers_when_closed_early_or_failing():
    it = backends.iter_in_processes(_pid_and_square, list(range(40)), 2)
    assert next(it)[1] == 0
    it.close()                                  # the caller stopped (its own failure)
    time.sleep(0.5)
    assert _queue_workers(os.getpid()) == []
    with pytest.raises(ValueError, match="two"):
        list(backends.iter_in_processes(_fails_on_two, list(range(6)), 2))
    time.sleep(0.5)
    assert _queue_workers(os.getpid()) == []
