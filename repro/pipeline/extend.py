"""Step 2b, the second stage of the replicate design (:mod:`repro.judge.design`): after the
first stage's runs, each artifact with a second stage (``Artifact.extend_to``) is judged, and
the values the second stage would decide (``second_stage`` in their records: inconclusive,
and decided on all the replicates if their mean and spread stayed as they are) extend the
runs behind them — the same runs with ``repeat`` = ``repeats`` … ``extend_to`` − 1, seeded
from their identity like every replicate, so the same command runs the same replicates.

The runs behind a value: those of its dataset (the data used, for a stand-in label) and of
the parts (``Artifact.split``) that compute its method — a part whose parameters name its
``methods`` computes those; a value no part names is behind every part.  An extended run is
extended for every artifact that declares it (a figure and the claims that read the same runs
see the same replicates).
"""
from __future__ import annotations

from dataclasses import replace

from .. import papers as registry
from ..judge import published as pubmod
from ..judge.assemble import assemble_artifact
from ..run.result import RunResult
from ..spec import Artifact, RunSpec
from .plan import quick_view
from .stage import unavailable
from .user_data import data_marks

#: a run's group: the run without its fold and replicate (what a second stage extends)
Group = tuple


def group(spec: RunSpec) -> Group:
    return (spec.paper, spec.task, spec.dataset, spec.params_json, spec.part, spec.quick,
            spec.like)


def designed(art: Artifact, quick: bool) -> bool:
    """Whether ``art`` has a second stage in this run (never under ``--quick``)."""
    eff = art.effective(quick)
    return bool(eff.layout.extend_to) and eff.layout.extend_to > eff.layout.repeats


def runs_of(art: Artifact, quick: bool, extended: set[Group]) -> list[RunSpec]:
    """The runs of ``art``: its first stage's, then the second stage's of its groups in
    ``extended``."""
    base = art.runs(quick)
    if not designed(art, quick):
        return base
    eff = art.effective(quick)
    return base + [replace(s, repeat=r) for s in base
                   if s.repeat == 0 and not s.exclusive and group(s) in extended
                   for r in range(eff.layout.repeats, eff.layout.extend_to)]


def every_extension(art: Artifact, quick: bool) -> list[RunSpec]:
    """Every run a second stage could add to ``art`` (none without a second stage)."""
    base = art.runs(quick)
    return runs_of(art, quick, {group(s) for s in base})[len(base):]


def behind(art: Artifact, rec: dict, specs: list[RunSpec]) -> set[Group]:
    """The groups of the runs behind record ``rec`` of ``art`` (module docstring)."""
    label = rec.get("dataset")
    used = {d for d in art.datasets if d == label or art.stand_ins.get(d) == label
            or d == rec.get("data_used")}
    out = set()
    for ds in used:
        parts = art.parts_for(ds)
        naming = [name for name, over in parts if rec.get("method") in (over.get("methods") or ())]
        wanted = set(naming) if naming else {name for name, _ in parts}
        out |= {group(s) for s in specs
                if s.dataset == ds and s.part in wanted and s.repeat == 0}
    return out


def second_stage(targets: list[Artifact], results: dict[RunSpec, RunResult], opts,
                 extended: set[Group]) -> dict[str, list[dict]]:
    """Judge every target with a second stage on its first stage's runs; add the groups the
    second stage extends to ``extended``; return, per artifact, the records that asked for
    it (``{artifact id: [records]}``, for the log and the run's summary)."""
    asked: dict[str, list[dict]] = {}
    published = {}
    for art in targets:
        if not designed(art, opts.quick):
            continue
        specs = art.runs(opts.quick)
        rs = [results[s] for s in specs]
        if art.paper not in published:
            mod = registry.module(art.paper)
            published[art.paper] = pubmod.load(art.paper, getattr(mod, "PUBLISHED_PATH", None))
        got = assemble_artifact(quick_view(art, opts.quick), rs, published[art.paper],
                                opts.quick, unavailable(art, opts.data_dir),
                                data_marks(art, opts.data_dir, rs),
                                aggregation=registry.aggregation)
        recs = [r for r in got.flat if r.get("second_stage")]
        for r in recs:
            extended |= behind(art, r, specs)
        if recs:
            asked[art.id] = recs
    return asked


def summary(asked: dict[str, list[dict]], extended: set[Group]) -> list[str]:
    """Lines for the log: which values asked for a second stage, and how many run groups
    (a dataset's runs of one part, over its folds) it extends."""
    if not asked:
        return ["second stage: no value left inconclusive that more replicates would decide"]
    out = [f"second stage: {sum(map(len, asked.values()))} value(s) left inconclusive that "
           f"more replicates would decide; {len(extended)} run group(s) extended"]
    for art_id, recs in asked.items():
        cells = sorted({f"{r.get('dataset')} {r.get('method')} {r.get('metric')}" for r in recs})
        out.append(f"  {art_id}: " + "; ".join(cells[:6]) + (" …" if len(cells) > 6 else ""))
    return out
