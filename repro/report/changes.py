"""What changed since the last rendering: ``reports/<paper>/changes.json``.

Before an artifact's records (``<artifact>.json``) are replaced, :func:`record` compares the
new records with the ones on disk — the previous rendering — keyed by paper / artifact /
dataset / method / metric / fold.  Values are compared rounded to :data:`DIGITS` significant
digits (a value that moved in the 15th digit through summation order is not a change);
verdicts are compared as text.  When anything differs, the artifact's entry in
``changes.json`` is replaced by the list of differences (old → new value, old → new verdict),
with the commit the previous rendering names (its ``<artifact>.meta.json`` provenance, else
the origin line of the paper's page) and the commit of this rendering.  When nothing differs
from a previous rendering at another commit, the entry becomes empty, naming that commit
("no value or verdict changed since <commit>"): the list is always against the previous
rendering of the same target.  A rerun at the commit of the previous rendering (or without
knowing its own commit) leaves the entry exactly as it was — it rewrites no byte of the file.

Timing artifacts (measured times: they change on every run) are never compared.

:func:`page_entries` turns the file into what the paper page lists.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

from ..evidence.record import CELL
from ..files import write_if_changed

FILE = "changes.json"
#: significant digits at which two values are the same value
DIGITS = 10
KEY = ("paper",) + CELL
#: entries kept per artifact in the file (the count of all of them is kept too)
MAX_ENTRIES = 500
#: what the page says of a previous rendering that names no commit
UNKNOWN = "an earlier rendering (its commit is not recorded)"


def same_number_form(v):
    """``v`` as compared: numbers rounded to :data:`DIGITS` significant digits (ints and
    floats alike), NaN equal to NaN; lists and dicts element by element."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, (int, float)):
        f = float(v)
        if math.isnan(f):
            return "NaN"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return float(f"{f:.{DIGITS - 1}e}")
    if isinstance(v, (list, tuple)):
        return [same_number_form(x) for x in v]
    if isinstance(v, dict):
        return {k: same_number_form(x) for k, x in v.items()}
    return v


def _keyed(flat: list[dict]) -> dict[tuple, dict]:
    """Records by key; a key seen again gets its occurrence number (records of a user's
    method may share a key with each other)."""
    out: dict[tuple, dict] = {}
    for r in flat:
        k = tuple(None if r.get(f) is None else str(r.get(f)) for f in KEY)
        n, key = 1, k + (1,)
        while key in out:
            n += 1
            key = k + (n,)
        out[key] = r
    return out


def verdict_of(r: dict) -> str | None:
    """What a record concluded: its verdict code, a claim's with its outcome ("claim:
    replicated")."""
    v = r.get("verdict")
    return f"{v}: {r['outcome']}" if v == "claim" and r.get("outcome") else v


def differences(old: list[dict], new: list[dict]) -> list[dict]:
    """Records whose value or verdict differs between ``old`` and ``new`` (a record present on
    one side only included, its other side None), in the order of ``new`` then ``old``."""
    a, b = _keyed(old), _keyed(new)
    out = []
    for key in list(b) + [k for k in a if k not in b]:
        o, n = a.get(key), b.get(key)
        ov, nv = (None if r is None else r.get("value") for r in (o, n))
        overd, nverd = (None if r is None else verdict_of(r) for r in (o, n))
        if o is not None and n is not None and same_number_form(ov) == same_number_form(nv) \
                and overd == nverd:
            continue
        rec = n if n is not None else o
        out.append({**{f: rec.get(f) for f in KEY},
                    "published": rec.get("published"),
                    "old_value": ov, "new_value": nv,
                    "old_verdict": overd, "new_verdict": nverd})
    return out


def _commit_of_page(page: Path) -> str | None:
    try:
        text = page.read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(r'class="meta origin">[^<]*?commit ([0-9a-f]{7,40}(?:\+local changes)?)', text)
    return m.group(1) if m else None


def rendered_commit(out_dir: Path, name: str) -> str | None:
    """The commit a rendering of artifact ``name`` in ``out_dir`` names: its meta file's
    provenance, else the origin line of the paper page beside it (older renderings)."""
    try:
        meta = json.loads((Path(out_dir) / f"{name}.meta.json").read_text())
    except (OSError, ValueError):
        meta = {}
    prov = meta.get("provenance") or {}
    if prov.get("short"):
        return prov["short"]
    return _commit_of_page(Path(out_dir) / "index.html")


def load(out_dir: Path) -> dict:
    """``changes.json`` of a paper directory ({} when absent or unreadable)."""
    try:
        data = json.loads((Path(out_dir) / FILE).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def record(out_dir: Path, name: str, new_flat: list[dict], paper: str,
           now: str | None = None) -> bool:
    """Compare the new records of artifact ``name`` with the previous rendering in
    ``out_dir`` (call it before the artifact's JSON is replaced) and update ``changes.json``:
    the artifact's entry replaced when a value or verdict differs, left untouched otherwise
    (nothing is written when nothing moved, so a rerun that changes nothing changes no file).  ``now``: the commit of this rendering.
    Returns whether the file was written.  Nothing is done without a previous rendering."""
    out_dir = Path(out_dir)
    try:
        old = json.loads((out_dir / f"{name}.json").read_text())
    except (OSError, ValueError):
        return False
    if not isinstance(old, list):
        return False
    diffs = differences(old, new_flat)
    data = load(out_dir)
    arts = data.setdefault("artifacts", {})
    data["paper"] = paper
    since = rendered_commit(out_dir, name) or UNKNOWN
    if not diffs:
        if not now or since in (now, UNKNOWN) or arts.get(name) == _unchanged(since):
            return False              # a rerun of the same rendering: no byte changes
        arts[name] = _unchanged(since)  # the previous rendering is the one compared with
        text = json.dumps(data, indent=1, sort_keys=True, allow_nan=True)
        return write_if_changed(out_dir / FILE, text.encode("utf-8"))
    entry = {"since": since, "n_changes": len(diffs), "changes": diffs[:MAX_ENTRIES]}
    if diffs and now:
        entry["rendered_at"] = now
    arts[name] = entry
    text = json.dumps(data, indent=1, sort_keys=True, allow_nan=True)
    return write_if_changed(out_dir / FILE, text.encode("utf-8"))


def _unchanged(since: str) -> dict:
    """An artifact's entry when nothing moved since the rendering at commit ``since``."""
    return {"since": since, "n_changes": 0, "changes": []}


def page_entries(out_dir: Path, order: list[str], fmt_value, fmt_where) -> dict:
    """What a paper page shows: {"artifacts": [{"name", "since", "rendered_at", "n",
    "rows": [{"where", "value", "verdict"}]}], "n": total changes, "since": the commits
    compared with, "recorded": whether changes.json exists}."""
    data = load(out_dir)
    arts = data.get("artifacts") or {}
    out, total = [], 0
    for name in [n for n in order if n in arts]:
        e = arts[name]
        rows = []
        for c in e.get("changes", []):
            pub = c.get("published")
            ov = "—" if c.get("old_verdict") is None and c.get("old_value") is None \
                else fmt_value(c.get("old_value"), pub)
            nv = "—" if c.get("new_verdict") is None and c.get("new_value") is None \
                else fmt_value(c.get("new_value"), pub)
            rows.append({"where": fmt_where(c), "value": f"{ov} → {nv}" if ov != nv else ov,
                         "verdict": (f"{c.get('old_verdict') or '(absent)'} → "
                                     f"{c.get('new_verdict') or '(absent)'}"
                                     if c.get("old_verdict") != c.get("new_verdict")
                                     else c.get("new_verdict") or ""),
                         "moved": c.get("old_verdict") != c.get("new_verdict")})
        n = int(e.get("n_changes", len(rows)))
        total += n
        out.append({"name": name, "since": e.get("since") or UNKNOWN,
                    "rendered_at": e.get("rendered_at") or "", "n": n, "rows": rows,
                    "left": n - len(rows)})
    since = sorted({a["since"] for a in out})
    return {"artifacts": [a for a in out if a["n"]], "n": total, "since": since,
            "recorded": bool(arts)}
