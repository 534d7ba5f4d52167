"""UCI, svmlight multi-label and sparse ARFF readers: counts from the manifests, and errors."""
import numpy as np
import pytest

from repro.data.multilabel import (load_corel5k, load_rcv1_subset, parse_sparse_arff,
                                   parse_svmlight_multilabel)
from repro.data.uci import load_uci, parse_table
from repro.errors import DataError


def test_uci_sets(data_root):
    pb = load_uci("page-blocks", data_root)["all"]
    assert pb.X.shape == (5473, 10)
    assert np.bincount(pb.y)[1:].tolist() == [4913, 329, 28, 88, 115]
    pen = load_uci("pendigits", data_root)
    assert pen["train"].X.shape == (7494, 16) and pen["test"].X.shape == (3498, 16)
    opt = load_uci("optdigits", data_root)
    assert np.bincount(opt["test"].y).tolist() == [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]


def test_uci_errors_name_line():
    with pytest.raises(DataError, match="f, line 2: expected 3 fields"):
        parse_table("1,2,0\n1,2\n", "f", 2, ",")
    with pytest.raises(DataError, match="f, line 1: NaN"):
        parse_table("nan,2,0\n", "f", 2, ",")


def test_rcv1_subset(data_root):
    d = load_rcv1_subset(1, data_root)
    assert d.X.shape == (6000, 47236) and d.X.nnz == 463400
    assert d.Y.shape == (6000, 101) and round(d.Y.sum() / 6000, 3) == 2.880


def test_corel5k(data_root):
    tr, te = load_corel5k("train", data_root), load_corel5k("test", data_root)
    assert tr.X.shape == (4500, 499) and te.X.shape == (500, 499)
    assert tr.Y.shape[1] == 374 and round((tr.Y.sum() + te.Y.sum()) / 5000, 3) == 3.522
    names = tr.label_names
    counts = np.asarray(tr.Y.sum(0)).ravel() + np.asarray(te.Y.sum(0)).ravel()
    assert counts[names.index("water")] == 1120 and counts[names.index("sky")] == 988


def test_svmlight_multilabel_parse():
    d = parse_svmlight_multilabel(b"1,3 2:0.5 4:1\n2 1:1e-3\n", "f")
    assert d.X.toarray().tolist() == [[0, 0.5, 0, 1], [0.001, 0, 0, 0]]
    assert d.Y.toarray().tolist() == [[1, 0, 1], [0, 1, 0]]
    with pytest.raises(DataError, match="f, line 1: labels must be"):
        parse_svmlight_multilabel(b"a,b 2:0.5\n", "f")


def test_sparse_arff_parse():
    text = ("@relation r\n@attribute f1 {0,1}\n@attribute f2 {0,1}\n@attribute L1 {0,1}\n"
            "@attribute L2 {0,1}\n@data\n{0 1,3 1}\n{1 1,2 1}\n")
    d = parse_sparse_arff(text, "f", ["L1", "L2"])
    assert d.X.toarray().tolist() == [[1, 0], [0, 1]]
    assert d.Y.toarray().tolist() == [[0, 1], [1, 0]]
    with pytest.raises(DataError, match="f, line 8: malformed entry"):
        parse_sparse_arff(text.replace("{1 1,2 1}", "{1 x}"), "f", ["L1", "L2"])
