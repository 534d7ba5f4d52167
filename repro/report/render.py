"""The template environment every report page is rendered with: the Jinja templates of
``templates/`` (autoescaped, undefined names an error), the stylesheet inlined in each page
(with the verdict colours of :mod:`.palette`), the PDF footer that names the page's origin,
and the context every page shares.  Text in backticks (a command in a reason: "see `python
-m repro data`") is set as code, never with its backticks."""
from __future__ import annotations

import re
from importlib import resources

from jinja2 import Environment, FunctionLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from ..run.provenance import describe
from .format import formula_html, unicode_powers
from .palette import verdict_css
from .verdicts import ABBREVIATIONS, BUCKETS, HEADERS, LABELS, shown_buckets

_CODE = re.compile(r"`([^`]+)`")
#: a range of numbers ("13-15"), kept on one line: a line break after its hyphen splits a
#: number in a narrow table cell
_RANGE = re.compile(r"(?<![\w.-])(\d+-\d+)(?![\w-])")


def nobr_ranges(html) -> Markup:
    """Rendered text (``code``'s output) with each range of numbers kept on one line."""
    return Markup(_RANGE.sub(r'<span class="nobr">\1</span>', str(html)))
#: what visible prose leaves out: pointers into the paper's transcript ("(lines 582–589)",
#: "(l.445–448)", kept in each record's source) and the data pointer a not-run reason repeats
#: (said once, in the page's table of what was not run)
_HIDDEN = re.compile(r"\s*\((?:lines?|l\.)\s*\d[^()]*\)|\s*\(see `python -m repro data`\)")


def visible(text) -> str:
    """Prose as a page shows it: without transcript line numbers and repeated pointers."""
    return _HIDDEN.sub("", str(text))


def _load_template(name: str) -> str:
    """The text of ``templates/<name>`` (read from the installed package)."""
    return resources.files("repro.report").joinpath("templates", name).read_text("utf-8")


def _word_spans(text: str) -> Markup:
    return Markup(" ").join(Markup('<span class="w">%s</span>') % escape(w)
                            for w in text.split())


def words(text) -> Markup:
    """Text that may wrap between words but never inside one (labels such as
    "corel-pamir:Small-Easy" or "1.02573e-08" stay whole); `code` set as code; integer powers
    as superscripts ("c=(i+1)^-1" → "c=(i+1)⁻¹")."""
    out = Markup("")
    for i, piece in enumerate(_CODE.split(str(text))):
        piece = piece if i % 2 else unicode_powers(piece)
        if i % 2:
            out += Markup("<code>%s</code>") % piece
            continue
        if not piece:
            continue
        lead = " " if piece[:1].isspace() and out else ""
        trail = " " if piece[-1:].isspace() else ""
        out += Markup(lead) + _word_spans(piece) + Markup(trail)
    return out


def code(text) -> Markup:
    """Text with its `code` spans set as code (escaped), transcript pointers out of visible
    prose (:func:`visible`), and its formulas' TeX-style sub- and superscripts set as such
    ("l_i^+" → l<sub>i</sub><sup>+</sup>, :func:`.format.formula_html`)."""
    parts = _CODE.split(visible(text))
    return Markup("").join(Markup("<code>%s</code>") % p if i % 2 else Markup(formula_html(p))
                           for i, p in enumerate(parts))


def plain(text) -> str:
    """Text for an attribute (a tooltip): backticks dropped."""
    return _CODE.sub(r"\1", str(text))


def _env() -> Environment:
    env = Environment(loader=FunctionLoader(_load_template),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["words"] = words
    env.filters["code"] = code
    env.filters["nobr_ranges"] = nobr_ranges
    env.filters["plain"] = plain
    env.globals["abbrs"] = ABBREVIATIONS          # the counts tables' headers in print
    env.filters["sentence"] = lambda t: (str(t)[:1].upper() + str(t)[1:]) if t else ""
    return env


def template(name: str):
    """The Jinja template ``name`` of ``templates/``."""
    return _env().get_template(name)


def css() -> str:
    """The stylesheet every page inlines (so that a page stands alone): the suite's, with the
    verdict colours of the palette."""
    return _load_template("base.css") + "\n" + verdict_css()


def footer_css(label: str) -> str:
    """The PDF's page footer: what the page is and where it comes from (commit, its date,
    machine), on every page."""
    text = f"{label} · {describe(short=True)}"
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'@page {{ @bottom-left {{ content: "{text}"; }} }}'


def common() -> dict:
    """The context every page shares: its stylesheet, origin and the verdicts' words."""
    return {"css": css(), "provenance": describe(), "labels": LABELS, "headers": HEADERS,
            "buckets": BUCKETS, "shown": shown_buckets}

