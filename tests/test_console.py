"""The run progress display: plain lines with done/total, elapsed and an estimate when the
output is not a terminal; a live display otherwise."""
import io

from repro.run.progress import RunProgress


def test_plain_lines_when_not_a_terminal():
    buf = io.StringIO()
    with RunProgress(3, workers=1, stream=buf) as p:
        p.start("paper/task/data/fold1")
        p.finish("paper/task/data/fold1", "done", 2.0)
        p.start("paper/task/data/fold2")
        p.finish("paper/task/data/fold2", "failed", 1.0, "ValueError: x")
        assert p.estimate() == 1.5                    # mean 1.5 s × 1 run left / 1 worker
    lines = buf.getvalue().splitlines()
    assert lines[0] == "[0/3] started paper/task/data/fold1"
    assert lines[1].startswith("[1/3] paper/task/data/fold1: done in 2.0 s (elapsed 0:0")
    assert "left)" in lines[1]
    assert lines[3].startswith("[2/3] paper/task/data/fold2: failed in 1.0 s (ValueError: x)")
    assert "\x1b" not in buf.getvalue()               # no terminal control codes


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
