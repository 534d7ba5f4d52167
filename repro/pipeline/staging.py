"""Where the pipeline builds an artifact before it is moved into the report: a directory
outside the report (nothing of it is ever seen there, even after a SIGKILL; the next command
removes what a killed one left: :func:`repro.cli.guards.clean_stale_staging`), and the
package's own committed reports (whose recorded run times estimate a fresh ``--out``'s)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

#: the committed reports of the package (a checkout's ``reports/``)
PACKAGE_REPORTS = Path(__file__).resolve().parents[2] / "reports"
STAGING_PREFIX = "repro-staging-"


def staging_dir(base: Path | None = None, prefix: str = STAGING_PREFIX) -> Path:
    """A new staging directory in ``base`` (the temporary directory by default) whose name
    carries this process's id."""
    return Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=base))
