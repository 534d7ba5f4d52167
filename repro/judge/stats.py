"""Statistics on per-query evidence (:mod:`repro.evidence`): intervals and paired tests, from
:mod:`scipy.stats`, on the same numbers the reported means come from.

* :func:`interval` — a bootstrap confidence interval of a fold mean (or a single fold's mean)
  over test queries, **stratified by fold**: each fold's queries are resampled apart
  (``scipy.stats.bootstrap`` with one sample per fold, ``paired=False``), the statistic being
  the mean of the folds' means — the same statistic as the reported value;
* :func:`paired` — a paired comparison of two methods on the same queries (a one-sample test
  of the per-query differences, pooled over folds): mean difference, its bootstrap interval,
  the p-value of the t-test (``scipy.stats.ttest_rel``; ``test="wilcoxon"`` for the signed-rank
  test);
* :func:`trend` — a monotone claim ("rises with") tested as a trend: Spearman's correlation of
  the per-query values with the setting (``scipy.stats.spearmanr``), not as one pair;
* :func:`sign_flip` — the paired permutation test beside the t-test where the units are few
  (folds, or fewer than 30 queries): every sign pattern of the differences when 2ⁿ ≤ 10⁵
  (exact), else 10,000 random ones (``scipy.stats.permutation_test``,
  ``permutation_type="samples"``);
* :func:`holm` — Holm's step-down adjustment of p-values (family-wise error): across the
  comparisons of a claim, and across a paper's tested claims;
* :func:`p_words` — a p-value no more precisely than the tests resolve it ("p < 1e-4");
* :func:`reproduction_measures` — Breuer et al. (SIGIR 2020): the effect ratio (reproduced
  mean improvement / published mean improvement) and ΔRI (difference of the relative
  improvements), as the ``repro_eval`` package computes them.

Seeds come from the caller (derived from the run's identity): the same evidence gives the same
interval.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..evidence.record import numbers_of
from ..spec import salted

N_RESAMPLES = 10_000
LEVEL = 0.95
#: below this, a p-value is written "p < 1e-4" (:func:`p_words`): the t-test's tails are no
#: more accurate than the normality of the differences, and the permutation test's resolution
#: is 1/2ⁿ or 1/10,000
P_FLOOR = 1e-4
#: the permutation test is computed beside the t-test below this many units (or over folds)
FEW_UNITS = 30
#: exact enumeration of sign patterns up to this many
EXACT_PATTERNS = 100_000


def seed_from(text: str) -> int:
    """A 32-bit seed from the text naming what is resampled (an artifact and a record's key,
    a claim and the compared methods): the same evidence always gets the same interval (with
    the seed salt in effect, :func:`repro.spec.salted`)."""
    return int.from_bytes(hashlib.sha256(salted(text).encode("utf-8")).digest()[:4], "little")


def _clean(values) -> np.ndarray:
    """The defined values (:func:`repro.evidence.record.number`)."""
    a = numbers_of(values)
    return a[np.isfinite(a)]


def _mean_of_means(*samples, axis=-1):
    return np.mean([np.mean(s, axis=axis) for s in samples], axis=0)


def interval(folds: list, seed: int, n_resamples: int = N_RESAMPLES,
             level: float = LEVEL) -> tuple[float, float] | None:
    """The percentile bootstrap interval of the mean of the folds' means, resampling the
    queries of each fold apart.  ``folds``: per fold, the per-query values (undefined values
    dropped).  None when a fold has fewer than two defined values (no spread to resample)."""
    samples = [_clean(f) for f in folds]
    if not samples or any(s.size < 2 for s in samples):
        return None
    if all(np.all(s == s[0]) for s in samples):          # no spread: the interval is a point
        v = float(_mean_of_means(*samples))
        return v, v
    res = stats.bootstrap(samples, _mean_of_means, n_resamples=n_resamples, vectorized=True,
                          paired=False, confidence_level=level, method="percentile",
                          rng=np.random.default_rng(seed))
    ci = res.confidence_interval
    return float(ci.low), float(ci.high)


def p_words(p) -> str:
    """"p = 0.012", "p = 0.00031", "p < 1e-4" (:data:`P_FLOOR`), "p = n/a"."""
    if p is None or not np.isfinite(p):
        return "p = n/a"
    if p < P_FLOOR:
        return "p < 1e-4"
    return f"p = {p:.2g}"


def sign_flip(d, seed: int) -> float:
    """The two-sided p-value of the paired sign-flip permutation test of the mean of the
    differences ``d`` (exact when 2ⁿ ≤ :data:`EXACT_PATTERNS`)."""
    d = np.asarray(d, dtype=np.float64)
    n = d.size
    if n < 2 or np.all(d == 0):
        return 1.0
    exact = 2 ** n <= EXACT_PATTERNS
    res = stats.permutation_test((d,), lambda x, axis=-1: np.mean(x, axis=axis),
                                 permutation_type="samples", vectorized=True,
                                 n_resamples=2 ** n if exact else N_RESAMPLES,
                                 alternative="two-sided", rng=np.random.default_rng(seed))
    return float(res.pvalue)


@dataclass
class Paired:
    """A paired comparison of A against B: ``effect`` = mean(A − B) over queries, its
    interval, the p-value, the number of queries and, where the units are few, the p-value of
    the sign-flip permutation test (``p_permutation``)."""
    effect: float
    ci95: tuple[float, float] | None
    p_value: float
    n_queries: int
    test: str
    p_permutation: float | None = None

    @property
    def significant(self) -> bool:
        return bool(np.isfinite(self.p_value) and self.p_value < 0.05)

    def as_dict(self) -> dict:
        return {"effect": self.effect, "ci95": list(self.ci95) if self.ci95 else None,
                "p_value": self.p_value, "n_queries": self.n_queries, "test": self.test,
                "p_permutation": self.p_permutation}


def paired(a, b, seed: int, test: str = "t", n_resamples: int = N_RESAMPLES,
           permutation: bool | None = None) -> Paired:
    """Paired comparison of per-query values ``a`` and ``b`` (same queries, same order;
    pairs with an undefined value are dropped).  ``test``: "t" (the paired t-test, with a
    bootstrap interval of the mean difference), "wilcoxon", or "sign-flip" — the exact
    sign-flip permutation test decides, with the t-interval of the mean difference beside
    (for a handful of units such as folds, where a t-test's normality cannot be checked and
    the smallest attainable p is 2/2ⁿ).  ``permutation``: compute the sign-flip test beside
    (default: with fewer than :data:`FEW_UNITS` pairs)."""
    a, b = numbers_of(a), numbers_of(b)
    if a.shape != b.shape:
        raise ValueError(f"paired: {a.size} and {b.size} values are not paired")
    ok = np.isfinite(a) & np.isfinite(b)
    d = a[ok] - b[ok]
    n = int(d.size)
    if n < 2:
        return Paired(float(np.mean(d)) if n else float("nan"), None, float("nan"), n, test)
    scale = max(1.0, float(np.max(np.abs(a[ok]))), float(np.max(np.abs(b[ok]))))
    if np.all(np.abs(d) <= 1e-12 * scale):      # equal up to floating-point rounding
        return Paired(0.0, (0.0, 0.0), 1.0, n, test,
                      1.0 if (permutation or test == "sign-flip" or (
                          permutation is None and n < FEW_UNITS)) else None)
    perm = sign_flip(d, seed) if (permutation or test == "sign-flip" or (
        permutation is None and n < FEW_UNITS)) else None
    if test == "sign-flip":             # few units (folds): the exact test decides
        res = stats.ttest_1samp(d, 0.0)
        ci = res.confidence_interval(LEVEL)
        return Paired(float(np.mean(d)), (float(ci.low), float(ci.high)), float(perm), n,
                      test, perm)
    if test == "t":
        p = float(stats.ttest_rel(a[ok], b[ok]).pvalue)
    elif test == "wilcoxon":
        p = float(stats.wilcoxon(d, zero_method="zsplit").pvalue)
    else:
        raise ValueError(f"paired: test must be 't', 'wilcoxon' or 'sign-flip', got {test!r}")
    ci = stats.bootstrap((d,), np.mean, n_resamples=n_resamples, vectorized=True,
                         confidence_level=LEVEL, method="percentile",
                         rng=np.random.default_rng(seed)).confidence_interval
    return Paired(float(np.mean(d)), (float(ci.low), float(ci.high)), p, n, test, perm)


def trend(settings, values) -> tuple[float, float, int]:
    """Spearman's ρ between a setting (e.g. the sample size) and per-query values pooled
    over settings, with its p-value and the number of values: a monotone claim tested as a
    trend."""
    x = np.asarray(settings, dtype=np.float64)
    y = numbers_of(values)
    ok = np.isfinite(x) & np.isfinite(y)
    if ok.sum() < 3 or np.unique(x[ok]).size < 2:
        return float("nan"), float("nan"), int(ok.sum())
    r = stats.spearmanr(x[ok], y[ok])
    return float(r.statistic), float(r.pvalue), int(ok.sum())


def holm(p_values) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error), in the input order: the
    i-th smallest p is multiplied by (m − i + 1), made monotone, capped at 1."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    order = np.argsort(p, kind="stable")
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adj[i] = running
    return adj.tolist()


def benjamini_hochberg(p_values) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (false discovery rate), in the input order
    (``scipy.stats.false_discovery_control``)."""
    p = np.asarray(p_values, dtype=np.float64)
    if p.size == 0:
        return []
    return [float(x) for x in stats.false_discovery_control(p, method="bh")]


def reproduction_measures(ours_adv: float, ours_base: float, pub_adv: float,
                          pub_base: float) -> dict:
    """Breuer et al. (2020): effect ratio ER = (ours_adv − ours_base) / (pub_adv −
    pub_base) — 1 is the published improvement reproduced at full size, 0.4 "at 40 % of its
    size", negative the opposite direction — and ΔRI = RI_ours − RI_pub with RI = (adv −
    base) / base."""
    d_pub = pub_adv - pub_base
    er = (ours_adv - ours_base) / d_pub if d_pub != 0 else float("nan")
    ri_ours = (ours_adv - ours_base) / ours_base if ours_base != 0 else float("nan")
    ri_pub = d_pub / pub_base if pub_base != 0 else float("nan")
    return {"effect_ratio": float(er), "delta_ri": float(ri_ours - ri_pub)}
