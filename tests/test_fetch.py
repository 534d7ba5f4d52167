"""``repro data --fetch`` against a local HTTP server on 127.0.0.1 (started here, in a thread)
serving copies of the verified files: downloads are verified and laid out as the catalog
expects, a corrupted download is refused with nothing left under the real name, archives
are unpacked (gzip) or left with the manual step (.Z), and sets without a public download
get their manual steps."""
import gzip
import http.server
import lzma
import threading
from functools import partial
from pathlib import Path

import pytest

from repro.cli.main import main
from repro.data import catalog as cat
from repro.data.fetch import MIRROR_ENV, fetch

SOURCES = {"pendigits": "uci_pendigits", "optdigits": "uci_optdigits", "corel5k": "corel5k_mulan"}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path):
    """A server on 127.0.0.1 (any free port) over ``tmp_path/srv``; yields (base URL, dir)."""
    srv = tmp_path / "srv"
    srv.mkdir()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(srv)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", srv
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def _serve_real(data_root: Path, srv: Path, name: str) -> dict[str, bytes]:
    """Copies of the verified files of ``name`` (decompressed) under srv/<name>/."""
    (srv / name).mkdir()
    out = {}
    for rel, entry in cat.dataset(name).download.items():
        data = lzma.decompress((data_root / SOURCES[name] / f"{rel}.xz").read_bytes())
        (srv / name / Path(entry["url"]).name).write_bytes(data)
        out[rel] = data
    return out


def test_fetch_downloads_verifies_and_lays_out(data_root, server, tmp_path, capsys):
    base, srv = server
    want = {n: _serve_real(data_root, srv, n) for n in SOURCES}
    root = tmp_path / "data"
    assert main(["data", "--fetch", *SOURCES, "--data-dir", str(root), "--mirror", base]) == 0
    text = capsys.readouterr().out
    for name, files in want.items():
        info = cat.dataset(name)
        for rel, data in files.items():
            assert (root / info.folders[0] / rel).read_bytes() == data
        assert cat.status(name, root).state == "verified"
        assert f"{name}" in text and "FETCHED" in text
    assert not [p for p in root.rglob("*") if p.name.startswith(".")]   # no temporary left
    # a second run finds them and downloads nothing
    for f in srv.rglob("*.*"):
        f.unlink()
    assert main(["data", "--fetch", "pendigits", "--data-dir", str(root), "--mirror", base]) == 0
    assert "already present" in capsys.readouterr().out


def test_corrupted_download_is_refused_naming_the_file(data_root, server, tmp_path, monkeypatch,
                                                       capsys):
    base, srv = server
    _serve_real(data_root, srv, "pendigits")
    bad = srv / "pendigits" / "pendigits.tes"
    raw = bytearray(bad.read_bytes())
    raw[1000] ^= 0x01                                            # one flipped bit
    bad.write_bytes(bytes(raw))
    root = tmp_path / "data"
    monkeypatch.setenv(MIRROR_ENV, base)                          # the variable, not the option
    assert main(["data", "--fetch", "pendigits", "--data-dir", str(root)]) == 1
    text = capsys.readouterr().out
    assert "FAILED" in text and "pendigits.tes" in text and "does not match" in text
    folder = root / "uci_pendigits"
    assert not (folder / "pendigits.tes").exists()
    assert [p.name for p in root.rglob("*") if p.is_file()] == ["pendigits.tra"]  # verified one


def test_content_checked_against_the_catalog_when_the_archive_has_no_checksum(
        server, tmp_path, monkeypatch):
    """covertype: a .gz without a recorded checksum is unpacked; page-blocks: a .Z is kept
    with the manual step; corrupt gzip is refused."""
    base, srv = server
    (srv / "covertype").mkdir()
    text = b"2596,51,3,258,0,510,221,232,148,6279" + b",0" * 44 + b",5\n"
    (srv / "covertype" / "covtype.data.gz").write_bytes(gzip.compress(text))
    (srv / "page-blocks").mkdir()
    (srv / "page-blocks" / "page-blocks.data.Z").write_bytes(b"\x1f\x9d\x90fake lzw")
    root = tmp_path / "data"
    lines = []
    assert fetch(["covertype", "page-blocks"], root, base, out=lines.append) == 0
    out = "\n".join(lines)
    assert (root / "uci_covertype" / "covtype.data").read_bytes() == text
    assert "unverified" in out
    assert (root / "uci_page_blocks" / "page-blocks.data.Z").is_file()
    assert not (root / "uci_page_blocks" / "page-blocks.data").exists()
    assert "gzip -d" in out and "MANUAL" in out
    (root / "uci_covertype" / "covtype.data").unlink()
    (srv / "covertype" / "covtype.data.gz").write_bytes(b"not gzip at all")
    lines.clear()
    assert fetch(["covertype"], root, base, out=lines.append) == 1
    assert "not a valid gzip file" in "\n".join(lines)
    assert not (root / "uci_covertype" / "covtype.data").exists()


@pytest.mark.slow
def test_letor_sets_get_manual_steps_and_what_is_there_is_verified(data_root, tmp_path):
    lines = []
    assert fetch(["MSLR-WEB30K", "MQ2008"], tmp_path, "http://127.0.0.1:9", out=lines.append) == 0
    out = "\n".join(lines)
    assert "MSLR-WEB30K.zip" in out and f"{tmp_path / 'MSLR-WEB30K'}/ holds Fold1/ … Fold5/" in out
    assert "python -m repro data MQ2008" in out
    lines.clear()
    fetch(["MQ2008", "rcv1-subsets"], data_root, out=lines.append)
    out = "\n".join(lines)
    assert "now: verified" in out and "RAR archive" in out


def test_unknown_names_and_missing_names_are_refused(tmp_path, capsys):
    from repro.errors import DataError
    with pytest.raises(DataError, match="unknown dataset"):
        fetch(["nope"], tmp_path)
    with pytest.raises(SystemExit):
        main(["data", "--fetch", "--data-dir", str(tmp_path)])
