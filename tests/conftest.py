"""Shared fixtures.  Tests that need real data use ``data_root`` (``$REPRO_DATA_DIR``) and are
skipped, saying so, when it is absent; CI sets it to the verified copies."""
import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Every test session writes its caches, and the key that signs their entries, to fresh
    temporary directories."""
    old = {k: os.environ.get(k) for k in ("REPRO_CACHE_DIR", "XDG_CONFIG_HOME")}
    os.environ["REPRO_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("config"))
    yield
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(scope="session")
def data_root() -> Path:
    root = os.environ.get("REPRO_DATA_DIR")
    if not root or not Path(root).is_dir():
        pytest.skip("REPRO_DATA_DIR is not set to a data directory (CI sets it)")
    # Resolved now: CI passes a relative path and some tests change directory.
    return Path(root).resolve()


def need(data_root: Path, folder: str) -> Path:
    p = data_root / folder
    if not p.is_dir():
        pytest.skip(f"{p} not present")
    return p


@pytest.fixture()
def fake_paper(tmp_path, monkeypatch):
    """``tests/fakepaper.py`` registered as a paper, with a cache of the test's own and its
    execution log cleared (modules use it with ``pytestmark = usefixtures("fake_paper")``)."""
    import fakepaper
    from repro import papers
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    papers.register(fakepaper)
    fakepaper.CALLS.clear()
    yield fakepaper
    papers.unregister("fakepaper")
