"""The one registry of aggregation kinds: a declaration type (a frozen dataclass, in the module
of its topic) → the function computing it, ``(art, records, declaration) -> (new records,
not-run reasons by dataset label)``, registered with :func:`kind`.  A function that also needs
the runs' per-query tables (a test on the values behind records) is marked :func:`with_tables`
and gets them as ``tables=``; one that needs the runs' outputs (statistics a run keeps outside
its records) is marked :func:`with_outputs` and gets ``outputs=`` (``(RunSpec, output)`` pairs
in declaration order).  A kind that judges claims is marked :func:`judges_claims`: the
replicates of an artifact go through its other aggregations one by one
(:mod:`repro.judge.replicates`), its claims are judged once, on the replicate means.
:func:`apply` applies an artifact's declarations in order."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ...spec import Artifact

#: declaration type -> function (art, records, declaration, **inputs) -> (records, not_run)
KINDS: dict[type, Callable] = {}


def kind(decl_type: type):
    """Register the function computing a declaration type."""
    def register(fn):
        KINDS[decl_type] = fn
        return fn
    return register


def with_tables(fn):
    """Mark a kind's function as taking the runs' per-query tables (keyword ``tables``)."""
    fn.wants = getattr(fn, "wants", ()) + ("tables",)
    return fn


def with_outputs(fn):
    """Mark a kind's function as taking the runs' outputs (keyword ``outputs``)."""
    fn.wants = getattr(fn, "wants", ()) + ("outputs",)
    return fn


def judges_claims(fn):
    """Mark a kind's function as judging claims (not applied to one replicate alone)."""
    fn.claims = True
    return fn


@dataclass(frozen=True)
class Custom:
    """Aggregation by a function of the paper's ``tasks`` module:
    ``function(artifact, outputs) -> records``, with ``outputs`` the outputs of the artifact's
    finished runs as ``(RunSpec, output)`` pairs in declaration order.  Only for what no
    declared kind can say (each paper states why beside its use)."""
    function: str


def apply(art: Artifact, records: list[dict], outputs: list[tuple],
          custom: Callable[[str, str], Callable], tables: list | None = None,
          claims: bool = True) -> tuple[list[dict], dict]:
    """``(records + aggregated records, not-run reasons by dataset label)``.  ``custom(paper,
    name)`` resolves a Custom aggregation's function; ``outputs``: ``(RunSpec, output)`` of
    the finished runs; ``tables``: their per-query tables (for kinds that test claims);
    ``claims``: False leaves out the kinds that judge claims (one replicate's values)."""
    from .folds import FoldMean, fold_mean
    out, not_run = list(records), {}
    if art.layout.reference:                             # the modern reference's fold means
        out += fold_mean(art, out, FoldMean(select={"modern": True}))
    inputs = {"tables": tables or [], "outputs": outputs}
    for agg in art.judging.aggregate:
        if isinstance(agg, Custom):
            out += [dict(r) for r in custom(art.paper, agg.function)(art, outputs)]
            continue
        fn = KINDS.get(type(agg))
        if fn is None:
            raise TypeError(f"{art.id}: unknown aggregation {agg!r}")
        if not claims and getattr(fn, "claims", False):
            continue
        recs, why = fn(art, out, agg, **{k: inputs[k] for k in getattr(fn, "wants", ())})
        out += recs
        not_run.update(why)
    return out, not_run
