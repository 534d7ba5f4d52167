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


@pytest.mark.slow
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
    want = load.load_letor("MQ2008", 1, "train", data_root)
    monkeypatch.setattr(letor, "STREAM_BYTES", 0)            # every file streams
    monkeypatch.setattr(letor, "CHUNK_BYTES", 100_000)
    got = load.load_letor("MQ2008", 1, "train", data_root)
    assert_same(got, want)
    assert got.source == want.source
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
        load.load_letor("MQ2008", 1, "train", tmp_path)


# --- one pass, several threads: byte ranges cut at line ends, rows placed by newline counts --

THREADS = (1, 2, 3, 5)


@pytest.mark.slow
@pytest.mark.parametrize("mapped", [True, False])
def test_threads_ranges_and_chunks_give_the_in_memory_arrays(tmp_path, monkeypatch, mapped):
    """Mapped windows (plain files) and read buffers alike, any piece size, any thread count:
    the arrays of the in-memory tokenizer, bit for bit."""
    monkeypatch.setattr(letor, "MIN_RANGE_BYTES", 1)          # split even tiny chunks
    monkeypatch.setattr(letor, "USE_MMAP", mapped)
    rng = np.random.default_rng(17)
    for trial in range(10):
        text = random_file_text(rng)
        p = _file(tmp_path, text)
        want = parse_letor(text, str(p), n_features=40)
        raw = letor.tokenize(text, str(p), n_features=40)
        for threads in THREADS:
            for size in (1, 7, 64, 1000, 1 << 20):
                got = LetorStream(p, chunk_bytes=size, threads=threads).read(n_features=40)
                assert_same(got, want)
                assert np.array_equal(got.y, raw["labels"]) and np.array_equal(got.X, raw["X"])
        assert_same(LetorStream(p, chunk_bytes=50, threads=2).read(), parse_letor(text, str(p)))


def test_a_query_cut_by_range_and_chunk_boundaries_is_one_query(tmp_path, monkeypatch):
    monkeypatch.setattr(letor, "MIN_RANGE_BYTES", 1)
    lines = [f"{i % 3} qid:7 1:{i}.5 2:-{i}e-3\n" for i in range(40)] + ["1 qid:8 1:1\n"]
    text = "".join(lines).encode()
    p = _file(tmp_path, text)
    for threads in THREADS:
        for size in (5, 33, 100, 400):
            d = LetorStream(p, chunk_bytes=size, threads=threads).read(n_features=2)
            assert d.qids.tolist() == [7, 8] and d.query_sizes.tolist() == [40, 1]
            assert d.X[:, 0].tolist() == [i + 0.5 for i in range(40)] + [1.0]


def test_a_qid_reappearing_across_ranges_is_refused_as_in_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(letor, "MIN_RANGE_BYTES", 1)
    lines = ([f"0 qid:1 1:{i}\n" for i in range(20)] + [f"0 qid:2 1:{i}\n" for i in range(20)]
             + [f"0 qid:1 1:{i}\n" for i in range(3)])
    text = "".join(lines).encode()
    p = _file(tmp_path, text)
    with pytest.raises(DataError) as want:
        parse_letor(text, str(p))
    assert "line 41: qid 1 reappears" in str(want.value)
    for threads in THREADS:
        for size in (7, 64, 1 << 16):
            with pytest.raises(DataError) as got:
                LetorStream(p, chunk_bytes=size, threads=threads).read(n_features=1)
            assert str(got.value) == str(want.value)


def test_the_first_error_in_the_file_is_reported_whatever_the_threads(tmp_path, monkeypatch):
    """Two bad lines: the first (a label error, which a first-pass scan would not see) wins
    over a later one (a malformed index) in every range layout, and in memory too."""
    monkeypatch.setattr(letor, "MIN_RANGE_BYTES", 1)
    good = [f"{i % 3} qid:{1 + i // 4} 1:0.{i} 2:{i}\n" for i in range(30)]
    for first, second in ((3, 25), (14, 15), (0, 29)):
        lines = list(good)
        lines[first] = "x qid:1 1:1\n"
        lines[second] = "1 qid:9 -3:1\n"
        text = "".join(lines).encode()
        p = _file(tmp_path, text)
        with pytest.raises(DataError) as want:
            parse_letor(text, str(p))
        assert f"line {first + 1}: label is not a number" in str(want.value)
        for threads in THREADS:
            for size in (13, 80, 1 << 16):
                with pytest.raises(DataError) as got:
                    LetorStream(p, chunk_bytes=size, threads=threads).read(n_features=2)
                assert str(got.value) == str(want.value)


def test_rows_grow_in_place_when_the_estimate_is_short_and_scans_allocate_exactly(
        tmp_path, monkeypatch):
    text = random_file_text(np.random.default_rng(23))
    p = _file(tmp_path, text)
    want = parse_letor(text, str(p), n_features=40)
    monkeypatch.setattr(LetorStream, "_estimate_rows", lambda self, rows, nbytes: 1)
    for threads in (1, 2):
        assert_same(LetorStream(p, chunk_bytes=9, threads=threads).read(n_features=40), want)
    sizes = []
    real = letor._Rows.__init__

    def spy(self, capacity, n_features):
        sizes.append(capacity)
        real(self, capacity, n_features)
    monkeypatch.setattr(letor._Rows, "__init__", spy)
    s = LetorStream(p, chunk_bytes=9)
    s.scan()
    assert_same(s.read(n_features=40), want)
    assert sizes == [want.n_docs]                          # allocated once, exactly


def test_estimate_from_the_first_chunk_leaves_room_and_is_trimmed(tmp_path):
    rows = [f"1 qid:{i // 10} 1:{i}\n" for i in range(5000)]
    p = _file(tmp_path, "".join(rows).encode())
    s = LetorStream(p, chunk_bytes=1000)
    assert s._estimate_rows(50, 1000) >= 1.05 * p.stat().st_size / 1000 * 50
    d = s.read(n_features=1)
    assert d.X.shape == (5000, 1) and d.X.base is None and d.X.flags["OWNDATA"]
    assert d.y.shape == d.line_no.shape == (5000,)


def test_a_file_changed_between_scan_and_read_is_refused(tmp_path):
    p = _file(tmp_path, b"0 qid:1 1:1\n1 qid:1 1:2\n")
    s = LetorStream(p)
    s.scan()
    p.write_bytes(b"0 qid:1 1:1\n1 qid:1 1:2\n0 qid:2 1:3\n")
    with pytest.raises(DataError, match="changed while it was read"):
        s.read(n_features=1)


def test_line_chunks_prefetched_join_to_the_file(tmp_path):
    from concurrent.futures import ThreadPoolExecutor
    rng = np.random.default_rng(29)
    text = b"".join(b"x" * int(rng.integers(0, 90)) + b"\n" for _ in range(300)) + b"tail"
    p = _file(tmp_path, text)
    for size in (1, 2, 7, 50, 333, 1 << 16):
        for prefetch, buffers in ((None, 2), (ThreadPoolExecutor(1), 2),
                                  (ThreadPoolExecutor(1), 3)):
            with open(p, "rb") as fh:
                parts = [bytes(buf[:n]) for buf, n in
                         letor.line_chunks(fh, size, prefetch, buffers=buffers)]
            assert b"".join(parts) == text
            assert all(c.endswith(b"\n") for c in parts[:-1]) and all(parts)


def test_mapped_windows_join_to_the_file(tmp_path):
    import mmap
    rng = np.random.default_rng(31)
    text = b"".join(b"y" * int(rng.integers(0, 9000)) + b"\n" for _ in range(40)) + b"end"
    p = _file(tmp_path, text)
    for size in (1, 100, 4096, 5000, 1 << 20):
        with open(p, "rb") as fh:
            parts = []
            for m, a, b in letor.mapped_windows(fh, size):
                parts.append(m[a:b])
                m.close()
        assert b"".join(parts) == text and all(parts)
        assert all(c.endswith(b"\n") for c in parts[:-1])
    assert mmap.ALLOCATIONGRANULARITY <= 1 << 16
    with open(_file(tmp_path, b"", "empty.txt"), "rb") as fh:
        assert list(letor.mapped_windows(fh, 10)) == []


def test_split_lines_cuts_after_newlines_and_covers_the_range():
    buf = bytearray(b"aa\nbbbb\n\nc\ndddddddd\ne\n")
    for parts in (1, 2, 3, 4, 9):
        for start, stop in ((0, len(buf)), (3, len(buf)), (3, 11)):
            r = letor.split_lines(buf, start, stop, parts, min_bytes=1)
            assert r[0][0] == start and r[-1][1] == stop and len(r) <= parts
            assert all(a < b for a, b in r) and all(b == c for (_, b), (c, _) in zip(r, r[1:]))
            assert all(buf[b - 1:b] == b"\n" for _, b in r[:-1])
    assert letor.split_lines(buf, 0, len(buf), 4, min_bytes=1 << 20) == [(0, len(buf))]
