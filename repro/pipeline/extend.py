"""Step 2b, the second stage of the replicate design (:mod:`repro.judge.design`): as soon as
an artifact's first-stage runs have finished (while the others run on), each artifact that may
ask for a second stage (``RunLayout.extend_to``, :func:`can_ask`) is judged, and the values
the second stage would decide (``second_stage`` in their records: inconclusive, and decided
on all the replicates if their mean and spread stayed as they are) extend the runs behind
them — the same runs with ``repeat`` = ``repeats`` … ``extend_to`` − 1, seeded from their
identity like every replicate, so the same command runs the same replicates.

The runs behind a value: those of its dataset (the data used, for a stand-in label) and of
the parts (``RunLayout.split``) that compute its method — a part whose parameters name its
``methods`` computes those; a value no part names is behind every part.  An extended run is
extended for every artifact that declares it (a figure and the claims that read the same runs
see the same replicates).
"""
from __future__ import annotations

from dataclasses import replace

from ..judge.assemble import Assembled
from ..run.result import RunResult
from ..spec import Artifact, RunSpec
from .stage import assemble

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


def can_ask(art: Artifact, quick: bool) -> bool:
    """Whether ``art`` may ask for a second stage: it has one, and values the rule decides —
    not a check of claims, and a dataset that is not a stand-in (a stand-in's values and
    claims are never decided by the design)."""
    return designed(art, quick) and art.kind != "check" and any(
        ds not in art.stand_ins for ds in art.datasets)


#: the pool's order of runs (:meth:`repro.run.runner.Runner.run`'s ``rank``): a second
#: stage's runs first, then the first stage of the artifacts that may ask for one (so that it
#: is decided early), then the others — longest first within each
RANK_SECOND, RANK_DECIDING, RANK_OTHER = 0, 1, 2


class SecondStage:
    """The second stage, decided artifact by artifact while the runs execute: as soon as
    every first-stage run of an artifact that may ask for a second stage has finished, the
    artifact is judged on them and the runs behind its values that asked join the pool
    (:meth:`follow`, handed to the runner).  The decision reads only the artifact's own
    first-stage runs, so it is the same whatever order the runs finish in.

    ``published(paper)``: the published values a paper's targets are judged against (the
    same as their pages'); ``judged``: each judged artifact's assembly (reused for its report
    when no run of it was extended); ``asked``: per artifact, the records that asked."""

    def __init__(self, targets: list[Artifact], opts, published):
        self.targets, self.opts, self.published = targets, opts, published
        self.pending = [a for a in targets if can_ask(a, opts.quick)]
        self.base = {a.id: a.runs(opts.quick) for a in self.pending}
        self.deciding = {s for specs in self.base.values() for s in specs}
        self.extended: set[Group] = set()
        self.asked: dict[str, list[dict]] = {}
        self.judged: dict[str, Assembled] = {}
        self.more: list[RunSpec] = []
        self._more: set[RunSpec] = set()

    def follow(self, results: dict[RunSpec, RunResult]) -> list[RunSpec]:
        """Judge every artifact whose first stage has finished (each once); the runs the
        second stage adds so far, for every target that declares them."""
        for art in [a for a in self.pending if all(s in results for s in self.base[a.id])]:
            self.pending.remove(art)
            if self.judge(art, [results[s] for s in self.base[art.id]]):
                self.more = [s for a in self.targets
                             for s in runs_of(a, self.opts.quick, self.extended)
                             [len(a.runs(self.opts.quick)):]]
                self._more = set(self.more)
        return self.more

    def judge(self, art: Artifact, rs: list[RunResult]) -> bool:
        """Judge ``art`` on its first stage; whether it extended a run group."""
        got = assemble(art, rs, self.published(art.paper), self.opts)
        self.judged[art.id] = got
        recs = [r for r in got.flat if r.get("second_stage")]
        before = len(self.extended)
        for r in recs:
            self.extended |= behind(art, r, self.base[art.id])
        if recs:
            self.asked[art.id] = recs
            self.opts.log(f"second stage of {art.id}: {len(recs)} value(s) left inconclusive "
                          f"that more replicates would decide; "
                          f"{len(self.extended) - before} run group(s) extended")
        return len(self.extended) > before

    def rank(self, spec: RunSpec) -> int:
        """The pool's order of ``spec`` (:data:`RANK_SECOND` …)."""
        if spec in self._more:
            return RANK_SECOND
        return RANK_DECIDING if spec in self.deciding else RANK_OTHER

    def reusable(self, art: Artifact) -> Assembled | None:
        """``art``'s assembly from its judgment, if it holds every run ``art`` now has (no
        group of it was extended): the report is then made from it."""
        if art.id not in self.judged:
            return None
        quick = self.opts.quick
        return self.judged[art.id] if runs_of(art, quick, self.extended) == art.runs(quick) \
            else None


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
