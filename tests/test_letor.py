"""The LETOR tokenizer kernel against a plain-Python parse, its error messages, and the real
MQ2008 / OHSUMED folds."""
import json

import numpy as np
import pytest

from repro.data.letor import parse_letor, tokenize
from repro.data.load import load_letor
from repro.errors import DataError
from reference_letor import parse_text as python_parse


def random_letor(rng, n_queries=6):
    fmts = ["{:.6f}", "{:.17g}", "{:.3e}", "{:g}", "{:.1f}", "{:.25f}"]
    lines = []
    for q in rng.permutation(10**6)[:n_queries]:
        for d in range(int(rng.integers(1, 6))):
            feats = sorted(rng.choice(np.arange(1, 30), int(rng.integers(0, 8)), replace=False))
            vals = [fmts[int(rng.integers(len(fmts)))].format(rng.normal() * 10.0 ** rng.integers(-8, 8))
                    for _ in feats]
            sep = " " if rng.random() < 0.7 else "\t"
            toks = [str(int(rng.integers(0, 5))), f"qid:{q}"] + [f"{f}:{v}" for f, v in zip(feats, vals)]
            line = sep.join(toks)
            if rng.random() < 0.6:
                line += f" #docid = D{q}-{d} inc = 1 prob = 0.5"
            lines.append(line + ("\r\n" if rng.random() < 0.5 else "\n"))
    return "".join(lines)


@pytest.mark.slow
def test_tokenizer_equals_python_parse_bit_for_bit():
    rng = np.random.default_rng(0)
    for _ in range(50):
        text = random_letor(rng)
        X, y, qid, docid = python_parse(text)
        d = parse_letor(text.encode(), "random", n_features=max(X.shape[1], 1))
        assert np.array_equal(d.X[:, :X.shape[1]], X)
        assert np.array_equal(d.y, y)
        assert np.array_equal(d.qid_per_doc, qid)
        assert [s if s else "" for s in (d.docids if d.docids is not None else [""] * len(y))] == docid


def test_csr_mode_matches_dense_mode():
    rng = np.random.default_rng(1)
    text = random_letor(rng, 20).encode()
    dense = tokenize(text, n_features=40)
    csr = tokenize(text, n_features=40, dense=False)
    import scipy.sparse as sp
    M = sp.csr_matrix((csr["data"], csr["indices"], csr["indptr"]), shape=(dense["X"].shape))
    assert np.array_equal(M.toarray(), dense["X"])


@pytest.mark.parametrize("line,message", [
    ("1 qid:3 4:0.5 4:0.6", "repeated"),
    ("1 qid:3 4:nan", "not a finite decimal"),
    ("1 qid:3 4:inf", "not a finite decimal"),
    ("1 qid:3 4:0.5x", "not a finite decimal"),
    ("1 qid:3 4:1e400", "not a finite decimal"),
    ("1e400 qid:3 4:1", "label is not a number"),
    ("x qid:3 4:0.5", "label is not a number"),
    ("1 4:0.5", "no qid"),
    ("1 qid:a 4:0.5", "malformed qid"),
    ("1 qid:3 0:0.5", "malformed feature index"),
    ("1 qid:3 -2:0.5", "malformed feature index"),
    ("1 qid:3 junk", "not of the form"),
])
def test_malformed_lines_name_the_line(line, message):
    text = f"0 qid:3 1:0.1 #docid = ok\n\n{line} #docid = bad\n".encode()
    with pytest.raises(DataError, match=rf"myfile, line 3: .*{message}"):
        parse_letor(text, "myfile")


def test_qid_reappearing_after_another_query_is_refused():
    text = b"0 qid:1 1:0\n0 qid:2 1:0\n1 qid:1 1:1\n"
    with pytest.raises(DataError, match=r"line 3: qid 1 reappears .*line 1"):
        parse_letor(text, "f")


def test_feature_index_beyond_declared_width_is_refused_with_its_line():
    with pytest.raises(DataError, match=r"f, line 2: feature index larger than the number of "
                                        r"features \(3\)"):
        parse_letor(b"0 qid:1 2:1\n0 qid:1 7:1\n", "f", n_features=3)


def test_long_and_extreme_numbers_round_trip():
    vals = ["0." + "1" * 300, "1e-320", "1.7976931348623157e308", "-0.0", "+3."]
    d = parse_letor(("0 qid:1 " + " ".join(f"{i + 1}:{v}" for i, v in enumerate(vals))).encode())
    assert d.X[0].tolist() == [float(v) for v in vals]


def test_empty_file_is_refused():
    with pytest.raises(DataError, match="no data lines"):
        parse_letor(b"\n# only a comment\n", "f")


def test_one_document_queries_and_missing_features():
    d = parse_letor(b"2 qid:5 3:1.5\n0 qid:6\n1 qid:6 1:2\n", "f")
    assert d.n_queries == 2 and list(d.query_sizes) == [1, 2]
    assert d.X.tolist() == [[0, 0, 1.5], [0, 0, 0], [2, 0, 0]]


def _manifest(data_root, name):
    return json.loads((data_root / name / "MANIFEST.json").read_text())


@pytest.mark.parametrize("name", ["MQ2008", "OHSUMED"])
def test_real_folds_have_manifest_counts(data_root, name):
    m = _manifest(data_root, name)
    for fold in (1, 3):
        for split in ("train", "vali", "test"):
            d = load_letor(name, fold, split, data_root)
            want = m["folds"][f"Fold{fold}"][split]
            assert (d.n_docs, d.n_queries, d.n_features) == (want["docs"], want["queries"], m["features"])
            labels, counts = np.unique(d.y, return_counts=True)
            assert {str(int(l)): int(c) for l, c in zip(labels, counts)} == want["label_counts"]


def test_mq2008_fold1_train(data_root):
    d = load_letor("MQ2008", 1, "train", data_root)
    assert (d.n_docs, d.n_queries, d.n_features) == (9630, 471, 46)
    assert d.X.flags["C_CONTIGUOUS"] and d.X.dtype == np.float64
    assert d.docids[0] == "GX008-86-4444840" and d.qids[0] == 10002


def test_plain_xz_and_gz_files_read_the_same(tmp_path):
    import gzip
    import lzma

    from repro.data.letor import read_letor
    text = b"2 qid:1 1:0.5 2:1 #docid = a\r\n0 qid:1 2:0.25 #docid = b\r\n1 qid:4 1:3\r\n"
    (tmp_path / "f.txt").write_bytes(text)
    (tmp_path / "f.txt.gz").write_bytes(gzip.compress(text))
    (tmp_path / "f.txt.xz").write_bytes(lzma.compress(text))
    a, b, c = (read_letor(tmp_path / n) for n in ("f.txt", "f.txt.gz", "f.txt.xz"))
    assert np.array_equal(a.X, b.X) and np.array_equal(a.X, c.X)
    assert list(a.docids) == ["a", "b", ""] and list(a.query_sizes) == [2, 1]
    (tmp_path / "bad.txt.gz").write_bytes(b"not gzip")
    from repro.errors import DataCorrupt
    with pytest.raises(DataCorrupt, match="bad.txt.gz: cannot be decompressed"):
        read_letor(tmp_path / "bad.txt.gz")
