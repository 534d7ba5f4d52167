"""NumPy references of the SVMperf oracles' kernel (``kernels/svmperf.pyx``): the bodies the
oracles of :mod:`repro.rankers.svmperf` had before the kernel, which it must equal bit for bit.
``P`` and ``N``: the positions (within the query) of its relevant and irrelevant documents,
ascending; ``g``: the query's scores."""
import numpy as np


def roc_area(g, P, N):
    """``(coef, Δ)`` of ROCArea's most violated labelling."""
    swapped = (g[P] - 0.25)[:, None] < (g[N] + 0.25)[None, :]
    scale = 1.0 / (P.size * N.size)
    coef = np.zeros(g.shape[0])
    coef[P] = 2.0 * scale * swapped.sum(axis=1)
    coef[N] = -2.0 * scale * swapped.sum(axis=0)
    return coef, scale * float(swapped.sum())


def precision_losses(P, N, k):
    k = min(k, P.size + N.size)
    a = np.arange(P.size + 1)[:, None]
    b = np.arange(N.size + 1)[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        loss = 1.0 - a / (a + b)
    return loss, (a + b >= k) & (loss > 0)


def precision_at_k(g, P, N, k):
    """``(coef, Δ)`` of Prec@k's most violated labelling."""
    loss, allowed = precision_losses(P, N, k)
    P = P[np.argsort(-g[P], kind="stable")]
    N = N[np.argsort(-g[N], kind="stable")]
    cp = np.concatenate(([0.0], np.cumsum(g[P])))
    cn = np.concatenate(([0.0], np.cumsum(g[N])))
    score = (2.0 * cp[:, None] - cp[-1]) + (2.0 * cn[None, :] - cn[-1])
    val = np.where(allowed, loss + score, -np.inf)
    ia, ib = np.unravel_index(int(np.argmax(val)), val.shape)
    coef = np.zeros(g.shape[0])
    coef[P[ia:]] = 2.0
    coef[N[:ib]] = -2.0
    return coef, float(loss[ia, ib])
