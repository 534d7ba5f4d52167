"""Tasks of leelin2014 (one run each), re-exported from the module of their study so that
editing one study reruns only its runs (code keys follow imports): :mod:`.section_ii` (the
worked example of Sec. II.1), :mod:`.table_i` (Table (I) on one fold), :mod:`.figure_ii`
(Figure (II) on one dataset), :mod:`.complexity` (the counting methods' timing sweep)."""
from .common import c_label, scale_like
from .complexity import task_complexity
from .figure_ii import task_figure_ii
from .section_ii import task_section_ii
from .table_i import task_table_i

__all__ = ["task_section_ii", "task_table_i", "task_figure_ii", "task_complexity",
           "c_label", "scale_like"]
