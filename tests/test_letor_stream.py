"""The streaming LETOR parse (chunks cut at line boundaries, filled at their row offsets)
against the in-memory parse: the same arrays bit for bit and the same error messages, with
chunk boundaries everywhere."""
import gzip
import hashlib
import lzma

import numpy as np
import pytest

from repro.data import letor
from repro.data.io import checksum, file_checksums, iter_line_chunks
from repro.data.letor import LetorStream, parse_letor, read_letor
from repro.errors import DataError
from test_letor import random_letor

CHUNKS = (1, 2, 3, 7, 19, 64, 1000, 1 << 20)


def assert_same(a, b):
    for name in ("X", "y", "query_ptr", "qids", "line_no"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert np.array_equal(x.view(np.uint8), y.view(np.uint8)), name   # bit for bit
    assert (a.docids is None) == (b.docids is None)
    if a.docids is not None:
        assert a.docids.tolist() == b.docids.tolist()


def _file(tmp_path, text: bytes, name="f.txt"):
    p = tmp_path / name
    p.write_bytes(text)
    return p


def random_file_text(rng) -> bytes:
    """random_letor's documents, with comment lines and blank lines interleaved."""
    lines = random_letor(rng, int(rng.integers(1, 8))).splitlines(keepends=True)
    out = []
    for line in lines:
        r = rng.random()
        if r < 0.1:
            out.append("# a comment line\r\n")
        elif r < 0.2:
            out.append("   \n")
        out.append(line)
    text = "".join(out)
    if rng.random() < 0.3:
        text = text.rstrip("\r\n")                 # last line without a newline
    return text.encode()


def test_chunks_are_cut_after_newlines_and_join_to_the_file(tmp_path):
    text = b"a\r\nbb\n\nccc dd\nlast"
    p = _file(tmp_path, text)
    for size in CHUNKS:
        chunks = list(iter_line_chunks(p, size))
        assert b"".join(chunks) == text
        assert all(c.endswith(b"\n") for c in chunks[:-1])


def test_stream_equals_in_memory_parse_bit_for_bit(tmp_path):
    rng = np.random.default_rng(3)
    for trial in range(25):
        text = random_file_text(rng)
        p = _file(tmp_path, text)
        want = parse_letor(text, str(p), n_features=40)
        for size in CHUNKS[: 4 + trial % 5]:
            assert_same(LetorStream(p, chunk_bytes=size).read(n_features=40), want)
        assert_same(LetorStream(p, chunk_bytes=5).read(), parse_letor(text, str(p)))


def test_compressed_files_stream_the_same(tmp_path):
    text = random_file_text(np.random.default_rng(5))
    plain = _file(tmp_path, text)
    _file(tmp_path, gzip.compress(text), "f.txt.gz")
    _file(tmp_path, lzma.compress(text), "f.txt.xz")
    want = read_letor(plain, stream=False)
    for name in ("f.txt.gz", "f.txt.xz"):
        got = LetorStream(tmp_path / name, chunk_bytes=11, source=str(plain)).read()
        assert_same(got, want)


@pytest.mark.parametrize("line", [
    "1 qid:3 4:0.5 4:0.6", "1 qid:3 4:nan", "1 qid:3 4:1e400", "x qid:3 4:0.5", "1 4:0.5",
    "1 qid:a 4:0.5", "1 qid:3 0:0.5", "1 qid:3 -2:0.5", "1 qid:3 junk", "1 qid:3 50:1",
])
def test_errors_name_the_same_file_line_and_token(tmp_path, line):
    good = [f"{i % 3} qid:{1 + i // 4} 1:0.{i} 2:{i}\r\n" for i in range(23)]
    for at in (0, 5, 22):
        lines = good[:at] + ["# comment\n", f"{line} #docid = bad\r\n"] + good[at:]
        text = "".join(lines).encode()
        p = _file(tmp_path, text)
        with pytest.raises(DataError) as want:
            parse_letor(text, str(p), n_features=40)
        assert f", line {at + 2}:" in str(want.value)
        for size in (1, 13, 80, 1 << 16):
            with pytest.raises(DataError) as got:
                LetorStream(p, chunk_bytes=size).read(n_features=40)
            assert str(got.value) == str(want.value)


def test_qid_reappearing_and_empty_files_as_in_memory(tmp_path):
    for text in (b"0 qid:1 1:0\n0 qid:2 1:0\n1 qid:1 1:1\n", b"\n# only a comment\n", b""):
        p = _file(tmp_path, text)
        with pytest.raises(DataError) as want:
            parse_letor(text, str(p))
        with pytest.raises(DataError) as got:
            LetorStream(p, chunk_bytes=4).read()
        assert str(got.value) == str(want.value)


def test_scan_checksums_are_those_of_the_content(tmp_path):
    text = random_file_text(np.random.default_rng(9))
    p = _file(tmp_path, text)
    whole = hashlib.sha256()
    s = LetorStream(p, chunk_bytes=17)
    digests = s.scan(kinds=("sha256", "gitblob"), extra_hashers=[whole])
    assert digests == {"sha256": checksum(text, "sha256"), "gitblob": checksum(text, "gitblob")}
    assert whole.hexdigest() == hashlib.sha256(text).hexdigest()
    xz = _file(tmp_path, lzma.compress(text), "f.txt.xz")
    assert file_checksums(xz, ("sha256", "gitblob"), chunk_bytes=7) == digests


def test_read_letor_streams_large_files(tmp_path, monkeypatch):
    text = random_file_text(np.random.default_rng(11))
    p = _file(tmp_path, text)
    calls = []
    real = LetorStream.read

    def spy(self, n_features=None):
        calls.append(self.chunk_bytes)
        return real(self, n_features)
    monkeypatch.setattr(LetorStream, "read", spy)
    monkeypatch.setattr(letor, "STREAM_BYTES", len(text) - 1)
    monkeypatch.setattr(letor, "CHUNK_BYTES", 9)
    assert_same(read_letor(p), parse_letor(text, str(p)))
    assert calls == [9]
    monkeypatch.setattr(letor, "STREAM_BYTES", len(text))
    read_letor(p)
    assert calls == [9]                             # at the threshold: in memory


def test_loader_streams_large_files_with_the_same_result_and_checks(data_root, tmp_path,
                                                                     monkeypatch):
    from repro.data import load
    from repro.errors import DataCorrupt
    want = load.load_letor("MQ2008", 1, "train", data_root, use_cache=False)
    monkeypatch.setattr(letor, "STREAM_BYTES", 0)            # every file streams
    monkeypatch.setattr(letor, "CHUNK_BYTES", 100_000)
    got = load.load_letor("MQ2008", 1, "train", data_root, use_cache=False)
    assert_same(got, want)
    assert got.source == want.source
    for _ in range(2):                                       # parsed, then from the parse cache
        assert_same(load.load_letor("MQ2008", 1, "train", data_root), want)
    # a partition with one changed byte is refused, naming it, before anything is filled
    folder = tmp_path / "MQ2008"
    folder.mkdir()
    for f in (data_root / "MQ2008").iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    raw = bytearray(lzma.decompress((folder / "S2.txt.xz").read_bytes()))
    raw[100] = ord("7") if raw[100] != ord("7") else ord("8")
    (folder / "S2.txt.xz").unlink()
    (folder / "S2.txt").write_bytes(bytes(raw))
    with pytest.raises(DataCorrupt, match=r"S2\.txt: checksum mismatch .*refusing to load it"):
        load.load_letor("MQ2008", 1, "train", tmp_path, use_cache=False)
