"""Tasks of lesmola2007 (one run each), each in the module of its study, so that editing one
study reruns only its runs (code keys follow the imports of the module defining a task):
:mod:`.folds` (Table 1 via :mod:`.uci`, Figures 2–7 and Table 2 via :mod:`.web`),
:mod:`.runtime` (the timing runs of Figure 7 and Table 2's "% in QP"), :mod:`.docs`
(Figure 1), :mod:`.eachmovie` (Tables 3–4), :mod:`.complexity` (our timing figure).
Aggregations are declarations in ``__init__``; none is a custom function."""
from .complexity import task_complexity
from .docs import task_docs_per_query
from .eachmovie import task_eachmovie
from .folds import task_fold
from .runtime import task_runtime

__all__ = ["task_fold", "task_runtime", "task_docs_per_query", "task_eachmovie",
           "task_complexity"]
