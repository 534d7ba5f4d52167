"""A user's data in the pipeline: an artifact's protocol on a user's set (``--on``), the
published values such a run has nothing to compare with, and the marks its values carry."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..data import catalog as cat
from ..errors import ReproError
from ..judge.published import PublishedSet
from ..spec import Artifact


def on_dataset(art: Artifact, name: str) -> Artifact:
    """``--on NAME``: the artifact's protocol (its task, methods, selection, evaluation,
    aggregations) on the user's set ``NAME`` in place of the artifact's LETOR dataset, over
    the user set's folds (an artifact of several LETOR sets runs once, with the first one's
    settings).  The task learns which dataset the set stands for from
    ``ctx.like`` (its per-dataset settings)."""
    if art.task is None or art.timing:
        raise ReproError(f"--on {name}: {art.id} " + ("is not implemented" if art.task is None
                         else "measures times on synthetic data") + "; choose an artifact "
                         "that runs a protocol on LETOR data")
    letor = [ds for ds in art.datasets
             if ds != cat.SYNTHETIC and cat.dataset(ds).kind == "letor"]
    if not letor:
        raise ReproError(f"--on {name}: {art.id} runs on {', '.join(art.datasets)}, not on a "
                         f"LETOR set; choose an artifact whose protocol runs on LETOR data")
    like = letor[0]               # several (e.g. MQ2008 and OHSUMED): the first one's settings
    info = cat.dataset(name)
    folds = art.folds_for(like)
    if all(isinstance(f, int) for f in folds):
        folds = tuple(range(1, info.n_folds + 1))
    quick = art.layout.quick
    if quick.folds is not None:
        qf = tuple(quick.folds.of(like))
        if all(isinstance(f, int) for f in qf):
            qf = tuple(f for f in qf if f <= info.n_folds) or (1,)
        quick = replace(quick, folds=qf)
    return art.replace(datasets=(name,), stand_ins={}, folds=folds, quick=quick,
                       like={name: like},
                       title=f"{art.title} — protocol run on user data: {name} (unverified), "
                             f"in place of {like}")


def without_published(published: PublishedSet, names) -> PublishedSet:
    """The published set without the values of artifacts ``names`` (run on a user's data:
    nothing published to compare with)."""
    return replace(published, values=[v for v in published.values if v.artifact not in names])


def data_marks(art: Artifact, data_dir: Path, results) -> dict[str, str]:
    """What the values of each dataset the artifact ran on must say (user data, an unverified
    copy; "" for verified data)."""
    done = {r.spec.dataset for r in results if r.status == "done"}
    return {ds: cat.data_mark(ds, data_dir) for ds in art.datasets
            if ds in done or (ds != cat.SYNTHETIC and cat.dataset(ds).user)}
