"""The compact reproduced-vs-published table printed when an artifact finishes."""
from __future__ import annotations

from collections import Counter

from ..evidence.record import IN_ARTIFACT
from .format import fmt_diff, fmt_general, fmt_value
from .verdicts import Tally, headline, words

MAX_ROWS = 40


def compact_table(art_id: str, title: str, flat: list[dict], out_path: str) -> str:
    """Values with a published counterpart, not run, or computed on marked data (user data,
    an unverified copy); where no value has a published counterpart (a figure of our own,
    validation curves, a run on user data), every value — never a header without rows.  The
    summary names the data marks, so that no value on unverified data goes unsaid."""
    published = any(r.get("published") is not None for r in flat)
    rows = [r for r in flat if r.get("published") is not None or r["verdict"] == "not run"
            or r.get("modern") or r.get("data_mark")] if published else list(flat)
    if not rows:
        rows = list(flat)
    margin = any(r.get("margin") is not None for r in rows[:MAX_ROWS])
    head = IN_ARTIFACT + ("reproduced", "published", "diff") + (
        ("±δ", "bound") if margin else ()) + ("verdict",)
    lines = [[str(r.get("dataset") or ""), str(r.get("method") or ""), str(r.get("metric") or ""),
              str(r.get("fold") or ""), fmt_value(r.get("value"), r.get("published")),
              str(r.get("published") or ""),
              fmt_diff(r.get("diff"), r.get("published"), r.get("value")).removeprefix("Δ ")]
             + ([fmt_general(float(r["margin"])) if r.get("margin") is not None else "",
                 fmt_general(float(r["equivalence_bound"]))
                 if r.get("equivalence_bound") is not None else ""] if margin else [])
             + [words(r)] for r in rows[:MAX_ROWS]]
    widths = [max([len(h)] + [len(l[i]) for l in lines]) for i, h in enumerate(head)]
    fmt = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    out = [f"\n{art_id} — {title}", fmt(head), fmt(["-" * w for w in widths])]
    out += [fmt(l) for l in lines]
    if len(rows) > MAX_ROWS:
        out.append(f"… {len(rows) - MAX_ROWS} more rows")
    said = headline(Tally().add(flat))
    out.append(said[0] + f"  ({len(flat)} values in {out_path})")
    out += [line for line in said[1:2] if "unverified" in line]     # the unverified copies
    marks = Counter(r["data_mark"] for r in flat if r.get("data_mark"))
    out += [f"{n} value(s) say: {mark}" for mark, n in marks.items()]
    return "\n".join(out)
