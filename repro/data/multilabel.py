"""Sparse multi-label data: svmlight multi-label (RCV1 subsets) and sparse ARFF (Corel5k).

Both give :class:`MultiLabel`: ``X`` a ``scipy.sparse.csr_matrix`` (float64), ``Y`` a CSR
0/1 indicator matrix (documents × labels), and the label names.  For Stevens (2010) every
label is one "query": rank all documents, those carrying the label are the positives.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..errors import DataError
from . import catalog as cat
from .letor import tokenize


@dataclass
class MultiLabel:
    X: sp.csr_matrix
    Y: sp.csr_matrix
    label_names: list[str]
    source: str

    @property
    def n_samples(self) -> int:
        return int(self.X.shape[0])


def _indicator(label_lists: list[list[int]], n_labels: int) -> sp.csr_matrix:
    indptr = np.cumsum([0] + [len(l) for l in label_lists])
    indices = np.fromiter((j for l in label_lists for j in l), dtype=np.int32, count=indptr[-1])
    data = np.ones(indptr[-1], dtype=np.int8)
    Y = sp.csr_matrix((data, indices, indptr), shape=(len(label_lists), n_labels))
    Y.sort_indices()
    return Y


def parse_svmlight_multilabel(buf: bytes, source: str, n_features: int | None = None,
                              n_labels: int | None = None) -> MultiLabel:
    """``l1,l2,... idx:val ...`` lines (labels and indices 1-based) → :class:`MultiLabel`."""
    raw = tokenize(buf, source, n_features=n_features, numeric_label=False,
                   require_qid=False, dense=False)
    labels = []
    for (s, e), line in zip(raw["label_span"].tolist(), raw["line_no"].tolist()):
        text = buf[s:e].decode("ascii", "replace")
        try:
            ids = [int(t) for t in text.split(",") if t]
        except ValueError:
            raise DataError(f"{source}, line {line}: labels must be comma-separated integers, "
                            f"got {text!r}") from None
        if any(i < 1 for i in ids):
            raise DataError(f"{source}, line {line}: label ids are 1-based, got {text!r}")
        labels.append([i - 1 for i in ids])
    L = n_labels or max((max(l) for l in labels if l), default=-1) + 1
    X = sp.csr_matrix((raw["data"], raw["indices"], raw["indptr"]),
                      shape=(len(labels), raw["n_features"]))
    return MultiLabel(X, _indicator(labels, L), [f"Class{i + 1}" for i in range(L)], source)


_ATTR = re.compile(r"@attribute\s+('[^']*'|\"[^\"]*\"|\S+)\s+(.*)", re.I)


def parse_sparse_arff(text: str, source: str, label_names: list[str]) -> MultiLabel:
    """Weka sparse ARFF (``{index value, …}`` rows, 0-based indices); the attributes named in
    ``label_names`` are labels (MULAN convention), all others features."""
    attrs: list[str] = []
    lines = text.splitlines()
    data_start = None
    for no, line in enumerate(lines, 1):
        s = line.strip()
        if not s or s.startswith("%"):
            continue
        low = s.lower()
        if low.startswith("@attribute"):
            m = _ATTR.match(s)
            if not m:
                raise DataError(f"{source}, line {no}: malformed @attribute line")
            attrs.append(m.group(1).strip("'\""))
        elif low.startswith("@data"):
            data_start = no
            break
    if data_start is None:
        raise DataError(f"{source}: no @data section")
    label_set = set(label_names)
    is_label = np.array([a in label_set for a in attrs])
    if is_label.sum() != len(label_names):
        missing = sorted(set(label_names) - set(attrs))[:5]
        raise DataError(f"{source}: label attributes not declared in the header: {missing}")
    feat_col = np.cumsum(~is_label) - 1
    label_pos = {a: i for i, a in enumerate(label_names)}
    label_col = np.array([label_pos.get(a, -1) for a in attrs])
    n_feat = int((~is_label).sum())
    indptr, indices, values, labels = [0], [], [], []
    for no in range(data_start + 1, len(lines) + 1):
        s = lines[no - 1].strip()
        if not s or s.startswith("%"):
            continue
        if not (s.startswith("{") and s.endswith("}")):
            raise DataError(f"{source}, line {no}: expected a sparse row {{index value, ...}}")
        row_labels = []
        body = s[1:-1].strip()
        for item in body.split(",") if body else []:
            parts = item.split()
            try:
                j, v = int(parts[0]), float(parts[1])
            except (ValueError, IndexError):
                raise DataError(f"{source}, line {no}: malformed entry {item.strip()!r}") from None
            if not 0 <= j < len(attrs) or not np.isfinite(v):
                raise DataError(f"{source}, line {no}: entry {item.strip()!r} out of range or not finite")
            if is_label[j]:
                if v != 0:
                    row_labels.append(int(label_col[j]))
            else:
                indices.append(int(feat_col[j]))
                values.append(v)
        indptr.append(len(indices))
        labels.append(sorted(row_labels))
    X = sp.csr_matrix((np.asarray(values, dtype=np.float64), np.asarray(indices, dtype=np.int32),
                       np.asarray(indptr, dtype=np.int64)), shape=(len(labels), n_feat))
    return MultiLabel(X, _indicator(labels, len(label_names)), list(label_names), source)


def mulan_label_names(xml_text: str, source: str) -> list[str]:
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as exc:
        raise DataError(f"{source}: not valid XML ({exc})") from None
    names = [el.get("name") for el in root.iter() if el.tag.split("}")[-1] == "label"]
    if not names:
        raise DataError(f"{source}: no <label name=...> elements")
    return names


def _path(name: str, rel: str, data_dir) -> tuple[Path, list[str]]:
    return cat.require_file(cat.dataset(name), cat.data_dir(data_dir), rel)


def load_rcv1_subset(subset: int, data_dir=None) -> MultiLabel:
    """MULAN RCV1-v2 subset 1..5 (6,000 documents × 47,236 features, 101 topics)."""
    if subset not in (1, 2, 3, 4, 5):
        raise DataError(f"RCV1 subset must be 1..5, got {subset}")
    path, sums = _path("rcv1-subsets", f"rcv1subset{subset}.svm", data_dir)
    return parse_svmlight_multilabel(cat.read_verified(path, sums), str(path),
                                     n_features=47236, n_labels=101)


def load_corel5k(split: str, data_dir=None) -> MultiLabel:
    """MULAN Corel5k, official split ``train`` (4,500 images) or ``test`` (500)."""
    if split not in ("train", "test"):
        raise DataError(f"Corel5k split must be 'train' or 'test', got {split!r}")
    xml_path, xml_sums = _path("corel5k", "Corel5k.xml", data_dir)
    names = mulan_label_names(cat.read_verified(xml_path, xml_sums).decode("utf-8"), str(xml_path))
    path, sums = _path("corel5k", f"Corel5k-{split}-sparse.arff", data_dir)
    return parse_sparse_arff(cat.read_verified(path, sums).decode("utf-8", "replace"),
                             str(path), names)
