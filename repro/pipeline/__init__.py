"""The pipeline: from declared artifacts to their report files, in named steps over one
:class:`Options`.  The command line parses its arguments into them and calls
:func:`run_artifacts`; nothing here parses arguments or prints an exit status.

1. **plan** (:mod:`.plan`): the runs of the targets; under ``--quick`` the fold view an
   artifact can show; a user's set in place of a paper's (``--on``: :mod:`.user_data`);
2. **execute** (:mod:`.execute`): the runner over those runs (cache, pool, Dask), or one run
   in this process with a score sink (the ``runs`` command);
3. **stage** (:mod:`.stage`): the finished runs judged into an artifact's values
   (:func:`repro.judge.assemble.assemble_artifact`) and written into a staging directory
   outside the report (:mod:`.staging`);
4. **promote** (:mod:`.promote`): the downgrade policy (a build that would lose computed
   values or put ``--quick`` over a full run keeps the report's files) and the move of what
   changed into place;
5. **render** (:mod:`.render`): the papers' pages, the index and their PDFs (a queue on the
   ``--jobs`` processes), and the lines that say what was written.

:mod:`.run` runs the steps in order; :class:`Outcome` is what the command reports.
"""
import importlib

#: what the package offers, by module; imported when first asked for (the command line's
#: guards use :mod:`.staging` before any run, and must stay light)
_EXPORTS = {"Options": "options", "Outcome": "outcome", "run_artifacts": "run",
            "build_artifact": "stage", "tasks": "execute", "execute_with_sink": "execute"}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
