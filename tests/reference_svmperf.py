"""NumPy references of the SVMperf oracles' kernel (``kernels/svmperf.pyx``): the bodies the
oracles of :mod:`repro.rankers.svmperf` had before the kernel, which it must equal bit for bit.
They live in :mod:`repro.bench.svmperf`, where they are also the benchmark's peer (as the
NumPy greedy path of :mod:`repro.bench.lqo` is pahikkala2010's).  ``P`` and ``N``: the
positions (within the query) of its relevant and irrelevant documents, ascending; ``g``: the
query's scores."""
from repro.bench.svmperf import numpy_precision_at_k, numpy_roc_area


def roc_area(g, P, N):
    """``(coef, Δ)`` of ROCArea's most violated labelling."""
    return numpy_roc_area(g, P, N)


def precision_at_k(g, P, N, k):
    """``(coef, Δ)`` of Prec@k's most violated labelling."""
    return numpy_precision_at_k(g, P, N, k)
