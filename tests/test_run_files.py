"""``python -m repro runs``: TREC run files and per-query metrics (repro.evidence.run_files,
repro.cli.runs).

The run files of ``pahikkala2010.table7 --quick`` (MQ2008 fold 1), re-scored with the suite's
own LETOR evaluation, must give the per-query values of the artifact's tables exactly; the
TREC files must be well formed; and with no score sink active, evidence and sidecars must be
exactly what they were before the sink existed.  A small paper defined here (synthetic data)
covers the rest: key fields, tied scores, data without document ids, and runs that record
per-query values by their own metric code (no run files)."""
from __future__ import annotations

import csv
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from repro.cli import main as cli
from repro import papers
from repro.evidence import run_files
from repro.judge.assemble import gather_records
from repro.data.load import load_letor
from repro.data.queries import QueryData
from repro.data.synthetic import make_queries
from repro.cli.eval import run as repro_eval
from repro.evidence import Evidence, encode_sidecar, key_text, table_key
from repro.spec import Artifact, Paper, RunLayout
from repro.cli.pipeline import tasks
from repro.evidence.protocol import measured
from repro.run.runner import Runner

# --- a small paper on synthetic data (registered by the ``mini`` fixture) ----------------------

PAPER = Paper(id="runfilespaper", title="Run files test paper", authors="A. Tester",
              venue="tests", text="none.txt")


def _data(ctx) -> QueryData:
    return make_queries(12, (2, 8), 4, seed=ctx.seed)


def task_mixed(ctx):
    """Method "tied" through measured() with coarse (tied) scores and a key field; method
    "own" by its own metric code straight into per_query (no scoring offered)."""
    d = _data(ctx)
    ev = Evidence()
    ev.measured("tied", measured(d, np.round(d.X[:, 0], 1), ("MAP", "NDCG@5")), ctx.fold,
                criterion="MAP", note="not a key field")
    own = [float(d.y[d.query(q)].max()) for q in range(d.n_queries)]
    ev.per_query("own", "best label", d.qids, own, ctx.fold)
    return ev.output()


def task_own_only(ctx):
    """A weighted mean (by documents) with an undefined value (the first query's)."""
    d = _data(ctx)
    ev = Evidence()
    sizes = d.query_sizes.tolist()
    ev.per_query("own", "best label", d.qids,
                 [float(d.y[d.query(q)].max()) if q > 0 else None
                  for q in range(d.n_queries)], ctx.fold, weights=sizes,
                 why="the first query has no value here")
    return ev.output()


ARTIFACTS = [
    Artifact(
        "runfilespaper", "table1", "Mixed", task="task_mixed",
        layout=RunLayout(datasets=("synthetic",), folds=(1, 2))),
    Artifact(
        "runfilespaper", "table2", "Own metric only", task="task_own_only",
        layout=RunLayout(datasets=("synthetic",), folds=(1,))),
    Artifact(
        "runfilespaper", "table3", "Data not here", task="task_own_only",
        layout=RunLayout(datasets=("MQ2007",), folds=(1,))),
    Artifact(
        "runfilespaper", "table4", "Replicated", task="task_mixed",
        layout=RunLayout(datasets=("synthetic",), folds=(1, 2), repeats=3)),
]


@pytest.fixture()
def mini(tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    papers.register(sys.modules[__name__])
    yield
    papers.unregister("runfilespaper")


# --- helpers -----------------------------------------------------------------------------------

def read_tsv(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def rescore(art_dir: Path, row: dict, by_rank: bool = False):
    """Re-score one run file of ``runs.tsv`` with the suite's LETOR evaluation: the qrels give
    the documents (in their order) and labels, the run file the scores — or, ``by_rank``,
    minus the rank (so only the run's ordering counts)."""
    qrels = run_files.read_qrels(art_dir / row["qrels"])
    where = {(q, d): i for i, (q, d, _) in enumerate(qrels)}
    assert len(where) == len(qrels), "a (qid, docid) pair repeats in the qrels"
    scores = np.full(len(qrels), np.nan)
    for qid, doc, rank, score, _ in run_files.read_run(art_dir / row["run"]):
        scores[where[(qid, doc)]] = -rank if by_rank else score
    assert not np.isnan(scores).any(), "a judged document is missing from the run"
    qids = [q for q, _, _ in qrels]
    starts = [0] + [i for i in range(1, len(qids)) if qids[i] != qids[i - 1]] + [len(qids)]
    data = QueryData(np.zeros((len(qrels), 1)), np.array([y for *_, y in qrels]),
                     np.array(starts), np.array([int(qids[i]) for i in starts[:-1]]))
    return measured(data, scores, row["metrics"].split(","), int(row["letor_version"]))


def same(values, table_values) -> bool:
    a = [None if np.isnan(v) else float(v) for v in values]
    return a == list(table_values)


def artifact_tables(art, data_root: Path) -> list[dict]:
    """The artifact's per-query tables as the report's sidecar holds them: its runs executed
    (and cached) by the ordinary runner, without any sink, gathered as the report gathers
    them."""
    runner = Runner(data_root, tasks, log=lambda *a, **k: None, progress=False)
    results = runner.run(art.runs(quick=True))
    assert all(r.status == "done" for r in results.values())
    tables: list[dict] = []
    gather_records(art, list(results.values()), tables=tables)
    return tables


# --- pahikkala2010.table7 --quick on MQ2008 ------------------------------------------------------

@pytest.fixture(scope="module")
def table7(data_root, tmp_path_factory):
    art = papers.resolve("pahikkala2010.table7")[0]
    tables = artifact_tables(art, data_root)         # runs cached here, without a sink
    out = tmp_path_factory.mktemp("runs")
    code = cli.main(["runs", "pahikkala2010.table7", "--quick", "--out", str(out),
                     "--data-dir", str(data_root)])
    assert code == 0
    return art, tables, out / "pahikkala2010.table7"


@pytest.mark.slow
def test_run_files_rescored_give_the_artifact_tables_exactly(table7):
    art, tables, art_dir = table7
    rows = read_tsv(art_dir / "runs.tsv")
    by_group = defaultdict(dict)
    for t in tables:
        by_group[(t["dataset"], t["method"], t["fold"])][t["metric"]] = t
    # every method table of the artifact (the paper's two and the modern reference) has one
    assert {(r["dataset"], r["method"], r["fold"]) for r in rows} == set(by_group)
    for row in rows:
        group = by_group[(row["dataset"], row["method"], row["fold"])]
        assert row["metrics"].split(",") == sorted(group)
        for by_rank in (False, True):
            m = rescore(art_dir, row, by_rank)
            for metric, t in group.items():
                assert [str(q) for q in m.qids] == [str(q) for q in t["qids"]]
                assert same(m.per_query[metric], t["values"]), (row["run"], metric, by_rank)


def test_per_query_tsv_holds_every_table_value(table7):
    _, tables, art_dir = table7
    rows = read_tsv(art_dir / "per-query.tsv")
    want = [(t["dataset"], t["method"], t["fold"], t["metric"], str(q),
             "NA" if v is None else repr(v))
            for t in sorted(tables, key=lambda t: key_text(table_key(t)))
            for q, v in zip(t["qids"], t["values"])]
    got = [(r["dataset"], r["method"], r["fold"], r["metric"], r["qid"], r["value"])
           for r in rows]
    assert got == want
    assert all(float(v) == float(repr(float(v))) for *_, v in got if v != "NA")


def test_the_rerun_equals_the_cached_runs(table7):
    """The runs re-executed with the sink give the per-query tables of the runs cached without
    it (the command compares them and says so)."""
    _, _, art_dir = table7
    text = (art_dir / "README.txt").read_text()
    assert text.count("per-query values equal to the cached run's") == 2
    assert "DIFFER" not in text


def test_trec_files_are_well_formed(table7, data_root):
    _, _, art_dir = table7
    test = load_letor("MQ2008", 1, "test", data_root)
    for row in read_tsv(art_dir / "runs.tsv"):
        qrels = run_files.read_qrels(art_dir / row["qrels"])
        # qrels: the test file's documents, in its order, with its #docid and labels
        assert [d for _, d, _ in qrels] == [str(d) for d in test.docids]
        assert [y for *_, y in qrels] == test.y.tolist()
        assert all(line.split()[1] == "0" for line in open(art_dir / row["qrels"]))
        position = {(q, d): i for i, (q, d, _) in enumerate(qrels)}
        lines = run_files.read_run(art_dir / row["run"])
        assert {(q, d) for q, d, *_ in lines} == set(position)
        assert len(lines) == len(position) == int(row["documents"])
        assert len({tag for *_, tag in lines}) == 1
        by_query = defaultdict(list)
        for q, d, rank, score, _ in lines:
            by_query[q].append((rank, score, position[(q, d)]))
        assert len(by_query) == int(row["queries"])
        ties = 0
        for q, docs in by_query.items():
            assert [r for r, _, _ in docs] == list(range(1, len(docs) + 1))
            for (_, s1, p1), (_, s2, p2) in zip(docs, docs[1:]):
                assert s1 >= s2                          # descending score
                if s1 == s2:
                    assert p1 < p2                       # ties in document order
            scores = [s for _, s, _ in docs]
            ties += sum(scores.count(s) for s in set(scores) if scores.count(s) > 1)
        assert ties == int(row["tied_documents"])


def test_repro_eval_scores_the_score_files(table7):
    """``python -m repro eval fold1.letor <method>/fold1.scores --per-query`` prints each
    query's AP as the artifact's table has it (to the script's 4 decimals)."""
    _, tables, art_dir = table7
    for row in read_tsv(art_dir / "runs.tsv"):
        text = repro_eval(str(art_dir / row["letor"]), str(art_dir / row["scores"]),
                          version=int(row["letor_version"]), per_query=True)
        printed = {}
        for line in text.split("\n\n")[0].splitlines()[1:-1]:     # the P@k / MAP block
            f = line.split("\t")
            printed[f[0]] = f[-1]
        t = next(t for t in tables if t["method"] == row["method"] and t["metric"] == "MAP")
        assert printed == {str(q): "%.4f" % v for q, v in zip(t["qids"], t["values"])}


@pytest.mark.slow
def test_repro_eval_reads_the_run_conventions_from_the_files(table7):
    """Without --letor, ``eval`` applies the conventions the run was scored by (recorded in
    fold<k>.letor): its MAP per query and its mean are the report's values."""
    _, tables, art_dir = table7
    for row in read_tsv(art_dir / "runs.tsv"):
        assert f"letor = {row['letor_version']}" in (art_dir / row["letor"]).read_text()
        text = repro_eval(str(art_dir / row["letor"]), str(art_dir / row["scores"]),
                          per_query=True)
        assert text == repro_eval(str(art_dir / row["letor"]), str(art_dir / row["scores"]),
                                  version=int(row["letor_version"]), per_query=True)
        block = text.split("\n\n")[0].splitlines()
        printed = {line.split("\t")[0]: line.split("\t")[-1] for line in block[1:-1]}
        t = next(t for t in tables if t["method"] == row["method"] and t["metric"] == "MAP"
                 and str(t["fold"]) == str(row["fold"]))
        assert printed == {str(q): "%.4f" % v for q, v in zip(t["qids"], t["values"])}
        assert block[-1].split("\t")[-1] == "%.4f" % np.mean(t["values"])


def test_exported_letor_files_name_their_conventions():
    from repro.cli.eval import detect_version
    from repro.data.queries import QueryData
    data = QueryData(np.zeros((3, 1)), np.array([1.0, 0.0, 2.0]), np.array([0, 2, 3]),
                     np.array([7, 9]))
    for version in (3, 4):
        text = "".join(run_files.letor_lines(data, ["a", "b", "c"], version))
        assert text.splitlines()[0] == f"1 qid:7 #docid = a letor = {version}"
        assert detect_version(text.encode()) == version
    assert detect_version(b"1 qid:7 #docid = a inc = 1 prob = 0.5\n") == 4
    assert detect_version(b"1 qid:7 #docid = a\n") == 3


def _letor_docs(path: Path):
    """Labels, qids and docids of an exported ``fold<k>.letor`` (``label qid:Q #docid = D``)."""
    y, qids, docids = [], [], []
    for line in open(path, encoding="utf-8"):
        head, _, comment = line.partition("#")
        label, qid = head.split()[:2]
        y.append(float(label))
        qids.append(int(qid[4:]))
        docids.append(comment.split("=", 1)[1].split()[0])
    return np.array(y), np.array(qids), docids


def test_trec_eval_convention_equals_pytrec_eval_on_the_run_files(table7):
    """``--convention trec_eval`` gives what current trec_eval gives
    (pytrec_eval-terrier, trec_eval's own C code) for P@10, MAP and NDCG@10 of every query of
    the exported run files; the classic discount (``trec_eval_classic``) does not."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    from repro.metrics import average_precision, ndcg, precision
    _, _, art_dir = table7
    differ = 0
    for row in read_tsv(art_dir / "runs.tsv"):
        qrels, run = defaultdict(dict), defaultdict(dict)
        for q, d, label in run_files.read_qrels(art_dir / row["qrels"]):
            qrels[str(q)][d] = int(label)
        for q, d, _, score, _ in run_files.read_run(art_dir / row["run"]):
            run[str(q)][d] = float(score)
        want = pytrec_eval.RelevanceEvaluator(qrels, {"P_10", "map", "ndcg_cut_10"}).evaluate(run)
        y, qid_rows, docids = _letor_docs(art_dir / row["letor"])
        scores = np.loadtxt(art_dir / row["scores"], ndmin=1)
        starts = np.r_[np.flatnonzero(np.r_[True, qid_rows[1:] != qid_rows[:-1]]), len(y)]
        qids = [str(q) for q in qid_rows[starts[:-1]]]
        got = {"ndcg_cut_10": ndcg(y, scores, starts, 10, "trec_eval", docids=docids),
               "P_10": precision(y, scores, starts, 10, "trec_eval", docids=docids),
               "map": average_precision(y, scores, starts, "trec_eval", docids=docids)}
        for measure, values in got.items():
            assert values.tolist() == pytest.approx([want[q][measure] for q in qids],
                                                    abs=1e-12), (row["run"], measure)
        classic = ndcg(y, scores, starts, 10, "trec_eval_classic", docids=docids)
        differ += sum(abs(c - want[q]["ndcg_cut_10"]) > 1e-9 for c, q in zip(classic, qids))
        # the command prints the same, to 4 decimals
        text = repro_eval(str(art_dir / row["letor"]), str(art_dir / row["scores"]),
                          per_query=True, convention="trec_eval")
        ndcg_block = text.split("\n\n")[1].splitlines()[1:-1]
        printed = {f[0]: f[10] for f in (line.split("\t") for line in ndcg_block)}
        assert printed == {q: "%.4f" % want[q]["ndcg_cut_10"] for q in qids}
    assert differ > 0


# --- the sink leaves everything else unchanged --------------------------------------------------

def _seeded_data(name: str) -> QueryData:
    seed = int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "little")
    return make_queries(9, (1, 7), 3, seed=seed)


def _evidence(d: QueryData, scores) -> Evidence:
    ev = Evidence(note="detail")
    ev.measured("m", measured(d, scores, ("MAP", "P@3", "NDCG@3")), 2, criterion="MAP")
    ev.value("m", "k", 3, 2)
    return ev


def test_sink_off_evidence_and_sidecar_are_as_before():
    d = _seeded_data("tests/test_run_files/sink-off")
    scores = np.round(d.X[:, 1], 1)
    # what Evidence.measured produced before the sink existed: one per_query call per measure
    m = measured(d, scores, ("MAP", "P@3", "NDCG@3"))
    assert not hasattr(m, "scored")
    before = Evidence(note="detail")
    for name in m.summary:
        before.per_query("m", name, m.qids, m.per_query[name], 2, value=m.summary[name],
                         criterion="MAP")
    before.value("m", "k", 3, 2)
    off = _evidence(d, scores)
    with run_files.collecting() as sink:
        on = _evidence(d, scores)
    assert len(sink.scorings) == 1 and not run_files.active()
    texts = [json.dumps(e.output(), sort_keys=True) for e in (before, off, on)]
    assert texts[0] == texts[1] == texts[2]
    sidecars = [encode_sidecar("t", e.output()["per_query"]) for e in (before, off, on)]
    assert sidecars[0] == sidecars[1] == sidecars[2]


def test_sink_receives_method_fold_keys_and_the_scores():
    d = _seeded_data("tests/test_run_files/sink-on")
    scores = d.X[:, 0] - d.X[:, 2]
    with run_files.collecting() as sink:
        m = measured(d, scores, ("MAP",), version=3)
        scores[:] = 0.0                       # the sink holds its own copy
        Evidence().measured("m", m, 4, size=10, seconds=1.5)
    (s,) = sink.scorings
    assert (s.method, s.fold, s.keys, s.version, s.names) == ("m", "4", {"size": 10}, 3,
                                                              ("MAP",))
    assert s.data is d and np.array_equal(s.scores, d.X[:, 0] - d.X[:, 2])
    Evidence().measured("m", m, 4)            # no sink: nothing collected, nothing raised
    assert len(sink.scorings) == 1


# --- the command on the small paper -------------------------------------------------------------

def tables_of(art) -> list[dict]:
    """The small paper's artifact tables from the runs the command cached."""
    runner = Runner(Path("."), tasks, cache_only=True, log=lambda *a, **k: None)
    results = list(runner.run(art.runs()).values())
    assert all(r.status == "done" for r in results)
    tables: list[dict] = []
    gather_records(art, results, tables=tables)
    return tables


@pytest.mark.slow
def test_key_fields_ties_missing_docids_and_tables_without_run_files(mini, tmp_path):
    out = tmp_path / "out"
    assert cli.main(["runs", "runfilespaper.table1", "runfilespaper.table2",
                     "--out", str(out)]) == 0
    t1, t2 = out / "runfilespaper.table1", out / "runfilespaper.table2"
    rows = read_tsv(t1 / "runs.tsv")
    assert [r["run"] for r in rows] == [f"synthetic/tied/criterion-MAP/fold{k}.run"
                                        for k in (1, 2)]
    tables = tables_of(papers.resolve("runfilespaper.table1")[0])
    for row in rows:
        assert int(row["tied_documents"]) > 0
        assert row["docids"].startswith("<qid>-<index in query>")
        for by_rank in (False, True):
            m = rescore(t1, row, by_rank)
            for metric in ("MAP", "NDCG@5"):
                t = next(t for t in tables if t["method"] == "tied" and t["metric"] == metric
                         and t["fold"] == row["fold"])
                assert t["criterion"] == "MAP"
                assert same(m.per_query[metric], t["values"])
    readme = (t1 / "README.txt").read_text()
    assert "Methods without run files" in readme and "\n  own: 2 table group(s)" in readme
    pq = read_tsv(t1 / "per-query.tsv")
    assert {r["method"] for r in pq} == {"tied", "own"}
    assert {r["criterion"] for r in pq} == {"MAP", ""}
    assert not (t2 / "runs.tsv").exists()
    readme2 = (t2 / "README.txt").read_text()
    assert "Run files: NOT AVAILABLE" in readme2
    assert "the first query has no value here" in readme2
    pq2 = read_tsv(t2 / "per-query.tsv")
    (table,) = [t for t in tables_of(papers.resolve("runfilespaper.table2")[0])]
    assert [r["value"] for r in pq2] == ["NA" if v is None else repr(v) for v in table["values"]]
    assert [float(r["weight"]) for r in pq2] == table["weights"]
    assert "NA" in {r["value"] for r in pq2}
    top = (out / "README.txt").read_text()
    assert "runfilespaper.table1/" in top and "trec_eval" in top


def test_narrowing_and_rewriting(mini, tmp_path):
    out = tmp_path / "out"
    assert cli.main(["runs", "runfilespaper.table1", "--fold", "2", "--out", str(out)]) == 0
    art_dir = out / "runfilespaper.table1"
    assert [r["fold"] for r in read_tsv(art_dir / "runs.tsv")] == ["2"]
    stale = art_dir / "synthetic" / "stale.txt"
    stale.write_text("x")
    assert cli.main(["runs", "runfilespaper.table1", "--fold", "1", "--out", str(out)]) == 0
    assert [r["fold"] for r in read_tsv(art_dir / "runs.tsv")] == ["1"]
    assert not stale.exists()                 # the artifact's directory is replaced whole
    assert not [p for p in out.iterdir() if p.name.startswith(".")]   # no staging left


def test_a_replicated_artifact_writes_replicate_0(mini, tmp_path, capsys):
    """The run files of a replicated artifact are replicate 0's (the run as it always was):
    one per method and fold, the same as the unreplicated table1's (same seeds)."""
    out = tmp_path / "out"
    assert cli.main(["runs", "runfilespaper.table4", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.count("running runfilespaper/task_mixed/synthetic/fold") == 2     # 2 folds
    assert "/rep" not in said
    assert cli.main(["runs", "runfilespaper.table1", "--out", str(out)]) == 0
    rows = read_tsv(out / "runfilespaper.table4" / "runs.tsv")
    assert sorted(r["fold"] for r in rows) == ["1", "2"]
    for f in ("1", "2"):
        a, b = (sorted((out / f"runfilespaper.{t}").rglob(f"fold{f}.run")) for t in
                ("table4", "table1"))
        assert [p.read_text() for p in a] == [p.read_text() for p in b] and a


@pytest.mark.parametrize("args, says", [
    (["--fold", "7"], "--fold 7: not a fold"),
    (["--dataset", "MQ2008"], "--dataset MQ2008: not a dataset of runfilespaper.table1"),
    (["--dataset", "x=/tmp/x"], "takes the name of one of the artifact's datasets"),
])
def test_clear_errors_before_anything_runs(mini, tmp_path, capsys, args, says):
    out = tmp_path / "out"
    assert cli.main(["runs", "runfilespaper.table1", "--out", str(out), *args]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and says in err[0]
    assert not out.exists()


def test_refuses_the_committed_reports_and_foreign_directories(mini, tmp_path, monkeypatch,
                                                               capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports").mkdir()
    assert cli.main(["runs", "runfilespaper.table1", "--out", "reports/runs"]) == 1
    assert "inside the committed reports" in capsys.readouterr().err
    assert not (tmp_path / "reports" / "runs").exists()
    (tmp_path / "mine" / "runfilespaper.table1").mkdir(parents=True)
    assert cli.main(["runs", "runfilespaper.table1", "--out", "mine"]) == 1
    assert "was not written by `python -m repro runs`" in capsys.readouterr().err
    assert list((tmp_path / "mine" / "runfilespaper.table1").iterdir()) == []


def test_a_command_without_results_keeps_the_earlier_files(mini, tmp_path, capsys):
    out, data = tmp_path / "out", tmp_path / "data"
    data.mkdir()
    assert cli.main(["runs", "runfilespaper.table3", "--out", str(out),
                     "--data-dir", str(data)]) == 0           # missing data is not an error
    art_dir = out / "runfilespaper.table3"
    assert "no run finished" in capsys.readouterr().out
    assert "not run: data missing: MQ2007" in (art_dir / "README.txt").read_text()
    (art_dir / "per-query.tsv").write_text("earlier\n")
    assert cli.main(["runs", "runfilespaper.table3", "--out", str(out),
                     "--data-dir", str(data)]) == 0
    assert "kept as it was" in capsys.readouterr().out
    assert (art_dir / "per-query.tsv").read_text() == "earlier\n"
