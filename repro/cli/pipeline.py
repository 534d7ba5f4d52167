"""The main command's hand-over to the pipeline (:mod:`repro.pipeline`): its parsed
arguments as the pipeline's :class:`~repro.pipeline.Options`.  ``tasks`` is the pipeline's
task resolver, for the commands that build a run cache of their own (``runs``)."""
from __future__ import annotations

from pathlib import Path

from ..pipeline import Options, Outcome, run_artifacts, tasks  # noqa: F401  (tasks: see above)


def options(args, data_dir: Path, out: Path) -> Options:
    """The pipeline's options from the main command's arguments (``--threads``: as given, else
    the runner's default with ``--jobs 1`` and one thread per run in a pool)."""
    return Options(data_dir, out, quick=args.quick, jobs=args.jobs, force=args.force,
                   report_only=args.report_only, pdf=not args.no_pdf,
                   scheduler=args.scheduler, allow_downgrade=args.allow_downgrade,
                   only_targets=bool(args.on),
                   threads=args.threads if args.threads is not None
                   else (None if args.jobs == 1 else 1))


def run(targets: list, args, data_dir: Path, out: Path) -> Outcome:
    """Run ``targets`` through the pipeline as the main command's arguments ask."""
    return run_artifacts(targets, options(args, data_dir, out))
