"""Step 1, plan: the runs the targets need, and how an artifact is shown under ``--quick``."""
from __future__ import annotations

from ..spec import Artifact, RunSpec


def run_specs(targets: list[Artifact], quick: bool) -> list[RunSpec]:
    """Every run of every target, in the targets' order (a run two targets share is listed
    twice; the runner executes it once)."""
    return [s for a in targets for s in a.runs(quick)]


def quick_view(art: Artifact, quick: bool) -> Artifact:
    """Under ``--quick``, an artifact that shows only fold means (``select`` fold "avg") of
    folds the quick subset does not all run shows its per-fold values instead of nothing
    (the page says the values are outside the --quick subset)."""
    if not quick or art.judging.select.get("fold") != "avg":
        return art
    eff = art.effective(True)
    if all(eff.folds_for(ds) == art.folds_for(ds) for ds in art.datasets):
        return art
    return art.replace(select={k: v for k, v in art.judging.select.items() if k != "fold"})
