"""Every paper's declarations resolve: tasks, figures and custom aggregations exist, datasets
are in the catalog, quick runs exist for implemented artifacts, names are unique; every name a
``select`` or an aggregation asks for, and every published cell, is one the paper's run code
(or an aggregation) writes — checked on the sources, for every paper, without committed
reports."""
import ast
import dataclasses
import re
from pathlib import Path

import pytest

from repro import papers
from repro.data import catalog as cat
from repro.judge.kinds import Custom
from repro.judge.published import load
from repro.spec import RunContext
from repro.spec.params import ParamsError, check_run

PAPERS = papers.paper_ids()


@pytest.mark.parametrize("paper", PAPERS)
def test_declarations_resolve(paper):
    mod = papers.module(paper)
    assert mod.PAPER.id == paper
    names = [a.name for a in mod.ARTIFACTS]
    assert len(names) == len(set(names)), "artifact names must be unique"
    known = set(cat.catalog()) | {cat.SYNTHETIC}
    for art in mod.ARTIFACTS:
        assert art.paper == paper
        for ds in art.datasets:
            assert ds in known, f"{art.id}: dataset {ds!r} is not in the catalog"
        for ds in art.stand_ins:
            assert ds in art.datasets, f"{art.id}: stand-in {ds!r} is not a dataset it runs"
        if art.task is None:
            assert art.runs() == []
            continue
        assert callable(papers.task(paper, art.task))
        if art.shown.figure:
            assert callable(papers.figure(paper, art.shown.figure))
        for agg in art.judging.aggregate:
            if isinstance(agg, Custom):
                assert callable(papers.aggregation(paper, agg.function))
        assert art.runs(), f"{art.id}: no runs"
        assert art.runs(quick=True), f"{art.id}: no quick runs"
        assert len(art.runs(quick=True)) <= len(art.runs())


@pytest.mark.parametrize("paper", PAPERS)
def test_published_values_name_declared_artifacts(paper):
    names = {a.name for a in papers.module(paper).ARTIFACTS}
    for v in load(paper).values:
        assert v.artifact in names, f"{paper}.toml: value for unknown artifact {v.artifact!r}"


# --- names are checked: every select and aggregation names what the paper's code produces --------

UNRESOLVED = "unresolved-row"


def declared_names(art) -> list[tuple[str, str, str]]:
    """``(where, field, name)`` for every method and metric that the artifact's ``select``
    and its aggregations select by (``{"method": …, "metric": …}`` at any depth: the
    selections of a claim, the cells of a ``CellsWithGap``, a ``Difference``'s minuend …),
    in declaration order.  A plain ``metric=`` of an aggregation is the name it writes."""
    out = []

    def walk(obj, where):
        if isinstance(obj, dict):
            for k, v in obj.items():
                if k in ("method", "metric") and isinstance(v, (str, list, tuple, set)):
                    for name in ([v] if isinstance(v, str) else v):
                        out.append((where, k, str(name)))
                else:
                    walk(v, f"{where}.{k}")
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                walk(v, where)
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            for f in dataclasses.fields(obj):
                walk(getattr(obj, f.name), f"{where}.{f.name}")

    walk(art.judging.select, "select")
    for i, agg in enumerate(art.judging.aggregate):
        walk(agg, f"aggregate[{i}] {type(agg).__name__}")
    return out


class Vocabulary:
    """Names something can produce: literal strings, and templates (``"{metric} ±"``,
    f-strings) whose placeholders stand for any text."""

    def __init__(self, literals=(), templates=()):
        self.literals = set(literals)
        self.patterns = []
        for t in templates:
            self.add_template(t)

    def add_template(self, template: str):
        if not re.sub(r"\{[^}]*\}", "", template).strip():
            return                           # placeholders only ("{method}"): names nothing
        if "{" in template:
            pattern = re.sub(r"\\\{[^}]*\\\}", ".+", re.escape(template))
            self.patterns.append(re.compile(pattern + "$", re.DOTALL))
        else:
            self.literals.add(template)

    def __contains__(self, name: str) -> bool:
        return name in self.literals or any(p.match(name) for p in self.patterns)

    def __or__(self, other: "Vocabulary") -> "Vocabulary":
        v = Vocabulary(self.literals | other.literals)
        v.patterns = self.patterns + other.patterns
        return v


def _flat_strings(value, skip_selections: bool = False):
    """The strings in a value (dicts, sequences and dataclasses followed); with
    ``skip_selections`` not those a ``{"method": …, "metric": …}`` selection asks for."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if not (skip_selections and k in ("method", "metric")):
                yield from _flat_strings(v, skip_selections)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from _flat_strings(v, skip_selections)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _flat_strings(getattr(value, f.name), skip_selections)


def _templates(tree) -> list[str]:
    """The strings and f-string shapes (placeholders as ``{}``) written in a syntax tree."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append(node.value)
        elif isinstance(node, ast.JoinedStr):
            out.append("".join(v.value if isinstance(v, ast.Constant) else "{}"
                               for v in node.values))
    return out


def code_vocabulary(paper: str) -> Vocabulary:
    """What the paper's run code can name: the strings and f-string shapes written in its
    modules other than the declarations (``__init__.py``) and ``names.py``, and what the
    ``names.py`` constants and label functions (their strings, and the constants they join to
    a name) that those modules use stand for.  A name that appears only in a declaration (a
    typo there, or a name no run writes) is not in it."""
    pkg = Path(papers.module(paper).__file__).parent
    names_mod = pkg / "names.py"
    shared: dict[str, list[str]] = {}
    if names_mod.is_file():
        source = names_mod.read_text(encoding="utf-8")
        ns: dict = {}
        exec(compile(source, str(names_mod), "exec"), ns)
        shared = {k: list(_flat_strings(v)) for k, v in ns.items() if not k.startswith("__")}
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef):             # a label function: its strings,
                joined = [t for n in ast.walk(node) if isinstance(n, ast.Name)  # and the
                          for c in shared.get(n.id, ()) for t in ("{}" + c, c + "{}")]  # constants
                shared[node.name] = _templates(node) + joined                  # it joins on
    vocab = Vocabulary()
    for module in sorted(pkg.glob("*.py")):
        if module.name in ("__init__.py", "names.py"):
            continue
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for text in _templates(tree):
            vocab.add_template(text)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Name, ast.Attribute, ast.alias)):
                ident = (node.id if isinstance(node, ast.Name) else
                         node.attr if isinstance(node, ast.Attribute) else node.name)
                for text in shared.get(ident, ()):
                    vocab.add_template(text)
    return vocab


def emitted_vocabulary(art) -> Vocabulary:
    """Names the artifact's aggregations themselves write (a ``metric=``, a metric format, a
    label; a ``suffix`` appended to the names they read): a later aggregation or the
    ``select`` may ask for them.  What their selections ask for is not among them."""
    vocab = Vocabulary()
    for agg in art.judging.aggregate:
        for text in _flat_strings(agg, skip_selections=True):
            vocab.add_template(text)
        suffix = getattr(agg, "suffix", None)
        if isinstance(suffix, str):
            vocab.add_template("{}" + suffix)
    return vocab


def given_vocabulary(art) -> Vocabulary:
    """Names the artifact hands its runs (its parameters, quick overrides, parts and reference
    runs: a task may write a method named in its parameters) and the names of its published
    values (an aggregation such as ``RanksWithPublished`` reads them as records)."""
    vocab = Vocabulary()
    lay = art.layout
    for text in _flat_strings((lay.params, lay.quick, lay.split, lay.reference)):
        vocab.add_template(text)
    for v in load(art.paper).for_artifact(art.name):
        vocab.add_template(v.method)
        vocab.add_template(v.metric)
    return vocab


def unproduced_names(art, produced: Vocabulary) -> list[str]:
    """The names the artifact's ``select`` and aggregations ask for that neither ``produced``
    (what its runs write) nor its own aggregations can give."""
    have = produced | emitted_vocabulary(art)
    return [f"{art.id}: {where} names {field} {name!r}, which no run or aggregation produces"
            for where, field, name in declared_names(art) if name not in have]


def _legible(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def unproduced_cells(paper: str, produced: Vocabulary) -> list[str]:
    """Published cells (the paper's TOML) naming a method or metric that nothing produces nor
    any declaration of the artifact reads: a typo there would leave the cell empty instead of
    failing.  The paper's baselines (cells
    shown beside ours, not reproduced), values the text does not give legibly ("?") and the
    transcription's unresolved rows are excused."""
    arts = {a.name: a for a in papers.module(paper).ARTIFACTS}
    catalog = cat.catalog()
    bad = []
    for v in load(paper).values:
        art = arts[v.artifact]
        info = catalog.get(v.dataset)
        if (art.task is None or v.baseline or not _legible(v.text)
                or v.method.startswith(UNRESOLVED) or (info is not None and info.withdrawn)):
            continue
        have = produced | emitted_vocabulary(art) | Vocabulary(
            name for _, _, name in declared_names(art))      # read as a published stand-in
        bad += [f"{paper}.toml: {v.artifact} / {v.dataset}: {field} {name!r} is produced by "
                f"no run or aggregation"
                for field, name in (("method", v.method), ("metric", v.metric))
                if name not in have]
    return bad


@pytest.mark.parametrize("paper", PAPERS)
def test_declared_names_are_produced_by_the_tasks(paper):
    """Every name a ``select`` or an aggregation asks for is written by the paper's run code,
    handed to its runs, published or written by an aggregation; every published cell names
    what the run code or an aggregation writes."""
    code = code_vocabulary(paper)
    arts = [a for a in papers.module(paper).ARTIFACTS if a.task is not None]
    assert arts, f"{paper}: no artifact runs"
    bad = []
    for art in arts:
        bad += unproduced_names(art, code | given_vocabulary(art))
    assert bad == []
    assert unproduced_cells(paper, code) == []


def _run_records(art) -> list[dict]:
    """The records of the artifact's quick runs, computed here."""
    out = []
    for spec in art.runs(quick=True):
        task = papers.task(art.paper, spec.task)
        out += task(RunContext(spec, Path("."), log=lambda m: None))["records"]
    return out


def test_the_fake_papers_declared_names_are_what_its_runs_write(fake_paper):
    """The check against what the runs really write, where running them is cheap."""
    checked = 0
    for art in fake_paper.ARTIFACTS:
        if art.task is None or "synthetic" not in art.datasets:
            continue
        recs = _run_records(art)
        assert recs, f"{art.id}: its quick runs wrote no record"
        produced = Vocabulary(str(r[f]) for r in recs for f in ("method", "metric"))
        assert unproduced_names(art, produced) == []
        checked += len(declared_names(art))
    assert checked > 0, "no declared name of the fake paper was checked"


def test_the_name_check_catches_a_typo():
    from repro.judge.kinds import Claim, FoldMean, FoldSpread
    from repro.spec import Artifact, Judging, RunLayout
    produced = Vocabulary(["feature1", "feature2", "MAP", "NDCG@5"])
    art = Artifact(
        "p", "t", "T",
        judging=Judging(
            select={"method": ["feature1"], "metric": ["MAP"]},
            aggregate=(FoldMean(select={"metric": ["NDGC@5"]}),
                       Claim("c", "s", others={"method": "feature3"},
                             subject={"method": "feature1", "metric": "MAP"}))))
    assert unproduced_names(art, produced) == [
        "p.t: aggregate[0] FoldMean.select names metric 'NDGC@5', which no run or "
        "aggregation produces",
        "p.t: aggregate[1] Claim.others names method 'feature3', which no run or aggregation "
        "produces"]
    typo = Artifact(
        "p", "t", "T",
        judging=Judging(select={"method": ["RankRSL"]}))
    assert unproduced_names(typo, produced) == [
        "p.t: select names method 'RankRSL', which no run or aggregation produces"]
    # what an aggregation writes may be selected: a spread's suffixed metric
    spread = Artifact(
        "p", "t", "T",
        judging=Judging(
            select={"metric": ["MAP ±"]}, aggregate=(FoldSpread(select={"metric": ["MAP"]}),)))
    assert unproduced_names(spread, produced) == []


def test_a_name_only_the_declarations_write_is_not_produced():
    """The code vocabulary leaves out the declarations and the names.py constants that no
    run module uses."""
    produced = code_vocabulary("pahikkala2010")
    assert "GRankRLS" in produced and "MAP" in produced
    assert "validation MAP curve" in produced            # a names.py template the runs use
    assert "GRankRLS2" not in produced and "maximum MAP" not in produced


def test_a_typo_planted_in_a_papers_aggregation_is_caught():
    """A real paper's declarations with one aggregation's method misspelt fail the check."""
    paper = "pahikkala2010"
    code = code_vocabulary(paper)
    art = next(a for a in papers.module(paper).ARTIFACTS
               if any(n == "GRankRLS" for _, _, n in declared_names(a)))
    assert unproduced_names(art, code | given_vocabulary(art)) == []
    i, agg = next((i, g) for i, g in enumerate(art.judging.aggregate)
                  if isinstance(getattr(g, "select", None), dict)
                  and "GRankRLS" in g.select.get("method", ()))
    typo = dataclasses.replace(agg, select={**agg.select, "method": ["GRankLRS"]})
    planted = art.replace(aggregate=(*art.judging.aggregate[:i], typo,
                                     *art.judging.aggregate[i + 1:]))
    assert unproduced_names(planted, code | given_vocabulary(planted)) == [
        f"{art.id}: aggregate[{i}] {type(agg).__name__}.select names method 'GRankLRS', "
        "which no run or aggregation produces"]


@pytest.mark.parametrize("paper", PAPERS)
def test_every_run_builds_the_parameters_of_its_study(paper):
    """Every run a paper declares (full and --quick) builds the parameter dataclass of its
    task: a key no study reads, or one a study needs and the declaration lacks, fails here,
    not in the middle of a run; every task of the paper, the reference runs' included,
    declares one."""
    checked = 0
    for art in papers.artifacts(paper):
        for quick in (False, True):
            for spec in art.runs(quick):
                task = papers.task(paper, spec.task)
                assert getattr(task, "params_type", None), \
                    f"{art.id}: task {spec.task} declares no parameter dataclass (@study)"
                check_run(task, spec)
                checked += 1
    assert checked, f"{paper}: no run checked"


def test_a_misspelt_parameter_of_the_fake_paper_fails_its_run(fake_paper):
    """The same check on a paper registered from outside: its declared runs build, and a
    declaration with a misspelt key fails in the run itself, naming paper, study and key."""
    art = next(a for a in fake_paper.ARTIFACTS if a.task == "task_noise")
    task = papers.task("fakepaper", "task_noise")
    assert all(check_run(task, s).x == 2.0 for s in art.runs())
    bad = art.replace(params={"X": 2.0}).runs()[0]
    with pytest.raises(ParamsError, match=r"fakepaper\.task_noise: unknown parameter\(s\) "
                                          r"\['X'\]; missing parameter\(s\) \['x'\]"):
        task(RunContext(bad, Path(".")))


def test_a_per_dataset_value_is_one_type_whichever_way_it_is_declared():
    """``folds``, ``noise`` and ``split`` hold a PerDataset whether a declaration gives one
    value, a ``{dataset or "*": value}`` mapping, a PerDataset, or sets it later (``replace``,
    assignment); the lookups agree with what was declared."""
    from repro.spec import SAMPLE, Artifact, Judging, Noise, PerDataset, RunLayout
    one = Artifact(
        "p", "a", "t", task="t",
        layout=RunLayout(datasets=("A", "B"), folds=(1, 2)))
    by = Artifact(
        "p", "a", "t", task="t",
        layout=RunLayout(
            datasets=("A", "B"), folds={"A": (1,), "*": (1, 2)}, split={"A": (("x", {"k": 1}),)}),
        judging=Judging(noise={"B": Noise(SAMPLE)}))
    for art in (one, by, one.replace(folds={"*": (1, 2)})):
        assert all(isinstance(v, PerDataset)
                   for v in (art.layout.folds, art.judging.noise, art.layout.split))
    assert one.folds_for("B") == (1, 2) == by.folds_for("B") and by.folds_for("A") == (1,)
    assert by.noise_for("B").basis == SAMPLE and by.noise_for("A") == Noise()
    assert by.parts_for("A") == (("x", {"k": 1}),) and by.parts_for("B") == ((None, {}),)
    assert Artifact(
        "p", "a", "t",
        layout=RunLayout(folds={"A": (3,)})).folds_for("B") == (None,)
    one.judging = Judging(noise={"A": Noise(SAMPLE)})
    noise = one.judging.noise
    assert noise.names("A") and not noise.names("B") and noise.default == Noise()
    assert one.replace(folds={"*": (1, 2)}).layout.folds == one.layout.folds


def test_an_artifact_holds_its_fields_in_three_typed_groups():
    """Identity at the top, the rest in RunLayout / Judging / Shown; ``replace`` changes a
    group's field by its own name, and setting one on the artifact is refused (it would be
    ignored)."""
    from repro.spec import Artifact, Judging, RunLayout, Shown
    art = Artifact("p", "a", "t", task="t",
                   layout=RunLayout(datasets=("A",), stand_ins={"A": "B"}, timing=True),
                   judging=Judging(select={"metric": ["MAP"]}), shown=Shown(figure="f"))
    assert [f.name for f in dataclasses.fields(art)] == [
        "paper", "name", "title", "kind", "task", "not_run", "layout", "judging", "shown"]
    assert (art.datasets, art.stand_ins, art.timing) == (("A",), {"A": "B"}, True)
    other = art.replace(datasets=("C",), select={}, figure=None, title="u")
    assert (other.layout.datasets, other.judging.select, other.shown.figure, other.title) == \
        (("C",), {}, None, "u")
    assert other.layout.stand_ins == {"A": "B"} and art.layout.datasets == ("A",)
    with pytest.raises(AttributeError, match=r"use art.replace\(folds=...\)"):
        art.folds = (1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        art.layout.folds = (1, 2)


def test_quick_overrides_are_typed_and_an_unknown_one_is_refused():
    from repro.spec import Artifact, Judging, Quick, RunLayout
    a = Artifact(
        "p", "t", "T",
        layout=RunLayout(
            datasets=("x", "y"), folds=(1, 2, 3), repeats=3, extend_to=8, params={"a": 1, "b": 2},
            quick={"folds": {"x": (1,)}, "repeats": 2, "extend_to": 0, "params": {"b": 5}}))
    assert isinstance(a.layout.quick, Quick) and a.layout.quick
    q = a.effective(True)
    assert q.folds_for("x") == (1,) and q.folds_for("y") == (None,)
    assert (q.layout.repeats, q.layout.extend_to, q.layout.params) == (2, 0, {"a": 1, "b": 5})
    assert a.effective(False) is a and not Artifact("p", "u", "U").layout.quick
    with pytest.raises(TypeError, match=r"unknown override\(s\) \['repeat'\]"):
        Artifact(
            "p", "t", "T",
            layout=RunLayout(quick={"repeat": 2}))
