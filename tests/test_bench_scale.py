"""``bench scale`` on a tiny set: the synthetic LETOR file (seeded, reused while its size and
checksum match, rewritten otherwise), and the parse and Tree-TRON measurements made in child
processes agree with an in-process parse and fit."""
import json

import numpy as np
import pytest

from repro.bench import scale
from repro.data.letor import read_letor
from repro.rankers import RankSVM

TINY = scale.spec(documents=3000, queries=40, features=136, seed=7)


def path_size(cache):
    return next((cache / "scale").glob("letor-*-v1.txt")).stat().st_size


def test_synthetic_set_is_seeded_mslr_shaped_and_reused(tmp_path):
    path, rec = scale.synthetic_set(TINY, tmp_path, log=None)
    d = read_letor(path)
    assert (d.n_docs, d.n_queries, d.n_features) == (3000, 40, 136)
    assert set(np.unique(d.y)) <= {0.0, 1.0, 2.0, 3.0, 4.0} and d.query_sizes.min() >= 2
    line = path.read_text().splitlines()[0].split()
    assert line[1].startswith("qid:") and [t.split(":")[0] for t in line[2:]] == \
        [str(j) for j in range(1, 137)]
    assert rec["bytes"] == path.stat().st_size
    again, _ = scale.synthetic_set(TINY, tmp_path / "other", log=None)
    assert again.read_bytes() == path.read_bytes()              # same seed, same bytes
    mtime = path.stat().st_mtime_ns
    assert scale.synthetic_set(TINY, tmp_path, log=None)[0] == path
    assert path.stat().st_mtime_ns == mtime                     # reused, not rewritten
    raw = bytearray(path.read_bytes())
    raw[10] = ord("9") if raw[10] != ord("9") else ord("8")
    path.write_bytes(bytes(raw))                                # same size, other content
    notes = []
    scale.synthetic_set(TINY, tmp_path, log=notes.append)
    assert path.read_bytes() == again.read_bytes() and "checksum differs" in notes[0]


def test_query_sizes_sum_exactly():
    rng = np.random.default_rng(0)
    for n, q in ((1000, 7), (2_270_296, 18_919), (50, 25)):
        s = scale.query_sizes(rng, n, q)
        assert s.sum() == n and s.shape == (q,) and s.min() >= 2


def test_slice_is_the_files_first_whole_lines(tmp_path):
    path, _ = scale.synthetic_set(TINY, tmp_path, log=None)
    text = path.read_bytes()
    cut = scale.slice_of(path, 100_000)
    head = cut.read_bytes()
    assert head.endswith(b"\n") and text.startswith(head) and len(head) <= 100_000
    assert text.index(b"\n", len(head)) + 1 > 100_000              # the next line would not fit
    mtime = cut.stat().st_mtime_ns
    assert scale.slice_of(path, 100_000) == cut and cut.stat().st_mtime_ns == mtime   # reused
    assert scale.slice_of(path, 10 * len(text)).read_bytes() == text     # smaller: all of it


def test_children_measure_the_same_parse_and_fit(tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path))
    rows = scale.bench(None, quick=True, sp=TINY, runs=2)
    parse, peer, fit, pcg = rows
    assert parse["params"]["documents"] == 3000 and parse["matrix_GiB"] > 0
    assert parse["params"]["runs"] == 2 and parse["passes"] == 1
    assert parse["peak_rss_GiB"] >= parse["interpreter_rss_GiB"] > 0
    t = parse["throughput_MB_s"]
    assert 0 < t["min"] <= t["median"] <= t["max"]
    assert parse["cpu_model"] and len(parse["load_average_before"]) == 3
    # the peer row: the same file (whole, as it is below 200 MB), interleaved rounds
    assert peer["params"]["MB"] == round(path_size(tmp_path) / 1e6, 1)
    for k, r in peer["ratios"].items():
        assert peer["ratio_min"][k] <= r <= peer["ratio_max"][k]
        assert r == pytest.approx(peer["ratio_median"][k])
    path, _ = scale.synthetic_set(TINY, log=None)
    d = read_letor(path)
    m = RankSVM(C=1.0, eps=1e-3).fit_data(d)
    assert fit["newton_iterations"] == m.result_.n_iter
    assert fit["cg_iterations"] == m.result_.n_cg and fit["status"] == m.result_.status
    assert fit["params"]["pairs"] == m.n_pairs_
    mp = RankSVM(C=1.0, eps=1e-3, solver="pcg-tron").fit_data(d)    # the side-by-side row
    assert pcg["cg_iterations"] == {"pcg-tron": mp.result_.n_cg, "tron": m.result_.n_cg}
    assert pcg["objective"]["pcg-tron"] == mp.result_.f
    json.dumps(rows)                                              # benchmarks.json-ready


def test_figure_ii_child_runs_the_papers_task(data_root):
    """The task `bench scale` runs on a user's MSLR-WEB30K, here on MQ2008 (quick grid)."""
    out = scale._child_figure_ii(str(data_root), "MQ2008", True)
    assert out["run"].startswith("leelin2014/") and "MQ2008" in out["run"]
    metrics = {r["metric"] for r in out["records"]}
    assert "CG iterations" in metrics and out["seconds"] > 0 and out["peak_rss"] > 0


def test_parse_child_stays_within_the_memory_bound(tmp_path):
    """The child's growth in resident memory while it parses (matrix, per-row arrays, mapped
    windows, over-estimated rows never touched) is within the bound the bench reports, as a
    multiple of the matrix, with windows small beside the matrix as they are at full size."""
    sp = scale.spec(documents=40_000, queries=400, features=136, seed=11)
    path, _ = scale.synthetic_set(sp, tmp_path, log=None)
    for threads in (1, 2):
        r = scale.run_child("parse", str(path), 136, threads, 1 << 20)
        assert r["documents"] == 40_000 and r["threads"] == threads
        grown = r["peak_rss"] - r["rss_before"]
        assert 0.9 * r["matrix_bytes"] < grown <= scale.PARSE_MEMORY_BOUND * r["matrix_bytes"]
