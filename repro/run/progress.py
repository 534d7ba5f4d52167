"""Progress of a batch of runs on the terminal: runs done / total, elapsed time, an estimate of
the time left, and the runs in progress.

With a terminal, a live display from ``rich``; otherwise (a pipe, a log file, CI) one plain line
per event, so logs stay readable.  Messages printed while the display is live go above it.
"""
from __future__ import annotations

import sys
import time

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

from ..data.io import printable


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class RunProgress:
    """``start(label)`` when a run starts, ``finish(label, status, seconds, why)`` when it ends,
    ``say(text)`` for any other message; use as a context manager."""

    def __init__(self, total: int, workers: int = 1, stream=None, live: bool | None = None):
        self.total, self.workers = total, max(1, workers)
        self.stream = stream or sys.stdout
        self.live = self.stream.isatty() if live is None else live
        self.done = 0
        self.running: list[str] = []
        self.t0 = time.perf_counter()
        self.spent = 0.0
        self._progress = None
        if self.live:
            self._console = Console(file=self.stream)
            self._progress = Progress(
                TextColumn("[bold]runs"), BarColumn(), MofNCompleteColumn(),
                TextColumn("elapsed"), TimeElapsedColumn(), TextColumn("left ≈"),
                TimeRemainingColumn(), TextColumn("{task.description}"),
                console=self._console, transient=False)
            self._task = self._progress.add_task("", total=total)

    def __enter__(self):
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc):
        if self._progress is not None:
            self._progress.stop()
        return False

    def _describe(self) -> str:
        if not self.running:
            return ""
        more = f" (+{len(self.running) - 1} more queued or running)" \
            if len(self.running) > 1 else ""
        return f"now: {self.running[0]}{more}"

    def estimate(self) -> float | None:
        """Seconds left: the mean time of the finished runs × the runs left / workers."""
        if not self.done:
            return None
        return self.spent / self.done * (self.total - self.done) / self.workers

    def say(self, text: str) -> None:
        if self._progress is not None:
            self._progress.console.print(text, highlight=False, markup=False)
        else:
            print(text, file=self.stream, flush=True)

    def start(self, label: str, queued: bool = False) -> None:
        """A run started here, or (``queued``) was handed to a pool or cluster."""
        self.running.append(label)
        if self._progress is not None:
            self._progress.update(self._task, description=self._describe())
        else:
            self.say(f"[{self.done}/{self.total}] {'queued' if queued else 'started'} {label}")

    def finish(self, label: str, status: str, seconds: float | None = None,
               why: str = "") -> None:
        if label in self.running:
            self.running.remove(label)
        self.done += 1
        self.spent += seconds or 0.0
        text = (f"{label}: {status}" + (f" in {seconds:.1f} s" if seconds is not None else "")
                + (f" ({printable(why, 300)})" if why else ""))
        if self._progress is not None:
            self._progress.update(self._task, advance=1, description=self._describe())
            if status != "done":
                self.say(text)
        else:
            est = self.estimate()
            left = f", about {_clock(est)} left" if est is not None and self.done < self.total else ""
            self.say(f"[{self.done}/{self.total}] {text} "
                     f"(elapsed {_clock(time.perf_counter() - self.t0)}{left})")
