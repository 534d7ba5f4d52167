"""repro-rank: reproductions of five learning-to-rank papers (see README.md)."""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("repro-rank")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
