"""Tasks of stevens2010 (one run each) and its custom aggregations; each task lives in the
module of its study and the aggregations apart (:mod:`.pooled`), so that editing one study
reruns only its runs and editing an aggregation or a claim reruns none (code keys follow the
imports of a task's module)."""
from .complexity import task_complexity
from .corel import task_corel
from .google import task_google
from .letor import task_letor_fold
from .pooled import corel_means, reuters_comparisons
from .reuters import task_reuters

__all__ = ["task_letor_fold", "task_corel", "corel_means", "task_google", "task_reuters",
           "reuters_comparisons", "task_complexity"]
