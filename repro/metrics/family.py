"""One NDCG / AP / precision family with named conventions.

Every NDCG, DCG, AP and P@k of the suite is computed here (the official LETOR arithmetic stays
in ``kernels/letor_eval.pyx``, reached through :func:`repro.metrics.letor_eval.evaluate`).
A :class:`Convention` states each choice the definitions leave open.  The conventions here are
named by what they compute; a paper that measures by a convention of its own declares it in its
package (``CONVENTION``, a :class:`Convention` built from one of these with
:meth:`Convention.replace`):

* ``gain`` of a label r: ``"exp2"`` 2^r − 1, ``"linear"`` r, ``"binary"`` 1 if r is relevant;
* ``discount`` at 1-based position i: ``"log2"`` 1/log2(i + 1); ``"letor"`` 1 at positions 1
  and 2, 1/log2(i) from position 3 on (Järvelin & Kekäläinen with base 2: the LETOR scripts,
  earlier trec_eval releases, Dubey et al. Sec. 1.6.3);
* ``ties`` among equal scores: ``"file"`` (input order kept: a stable sort), ``"worst"`` (less
  relevant first), ``"random"`` (the caller's seeded ``rng``) or ``"docid"`` (the document
  ids, descending in byte order: trec_eval's ``comp_sim_docno``, which sorts by score, then
  ``strcmp`` of the docnos reversed; the measures take ``docids``);
* ``no_relevant``: NDCG where the ideal DCG is 0, and AP of a query without a relevant
  document — 0, 1 (the GBDT libraries), or NaN (the query has no value and is left out of means);
* ``beyond`` a query's length n (k > n): ``"letor4"`` P@k = (relevant in the query)/k, NDCG@k = 0;
  ``"letor3"`` P@k = NDCG@k = 0 (undefined in the 3.0 script, averaged as 0); ``"truncate"``
  P@k = (relevant in the query)/k and NDCG@k = NDCG@n (trec_eval, LightGBM);
* ``relevant_min``: a document is relevant (P@k, AP, ``"binary"`` gain) iff its label is
  ≥ ``relevant_min``; ``None``: iff its label is > 0 (the LETOR scripts' rule).

``engine`` says how a convention is computed, so that every value the suite stored before the
family existed is reproduced to the last bit: ``"letor"`` (the LETOR kernel, bit-exact with the
Perl scripts), ``"sum"`` (DCG/ideal DCG as sequential per-query sums, vectorised), ``"inner"``
(Le & Smola eq. 14 as written, NDCG = ⟨a(π), b(y)⟩, b already divided by the ideal DCG: the
form DORM optimises) and ``"ranks"`` (Dubey et al. Sec. 1.6 from the ranks of the good
documents: the form the sampler's losses use).  The engines differ only in the order of
floating-point operations (``tests/test_metric_family.py`` checks each against ``"sum"``).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..errors import DataError
from .letor_eval import _check, _numeric_order_keys, evaluate

GAINS = ("exp2", "linear", "binary")
DISCOUNTS = ("log2", "letor")
TIES = ("file", "worst", "random", "docid")
BEYOND = ("letor4", "letor3", "truncate")
ENGINES = ("letor", "sum", "inner", "ranks")


@dataclass(frozen=True)
class Convention:
    """One named set of choices (see the module doc for each field); ``source``: where it
    comes from."""
    name: str
    gain: str
    discount: str
    ties: str
    no_relevant: float
    beyond: str
    relevant_min: float | None
    source: str
    engine: str = "sum"
    letor_version: int = 4        # engine "letor": the script's version

    def __post_init__(self):
        for field, allowed in (("gain", GAINS), ("discount", DISCOUNTS), ("ties", TIES),
                               ("beyond", BEYOND), ("engine", ENGINES)):
            if getattr(self, field) not in allowed:
                raise DataError(f"convention {self.name!r}: {field} must be one of {allowed}, "
                                f"got {getattr(self, field)!r}")
        fixed = {"letor": {"gain": "exp2", "discount": "letor"},   # what each engine computes
                 "inner": {"discount": "log2"}, "ranks": {"gain": "binary"}}.get(self.engine, {})
        for field, value in fixed.items():
            if getattr(self, field) != value:
                raise DataError(f"convention {self.name!r}: engine {self.engine!r} computes "
                                f"{field} {value!r} only; use engine 'sum' for {field} "
                                f"{getattr(self, field)!r}")

    def relevant(self, y: np.ndarray) -> np.ndarray:
        """Boolean mask of the relevant documents."""
        return y > 0 if self.relevant_min is None else y >= self.relevant_min

    def gains(self, y: np.ndarray) -> np.ndarray:
        if self.gain == "exp2":
            return 2.0 ** y - 1.0
        if self.gain == "linear":
            return np.asarray(y, dtype=np.float64)
        return self.relevant(y).astype(np.float64)

    def replace(self, **changes) -> "Convention":
        """A copy with some fields changed (e.g. ``relevant_min=2`` or ``ties="random"``)."""
        return dataclasses.replace(self, **changes)


CONVENTIONS: dict[str, Convention] = {c.name: c for c in (
    Convention("letor3", "exp2", "letor", "file", 0.0, "letor3", None, engine="letor",
               letor_version=3,
               source="Eval-Score-3.0.pl, the LETOR 3.0 evaluation script (OHSUMED, Gov); "
                      "see repro.metrics.letor_eval"),
    Convention("letor4", "exp2", "letor", "file", 0.0, "letor4", None, engine="letor",
               letor_version=4,
               source="Eval-Score-4.0.pl, the LETOR 4.0 evaluation script (MQ2007, MQ2008); "
                      "see repro.metrics.letor_eval"),
    Convention("mslr", "exp2", "letor", "file", 0.0, "letor4", 2.0, engine="letor",
               letor_version=4,
               source="Eval-Score-MSLR.pl (mslr-eval-score-mslr.pl, J. Xu, June 2010, for the "
                      "Microsoft LTR datasets): the 4.0 script with gains 0/1/3/7/15 for labels "
                      "0-4 and only labels 2-4 relevant for P@k and MAP"),
    Convention("trec_eval", "linear", "log2", "docid", 0.0, "truncate", 1.0,
               source="current trec_eval (usnistgov/trec_eval: m_ndcg_cut.c, m_ndcg.c, m_P.c, "
                      "m_map.c, form_res_rels.c) and pytrec_eval-terrier 0.5.11 / ir-measures: "
                      "gain = the qrels relevance value, every rank discounted by "
                      "1/log2(rank + 1), relevant iff rel >= 1 (-l 1), equal scores ordered by "
                      "docno, descending in byte order (comp_sim_docno); a query without a "
                      "relevant document scores 0"),
    Convention("gbdt", "exp2", "log2", "file", 1.0, "truncate", None,
               source="LightGBM (dcg_calculator.cpp, map_metric.hpp) and XGBoost ndcg/map: "
                      "label_gain 2^r - 1, discount 1/log2(i + 1), k cut at the query's "
                      "length, a query without relevant documents scores 1; also the Yahoo! "
                      "LTR challenge's NDCG used by Lee & Lin (2014)"),
    Convention("inner_product", "exp2", "log2", "file", 0.0, "truncate", 1.0, engine="inner",
               source="NDCG@n as the inner product <a(pi), b(y)> of Le & Smola (2007), eq. "
                      "(12)-(14): a_i = 1/log2(i+1) for i <= n, b = (2^r - 1)/DCG@n(1, y); 0 "
                      "where the ideal DCG is 0; ties in document order"),
    Convention("binary_ranks", "binary", "letor", "file", float("nan"), "truncate", 1.0,
               engine="ranks",
               source="binary gain (good iff label >= 1), D(i) = 1 for ranks 1-2 and "
                      "1/log2(rank) beyond, AP normalised by n+, computed from the ranks of "
                      "the good documents (Dubey et al. 2009, Sec. 1.6.2-1.6.3); measured on "
                      "queries with a good document only (others: NaN)"),
)}


CONVENTIONS["trec_eval_classic"] = CONVENTIONS["trec_eval"].replace(
    name="trec_eval_classic", discount="letor",
    source="earlier trec_eval releases' classic m_ndcg.c / m_ndcg_cut.c form (gain / log2(i + 1) "
           "for 0-based i > 0, the gain itself at i = 0: discount 1 at ranks 1-2, then "
           "1/log2(rank)), otherwise as trec_eval; on MQ2008 runs per-query NDCG@10 differs "
           "from current trec_eval's by up to 0.37")


def get_convention(convention: str | Convention) -> Convention:
    """The :class:`Convention` named ``convention`` (or ``convention`` itself)."""
    if isinstance(convention, Convention):
        return convention
    try:
        return CONVENTIONS[convention]
    except (KeyError, TypeError):
        raise DataError(f"convention: expected one of {sorted(CONVENTIONS)}, "
                        f"got {convention!r}") from None


def _check_k(k) -> int:
    if isinstance(k, (bool, np.bool_)) or int(k) != k or int(k) < 1:
        raise DataError(f"k: the cutoff must be an integer ≥ 1, got {k!r}")
    return int(k)


# --- discounts and DCG -------------------------------------------------------------------------

def discounts(length: int, k: int | None = None, discount: str = "log2") -> np.ndarray:
    """Discount of 0-based positions ``0..length-1`` (0 from position ``k`` on).  ``"log2"``:
    1/log2(i + 2); ``"letor"``: 1 at positions 0 and 1, 1/log2(i + 1) from 2 on."""
    i = np.arange(length, dtype=np.float64)
    if discount == "log2":
        d = 1.0 / np.log2(i + 2.0)
    elif discount == "letor":
        d = np.where(i <= 1, 1.0, 1.0 / np.log2(np.maximum(i, 1.0) + 1.0))
    else:
        raise DataError(f"discount: expected one of {DISCOUNTS}, got {discount!r}")
    if k is not None:
        d[int(k):] = 0.0
    return d


def dcg_at(gains_in_rank_order, k: int, discount: str = "log2") -> np.ndarray | float:
    """DCG@k of gains listed in rank order (last axis; rows are rankings): the sequential
    sum of gain × discount over the first ``min(k, n)`` positions."""
    k = _check_k(k)
    g = np.asarray(gains_in_rank_order, dtype=np.float64)
    if g.ndim == 0:
        raise DataError("gains_in_rank_order: expected one gain per position, got a scalar")
    m = min(k, g.shape[-1])
    if m == 0:
        out = np.zeros(g.shape[:-1])
    else:
        out = np.cumsum(g[..., :m] * discounts(m, None, discount), axis=-1)[..., -1]
    return float(out) if out.ndim == 0 else out


# --- rankings ----------------------------------------------------------------------------------

def docid_ranks(docids) -> np.ndarray:
    """Each document id's position among all of them in byte order (``strcmp`` of the UTF-8
    bytes, as trec_eval compares docnos); equal ids share a position."""
    keys = [d if isinstance(d, bytes) else str(d).encode("utf-8") for d in docids]
    uniq = sorted(set(keys))
    pos = {k: i for i, k in enumerate(uniq)}
    return np.array([pos[k] for k in keys], dtype=np.int64)


def _tie_permutation(y, scores, query_ptr, ties: str, rng, docids=None) -> np.ndarray | None:
    """A within-query reordering of the documents after which a stable sort by score realises
    the tie rule (``None`` for file order).  ``"random"``: ``rng.permutation`` of every query
    in turn; ``"worst"``: equal scores with the lowest label first; ``"docid"``: equal scores
    by document id, descending in byte order (trec_eval)."""
    if ties == "file":
        return None
    Q = query_ptr.shape[0] - 1
    if ties == "random":
        if rng is None:
            raise DataError("rng: ties='random' needs a seeded numpy Generator")
        return np.concatenate([lo + rng.permutation(hi - lo)
                               for lo, hi in zip(query_ptr[:-1], query_ptr[1:])])
    qidx = np.repeat(np.arange(Q), np.diff(query_ptr))
    if ties == "docid":
        if docids is None or len(docids) != y.shape[0]:
            raise DataError(f"docids: ties='docid' (trec_eval's rule) needs one document id per "
                            f"document, got {'none' if docids is None else len(docids)} for "
                            f"{y.shape[0]} documents")
        return np.lexsort((-docid_ranks(docids), -scores, qidx))
    return np.lexsort((y, -scores, qidx))


def _order(y, scores, query_ptr, ties: str, rng, docids=None):
    """(y, scores) reordered within queries so that a stable sort by score applies ``ties``."""
    perm = _tie_permutation(y, scores, query_ptr, ties, rng, docids)
    return (y, scores) if perm is None else (y[perm], scores[perm])


def _prepare(y, scores, query_ptr, k, convention, ties, rng):
    conv = get_convention(convention)
    if ties is not None:
        if ties not in TIES:
            raise DataError(f"ties: expected one of {TIES}, got {ties!r}")
        conv = conv.replace(ties=ties)
    y, scores, query_ptr = _check(y, scores, query_ptr)
    return conv, y, scores, query_ptr, (None if k is None else _check_k(k))


def _ranked(values, scores, query_ptr):
    """``values`` in ranked order (score descending, ties stable), their query and position."""
    Q = query_ptr.shape[0] - 1
    sizes = np.diff(query_ptr)
    qidx = np.repeat(np.arange(Q), sizes)
    order = np.lexsort((-scores, qidx))
    pos = np.arange(qidx.shape[0]) - np.repeat(query_ptr[:-1], sizes)
    return values[order], qidx, pos


def good_ranks_from_scores(good, scores, rng: np.random.Generator | None = None) -> np.ndarray:
    """Sorted 0-based ranks of the ``good`` documents of one query ranked by ``scores``
    (descending); ties keep the input order, or are broken uniformly at random by ``rng``
    (one ``rng.random`` key per document)."""
    scores = np.asarray(scores, dtype=np.float64)
    if rng is None:
        order = np.argsort(-scores, kind="stable")
    else:
        order = np.lexsort((rng.random(scores.shape[0]), -scores))
    return np.flatnonzero(np.asarray(good, dtype=bool)[order])


def ap_from_good_ranks(ranks) -> np.ndarray:
    """AP of each row of sorted 0-based good ranks: (1/n⁺) Σ_i (1 + i)/(1 + r_i)
    (Dubey et al. Sec. 1.6.2)."""
    ranks = np.asarray(ranks, dtype=np.float64)
    n_pos = ranks.shape[-1]
    return ((1.0 + np.arange(n_pos)) / (1.0 + ranks)).sum(axis=-1) / n_pos


def ndcg_from_good_ranks(ranks, k: int, discount: str = "letor") -> np.ndarray:
    """NDCG@k of each row of sorted 0-based good ranks with binary gain (Dubey et al.
    Sec. 1.6.3): Σ D(r_i) / Σ_{i < min(n⁺, k)} D(i)."""
    ranks = np.asarray(ranks, dtype=np.int64)
    n_pos = ranks.shape[-1]
    D = discounts(max(k, int(ranks.max(initial=0)) + 1), k, discount)
    ideal = D[:min(n_pos, k)].sum()
    return D[ranks].sum(axis=-1) / ideal


def ndcg_vectors(labels, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Le & Smola eq. (14): ``(a, b)`` with NDCG@k(π) = ⟨a(π), b⟩ for one query; ``a`` over
    positions 1..l (1/log2(i + 1) up to k, then 0), ``b`` per document (input order):
    (2^r − 1) / DCG@k(1, y), zero where the ideal DCG is 0."""
    r = np.asarray(labels, dtype=np.float64)
    return _eq14_vectors(2.0 ** r - 1.0, k)


def _eq14_vectors(g: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    l = g.shape[0]
    i = np.arange(1, l + 1, dtype=np.float64)
    a = np.where(i <= k, 1.0 / np.log2(i + 1.0), 0.0)
    ideal = float(np.sort(g)[::-1] @ a)
    b = g / ideal if ideal > 0 else np.zeros(l)
    return a, b


# --- the measures ------------------------------------------------------------------------------

def _letor(conv, y, scores, query_ptr, k, labels=None):
    lab = y if labels is None else labels
    return evaluate(lab, scores, query_ptr, version=conv.letor_version, max_k=k)


def _sum_ndcg(conv, y, scores, query_ptr, k):
    Q = query_ptr.shape[0] - 1
    g = conv.gains(y)
    got, qidx, pos = _ranked(g, scores, query_ptr)
    ideal, _, _ = _ranked(g, g, query_ptr)
    top = pos < k
    d = discounts(int(pos.max()) + 1, None, conv.discount)[pos[top]]
    dcg = np.bincount(qidx[top], got[top] * d, minlength=Q)
    idcg = np.bincount(qidx[top], ideal[top] * d, minlength=Q)
    ok = idcg != 0
    out = np.full(Q, conv.no_relevant, dtype=np.float64)
    out[ok] = dcg[ok] / idcg[ok]
    if conv.beyond != "truncate":
        out[np.diff(query_ptr) < k] = 0.0
    return out


def _inner_ndcg(conv, y, scores, query_ptr, k):
    Q = query_ptr.shape[0] - 1
    out = np.empty(Q)
    for q in range(Q):
        lo, hi = query_ptr[q], query_ptr[q + 1]
        a, b = _eq14_vectors(conv.gains(y[lo:hi]), k)
        pos = np.empty(hi - lo, dtype=np.int64)
        pos[np.argsort(-scores[lo:hi], kind="stable")] = np.arange(hi - lo)
        out[q] = float(a[pos] @ b) if b.any() else conv.no_relevant
    if conv.beyond != "truncate":
        out[np.diff(query_ptr) < k] = 0.0
    return out


def _ranks_measure(conv, y, scores, query_ptr, k, rng, what: str):
    Q = query_ptr.shape[0] - 1
    out = np.full(Q, conv.no_relevant, dtype=np.float64)
    good_all = conv.relevant(y)
    for q in range(Q):
        lo, hi = query_ptr[q], query_ptr[q + 1]
        good = good_all[lo:hi]
        if not good.any():
            continue
        r = good_ranks_from_scores(good, scores[lo:hi],
                                   rng if conv.ties == "random" else None)[None, :]
        out[q] = (ap_from_good_ranks(r) if what == "AP"
                  else ndcg_from_good_ranks(r, k, conv.discount))[0]
    return out


def ndcg(y, scores, query_ptr, k: int, convention: str | Convention = "letor4",
         ties: str | None = None, rng: np.random.Generator | None = None,
         docids=None) -> np.ndarray:
    """NDCG@k of every query under ``convention`` (a name in :data:`CONVENTIONS` or a
    :class:`Convention`).  ``ties`` overrides the convention's tie rule; ``"random"`` needs
    ``rng``, ``"docid"`` the documents' ids (``docids``, one per document).  Returns one value
    per query (NaN: the query has no value under the convention)."""
    conv, y, scores, query_ptr, k = _prepare(y, scores, query_ptr, k, convention, ties, rng)
    if conv.engine == "ranks":
        if conv.ties in ("worst", "docid"):
            y, scores = _order(y, scores, query_ptr, conv.ties, None, docids)
        return _ranks_measure(conv, y, scores, query_ptr, k, rng, "NDCG")
    y, scores = _order(y, scores, query_ptr, conv.ties, rng, docids)
    if conv.engine == "letor":
        return _letor(conv, y, scores, query_ptr, k).ndcg[:, k - 1].copy()
    if conv.engine == "inner":
        return _inner_ndcg(conv, y, scores, query_ptr, k)
    return _sum_ndcg(conv, y, scores, query_ptr, k)


def average_precision(y, scores, query_ptr, convention: str | Convention = "letor4",
                      ties: str | None = None, rng: np.random.Generator | None = None,
                      docids=None) -> np.ndarray:
    """AP of every query: the mean, over its relevant documents, of the precision at each
    one's rank (relevant documents per ``relevant_min``); ``no_relevant`` where there is none."""
    conv, y, scores, query_ptr, _ = _prepare(y, scores, query_ptr, None, convention, ties, rng)
    if conv.engine == "ranks":
        if conv.ties in ("worst", "docid"):
            y, scores = _order(y, scores, query_ptr, conv.ties, None, docids)
        return _ranks_measure(conv, y, scores, query_ptr, 1, rng, "AP")
    y, scores = _order(y, scores, query_ptr, conv.ties, rng, docids)
    rel = conv.relevant(y)
    if conv.engine == "letor":
        out = _letor(conv, y, scores, query_ptr, 1, rel.astype(np.float64)).ap.copy()
        out[~np.logical_or.reduceat(rel, query_ptr[:-1])] = conv.no_relevant
        return out
    Q = query_ptr.shape[0] - 1
    r, qidx, pos = _ranked(rel.astype(np.float64), scores, query_ptr)
    cum = np.cumsum(r)
    cum -= np.repeat(np.r_[0.0, cum[query_ptr[1:-1] - 1]], np.diff(query_ptr))
    hit = r > 0
    apsum = np.bincount(qidx[hit], cum[hit] / (pos[hit] + 1), minlength=Q)
    nrel = np.bincount(qidx, r, minlength=Q)
    out = np.full(Q, conv.no_relevant, dtype=np.float64)
    ok = nrel > 0
    out[ok] = apsum[ok] / nrel[ok]
    return out


def precision(y, scores, query_ptr, k: int, convention: str | Convention = "letor4",
              ties: str | None = None, rng: np.random.Generator | None = None,
              docids=None) -> np.ndarray:
    """P@k of every query: relevant documents among the top k, divided by k (positions beyond
    the query's length count as irrelevant; ``beyond="letor3"``: 0 there).  NaN for a query
    without relevant documents only where the convention leaves such queries out
    (``no_relevant`` NaN)."""
    conv, y, scores, query_ptr, k = _prepare(y, scores, query_ptr, k, convention, ties, rng)
    if conv.engine == "ranks" and conv.ties == "random":
        raise DataError("ties: random ties for precision under the 'ranks' engine are not "
                        "implemented; use the 'sum' engine (convention.replace(engine='sum'))")
    y, scores = _order(y, scores, query_ptr, conv.ties, rng, docids)
    rel = conv.relevant(y)
    if conv.engine == "letor":
        out = _letor(conv, y, scores, query_ptr, k, rel.astype(np.float64)).precision[:, k - 1]
        out = out.copy()
    else:
        Q = query_ptr.shape[0] - 1
        r, qidx, pos = _ranked(rel.astype(np.float64), scores, query_ptr)
        top = pos < k
        out = np.bincount(qidx[top], r[top], minlength=Q) / k
        if conv.beyond == "letor3":
            out[np.diff(query_ptr) < k] = 0.0
    if np.isnan(conv.no_relevant):
        out[~np.logical_or.reduceat(rel, query_ptr[:-1])] = np.nan
    return out


def script_mean(values, qids=None) -> float:
    """Mean of per-query ``values`` as the LETOR scripts average: a sequential sum in numeric
    ``qids`` order (data order without them) divided by the count; NaN values (queries without
    a value under the convention) are left out, and the mean of none is NaN.  Equals
    :func:`~repro.metrics.letor_eval.evaluate`'s averages to the last bit."""
    v = np.asarray(values, dtype=np.float64)
    if qids is not None:
        qids = np.asarray(qids)
        if qids.shape != v.shape:
            raise DataError(f"qids: expected {v.shape[0]} query ids, got shape {qids.shape}")
        v = v[np.argsort(_numeric_order_keys(qids), kind="stable")]
    v = v[~np.isnan(v)]
    total = 0.0
    for x in v.tolist():
        total += x
    return total / v.shape[0] if v.shape[0] else float("nan")
