"""Tasks of pahikkala2010 (one run each), re-exported from the module of their study so that
editing one study reruns only its runs (code keys follow imports): :mod:`.folds` (the §4
protocol on one fold) and :mod:`.complexity` (the timing sweep)."""
from .complexity import task_complexity
from .folds import task_fold

__all__ = ["task_fold", "task_complexity"]
