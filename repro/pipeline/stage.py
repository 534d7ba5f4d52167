"""Step 3, stage: an artifact's finished runs judged into its values and written, with its
figures, into a staging directory (moved into the report by :mod:`.promote`)."""
from __future__ import annotations

from pathlib import Path

from .. import papers as registry
from ..data.catalog import data_state
from ..judge import published as pubmod
from ..judge.assemble import Assembled, assemble_artifact
from ..judge.published import PublishedSet
from ..report.build import write_artifact
from ..run.result import RunResult
from ..spec import Artifact
from .options import Options
from .plan import quick_view
from .user_data import data_marks, without_published


def unavailable(art: Artifact, data_dir: Path) -> dict[str, str]:
    """Why each dataset of an artifact without a task cannot be had here (its values say
    so); an artifact with a task learns it from its runs."""
    if art.task:
        return {}
    return {ds: why for ds in art.datasets for ok, why in [data_state(ds, data_dir)] if not ok}


def published_values(paper: str, targets: list[Artifact], opts: Options) -> PublishedSet:
    """The published values the targets of ``paper`` are judged against: the paper's data
    file; none of the targets' own under ``opts.only_targets`` (a run on a user's data,
    ``--on``, has no published values to compare with)."""
    mod = registry.module(paper)
    published = pubmod.load(paper, getattr(mod, "PUBLISHED_PATH", None))
    if opts.only_targets:
        published = without_published(published, {a.name for a in targets if a.paper == paper})
    return published


def assemble(art: Artifact, results: list[RunResult], published: PublishedSet,
             opts: Options) -> Assembled:
    """The artifact's values judged from its runs' results, as the report shows them."""
    return assemble_artifact(quick_view(art, opts.quick), results, published, opts.quick,
                             unavailable(art, opts.data_dir),
                             data_marks(art, opts.data_dir, results),
                             aggregation=registry.aggregation)


def build_artifact(art: Artifact, results: list[RunResult], published: PublishedSet,
                   out_dir: Path, quick: bool,
                   unavailable: dict[str, str] | None = None,
                   marks: dict[str, str] | None = None) -> list[dict]:
    """Assemble the artifact and write its files (JSON, per-query sidecar, meta, figures);
    return its flat records."""
    got = assemble_artifact(art, results, published, quick, unavailable, marks,
                            aggregation=registry.aggregation)
    write_artifact(art, got.flat, got.tables, got.datasets, results, published, out_dir, quick)
    return got.flat
