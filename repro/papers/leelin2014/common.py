"""What leelin2014's studies share: the data sets scaled as the authors did, a split of a
catalogued set, the TRON solve of problem (3) and the labels of C."""
from __future__ import annotations

import math

import numpy as np

from ...data import catalog as cat
from ...data.load import load_letor
from ...data.queries import QueryData
from ...judge.published import parse_number
from ...rankers.ranksvm import L2RankSVMObjective
from ...rankers.tron import tron

SCALED = ("MSLR-WEB30K", "Yahoo-set1", "Yahoo-set2")   # scaled to [0, 1] as the authors did
NO_NDCG = ("MQ2007-list", "MQ2008-list")              # labels are ranks: NDCG not plotted


def _power(text) -> float:
    v = parse_number(str(text))
    if v is None:
        raise ValueError(f"not a number: {text!r}")
    return v


def load_split(name: str, fold, split: str, data_dir) -> QueryData:
    info = cat.dataset(name)
    return load_letor(name, int(fold) if info.n_folds > 1 else 1, split, data_dir)


def scale_like(train: QueryData, *others: QueryData) -> list[QueryData]:
    """Feature-wise [0, 1] scaling with the training ranges (``svm-scale -l 0 -u 1``, as the
    authors' gen_data.py does for MSLR and Yahoo); a constant feature becomes 0."""
    X = train.X.toarray() if hasattr(train.X, "toarray") else train.X
    lo, hi = X.min(axis=0), X.max(axis=0)
    rng = np.where(hi > lo, hi - lo, 1.0)
    out = []
    for d in (train, *others):
        Xd = d.X.toarray() if hasattr(d.X, "toarray") else d.X
        Xs = np.where(hi > lo, (Xd - lo) / rng, 0.0)
        out.append(QueryData(np.ascontiguousarray(Xs), d.y, d.query_ptr, d.qids, d.docids,
                             source=d.source + " (scaled to [0,1] with training ranges)"))
    return out



def _solve(train: QueryData, C: float, eps: float, method: str = "tree", callback=None,
           max_iter: int = 1000, threads: int = 1):
    """TRON on problem (3); ``threads``: the fit's own threads over fixed blocks of whole
    queries (the same numbers for any count; blocks only for large dense sets)."""
    obj = L2RankSVMObjective(train.X, train.y, train.query_ptr, C, method, threads=threads)
    res = tron(obj, n=obj.n_features, eps=eps, max_iter=max_iter, callback=callback)
    return obj, res


def c_label(C) -> str:
    """``"2^20"`` for the parameter ``"2^20"`` (the text as given), a number as ``2^k`` when it
    is a power of 2 and as ``%g`` otherwise: method labels carry the C actually used, and
    match the published keys ("TRON, C = 2^20") at the default."""
    if isinstance(C, str):
        return C.replace(" ", "")
    v = float(C)
    e = math.log2(v) if v > 0 else float("nan")
    return f"2^{int(e)}" if math.isfinite(e) and e == int(e) else f"{v:g}"
