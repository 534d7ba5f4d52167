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
* :func:`holm` — Holm's step-down adjustment of p-values when a claim picks the best of
  several variants (each comparison counts);
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
from .verdicts import Verdict

N_RESAMPLES = 10_000
LEVEL = 0.95


def seed_from(text: str) -> int:
    """A 32-bit seed from the text naming what is resampled (an artifact and a record's key,
    a claim and the compared methods): the same evidence always gets the same interval."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "little")


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


@dataclass
class Paired:
    """A paired comparison of A against B: ``effect`` = mean(A − B) over queries, its
    interval, the p-value and the number of queries."""
    effect: float
    ci95: tuple[float, float] | None
    p_value: float
    n_queries: int
    test: str

    @property
    def significant(self) -> bool:
        return bool(np.isfinite(self.p_value) and self.p_value < 0.05)

    def outcome(self, expected_sign: int = 1) -> Verdict:
        """"holds" (significant, expected sign), "contradicted" (significant, other sign) or
        "not significant here" (:class:`repro.judge.verdicts.Verdict`)."""
        if not self.significant:
            return Verdict.NOT_SIGNIFICANT
        return Verdict.HOLDS if np.sign(self.effect) == np.sign(expected_sign) \
            else Verdict.CONTRADICTED

    def as_dict(self) -> dict:
        return {"effect": self.effect, "ci95": list(self.ci95) if self.ci95 else None,
                "p_value": self.p_value, "n_queries": self.n_queries, "test": self.test}


def paired(a, b, seed: int, test: str = "t", n_resamples: int = N_RESAMPLES) -> Paired:
    """Paired comparison of per-query values ``a`` and ``b`` (same queries, same order;
    pairs with an undefined value are dropped)."""
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
        return Paired(0.0, (0.0, 0.0), 1.0, n, test)
    if test == "t":
        p = float(stats.ttest_rel(a[ok], b[ok]).pvalue)
    elif test == "wilcoxon":
        p = float(stats.wilcoxon(d, zero_method="zsplit").pvalue)
    else:
        raise ValueError(f"paired: test must be 't' or 'wilcoxon', got {test!r}")
    ci = stats.bootstrap((d,), np.mean, n_resamples=n_resamples, vectorized=True,
                         confidence_level=LEVEL, method="percentile",
                         rng=np.random.default_rng(seed)).confidence_interval
    return Paired(float(np.mean(d)), (float(ci.low), float(ci.high)), p, n, test)


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
