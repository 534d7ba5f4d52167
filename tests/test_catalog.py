"""Dataset verification: every file against the catalog's checksums; corruption is refused."""
import lzma
import shutil

import pytest

from repro.data import catalog as cat
from repro.data.load import load_letor
from repro.errors import DataCorrupt, DataMissing


@pytest.mark.slow
def test_available_sets_verify(data_root):
    for name in ["MQ2008", "OHSUMED", "page-blocks", "pendigits", "optdigits", "corel5k",
                 "rcv1-subsets"]:
        st = cat.status(name, data_root)
        assert st.state == "verified", (name, st.detail)


def test_absent_sets_are_missing(data_root):
    for name in ["MQ2007", "TD2003", "HP2004", "MSLR-WEB10K", "MSLR-WEB30K", "Yahoo-set1",
                 "covertype", "eachmovie"]:
        assert cat.status(name, data_root).state == "missing"
    assert cat.status("google-images", data_root).state == "not public"


@pytest.fixture
def corrupted_mq2008(data_root, tmp_path):
    """A copy of MQ2008 whose partition S2 has one byte changed."""
    src = data_root / "MQ2008"
    if not src.is_dir():
        pytest.skip("MQ2008 not present")
    dst = tmp_path / "MQ2008"
    shutil.copytree(src, dst)
    raw = bytearray(lzma.decompress((dst / "S2.txt.xz").read_bytes()))
    raw[1000] = ord("7") if raw[1000] != ord("7") else ord("8")
    (dst / "S2.txt.xz").write_bytes(lzma.compress(bytes(raw)))
    return tmp_path


@pytest.mark.slow
def test_one_corrupt_byte_is_reported_and_refused(corrupted_mq2008):
    st = cat.status("MQ2008", corrupted_mq2008)
    assert st.state == "corrupt"
    assert [f.name for f in st.files if f.state == "corrupt"] == ["S2"]
    with pytest.raises(DataCorrupt, match=r"S2\.txt\.xz: checksum mismatch"):
        load_letor("MQ2008", 1, "train", corrupted_mq2008)   # Fold1 train = S1+S2+S3
    # folds that do not use S2 still load
    assert load_letor("MQ2008", 1, "test", corrupted_mq2008).n_queries == 156


@pytest.mark.slow
def test_truncated_archive_is_corrupt_not_a_crash(corrupted_mq2008):
    p = corrupted_mq2008 / "MQ2008" / "S4.txt.xz"
    p.write_bytes(p.read_bytes()[:1000])
    with pytest.raises(DataCorrupt, match="S4.txt.xz: cannot be decompressed"):
        load_letor("MQ2008", 1, "vali", corrupted_mq2008)


def test_official_fold_layout_is_verified_too(data_root, tmp_path):
    """A user-supplied Fold1..Fold5 folder (here rebuilt from partitions) verifies against
    the recorded fold checksums, and a modified fold file is refused."""
    src = data_root / "OHSUMED"
    if not src.is_dir():
        pytest.skip("OHSUMED not present")
    parts = {f"S{i}": lzma.decompress((src / f"S{i}.txt.xz").read_bytes()) for i in range(1, 6)}
    fold = tmp_path / "OHSUMED" / "Fold1"
    fold.mkdir(parents=True)
    (fold / "trainingset.txt").write_bytes(parts["S1"] + parts["S2"] + parts["S3"])
    (fold / "validationset.txt").write_bytes(parts["S4"])
    (fold / "testset.txt").write_bytes(parts["S5"].replace(b"\n", b"\r\n"))   # CRLF form
    assert load_letor("OHSUMED", 1, "train", tmp_path).n_queries == 63
    assert load_letor("OHSUMED", 1, "test", tmp_path).n_queries == 22
    (fold / "validationset.txt").write_bytes(parts["S4"][:-2] + b"1\n")
    with pytest.raises(DataCorrupt, match="validationset.txt: checksum mismatch"):
        load_letor("OHSUMED", 1, "vali", tmp_path)


def test_missing_dataset_error_says_where_to_get_it(tmp_path):
    with pytest.raises(DataMissing, match="MQ2007: not found .*obtain it from: Microsoft"):
        load_letor("MQ2007", 1, "train", tmp_path)


def test_loading_keeps_no_parsed_copy_that_could_be_edited(data_root, tmp_path, monkeypatch):
    """Every load parses the bytes it verified against the catalog; nothing
    parsed is written beside the cache (where it could be edited with a sidecar to match)."""
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "c"))
    a = load_letor("MQ2008", 2, "test", data_root)
    b = load_letor("MQ2008", 2, "test", data_root)
    assert (a.X == b.X).all() and (a.docids == b.docids).all() and (a.qids == b.qids).all()
    written = [p for p in (tmp_path / "c").rglob("*") if p.is_file()] \
        if (tmp_path / "c").exists() else []
    assert [p for p in written if p.suffix in (".npz", ".sha256")] == []


def test_manifest_composing_a_fold_differently_is_refused(data_root, tmp_path):
    import json
    src = data_root / "MQ2008"
    if not src.is_dir():
        pytest.skip("MQ2008 not present")
    dst = tmp_path / "MQ2008"
    shutil.copytree(src, dst)
    m = json.loads((dst / "MANIFEST.json").read_text())
    m["folds"]["Fold1"]["train"]["partitions"] = ["S2", "S1", "S3"]      # same queries, wrong order
    (dst / "MANIFEST.json").write_text(json.dumps(m))
    with pytest.raises(DataCorrupt, match=r"MANIFEST.json: Fold1 train assembled from "
                                          r"S2.txt.xz \+ S1.txt.xz \+ S3.txt.xz does not equal"):
        load_letor("MQ2008", 1, "train", tmp_path)
    assert load_letor("MQ2008", 1, "test", tmp_path).n_queries == 156


def test_fingerprint_covers_the_manifest(data_root, tmp_path):
    import json

    from repro.data.load import fingerprint
    shutil.copytree(data_root / "OHSUMED", tmp_path / "OHSUMED")
    before = fingerprint("OHSUMED", tmp_path)
    m = json.loads((tmp_path / "OHSUMED" / "MANIFEST.json").read_text())
    m["note"] = "edited"
    (tmp_path / "OHSUMED" / "MANIFEST.json").write_text(json.dumps(m))
    assert fingerprint("OHSUMED", tmp_path) != before


def test_a_damaged_gzip_stream_is_data_corrupt_naming_the_file(tmp_path):
    """A .gz whose deflate stream is damaged raises zlib.error inside gzip: it is reported as
    DataCorrupt naming the file, by whole-file reads and by chunked reads alike."""
    import gzip

    from repro.data.io import iter_line_chunks, read_bytes
    from repro.errors import DataCorrupt
    raw = bytearray(gzip.compress(b"0 qid:1 1:0.5\n" * 2000))
    raw[30:60] = b"\xff" * 30                      # inside the deflate stream
    p = tmp_path / "S1.txt.gz"
    p.write_bytes(bytes(raw))
    with pytest.raises(DataCorrupt, match="S1.txt.gz"):
        read_bytes(p)
    with pytest.raises(DataCorrupt, match="S1.txt.gz"):
        list(iter_line_chunks(p, 1 << 12))
