"""A paper's words in ``prose.md`` (:mod:`repro.papers.prose`): the file's layout, the errors
that name its line, every paper's sections matching its artifacts, and packaging shipping the
files."""
import ast
import re
import tomllib
from pathlib import Path, PurePosixPath

import pytest

from repro import papers as registry
from repro.errors import ReproError
from repro.papers import prose
from repro.spec import Artifact

ROOT = Path(__file__).resolve().parents[1]

TEXT = """# demo: the words of its report

A comment for maintainers: not read.

## Summary

One paragraph
wrapped over lines.

## Notes

- A first note,
  continued.
- A  second note (two spaces kept).

## Shared: grid

- Grid item one.
- Grid item two.

## Shared: why

Data never public.

## table1

### Description

Test $metric of the method; $$5 is a dollar.

### Choices

- [grid](#shared-grid)
- Own choice.

## figure1, figure2

### Description

Curves.

### Not run

[why](#shared-why)
"""


def _art(name, **kw):
    return Artifact(
        "demo", name, f"title of {name}").replace(**kw)


def test_the_layout_is_read_as_written():
    p = prose.parse(TEXT, "demo.md")
    assert p.summary == "One paragraph wrapped over lines."
    assert p.notes == ["A first note, continued.", "A  second note (two spaces kept)."]
    t = p.describe(_art("table1"), metric="MAP")
    assert t.shown.description == "Test MAP of the method; $5 is a dollar."
    assert t.shown.choices == ("Grid item one.", "Grid item two.", "Own choice.")
    for name in ("figure1", "figure2"):          # one section for several artifacts
        f = p.describe(_art(name))
        assert (f.shown.description, f.shown.choices, f.not_run) == \
            ("Curves.", (), "Data never public.")


def test_an_artifact_keeps_the_fields_the_file_does_not_give():
    f = prose.parse(TEXT).describe(_art("figure1", params={"x": 1}, kind="figure"))
    assert f.layout.params == {"x": 1} and f.kind == "figure" and f.title == "title of figure1"


@pytest.mark.parametrize("art, values, message", [
    (_art("table9"), {}, r"demo\.md: no section '## table9' for artifact demo\.table9"),
    (_art("table1"), {}, r"demo\.md:\d+: \$metric has no value"),
    (_art("table1"), {"metric": "MAP", "extra": "x"}, r"passes extra, which no \$name"),
    (_art("figure1", description="in code"), {}, r"gives its description in code and in"),
])
def test_describe_errors_name_the_file(art, values, message):
    with pytest.raises(ReproError, match=message):
        prose.parse(TEXT, "demo.md").describe(art, **values)


@pytest.mark.parametrize("text, message", [
    ("## a\n\nloose text\n", r"x\.md:3: text outside a '### ' heading of '## a'"),
    ("## a\n### Remarks\n", r"x\.md:2: unknown heading '### Remarks'"),
    ("## a\n### Choices\n\nnot an item\n", r"x\.md:4: a list item starts with '- '"),
    ("## a\n### Description\nOne.\n\nTwo.\n", r"x\.md:3: one paragraph expected, found 2"),
    ("## a\n## a\n", r"x\.md:2: a second '## a' \(the first is on line 1\)"),
    ("### Choices\n", r"x\.md:1: '### Choices' before any '## ' section"),
])
def test_layout_errors_name_the_line(text, message):
    with pytest.raises(ReproError, match=message):
        prose.parse(text, "x.md")


def test_a_link_to_a_missing_shared_section_is_an_error():
    p = prose.parse("## a\n### Choices\n- [nope](#shared-nope)\n", "x.md")
    with pytest.raises(ReproError, match=r"x\.md:1: '\[nope\]\(#shared-nope\)' names no "
                                         r"'## Shared: nope' section"):
        p.describe(Artifact(
            "demo", "a", "t"))


def _prose_papers():
    return [pid for pid in registry.discovered_ids()
            if (ROOT / "repro" / "papers" / pid / prose.FILE).is_file()]


def test_every_paper_package_keeps_its_words_in_its_prose_file():
    assert set(_prose_papers()) == {"dubey2009", "leelin2014", "lesmola2007", "pahikkala2010",
                                    "stevens2010"}


@pytest.mark.parametrize("pid", ["dubey2009", "leelin2014", "lesmola2007", "pahikkala2010",
                                 "stevens2010"])
def test_each_section_names_an_artifact_and_each_artifact_has_its_words(pid):
    mod = registry.module(pid)
    words = prose.load(mod.__name__)
    names = {a.name for a in mod.ARTIFACTS}
    assert set(words.artifacts) == names               # no section for a missing artifact
    assert all(a.shown.description for a in mod.ARTIFACTS)
    assert list(mod.NOTES) == words.notes and words.notes
    used = {w.split("(#shared-")[1].rstrip(")") for a in words.artifacts.values()
            for f in a.values() for w in ([f] if isinstance(f, str) else f)
            if w.startswith("[") and "(#shared-" in w}
    assert used == set(words.shared)                   # no shared section left unused


@pytest.mark.parametrize("pid", ["dubey2009", "leelin2014", "lesmola2007", "pahikkala2010",
                                 "stevens2010"])
def test_the_words_carry_no_markup_the_pages_would_show_literally(pid):
    """Descriptions, choices and notes are shown as text: Markdown emphasis (``**bold**``,
    ``__bold__``) would reach the pages as asterisks and underscores."""
    mod = registry.module(pid)
    words = prose.load(mod.__name__)
    texts = [w for a in words.artifacts.values() for f in a.values()
             for w in ([f] if isinstance(f, str) else f)] + list(words.notes)
    assert not [t for t in texts if re.search(r"\*\*\S|__\S", t)]


#: consecutive words a docstring may share with its paper's prose.md (a cited equation or a
#: phrase explaining the code does; a sentence copied from the report's words does not)
COPIED = 16


def _words(text: str) -> list[str]:
    return re.findall(r"[^\s`]+", text.replace("``", " "))


def _docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return [d for n in ast.walk(tree) if isinstance(n, kinds) and (d := ast.get_docstring(n))]


def _copied(doc: str, grams: set) -> list[str]:
    w = _words(doc)
    return [" ".join(w[i:i + COPIED]) for i in range(len(w) - COPIED + 1)
            if tuple(w[i:i + COPIED]) in grams]


@pytest.mark.parametrize("pid", ["dubey2009", "leelin2014", "lesmola2007", "pahikkala2010",
                                 "stevens2010"])
def test_the_code_points_to_the_prose_instead_of_repeating_it(pid):
    """The package's docstring points to ``prose.md``, and no docstring of the package repeats
    a sentence of it (the words live in one place, so they cannot drift apart)."""
    pkg = ROOT / "repro" / "papers" / pid
    w = _words((pkg / prose.FILE).read_text(encoding="utf-8"))
    grams = {tuple(w[i:i + COPIED]) for i in range(len(w) - COPIED + 1)}
    assert prose.FILE in registry.module(pid).__doc__
    copied = {f"{py.name}: {c}" for py in sorted(pkg.glob("*.py")) for d in _docstrings(py)
              for c in _copied(d, grams)}
    assert not copied, f"{pid}: docstrings repeat prose.md: {sorted(copied)[:3]}"


def test_the_copy_check_catches_a_pasted_sentence():
    prose_text = ("The grids of C are not printed in the paper; the values chosen here are "
                  "the ones of the LETOR baselines, each fold on its own.")
    w = _words(prose_text)
    grams = {tuple(w[i:i + COPIED]) for i in range(len(w) - COPIED + 1)}
    assert _copied("Runs: the fold task.  " + prose_text, grams)
    assert not _copied("Runs: the fold task, with the grids of C (see prose.md).", grams)


def test_a_paper_module_from_outside_still_holds_its_words_in_code():
    from tests import fakepaper
    assert fakepaper.NOTES == ["A note."]
    assert any(a.shown.choices for a in fakepaper.ARTIFACTS)


def test_packaging_ships_every_file_the_package_reads():
    """Every file under repro/ that is not Python source or a build product is matched by
    pyproject's package-data (the prose, the TOMLs, the templates)."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["repro"]
    pkg = ROOT / "repro"
    data = [p.relative_to(pkg).as_posix() for p in pkg.rglob("*") if p.is_file()
            and "__pycache__" not in p.parts and p.suffix not in (".py", ".so", ".c", ".pyd")]
    assert any(d.endswith("prose.md") for d in data)
    shipped = lambda d, pat: (len(PurePosixPath(d).parts) == len(PurePosixPath(pat).parts)
                              and PurePosixPath(d).match(pat))     # setuptools' glob: * ≠ /
    assert [d for d in data if not any(shipped(d, pat) for pat in patterns)] == []
