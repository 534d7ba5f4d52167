"""From finished runs to an artifact's values: its records gathered from the runs' outputs,
its declared aggregations applied (:mod:`repro.judge.kinds`), the comparison with the published
numbers (:mod:`repro.judge.published`) and the per-query tables behind every value
(:mod:`repro.evidence`).  This is computation; :mod:`repro.report.build` only writes and draws
what it returns, and the report pages only render those files."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import claims, columns, kinds as aggregate, intervals, replicates
from ..evidence import query_blocks, reference
from ..data import catalog as cat
from ..spec import REFERENCE_TASK, REFERENCE_TASKS, Artifact
from ..evidence.record import cell, check_fields, declare_fields, key, matches, natural_key
from .published import PublishedSet
from .verdicts import Verdict, compare
from .verdicts import not_run as not_run_fields
from ..data.catalog import SYNTHETIC
from ..files import jsonable
from ..run.result import RunResult
from .stats import paired, seed_from


#: the fields of the paired tests of a user's method (:func:`paired_records`)
declare_fields("paired", "measure")

#: how the data mark of a value on an unverified copy of a catalogued set begins
#: (:func:`repro.data.catalog.data_mark`)
UNVERIFIED_COPY = "unverified copy: "


def no_aggregation(paper: str, name: str):
    raise LookupError(f"{paper}: the custom aggregation {name!r} needs a resolver "
                      f"(pass aggregation=repro.papers.aggregation)")


@dataclass
class Assembled:
    """An artifact's values: flat records (reproduced beside published, sorted), the per-query
    tables behind them, why values are missing (per dataset label), and the data used."""
    flat: list[dict]
    tables: list[dict] = field(default_factory=list)
    not_run: dict = field(default_factory=dict)
    datasets: list[dict] = field(default_factory=list)


def dataset_label(art: Artifact, dataset: str) -> str:
    return art.stand_ins.get(dataset, dataset)


def gather_records(art: Artifact, results: list[RunResult],
                   unavailable: dict[str, str] | None = None,
                   tables: list | None = None, aggregation=no_aggregation
                   ) -> tuple[list[dict], dict]:
    """Records of this artifact from its runs — with its declared aggregations applied, then
    its ``select`` filter — and why values are missing per dataset label.  ``unavailable``:
    dataset → why its data cannot be used (for artifacts not implemented yet).  ``tables``:
    a list that receives the runs' per-query tables (keyed like their records: dataset label
    and fold added), those matching the artifact's ``select`` (fold aside).

    Replicated runs (``RunSpec.repeat`` 0..R−1, R > 1): each run's records and tables carry
    ``repeat``; the records the aggregations see are the replicate means, and ``tables``
    receives every replicate's tables and their per-query means (:mod:`.replicates`).
    ``aggregation(paper, name)``: the resolver of custom aggregations (the papers' registry,
    passed in as the runner gets its tasks)."""
    records, not_run = [], {}
    tables = [] if tables is None else tables
    repeats = 1 + max((res.spec.repeat for res in results), default=0)
    tag = {"repeat": None} if repeats > 1 else {}
    table_select = {k: v for k, v in art.judging.select.items() if k != "fold"}
    # An artifact may declare a dataset and a stand-in for it: the real data wins, and the
    # stand-in's records are used only while the original has not been run.
    real_done = {res.spec.dataset for res in results
                 if res.status == "done" and res.spec.dataset not in art.stand_ins}
    outputs = []
    every_table = []                  # all the runs' tables: claims are tested on any of them
    blocks: dict = {}                 # the blocked values of runs split by queries

    def add_tables(run_tables, reference):
        for t in run_tables:
            every_table.append(t)
            if matches(table_select, t) or (reference and matches(
                    {k: v for k, v in table_select.items() if k != "method"}, t)):
                tables.append(t)

    for res in sorted(results, key=lambda r: r.spec.dataset in art.stand_ins):
        label = dataset_label(art, res.spec.dataset)
        stand_in = res.spec.dataset in art.stand_ins
        if res.spec.task in REFERENCE_TASKS and res.status != "done":
            records.append({"dataset": label, "method": _reference_method(res.spec),
                            "metric": None,
                            "fold": None if res.spec.fold is None else str(res.spec.fold),
                            "value": None, "modern": True, "not_run": True,
                            "why": res.why if res.status == "not run" else f"failed: {res.why}"})
            continue
        if stand_in and label in real_done:
            continue
        if res.status != "done":
            if not (stand_in and label in not_run):      # keep the original's reason
                not_run[label] = res.why if res.status == "not run" else f"failed: {res.why}"
            continue
        if stand_in:
            not_run.pop(label, None)
        if res.spec.task == art.task:           # custom aggregations see the artifact's task
            outputs.append((res.spec, res.output))
        if tag:
            tag["repeat"] = int(res.spec.repeat)
        run_records, run_tables = [], []
        for r in res.output.get("records", []):
            r = dict(r, **tag)
            r.setdefault("dataset", label)
            if r.get("fold") is None and res.spec.fold is not None:
                r["fold"] = str(res.spec.fold)
            if stand_in:
                r["data_used"] = res.spec.dataset
                r["stand_in"] = True
            run_records.append(r)
        for t in res.output.get("per_query", []):
            t = dict(t, **tag)
            t.setdefault("dataset", label)
            if t.get("fold") is None and res.spec.fold is not None:
                t["fold"] = str(res.spec.fold)
            run_tables.append(t)
        run_records, run_tables = query_blocks.take(run_records, run_tables, blocks)
        records += run_records
        add_tables(run_tables, res.spec.task in REFERENCE_TASKS)
    pooled_records, pooled_tables = query_blocks.pool(blocks)   # runs split by queries
    records += pooled_records
    add_tables(pooled_tables, False)
    pos = {r.spec: i for i, r in enumerate(results)}
    outputs.sort(key=lambda o: pos[o[0]])                 # declaration order
    if repeats > 1:
        every_table = replicates.mean_tables(every_table, repeats)
        records, agg_not_run = _replicated(art, records, outputs, every_table, tables, repeats,
                                           aggregation)
    else:
        records, agg_not_run = aggregate.apply(art, records, outputs, aggregation,
                                               every_table)
    used = {dataset_label(art, ds): ds for ds in art.stand_ins
            if dataset_label(art, ds) not in real_done}
    for r in records:             # every value computed on a stand-in says so, claims included
        if r.get("dataset") in used and not r.get("stand_in"):
            r["stand_in"] = True
            r.setdefault("data_used", used[r["dataset"]])
    claims.finish(art, records, every_table)       # the artifact's claims as families
    for label, why in agg_not_run.items():
        not_run.setdefault(label, why)
    out = []
    not_method = {k: v for k, v in art.judging.select.items() if k != "method"}
    for r in records:
        r["artifact"] = art.name
        if matches(art.judging.select, r) or (r.get("modern") and (r.get("not_run")
                                                           or matches(not_method, r))):
            out.append(r)
    if art.task is None:
        reason = art.not_run or "not implemented yet"
        not_run[None] = reason
        for ds in art.datasets:
            why = (unavailable or {}).get(ds)
            not_run[dataset_label(art, ds)] = reason + (f"; {why}" if why and not art.not_run
                                                        else "")
    return out, not_run


def _replicated(art: Artifact, records: list[dict], outputs: list[tuple], mean_tables: list,
                tables: list, repeats: int, aggregation) -> tuple[list[dict], dict]:
    """The declared aggregations of a replicated artifact (:mod:`.replicates`): applied to the
    replicate means (claims judged on their per-query means, ``mean_tables``), and to each
    replicate's own records (claims aside) for the replicate values of every aggregated
    value.  ``tables`` (in place): the replicates' tables, then their per-query means."""
    means = replicates.mean_records(records, repeats)
    once = [r for r in means if r.get("deterministic") and r.get("replicates") == 1]
    tables[:] = replicates.mean_tables(tables, repeats) + tables

    def custom(paper, name):              # a Custom aggregation: per replicate, then means
        fn = aggregation(paper, name)

        def per_replicate(art_, outs):
            got = [{**r, "repeat": rep} for rep in range(repeats)
                   for r in fn(art_, [(s, o) for s, o in outs if s.repeat == rep])]
            return replicates.mean_records(got, repeats)
        return per_replicate
    shown, not_run = aggregate.apply(art, means, outputs, custom, mean_tables)
    given = {id(r) for r in means}
    for r in shown:                 # an aggregated value: its replicates are its own
        if id(r) not in given:
            computed_once = r.get("replicates") == 1 and r.get("deterministic") is True
            for f in replicates.FIELDS:
                r.pop(f, None)
            if computed_once:       # every value it aggregates was computed once (shared)
                r.update(replicates=1, deterministic=True)
    own = []
    for rep in range(repeats):
        recs = [{k: v for k, v in r.items() if k != "repeat"} for r in records
                if r.get("repeat") == rep] + ([dict(r) for r in once] if rep else [])
        got, _ = aggregate.apply(art, recs, [(s, o) for s, o in outputs if s.repeat == rep],
                                 aggregation, [], claims=False)
        own.append(got)
    replicates.attach_values(shown, own, tuple({repeats, art.layout.repeats}))
    return shown, not_run


def _reference_method(spec) -> str:
    """The method name of a reference ranker's run (the modern reference, a user's ranker)."""
    if spec.task == REFERENCE_TASK:
        return reference.METHOD
    return reference.user_method(spec.params["ranker"]["label"])


def assemble_artifact(art: Artifact, results: list[RunResult], published: PublishedSet,
                      quick: bool, unavailable: dict[str, str] | None = None,
                      marks: dict[str, str] | None = None,
                      aggregation=no_aggregation) -> Assembled:
    """The artifact's flat records (aggregated, compared, sorted) and their query tables.
    ``marks``: dataset → what every value computed on it must say (user data, an unverified
    copy: :func:`repro.data.catalog.data_mark`); ``aggregation``: the resolver of custom
    aggregations.  Every record's fields are checked against the closed schema
    (:func:`repro.evidence.record.check_fields`)."""
    tables: list[dict] = []
    records, not_run_why = gather_records(art, results, unavailable, tables, aggregation)
    if quick:
        not_run_why.setdefault(None, "outside the --quick subset (reduced folds and grid)")
    pubs = {v.key for v in published.for_artifact(art.name)}

    def exact_ok(r):              # a single fit's published value that is not a time
        metric = str(r.get("metric") or "").lower()
        return cell(r) in pubs and "second" not in metric \
            and "time" not in metric
    intervals.attach(art, records, tables, exact_ok)
    users = [reference.user_method(rr.params["label"]) for rr in art.layout.rankers]
    marked = data_marks_of(art, marks or {})
    flat = jsonable(compare(art.paper, art.name, records, published, not_run_why,
                            users=frozenset(users),
                            unverified=lambda r: marked(r).startswith(UNVERIFIED_COPY)))
    shown = {r.get("dataset") for r in flat}
    for label, why in not_run_why.items():  # a dataset not run and without published values
        if label is not None and label not in shown:
            flat.append({"paper": art.paper, "artifact": art.name, "dataset": label,
                         "method": None, "metric": None, "fold": None, "value": None,
                         "published": None, "diff": None, **not_run_fields(why),
                         "source": None})
    if users:
        flat += jsonable(paired_records(art, tables, users))
    for r in flat:
        if marked(r):
            r["data_mark"] = marked(r)
    flat += jsonable(columns.apply(art, art.paper, flat, tables, published))
    flat.sort(key=lambda r: tuple(natural_key(v) for v in cell(r)))
    for r in flat:
        check_fields(r, f"{art.id}: record {cell(r)}")
    return Assembled(flat, jsonable(tables), not_run_why,
                     datasets_used(art, results, not_run_why, marks or {}))


def data_marks_of(art: Artifact, marks: dict[str, str]):
    """``mark(rec) -> str``: what a record computed on marked data must say (``data_mark``:
    user data, an unverified copy); a record that is not of one dataset of the artifact (over
    several: an average over sets, a microaverage; a placeholder) carries the marks of every
    marked dataset."""
    by_label = {dataset_label(art, ds): m for ds, m in marks.items() if m}
    own = {dataset_label(art, ds) for ds in art.datasets}
    across = "; ".join(dict.fromkeys(by_label.values()))

    def mark(r: dict) -> str:
        return by_label.get(r.get("dataset")) or ("" if r.get("dataset") in own else across)
    return mark


def paired_records(art: Artifact, tables: list[dict], users: list[str]) -> list[dict]:
    """Paired tests of each user method against each paper method (:func:`repro.judge.stats.paired`:
    paired t-test, bootstrap 95% interval of the mean difference user − paper): per-query
    tables paired by (dataset, fold, metric, further key fields) and query id, pooled over
    folds; one record per (dataset, paper method, metric, further key fields)."""
    reference_methods = set(users) | {reference.METHOD}

    def group(t):                 # the table's key but its method and fold
        return tuple(sorted((k, str(v)) for k, v in key(t).items()
                            if k != "method" and k != "fold"))

    pools: dict[tuple, tuple[list, list]] = {}
    by_key = {}
    for t in tables:
        by_key.setdefault((t["method"], group(t), str(t.get("fold"))), t)
    for (method, g, fold), t in by_key.items():
        if method not in users:
            continue
        for (other, g2, fold2), t2 in by_key.items():
            if other in reference_methods or g2 != g or fold2 != fold:
                continue
            theirs = dict(zip(t2["qids"], t2["values"]))
            a, b = pools.setdefault((method, other, g), ([], []))
            for q, v in zip(t["qids"], t["values"]):
                if q in theirs:
                    a.append(v)
                    b.append(theirs[q])
    out = []
    for (method, other, g), (a, b) in pools.items():
        fields = dict(g)
        metric = fields.pop("metric")
        ds = fields.pop("dataset", None)
        seed = seed_from(f"{art.id}/{ds}/{method}/{other}/{metric}/{sorted(fields.items())}")
        res = paired(a, b, seed)
        ci = list(res.ci95) if res.ci95 is not None else None
        out.append({"paper": art.paper, "artifact": art.name, "dataset": ds, "method": method,
                    "metric": f"{metric}: paired difference vs {other}", "fold": None,
                    "value": res.effect, "published": None, "diff": None,
                    "verdict": Verdict.USER.value, "source": None, "user_method": True,
                    "paired": True, "versus": other, "measure": metric, "effect": res.effect,
                    "ci95": ci, "p_value": res.p_value, "n_queries": res.n_queries,
                    "test": "paired t-test (scipy.stats.ttest_rel), pooled over folds; "
                            "95% percentile bootstrap interval of the mean difference",
                    **fields})
    return out


def datasets_used(art: Artifact, results: list[RunResult], not_run: dict,
                  marks: dict[str, str] | None = None) -> list[dict]:
    """Per declared dataset: whether its values are on the page ("used"), and if not why —
    a stand-in is named only where its runs were used; ``mark``: what its values say about
    the data (user data, an unverified copy), ``like``: the dataset a user set stands for."""
    done = {r.spec.dataset for r in results if r.status == "done"}
    out = []
    for ds in art.datasets:
        label = dataset_label(art, ds)
        entry = {"dataset": "synthetic" if ds == SYNTHETIC else ds,
                 "title": None if ds == SYNTHETIC else cat.dataset(ds).title,
                 "stand_in_for": art.stand_ins.get(ds)}
        real_done = label in done and ds in art.stand_ins
        if ds in done and not real_done:
            entry["status"] = "used"
        elif real_done:                   # the stand-in was not needed: not listed as "not run"
            entry["status"] = "superseded"
            entry["why"] = "the paper's own data was used"
            entry["stand_in_for"] = None
        else:
            entry["status"] = "not run"
            failed = [r.why if r.status == "not run" else f"failed: {r.why}"
                      for r in results if r.spec.dataset == ds and r.status != "done"]
            entry["why"] = ((failed[0] if failed else None) or not_run.get(label)
                            or not_run.get(None) or "not run")
            entry["stand_in_for"] = None
        if (marks or {}).get(ds):
            entry["mark"] = marks[ds]
        if art.layout.like.get(ds):
            entry["like"] = art.layout.like[ds]
        out.append(entry)
    return out


