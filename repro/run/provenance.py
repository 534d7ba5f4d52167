"""Where a report comes from: the package's commit, whether its sources had local changes, the
commit's date, and the machine — decided once per process, before anything is written.

The commit is read from the git work tree that contains the package's own source files (not
from the current directory: run from another repository, a report still names this one): the
last commit that changed anything outside the rendered reports, so that committing rendered
reports does not change what a rerun renders.
"Local changes" counts only changes to tracked files outside the rendered reports
(``reports/``, ``reports-quick/``), so re-rendering reports never marks a clean checkout dirty.
An installed copy without git metadata is "unknown (not a git checkout)".

Pages show the commit's date, not the time of rendering, so the same command on the same
commit renders the same bytes; render times live in the sidecar metadata files.
"""
from __future__ import annotations

import os
import platform
import subprocess
from functools import lru_cache
from pathlib import Path

import numpy as np

from .. import __version__

PACKAGE_DIR = Path(__file__).resolve().parents[1]
REPORT_DIRS = ("reports", "reports-quick")


def _git(*args: str, cwd: Path) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                             timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.rstrip("\n") if out.returncode == 0 else None


@lru_cache(maxsize=None)
def source_state(package_dir: Path = PACKAGE_DIR) -> dict:
    """``{"commit", "short", "dirty", "date"}`` of the work tree holding ``package_dir``."""
    top = _git("rev-parse", "--show-toplevel", cwd=package_dir)
    if top is None:
        return {"commit": None, "short": "unknown (not a git checkout)", "dirty": False,
                "date": None}
    top_path = Path(top)
    # the last commit that changed anything outside the rendered reports: committing
    # rendered reports does not change the commit the pages name (a cached rerun after it
    # renders the same bytes)
    last = _git("log", "-1", "--format=%H%n%cs", "--", ".",
                *(f":(exclude){d}" for d in REPORT_DIRS), cwd=top_path)
    sha, date = (last.split("\n") + [None])[:2] if last else ("", None)
    status = _git("status", "--porcelain", "--untracked-files=no", cwd=top_path) or ""
    changed = [line[3:] for line in status.splitlines() if line.strip()]
    dirty = any(not p.split(" -> ")[-1].startswith(tuple(d + "/" for d in REPORT_DIRS))
                for p in changed)
    return {"commit": sha or None, "short": (sha[:12] + ("+local changes" if dirty else ""))
            if sha else "unknown (no commit)", "dirty": dirty, "date": date}


@lru_cache(maxsize=1)
def blas() -> str:
    """The BLAS libraries this process uses and the kernel each picked for this CPU (OpenBLAS
    picks one per CPU; ``OPENBLAS_CORETYPE`` overrides it): "OpenBLAS 0.3.31 (SkylakeX) for
    numpy; OpenBLAS 0.3.30 (SkylakeX) for scipy".  numpy and scipy each load their own copy,
    and ``threadpool_info`` lists them in an order that follows the process's hash seed, so
    they are named by the package that loaded them, numpy's first (the same string in every
    process).  Results of numerically sensitive methods can depend on it (``python -m repro
    stability`` measures how much)."""
    try:
        import scipy.linalg  # noqa: F401  (loads scipy's copy: the answer must not depend on
        from threadpoolctl import threadpool_info   # whether this process imported it yet)
        libs = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    except Exception:                       # threadpoolctl missing or failing: say so
        return "unknown"
    if not libs:
        return "none found"
    named = sorted({(_loaded_by(i.get("filepath") or ""), _blas_words(i)) for i in libs},
                   key=lambda ow: (ow[0] != "numpy", ow))
    if len(named) == 1:
        return named[0][1]
    return "; ".join(f"{w} for {o}" if o else w for o, w in named)


def _loaded_by(path: str) -> str:
    """The package whose bundled libraries folder holds a library ("numpy" for
    ``…/numpy.libs/libscipy_openblas64_….so``), else ""."""
    for part in reversed(Path(path).parts[:-1]):
        if part.endswith(".libs"):
            return part[:-len(".libs")]
    return ""


def _blas_words(i: dict) -> str:
    name = {"openblas": "OpenBLAS", "mkl": "MKL", "blis": "BLIS"}.get(i.get("internal_api"),
                                                                      i.get("internal_api"))
    arch = i.get("architecture")
    return f"{name} {i.get('version')}" + (f" ({arch})" if arch else "")


def machine() -> dict:
    """The machine a report was rendered (or a benchmark run) on."""
    return {"platform": f"{platform.system()} {platform.machine()}",
            "cpus": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "blas": blas(),
            "processor": platform.processor() or platform.machine()}


def provenance() -> dict:
    """Everything a page states about its origin (deterministic for a commit and machine)."""
    return {"version": __version__, **source_state(), "machine": machine()}


def describe(p: dict | None = None, short: bool = False) -> str:
    """One line for a page: version, commit, commit date, machine (``short``: the PDF
    footer's form, without the Python and NumPy versions)."""
    p = p or provenance()
    m = p["machine"]
    date = f" of {p['date']}" if p.get("date") else ""
    if short:
        return (f"repro-rank {p['version']}, commit {p['short']}{date} · {m['platform']}, "
                f"{m['cpus']} CPUs")
    return (f"repro-rank {p['version']}, commit {p['short']}{date}; rendered on {m['platform']}"
            f" ({m['cpus']} CPUs), Python {m['python']}, NumPy {m['numpy']}"
            + (f", {m['blas']}" if m.get("blas") else ""))
