"""The benchmarks page (``benchmarks.html``) from the cases of ``benchmarks.json``: each case's
time against its peers' with the ratio per round, its parameters and other measurements read
from their keys (a key's unit — ``_s``, ``_MB_s``, ``_pct`` … — goes with its value, the rest
of the key becomes the label), and the machine and load it was measured under (CPU model,
CPUs, load average against them).

Peers are of two kinds, shown apart: **other libraries** (scikit-learn, SciPy, lap, lapx: what
a reader would otherwise use) and **our own variants** (a pure-Python or literal transcription
of the same algorithm, a NumPy version of it, fewer threads: what the kernel gains over the
straightforward code, the ×100 ratios).  A case's ``peer_kinds`` (peer → "library" or "own")
says which is which; without it, a peer named after a library (:data:`LIBRARIES`) is one, "the
same, …" is of the kind of the peer before it, and the rest are our own."""
from __future__ import annotations

import re
from pathlib import Path

from ..evidence.record import natural_key
from ..files import write_if_changed
from .format import fmt_loads, fmt_ratio, fmt_ratio_range, fmt_seconds, fmt_sig
from .render import common, footer_css, template


def _number_first(key) -> tuple:
    """Sort key: numbers (``"46"``, ``"0.25"``) by value before other keys (natural order)."""
    try:
        return (0, float(key), ())
    except (TypeError, ValueError):
        return (1, 0.0, natural_key(key))


#: units in measurement keys (token sequences of the key split at "_"), and how a reader
#: reads them; a unit may sit anywhere in the key ("throughput_MB_s_best": throughput, best,
#: in MB/s)
_UNIT_TOKENS = ((("MB", "per", "cpu", "s"), " MB per CPU-second"), (("MB", "s"), " MB/s"),
                (("GiB",), " GiB"), (("MB",), " MB"), (("us",), " µs"), (("ms",), " ms"),
                (("pct",), " %"), (("s",), " s"))
#: words of keys as a reader writes them
_WORDS = {"cpu": "CPU", "rss": "RSS", "cg": "CG", "gnorm": "gradient norm", "vs": "vs"}


def _split_key(k: str) -> tuple[list[str], str]:
    """(label tokens, unit) of a measurement key: the first unit found is removed from the
    tokens (the tokens after it qualify the label: "best", "min")."""
    tokens = k.split("_")
    for seq, unit in _UNIT_TOKENS:
        n = len(seq)
        for i in range(len(tokens) - n + 1):
            if tuple(tokens[i:i + n]) == seq and (i > 0 or len(tokens) == n and seq != ("s",)):
                return tokens[:i] + tokens[i + n:], unit
    return tokens, ""


def _label(k: str) -> str:
    """A measurement key as words: its unit dropped from the name (the unit goes with the
    value), ``eps_1e3`` as "(ε = 1e-3)", ``eps`` alone as ε, abbreviations as written
    (CPU, RSS, CG); "cpu_s" is the CPU time."""
    tokens, unit = _split_key(k)
    out, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t == "eps":
            m = re.fullmatch(r"1e(\d+)", tokens[i + 1]) if i + 1 < len(tokens) else None
            if m:
                out.append(f"(ε = 1e-{m.group(1)})")
                i += 2
                continue
            out.append("ε")
        elif t:
            out.append(_WORDS.get(t, t))
        i += 1
    text = " ".join(out).strip()
    if text == "CPU" and unit == " s":
        return "CPU time"
    if not text:                      # the key is its unit: "MB" (of the input)
        return {" MB": "size", " GiB": "memory", " s": "time"}.get(unit, k)
    return text


def _unit(k: str) -> str:
    return _split_key(k)[1]


def _is_seconds(k: str) -> bool:
    """Whether a key's values are seconds (shown in s, ms or µs as they fit)."""
    return _unit(k) == " s" or k in ("seconds", "times") or k.startswith("times_")


def _other(k: str, v) -> str:
    """A measurement's value as words: with its key's unit, times in s, ms or µs."""
    seconds = _is_seconds(k)
    unit = "" if seconds else _unit(k)
    if isinstance(v, dict):            # "times n: 46; 92; 184": sizes in numeric order
        def one(b):
            if seconds and isinstance(b, (int, float)):
                return fmt_seconds(b)
            return fmt_sig(b) + ("" if seconds or isinstance(b, str) else unit)
        return "; ".join(f"{a}: {one(b)}"
                         for a, b in sorted(v.items(), key=lambda kv: _number_first(kv[0])))
    if isinstance(v, (int, float)) and not isinstance(v, bool) and seconds:
        return fmt_seconds(float(v))
    if isinstance(v, list) and all(isinstance(x, (int, float)) for x in v):
        return " / ".join(fmt_sig(x) for x in v) + unit
    return fmt_sig(v) + unit if not isinstance(v, str) else v


#: shown elsewhere on the row or in the page's header (the protocol's fields)
_CASE_KEYS = ("name", "params", "ours_s", "peers_s", "ratios", "group", "ratio_notes",
              "ratio_min", "ratio_median", "ratio_max", "time_min_s", "time_max_s",
              "protocol", "cpu_model", "load_average_before", "load_average_after", "repeats")
SLOWER = ("below 1: the peer is faster than ours on this case (the benchmark gives no reason; "
          "see the case's other measurements)")
#: peers whose name begins so are other libraries
LIBRARIES = ("scikit-learn", "sklearn", "scipy", "lap.", "lap ", "lapx", "lightgbm", "xgboost")
LIBRARY, OWN = "library", "own"
#: the two tables of the page, in order
KINDS = ((LIBRARY, "Against other libraries",
          "what a reader would use otherwise: the same task done by an established library"),
         (OWN, "Against our own straightforward variants",
          "the same algorithm written plainly (pure Python, a literal transcription of the "
          "paper's loop, NumPy, fewer threads): what the compiled kernel gains; these ratios "
          "are large by construction and say nothing about other libraries"))


def peer_kinds(case: dict) -> dict[str, str]:
    """Peer → "library" or "own": the case's ``peer_kinds``, else by name (a library's name
    first; "the same, …" of the kind before it)."""
    given = case.get("peer_kinds") or {}
    out, last = {}, OWN
    for peer in case.get("peers_s", {}):
        if peer in given:
            kind = given[peer]
        elif peer.lower().startswith(LIBRARIES):
            kind = LIBRARY
        elif peer.lower().startswith("the same"):
            kind = last
        else:
            kind = OWN
        out[peer] = last = kind
    return out


def _peer_rows(c: dict) -> list[dict]:
    kinds = peer_kinds(c)
    peers = []
    for peer, secs in c.get("peers_s", {}).items():
        ratio = c.get("ratios", {}).get(peer)
        slower = ratio is not None and ratio < 1
        why = ((c.get("ratio_notes") or {}).get(peer) or SLOWER) if slower else ""
        if slower and not why.startswith("below 1"):
            why = "below 1: the peer is faster here — " + why
        lo, hi = (c.get("ratio_min") or {}).get(peer), (c.get("ratio_max") or {}).get(peer)
        spread = (f"{fmt_ratio_range(lo, hi)} over {c.get('repeats')} rounds"
                  if lo is not None and hi is not None else "one timing, no spread")
        peers.append({"name": peer, "seconds": fmt_seconds(secs), "ratio": fmt_ratio(ratio),
                      "spread": spread if ratio is not None else "",
                      "slower": slower, "why": why, "kind": kinds[peer]})
    return peers


def _case_row(c: dict, results: dict, peers: list[dict]) -> dict:
    load = ""
    if c.get("load_average_before") or c.get("load_average_after"):
        load = (f"load {fmt_loads(c.get('load_average_before'))} before, "
                f"{fmt_loads(c.get('load_average_after'))} after")
    return {"group": c.get("group", ""), "name": c.get("name", ""),
            "params": [f"{_label(k)} = {_other(k, v)}" for k, v in c.get("params", {}).items()],
            "ours": fmt_seconds(c.get("ours_s")), "load": load, "peers": peers or [
                {"name": "—", "seconds": "", "ratio": "", "spread": "", "slower": False,
                 "why": "", "kind": OWN}],
            "other": [(_label(k), _other(k, v)) for k, v in c.items()
                      if k not in _CASE_KEYS and k not in ("machine", "peer_kinds")]
            + _case_machine(c, results.get("machine", {}))}


def machine_words(m: dict) -> dict:
    """The machine a benchmark ran on, in words: CPU model, CPUs, platform, versions, and
    the load average against the CPUs (how busy the machine was with other work)."""
    cpus = m.get("cpus")
    load = ""
    if m.get("load_average_before") or m.get("load_average_after"):
        load = (f"load average (1, 5, 15 min) {fmt_loads(m.get('load_average_before'))} before "
                f"the run, {fmt_loads(m.get('load_average_after'))} after")
        first = (m.get("load_average_before") or m.get("load_average_after") or [None])[0]
        if cpus and first is not None:
            load += (f" — on {cpus} CPUs: " + ("about idle" if first < 0.25 * cpus else
                     "partly busy with other work" if first < 0.75 * cpus else
                     "busy with other work: the wall times are pessimistic"))
    measured = ", ".join(str(x) for x in (
        m.get("cpu_model"), f"{cpus} CPUs (logical cores the OS reports)" if cpus else None,
        m.get("platform"), f"Python {m.get('python')}" if m.get("python") else None,
        f"NumPy {m.get('numpy')}" if m.get("numpy") else None) if x)
    return {"measured_on": measured, "machine_load": load,
            "cpu_model": m.get("cpu_model") or "not recorded",
            "cpus": str(cpus) if cpus else "not recorded"}


def benchmarks_context(results: dict) -> dict:
    cases, tables = [], []
    for c in results.get("cases", []):
        peers = _peer_rows(c)
        cases.append(_case_row(c, results, peers))
    for kind, title, why in KINDS:
        rows = []
        for c in results.get("cases", []):
            peers = [p for p in _peer_rows(c) if p["kind"] == kind]
            if peers:
                rows.append(_case_row(c, results, peers))
        if rows:
            tables.append({"kind": kind, "title": title, "why": why, "cases": rows})
    alone = [_case_row(c, results, []) for c in results.get("cases", []) if not c.get("peers_s")]
    if alone:
        tables.append({"kind": "alone", "title": "Without a peer",
                       "why": "measured alone (a scale or a thread count the others cannot run)",
                       "cases": alone})
    m = dict(results.get("machine", {}))
    if not m.get("cpu_model"):     # older files: the model is on the cases
        models = {c.get("cpu_model") for c in results.get("cases", []) if c.get("cpu_model")}
        m["cpu_model"] = ", ".join(sorted(models)) or None
    return {"cases": cases, "tables": tables, **machine_words(m),
            "bench_version": results.get("version", ""),
            "measured_at": measured_at(results.get("cases", []))}


def measured_at(cases: list[dict]) -> str:
    """The commits the cases were measured at (``commit``, recorded by ``bench``), in words:
    "commit abc1234" / "commits abc1234 (3 cases), def5678 (1 case)"; cases from before
    commits were recorded are said to be so."""
    counts: dict = {}
    for c in cases:
        counts[c.get("commit") or None] = counts.get(c.get("commit") or None, 0) + 1
    known = [(k, n) for k, n in counts.items() if k]
    words = []
    if len(known) == 1 and None not in counts:
        return f"commit {known[0][0]}"
    words += [f"{k} ({n} case{'s' if n > 1 else ''})" for k, n in sorted(known)]
    if None in counts:
        words.append(f"an earlier commit, not recorded ({counts[None]} case"
                     f"{'s' if counts[None] > 1 else ''})")
    return ("commits " if len(known) > 1 else "") + ", ".join(words)


_MACHINE_KEYS = ("cpu_model", "platform", "cpus", "python", "numpy", "processor")


def _case_machine(c: dict, machine: dict) -> list[tuple[str, str]]:
    """A case's own machine, shown only where it differs from the page's (a case measured
    in another session: ``bench scale``)."""
    own = {**(c.get("machine") or {}), **({"cpu_model": c["cpu_model"]} if c.get("cpu_model")
                                          else {})}
    differ = {k: own[k] for k in _MACHINE_KEYS if own.get(k) is not None
              and machine.get(k) is not None and str(own[k]) != str(machine.get(k))}
    if not differ:
        return []
    return [("measured on", ", ".join(f"{'CPU' if k == 'cpu_model' else k} {v}"
                                      for k, v in differ.items()))]


def render_benchmarks(results: dict, path: Path) -> None:
    """The benchmarks page (``benchmarks.html``) from the cases of ``benchmarks.json``."""
    html = template("benchmarks.html.j2").render(**benchmarks_context(results), **common(),
                                                 footer=footer_css("benchmarks"),
                                                 index=(Path(path).parent / "index.html").is_file())
    write_if_changed(Path(path), html.encode("utf-8"))
