"""What the benchmark groups take from the papers, resolved here so that :mod:`repro.bench`
names no paper and asks no registry: a paper declares ``BENCH_INPUTS`` (``{group: input}``)
and the ``bench`` command hands each group the keyword arguments built from them."""
from __future__ import annotations

from dataclasses import asdict

from .. import papers as registry


def scale_runs(quick: bool = False, dataset: str | None = None) -> list[dict]:
    """The runs the papers declare for ``bench scale`` (``BENCH_INPUTS["scale"]``: ``{"artifact",
    "label", "dataset", "fold"}``), each with its run's fields (``spec``) and its task as
    ``module:function``, so that a child process runs it without the registry.  ``dataset``
    replaces the declared dataset (a test on a small set)."""
    out = []
    for pid, runs in registry.bench_inputs("scale"):
        for run in runs:
            art = next(a for a in registry.artifacts(pid) if a.name == run["artifact"])
            ds = dataset or run["dataset"]
            spec = next(s for s in art.runs(quick) if s.dataset == ds
                        and s.fold in (None, run["fold"], str(run["fold"])))
            fn = registry.task(pid, spec.task)
            out.append({**run, "dataset": ds, "paper": pid, "spec": asdict(spec),
                        "task": f"{fn.__module__}:{fn.__name__}"})
    return out


def bench_inputs(group: str) -> dict:
    """The keyword arguments of ``group``'s ``bench`` function that come from the papers."""
    if group == "assignment":
        declared = registry.bench_inputs("assignment")
        return {"queries": declared[0][1]} if declared else {}
    if group == "scale":
        return {"paper_runs": scale_runs()}
    return {}
