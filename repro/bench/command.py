"""The ``bench`` command: run benchmark groups, keep their cases, write the benchmarks page.

Protocol (:func:`repro.bench.common.interleaved`): every contender is warmed up, then timed
``repeats`` times in interleaved rounds (ours, peer, ours, peer …; the order rotates each
round, so drift and caching hit all alike); the medians are kept and the ratio peer/ours is
taken per round, its min / median / max stored; the CPU model and the load before and after
are recorded.  Every thread pool is limited to one thread (BLAS single-threaded).  Results
go to ``reports/benchmarks.json`` (cases of groups not run this time are kept) and
``reports/benchmarks.html``.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .. import __version__
from ..files import atomic_write_json
from ..data import catalog as cat
from ..run.provenance import machine
from .common import cpu_model, load_average
from ..report.benchmarks import render_benchmarks
from ..report.build import rendering_commit
from ..run.timing import single_thread_blas
from . import assignment, domination, letor, lqo, pamir, sampler, scale, svmperf, tron

GROUPS = {"letor": letor.bench, "lqo": lqo.bench, "tron": tron.bench, "scale": scale.bench,
          "sampler": sampler.bench, "domination": domination.bench,
          "assignment": assignment.bench, "pamir": pamir.bench, "svmperf": svmperf.bench}
#: Run when no group is named (``scale`` writes a 2.6 GB set and takes minutes: name it).
DEFAULT = ("letor", "lqo", "tron", "sampler", "domination", "assignment", "pamir", "svmperf")


def main(argv, inputs=None) -> int:
    """The command; ``inputs(group)``: the keyword arguments of a group's ``bench`` that the
    papers provide (their declared benchmark inputs, resolved by :mod:`repro.cli`: this package
    names no paper)."""
    p = argparse.ArgumentParser(prog="python -m repro bench",
                                description="Time the kernels against peers in one process.")
    p.add_argument("names", nargs="*", help=f"groups to run: {', '.join(GROUPS)} (default: "
                                           f"{', '.join(DEFAULT)})")
    p.add_argument("--data-dir")
    p.add_argument("--quick", action="store_true", help="fewer repeats and sizes")
    p.add_argument("--out", default="reports", help="directory of benchmarks.json/.html")
    p.add_argument("--render-only", action="store_true",
                   help="run nothing: write benchmarks.html again from benchmarks.json (after "
                        "a change of the page, not of the measurements)")
    args = p.parse_args(argv)
    if args.render_only:
        if args.names:
            p.error("--render-only runs no benchmark group; name none")
        path = Path(args.out) / "benchmarks.json"
        try:
            results = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            p.error(f"--render-only: cannot read {path}: {exc}")
        render_benchmarks(results, Path(args.out) / "benchmarks.html")
        print(f"wrote {Path(args.out) / 'benchmarks.html'} from {path}")
        return 0
    names = args.names or list(DEFAULT)
    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        p.error(f"unknown benchmark(s) {unknown}; available: {', '.join(GROUPS)}")
    out = Path(args.out)
    path = out / "benchmarks.json"
    try:
        previous = json.loads(path.read_text())["cases"]
    except (OSError, ValueError, KeyError):
        previous = []
    cases = [c for c in previous if c.get("group") not in names]
    root = cat.data_dir(args.data_dir)
    load_before = load_average()
    commit = rendering_commit().get("short")         # the code these cases time
    for name in names:
        print(f"bench {name} …", flush=True)
        with single_thread_blas():
            group_cases = GROUPS[name](root, args.quick,
                                       **(inputs(name) if inputs is not None else {}))
        for c in group_cases:
            c["group"] = name
            c["commit"] = commit
            cases.append(c)
            peers = ", ".join(f"{k} {v:.4g} s (×{c['ratios'][k]:.2f})" for k, v in c["peers_s"].items())
            print(f"  {c['name']}: ours {c['ours_s']:.4g} s; {peers}")
            for k, v in c.items():
                if k not in ("name", "params", "ours_s", "peers_s", "ratios", "group"):
                    print(f"    {k}: {v}")
    results = {"version": __version__,
               "machine": {**machine(), "cpu_model": cpu_model(),
                           "load_average_before": load_before,
                           "load_average_after": load_average()},
               "cases": cases}
    atomic_write_json(path, results)
    render_benchmarks(results, out / "benchmarks.html")
    print(f"wrote {path} and {out / 'benchmarks.html'}")
    return 0
