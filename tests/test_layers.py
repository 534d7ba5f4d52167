"""The layering rule: a module imports only from its own layer or below.  The layers are the
stages of the pipeline (``docs/architecture.md`` draws them):

    base (errors, files, spec)  →  data  →  metrics  →  rankers  →  evidence  →  run
    →  judge (stats, intervals, published values, verdicts, kinds, claims)  →  papers
    →  judge.assemble  →  report  →  pipeline  →  bench, cli

The report layer renders what was computed and stored: it imports no data loader, metric,
ranker, aggregation or protocol (assembling values is :mod:`repro.judge.assemble`'s job, and
the pipeline, :mod:`repro.pipeline`, hands what it assembled to the report).  The pipeline
orchestrates runner, judge and report; the commands parse arguments and call it.

Imports are read from the source (every ``import`` statement, also inside functions) by
:func:`repro.run.codekey.imports_of`, the same reader that derives the cache's code keys.
"""
import pkgutil

import pytest

import repro
from repro.run.codekey import imports_of

#: the stages, lowest first; a module's layer is that of its longest declared prefix
LAYERS = [
    ("repro", "repro.errors", "repro.files", "repro._kernels", "repro.spec"),
    ("repro.data",),
    ("repro.metrics",),
    ("repro.rankers",),
    ("repro.evidence",),
    ("repro.run",),
    ("repro.judge",),
    ("repro.papers",),
    ("repro.judge.assemble",),
    ("repro.report",),
    ("repro.pipeline",),
    ("repro.bench", "repro.cli", "repro.__main__"),
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


@pytest.mark.slow
def test_every_module_imports_only_downward():
    graph = {m: imports_of(m) for m in package_modules()}
    assert len(graph) > 40
    assert violations(graph) == []


def test_the_rule_catches_an_upward_import():
    # a plotting helper importing the bench command, a runner importing the paper registry,
    # an aggregation kind importing the assembly, the report or the runner importing the
    # pipeline, the pipeline importing a command
    graph = {"repro.papers.plotting": {"repro.bench.command"},
             "repro.run.runner": {"repro.papers", "repro.pipeline.options"},
             "repro.judge.kinds": {"repro.judge.assemble"},
             "repro.report.pages": {"repro.pipeline"},
             "repro.pipeline.run": {"repro.report.pages", "repro.run.runner",
                                    "repro.judge.assemble", "repro.cli.guards"},
             "repro.cli.pipeline": {"repro.pipeline.run"},
             "repro.papers.x.tasks": {"repro.rankers.lqo", "repro.evidence.protocol"}}
    got = violations(graph)
    assert got == ["repro.judge.kinds (layer 6) imports repro.judge.assemble (layer 8)",
                   "repro.papers.plotting (layer 7) imports repro.bench.command (layer 11)",
                   "repro.pipeline.run (layer 10) imports repro.cli.guards (layer 11)",
                   "repro.report.pages (layer 9) imports repro.pipeline (layer 10)",
                   "repro.run.runner (layer 5) imports repro.papers (layer 7)",
                   "repro.run.runner (layer 5) imports repro.pipeline.options (layer 10)"]


def test_imports_inside_functions_are_read(tmp_path):
    src = "def f():\n    from ..report import pages\n    import repro.cli\n"
    assert imports_of("repro.rankers.fake", source=src) == {"repro.report.pages", "repro.cli"}


#: what the report layer must not import: it renders stored values, it computes none
COMPUTING = ("repro.data", "repro.metrics", "repro.rankers", "repro.evidence.reference",
             "repro.judge.kinds", "repro.evidence.protocol", "repro.judge.assemble")


def computing_imports(graph: dict[str, set[str]]) -> list[str]:
    return [f"{m} imports {t}" for m, targets in sorted(graph.items())
            if m == "repro.report" or m.startswith("repro.report.")
            for t in sorted(targets)
            if any(t == c or t.startswith(c + ".") for c in COMPUTING)]


@pytest.mark.slow
def test_the_report_layer_imports_no_data_ranker_or_aggregation():
    graph = {m: imports_of(m) for m in package_modules()}
    assert any(m.startswith("repro.report.") for m in graph)
    assert computing_imports(graph) == []


def test_the_report_rule_catches_a_computing_import():
    graph = {"repro.report.build": {"repro.data.catalog", "repro.files"},
             "repro.report.html": {"repro.evidence.reference"}, "repro.pipeline.run": {"repro.data"}}
    assert computing_imports(graph) == ["repro.report.build imports repro.data.catalog",
                                        "repro.report.html imports repro.evidence.reference"]


def paper_package_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports of a paper package (``repro.papers.<id>``) from ``repro.bench``: benchmarks
    use shared code (``repro.data``, ``repro.rankers``), the registry at most."""
    return [f"{m} imports {t}" for m, targets in sorted(graph.items())
            if m.startswith("repro.bench") for t in sorted(targets)
            if t.startswith("repro.papers.")]


@pytest.mark.slow
def test_the_benchmarks_import_no_paper_package():
    graph = {m: imports_of(m) for m in package_modules()}
    assert paper_package_imports(graph) == []
    assert paper_package_imports({"repro.bench.x": {"repro.papers.lesmola2007.uci",
                                                   "repro.papers"}}) == \
        ["repro.bench.x imports repro.papers.lesmola2007.uci"]


#: the library: the layers that serve every paper, and so name none
LIBRARY = ("repro.metrics", "repro.rankers", "repro.data", "repro.run", "repro.judge",
           "repro.report", "repro.bench", "repro.evidence", "repro.spec")


def _strings(source: str) -> list[str]:
    """The string constants of ``source``, docstrings aside (prose may cite a paper; code
    that looks one up needs its id as a value)."""
    import ast
    tree = ast.parse(source)
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    found = [node for node in ast.walk(tree) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and id(node) not in docs]
    return [node.value for node in sorted(found, key=lambda n: (n.lineno, n.col_offset))]


def paper_references(module: str, source: str, imports: set[str], ids) -> list[str]:
    """Every way library ``module`` reaches a paper: a string constant naming a paper id (a
    registry call by id, ``registry.module("lesmola2007")``, a convention named after it), an
    import of a paper package, and — for the benchmarks — the registry itself (their inputs
    are handed in)."""
    out = [f"{module} names {pid} in {text!r}" for text in _strings(source) for pid in ids
           if pid in text]
    out += [f"{module} imports {t}" for t in sorted(imports)
            if any(t == f"repro.papers.{pid}" or t.startswith(f"repro.papers.{pid}.")
                   for pid in ids)]
    if module.startswith("repro.bench"):
        out += [f"{module} imports the paper registry ({t})" for t in sorted(imports)
                if t == "repro.papers"]
    return out


def _source(module: str) -> str:
    import importlib.util
    return open(importlib.util.find_spec(module).origin, encoding="utf-8").read()


@pytest.mark.slow
def test_the_library_names_no_paper():
    ids = repro_papers().known_ids()
    library = [m for m in package_modules()
               if any(m == p or m.startswith(p + ".") for p in LIBRARY)]
    assert len(library) > 40 and len(ids) >= 5
    found = [line for m in library
             for line in paper_references(m, _source(m), imports_of(m), ids)]
    assert found == []


def test_the_paper_rule_catches_a_library_module_that_names_a_paper():
    ids = ("lesmola2007", "dubey2009")
    planted = ('"""Uses lesmola2007\'s queries (a docstring may say so)."""\n'
               'from .. import papers as registry\n'
               'def f(d):\n'
               '    return registry.module("lesmola2007").table1_queries(d)\n'
               'NAME = "dubey2009.figure3"\n')
    imports = {"repro.papers", "repro.papers.lesmola2007.uci"}
    assert paper_references("repro.bench.x", planted, imports, ids) == [
        "repro.bench.x names lesmola2007 in 'lesmola2007'",
        "repro.bench.x names dubey2009 in 'dubey2009.figure3'",
        "repro.bench.x imports repro.papers.lesmola2007.uci",
        "repro.bench.x imports the paper registry (repro.papers)"]
    # a report module may use the registry by a variable (the figure of any paper)
    assert paper_references("repro.report.build", "def f(a):\n    return registry.figure("
                            "a.paper, a.figure)\n", {"repro.papers"}, ids) == []


def repro_papers():
    from repro import papers
    return papers
