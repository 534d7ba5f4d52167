"""What a pipeline run reports back to the command."""
from __future__ import annotations


class Outcome(dict):
    """The flat records of each target artifact (``{artifact id: records}``), the runs whose
    data was refused (``refused``: run label → why), the runs that failed (``failed``: run
    label → why) and the artifacts whose report was kept because the new build would have
    lost computed values or replaced a full run with a ``--quick`` one (``kept``: artifact
    id → the values, described)."""

    def __init__(self):
        super().__init__()
        self.refused: dict[str, str] = {}
        self.failed: dict[str, str] = {}
        self.kept: dict[str, list[str]] = {}
