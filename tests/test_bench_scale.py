"""``bench scale`` on a tiny set: the synthetic LETOR file (seeded, reused while its size and
checksum match, rewritten otherwise), and the parse and Tree-TRON measurements made in child
processes agree with an in-process parse and fit."""
import json

import numpy as np
import pytest

from repro import papers
from repro.bench import scale
from repro.cli.bench_inputs import scale_runs
from repro.data.letor import read_letor
from repro.papers.leelin2014.common import _power, _solve, load_split
from repro.rankers import RankSVM
from repro.run.timing import single_thread_blas

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


@pytest.mark.slow
def test_children_measure_the_same_parse_and_fit(tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_CACHE_DIR", str(tmp_path))
    rows = scale.bench(None, quick=True, sp=TINY, runs=2)
    parse, peer, fit, pcg = rows
    assert parse["params"]["documents"] == 3000 and parse["matrix_GiB"] > 0
    assert parse["params"]["runs"] == 2 and parse["passes"] == 1
    # the dense float64 matrix of 3000 × 136, and the peak given as a multiple of it
    assert parse["matrix_GiB"] == round(3000 * 136 * 8 / 2**30, 3)
    assert parse["peak_rss_GiB"] == pytest.approx(
        parse["peak_over_matrix"] * 3000 * 136 * 8 / 2**30, abs=6e-4)
    # MB/s of the two runs: the file's size over each run's seconds (median: their mean)
    mb, secs = path_size(tmp_path) / 1e6, parse["seconds"]
    assert parse["throughput_MB_s"] == {
        "min": round(mb / secs["max"], 1), "max": round(mb / secs["min"], 1),
        "median": round((mb / secs["max"] + mb / secs["min"]) / 2, 1)}
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


def test_the_papers_declare_the_runs_bench_scale_times():
    """The benchmark knows no paper: leelin2014 declares Figure (II) on MSLR-WEB30K Fold1, and
    the command line hands it over with its run and its task."""
    (run,) = scale_runs()
    assert {k: run[k] for k in ("paper", "artifact", "label", "dataset", "fold")} == {
        "paper": "leelin2014", "artifact": "figureII", "label": "Figure (II)",
        "dataset": "MSLR-WEB30K", "fold": 1}
    assert run["spec"]["task"] == "task_figure_ii" and run["spec"]["fold"] == 1
    assert run["task"].endswith(":task_figure_ii")
    json.dumps(run)                                     # handed to a child as JSON


@pytest.mark.slow
def test_paper_run_child_runs_the_papers_task(data_root):
    """The task `bench scale` runs on a user's MSLR-WEB30K, here on MQ2008 (quick grid)."""
    (run,) = scale_runs(quick=True, dataset="MQ2008")
    out = scale._child_paper_run(str(data_root), run["spec"], run["task"])
    assert out["run"] == "leelin2014/task_figure_ii/MQ2008/fold1 (quick)"
    assert out["seconds"] > 0 and out["peak_rss"] > 0
    # its CG iterations at the default stop are those of TRON run here to ε = 1e-3
    art = next(a for a in papers.artifacts("leelin2014") if a.name == "figureII")
    spec = next(s for s in art.runs(True) if s.dataset == "MQ2008" and s.fold in (None, 1, "1"))
    train = load_split("MQ2008", 1, "train", data_root)
    with single_thread_blas():
        _, res = _solve(train, _power(spec.params["C_L2"]["MQ2008"]), spec.params["default_eps"])
    (cg,) = [r["value"] for r in out["records"] if r["metric"] == "CG iterations"
             and r["method"].startswith("Tree-TRON, default stopping")]
    assert cg == res.n_cg


@pytest.mark.slow
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
