"""Progress of a batch of runs on the terminal: runs done / total, elapsed time, an estimate of
the time left, and the runs in progress.

With a terminal, a live display from ``rich``; otherwise (a pipe, a log file, CI) one plain line
per finished run, and every ``interval`` seconds a line naming the runs in progress, so logs
stay readable.  Messages printed while the display is live go above it.

The estimate adds up the expected seconds of the runs not finished — the durations recorded
for them (the report directory's ``*.runs.json``), scaled by how fast the finished runs went
against theirs; the mean duration of the finished runs for a run without a record — and
divides by the workers.  It moves only as runs finish, and counts down in between.
"""
from __future__ import annotations

import sys
import threading
import time

from ..data.io import printable

#: seconds between two plain "in progress" lines
INTERVAL = 60.0


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class RunProgress:
    """``start(label)`` when a run starts, ``finish(label, status, seconds, why)`` when it ends,
    ``say(text)`` for any other message; use as a context manager.  ``expected``: recorded
    seconds by run label; ``labels``: the labels of the batch's runs (for the estimate)."""

    def __init__(self, total: int, workers: int = 1, stream=None, live: bool | None = None,
                 expected: dict[str, float] | None = None, labels=(),
                 interval: float = INTERVAL):
        self.total, self.workers = total, max(1, workers)
        self.stream = stream or sys.stdout
        self.live = self.stream.isatty() if live is None else live
        self.done = 0
        self.running: list[str] = []
        self.t0 = time.perf_counter()
        self.spent = 0.0
        self.expected = {k: float(v) for k, v in (expected or {}).items()}
        self.left_labels = list(labels)         # runs not finished (when the batch is known)
        self.measured = 0.0                     # seconds of finished runs that had a record
        self.recorded = 0.0                     # ... and their recorded seconds
        self.interval = interval
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker = None
        self._said_at = (None, 0.0)             # (estimate, when it was made)
        self._progress = None
        if self.live:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn)
            self._console = Console(file=self.stream)
            self._progress = Progress(
                TextColumn("[bold]runs"), BarColumn(), MofNCompleteColumn(),
                TextColumn("elapsed"), TimeElapsedColumn(),
                TextColumn("left ≈ {task.fields[left]}"), TextColumn("{task.description}"),
                console=self._console, transient=False)
            self._task = self._progress.add_task("", total=total, left="?")

    def __enter__(self):
        if self._progress is not None:
            self._progress.start()
        if self.interval and self.interval > 0:
            self._ticker = threading.Thread(target=self._tick, name="repro-progress",
                                            daemon=True)
            self._ticker.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self._progress is not None:
            self._progress.stop()
        return False

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            with self._lock:
                if self._progress is not None:
                    self._progress.update(self._task, left=self._left_text())
                elif self.running:
                    self._print(f"[{self.done}/{self.total}] in progress: "
                                f"{self._names(self.running)} (elapsed "
                                f"{_clock(time.perf_counter() - self.t0)}"
                                f"{self._left_text(', about ', ' left')})")

    @staticmethod
    def _names(labels: list[str], most: int = 4) -> str:
        more = f" and {len(labels) - most} more" if len(labels) > most else ""
        return ", ".join(labels[:most]) + more

    def _describe(self) -> str:
        if not self.running:
            return ""
        more = f" (+{len(self.running) - 1} more queued or running)" \
            if len(self.running) > 1 else ""
        return f"now: {self.running[0]}{more}"

    def estimate(self) -> float | None:
        """Seconds left: the expected seconds of the runs not finished (recorded ones scaled
        by the finished runs' actual / recorded time; else the finished runs' mean) / workers;
        None before anything can be said."""
        left = self.total - self.done
        if left <= 0:
            return 0.0
        mean = self.spent / self.done if self.done else None
        pace = self.measured / self.recorded if self.recorded > 0 else 1.0
        pace = min(max(pace, 0.25), 4.0)
        known = [self.expected[k] * pace for k in self.left_labels if k in self.expected]
        unknown = left - len(known)
        if unknown and mean is None:
            if not known:
                return None
            mean = sum(known) / len(known)
        return (sum(known) + unknown * (mean or 0.0)) / self.workers

    def _left_text(self, before: str = "", after: str = "") -> str:
        """The estimate made at the last finished run, counted down since."""
        est, when = self._said_at
        if est is None:
            return "" if before else "?"
        return f"{before}{_clock(max(est - (time.perf_counter() - when), 0.0))}{after}"

    def say(self, text: str) -> None:
        with self._lock:
            self._print(text)

    def _print(self, text: str) -> None:
        if self._progress is not None:
            self._progress.console.print(text, highlight=False, markup=False)
        else:
            print(text, file=self.stream, flush=True)

    def add(self, labels: list[str]) -> None:
        """More runs joined the batch (a follow-up decided on finished runs)."""
        with self._lock:
            self.total += len(labels)
            self.left_labels += list(labels)
            if self._progress is not None:
                self._progress.update(self._task, total=self.total)

    def start(self, label: str, queued: bool = False) -> None:
        """A run started here, or (``queued``) was handed to a pool or cluster."""
        with self._lock:
            self.running.append(label)
            if self._progress is not None:
                self._progress.update(self._task, description=self._describe())

    def finish(self, label: str, status: str, seconds: float | None = None,
               why: str = "") -> None:
        with self._lock:
            if label in self.running:
                self.running.remove(label)
            if label in self.left_labels:
                self.left_labels.remove(label)
            self.done += 1
            self.spent += seconds or 0.0
            if seconds and label in self.expected and self.expected[label] > 0:
                self.measured += seconds
                self.recorded += self.expected[label]
            self._said_at = (self.estimate(), time.perf_counter())
            text = (f"{label}: {status}" + (f" in {seconds:.1f} s" if seconds is not None else "")
                    + (f" ({printable(why, 300)})" if why else ""))
            if self._progress is not None:
                self._progress.update(self._task, advance=1, description=self._describe(),
                                      left=self._left_text())
                if status != "done":
                    self._print(text)
            else:
                left = self._left_text(", about ", " left") if self.done < self.total else ""
                self._print(f"[{self.done}/{self.total}] {text} "
                            f"(elapsed {_clock(time.perf_counter() - self.t0)}{left})")
