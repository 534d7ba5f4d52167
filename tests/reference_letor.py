"""Plain-Python references of the LETOR kernels: :func:`parse_text`, the tokenizer's
(``letor``: split on whitespace, ``float()`` every value), and a transcription of the official
LETOR evaluation scripts (the reference the ``letor_eval`` kernel is compared with).  Line
references are to Eval-Score-4.0.pl / Eval-Score-3.0.pl; the arithmetic is written in the
scripts' own order."""
import math

import numpy as np

GAIN = lambda r: 2.0 ** r - 1.0          # %hsNdcgRelScore: 2->3, 1->1, 0->0
RELEVANT = lambda r: r > 0               # %hsPrecisionRel: 2,1 -> 1


def ranked_labels(labels, scores):
    """sort {pred desc} of docids sorted by line number: a stable descending sort."""
    idx = sorted(range(len(labels)), key=lambda i: -scores[i])   # Python's sort is stable
    return [labels[i] for i in idx]


def precision_at_n(top_n, rates, version):
    prec, num_rel = [], 0
    limit = top_n if version == 4 else min(top_n, len(rates))
    for pos in range(limit):
        r = rates[pos] if pos < len(rates) else 0
        if RELEVANT(r):
            num_rel += 1
        prec.append(num_rel / (pos + 1))
    return prec


def average_precision(rates):
    num_rel, avg = 0, 0.0
    for pos, r in enumerate(rates):
        if RELEVANT(r):
            num_rel += 1
            avg += num_rel / (pos + 1)
    return 0.0 if num_rel == 0 else avg / num_rel


def dcg(top_n, rates, version):
    out = [GAIN(rates[0])]
    limit = top_n if version == 4 else min(top_n, len(rates))
    for pos in range(1, limit):
        r = rates[pos] if pos < len(rates) else 0
        if pos < 2:
            out.append(out[pos - 1] + GAIN(r))
        else:
            out.append(out[pos - 1] + (GAIN(r) * math.log(2.0)) / math.log(pos + 1.0))
    return out


def ndcg(top_n, rates, version):
    d = dcg(top_n, rates, version)
    best = dcg(top_n, sorted(rates, key=GAIN, reverse=True), version)
    return [d[p] / best[p] if best[p] != 0 else 0.0
            for p in range(min(top_n, len(rates)))]


def evaluate(queries, version):
    """``queries``: list of (qid, labels, scores).  Returns (per_query, averages) with
    per_query[qid] = dict(P=[...], AP=..., NDCG=[...], MeanNDCG=...) and averages over
    K = 10 (4.0) or 16 (3.0) positions, missing entries counted as 0."""
    K = 10 if version == 4 else 16
    per = {}
    for qid, labels, scores in queries:
        rates = ranked_labels(labels, scores)
        nd_all = ndcg(len(rates), rates, 4)
        per[qid] = dict(P=precision_at_n(K, rates, version), AP=average_precision(rates),
                        NDCG=ndcg(len(rates), rates, 4)[:K] if version == 4 else ndcg(K, rates, 3),
                        MeanNDCG=sum_seq(nd_all) / len(nd_all))
    order = sorted(per, key=float)
    Q = len(order)
    avg = {}
    for k in range(K):
        avg[f"P@{k + 1}"] = sum_seq([per[q]["P"][k] if k < len(per[q]["P"]) else 0.0
                                     for q in order]) / Q
        avg[f"NDCG@{k + 1}"] = sum_seq([per[q]["NDCG"][k] if k < len(per[q]["NDCG"]) else 0.0
                                        for q in order]) / Q
    avg["MAP"] = sum_seq([per[q]["AP"] for q in order]) / Q
    avg["MeanNDCG"] = sum_seq([per[q]["MeanNDCG"] for q in order]) / Q
    return per, avg


def evaluate_set(data, scores, version):
    """:func:`evaluate` of the queries of ``data`` (a ``QueryData``) scored by ``scores``."""
    qp = data.query_ptr
    return evaluate([(str(q), list(data.y[qp[i]:qp[i + 1]]), list(scores[qp[i]:qp[i + 1]]))
                     for i, q in enumerate(np.asarray(data.qids).tolist())], version)


def sum_seq(values):
    total = 0.0
    for v in values:
        total += v
    return total


def parse_text(text: str):
    """Reference: split on whitespace, float() every value."""
    X, y, qid, docid = [], [], [], []
    for line in text.splitlines():
        body, _, comment = line.partition("#")
        toks = body.split()
        if not toks:
            continue
        y.append(float(toks[0]))
        qid.append(int(toks[1][4:]))
        X.append({int(t.split(":")[0]): float(t.split(":")[1]) for t in toks[2:]})
        c = comment.split()
        docid.append(c[c.index("=") + 1] if "docid" in c else "")
    nf = max((max(r) for r in X if r), default=0)
    dense = np.zeros((len(X), nf))
    for i, r in enumerate(X):
        for j, v in r.items():
            dense[i, j - 1] = v
    return dense, np.array(y), np.array(qid), docid
