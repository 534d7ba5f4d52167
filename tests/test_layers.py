"""The layering rule: a module imports only from its own layer or below.

    errors/experiment/cache/published (+ codekey, aggregate, evidence, kernels)  →  data
    →  metrics  →  rankers  →  protocol/timing/plotting/runner/console/reference  →  papers
    →  report  →  bench/pipeline/assemble/eval_command  →  cli

The report layer renders what was computed and stored: it imports no data loader, metric,
ranker, aggregation or protocol (assembling values is :mod:`repro.assemble`'s job).

Imports are read from the source (every ``import`` statement, also inside functions) by
:func:`repro.codekey.imports_of`, the same reader that derives the cache's code keys.
"""
import pkgutil

import repro
from repro.codekey import imports_of

LAYERS = [
    ("repro", "repro.errors", "repro.experiment", "repro.cache", "repro.published",
     "repro.codekey", "repro.aggregate", "repro.provenance", "repro._kernels",
     "repro.evidence", "repro.stats", "repro.intervals", "repro.run_files"),
    ("repro.data",),
    ("repro.metrics",),
    ("repro.rankers",),
    ("repro.protocol", "repro.timing", "repro.plotting", "repro.runner", "repro.console",
     "repro.reference"),
    ("repro.papers",),
    ("repro.report",),
    ("repro.bench", "repro.pipeline", "repro.eval_command", "repro.assemble",
     "repro.runs_command"),
    ("repro.cli", "repro.__main__"),
]


def layer(module: str) -> int:
    """The layer of ``module``: the longest declared prefix wins."""
    best, depth = None, -1
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > depth:
                best, depth = i, len(p)
    if best is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS")
    return best


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a higher layer, as text."""
    return [f"{m} (layer {layer(m)}) imports {t} (layer {layer(t)})"
            for m, targets in sorted(graph.items()) for t in sorted(targets)
            if layer(t) > layer(m)]


def package_modules() -> list[str]:
    mods = ["repro"]
    for info in pkgutil.walk_packages(repro.__path__, "repro."):
        mods.append(info.name)
    return mods


def test_every_module_imports_only_downward():
    graph = {m: imports_of(m) for m in package_modules()}
    assert len(graph) > 40
    assert violations(graph) == []


def test_the_rule_catches_an_upward_import():
    # a plotting helper importing the bench command, a runner importing the paper registry
    graph = {"repro.plotting": {"repro.bench.command"}, "repro.runner": {"repro.papers"},
             "repro.papers.x.tasks": {"repro.rankers.lqo", "repro.protocol"}}
    got = violations(graph)
    assert got == ["repro.plotting (layer 4) imports repro.bench.command (layer 7)",
                   "repro.runner (layer 4) imports repro.papers (layer 5)"]


def test_imports_inside_functions_are_read(tmp_path):
    src = "def f():\n    from ..report import html\n    import repro.cli\n"
    assert imports_of("repro.rankers.fake", source=src) == {"repro.report.html", "repro.cli"}


#: what the report layer must not import: it renders stored values, it computes none
COMPUTING = ("repro.data", "repro.metrics", "repro.rankers", "repro.reference",
             "repro.aggregate", "repro.protocol", "repro.assemble")


def computing_imports(graph: dict[str, set[str]]) -> list[str]:
    return [f"{m} imports {t}" for m, targets in sorted(graph.items())
            if m == "repro.report" or m.startswith("repro.report.")
            for t in sorted(targets)
            if any(t == c or t.startswith(c + ".") for c in COMPUTING)]


def test_the_report_layer_imports_no_data_ranker_or_aggregation():
    graph = {m: imports_of(m) for m in package_modules()}
    assert any(m.startswith("repro.report.") for m in graph)
    assert computing_imports(graph) == []


def test_the_report_rule_catches_a_computing_import():
    graph = {"repro.report.build": {"repro.data.catalog", "repro.cache"},
             "repro.report.html": {"repro.reference"}, "repro.pipeline": {"repro.data"}}
    assert computing_imports(graph) == ["repro.report.build imports repro.data.catalog",
                                        "repro.report.html imports repro.reference"]


def paper_package_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports of a paper package (``repro.papers.<id>``) from ``repro.bench``: benchmarks
    use shared code (``repro.data``, ``repro.rankers``), the registry at most."""
    return [f"{m} imports {t}" for m, targets in sorted(graph.items())
            if m.startswith("repro.bench") for t in sorted(targets)
            if t.startswith("repro.papers.")]


def test_the_benchmarks_import_no_paper_package():
    graph = {m: imports_of(m) for m in package_modules()}
    assert paper_package_imports(graph) == []
    assert paper_package_imports({"repro.bench.x": {"repro.papers.lesmola2007.uci",
                                                   "repro.papers"}}) == \
        ["repro.bench.x imports repro.papers.lesmola2007.uci"]
