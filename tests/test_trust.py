"""Nothing stale, nothing forged, nothing unbounded: data edited in place (its modification
time restored) is hashed again, the committed-reports guard follows every path it writes,
cache entries are authenticated, parsers and user rankers have limits, and no input gives a
raw traceback.  Commands run from a directory of the test's own, several through symlinks."""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from repro.cli.main import main
from repro.errors import ReproError
from repro.data.io import file_checksums, file_identity
from test_guards import elsewhere, on_user, reports_status, repro, user_set  # noqa: F401
from test_user_data import letor_lines, write_folds


def edit_in_place(path: Path, old: bytes, new: bytes) -> None:
    """Replace ``old`` by ``new`` (same length) in ``path`` through the same inode, then set
    its access and modification times back to what they were."""
    st = path.stat()
    data = path.read_bytes()
    assert len(old) == len(new) and old in data
    with open(path, "r+b") as fh:
        fh.write(data.replace(old, new, 1))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (st.st_size, st.st_mtime_ns,
                                                                st.st_ino)


# --- 1. data identity an edit cannot dodge ----------------------------------------------------

def test_an_edit_with_its_mtime_restored_is_hashed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "d.txt"
    f.write_bytes(b"0 qid:1 1:0.5\n1 qid:1 1:0.7\n")
    before = file_checksums(f, memo=True)
    ident = file_identity(f)
    edit_in_place(f, b"0 qid", b"1 qid")
    assert file_identity(f) != ident                  # the status-change time moved
    assert file_checksums(f, memo=True) != before
    assert file_checksums(f, memo=True) == file_checksums(f)


def test_a_user_set_edited_in_place_is_recomputed_not_served(elsewhere, tmp_path, monkeypatch,
                                                              capsys):
    """Labels swapped 0 <-> 1 in place, same size, modification time restored: the second run
    computes new values (the fingerprint of the set changed), never the first run's."""
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    folder = write_folds(tmp_path / "mine", letor_lines())
    link = tmp_path / "link"
    link.symlink_to(folder)                           # registered through a symlink
    out = tmp_path / "out"
    assert main(on_user(link, out)) == 0
    first = (out / "pahikkala2010" / "table7.json").read_text()
    for f in sorted(folder.glob("Fold*/*.txt")):
        text = f.read_bytes()
        swapped = bytes(text).replace(b"\n0 qid", b"\nX qid").replace(b"\n1 qid", b"\n0 qid") \
            .replace(b"\nX qid", b"\n1 qid")
        st = f.stat()
        with open(f, "r+b") as fh:
            fh.write(swapped)
        os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    capsys.readouterr()
    assert main(on_user(link, out)) == 0
    assert (out / "pahikkala2010" / "table7.json").read_text() != first


def test_a_forged_memo_is_ignored_and_data_verify_forgets_the_memo(elsewhere, tmp_path, monkeypatch,
                                                            capsys):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path / "cache"))
    folder = write_folds(tmp_path / "mine", letor_lines(n_queries=10))
    f = folder / "Fold1" / "train.txt"
    true = file_checksums(f, memo=True)
    memos = list((tmp_path / "cache" / "digests").glob("*.json"))
    assert len(memos) == 1
    held = json.loads(memos[0].read_text())
    held["digests"]["sha256"] = "sha256:" + "0" * 64
    memos[0].write_text(json.dumps(held))
    assert file_checksums(f, memo=True) == true       # a memo that does not verify is ignored
    with open(f, "a") as fh:
        fh.write("\n")
    assert file_checksums(f, memo=True) != true
    assert main(["data", "--verify", "--data-dir", str(tmp_path), "--dataset", f"u={folder}",
                 "u"]) == 0
    assert "u " in capsys.readouterr().out
    assert not memos[0].exists()
    assert file_checksums(f, memo=True) == file_checksums(f)


# --- 2. the committed-reports guard follows every path it writes -------------------------------

def test_a_symlinked_subfolder_into_the_committed_reports_is_refused(tmp_path):
    """The probe: sub/pahikkala2010 -> <checkout>/reports/pahikkala2010, --on into sub, from
    another working directory, in a process of its own: refused, nothing written."""
    from test_guards import ROOT
    from repro.cli import guards
    before = reports_status()
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "pahikkala2010").symlink_to(guards.PACKAGE_REPORTS / "pahikkala2010")
    folder = write_folds(tmp_path / "mine", letor_lines(n_queries=10))
    res = repro("pahikkala2010.table7", "--quick", "--no-pdf", "--allow-downgrade",
                "--dataset", f"mine={folder}", "--on", "mine", "--out", "sub", cwd=tmp_path,
                REPRO_CACHE_DIR=str(tmp_path / "cache"))
    assert res.returncode == 1, res.stderr
    assert "sub/pahikkala2010 leads into the committed reports" in res.stderr
    assert "nothing was run" in res.stderr
    assert reports_status() == before
    assert ROOT.joinpath("reports", "pahikkala2010", "table7.json").is_file()


def test_a_hard_link_to_a_committed_file_is_refused(tmp_path, monkeypatch):
    from repro.cli import guards
    reports = tmp_path / "reports"
    (reports / "p").mkdir(parents=True)
    (reports / "p" / "t.json").write_text("{}")
    monkeypatch.setattr(guards, "committed_reports", lambda: [reports])
    out = tmp_path / "out"
    (out / "p").mkdir(parents=True)
    (out / "p" / "other.json").write_text("{}")
    guards.refuse_committed(out, "x")                 # nothing leads there: accepted
    os.link(reports / "p" / "t.json", out / "p" / "t.json")
    with pytest.raises(ReproError, match=r"out/p/t\.json leads into the committed reports"):
        guards.refuse_committed(out, "x")
    (out / "p" / "t.json").unlink()
    (out / "loop").symlink_to(out / "loop")          # a loop leads nowhere: accepted
    guards.refuse_committed(out, "x")


def test_out_inside_the_data_is_refused(elsewhere, tmp_path, capsys):
    data = tmp_path / "data"
    folder = write_folds(data / "mine", letor_lines(n_queries=10))
    (tmp_path / "via").symlink_to(data)
    for out in (data / "reports", tmp_path / "via" / "mine" / "r"):
        assert main(on_user(folder, out, "--data-dir", str(data))) == 1
        assert "reports are never written among the data" in capsys.readouterr().err
        assert not out.exists()


# --- 3. authenticated cache entries (and item 10: every recomputation says why) ----------------

def _cached_entry(tmp_path):
    from repro import papers
    from repro.run.runner import Runner
    said = []
    runner = Runner(tmp_path, papers.task, progress=False, log=said.append)
    spec = papers.resolve("fakepaper.table1")[0].runs()[0]
    first = runner.run([spec])[spec]
    return runner, spec, first, runner.cache.entry_path(spec, runner.cache.key(spec)), said


def test_a_forged_entry_with_its_digest_recomputed_is_not_served(fake_paper, tmp_path):
    from repro.files import stable_hash
    runner, spec, first, path, said = _cached_entry(tmp_path)
    entry = json.loads(path.read_text())
    assert entry["digest"].startswith("hmac-sha256:")
    entry["output"]["records"][0]["value"] = 0.9999
    entry["digest"] = stable_hash({k: v for k, v in entry.items() if k != "digest"})
    path.write_text(json.dumps(entry))
    again = runner.run([spec])[spec]
    assert not again.cached and again.output == first.output
    assert [s for s in said if str(path) in s] == [
        f"cache entry {path} does not verify (changed after it was written, forged, or signed "
        f"with another key): recomputing {spec.label}"]


def test_an_entry_signed_with_another_key_is_recomputed(fake_paper, tmp_path, monkeypatch):
    """A cache copied from another user (another key) is recomputed, not served."""
    from repro import files
    runner, spec, first, path, said = _cached_entry(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "other-user"))
    key_file = files.cache_key_file()
    assert not key_file.exists()
    fake_paper.CALLS.clear()
    again = runner.run([spec])[spec]
    assert not again.cached and len(fake_paper.CALLS) == 1
    assert any("does not verify" in s for s in said)
    assert key_file.stat().st_mode & 0o777 == 0o600          # made on first use, private
    assert not str(key_file).startswith(os.environ["REPRO_CACHE_DIR"])
    assert runner.run([spec])[spec].cached


@pytest.mark.parametrize("damage, says", [
    (lambda t: t[:len(t) // 2], "is not whole JSON (truncated or broken)"),
    (lambda t: "[1, 2]", "is not a cache entry"),
    (lambda t: t.replace('"key": "', '"key": "0', 1), "holds another run's result")])
def test_a_broken_truncated_or_swapped_entry_is_recomputed_saying_why(fake_paper, tmp_path,
                                                                       damage, says):
    runner, spec, first, path, said = _cached_entry(tmp_path)
    path.write_text(damage(path.read_text()))
    again = runner.run([spec])[spec]
    assert not again.cached and again.output == first.output
    assert any(s.startswith(f"cache entry {path} {says}") and s.endswith(spec.label)
               for s in said), said


# --- 4. bounded parsing (and item 10: a byte order mark is accepted) ----------------------------

def _letor_with(index: int, n_queries: int = 6) -> str:
    lines = letor_lines(n_queries=n_queries, n_features=5)
    lines[3] = lines[3].replace(" #docid", f" {index}:1.0 #docid")
    return "".join(lines)


def _peak(args: list[str], cwd: Path) -> tuple[int, str, float]:
    """rc, stderr and peak resident memory (MB) of ``python -m repro ARGS`` in a process of
    its own, measured by that process itself."""
    # VmHWM, the high-water mark of this process's own memory (ru_maxrss would carry over
    # the forking pytest's size: Linux keeps it across exec)
    code = ("import sys\nfrom repro.cli.main import main\n"
            "try:\n    rc = main(sys.argv[1:])\nfinally:\n"
            "    hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
            "    print('PEAK', hwm[0].split()[1], file=sys.stderr)\nsys.exit(rc)\n")
    import subprocess
    import sys
    from test_guards import ROOT
    res = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True,
                         text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
    peak = int(res.stderr.rsplit("PEAK", 1)[1].split()[0]) / 1024
    return res.returncode, res.stderr, peak


def test_eval_on_a_billion_wide_index_is_refused_small(tmp_path):
    (tmp_path / "e9.txt").write_text(_letor_with(10**9))
    n = len((tmp_path / "e9.txt").read_text().splitlines())
    (tmp_path / "s.txt").write_text("0.5\n" * n)
    rc, err, peak = _peak(["eval", "e9.txt", "s.txt"], tmp_path)
    assert rc == 1
    assert "error: e9.txt, line 4: feature index above the limit of 100000" in err
    assert "--max-features" in err and "Traceback" not in err
    assert peak < 400


def test_a_user_set_with_a_million_wide_index_fails_its_runs_with_the_line(elsewhere, tmp_path,
                                                                          capsys):
    (tmp_path / "lf.txt").write_text(_letor_with(10**6, n_queries=12))
    out = tmp_path / "out"
    assert main(on_user(tmp_path / "lf.txt", out)) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'lf.txt'}, line 4: feature index above the limit of 100000" in err
    (tmp_path / "lf150.txt").write_text(_letor_with(150, n_queries=12))
    assert main(on_user(tmp_path / "lf150.txt", out, "--max-features", "100")) == 1
    assert "line 4: feature index above the limit of 100 " in capsys.readouterr().err


def test_the_limit_comes_from_the_option_the_environment_or_the_declared_width(monkeypatch):
    from repro.data import letor
    buf = _letor_with(150).encode()
    monkeypatch.setenv(letor.MAX_FEATURES_ENV, "100")
    with pytest.raises(letor.DataError, match=r"<f>, line 4: feature index above the limit of "
                                              r"100 .*\(at '150:1.0'\)"):
        letor.parse_letor(buf, "<f>", limit=letor.max_features())
    monkeypatch.setenv(letor.MAX_FEATURES_ENV, "200")
    assert letor.parse_letor(buf, "<f>", limit=letor.max_features()).n_features == 150
    monkeypatch.setenv(letor.MAX_FEATURES_ENV, "lots")
    with pytest.raises(letor.DataError, match="REPRO_MAX_FEATURES=lots"):
        letor.max_features()
    with pytest.raises(letor.DataError, match=r"line 4: feature index larger than the number of "
                                              r"features \(46\)"):
        letor.parse_letor(buf, "<f>", n_features=46)            # a catalogued set's width


def test_a_dense_matrix_over_the_memory_available_is_refused_before_allocation(monkeypatch):
    from repro.data import letor
    monkeypatch.setattr(letor, "available_memory", lambda: 1000)
    with pytest.raises(letor.DataError, match=r"^<f>: 24 rows × 150 features need 0 MiB as a "
                                              r"dense matrix, more than the 0 MiB"):
        letor.parse_letor(_letor_with(150, n_queries=4).encode(), "<f>", limit=10**5)


def test_a_utf8_byte_order_mark_is_read_as_blank():
    from repro.data.letor import parse_letor
    text = "".join(letor_lines(n_queries=3, n_features=4))
    plain = parse_letor(text.encode(), "<f>")
    marked = parse_letor(b"\xef\xbb\xbf" + text.encode(), "<f>")
    assert np.array_equal(plain.X, marked.X) and np.array_equal(plain.y, marked.y)
    assert list(plain.docids) == list(marked.docids)


# --- 5. user rankers with limits ----------------------------------------------------------------

class Hangs:
    def fit(self, X, y, qid):
        import time
        time.sleep(600)

    def predict(self, X):
        return X[:, 0]


class CatchesTheAlarm(Hangs):
    def fit(self, X, y, qid):
        import signal
        import time
        signal.signal(signal.SIGALRM, lambda *a: None)
        time.sleep(600)


class Hogs(Hangs):
    def fit(self, X, y, qid):
        self.big = np.ones((1 << 30,))            # 8 GiB


@pytest.mark.parametrize("ranker, limit, says", [
    ("Hangs", ["--ranker-timeout", "3s"], "timed out after 3 s (--ranker-timeout)"),
    ("CatchesTheAlarm", ["--ranker-timeout", "2"], "timed out after 2 s (--ranker-timeout)"),
    ("Hogs", ["--ranker-memory", "1G"],
     "out of memory (over the --ranker-memory limit of 1.0 GiB)")])
def test_a_ranker_over_its_limit_fails_alone_saying_which(tmp_path, ranker, limit, says):
    import time
    folder = write_folds(tmp_path / "mine", letor_lines(n_queries=10))
    (tmp_path / "link").symlink_to(folder)
    start = time.monotonic()
    p = repro(*on_user(Path("link"), Path("out"), "--ranker", f"x=test_trust:{ranker}", *limit),
              cwd=tmp_path, REPRO_CACHE_DIR=str(tmp_path / "cache"))
    assert time.monotonic() - start < 120
    assert p.returncode == 1, p.stderr[-2000:]
    assert "1 run(s) failed" in p.stderr and says in p.stderr, p.stderr[-2000:]
    assert "Traceback" not in p.stderr
    flat = json.loads((tmp_path / "out" / "pahikkala2010" / "table7.json").read_text())
    assert any(r["method"] == "GRankRLS" and r["value"] is not None for r in flat)


def test_bad_limits_are_one_line_errors(elsewhere, user_set, capsys):
    assert main(on_user(user_set, Path("o"), "--ranker-timeout", "soon")) == 1
    assert "--ranker-timeout 'soon': expected a positive duration" in capsys.readouterr().err
    assert main(on_user(user_set, Path("o"), "--ranker-memory=-5G")) == 1
    assert "--ranker-memory '-5G': expected a positive size" in capsys.readouterr().err


# --- 6. the console prints what was computed ----------------------------------------------------

def test_a_kept_artifact_shows_the_computed_values_marked_not_written(fake_paper, elsewhere,
                                                                      tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["fakepaper", "--data-dir", str(tmp_path), "--out", str(out), "--no-pdf"]) == 0
    table = out / "fakepaper" / "table1.json"
    kept = table.read_text().replace('"value": 2.0', '"value": 7.5')
    assert kept != table.read_text()
    table.write_text(kept)                      # values this run does not compute
    capsys.readouterr()
    assert main(["fakepaper.table1", "--quick", "--no-pdf", "--data-dir", str(tmp_path),
                 "--out", str(out)]) == 1
    text = capsys.readouterr().out
    console = text[text.index("fakepaper.table1 —"):]
    assert "7.5" not in console and "2.0" in console
    assert f"in {table} — not written: the files were kept)" in console
    assert table.read_text() == kept


# --- 7. eval splits score lines as the LETOR reader does ----------------------------------------

def _eval_files(tmp_path, n_queries=6):
    text = "".join(letor_lines(n_queries=n_queries, n_features=3))
    (tmp_path / "l.txt").write_text(text)
    return text.count("\n")


@pytest.mark.parametrize("odd", ["\f", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028"])
def test_a_score_line_with_another_line_break_is_one_bad_line(tmp_path, odd):
    """n-1 score lines, one of them holding a character that str.splitlines() breaks on: not
    n lines, and the line is named."""
    from repro.cli.eval import run
    n = _eval_files(tmp_path)
    scores = [f"0.{i}" for i in range(n)]
    scores[3:5] = [scores[3] + odd + scores[4]]
    (tmp_path / "s.txt").write_text("\n".join(scores) + "\n", encoding="utf-8")
    with pytest.raises(ReproError, match=r"s\.txt, line 4: score .* is not a plain decimal"):
        run(str(tmp_path / "l.txt"), str(tmp_path / "s.txt"))


@pytest.mark.parametrize("score", ["1_000", "nan", "inf", "0x10", "1e", "--1", "١"])
def test_only_plain_decimal_scores_are_accepted(tmp_path, score):
    from repro.cli.eval import run
    n = _eval_files(tmp_path)
    lines = ["0.5"] * n
    lines[2] = score
    (tmp_path / "s.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReproError, match=r"s\.txt, line 3: score "):
        run(str(tmp_path / "l.txt"), str(tmp_path / "s.txt"))


def test_score_lengths_are_checked_while_streaming(tmp_path, monkeypatch):
    from repro.cli import eval as ev
    n = _eval_files(tmp_path)
    monkeypatch.setattr(ev, "SCORE_CHUNK_BYTES", 64)
    (tmp_path / "s.txt").write_text("0.25\n" * n + "junk that is never parsed\n" * 1000)
    with pytest.raises(ReproError, match=rf"has more than {n} lines \(line {n + 1} and on\)"):
        ev.run(str(tmp_path / "l.txt"), str(tmp_path / "s.txt"))
    (tmp_path / "s.txt").write_text("\ufeff" + "0.25\r\n" * (n - 1) + "1e-3")   # BOM, CRLF, no
    assert "MAP" in ev.run(str(tmp_path / "l.txt"), str(tmp_path / "s.txt"))   # final newline
    (tmp_path / "s.txt").write_text("0.25\n" * (n - 1))
    with pytest.raises(ReproError, match=rf"has {n - 1} lines but the LETOR file has {n}"):
        ev.run(str(tmp_path / "l.txt"), str(tmp_path / "s.txt"))


# --- 8. no raw traceback ------------------------------------------------------------------------

def test_a_query_too_long_for_lightgbm_is_refused_naming_it(capfd):
    pytest.importorskip("lightgbm")
    from repro.errors import DataError
    from repro.rankers.lambdamart import MAX_QUERY_DOCS, LambdaMART
    n = MAX_QUERY_DOCS + 1
    X = np.random.default_rng(0).random((n + 3, 2))
    y = np.r_[np.zeros(n // 2), np.ones(n - n // 2), [0, 1, 0]]
    qid = np.r_[np.zeros(3), np.ones(n)]
    with pytest.raises(DataError, match=rf"query 2 \(in order\) of the training data has {n} "
                                        rf"documents; .* at most {MAX_QUERY_DOCS} a query"):
        LambdaMART(n_estimators=2).fit(X, y, qid)
    assert "[Fatal]" not in capfd.readouterr().err


def test_a_run_out_of_memory_fails_alone_without_a_traceback(capfd):
    from repro.run.backends import compute
    from repro.spec import RunSpec
    spec = RunSpec(paper="p", task="t", dataset="synthetic", fold=None, repeat=0,
                   params_json="{}")

    def task(ctx):
        raise MemoryError("Unable to allocate 7.28 TiB")
    res = compute(spec, task, ".", print, 1)
    assert res.status == "failed" and res.why == "out of memory: Unable to allocate 7.28 TiB"
    assert "Traceback" not in capfd.readouterr().err


# --- 10. the smaller ones -----------------------------------------------------------------------

def test_a_symlink_loop_is_named_as_one(elsewhere, tmp_path, capsys):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
    for name, says in (("a", "is a symbolic link loop"),
                       ("gone", f"is a symbolic link to {tmp_path / 'nowhere'}, which does not "
                                f"exist"),
                       ("absent", "does not exist")):
        assert main(on_user(tmp_path / name, Path("o"))) == 1
        assert f"{tmp_path / name} {says}" in capsys.readouterr().err


def test_a_set_with_one_relevance_level_is_warned_about(elsewhere, tmp_path, capsys):
    lines = ["0" + l[1:] for l in letor_lines(n_queries=10)]
    (tmp_path / "zeros.txt").write_text("".join(lines))
    main(on_user(tmp_path / "zeros.txt", tmp_path / "out"))
    assert "warning: every document of u has label 0: one relevance level" in \
        capsys.readouterr().err
    (tmp_path / "mixed.txt").write_text("".join(letor_lines(n_queries=10)))
    main(on_user(tmp_path / "mixed.txt", tmp_path / "out2"))
    assert "relevance level" not in capsys.readouterr().err


def test_any_run_into_a_folder_of_its_own_refuses_a_link_into_the_committed_reports(
        fake_paper, elsewhere, tmp_path, capsys):
    from repro.cli import guards
    before = reports_status()
    out = tmp_path / "mine"
    (out / "fakepaper").mkdir(parents=True)
    (out / "fakepaper" / "x").symlink_to(guards.PACKAGE_REPORTS / "index.html")
    assert main(["fakepaper.table1", "--no-pdf", "--data-dir", str(tmp_path), "--out",
                 str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{out / 'fakepaper' / 'x'} leads into the committed reports" in err
    assert not (out / "fakepaper" / "table1.json").exists() and reports_status() == before
