"""Benchmark group ``letor``: the Cython LETOR tokenizer against peers."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from ..data.letor import format_letor, parse_letor, tokenize
from ..data.load import load_letor
from ..data.synthetic import make_queries
from ..errors import DataCorrupt, DataMissing
from .common import case, interleaved

try:                                  # a peer (the `peers` extra), not a dependency
    from sklearn.datasets import load_svmlight_file
except ImportError:                   # pragma: no cover
    load_svmlight_file = None


def _python_parse(buf: bytes):
    rows, labels, qids = [], [], []
    for line in buf.decode("ascii").splitlines():
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        labels.append(float(body[0]))
        qids.append(int(body[1][4:]))
        rows.append([float(t.split(":", 1)[1]) for t in body[2:]])
    return np.array(rows), np.array(labels), np.array(qids)


def bench(data_dir: Path, quick: bool) -> list[dict]:
    """Our tokenizer (alone and with grouping) against scikit-learn's svmlight reader and a
    pure-Python split/float parser, on MQ2008 Fold1 train regenerated as LETOR text."""
    try:
        data = load_letor("MQ2008", 1, "train", data_dir)
        source = "MQ2008 Fold1 train (LETOR text regenerated with 6 decimals)"
    except (DataMissing, DataCorrupt, OSError):
        data = make_queries(470, (5, 40), 46, seed=1)
        source = "synthetic, 46 features"
    buf = format_letor(data)
    mb = len(buf) / 1e6
    fns = {"ours": lambda: tokenize(buf), "ours+grouping": lambda: parse_letor(buf)}
    if not quick:
        fns["pure Python split/float"] = lambda: _python_parse(buf)
    if load_svmlight_file is not None:
        fns["scikit-learn load_svmlight_file"] = lambda: load_svmlight_file(
            io.BytesIO(buf), query_id=True, n_features=46)
    timings = interleaved(fns, repeats=3 if quick else 9)
    row = case("letor tokenizer", {"input": source, "MB": round(mb, 2),
                                   "documents": data.n_docs}, timings,
               throughput_MB_s={k: mb / timings.median(k) for k in fns})
    return [row]
