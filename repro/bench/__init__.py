"""``python -m repro bench [group …]``: time the kernels against peers, all in one process.

One module per benchmark group, holding the group's peers (implementations the suite does
not use otherwise: a vectorised NumPy greedy path, scikit-learn's liblinear on explicit pairs,
…) and a function ``bench(data_dir, quick) -> list of cases``; :mod:`.command` registers the
groups, runs them with single-threaded thread pools and writes ``reports/benchmarks.json``
and ``.html``.  A ratio is ``peer seconds / our seconds`` (> 1: ours is faster).
"""
