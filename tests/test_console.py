"""The run progress display: plain lines with done/total, elapsed and an estimate when the
output is not a terminal; a live display otherwise."""
import io
import time

from repro.run.progress import RunProgress


def test_plain_lines_when_not_a_terminal():
    buf = io.StringIO()
    with RunProgress(3, workers=1, stream=buf, interval=0) as p:
        p.start("paper/task/data/fold1", queued=True)
        p.start("paper/task/data/fold2", queued=True)
        p.finish("paper/task/data/fold1", "done", 2.0)
        p.finish("paper/task/data/fold2", "failed", 1.0, "ValueError: x")
        assert p.estimate() == 1.5                    # mean 1.5 s × 1 run left / 1 worker
    lines = buf.getvalue().splitlines()
    assert len(lines) == 2                            # one line per finished run, none queued
    assert lines[0].startswith("[1/3] paper/task/data/fold1: done in 2.0 s (elapsed 0:0")
    assert "left)" in lines[0]
    assert lines[1].startswith("[2/3] paper/task/data/fold2: failed in 1.0 s (ValueError: x)")
    assert "\x1b" not in buf.getvalue()               # no terminal control codes


def test_a_periodic_line_names_the_runs_in_progress():
    buf = io.StringIO()
    with RunProgress(3, workers=2, stream=buf, interval=0.05) as p:
        p.start("a", queued=True)
        p.start("b", queued=True)
        p.finish("a", "done", 1.0)
        time.sleep(0.3)
    lines = buf.getvalue().splitlines()
    assert lines[0].startswith("[1/3] a: done")
    assert any(line.startswith("[1/3] in progress: b (elapsed ") for line in lines[1:])


def test_the_estimate_comes_from_the_recorded_durations_and_is_steady():
    """Recorded durations (the last rendering's run times) give an estimate before any run
    finished; runs that go twice as fast as recorded halve it; it does not jump with the
    order in which short and long runs finish."""
    rec = {"long": 100.0, "short1": 1.0, "short2": 1.0, "mid": 10.0}
    p = RunProgress(4, workers=1, stream=io.StringIO(), interval=0, expected=rec,
                    labels=list(rec))
    assert p.estimate() == 112.0
    p.finish("short1", "done", 0.5)                  # twice as fast as recorded
    assert p.estimate() == (100 + 1 + 10) / 2
    p.finish("mid", "done", 5.0)
    assert p.estimate() == (100 + 1) / 2
    # without records: the finished runs' mean
    q = RunProgress(3, workers=1, stream=io.StringIO(), interval=0, labels=["x", "y", "z"])
    assert q.estimate() is None
    q.finish("x", "done", 4.0)
    assert q.estimate() == 8.0


def test_live_display_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True
    buf = Tty()
    with RunProgress(2, workers=2, stream=buf) as p:
        assert p.live
        p.start("a")
        p.start("b")
        assert p._describe() == "now: a (+1 more queued or running)"
        p.finish("a", "done", 1.0)
        p.finish("b", "not run", None, "data missing")
    out = buf.getvalue()
    assert "2/2" in out and "b: not run (data missing)" in out
