"""A paper's words, read from ``prose.md`` beside its declarations: the summary, the notes on
the reproduction, and each artifact's description, choices and reason for not running.

The words live beside the published numbers, not in code, so that ``__init__.py`` is
declarations and editing a sentence reruns nothing (a run's code key is Python source only).
The file is markdown for its structure; the text itself is used as written (plain text):

.. code-block:: markdown

    # dubey2009: the words of its report          (title; text up to the first ## is a comment)

    ## Summary
    One paragraph (Paper.summary).

    ## Notes
    - One note per item; wrapped lines
      are indented and joined by one space.

    ## Shared: sensitivity                      (items or a paragraph used by several artifacts)
    - ConvexLoss_NDCG with Figure 3's protocol; …

    ## figure4                                  (one artifact; "## table3, table4" for several)
    ### Description
    Test accuracy of ConvexLoss_NDCG as … $metric …   ($name: a value the declaration passes)
    ### Choices
    - [sensitivity](#shared-sensitivity)      (an item that is only this link: the shared items)
    - Sizes 30 … 3000 states per query.
    ### Not run
    Why it cannot run (Artifact.not_run).

A paper declares ``PROSE = load(__name__)`` and takes its words from it
(``Paper(summary=PROSE.summary)``, ``NOTES = PROSE.notes``, ``PROSE.describe(artifact)``).
A paper registered from outside may still hold its words in code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import ReproError
from typing import TYPE_CHECKING

if TYPE_CHECKING:                   # annotations only: reading the words imports no declarations
    from ..spec import Artifact, Paper

FILE = "prose.md"
#: the artifact fields a section may give, by their ``###`` heading
FIELDS = {"Description": "description", "Choices": "choices", "Not run": "not_run"}
_SHARED = "Shared: "
_LINK = re.compile(r"\[([\w.-]+)\]\(#shared-([\w.-]+)\)")
_PLACEHOLDER = re.compile(r"\$(\$|[A-Za-z_]\w*)")


@dataclass
class Prose:
    """The words of one paper (see the module doc for the file's layout)."""
    path: str
    summary: str = ""
    notes: list[str] = field(default_factory=list)
    #: artifact name -> {field: text or items}, placeholders and shared links unresolved
    artifacts: dict[str, dict] = field(default_factory=dict)
    shared: dict[str, list[str]] = field(default_factory=dict)
    #: where each section starts (for errors): "figure4" / "Shared: x" -> line
    lines: dict[str, int] = field(default_factory=dict)

    def describe(self, art: Artifact, **values: str) -> Artifact:
        """``art`` with its words from the file (description, choices, not_run), ``$name``
        placeholders replaced by ``values``.  An artifact holds its words in one place: one
        already given in code is an error, as is a placeholder without a value."""
        if art.name not in self.artifacts:
            raise ReproError(f"{self.path}: no section '## {art.name}' for artifact {art.id}")
        where = f"{self.path}:{self.lines[art.name]}"
        used: set[str] = set()
        words = {}
        for name, raw in self.artifacts[art.name].items():
            if getattr(art if name == "not_run" else art.shown, name):
                raise ReproError(f"{where}: {art.id} gives its {name} in code and in {FILE}; "
                                 f"keep one")
            if name == "choices":
                items = [t for item in raw for t in self._expand(item, where)]
                words[name] = tuple(_fill(t, values, used, where) for t in items)
            else:
                text = self._expand(raw, where)
                if len(text) != 1:
                    raise ReproError(f"{where}: the {name} of {art.id} must be one paragraph")
                words[name] = _fill(text[0], values, used, where)
        unused = sorted(set(values) - used)
        if unused:
            raise ReproError(f"{where}: {art.id} passes {', '.join(unused)}, which no $name of "
                             f"its section uses")
        return art.replace(**words)

    def describe_all(self, arts) -> list[Artifact]:
        """:meth:`describe` of every artifact (those without placeholders)."""
        return [self.describe(a) for a in arts]

    def _expand(self, text: str, where: str) -> list[str]:
        """A shared section's items where ``text`` is only a link to it, else ``[text]``."""
        m = _LINK.fullmatch(text)
        if m is None:
            return [text]
        if m.group(1) != m.group(2) or m.group(1) not in self.shared:
            raise ReproError(f"{where}: '{text}' names no '## {_SHARED}{m.group(1)}' section "
                             f"(the link is [name](#shared-name))")
        return list(self.shared[m.group(1)])


def _fill(text: str, values: dict, used: set, where: str) -> str:
    def one(m):
        name = m.group(1)
        if name == "$":
            return "$"
        if name not in values:
            raise ReproError(f"{where}: ${name} has no value (the declaration passes "
                             f"{', '.join(sorted(values)) or 'none'}; '$$' is a dollar sign)")
        used.add(name)
        return str(values[name])
    return _PLACEHOLDER.sub(one, text)


def paper(package: str, **fields) -> tuple[Prose, "Paper"]:
    """A paper package's words (:func:`load`) and its :class:`~repro.spec.Paper` of
    ``fields``, whose summary is the words' (``PROSE, PAPER = prose.paper(__name__, …)``)."""
    from ..spec import Paper
    words = load(package)
    return words, Paper(**fields, summary=words.summary)


def load(package: str) -> Prose:
    """The words of the paper package ``package`` (its ``prose.md``)."""
    res = resources.files(package).joinpath(FILE)
    try:
        text = res.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReproError(f"{package}: no {FILE} beside its declarations") from None
    return parse(text, str(Path(str(res))))


def parse(text: str, path: str = FILE) -> Prose:
    """A :class:`Prose` from the text of a ``prose.md`` (``path``: named in errors)."""
    out = Prose(path)
    section = sub = None                      # the current ## and ### headings
    blocks: dict[tuple, list] = {}            # (section, sub) -> [(line, text), ...]
    for no, line in enumerate(text.splitlines(), start=1):
        if line.startswith("### "):
            if section is None:
                raise ReproError(f"{path}:{no}: '{line}' before any '## ' section")
            sub = line[4:].strip()
            if section[1] != "artifact" or sub not in FIELDS:
                raise ReproError(f"{path}:{no}: unknown heading '{line}' (in an artifact's "
                                 f"section: {', '.join('### ' + f for f in FIELDS)})")
            blocks[(section, sub)] = []
        elif line.startswith("## "):
            title = line[3:].strip()
            kind = ("summary" if title == "Summary" else "notes" if title == "Notes" else
                    "shared" if title.startswith(_SHARED) else "artifact")
            section, sub = (title, kind), None
            if title in out.lines:
                raise ReproError(f"{path}:{no}: a second '## {title}' (the first is on line "
                                 f"{out.lines[title]})")
            out.lines[title] = no
            blocks[(section, None)] = []
        elif line.startswith("# ") and section is None:
            continue                          # the title (and the comment after it)
        elif section is not None:
            blocks[(section, sub)].append((no, line))
    for ((title, kind), sub), body in blocks.items():
        if kind == "artifact" and sub is None:
            if any(t.strip() for _, t in body):
                n = next(n for n, t in body if t.strip())
                raise ReproError(f"{path}:{n}: text outside a '### ' heading of '## {title}'")
            continue
        where = f"{path}:{body[0][0] if body else out.lines[title]}"
        if kind == "summary":
            out.summary = _one_paragraph(body, where)
        elif kind == "notes":
            out.notes = _items(body, path)
        elif kind == "shared":
            items = _items(body, path) if _is_list(body) else [_one_paragraph(body, where)]
            out.shared[title[len(_SHARED):].strip()] = items
        else:
            value = _items(body, path) if sub == "Choices" else _one_paragraph(body, where)
            for name in (n.strip() for n in title.split(",")):
                if not name:
                    raise ReproError(f"{path}:{out.lines[title]}: an empty artifact name in "
                                     f"'## {title}'")
                out.artifacts.setdefault(name, {})[FIELDS[sub]] = value
                out.lines.setdefault(name, out.lines[title])
    return out


def _is_list(body) -> bool:
    return any(t.startswith("- ") for _, t in body)


def _paragraphs(body) -> list[tuple[int, str]]:
    out, lines, start = [], [], None
    for no, t in body + [(None, "")]:
        if t.strip():
            start = start or no
            lines.append(t.strip())
        elif lines:
            out.append((start, " ".join(lines)))
            lines, start = [], None
    return out


def _one_paragraph(body, where: str) -> str:
    paras = _paragraphs(body)
    if len(paras) > 1:
        raise ReproError(f"{where}: one paragraph expected, found {len(paras)} (a blank line "
                         f"splits them)")
    return paras[0][1] if paras else ""


def _items(body, path: str) -> list[str]:
    """The items of a list: "- " starts one, indented lines continue it (joined by a space)."""
    items: list[str] = []
    for no, t in body:
        if not t.strip():
            continue
        if t.startswith("- "):
            items.append(t[2:].strip())
        elif t.startswith("  ") and items:
            items[-1] += " " + t.strip()
        else:
            raise ReproError(f"{path}:{no}: a list item starts with '- ', its continuation "
                             f"lines are indented: {t[:40]!r}")
    return items
