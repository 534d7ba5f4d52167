"""The template environment every report page is rendered with: the Jinja templates of
``templates/`` (autoescaped, undefined names an error), the stylesheet inlined in each page,
the PDF footer that names the page's origin, and the context every page shares."""
from __future__ import annotations

from importlib import resources

from jinja2 import Environment, FunctionLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from ..run.provenance import describe
from .verdicts import BUCKETS, HEADERS, LABELS, shown_buckets


def _load_template(name: str) -> str:
    """The text of ``templates/<name>`` (read from the installed package)."""
    return resources.files("repro.report").joinpath("templates", name).read_text("utf-8")


def words(text) -> Markup:
    """Text that may wrap between words but never inside one (labels such as
    "corel-pamir:Small-Easy" or "1.02573e-08" stay whole)."""
    return Markup(" ").join(Markup('<span class="w">%s</span>') % escape(w)
                            for w in str(text).split())


def _env() -> Environment:
    env = Environment(loader=FunctionLoader(_load_template),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["words"] = words
    env.filters["sentence"] = lambda t: (str(t)[:1].upper() + str(t)[1:]) if t else ""
    return env


def template(name: str):
    """The Jinja template ``name`` of ``templates/``."""
    return _env().get_template(name)


def css() -> str:
    """The stylesheet every page inlines (so that a page stands alone)."""
    return _load_template("base.css")


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

