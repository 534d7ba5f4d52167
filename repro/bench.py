"""``python -m repro bench [name …]``: time the kernels against peers in one process.

Protocol: every contender is warmed up, then timed ``repeats`` times in alternation (the order
rotates each round, so drift and caching hit all alike), and the median is kept.  A ratio is
``peer seconds / our seconds`` (> 1: ours is faster).  Results go to
``reports/benchmarks.json`` (cases of other groups already there are kept) and
``reports/benchmarks.html``.

Groups: ``letor`` (the tokenizer, here) and any ``BENCHMARKS`` dict a paper module declares
(``{"lqo": function(data_dir, quick) -> list of cases}``).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Callable

import numpy as np

from . import __version__
from . import papers as registry
from .cache import atomic_write_bytes, atomic_write_json
from .data import catalog as cat


def single_thread_blas():
    """Limit BLAS (and OpenMP) pools to one thread while timing: our kernels are
    single-threaded, and on a 2-core machine a peer's spinning BLAS threads would also steal
    time from the next timed call.  Applied to every benchmark group and to the complexity
    figures' timings."""
    from threadpoolctl import threadpool_limits
    return threadpool_limits(limits=1)


def best_time(fn: Callable[[], object], repeats: int, min_total: float = 0.5,
              warmup: int = 1) -> float:
    """Fastest of at least ``repeats`` timed calls (more, up to 50, while their total is under
    ``min_total`` seconds) after ``warmup`` calls: the least disturbed by concurrent load.
    Used for scaling exponents, where one size is timed at a time."""
    for _ in range(warmup):
        fn()
    times: list[float] = []
    while len(times) < repeats or (sum(times) < min_total and len(times) < 50):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def time_alternating(fns: dict[str, Callable[[], object]], repeats: int = 7,
                     warmup: int = 1) -> dict[str, float]:
    """Median wall time of each callable, timed alternately after ``warmup`` calls each."""
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    times: dict[str, list[float]] = {k: [] for k in fns}
    names = list(fns)
    for r in range(repeats):
        for k in names[r % len(names):] + names[:r % len(names)]:
            t0 = time.perf_counter()
            fns[k]()
            times[k].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def case(name: str, params: dict, times: dict[str, float], ours: str = "ours", **extra) -> dict:
    """A benchmark row: our time, each peer's time and the ratio peer/ours."""
    peers = {k: v for k, v in times.items() if k != ours}
    return {"name": name, "params": params, "ours_s": times[ours], "peers_s": peers,
            "ratios": {k: v / times[ours] for k, v in peers.items()}, **extra}


def fit_exponent(x, t) -> float:
    """Least-squares slope of log t against log x (the empirical exponent); non-positive
    points are ignored."""
    x, t = np.asarray(x, float), np.asarray(t, float)
    ok = (x > 0) & (t > 0)
    return float(np.polyfit(np.log(x[ok]), np.log(t[ok]), 1)[0])


# --- the LETOR tokenizer ----------------------------------------------------------------------

def _python_parse(buf: bytes):
    rows, labels, qids = [], [], []
    for line in buf.decode("ascii").splitlines():
        body = line.split("#", 1)[0].split()
        if not body:
            continue
        labels.append(float(body[0]))
        qids.append(int(body[1][4:]))
        rows.append([float(t.split(":", 1)[1]) for t in body[2:]])
    return np.array(rows), np.array(labels), np.array(qids)


def bench_letor(data_dir: Path, quick: bool) -> list[dict]:
    from .data.letor import format_letor, parse_letor, tokenize
    from .data.load import load_letor
    from .data.synthetic import make_queries
    try:
        data = load_letor("MQ2008", 1, "train", data_dir)
        source = "MQ2008 Fold1 train (LETOR text regenerated with 6 decimals)"
    except Exception:
        data = make_queries(470, (5, 40), 46, seed=1)
        source = "synthetic, 46 features"
    buf = format_letor(data)
    mb = len(buf) / 1e6
    fns = {"ours": lambda: tokenize(buf), "ours+grouping": lambda: parse_letor(buf)}
    if not quick:
        fns["pure Python split/float"] = lambda: _python_parse(buf)
    try:
        from sklearn.datasets import load_svmlight_file
        fns["scikit-learn load_svmlight_file"] = lambda: load_svmlight_file(
            io.BytesIO(buf), query_id=True, n_features=46)
    except ImportError:
        pass
    times = time_alternating(fns, repeats=3 if quick else 9)
    row = case("letor tokenizer", {"input": source, "MB": round(mb, 2),
                                   "documents": data.n_docs}, times,
               throughput_MB_s={k: mb / v for k, v in times.items()})
    return [row]


def groups() -> dict[str, Callable]:
    out = {"letor": bench_letor}
    for pid in registry.paper_ids():
        out.update(getattr(registry.module(pid), "BENCHMARKS", {}))
    return out


def machine() -> dict:
    return {"python": platform.python_version(), "numpy": np.__version__,
            "platform": platform.platform(), "cpus": os.cpu_count(),
            "processor": platform.processor() or platform.machine()}


def render_html(results: dict, path: Path) -> None:
    from jinja2 import Environment, select_autoescape
    tpl = Environment(autoescape=select_autoescape(default=True)).from_string(
        """<!DOCTYPE html><html><head><meta charset="utf-8"><title>repro-rank benchmarks</title>
<style>body{font-family:sans-serif;max-width:70rem;margin:2rem auto}table{border-collapse:collapse;font-size:.85rem}
td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:right;vertical-align:top}td.l,th.l{text-align:left}</style></head><body>
<p><a href="index.html">reports</a></p><h1>Kernel benchmarks</h1>
<p>repro-rank {{ r.version }}; {{ r.machine.platform }}, {{ r.machine.cpus }} CPUs, Python {{ r.machine.python }}, NumPy {{ r.machine.numpy }}.
Median of alternating repeated runs after a warm-up, all contenders in one process, BLAS limited to one thread (our kernels are single-threaded). Ratio = peer seconds / our seconds.</p>
<table><tr><th class="l">group</th><th class="l">case</th><th class="l">parameters</th><th>ours (s)</th><th class="l">peers (s) and ratio</th><th class="l">other</th></tr>
{% for c in r.cases %}<tr><td class="l">{{ c.group }}</td><td class="l">{{ c.name }}</td><td class="l">{% for k, v in c.params.items() %}{{ k }}={{ v }}<br>{% endfor %}</td>
<td>{{ "%.4g"|format(c.ours_s) }}</td><td class="l">{% for k, v in c.peers_s.items() %}{{ k }}: {{ "%.4g"|format(v) }} s (×{{ "%.2f"|format(c.ratios[k]) }})<br>{% endfor %}</td>
<td class="l">{% for k, v in c.items() if k not in ("name","params","ours_s","peers_s","ratios","group") %}{{ k }}: {{ v }}<br>{% endfor %}</td></tr>{% endfor %}
</table></body></html>""")
    atomic_write_bytes(path, tpl.render(r=results).encode())


def main(argv) -> int:
    p = argparse.ArgumentParser(prog="python -m repro bench", description=__doc__.split("\n\n")[0])
    p.add_argument("names", nargs="*", help="groups to run (default: all)")
    p.add_argument("--data-dir")
    p.add_argument("--quick", action="store_true", help="fewer repeats and sizes")
    p.add_argument("--out", default="reports", help="directory of benchmarks.json/.html")
    args = p.parse_args(argv)
    available = groups()
    names = args.names or list(available)
    unknown = [n for n in names if n not in available]
    if unknown:
        p.error(f"unknown benchmark(s) {unknown}; available: {', '.join(available)}")
    out = Path(args.out)
    path = out / "benchmarks.json"
    try:
        previous = json.loads(path.read_text())["cases"]
    except (OSError, ValueError, KeyError):
        previous = []
    cases = [c for c in previous if c.get("group") not in names]
    root = cat.data_dir(args.data_dir)
    for name in names:
        print(f"bench {name} …", flush=True)
        with single_thread_blas():
            group_cases = available[name](root, args.quick)
        for c in group_cases:
            c["group"] = name
            cases.append(c)
            peers = ", ".join(f"{k} {v:.4g} s (×{c['ratios'][k]:.2f})" for k, v in c["peers_s"].items())
            print(f"  {c['name']}: ours {c['ours_s']:.4g} s; {peers}")
            for k, v in c.items():
                if k not in ("name", "params", "ours_s", "peers_s", "ratios", "group"):
                    print(f"    {k}: {v}")
    results = {"version": __version__, "machine": machine(), "cases": cases}
    atomic_write_json(path, results)
    render_html(results, out / "benchmarks.html")
    print(f"wrote {path} and {out / 'benchmarks.html'}")
    return 0
