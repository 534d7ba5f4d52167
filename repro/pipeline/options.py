"""What a pipeline run is asked to do: one object instead of a dozen arguments."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable


@dataclass(frozen=True)
class Options:
    """The options of :func:`repro.pipeline.run_artifacts`.

    ``data_dir``: where the data is; ``out_root``: the report directory; ``quick``: the
    artifacts' small grids and folds; ``jobs``: processes of the pool (also the PDF queue's);
    ``force``: recompute cached runs; ``report_only``: use cached runs only; ``pdf``: render
    PDFs; ``log``: where progress and results are said; ``scheduler``: a Dask scheduler's
    address; ``progress``: the progress display (None: when the output is a terminal);
    ``allow_downgrade``: let a build replace computed values with "not run" or a full run
    with a ``--quick`` one; ``only_targets``: build the targets alone, without published
    values (a run on a user's data, ``--on``); ``threads``: threads of a large fit run alone
    (None: the runner's default)."""
    data_dir: Path
    out_root: Path
    quick: bool = False
    jobs: int = 1
    force: bool = False
    report_only: bool = False
    pdf: bool = True
    log: Callable = field(default=print, compare=False)
    scheduler: str | None = None
    progress: bool | None = None
    allow_downgrade: bool = False
    only_targets: bool = False
    threads: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "out_root", Path(self.out_root))
