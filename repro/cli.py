"""Command line: ``python -m repro <command or target> [options]``.

Commands: ``list``, ``data``, ``eval``, ``bench``.  Anything else is a target: ``all``, a paper
id (``pahikkala2010``), an artifact (``table7`` — every paper's artifact of that name unless
``--paper`` narrows it — or exactly ``pahikkala2010.table7``).
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from . import __version__, eval_command
from . import papers as registry
from .bench import command as bench_command
from .data import catalog as cat
from .errors import ReproError
from .pipeline import run_artifacts

COMMANDS = ("list", "data", "eval", "bench")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", help="data directory (default: $REPRO_DATA_DIR, else ./data)")


def _run_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m repro",
        description="Reproduce learning-to-rank papers. Targets: all | <paper> | <artifact> | "
                    "<paper>.<artifact>. Commands: list, data, eval, bench (each has --help).")
    p.add_argument("targets", nargs="+", help="what to run (e.g. figure4, pahikkala2010, all)")
    _common(p)
    p.add_argument("--paper", choices=registry.PAPER_IDS, help="narrow a short artifact name to one paper")
    p.add_argument("--quick", action="store_true", help="small grids and folds, for smoke runs "
                   "(writes to reports-quick/ unless --out is given)")
    p.add_argument("--jobs", type=int, default=1, help="process pool size for independent runs")
    p.add_argument("--force", action="store_true", help="recompute runs even if cached")
    p.add_argument("--report-only", action="store_true", help="render from cached results only")
    p.add_argument("--no-pdf", action="store_true", help="write HTML only")
    p.add_argument("--out", help="report directory (default: reports)")
    p.add_argument("--version", action="version", version=f"repro-rank {__version__}")
    return p


def cmd_list(argv) -> int:
    p = argparse.ArgumentParser(prog="python -m repro list", description="Every artifact: paper, "
                                "title, data needed and whether it is available.")
    _common(p)
    args = p.parse_args(argv)
    root = cat.data_dir(args.data_dir)
    rows = []
    for art in registry.artifacts():
        states = []
        for ds in art.datasets:
            ok, _ = cat.data_state(ds, root)
            label = ds + (f" (stand-in for {art.stand_ins[ds]})" if ds in art.stand_ins else "")
            states.append((label, ok))
        avail = ("yes" if all(ok for _, ok in states) else
                 "partly" if any(ok for _, ok in states) else "no") if states else "n/a"
        if art.task is None:
            avail += ", not implemented yet"
        rows.append((art.id, art.title, ", ".join(l for l, _ in states) or "—", avail))
    w = [max(len(r[i]) for r in rows) for i in range(3)]
    print(f"{'artifact':{w[0]}}  {'title':{w[1]}}  {'data':{w[2]}}  available")
    for r in rows:
        print(f"{r[0]:{w[0]}}  {r[1]:{w[1]}}  {r[2]:{w[2]}}  {r[3]}")
    return 0


def cmd_data(argv) -> int:
    p = argparse.ArgumentParser(prog="python -m repro data", description="Every dataset any paper "
                                "needs: verified / unverified / corrupt / missing, who needs it, "
                                "where to obtain it. Verifies every file's checksum.")
    _common(p)
    p.add_argument("names", nargs="*", help="only these datasets")
    args = p.parse_args(argv)
    root = cat.data_dir(args.data_dir)
    need = defaultdict(list)
    for art in registry.artifacts():
        for ds in art.datasets:
            need[ds].append(art.id)
        for orig in art.stand_ins.values():
            need[orig].append(art.id)
    print(f"data directory: {root.resolve()}")
    names = args.names or list(cat.catalog())
    bad = 0
    for name in names:
        st = cat.status(name, root)
        bad += st.state == "corrupt"
        print(f"\n{name:14s} {st.state.upper()}  — {st.info.title}")
        if st.folder:
            print(f"  folder:   {st.folder}")
        print(f"  detail:   {st.detail}")
        print(f"  needed by: {', '.join(need.get(name, [])) or '—'}")
        if st.state not in ("verified",):
            print(f"  obtain:   {st.info.obtain}")
    return 1 if bad else 0


def cmd_eval(argv) -> int:
    p = argparse.ArgumentParser(
        prog="python -m repro eval",
        description="Evaluate a score file against a LETOR file and print exactly what the "
                    "official Eval-Score-4.0.pl / Eval-Score-3.0.pl print (P@1..10, MAP, "
                    "NDCG@1..10, MeanNDCG for 4.0; P@1..16, MAP, NDCG@1..16 for 3.0).",
        epilog="Differences from the scripts: CRLF files are accepted; non-numeric, NaN or "
               "infinite scores and a score file of the wrong length are refused (the scripts "
               "read them as 0 or ignore them); labels above 2 get gain 2^r-1 and count as "
               "relevant (the scripts' tables only know 0, 1, 2).")
    p.add_argument("letor_file")
    p.add_argument("score_file", help="one score per line, aligned with the LETOR file's lines")
    p.add_argument("--letor", type=int, choices=(3, 4), help="conventions (default: 4 if the "
                   "file's comments have LETOR 4.0's 'inc =' field, else 3)")
    p.add_argument("--per-query", action="store_true", help="also per-query lines (flag 1)")
    args = p.parse_args(argv)
    sys.stdout.write(eval_command.run(args.letor_file, args.score_file, args.letor, args.per_query))
    return 0


def cmd_bench(argv) -> int:
    return bench_command.main(argv)


def cmd_run(argv) -> int:
    args = _run_parser().parse_args(argv)
    targets, seen = [], set()
    for t in args.targets:
        for art in registry.resolve(t, args.paper):
            if art.id not in seen:
                seen.add(art.id)
                targets.append(art)
    out = Path(args.out or ("reports-quick" if args.quick else "reports"))
    run_artifacts(targets, cat.data_dir(args.data_dir), out, quick=args.quick, jobs=args.jobs,
                  force=args.force, report_only=args.report_only, pdf=not args.no_pdf)
    return 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        _run_parser().print_help()
        return 2
    try:
        if argv[0] in COMMANDS:
            return {"list": cmd_list, "data": cmd_data, "eval": cmd_eval,
                    "bench": cmd_bench}[argv[0]](argv[1:])
        return cmd_run(argv)
    except ReproError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted: finished runs are cached; rerun the same command to resume",
              file=sys.stderr)
        return 130
