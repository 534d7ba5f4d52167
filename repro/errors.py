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
