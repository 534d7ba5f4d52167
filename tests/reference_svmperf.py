"""NumPy references of the SVMperf oracles' kernel (``kernels/svmperf.pyx``): the bodies the
oracles of :mod:`repro.rankers.svmperf` had before the kernel, which it must equal bit for bit.
They live in :mod:`repro.bench.svmperf`, where they are also the benchmark's peer (as the
NumPy greedy path of :mod:`repro.bench.lqo` is pahikkala2010's).  ``P`` and ``N``: the
positions (within the query) of its relevant and irrelevant documents, ascending; ``g``: the
query's scores; Prec@k's ``loss`` and ``allowed``: the oracle's table of the query, which the
kernel takes as input too (``tests/test_svmperf_kernel.py`` checks it by hand)."""
from repro.bench.svmperf import numpy_precision_at_k as precision_at_k
from repro.bench.svmperf import numpy_roc_area as roc_area

__all__ = ["precision_at_k", "roc_area"]
