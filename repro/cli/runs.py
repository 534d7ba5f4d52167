"""``python -m repro runs TARGET --out DIR``: TREC run files and per-query metrics of every
method and fold of an artifact, so that a reader can re-score them with any tool.

The run cache holds no document scores, so the artifact's runs are executed again, in this
process, with a score sink active (:func:`repro.pipeline.execute.execute_with_sink`,
:mod:`repro.evidence.run_files`): every test scoring that a task
evaluates through :func:`repro.evidence.protocol.measured` and records with
:meth:`repro.evidence.Evidence.measured` is collected with its method, fold and key fields.
The per-query values are the runs' own query tables, selected as the artifact's sidecar
selects them (:func:`repro.judge.assemble.gather_records`).  Where the cache already holds a run,
its per-query tables are compared with the re-executed run's, and the command says whether
they are the same; where it does not, the re-executed run is cached (its output carries no
scores: with or without the sink it is the same).

Layout of ``DIR/<paper>.<artifact>/``::

    per-query.tsv                          every per-query value of the artifact's tables
    runs.tsv                               one line per run file: method, keys, fold, counts
    README.txt                             what was run, what has run files and what has not
    <dataset>/fold<k>.qrels                TREC qrels: qid 0 docid label
    <dataset>/fold<k>.letor                labels, qids and docids (LETOR, no features)
    <dataset>/<method>[/<key>-<value>…]/fold<k>.run      TREC run: qid Q0 docid rank score tag
    <dataset>/<method>[/<key>-<value>…]/fold<k>.scores   one score per line of fold<k>.letor

``DIR/README.txt`` says how to re-score them (``trec_eval``, ``python -m repro eval``).
An artifact's directory is replaced whole by the next command that writes it (built aside,
then moved into place); a directory there that this command did not write is never touched.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import __version__
from ..evidence import run_files
from .. import papers as registry
from ..judge.assemble import dataset_label, gather_records
from ..data import catalog as cat
from ..errors import ReproError
from ..evidence import key_text, table_key
from ..evidence.record import IN_ARTIFACT
from ..spec import Artifact, RunSpec
from .guards import check_cache_dir, check_writable, clean_stale_staging, refuse_committed
from ..pipeline.execute import CACHE_STATES, execute_with_sink, tasks
from ..pipeline.staging import staging_dir
from ..run.cache import RunCache
from ..run.result import RunResult

MARKER = ".repro-runs"                 # in every artifact directory this command wrote
NOT_MEASURED = ("these runs record their per-query values with Evidence.per_query (a paper's "
                "own metric code, or values the paper module rescales or combines), not with "
                "Evidence.measured, so their document scores never reach the score sink")
NO_TABLES = ("none of the artifact's values is a mean over test queries (chosen parameters, "
             "validation curves, counts, times): no per-query values, no run files")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m repro runs",
        description="Write TREC run files, qrels and per-query metrics of every method and fold "
                    "of the target artifacts (re-executing their runs in this process with a "
                    "score sink), so that any tool can re-score them. Targets as for the main "
                    "command: <paper>.<artifact>, <artifact>, <paper>.")
    p.add_argument("targets", nargs="+", help="e.g. pahikkala2010.table7")
    p.add_argument("--out", help="output directory (default: repro-runs, or repro-runs-quick "
                   "with --quick); never inside reports/")
    p.add_argument("--data-dir", action="append",
                   help="data directory; repeat it for a search path (default: "
                        "$REPRO_DATA_DIR, else ./data)")
    p.add_argument("--paper", help="narrow a short artifact name to one paper")
    p.add_argument("--quick", action="store_true",
                   help="the artifacts' small grids and folds (as the main command's --quick)")
    p.add_argument("--dataset", action="append", default=[], metavar="NAME",
                   help="only the runs on this dataset of the artifact (repeatable)")
    p.add_argument("--fold", action="append", default=[], metavar="K",
                   help="only the runs of fold K (repeatable)")
    return p


@dataclass
class Export:
    """What was written for one artifact."""
    art: Artifact
    results: list[RunResult] = field(default_factory=list)
    runs: list[dict] = field(default_factory=list)        # rows of runs.tsv
    tables: list[dict] = field(default_factory=list)
    without_runs: list[dict] = field(default_factory=list)  # a table of each group without
    #                                                            a run file
    notes: list[str] = field(default_factory=list)
    cache: dict[str, str] = field(default_factory=dict)   # run label -> same / differs / new


# --- selection ---------------------------------------------------------------------------------

def check_out(out: Path) -> None:
    """Refuse an output directory inside the committed reports (from any working
    directory: :mod:`repro.cli.guards`)."""
    refuse_committed(out, "run files are written elsewhere")


def select_specs(art: Artifact, quick: bool, datasets: list[str], folds: list[str]
                 ) -> list[RunSpec]:
    """The runs whose scores are written: of a replicated artifact, replicate 0 (the run as
    it always was; later replicates differ only by their seeds)."""
    specs = [s for s in art.runs(quick) if s.repeat == 0]
    if datasets:
        specs = [s for s in specs
                 if s.dataset in datasets or art.stand_ins.get(s.dataset) in datasets]
    if folds:
        specs = [s for s in specs if str(s.fold) in folds]
    return specs


def plan(targets: list[Artifact], quick: bool, datasets: list[str], folds: list[str],
         log=print) -> list[tuple[Artifact, list[RunSpec]]]:
    """The runs of each target, narrowed by ``--dataset`` / ``--fold`` (a name or fold none of
    the targets has is an error, before anything runs)."""
    out = []
    for art in targets:
        if art.task is None:
            log(f"{art.id}: {art.not_run or 'not implemented yet'}: nothing to run, no files")
            continue
        if art.timing:
            log(f"{art.id}: measures times (no per-query values, no document scores): "
                f"no files")
            continue
        out.append((art, select_specs(art, quick, datasets, folds)))
    every = [s for a, _ in out for s in a.runs(quick)]
    names = {n for a, _ in out for s in a.runs(quick) for n in (s.dataset,
                                                                a.stand_ins.get(s.dataset))}
    bad = [d for d in datasets if d not in names]
    if bad:
        raise ReproError(f"--dataset {bad[0]}: not a dataset of "
                         f"{', '.join(a.id for a, _ in out) or 'the targets'} (they run on "
                         f"{', '.join(sorted({s.dataset for s in every})) or 'nothing'})")
    known = {str(s.fold) for s in every if not datasets or s.dataset in datasets
             or any(a.stand_ins.get(s.dataset) in datasets for a, _ in out)}
    bad = [f for f in folds if f not in known]
    if bad:
        raise ReproError(f"--fold {bad[0]}: not a fold of the selected runs (folds: "
                         f"{', '.join(sorted(known)) or 'none'}" + ("; --quick runs fewer folds"
                                                                   if quick else "") + ")")
    if out and not any(specs for _, specs in out):
        raise ReproError("--dataset / --fold leave no run to execute")
    return [(a, specs) for a, specs in out if specs]


# --- running -----------------------------------------------------------------------------------

def _group_key(t: dict) -> str:
    """The key of a table without its metric: one scoring's tables share it."""
    return key_text({k: v for k, v in table_key(t).items() if k != "metric"})


def _scoring_key(art: Artifact, spec: RunSpec, s: run_files.Scoring) -> dict:
    fold = s.fold if s.fold is not None else (None if spec.fold is None else str(spec.fold))
    return {"dataset": dataset_label(art, spec.dataset), **s.keys, "method": s.method,
            "fold": fold}


def _same_data(a, b) -> bool:
    return (a is b) or (a.n_docs == b.n_docs and np.array_equal(a.query_ptr, b.query_ptr)
                        and np.array_equal(np.asarray(a.qids), np.asarray(b.qids))
                        and np.array_equal(a.y, b.y)
                        and run_files.docids(a)[0] == run_files.docids(b)[0])


def _describe(fields: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in fields.items() if v is not None)


def export(art: Artifact, specs: list[RunSpec], root: Path, stage: Path, cache: RunCache,
           log=print, threads: int = 1, memo: dict | None = None) -> Export:
    """Run ``specs`` of ``art`` with the sink and write its files into ``stage``.  ``memo``:
    runs already executed by this command (artifacts sharing a run execute it once)."""
    ex = Export(art)
    memo = {} if memo is None else memo
    scorings: list[tuple[RunSpec, run_files.Scoring]] = []
    for spec in specs:
        if spec not in memo:
            memo[spec] = execute_with_sink(spec, root, cache, log, threads)
        res, offered, state = memo[spec]
        ex.results.append(res)
        if state:
            ex.cache[spec.label] = state
        if res.status != "done":
            ex.notes.append(f"{spec.label}: not run: {res.why}" if res.status == "not run"
                            else f"{spec.label}: failed: {res.why}")
        scorings += [(spec, s) for s in offered]
    tables: list[dict] = []
    gather_records(art, ex.results, tables=tables, aggregation=registry.aggregation)
    ex.tables = sorted(tables, key=lambda t: key_text(table_key(t)))
    groups: dict[str, list[dict]] = defaultdict(list)
    for t in ex.tables:
        groups[_group_key(t)].append(t)
    # one scoring per table group (a task offering the same key twice: the same scores, or none)
    by_key: dict[str, tuple[RunSpec, run_files.Scoring]] = {}
    conflicts = set()
    for spec, s in scorings:
        k = key_text(_scoring_key(art, spec, s))
        if k not in groups:
            continue                   # a scoring of a table the artifact does not show
        if k in by_key:
            prev = by_key[k][1]
            if not (_same_data(prev.data, s.data) and np.array_equal(prev.scores, s.scores)):
                conflicts.add(k)
            continue
        by_key[k] = (spec, s)
    for k in conflicts:
        by_key.pop(k)
        ex.notes.append(f"{_describe(json.loads(k))}: two different scorings offered under "
                        f"the same key; no run file")
    for k, ts in groups.items():
        if k not in by_key:
            ex.without_runs.append(ts[0])
    write_runs(ex, by_key, groups, stage)
    write_per_query(ex.tables, stage / "per-query.tsv")
    return ex


def write_runs(ex: Export, by_key: dict, groups: dict, stage: Path) -> None:
    qrels_of: dict[Path, tuple] = {}   # qrels path -> (data, LETOR version) it was written from
    used: dict[Path, str] = {}
    for k in sorted(by_key, key=lambda k: [str(v) for v in json.loads(k).values()]):
        spec, s = by_key[k]
        fields = json.loads(k)
        ds, method, fold = fields.pop("dataset"), fields.pop("method"), fields.pop("fold")
        stem = f"fold{fold}" if fold is not None else "all"
        mdir = Path(run_files.slug(ds)) / run_files.slug(method)
        for name in sorted(fields):
            mdir = mdir / run_files.slug(f"{name}-{fields[name]}")
        run_path = mdir / f"{stem}.run"
        if used.get(run_path, k) != k:            # two keys with the same slug
            mdir = mdir.parent / f"{mdir.name}-{len(used)}"
            run_path = mdir / f"{stem}.run"
        used[run_path] = k
        ids, id_source = run_files.docids(s.data)
        qrels = Path(run_files.slug(ds)) / f"{stem}.qrels"
        if qrels in qrels_of and (not _same_data(qrels_of[qrels][0], s.data)
                                  or qrels_of[qrels][1] != s.version):
            qrels = mdir / f"{stem}.qrels"     # other documents, or other LETOR conventions
        if qrels not in qrels_of:
            qrels_of[qrels] = (s.data, s.version)
            _write(stage / qrels, run_files.qrels_lines(s.data, ids))
            _write(stage / qrels.with_suffix(".letor"),
                   run_files.letor_lines(s.data, ids, s.version))
        tag = run_files.slug("_".join([method] + [f"{n}-{fields[n]}" for n in sorted(fields)]))
        _write(stage / run_path, run_files.run_lines(s.data, s.scores, tag, ids))
        _write(stage / run_path.with_suffix(".scores"), run_files.score_lines(s.scores))
        ex.runs.append({
            "run": str(run_path), "scores": str(run_path.with_suffix(".scores")),
            "qrels": str(qrels), "letor": str(qrels.with_suffix(".letor")),
            "dataset": ds, "data": spec.dataset, "method": method,
            "keys": ";".join(f"{n}={fields[n]}" for n in sorted(fields)),
            "fold": "" if fold is None else fold, "letor_version": s.version or "",
            "metrics": ",".join(t["metric"] for t in groups[k]),
            "queries": s.data.n_queries, "documents": s.data.n_docs,
            "tied_documents": tied_documents(s.data, s.scores), "docids": id_source})
    if ex.runs:
        cols = list(ex.runs[0])
        _write(stage / "runs.tsv", ["\t".join(cols) + "\n"]
               + ["\t".join(str(r[c]) for c in cols) + "\n" for r in ex.runs])


def tied_documents(data, scores) -> int:
    """Documents whose score equals another document's of the same query."""
    qp, n = data.query_ptr, 0
    for q in range(len(qp) - 1):
        _, counts = np.unique(scores[qp[q]:qp[q + 1]], return_counts=True)
        n += int(counts[counts > 1].sum())
    return n


def write_per_query(tables: list[dict], path: Path) -> None:
    """``dataset method <key fields…> fold metric qid value [weight]``: every query of every
    table (tables in the sidecar's order, queries in data order; an undefined value is NA)."""
    fixed = IN_ARTIFACT
    extra = sorted({k for t in tables for k in table_key(t) if k not in fixed})
    weighted = any(t.get("weights") is not None for t in tables)
    cols = ["dataset", "method", *extra, "fold", "metric", "qid", "value"] + (
        ["weight"] if weighted else [])
    lines = ["\t".join(cols) + "\n"]
    for t in tables:
        head = [t.get("dataset"), t.get("method"), *(t.get(k) for k in extra), t.get("fold"),
                t.get("metric")]
        head = ["" if v is None else str(v) for v in head]
        w = t.get("weights")
        for i, (q, v) in enumerate(zip(t["qids"], t["values"])):
            row = head + [str(q), "NA" if v is None else run_files.fmt_score(v)]
            if weighted:
                row.append("" if w is None else run_files.fmt_score(w[i]))
            lines.append("\t".join(row) + "\n")
    _write(path, lines)


def _write(path: Path, lines) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.writelines(lines)


# --- READMEs -----------------------------------------------------------------------------------

def without_summary(ex: Export) -> list[str]:
    """Per method without run files: how many table groups (fold, settings) and datasets."""
    by_method: dict[str, list[dict]] = defaultdict(list)
    for t in ex.without_runs:
        by_method[t["method"]].append(t)
    out = []
    for m, ts in by_method.items():
        datasets = ", ".join(sorted({str(t.get("dataset")) for t in ts}))
        out.append(f"{m}: {len(ts)} table group(s) on {datasets}")
    return out


def artifact_readme(ex: Export, command: str, quick: bool) -> str:
    art = ex.art
    done = [r for r in ex.results if r.status == "done"]
    lines = [f"{art.id} — {art.title}", "",
             f"Written by: {command}",
             f"repro-rank {__version__}; runs re-executed in one process with the score sink "
             f"({'--quick: the small grids and folds' if quick else 'the full protocol'}).",
             f"Runs executed: {len(done)} of {len(ex.results)}."]
    for label, state in ex.cache.items():
        lines.append(f"  {label}: per-query values {CACHE_STATES[state]}")
    lines.append("")
    if ex.runs:
        lines += [f"Run files ({len(ex.runs)}; runs.tsv lists each with its qrels, fold, "
                  f"LETOR conventions, counts and tied documents):"]
        lines += [f"  {r['run']}  ({r['method']}"
                  + (f", {r['keys']}" if r["keys"] else "") + f"; {r['metrics']})"
                  for r in ex.runs]
    else:
        lines.append(f"Run files: NOT AVAILABLE for this artifact: {NOT_MEASURED}. "
                     f"per-query.tsv holds every per-query value of its tables."
                     if ex.tables else f"Run files: none: {NO_TABLES}." if done else
                     "Run files: none (no run finished).")
    if ex.runs and ex.without_runs:
        lines += ["", f"Methods without run files (per-query values only, in per-query.tsv: "
                      f"{NOT_MEASURED}):"]
        lines += [f"  {m}" for m in without_summary(ex)]
    whys = sorted({f"{t['method']} / {t['metric']}: {t['why']}" for t in ex.tables
                   if t.get("why")})
    if whys:
        lines += ["", "Undefined per-query values (NA in per-query.tsv) and why:"]
        lines += [f"  {w}" for w in whys]
    if ex.notes:
        lines += ["", "Notes:"] + [f"  {n}" for n in ex.notes]
    if art.stand_ins:
        lines += ["", "Stand-ins: the dataset column of per-query.tsv (and the directory names) "
                      "name the paper's dataset; the data used was "
                  + "; ".join(f"{ds} for {real}" for ds, real in art.stand_ins.items())
                  + " (runs.tsv, column data)."]
    return "\n".join(lines) + "\n"


TOP_README = """\
TREC run files and per-query metrics written by `python -m repro runs`
======================================================================

One directory per artifact (<paper>.<artifact>/); its README.txt says what was run, which
methods have run files and which have per-query values only (and why), and whether the values
equal those of the cached runs the report was built from.

Files of an artifact directory
  per-query.tsv   every per-query value of the artifact's tables: dataset, method, further key
                  fields, fold, metric, qid, value (NA: undefined, see README.txt) [, weight:
                  the query's weight in a weighted mean]. A value of the report that is a mean
                  over test queries is the mean of its rows (weighted where there is a weight;
                  up to the last bits where the evaluation sums in its own order).
  runs.tsv        one line per run file: its qrels, LETOR conventions (3 or 4), metrics,
                  queries, documents, documents whose score ties with another in their query.
  <dataset>/fold<k>.qrels
                  TREC qrels of the test split: `qid 0 docid label` (graded labels 0, 1, 2, …).
  <dataset>/fold<k>.letor
                  the same documents as a LETOR file without features (`label qid:Q #docid =
                  D`), in the order the run scored them.
  <dataset>/<method>[/<key>-<value>…]/fold<k>.run
                  TREC run: `qid Q0 docid rank score runtag`, ranks by descending score, ties
                  broken by document order in the test file (the LETOR evaluation's rule);
                  scores printed with every digit needed to read back the same double.
  <dataset>/<method>[/…]/fold<k>.scores
                  the same scores, one per line of fold<k>.letor.
  Document ids are the LETOR comment's `#docid = …` where the data has them, else
  `<qid>-<index in query>` (runs.tsv, column docids).

Re-scoring (from inside an artifact directory)
  trec_eval:
    trec_eval -q -m map -m P.10 -m ndcg_cut.10 MQ2008/fold1.qrels MQ2008/GRankRLS/fold1.run
  the LETOR evaluation (what the official Eval-Score-4.0.pl / 3.0.pl print, per query):
    python -m repro eval MQ2008/fold1.letor MQ2008/GRankRLS/fold1.scores --per-query
    (the run's LETOR conventions are recorded in fold<k>.letor, "letor = 4", and in runs.tsv,
    column letor_version; eval applies them unless --letor says otherwise). This prints the values
    of per-query.tsv to the scripts' 4 decimals; re-scoring the run file with the suite's
    LETOR evaluation (repro.evidence.protocol.measured) gives them to the last bit.
  other conventions on the same scores (repro.metrics.family):
    python -m repro eval MQ2008/fold1.letor MQ2008/GRankRLS/fold1.scores --convention NAME
    (--convention trec_eval: current trec_eval's P.k, map and ndcg_cut.k of the run file,
    per query, ties by docid as trec_eval breaks them; trec_eval_classic: the discount of
    earlier trec_eval releases)

LETOR's evaluation conventions are not trec_eval's, so trec_eval's numbers can differ:
  * ties: trec_eval ignores the rank column and orders equal scores by docid (descending);
    LETOR keeps the file's order (the rank column here). A run with tied documents (runs.tsv,
    tied_documents) can score differently for that reason alone.
  * NDCG: LETOR's gain is 2^label - 1 with discount 1 at ranks 1 and 2, then 1/log2(rank);
    trec_eval's ndcg_cut gain is the qrels label itself, and current releases discount every
    rank by 1/log2(rank + 1) (earlier ones as LETOR); the LETOR scripts give NDCG@k = 0 for a query
    with fewer than k documents, trec_eval the NDCG of the whole list. MeanNDCG (LETOR 4.0's
    mean of NDCG@1..n) has no trec_eval counterpart.
  * queries without a relevant document (many in MQ2007/MQ2008): the LETOR scripts give them
    AP = 0 and NDCG = 0 and average over every query of the test file; trec_eval averages over
    the queries of the run that are in the qrels (-c: every query of the qrels), and other
    tools differ (LightGBM and XGBoost score such a query 1; some papers leave it out).
  * relevance for P@k and MAP: label > 0 in both (trec_eval's default -l 1).
  * a paper's own measure (see the artifact's README.txt and per-query.tsv) is neither.

Artifacts in this directory:
"""


def write_top_readme(out: Path) -> None:
    arts = sorted(p.name for p in out.iterdir() if (p / MARKER).is_file())
    lines = [TOP_README] + [f"  {a}/\n" for a in arts]
    _write(out / "README.txt", lines)


# --- the command -------------------------------------------------------------------------------

def summary(ex: Export, where: Path, finished: bool, kept: bool) -> str:
    """What the command says about one artifact."""
    art = ex.art
    if ex.runs:
        text = (f"{art.id}: {len(ex.runs)} run file(s) "
                f"({', '.join(dict.fromkeys(r['method'] for r in ex.runs))}), per-query values "
                f"of {len(ex.tables)} table(s) in {where}")
        if ex.without_runs:
            methods = list(dict.fromkeys(t["method"] for t in ex.without_runs))
            text += (f"\n  no run files for {', '.join(methods)}: {NOT_MEASURED} (per-query "
                     f"values only; see {where / 'README.txt'})")
        return text
    if ex.tables:
        return (f"{art.id}: run files are not available: {NOT_MEASURED}; per-query values of "
                f"{len(ex.tables)} table(s) in {where / 'per-query.tsv'}")
    if finished:
        return f"{art.id}: {NO_TABLES} (see {where / 'README.txt'})"
    if kept:
        return f"{art.id}: no run finished; {where} kept as it was"
    return f"{art.id}: no run finished: nothing but {where / 'README.txt'}"


def _replace_dir(stage: Path, target: Path) -> None:
    """Move ``stage`` to ``target``, replacing a directory this command wrote before."""
    trash = None
    if target.exists():
        trash = Path(tempfile.mkdtemp(prefix=".repro-runs-old-", dir=target.parent))
        target.rename(trash / target.name)
    stage.rename(target)
    if trash is not None:
        shutil.rmtree(trash, ignore_errors=True)


def main(argv, resolve_targets) -> int:
    """The command; ``resolve_targets(names, paper)`` is the main command's (:mod:`repro.cli`
    passes it: this module sits below it)."""
    args = _parser().parse_args(argv)
    bad = [d for d in args.dataset if "=" in d]
    if bad:
        raise ReproError(f"--dataset {bad[0]}: `runs` takes the name of one of the artifact's "
                         f"datasets (registering your own set with NAME=PATH is for the main "
                         f"command)")
    targets = resolve_targets(args.targets, args.paper)
    root = cat.data_dir(args.data_dir)
    out = Path(args.out or ("repro-runs-quick" if args.quick else "repro-runs"))
    check_out(out)
    plans = plan(targets, args.quick, args.dataset, args.fold)
    if not plans:
        print("nothing to write", file=sys.stderr)
        return 0
    if not cat.exists(root) and any(ds != cat.SYNTHETIC for a, _ in plans
                                    for ds in a.datasets):
        raise ReproError(f"data directory {root} does not exist; the runs need data. Point at "
                         f"your data with --data-dir DIR or REPRO_DATA_DIR=DIR; nothing was "
                         f"written")
    for art, _ in plans:
        target = out / art.id
        if target.exists() and not (target / MARKER).is_file():
            raise ReproError(f"{target} exists and was not written by `python -m repro runs`; "
                             f"move it or choose another --out; nothing was run")
    check_writable(out)
    check_cache_dir()
    out.mkdir(parents=True, exist_ok=True)
    cache = RunCache(root, tasks, log=print)
    threads = os.cpu_count() or 1
    command = "python -m repro runs " + " ".join(argv)
    code = 0
    memo: dict = {}
    for art, specs in plans:
        where = out / art.id
        clean_stale_staging(out, prefix=f".{art.id}.staging-")     # a killed command's
        stage = staging_dir(out, prefix=f".{art.id}.staging-")
        try:
            ex = export(art, specs, root, stage, cache, threads=threads, memo=memo)
            finished = any(r.status == "done" for r in ex.results)
            kept = not finished and where.exists()    # earlier files stay: nothing better
            if not kept:
                _write(stage / "README.txt", artifact_readme(ex, command, args.quick))
                (stage / MARKER).write_text(f"written by python -m repro runs "
                                            f"({__version__})\n")
                _replace_dir(stage, where)
        finally:
            shutil.rmtree(stage, ignore_errors=True)
        print(summary(ex, where, finished, kept))
        for n in ex.notes:
            print(f"  {n}", file=sys.stderr)
        if any(r.refused or r.status == "failed" for r in ex.results):
            code = 1                   # as the main command: data refused, or a run failed
        if "differs" in ex.cache.values():
            print(f"  warning: some per-query values differ from the cached runs' (see "
                  f"{where / 'README.txt'})", file=sys.stderr)
    write_top_readme(out)
    print(f"wrote {out / 'README.txt'}")
    return code
