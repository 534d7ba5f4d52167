"""Exceptions of the suite.  Every message names the file, line or argument at fault."""


class ReproError(Exception):
    """Base class of the suite's own errors (the CLI prints them without a traceback)."""


class DataError(ReproError, ValueError):
    """Malformed or inconsistent input data (names the file and line)."""


class DataMissing(ReproError, FileNotFoundError):
    """A dataset (or one of its files) is not in the data directory."""


class DataCorrupt(ReproError, ValueError):
    """A data file does not match its recorded checksum, or cannot be decompressed."""


class Unavailable(ReproError):
    """An optional component (an extra's package) is not installed: its runs are not run."""


class ConvergenceWarning(UserWarning):
    """A solver stopped at its iteration limit before its stopping test held (as
    scikit-learn's ``sklearn.exceptions.ConvergenceWarning``).  The fit goes on with the last
    iterate, and its result's ``status`` says which limit stopped it; nothing computed changes.
    Silence it with ``warnings.filterwarnings("ignore", category=ConvergenceWarning)``."""


#: the status strings of a solver result that mean "an iteration limit stopped it"
AT_LIMIT = ("max_iter", "max_sweeps")


def warn_at_limit(solver: str, status: str, n_iter: int, detail: str = "",
                  stacklevel: int = 3) -> None:
    """Warn :class:`ConvergenceWarning` if ``status`` (a solver result's) is an iteration
    limit (:data:`AT_LIMIT`); ``n_iter``: the iterations it took; ``detail``: what the
    stopping test still missed.  ``stacklevel`` 3 points at the caller of the solver."""
    if status in AT_LIMIT:
        import warnings
        warnings.warn(f"{solver} stopped at {status} ({n_iter} iterations) before its stopping "
                      f"test held{'; ' + detail if detail else ''}: the last iterate is "
                      f"used; raise the limit or loosen the tolerance to converge",
                      ConvergenceWarning, stacklevel=stacklevel)


# --- kernel status codes ------------------------------------------------------------------------
#
# Every kernel (``kernels/*.pyx``) returns an integer: ≥ 0 is its result (0, a count, steps
# done), -1 inconsistent array shapes (nothing written), -2 out of memory; a kernel's own
# failures use other negative codes, which its wrapper names.

SHAPES = -1
NO_MEMORY = -2


def check_status(status, kernel: str, errors=None):
    """Map a kernel's return code to an exception, one convention for every wrapper (as
    scikit-learn's wrappers of its Cython solvers do): a code ≥ 0 is returned; a negative one
    raises ``errors(status)`` if ``errors`` (a function of the code) gives an exception, else
    ``ValueError`` for -1 (inconsistent array shapes: a wrapper bug, as wrappers allocate
    their arrays to match), ``MemoryError`` for -2 and ``RuntimeError`` for any other code.
    A kernel that returns a non-negative float (an objective) signals -1 the same way.
    ``kernel`` names the kernel (``"module.function"``) in the message."""
    if status >= 0:
        return status
    code = int(status)
    exc = errors(code) if errors is not None else None
    if exc is not None:
        raise exc
    if code == SHAPES:
        raise ValueError(f"{kernel}: inconsistent array shapes (internal error)")
    if code == NO_MEMORY:
        raise MemoryError(f"{kernel}: out of memory")
    raise RuntimeError(f"{kernel}: unexpected status {status} (internal error)")
