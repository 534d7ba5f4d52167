"""The compact reproduced-vs-published table printed when an artifact finishes."""
from __future__ import annotations

from ..evidence.record import IN_ARTIFACT
from .tables import fmt_ci, fmt_diff, fmt_value
from .verdicts import Tally, headline

MAX_ROWS = 40


def compact_table(art_id: str, title: str, flat: list[dict], out_path: str) -> str:
    """Values with a published counterpart or not run first; where an artifact has none (a
    figure of our own, validation curves), its own values — never a header without rows."""
    rows = [r for r in flat if r.get("published") is not None or r["verdict"].startswith("not run")
            or r.get("modern")]
    if not rows:
        rows = list(flat)
    ci = any(r.get("ci95") for r in rows[:MAX_ROWS])     # the 95% interval column, if any
    head = IN_ARTIFACT + ("reproduced",) + (("95% interval",) if ci
                                                                     else ()) + \
        ("published", "diff", "verdict")
    lines = [[str(r.get("dataset") or ""), str(r.get("method") or ""), str(r.get("metric") or ""),
              str(r.get("fold") or ""), fmt_value(r.get("value"), r.get("published"))]
             + ([fmt_ci(r.get("ci95"), r.get("published"))] if ci else [])
             + [str(r.get("published") or ""),
                fmt_diff(r.get("diff"), r.get("published"), r.get("value")).removeprefix("Δ "),
                r["verdict"]] for r in rows[:MAX_ROWS]]
    widths = [max([len(h)] + [len(l[i]) for l in lines]) for i, h in enumerate(head)]
    fmt = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    out = [f"\n{art_id} — {title}", fmt(head), fmt(["-" * w for w in widths])]
    out += [fmt(l) for l in lines]
    if len(rows) > MAX_ROWS:
        out.append(f"… {len(rows) - MAX_ROWS} more rows")
    out.append(headline(Tally().add(flat))[0] + f"  ({len(flat)} values in {out_path})")
    return "\n".join(out)
