"""Tasks of stevens2010 (one run each) and its custom aggregations; each lives in the module of
its study, so that editing one study reruns only its runs (code keys follow imports)."""
from .complexity import task_complexity
from .corel import corel_summary, task_corel
from .google import task_google
from .letor import average_ranks, task_letor_fold
from .reuters import task_reuters, text_claims

__all__ = ["task_letor_fold", "average_ranks", "task_corel", "corel_summary", "task_google",
           "task_reuters", "text_claims", "task_complexity"]
