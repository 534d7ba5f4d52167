"""How a number reads on a page, in the terminal table and in a PDF: every number the report
shows is turned into text here, so how numbers read is changed in one place.

* values beside a published number: :func:`fmt_value` (one decimal more than the paper
  prints, powers of two as ``2^e`` where the paper writes them so), their difference
  :func:`fmt_diff`, interval :func:`fmt_ci`, sample size :func:`fmt_n` and interval in words
  :func:`interval_text`;
* any other computed number: :func:`fmt_general` (four significant digits, fixed-point: no
  "8.388e-05" beside "0.0001031"), signed :func:`fmt_signed`; published text
  :func:`fmt_published` (powers of two one way); labels with numbers in numeric order
  :func:`value_order`; relative differences :func:`fmt_relative`;
* claims: p-values :func:`fmt_p`, signed effects and their intervals at the precision of the
  interval :func:`fmt_effect`, :func:`fmt_effect_ci`, counts :func:`fmt_count`;
* the benchmarks page: measurements :func:`fmt_sig`, times :func:`fmt_seconds` (s, ms or µs as
  they fit), ratios :func:`fmt_ratio`, :func:`fmt_ratio_range`, load averages
  :func:`fmt_loads`;
* where a record sits (dataset, method, metric, fold): :func:`where`.
"""
from __future__ import annotations

import math
import re

from ..evidence.record import CELL, defined
from ..judge.published import decimals_of
from .standins import name

#: no value (a cell, an effect, a time)
MISSING = "—"

_POWER = re.compile(r"^\s*2\s*\^\s*\{?\s*(-?\d+)\s*\}?\s*$")


_number = defined          # the one definedness rule (repro.evidence.record): finite, not a bool


# --- values beside published numbers ----------------------------------------------------------

def _fixed(v: float, sig: int) -> str:
    """``v`` in fixed-point notation with ``sig`` significant digits (no exponent)."""
    digits = max(0, sig - 1 - int(math.floor(math.log10(abs(v)))))
    return f"{v:.{digits}f}"


def fmt_general(v: float) -> str:
    """A computed number without a published counterpart — the one rule for every such number
    on the site: integers as integers, four significant digits in fixed-point notation from
    10⁻⁶ to 1000, one decimal above; exponent notation (three significant digits) only below
    10⁻⁶, so that numbers side by side read in one notation."""
    if v == 0:
        return "0"
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    a = abs(v)
    if a >= 1000:
        return f"{v:.1f}"
    if a >= 1e-6:
        return _fixed(v, 4)
    return f"{v:.3g}"


def fmt_signed(v: float) -> str:
    """:func:`fmt_general` with its sign ("+0.0213", "-0.00008388"); zero has none ("0")."""
    text = fmt_general(v)
    return text if text.startswith("-") or float(text) == 0 else "+" + text


def fmt_published(text: str | None) -> str:
    """A published value's text as the site writes it: powers of two one way ("2^{10}" and
    "2^10" both read "2^10"); other text as printed."""
    if text is None:
        return ""
    e = power_of_two(text)
    return f"2^{e}" if e is not None else str(text)


_NUMBER_IN_TEXT = re.compile(r"(-?\d+(?:\.\d+)?)")


def value_order(text) -> tuple:
    """Sort key of labels that carry numbers, by their numbers' values: "|Ŷ| = 30" before
    "|Ŷ| = 100", "k=-20" before "k=5", "λ = 2^-3" before "λ = 2^2"."""
    parts = _NUMBER_IN_TEXT.split("" if text is None else str(text))
    return tuple((0, float(t), "") if i % 2 else (1, 0.0, t) for i, t in enumerate(parts) if t)


def power_of_two(published: str | None) -> int | None:
    """The exponent of a published value printed as a power of two (``"2^-5"``), else None."""
    m = _POWER.match(published) if published else None
    return int(m.group(1)) if m else None


def fmt_value(v, published: str | None = None) -> str:
    """Our value as a reader compares it with the published text: one decimal more than the
    paper prints, powers of two as ``2^e`` where the paper writes them so."""
    if v is None:
        return MISSING
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if power_of_two(published) is not None and v > 0:
            e = math.log2(v)
            if abs(e - round(e)) < 1e-9:
                return f"2^{int(round(e))}"
        d = decimals_of(published) if published else 0
        if d:
            return f"{v:.{d + 1}f}"
        return fmt_general(v)
    return str(v)


def fmt_diff(d, published: str | None = None, value=None) -> str:
    """Δ = ours − published, at one decimal more than the paper; powers of two in log₂."""
    if d is None:
        return ""
    if power_of_two(published) is not None and isinstance(value, (int, float)) and value > 0:
        e = math.log2(value) - power_of_two(published)
        return "Δ ±0" if abs(e) < 1e-9 else f"Δ log₂ {e:+g}"
    if d == 0:
        return "Δ ±0"
    dec = decimals_of(published) if published else 0
    if dec:
        text = f"{d:+.{dec + 1}f}"
        return f"Δ ±{text[1:]}" if float(text) == 0 else f"Δ {text}"
    return f"Δ {fmt_signed(float(d))}"


def fmt_ci(ci, published: str | None = None) -> str:
    """A 95% interval "[low, high]" at the precision of our value (one decimal more than the
    paper prints); "" when there is none."""
    if not ci or len(ci) != 2 or any(not _number(x) for x in ci):
        return ""
    lo, hi = (fmt_value(float(x), published) for x in ci)
    return f"[{lo}, {hi}]"


def fmt_count(n: int) -> str:
    """A count with thousands separators: "52,325"."""
    return f"{n:,}"


def fmt_n(r: dict) -> str:
    """How many test queries (or folds) a value's interval is over: "n = 784 queries"."""
    if r.get("n_queries"):
        return f"n = {fmt_count(r['n_queries'])} queries"
    if r.get("n_folds"):
        return f"n = {r['n_folds']} folds"
    return ""


def interval_text(r: dict) -> str:
    """What a value's verdict rests on, in words: for a value judged against a published one,
    "d = −0.0005, 90% interval [−0.0005, −0.0005] within ±δ = 0.031 (one standard error …);
    equivalence bound 0.0005 (0.02 δ); noise: …"; for a value with an interval of its own
    (a paired test), "95% interval [low, high] (basis)"; "" without either."""
    pub = r.get("published")
    if _number(r.get("d")) and r.get("d_ci90") and _number(r.get("margin")):
        lo, hi = r["d_ci90"]
        bound, m = r.get("equivalence_bound"), r.get("equivalence_bound_margins")
        level = (r.get("interval_levels") or [0.90])[0]
        text = (f"d = {fmt_diff(r['d'], pub, r.get('value'))}, {level * 100:.4g}% interval "
                f"[{fmt_diff(lo, pub, r.get('value'))}, {fmt_diff(hi, pub, r.get('value'))}]"
                f" against ±δ = {fmt_general(float(r['margin']))} ({r.get('margin_why', '')})")
        if _number(bound):
            text += (f"; equivalence bound {fmt_general(float(bound))}"
                     + (f" ({m:.2g} δ)" if _number(m) else ""))
        reach = r.get("reachable_bound_margins")
        if _number(reach) and reach > 1 and _number(r.get("reachable_bound")):
            text += (f"; a perfect reproduction's bound here is "
                     f"{fmt_general(float(r['reachable_bound']))} ({reach:.2g} δ): no result "
                     f"could have been shown reproduced")
        if r.get("noise_words"):
            text += f"; noise: {r['noise_words']}"
        return text
    ci = fmt_ci(r.get("ci95"), pub)
    if not ci:
        return ""
    basis = r.get("ci_basis") or fmt_n(r)
    return f"95% interval {ci}" + (f" ({basis})" if basis else "")


# --- claims -----------------------------------------------------------------------------------

def fmt_p(p) -> str:
    """A p-value no more precisely than a test resolves it: "< 0.0001", four decimals below
    0.01, three above; "—" without one."""
    if not _number(p):
        return MISSING
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}" if p < 0.01 else f"{p:.3f}"


def effect_decimals(ci) -> int | None:
    """The decimals an effect and its interval are printed with: two significant digits of
    the interval's half-width (a number is shown no finer than its uncertainty); None without
    an interval of positive width."""
    if not (isinstance(ci, (list, tuple)) and len(ci) == 2 and all(_number(x) for x in ci)):
        return None
    half = abs(float(ci[1]) - float(ci[0])) / 2
    if not half or math.isnan(half) or math.isinf(half):
        return None
    return min(12, max(0, 1 - int(math.floor(math.log10(half)))))


def _at(v: float, decimals: int | None) -> str:
    """``v`` signed, at ``decimals`` (else :func:`fmt_signed`); a value that rounds to zero
    has no sign."""
    if decimals is None:
        return fmt_signed(v)
    text = f"{v:+.{decimals}f}"
    return text[1:] if float(text) == 0 else text


def fmt_effect(v, ci=None) -> str:
    """A claim's effect, signed, at the precision of its interval ``ci`` (two significant
    digits of the half-width), else four significant digits — never in exponent notation
    beside a fixed-point neighbour; "—" without one."""
    if not _number(v):
        return MISSING
    return _at(float(v), effect_decimals(ci))


def fmt_effect_ci(ci) -> str:
    """A claim's 95% interval "[-0.011, +0.027]" at the effect's precision; "" without one."""
    if isinstance(ci, (list, tuple)) and len(ci) == 2 and all(_number(x) for x in ci):
        d = effect_decimals(ci)
        return f"[{_at(float(ci[0]), d)}, {_at(float(ci[1]), d)}]"
    return ""


def fmt_relative(x) -> str:
    """A relative difference (ours − published) / |published| in per cent: "-12.3 %"."""
    if not _number(x):
        return MISSING
    pct = 100.0 * float(x)
    text = f"{pct:+.1f}" if abs(pct) < 100 else f"{pct:+.0f}"
    return ("0.0" if float(text) == 0 else text) + " %"


# --- the benchmarks page ----------------------------------------------------------------------

def fmt_sig(v, digits: int = 4) -> str:
    """A measurement: ``digits`` significant digits, integers as integers (thousands
    separated), exponent notation outside [0.001, 10⁶)."""
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, int):
        return fmt_count(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if v == 0 or float(v).is_integer() and abs(v) < 1e12:
            return fmt_count(int(v))
        a = abs(v)
        if 1e-3 <= a < 1e6:
            d = max(0, digits - 1 - int(math.floor(math.log10(a))))
            text = f"{v:,.{d}f}"
            return text.rstrip("0").rstrip(".") if "." in text else text
        return f"{v:.{digits - 1}e}"
    return str(v)


def fmt_seconds(v) -> str:
    """A time in s, ms or µs as it fits, three significant digits; "—" without one."""
    if v is None:
        return MISSING
    if v >= 1:
        return f"{v:.3g} s"
    if v >= 1e-3:
        return f"{v * 1e3:.3g} ms"
    return f"{v * 1e6:.3g} µs"


def fmt_ratio(r) -> str:
    """A speed ratio "×2.35"; "—" without one."""
    return MISSING if r is None else f"×{r:.2f}"


def fmt_ratio_range(lo: float, hi: float) -> str:
    """The smallest and largest ratio over the rounds: "1.92–2.71"."""
    return f"{lo:.2f}–{hi:.2f}"


def fmt_loads(v) -> str:
    """Load averages (1, 5, 15 min): "0.52 / 0.61 / 0.70"; "—" without them."""
    return MISSING if not v else " / ".join(f"{x:.2f}" for x in v)


# --- where a record sits ----------------------------------------------------------------------

#: the fields that place a record on a page, in the order they are read: its published cell
WHERE = CELL


def where(r: dict, fields=WHERE, empty: str = "") -> str:
    """A record's place as words: its ``fields`` that are set, "fold 3" for the fold, a data
    set by its name (:func:`.standins.name`: "Corel-Small-Easy", not "corel-pamir:Small-Easy")
    ("OHSUMED, RankSVM, MAP, fold 3"); ``empty`` when none is."""
    parts = [f"fold {r[f]}" if f == "fold" else name(r[f]) if f == "dataset" else str(r[f])
             for f in fields if r.get(f) not in (None, "")]
    return ", ".join(parts) or empty


# --- formulas in prose ---------------------------------------------------------------------------

#: a one-letter symbol (not inside a word; a combining hat or prime kept) and its TeX-style
#: scripts: ``l_i^+``, ``Σ_{r>y_i}``, ``C_{Q,i}``, ``x^{-1}`` — never ``ConvexLoss_MAP``
_BRACED = r"\{(?:[^{}]|\{[^{}]*\})*\}"
_SCRIPTED = re.compile(r"(?<![A-Za-z0-9_\\])([A-Za-zΑ-Ωα-ω][\u0302\u0303\u0304\u2032]?)"
                       r"((?:[_^](?:" + _BRACED + r"|[A-Za-z0-9+\-−*±∓]))+)(?![A-Za-z0-9_{])")
_SCRIPT = re.compile(r"([_^])(" + _BRACED + r"|[A-Za-z0-9+\-−*±∓])")


#: a power after a number or a closing parenthesis: ``2^20``, ``2^-10``, ``(i+1)^-1``,
#: ``(i+1)^{-0.25}`` (never after a word: ``x^y`` is a symbol's, above)
_TEX_POWER = re.compile(r"(?<=[0-9)])\^(\{[^{}]*\}|[-−+]?\d+(?:\.\d+)?(?:/\d+)?)")
_SUPERSCRIPT = str.maketrans("0123456789+-−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻")


_SUB_CHARS = "0123456789+-−aehijklmnoprstuvx"
_SUBSCRIPT = str.maketrans(_SUB_CHARS, "₀₁₂₃₄₅₆₇₈₉₊₋₋ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")


def unicode_powers(text: str) -> str:
    """Integer powers and simple scripts as Unicode super- and subscripts, for text that
    cannot hold markup (a table's heading, a reason in a cell): "c=(i+1)^-1" → "c=(i+1)⁻¹",
    "2^20" → "2²⁰", "r_i" → "rᵢ"; what Unicode has no character for stays as it is."""
    def power(m):
        body = m.group(1).strip("{}")
        return (body.translate(_SUPERSCRIPT) if re.fullmatch(r"[-−+]?\d+", body)
                else m.group(0))

    def scripts(m):
        out = m.group(1)
        for kind, body in _SCRIPT.findall(m.group(2)):
            body = body.strip("{}")
            if kind == "_" and all(c in _SUB_CHARS for c in body):
                out += body.translate(_SUBSCRIPT)
            elif kind == "^" and re.fullmatch(r"[-−+]?\d+", body):
                out += body.translate(_SUPERSCRIPT)
            else:
                return m.group(0)
        return out
    return _SCRIPTED.sub(scripts, _TEX_POWER.sub(power, str(text)))


def formula_html(text: str) -> str:
    """Prose with its TeX-style sub- and superscripts set as HTML (escaped; ``l_i^+`` →
    l<sub>i</sub><sup>+</sup>, braces dropped, nested scripts set too); the rest as it is."""
    from markupsafe import escape

    def script(m):
        tag = "sub" if m.group(1) == "_" else "sup"
        body = m.group(2)
        body = body[1:-1] if body.startswith("{") else body
        return f"<{tag}>{_formula(body)}</{tag}>"

    def power(t: str) -> str:
        return _TEX_POWER.sub(lambda m: f"<sup>{m.group(1).strip('{}')}</sup>", t)

    def _formula(t: str) -> str:
        out, last = [], 0
        for m in _SCRIPTED.finditer(t):
            out.append(power(str(escape(t[last:m.start()]))))
            out.append(str(escape(m.group(1))) + _SCRIPT.sub(script, m.group(2)))
            last = m.end()
        out.append(power(str(escape(t[last:]))))
        return "".join(out)
    return _formula(str(text))


_PRINTED = re.compile(r"(figure|table|section)([0-9]+|[IVXLC]+)(?:-\w+)?")


def printed_name(name: str) -> str:
    """An artifact as the paper names it: "Figure 3" for ``figure3``, "Section II" for
    ``sectionII``; another name capitalised ("Complexity")."""
    m = _PRINTED.fullmatch(str(name))
    return f"{m.group(1).capitalize()} {m.group(2)}" if m else str(name).capitalize()


def figure_label(stem: str, artifact: str) -> str:
    """A figure file's label under the figure: "Figure 3" (``figure3.svg``), "Figure 3,
    OHSUMED" (``figure3-OHSUMED.svg``: one of its data sets)."""
    stem = str(stem)
    if stem.startswith(f"{artifact}-"):
        return f"{printed_name(artifact)}, {name(stem[len(artifact) + 1:])}"
    return printed_name(stem)


def artifact_heading(name: str, title: str) -> str:
    """An artifact's heading as the paper names it: "Figure 3: NDCG@10 on web search …" for
    ``figure3``, "Section II: …" for ``sectionII``; the title alone when it names the
    artifact itself ("Figure 3: …", "Table 2, …") or the artifact is not one the paper
    numbers (claims, complexity)."""
    m = _PRINTED.fullmatch(str(name))
    if not m:
        return str(title)
    label = f"{m.group(1).capitalize()} {m.group(2)}"
    if re.match(re.escape(label) + r"(?![0-9A-Za-z])", str(title), re.I):
        return str(title)
    return f"{label}: {title}"
