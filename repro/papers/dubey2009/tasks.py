"""Tasks of dubey2009 (one run each) and its custom aggregation; each lives in the module of
its study, so that editing one study re-runs only its runs (code keys follow imports):
``fold`` (Figure 3 in ``figure3``, the Sec. 5.3 studies in ``sampling``), ``throughput``,
``complexity``; the context of the OHSUMED gap (``gap``) is imported by no run."""
from .complexity import task_complexity
from .fold import task_fold
from .gap import gap_context
from .throughput import task_throughput

__all__ = ["task_fold", "task_throughput", "task_complexity", "gap_context"]
