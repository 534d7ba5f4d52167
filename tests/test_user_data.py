"""A user's own LETOR set run under a paper's protocol (``--dataset``,
``--on``), a data search path, and an unverified copy of a catalogued set
(``--allow-unverified``), each marked in every record and on the page; the committed
reports stay untouched."""
import re
import json
import os
import shutil
import subprocess
import sys
import lzma
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import reference_letor
import reference_lqo

from repro.cli import main as cli
from repro.data import catalog as cat
from repro.data import user
from repro.data.letor import read_letor
from repro.data.load import load_letor, load_letor_fold
from repro.rankers.lqo import greedy_path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("REPRO_DATA_DIR", ROOT.parent / "shared" / "datasets"))


def letor_lines(n_queries=30, n_features=23, seed=0):
    """A small LETOR set: labels 0–4 from a noisy linear score, ``n_features`` features."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=n_features)
    out = []
    for q in range(n_queries):
        for d in range(int(rng.integers(4, 9))):
            x = rng.random(n_features)
            y = int(np.clip(np.floor(x @ w - w.sum() / 2 + rng.normal() + 2.5), 0, 4))
            out.append(f"{y} qid:{100 + q} "
                       + " ".join(f"{j + 1}:{x[j]:.4f}" for j in range(n_features))
                       + f" #docid = d{q}-{d}\n")
    return out


def write_folds(root: Path, lines) -> Path:
    """The official layout: Fold1..5/{train,vali,test}.txt over five query parts."""
    by_q = {}
    for line in lines:
        by_q.setdefault(line.split()[1], []).append(line)
    qs = list(by_q)
    parts = [qs[i::5] for i in range(5)]
    for f in range(5):
        d = root / f"Fold{f + 1}"
        d.mkdir(parents=True)
        order = [(f + j) % 5 for j in range(5)]
        for name, idx in (("train.txt", order[:3]), ("vali.txt", order[3:4]),
                          ("test.txt", order[4:])):
            (d / name).write_text("".join(l for i in idx for q in parts[i] for l in by_q[q]))
    return root


@pytest.fixture
def clean_env(monkeypatch):
    """No registrations or allowances, and none left after the test (monkeypatch puts the
    process's own back)."""
    monkeypatch.setattr(cat, "REGISTERED", {})     # no user sets registered
    monkeypatch.setattr(cat, "ALLOWED", set())    # nor allowances
    return monkeypatch


@pytest.fixture(scope="module")
def user_set(tmp_path_factory):
    root = tmp_path_factory.mktemp("userset")
    return write_folds(root / "mine", letor_lines())


def letor4_map(data, scores) -> float:
    """MAP of ``scores`` by the LETOR 4.0 script's reference (``reference_letor``)."""
    return reference_letor.evaluate_set(data, scores, 4)[1]["MAP"]


def reports_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "reports/"], cwd=ROOT,
                          capture_output=True, text=True).stdout


def records(out: Path, paper: str, name: str) -> list[dict]:
    return json.loads((out / paper / f"{name}.json").read_text())


# --- registration, layouts, loading -----------------------------------------------------------

def test_user_set_loads_with_its_own_feature_count_and_labels(clean_env, user_set):
    cat.register_user({"mine": user.info("mine", user_set)})
    splits = load_letor_fold("mine", 2, "/nonexistent")
    assert {s: d.n_features for s, d in splits.items()} == dict.fromkeys(cat.SPLITS, 23)
    assert set(np.unique(np.concatenate([d.y for d in splits.values()]))) <= set(range(5))
    qids = [set(d.qids.tolist()) for d in splits.values()]
    assert not (qids[0] & qids[2]) and not (qids[1] & qids[2])
    assert cat.data_mark("mine", "/nonexistent") == "user data: mine (unverified)"


def test_one_file_is_split_by_the_seeded_rule(clean_env, tmp_path):
    path = tmp_path / "all.txt"
    path.write_text("".join(letor_lines(n_queries=20, n_features=7)))
    cat.register_user({"one": user.info("one", path, folds=5, seed=3)})
    tests = [set(load_letor("one", f, "test", tmp_path).qids.tolist()) for f in range(1, 6)]
    assert set().union(*tests) == set(range(100, 120))          # every query tested once
    assert sum(len(t) for t in tests) == 20
    for f in range(1, 6):
        tr, va, te = (set(load_letor("one", f, s, tmp_path).qids.tolist()) for s in cat.SPLITS)
        assert not (tr & va or tr & te or va & te) and len(tr | va | te) == 20
    # the rule is LETOR's rotation over the seeded parts
    parts = [set((100 + p).tolist()) for p in user.fold_parts(20, 5, 3)]
    assert tests[0] == parts[4] and tests[1] == parts[0]


def test_a_negative_label_is_refused_naming_the_file(clean_env, tmp_path):
    lines = letor_lines(n_queries=10, n_features=3)
    lines[4] = "-1" + lines[4][1:]
    path = tmp_path / "bad.txt"
    path.write_text("".join(lines))
    cat.register_user({"bad": user.info("bad", path)})
    with pytest.raises(Exception, match="bad.txt"):
        load_letor_fold("bad", 1, tmp_path)


def test_catalog_file_and_clear_errors(clean_env, tmp_path, user_set):
    toml = tmp_path / "repro.toml"
    toml.write_text(f'[datasets.viafile]\npath = "{user_set}"\n')
    assert user.read_catalog(toml)["viafile"].n_folds == 5
    toml.write_text('[datasets.x]\npath = "nowhere"\n')
    with pytest.raises(Exception, match=r"repro.toml \[datasets.x\].*does not exist"):
        user.read_catalog(toml)
    with pytest.raises(Exception, match="catalogued dataset"):
        cat.register_user({"MQ2008": user.info("MQ2008", user_set)})


def test_search_path_takes_each_set_from_the_first_directory_that_has_it(clean_env, tmp_path):
    (tmp_path / "a" / "OHSUMED").mkdir(parents=True)
    (tmp_path / "b" / "MQ2008").mkdir(parents=True)
    root = cat.data_dir([str(tmp_path / "a"), str(tmp_path / "b")])
    assert cat.roots(root) == [tmp_path / "a", tmp_path / "b"]
    assert cat.locate(cat.dataset("MQ2008"), root) == tmp_path / "b" / "MQ2008"
    assert cat.locate(cat.dataset("OHSUMED"), root) == tmp_path / "a" / "OHSUMED"
    clean_env.setenv("REPRO_DATA_DIR", f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}")
    assert cat.roots(cat.data_dir(None)) == [tmp_path / "a", tmp_path / "b"]


# --- --on: a paper's protocol on the user's set -----------------------------------------------

def test_on_needs_an_out_directory_outside_the_committed_reports(clean_env, user_set, capsys):
    assert cli.main(["pahikkala2010.table7", "--dataset", f"mine={user_set}",
                     "--on", "mine"]) == 1
    assert "--out DIR" in capsys.readouterr().err
    assert cli.main(["pahikkala2010.table7", "--dataset", f"mine={user_set}", "--on", "mine",
                     "--out", str(ROOT / "reports" / "x")]) == 1
    assert "inside the committed reports" in capsys.readouterr().err
    assert not (ROOT / "reports" / "x").exists()


@pytest.mark.slow
def test_on_runs_table7_on_the_user_set_marked_everywhere(clean_env, user_set, tmp_path):
    before = reports_status()
    out = tmp_path / "out"
    code = cli.main(["pahikkala2010.table7", "--quick", "--no-pdf", "--dataset",
                     f"mine={user_set}", "--on", "mine", "--out", str(out)])
    assert code == 0
    recs = records(out, "pahikkala2010", "table7")
    assert recs and all(r["data_mark"] == "user data: mine (unverified)" for r in recs)
    assert all(r["dataset"] == "mine" and r["published"] is None for r in recs)
    ours = {r["method"]: r["value"] for r in recs if r["metric"] == "MAP" and r["fold"] == "1"}
    # the quick protocol redone here: every candidate fitted by eq. (3) literally (one row
    # per pair; greedy RankRLS on the prefixes of its selection path), chosen by validation
    # MAP (ties: smaller λ, then smaller k), test MAP — all MAPs by the LETOR 4.0 script's
    # reference
    train, vali, test = (read_letor(user_set / "Fold1" / f"{s}.txt")
                         for s in ("train", "vali", "test"))

    def protocol(candidates):
        best, best_test = -1.0, None
        for feats, lam in candidates:                    # in the order ties are broken
            w = reference_lqo.rankrls_pairs(train.X[:, feats], train.y, train.query_ptr, lam)
            v = letor4_map(vali, vali.X[:, feats] @ w)
            if v > best:
                best, best_test = v, letor4_map(test, test.X[:, feats] @ w)
        return best_test

    from repro.papers.pahikkala2010 import QUICK
    quick = QUICK["params"]
    lo, hi = quick["rankrls_lambda_exponents"]
    everything = list(range(train.n_features))
    assert ours["RankRLS"] == pytest.approx(
        protocol([(everything, 2.0 ** e) for e in range(lo, hi + 1)]), rel=1e-12)
    lo, hi = quick["lambda_exponents"]
    k_max = min(quick["k_max"], train.n_features)
    paths = {e: greedy_path(train.X, train.y, train.query_ptr, 2.0 ** e, k_max).selected
             for e in range(lo, hi + 1)}
    assert ours["GRankRLS"] == pytest.approx(
        protocol([(list(paths[e][:k]), 2.0 ** e) for e in range(lo, hi + 1)
                  for k in range(1, k_max + 1)]), rel=1e-12)
    meta = json.loads((out / "pahikkala2010" / "table7.meta.json").read_text())
    assert meta["datasets"][0]["like"] == "MQ2008"
    html = (out / "pahikkala2010" / "index.html").read_text()
    assert "user data: mine (unverified)" in html
    assert not (out / "pahikkala2010" / "table8.json").exists()   # only the target
    assert reports_status() == before


@pytest.mark.slow
def test_on_lesmola_figure2_marks_every_record(clean_env, user_set, tmp_path):
    out = tmp_path / "out"
    cli.main(["lesmola2007.figure2", "--quick", "--no-pdf", "--dataset", f"mine={user_set}",
              "--on", "mine", "--out", str(out)])
    recs = records(out, "lesmola2007", "figure2")
    assert recs and all(r.get("data_mark") == "user data: mine (unverified)" for r in recs)
    assert "user data: mine (unverified)" in (out / "lesmola2007" / "index.html").read_text()


@pytest.mark.slow
def test_on_lesmola_figure2_computes_values(clean_env, user_set, tmp_path):
    out = tmp_path / "out"
    cli.main(["lesmola2007.figure2", "--quick", "--no-pdf", "--dataset", f"mine={user_set}",
              "--on", "mine", "--out", str(out)])
    recs = records(out, "lesmola2007", "figure2")
    # the test queries' sizes, counted in the file
    sizes = Counter(line.split()[1] for line in
                    (user_set / "Fold1" / "test.txt").read_text().splitlines()).values()
    data = {r["metric"]: r["value"] for r in recs if r["method"] == "data"}
    assert data["test queries"] == len(sizes)
    for n in range(1, 11):
        assert data[f"test queries with fewer than {n} documents"] == sum(s < n for s in sizes)
    # NDCG@n over all test queries counts a query shorter than n as 0: the mean over the
    # queries of ≥ n documents times their share, for every method
    val = {(r["method"], r["metric"]): r["value"] for r in recs}
    methods = {m for m, _ in val} - {"data"}
    assert methods == {"SVM", "RSVM", "ROCArea", "Precision@10", "DORM (NDCG)"}
    for m in methods:
        for n in range(1, 11):
            long = sum(s >= n for s in sizes)
            want = val[(m, f"NDCG@{n} (queries of ≥ {n} documents)")] * long / len(sizes) \
                if long else 0.0
            assert val[(m, f"NDCG@{n}")] == pytest.approx(want, rel=1e-12, abs=1e-12), (m, n)


# --- --allow-unverified: a modified copy of MQ2008 --------------------------------------------

@pytest.fixture(scope="module")
def modified_mq2008(tmp_path_factory):
    if not (SHARED / "MQ2008").is_dir():
        pytest.skip(f"MQ2008 not found under {SHARED} (set REPRO_DATA_DIR)")
    root = tmp_path_factory.mktemp("copy")
    dst = root / "MQ2008"
    shutil.copytree(SHARED / "MQ2008", dst)
    for p in dst.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    src = dst / "S1.txt.xz"
    data = bytearray(lzma.decompress(src.read_bytes()))
    i = data.index(b":0.") + 3
    data[i] = ord("9") if data[i] != ord("9") else ord("8")        # one byte changed
    (dst / "S1.txt").write_bytes(bytes(data))
    src.unlink()
    return root


@pytest.mark.slow
def test_unverified_copy_is_refused_without_the_flag(clean_env, modified_mq2008, tmp_path):
    out = tmp_path / "out"
    code = cli.main(["pahikkala2010.table7", "--quick", "--no-pdf", "--data-dir",
                     str(modified_mq2008), "--out", str(out)])
    assert code == 1
    recs = records(out, "pahikkala2010", "table7")
    assert all(r["value"] is None for r in recs if r["method"] != "RankSVM")


@pytest.mark.slow
def test_unverified_copy_runs_marked_and_never_reproduced(clean_env, modified_mq2008, tmp_path):
    before = reports_status()
    out = tmp_path / "out"
    code = cli.main(["pahikkala2010.table7", "--quick", "--no-pdf", "--data-dir",
                     str(modified_mq2008), "--allow-unverified", "MQ2008", "--out", str(out)])
    assert code == 0
    recs = records(out, "pahikkala2010", "table7")
    valued = [r for r in recs if r["value"] is not None]
    compared = [r for r in valued if r.get("published") is not None]
    assert compared and all(r["verdict"] == "unverified" and r["equivalence"]
                            for r in compared)
    assert not any(r["verdict"] == "reproduced" for r in recs)
    assert all(r["data_mark"].startswith("unverified copy: MQ2008") for r in recs)
    html = (out / "pahikkala2010" / "index.html").read_text()
    assert "unverified copy: MQ2008" in html
    index = (out / "index.html").read_text()
    import html as _html
    lines = re.search(r'<ul class="paperlines"[^>]*>(.*?)</ul>', index, re.S).group(1)
    line = " ".join(_html.unescape(re.sub(r"<[^>]+>", "", lines)).split())
    assert ("pahikkala2010 — no published value rerun on the paper's data; "
            f"{len(compared)} on an unverified copy of the data") in line, line
    assert reports_status() == before


# --- a user set in the run's specification ----------------------------------------------------

def shipped_spec(name, data_dir="/nonexistent"):
    """A --on spec of pahikkala2010.table7 on user set ``name``, as the runner ships it."""
    from repro import papers
    from repro.pipeline.user_data import on_dataset
    from repro.run.runner import Runner
    spec = on_dataset(papers.resolve("pahikkala2010.table7")[0], name).runs(quick=True)[0]
    return Runner(Path(data_dir), papers.task, log=lambda *a, **k: None)._shipped(spec)


def test_a_run_carries_its_user_set_by_content_and_split_not_by_path(clean_env, user_set,
                                                                     tmp_path):
    cat.register_user({"mine": user.info("mine", user_set)})
    here = shipped_spec("mine")
    assert json.loads(here.user_set)["info"]["folders"] == [str(user_set)]
    moved = shutil.copytree(user_set, tmp_path / "elsewhere")   # the same files elsewhere
    cat.register_user({"mine": user.info("mine", moved)})
    there = shipped_spec("mine")
    assert there.user_set != here.user_set                       # its path differs …
    assert there.identity == here.identity and there.seed == here.seed      # … not its key
    assert str(tmp_path) not in json.dumps(here.identity)
    ((moved / "Fold1" / "test.txt").open("a")).write("0 qid:999 1:0.5\n")  # other content
    assert shipped_spec("mine").identity != here.identity
    one = tmp_path / "one.txt"
    one.write_text("".join(letor_lines(n_queries=12)))
    cat.register_user({"one": user.info("one", one, folds=4, seed=0)})
    seed0 = shipped_spec("one").identity
    cat.register_user({"one": user.info("one", one, folds=4, seed=1)})
    assert shipped_spec("one").identity["user_set"] == {**seed0["user_set"], "seed": 1}
    # a run on a catalogued set carries nothing: its identity is the one it always had
    from repro import papers
    from repro.run.runner import Runner
    spec = papers.resolve("pahikkala2010.table7")[0].runs(quick=True)[0]
    assert Runner(SHARED, papers.task)._shipped(spec) is spec and spec.user_set is None


def test_a_worker_resolves_the_user_set_from_the_spec_alone(clean_env, user_set, tmp_path):
    from repro import papers
    from repro.run.backends import compute, task_ref
    cat.register_user({"mine": user.info("mine", user_set)})
    spec = shipped_spec("mine")
    ref = task_ref(papers.task(spec.paper, spec.task))
    here = compute(spec, ref, "/nonexistent")
    clean_env.setattr(cat, "REGISTERED", {})        # a worker that never saw --dataset
    assert compute(spec, ref, "/nonexistent").output == here.output
    assert here.status == "done" and cat.user_datasets()["mine"].folders == (str(user_set),)
    clean_env.setattr(cat, "REGISTERED", {})
    gone = replace(spec, user_set=spec.user_set.replace(str(user_set), str(tmp_path / "not-here")))
    res = compute(gone, ref, "/nonexistent")        # a worker without the files
    assert res.status == "not run"
    assert f"user data set mine: {tmp_path / 'not-here'} not found on this worker" in res.why


def read_train_fold1(ctx):
    """A task that reads its dataset's fold 1 training split."""
    return {"queries": load_letor(ctx.dataset, 1, "train", ctx.data_dir).n_queries}


def test_a_run_carries_its_allowance_to_a_worker_for_that_run_only(clean_env, modified_mq2008):
    from repro.run.backends import compute
    from repro.run.runner import Runner
    from repro.spec import RunSpec
    spec = RunSpec("x", "read_train_fold1", "MQ2008", 1, 0, "{}")
    runner = Runner(modified_mq2008, lambda p, t: read_train_fold1, log=lambda *a, **k: None)
    assert runner._shipped(spec) is spec                     # nothing allowed: nothing carried
    refused = compute(spec, read_train_fold1, str(modified_mq2008))
    assert refused.status == "not run" and "S1.txt" in refused.why
    cat.allow_unverified(["MQ2008"])
    allowed = runner._shipped(spec)
    assert allowed.allow_unverified and allowed.identity == spec.identity
    clean_env.setattr(cat, "ALLOWED", set())                 # a worker that never saw the flag
    res = compute(allowed, read_train_fold1, str(modified_mq2008))
    assert res.status == "done" and res.output["queries"] > 0
    assert cat.allowed_unverified() == ()                     # held for that run only


# --- a feature index above the limit: refused before anything runs ---------------------------

def test_a_feature_index_above_the_limit_is_found_across_chunks(clean_env, tmp_path):
    lines = letor_lines(n_queries=12, n_features=5)
    lines[37] = lines[37].replace(" 2:", " 1000000:1.0 2:", 1)
    (tmp_path / "one.txt").write_text("".join(lines))
    info = user.info("one", tmp_path / "one.txt")
    for chunk in (64, 1000, 1 << 24):                  # lines counted over chunk boundaries
        with pytest.raises(user.DataError, match=r"one\.txt, line 38: feature index above the "
                           r"limit of 100000 .*'1000000:1\.0'"):
            user.check_feature_limit(info, 100_000, chunk_bytes=chunk)
    user.check_feature_limit(info, 1_000_000)          # at the limit: allowed
    declared = user.info("one", tmp_path / "one.txt", n_features=2_000_000)
    user.check_feature_limit(declared, 100_000)        # a declared width: the parser checks
    # the fold layout: every split file of every fold is checked
    folds = write_folds(tmp_path / "folds", letor_lines(n_queries=15, n_features=5))
    test3 = folds / "Fold3" / "test.txt"
    text = test3.read_text().splitlines(keepends=True)
    text[1] = text[1].replace(" 3:", " 200001:0.5 3:", 1)
    test3.write_text("".join(text))
    with pytest.raises(user.DataError, match=r"Fold3/test\.txt, line 2: .*'200001:0\.5'"):
        user.check_feature_limit(user.info("folds", folds), 100_000)


def test_on_a_set_beyond_the_limit_refuses_before_anything_is_written(tmp_path):
    lines = letor_lines(n_queries=10, n_features=5)
    lines[4] = lines[4].replace(" 1:", " 1000000:1.0 1:", 1)
    (tmp_path / "lf.txt").write_text("".join(lines))
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "repro",
                           "pahikkala2010.table7", "--quick", "--no-pdf", "--dataset",
                           "mine=lf.txt", "--on", "mine", "--out", "out"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 1
    msg = [l for l in done.stderr.splitlines() if l.startswith("error:")]
    assert msg and "lf.txt, line 5: feature index above the limit of 100000" in msg[0]
    assert "nothing was run" in msg[0] and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
    # refused before the papers' declarations (and the judge's statistics) load
    imported = {l.split("|")[-1].strip() for l in done.stderr.splitlines()
                if l.startswith("import time:")}
    assert "repro.data.user" in imported
    from repro import papers as registry
    papers = tuple(f"repro.papers.{p}" for p in registry.known_ids())
    assert not any(m.startswith(papers + ("repro.judge", "scipy.stats")) for m in imported)
