"""Command line: ``python -m repro <command or target> [options]``.

Commands: ``list``, ``data``, ``eval``, ``bench``, ``runs``, ``stability``.  Anything else is a target:
``all``, a paper id (``pahikkala2010``), an artifact (``table7`` — every paper's artifact of
that name unless ``--paper`` narrows it — or exactly ``pahikkala2010.table7``).
"""
from __future__ import annotations

import argparse
import difflib
import os
import shutil
import signal
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

# Only light modules here: parsing, --version, --help and the refusals answer before NumPy,
# SciPy, matplotlib, Dask or LightGBM is imported; each command imports what it runs.
from .. import __version__
from . import guards
from .. import papers as registry          # light until a paper's declarations are asked for
from ..data import catalog as cat
from ..data import user as user_data
from ..data.io import DEFAULT_MAX_FEATURES, MAX_FEATURES_ENV, printable
from ..errors import ReproError
from ..run import limits

COMMANDS = ("list", "data", "eval", "bench", "runs", "stability")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", action="append",
                   help="data directory; repeat it for a search path (--data-dir A --data-dir "
                        "B: a dataset is taken from the first that has it; default: "
                        "$REPRO_DATA_DIR, which may be A:B, else ./data)")
    p.add_argument("--dataset", action="append", default=[], metavar="NAME=PATH",
                   help="register your own LETOR/svmlight set: a directory in the official "
                        "layout (Fold1/train.txt, vali.txt, test.txt, …) or one file, split "
                        "into 5 query folds by a seeded rule (repeatable; see "
                        "repro.data.user)")
    p.add_argument("--catalog", metavar="FILE",
                   help=f"a catalog of your own sets ([datasets.NAME] path = …; default: "
                        f"./{user_data.CATALOG_FILE} if it exists)")
    _max_features_option(p)


def _max_features_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-features", type=_positive, metavar="N",
                   help=f"largest feature index accepted in a file of your own without a "
                        f"declared n_features (default: ${MAX_FEATURES_ENV}, else "
                        f"{DEFAULT_MAX_FEATURES:,})")


def apply_max_features(args) -> None:
    """``--max-features``: the limit for this command and its worker processes."""
    if getattr(args, "max_features", None):
        os.environ[MAX_FEATURES_ENV] = str(args.max_features)


def register_user_data(args) -> list[str]:
    """Register the user's sets (``--catalog`` or ./repro.toml, then ``--dataset``); their
    names."""
    apply_max_features(args)
    infos, where = {}, {}
    catalog_file = args.catalog or (user_data.CATALOG_FILE
                                    if Path(user_data.CATALOG_FILE).is_file() else None)
    if catalog_file:
        infos.update(user_data.read_catalog(catalog_file))
        where = {name: f"catalog {catalog_file}" for name in infos}
    for text in args.dataset:
        name, path = user_data.parse_option(text)
        if name in infos:
            raise ReproError(f"--dataset {printable(text)}: {name} is already registered (by "
                             f"{where[name]}); give each set one name, once; nothing was run")
        infos[name] = user_data.info(name, path)
        where[name] = f"--dataset {printable(text)}"
    if infos:
        cat.register_user(infos)
    return list(infos)


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
                    "<paper>.<artifact>. Commands: list, data, eval, bench, runs, stability "
                    "(each has --help).")
    p.add_argument("targets", nargs="+", help="what to run (e.g. figure4, pahikkala2010, all)")
    _common(p)
    p.add_argument("--paper", choices=registry.known_ids(), help="narrow a short artifact name to one paper")
    p.add_argument("--quick", action="store_true", help="small grids and folds, for smoke runs "
                   "(writes to reports-quick/ unless --out is given)")
    p.add_argument("--jobs", type=_positive, default=1,
                   help="process pool size for independent runs (≥ 1)")
    p.add_argument("--threads", type=_positive, default=None,
                   help="threads of one large fit in a run executed alone (default: every CPU "
                        "with --jobs 1, else 1; runs in a pool always use 1). Fits that use "
                        "them give the same numbers for any count")
    p.add_argument("--scheduler", default=os.environ.get("REPRO_SCHEDULER"),
                   help="address of a Dask scheduler (tcp://host:port) to send runs to "
                        "(default: $REPRO_SCHEDULER; workers need the package and the same data "
                        "directory path)")
    p.add_argument("--force", action="store_true", help="recompute runs even if cached")
    p.add_argument("--report-only", action="store_true", help="render from cached results only")
    p.add_argument("--no-pdf", action="store_true", help="write HTML only (a PDF that no longer "
                   "matches its page is removed)")
    p.add_argument("--out", help="report directory (default: reports, or reports-quick with "
                   "--quick; give a directory of your own to keep the committed reports as "
                   "they are)")
    p.add_argument("--allow-missing", action="store_true",
                   help="write the report although the data directory holds none of the "
                        "datasets the artifacts need (their values say 'not run: data "
                        "missing'); without it that is an error")
    p.add_argument("--allow-downgrade", action="store_true",
                   help="let this run replace values already computed in the report with 'not "
                        "run' (data missing, nothing cached, --quick); without it those "
                        "artifacts are kept and the command exits with status 1")
    p.add_argument("--on", metavar="NAME",
                   help="run the artifacts' protocols on your own set NAME (--dataset, "
                        "--catalog) in place of the paper's data: its methods, selection and "
                        "evaluation; needs --out DIR; every value says 'user data: NAME "
                        "(unverified)'")
    p.add_argument("--allow-unverified", action="append", default=[], metavar="NAME",
                   help="run catalogued set NAME although its files do not match the recorded "
                        "checksums (e.g. another mirror); every value from it is marked "
                        "'unverified copy' and never counts as reproduced; needs --out DIR")
    p.add_argument("--ranker", action="append", default=[],
                   metavar="LABEL=module:Class[:json-params]",
                   help="add your ranker (fit(X, y, qid) / predict(X); grid: its param_grid "
                        "attribute or \"param_grid\" in the JSON) beside the paper's methods "
                        "of every table with a reference protocol, under the same folds, "
                        "validation selection and evaluation, with paired tests against each "
                        "paper method (repeatable; LABEL alone: an installed ranker of the "
                        "entry-point group repro.rankers); needs --out DIR")
    p.add_argument("--seed-salt", metavar="TEXT",
                   help="a second set of seeds: TEXT is appended to the text of every derived "
                        "seed (runs, sample draws, the judge's resampling), so every stochastic "
                        "step draws anew; its runs are cached apart; needs --out DIR")
    p.add_argument("--ranker-timeout", metavar="TIME",
                   help="wall-clock limit of each run of a --ranker (90s, 30m, 2h; default: "
                        f"${limits.TIMEOUT_ENV}, else 1h): a run over it fails alone, 'timed "
                        "out after …'")
    p.add_argument("--ranker-memory", metavar="SIZE",
                   help="memory limit of each run of a --ranker (500M, 8G; default: "
                        f"${limits.MEMORY_ENV}, else 80%% of the machine's memory): a run "
                        "over it fails alone, 'out of memory'")
    p.add_argument("--version", action="version", version=f"repro-rank {__version__}")
    return p


def apply_ranker_limits(args) -> None:
    """``--ranker-timeout`` / ``--ranker-memory``: checked now, then handed to the rankers'
    processes through the environment."""
    if args.ranker_timeout is not None:
        limits.parse_duration(args.ranker_timeout)
        os.environ[limits.TIMEOUT_ENV] = args.ranker_timeout
    if args.ranker_memory is not None:
        limits.parse_size(args.ranker_memory)
        os.environ[limits.MEMORY_ENV] = args.ranker_memory
    limits.ranker_limits()          # a bad value in the environment: said before any run


def cmd_list(argv) -> int:
    p = argparse.ArgumentParser(prog="python -m repro list", description="Every artifact: its "
                                "status here (runs / partly: some data missing / no data / "
                                "cannot run / not implemented), title and data needed (files "
                                "present and verified, or why not).")
    _common(p)
    args = p.parse_args(argv)
    root = cat.data_dir(args.data_dir)
    register_user_data(args)
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
            stand_ins = art.stand_ins
            label = ds + (f" (stand-in for {stand_ins[ds]})" if ds in stand_ins else "")
            states.append((label + ("" if ok else f" [{why}]"), ok))
        rows.append((art.id, list_status(art, [ok for _, ok in states]), art.title,
                     ", ".join(l for l, _ in states) or "—"))
    width = max(60, shutil.get_terminal_size((100, 24)).columns)
    w = [max(len(r[i]) for r in rows + [LIST_HEAD]) for i in range(2)]
    _say_missing_dir(root)
    print(f"papers: {', '.join(registry.paper_ids())}")
    for i, r in enumerate([LIST_HEAD] + rows):
        line = f"{r[0]:{w[0]}}  {r[1]:{w[1]}}  {r[2]}"
        print(line if len(line) <= width else line[:width - 1] + "…")
        if i:
            print(textwrap.fill(r[3], width, initial_indent="    data: ",
                                subsequent_indent="          ", break_on_hyphens=False))
    return 0


LIST_HEAD = ("artifact", "status", "title (data needed on the next line)", "")


def list_status(art, usable: list[bool]) -> str:
    """One word for what ``python -m repro ARTIFACT`` would do here: ``runs``, ``partly``
    (some of its data is missing), ``no data``, ``cannot run`` (the paper's method or data
    cannot be run here: the report says why) or ``not implemented``."""
    if not art.task:
        return "cannot run" if art.not_run else "not implemented"
    if all(usable):
        return "runs"
    return "partly" if any(usable) else "no data"


def _say_missing_dir(root: Path) -> bool:
    """Say (on stderr) that the data directory does not exist; whether it does not."""
    if cat.exists(root):
        return False
    print(f"warning: data directory {root} does not exist: every dataset counts as missing "
          f"(give --data-dir DIR or set REPRO_DATA_DIR)", file=sys.stderr)
    return True


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
    p.add_argument("--verify", action="store_true",
                   help="forget the checksums memoised in the cache (digests/) and hash every "
                        "file again, your registered sets too; the next runs use the new "
                        "checksums")
    args = p.parse_args(argv)
    root = cat.data_dir(args.data_dir)
    register_user_data(args)
    if args.fetch:
        from ..data.fetch import fetch
        if not args.names:
            p.error("--fetch needs dataset names (see `python -m repro data`)")
        return fetch(args.names, cat.roots(root)[0], args.mirror)   # into the first directory
    need = defaultdict(dict)              # dataset -> artifact ids, once each, in order
    for art in registry.artifacts():
        for ds in [*art.datasets, *art.stand_ins.values()]:
            need[ds][art.id] = None
    missing_dir = _say_missing_dir(root)
    width = max(60, shutil.get_terminal_size((100, 24)).columns)
    print(f"data directory: {', '.join(str(r.resolve()) for r in cat.roots(root))}"
          + (" (does not exist)" if missing_dir else ""))
    names = args.names or list(cat.catalog())
    if args.verify:
        from ..files import cache_root
        shutil.rmtree(cache_root() / "digests", ignore_errors=True)
    bad = 0
    for name in names:
        st = cat.status(name, root, memo=args.verify)
        bad += st.state == "corrupt"
        print(f"\n{name:14s} {st.state.upper()}  — {st.info.title}")
        if st.folder:
            print(f"  folder:   {st.folder}")
        print(f"  detail:   {st.detail}")
        print(textwrap.fill(", ".join(need.get(name, {})) or "—", width,
                            initial_indent="  needed by: ", subsequent_indent=" " * 13,
                            break_on_hyphens=False))
        if st.state not in ("verified",):
            print(f"  obtain:   {st.info.obtain}")
    return 1 if bad or missing_dir else 0


def cmd_eval(argv) -> int:
    from ..metrics.family import CONVENTIONS
    from . import eval as eval_command
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
    p.add_argument("--letor", type=int, choices=(3, 4), help="conventions (default: those "
                   "recorded by `repro runs` in the file's comments, 'letor = 4'; else 4 if "
                   "they have LETOR 4.0's 'inc =' field, else 3)")
    p.add_argument("--per-query", action="store_true", help="also per-query lines (flag 1)")
    p.add_argument("--convention", metavar="NAME",
                   help="evaluate by a named convention of repro.metrics.family (the LETOR 3.0/"
                        "4.0 and MSLR scripts, trec_eval, the GBDT libraries, the inner-product "
                        "and good-ranks forms: " + ", ".join(sorted(CONVENTIONS)) + ") or by a "
                        "the convention a paper declares (named by the paper's id); "
                        "default: the official LETOR output")
    _max_features_option(p)
    args = p.parse_args(argv)
    apply_max_features(args)
    sys.stdout.write(eval_command.run(args.letor_file, args.score_file, args.letor,
                                      args.per_query, convention=args.convention))
    return 0


def cmd_bench(argv) -> int:
    from ..bench import command as bench_command
    from .bench_inputs import bench_inputs
    return bench_command.main(argv, bench_inputs)


def cmd_runs(argv) -> int:
    from . import runs as runs_command
    return runs_command.main(argv, _resolve_targets)


def cmd_stability(argv) -> int:
    from . import stability
    return stability.main(argv, _resolve_targets)


def _needs_data(art) -> bool:
    return any(ds != cat.SYNTHETIC for ds in art.datasets)


def _resolve_targets(names: list[str], paper: str | None) -> list:
    targets, seen = [], set()
    for t in names:
        if paper and (t in registry.known_ids() or "." in t):
            raise ReproError(f"--paper {paper} narrows a short artifact name; {t!r} already "
                             f"names its paper (drop --paper)")
    for t in names:
        try:
            registry.refuse_unknown(t, paper)     # from the words files: before any import
            found = registry.resolve(t, paper)
        except ReproError as exc:
            names = registry.artifact_names()
            names_known = (sorted(names[paper]) if paper else
                           ["all"] + list(names)
                           + sorted({n for ns in names.values() for n in ns})
                           + [f"{p}.{n}" for p, ns in names.items() for n in ns])
            close = difflib.get_close_matches(t, names_known, n=3, cutoff=0.6)
            hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            raise ReproError(f"{exc}.{hint} Papers: {', '.join(registry.known_ids())}") from None
        for art in found:
            if art.id not in seen:
                seen.add(art.id)
                targets.append(art)
    return targets


def refuse_without_data(targets: list, root) -> None:
    """Refuse targets none of which can run a thing here: every run needs a dataset the data
    directory does not hold (``--allow-missing`` writes their report of "not run" values)."""
    runnable = [a for a in targets if a.task]
    state = {d: cat.data_state(d, root) for a in runnable for d in a.datasets}
    if not runnable or any(ok for ok, _ in state.values()):
        return
    lines = "\n".join(f"  {d}: {why}" for d, (_, why) in state.items())
    raise ReproError(f"the data directory {root} holds none of the datasets the requested "
                     f"artifact(s) need; nothing was run or written:\n{lines}\n`python -m repro "
                     f"data` says where to obtain each; --data-dir DIR points elsewhere; "
                     f"--allow-missing writes the report anyway, its values 'not run: data "
                     f"missing'")


def user_targets(args, targets: list) -> list:
    """The targets with the user's options applied: ``--on`` (the user's set in place of the
    paper's), ``--ranker`` (the user's rankers beside the paper's methods); checks that their
    reports go to a directory of the user's own (``--out``, outside the committed
    ``reports/``), before anything runs."""
    used = [o for o, v in (("--on", args.on), ("--ranker", args.ranker),
                           ("--allow-unverified", args.allow_unverified),
                           ("--seed-salt", getattr(args, "seed_salt", None))) if v]
    if not used:
        return targets
    if not args.out:
        raise ReproError(f"{' and '.join(used)} write(s) reports of your own data or methods: "
                         f"give a directory of your own with --out DIR (the committed reports "
                         f"are never written with them); nothing was run")
    guards.refuse_committed(Path(args.out), f"{' and '.join(used)} write(s) elsewhere")
    if args.allow_unverified:
        cat.allow_unverified(args.allow_unverified)
    if args.on:
        info = cat.dataset(args.on)
        if not info.user:
            raise ReproError(f"--on {args.on}: not one of your datasets (register it with "
                             f"--dataset {args.on}=PATH or in {user_data.CATALOG_FILE}); the "
                             f"catalogued sets run without --on")
    if args.on:
        from ..pipeline.user_data import on_dataset
        targets = [on_dataset(a, args.on) for a in targets]
    if args.ranker:
        from ..evidence.reference import parse_ranker
        rankers = tuple(parse_ranker(t) for t in args.ranker)
        labels = [r.label for r in rankers]
        if len(set(labels)) < len(labels):
            raise ReproError(f"--ranker: labels must differ, got {', '.join(labels)}")
        without = [a.id for a in targets if not a.layout.reference and a.task]
        if without:
            print(f"note: --ranker adds rankers to the tables with a reference protocol (the "
                  f"table's criterion, measures and conventions); not to "
                  f"{', '.join(without[:6])}{', …' if len(without) > 6 else ''}",
                  file=sys.stderr)
        targets = [a.replace(rankers=rankers) if a.layout.reference else a for a in targets]
    return targets


def check_on_set(args) -> None:
    """``--on NAME``: refuse a set whose files have a feature index above the limit at once,
    before the paper declarations load and anything runs (:func:`repro.data.user.
    check_feature_limit`); the set's other faults fail its runs, with their lines."""
    if not args.on or args.on not in cat.user_datasets():
        return
    from ..data.letor import max_features
    user_data.check_feature_limit(cat.dataset(args.on), max_features())


def cmd_run(argv) -> int:
    args = _run_parser().parse_args(argv)
    apply_ranker_limits(args)
    register_user_data(args)
    check_on_set(args)
    targets = _resolve_targets(args.targets, args.paper)
    root = cat.data_dir(args.data_dir)
    from ..spec import SEED_SALT_ENV, seed_salt
    args.seed_salt = args.seed_salt or seed_salt() or None     # the flag, else the environment
    targets = user_targets(args, targets)
    if args.seed_salt:
        if not args.seed_salt.isprintable() or len(args.seed_salt) > 100:
            raise ReproError(f"--seed-salt {args.seed_salt!r}: printable text of at most 100 "
                             f"characters")
        os.environ[SEED_SALT_ENV] = args.seed_salt     # the runs' processes inherit it
    if not cat.exists(root) and any(_needs_data(a) and not any(
            cat.dataset(d).user for d in a.datasets if d != cat.SYNTHETIC) for a in targets):
        need = sorted({a.id for a in targets if _needs_data(a)})
        raise ReproError(
            f"data directory {root} does not exist, and {len(need)} requested artifact(s) need "
            f"data ({', '.join(need[:4])}{', …' if len(need) > 4 else ''}); nothing was written. "
            f"Point at your data with --data-dir DIR or REPRO_DATA_DIR=DIR (see `python -m "
            f"repro data`), or run only artifacts on synthetic data.")
    if args.on:
        _warn_single_level(args.on, root)
    if not args.allow_missing:
        refuse_without_data(targets, root)
    out = Path(args.out or ("reports-quick" if args.quick else "reports"))
    guards.refuse_data_dir(out, cat.roots(root), [
        f for f in (cat.locate(info, root) for info in cat.catalog().values()
                    if not info.single_file) if f])     # a set in one file: its folder is not
    if guards.committed_parent(out) is None:        # a directory of the user's own
        guards.refuse_links_into_committed(out)
    guards.check_writable(out)
    guards.check_cache_dir()
    guards.clean_stale_staging()
    from . import pipeline
    outcome = pipeline.run(targets, args, root, out)
    from .makespan import report_makespan
    report_makespan(targets, out, quick=args.quick)      # printed; <out>/runs.json for `all`
    code = 0
    if outcome.failed:
        print(f"error: {len(outcome.failed)} run(s) failed (their values say \"not run: "
              f"failed: …\" in {out}):", file=sys.stderr)
        for label, why in list(outcome.failed.items())[:MAX_KEPT_LINES]:
            print(f"  {label}: {printable(why, 300)}", file=sys.stderr)
        if len(outcome.failed) > MAX_KEPT_LINES:
            print(f"  … {len(outcome.failed) - MAX_KEPT_LINES} more", file=sys.stderr)
        code = 1
    if outcome.refused:
        print(f"error: {len(outcome.refused)} run(s) refused because their data failed "
              f"verification:", file=sys.stderr)
        for label, why in outcome.refused.items():
            print(f"  {label}: {why}", file=sys.stderr)
        code = 1
    if outcome.kept:
        n = sum(len(v) for v in outcome.kept.values())
        print(f"error: kept the files of {len(outcome.kept)} artifact(s) in {out}: this run "
              f"would have replaced {n} computed value(s) with 'not run', or a full run with a "
              f"--quick one (their files are unchanged; --allow-downgrade replaces them, --out "
              f"DIR writes elsewhere):", file=sys.stderr)
        for art_id, lost in outcome.kept.items():
            print(f"  {art_id}:", file=sys.stderr)
            for line in lost[:MAX_KEPT_LINES]:
                print(f"    {line}", file=sys.stderr)
            if len(lost) > MAX_KEPT_LINES:
                print(f"    … {len(lost) - MAX_KEPT_LINES} more", file=sys.stderr)
        code = 1
    return code


MAX_KEPT_LINES = 10


def _warn_single_level(name: str, root) -> None:
    """Warn when every document of a user set has the same label: every ranking is then
    equally good, and MAP or NDCG say nothing about the method (a file that cannot be read
    is left to its runs, which say why)."""
    try:
        from ..data.load import label_levels
        levels = label_levels(name, root)
    except ReproError:
        return
    if len(levels) == 1:
        print(f"warning: every document of {name} has label {levels[0]:g}: one relevance "
              f"level, so every ranking scores the same (MAP, NDCG are "
              f"{'0' if levels[0] == 0 else '1'} for every method) and the tables compare "
              f"nothing", file=sys.stderr)


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an exception so that the command stops its workers, removes its
    temporary files and exits (status 143) like an interrupted one."""


def _on_sigterm(signum, frame):
    raise Terminated()


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        _run_parser().print_help()
        return 2
    old_term = None
    try:
        old_term = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:                  # not the main thread: leave SIGTERM alone
        pass
    # the user's datasets and allowances (registered in this process) and limits (in the
    # environment, which its worker processes inherit) last while the command runs; restored
    # after, for callers in the same process
    saved_env = {k: os.environ.get(k) for k in (MAX_FEATURES_ENV, limits.TIMEOUT_ENV,
                                                limits.MEMORY_ENV)}
    saved_user, saved_allowed = cat.user_datasets(), set(cat.ALLOWED)
    try:
        if argv[0] in COMMANDS:
            return {"list": cmd_list, "data": cmd_data, "eval": cmd_eval,
                    "bench": cmd_bench, "runs": cmd_runs,
                    "stability": cmd_stability}[argv[0]](argv[1:])
        return cmd_run(argv)
    except ReproError as exc:
        print(f"error: {printable(str(exc), newlines=True)}", file=sys.stderr)
        return 1
    except BrokenPipeError:             # `repro list | head`: the reader left; not an error
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except KeyboardInterrupt as exc:
        how = "terminated" if isinstance(exc, Terminated) else "interrupted"
        print(f"\n{how}: workers stopped; finished runs are cached; rerun the same command to "
              f"resume", file=sys.stderr)
        return 143 if isinstance(exc, Terminated) else 130
    finally:
        cat.restore_user(saved_user)
        cat.ALLOWED.clear()
        cat.ALLOWED.update(saved_allowed)
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
