"""Command line: ``python -m repro <command or target> [options]``.

Commands: ``list``, ``data``, ``eval``, ``bench``.  Anything else is a target: ``all``, a paper
id (``pahikkala2010``), an artifact (``table7`` — every paper's artifact of that name unless
``--paper`` narrows it — or exactly ``pahikkala2010.table7``).
"""
from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections import defaultdict
from pathlib import Path

from . import __version__, eval_command
from . import papers as registry
from .bench import command as bench_command
from .data import catalog as cat
from .data.fetch import fetch
from .errors import ReproError
from .pipeline import run_artifacts

COMMANDS = ("list", "data", "eval", "bench")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", help="data directory (default: $REPRO_DATA_DIR, else ./data)")


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {v}")
    return v


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
    p.add_argument("--jobs", type=_positive, default=1,
                   help="process pool size for independent runs (≥ 1)")
    p.add_argument("--scheduler", default=os.environ.get("REPRO_SCHEDULER"),
                   help="address of a Dask scheduler (tcp://host:port) to send runs to "
                        "(default: $REPRO_SCHEDULER; workers need the package and the same data "
                        "directory path)")
    p.add_argument("--force", action="store_true", help="recompute runs even if cached")
    p.add_argument("--report-only", action="store_true", help="render from cached results only")
    p.add_argument("--no-pdf", action="store_true", help="write HTML only")
    p.add_argument("--out", help="report directory (default: reports)")
    p.add_argument("--version", action="version", version=f"repro-rank {__version__}")
    return p


def cmd_list(argv) -> int:
    p = argparse.ArgumentParser(prog="python -m repro list", description="Every artifact: paper, "
                                "title, data needed, whether it is available (files present and "
                                "verified) and whether it is implemented.")
    _common(p)
    args = p.parse_args(argv)
    root = cat.data_dir(args.data_dir)
    state = {}

    def verified(ds: str) -> tuple[bool, str]:
        if ds not in state:
            if ds == cat.SYNTHETIC:
                state[ds] = (True, "")
            else:
                st = cat.status(ds, root, memo=True)
                state[ds] = (st.usable, "" if st.usable else st.state)
        return state[ds]

    rows = []
    for art in registry.artifacts():
        states = []
        for ds in art.datasets:
            ok, why = verified(ds)
            label = ds + (f" (stand-in for {art.stand_ins[ds]})" if ds in art.stand_ins else "")
            states.append((label + ("" if ok else f" [{why}]"), ok))
        avail = ("yes" if all(ok for _, ok in states) else
                 "partly" if any(ok for _, ok in states) else "no") if states else "n/a"
        rows.append((art.id, art.title, ", ".join(l for l, _ in states) or "—", avail,
                     "yes" if art.task else ("no: cannot run here" if art.not_run else "not yet")))
    head = ("artifact", "title", "data", "available", "implemented")
    w = [max(len(r[i]) for r in rows + [head]) for i in range(4)]
    print(f"papers: {', '.join(registry.paper_ids())}")
    print(f"{head[0]:{w[0]}}  {head[1]:{w[1]}}  {head[2]:{w[2]}}  {head[3]:{w[3]}}  {head[4]}")
    for r in rows:
        print(f"{r[0]:{w[0]}}  {r[1]:{w[1]}}  {r[2]:{w[2]}}  {r[3]:{w[3]}}  {r[4]}")
    return 0


def cmd_data(argv) -> int:
    p = argparse.ArgumentParser(prog="python -m repro data", description="Every dataset any paper "
                                "needs: verified / unverified / corrupt / missing, who needs it, "
                                "where to obtain it. Verifies every file's checksum.")
    _common(p)
    p.add_argument("names", nargs="*", help="only these datasets")
    p.add_argument("--fetch", action="store_true",
                   help="download the named datasets that have a stable public download (UCI, "
                        "MULAN), verify and lay them out; print the manual steps for the others")
    p.add_argument("--mirror", metavar="URL",
                   help="with --fetch: fetch every file from URL/<dataset>/<file name> instead "
                        "(default: $REPRO_DOWNLOAD_MIRROR, else the catalog's URLs)")
    args = p.parse_args(argv)
    root = cat.data_dir(args.data_dir)
    if args.fetch:
        if not args.names:
            p.error("--fetch needs dataset names (see `python -m repro data`)")
        return fetch(args.names, root, args.mirror)
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


def _needs_data(art) -> bool:
    return any(ds != cat.SYNTHETIC for ds in art.datasets)


def _resolve_targets(names: list[str], paper: str | None) -> list:
    targets, seen = [], set()
    for t in names:
        if paper and (t in registry.paper_ids() or "." in t):
            raise ReproError(f"--paper {paper} narrows a short artifact name; {t!r} already "
                             f"names its paper (drop --paper)")
        try:
            found = registry.resolve(t, paper)
        except ReproError as exc:
            names_known = (["all"] + list(registry.paper_ids())
                           + sorted({a.name for a in registry.artifacts()})
                           + [a.id for a in registry.artifacts()])
            close = difflib.get_close_matches(t, names_known, n=3, cutoff=0.6)
            hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            raise ReproError(f"{exc}.{hint} Papers: {', '.join(registry.paper_ids())}") from None
        for art in found:
            if art.id not in seen:
                seen.add(art.id)
                targets.append(art)
    return targets


def cmd_run(argv) -> int:
    args = _run_parser().parse_args(argv)
    targets = _resolve_targets(args.targets, args.paper)
    root = cat.data_dir(args.data_dir)
    if not root.is_dir() and any(_needs_data(a) for a in targets):
        need = sorted({a.id for a in targets if _needs_data(a)})
        raise ReproError(
            f"data directory {root} does not exist, and {len(need)} requested artifact(s) need "
            f"data ({', '.join(need[:4])}{', …' if len(need) > 4 else ''}); nothing was written. "
            f"Point at your data with --data-dir DIR or REPRO_DATA_DIR=DIR (see `python -m "
            f"repro data`), or run only artifacts on synthetic data.")
    out = Path(args.out or ("reports-quick" if args.quick else "reports"))
    outcome = run_artifacts(targets, root, out, quick=args.quick, jobs=args.jobs,
                            force=args.force, report_only=args.report_only,
                            pdf=not args.no_pdf, scheduler=args.scheduler)
    if outcome.refused:
        print(f"error: {len(outcome.refused)} run(s) refused because their data failed "
              f"verification:", file=sys.stderr)
        for label, why in outcome.refused.items():
            print(f"  {label}: {why}", file=sys.stderr)
        return 1
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
    except BrokenPipeError:             # `repro list | head`: the reader left; not an error
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        print("\ninterrupted: finished runs are cached; rerun the same command to resume",
              file=sys.stderr)
        return 130
