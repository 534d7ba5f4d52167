"""The one label contract of the suite: relevance labels are finite, non-negative integers
(LETOR grades, class indices, counts).  The loaders, every ranker's ``fit`` and ``repro eval``
enforce it through :func:`check_labels`, and each refusal names the file and line when the
labels came from a file, else the document.  A ranker that accepts other labels says so with
the class attribute ``label_contract = "real"`` (finite reals) and documents why."""
from __future__ import annotations

import numpy as np

from ..errors import DataError

CONTRACTS = ("non-negative integer", "real")


def first_bad_label(y: np.ndarray, contract: str = "non-negative integer") -> tuple[int, str] | None:
    """``(index, what)`` of the first label breaking ``contract``, or None."""
    if contract not in CONTRACTS:
        raise ValueError(f"label contract: expected one of {CONTRACTS}, got {contract!r}")
    y = np.asarray(y, dtype=np.float64)
    bad = ~np.isfinite(y)
    if contract == "non-negative integer":
        with np.errstate(invalid="ignore"):
            bad |= (y < 0) | (y != np.floor(y))
    if not bad.any():
        return None
    i = int(np.flatnonzero(bad)[0])
    v = y[i]
    what = ("is not finite" if not np.isfinite(v) else "is negative" if v < 0
            else "is not an integer")
    return i, what


def check_labels(y, where: str = "y", line_no=None, contract: str = "non-negative integer",
                 ) -> np.ndarray:
    """``y`` as float64, or a :class:`DataError`: "<where>, line N: label 1.5 is not an
    integer (relevance labels are non-negative integers)" — ``line_no`` (one per label) gives
    the file's line numbers; without it the document index is named."""
    y = np.asarray(y, dtype=np.float64)
    hit = first_bad_label(y, contract)
    if hit is None:
        return y
    i, what = hit
    at = f"line {int(line_no[i])}" if line_no is not None else f"document {i}"
    rule = ("relevance labels are non-negative integers" if contract == "non-negative integer"
            else "labels must be finite")
    raise DataError(f"{where}, {at}: label {y[i]:g} {what} ({rule})")
