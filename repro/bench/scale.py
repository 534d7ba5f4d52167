"""Benchmark group ``scale``: the size of the largest sets the papers use (MSLR-WEB30K Fold1
train: 2,270,296 documents, 136 features, 18,919 queries, labels 0-4).

MSLR-WEB30K is not shipped (and may not be redistributed), but its size is known: a synthetic
LETOR-format file of that size is written once into the cache (``<cache>/scale/``, seeded,
atomically, reused while its recorded size and sha256 match), then:

* the streaming parse (:class:`repro.data.letor.LetorStream`: one pass, the machine's cores
  on line-aligned byte ranges), ``runs`` times, each in a fresh child process so that only
  its own memory counts: MB/s (min / median / max over the runs), CPU time, and the peak
  resident memory (``VmHWM``) against the float64 feature matrix it must stay within 1.5× of;
* the same parse against scikit-learn's ``load_svmlight_file`` (a peer) on the file's first
  200 MB (cut at a line end, written once beside it), timed in interleaved rounds
  (:func:`repro.bench.common.interleaved`);
* one Tree-TRON fit (:class:`repro.rankers.RankSVM`, ``method="tree"``) at C = 1 with the
  default ε = 0.001, single-threaded: time, Newton and CG iterations, peak memory.

The same command also runs, when their data is in the data directory, the runs the papers
declare for it (``paper_runs``, handed in by the command line: Lee & Lin's Figure (II) task on
MSLR-WEB30K Fold1), each in a child, timed, with its peak memory.
Every row records the CPU model and the load averages before and after it.
"""
from __future__ import annotations

import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from ..files import atomic_writer, cache_root
from ..data import catalog as cat
from ..data.io import file_checksums
from ..data.letor import LetorStream, default_threads
from ..errors import ReproError
from ..spec import RunContext, RunSpec
from ..run.provenance import machine
from ..run.timing import single_thread_blas
from .common import case, cpu_model, interleaved, load_average, spread

try:                                  # a peer (the `peers` extra), not a dependency
    from sklearn.datasets import load_svmlight_file
except ImportError:                   # pragma: no cover
    load_svmlight_file = None

#: MSLR-WEB30K Fold1 train (the numbers of the official fold file).
MSLR30K_FOLD1_TRAIN = {"documents": 2_270_296, "queries": 18_919, "features": 136}
#: Label frequencies of MSLR-WEB30K (0..4), rounded.
LABEL_P = (0.515, 0.325, 0.134, 0.019, 0.007)
SEED = 20140301
FORMAT_VERSION = 1
#: Peak resident memory allowed to the parse, as a multiple of the float64 feature matrix.
PARSE_MEMORY_BOUND = 1.5
#: Throughput the parse of the full-size file aims at (wall clock).
PARSE_GOAL_MB_S = 300.0
#: Size of the slice of the file on which the parse is compared with scikit-learn's reader.
SLICE_BYTES = 200_000_000


def spec(documents: int, queries: int, features: int, seed: int = SEED) -> dict:
    return {"documents": int(documents), "queries": int(queries), "features": int(features),
            "seed": int(seed), "format": FORMAT_VERSION}


def query_sizes(rng: np.random.Generator, documents: int, queries: int) -> np.ndarray:
    """Skewed query sizes (lognormal, each ≥ 2) summing exactly to ``documents``."""
    raw = rng.lognormal(0.0, 0.8, size=queries)
    sizes = np.maximum(2, np.floor(raw / raw.sum() * documents)).astype(np.int64)
    diff = documents - int(sizes.sum())
    while diff:
        q = rng.integers(0, queries, size=abs(diff))
        if diff > 0:
            np.add.at(sizes, q, 1)
        else:
            ok = q[sizes[q] > 2]
            np.add.at(sizes, ok, -1)
            sizes = np.maximum(sizes, 2)
        diff = documents - int(sizes.sum())
    return sizes


def _column_pools(rng: np.random.Generator, features: int, k: int = 512) -> np.ndarray:
    """For each feature, ``k`` value tokens ``"<index>:<value>"`` sorted by value, formatted
    as MSLR's are: counts as integers, scores as decimals with up to 6 places (trailing zeros
    dropped), some negative (language-model scores), some large (PageRank-like)."""
    pools = np.empty((features, k), dtype=object)
    for j in range(features):
        kind = j % 5
        if kind in (0, 1):                                  # term counts, lengths
            v = np.sort(np.floor(rng.exponential(3.0 if kind == 0 else 400.0, k)))
            text = [f"{int(x)}" for x in v]
        elif kind == 2:                                      # ratios in [0, 1]
            v = np.sort(rng.beta(0.6, 2.0, k))
            text = [f"{x:.6f}".rstrip("0").rstrip(".") for x in v]
        elif kind == 3:                                      # BM25/TF-IDF-like scores
            v = np.sort(rng.gamma(2.0, 8.0, k))
            text = [f"{x:.6f}".rstrip("0").rstrip(".") for x in v]
        else:                                                # LM scores (negative), large
            v = np.sort(-rng.gamma(3.0, 300.0, k) if j % 10 == 4 else rng.pareto(1.5, k) * 1e4)
            text = [f"{x:.6f}".rstrip("0").rstrip(".") for x in v]
        pools[j] = [f"{j + 1}:{t}" for t in text]
    return pools


def write_synthetic(path: Path, sp: dict, rows_per_block: int = 20_000, log=print) -> dict:
    """Write the synthetic set of ``sp`` to ``path`` (atomically); return its sidecar record
    (spec, size, sha256).  Features 1-20 carry signal about the label, the rest are noise."""
    rng = np.random.default_rng(sp["seed"])
    n, nq, nf = sp["documents"], sp["queries"], sp["features"]
    sizes = query_sizes(rng, n, nq)
    qid = np.repeat(np.arange(1, nq + 1), sizes)
    labels = rng.choice(len(LABEL_P), size=n, p=LABEL_P)
    pools = _column_pools(rng, nf)
    k = pools.shape[1]
    cols = np.arange(nf)
    informative = min(20, nf)
    h = hashlib.sha256()
    size = 0
    t0 = time.perf_counter()
    with atomic_writer(path) as fh:
        for a in range(0, n, rows_per_block):
            b = min(n, a + rows_per_block)
            idx = rng.integers(0, k, size=(b - a, nf))
            shift = (labels[a:b, None] * (k // 8) + rng.normal(0, k / 6, (b - a, informative)))
            idx[:, :informative] = np.clip(k // 4 + shift, 0, k - 1).astype(np.int64)
            toks = pools[cols, idx].tolist()
            head = [f"{y} qid:{q} " for y, q in zip(labels[a:b].tolist(), qid[a:b].tolist())]
            text = "".join(hd + " ".join(t) + "\n" for hd, t in zip(head, toks)).encode("ascii")
            fh.write(text)
            h.update(text)
            size += len(text)
            if log and (a // rows_per_block) % 25 == 0:
                log(f"  writing synthetic set: {b:,} / {n:,} documents "
                    f"({time.perf_counter() - t0:.0f} s)")
    record = {"spec": sp, "bytes": size, "sha256": "sha256:" + h.hexdigest()}
    with atomic_writer(path.with_suffix(".json")) as fh:
        fh.write(json.dumps(record, indent=1).encode())
    return record


def synthetic_set(sp: dict | None = None, root: Path | None = None, log=print) -> tuple[Path, dict]:
    """The synthetic set's path and record: reused when its sidecar has the same spec and the
    file's size and sha256 match it, written (again) otherwise."""
    sp = sp or spec(**MSLR30K_FOLD1_TRAIN)
    log = log or (lambda *a: None)
    root = Path(root) if root is not None else cache_root() / "scale"
    name = f"letor-{sp['documents']}x{sp['features']}-q{sp['queries']}-s{sp['seed']}-v{sp['format']}"
    path = root / f"{name}.txt"
    side = path.with_suffix(".json")
    if path.is_file() and side.is_file():
        try:
            record = json.loads(side.read_text())
        except ValueError:
            record = {}
        if (record.get("spec") == sp and record.get("bytes") == path.stat().st_size
                and file_checksums(path)["sha256"] == record.get("sha256")):
            return path, record
        log(f"  {path}: size or checksum differs from {side.name}; rewriting it")
    log(f"  writing {path} (once; reused by later runs)")
    return path, write_synthetic(path, sp, log=log)


def slice_of(path: Path, nbytes: int = SLICE_BYTES) -> Path:
    """The first ``nbytes`` of ``path`` cut after its last whole line (the whole file when it is
    smaller), written once beside it (atomically) and reused while its size matches."""
    with open(path, "rb") as fh:
        head = fh.read(nbytes)
    if len(head) == nbytes:
        head = head[:head.rfind(b"\n") + 1]
    out = path.with_name(f"{path.stem}.first{len(head)}.txt")
    if not (out.is_file() and out.stat().st_size == len(head)):
        with atomic_writer(out) as fh:
            fh.write(head)
    return out


# --- measurements in child processes ------------------------------------------------------

def _status_kb(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def peak_rss() -> int:
    """Peak resident memory of this process so far, bytes (VmHWM, else ru_maxrss)."""
    kb = _status_kb("VmHWM")
    if kb is None:
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb * 1024


def current_rss() -> int:
    kb = _status_kb("VmRSS")
    return (kb or 0) * 1024


def reset_peak() -> bool:
    """Reset VmHWM to the current RSS (Linux ≥ 4.0); False where that is not possible."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _child_parse(path: str, n_features: int, threads: int | None = None,
                 chunk_bytes: int | None = None) -> dict:
    rss0 = current_rss()
    t0, c0 = time.perf_counter(), time.process_time()
    s = LetorStream(path, threads=threads, chunk_bytes=chunk_bytes)
    d = s.read(n_features)                      # one pass (the width is given)
    t1 = time.perf_counter()
    return {"seconds": t1 - t0, "cpu_seconds": time.process_time() - c0, "threads": s.threads,
            "peak_rss": peak_rss(), "rss_before": rss0, "documents": d.n_docs,
            "queries": d.n_queries, "features": d.n_features, "matrix_bytes": int(d.X.nbytes)}


def read_bandwidth(X: np.ndarray, threads: int, repeats: int = 3) -> float:
    """Streaming read bandwidth of one pass over ``X`` (bytes/s, best of ``repeats``): X·1
    over ``threads`` contiguous row ranges at once (BLAS single-threaded; dgemv releases the
    GIL) — the access pattern of one pass of the fit (f, or one Hessian-vector product)."""
    from concurrent.futures import ThreadPoolExecutor
    v = np.ones(X.shape[1])
    cuts = np.linspace(0, X.shape[0], threads + 1).astype(int)
    best = float("inf")
    with single_thread_blas(), ThreadPoolExecutor(threads) as pool:
        for _ in range(repeats):
            t0 = time.perf_counter()
            for f in [pool.submit(lambda a, b: X[a:b] @ v, a, b)
                      for a, b in zip(cuts[:-1], cuts[1:])]:
                f.result()
            best = min(best, time.perf_counter() - t0)
    return X.nbytes / best


def _child_tron(path: str, n_features: int, C: float, eps: float, threads: int = 1,
                solver: str = "tron") -> dict:
    from ..rankers import RankSVM          # here: the parse children need no rankers
    d = LetorStream(path).read(n_features)
    bandwidth = read_bandwidth(d.X, threads)
    rss_data = current_rss()
    resettable = reset_peak()
    with single_thread_blas():            # BLAS single-threaded; the fit's own threads
        t0, c0 = time.perf_counter(), time.process_time()
        model = RankSVM(C=C, eps=eps, method="tree", threads=threads,
                        solver=solver).fit_data(d)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    r = model.result_
    return {"seconds": seconds, "cpu_seconds": cpu, "peak_rss": peak_rss(), "threads": threads,
            "w_sha256": hashlib.sha256(np.ascontiguousarray(model.coef_).tobytes()).hexdigest(),
            "rss_with_data": rss_data,
            "peak_is_fit_only": resettable, "newton_iterations": r.n_iter, "cg_iterations": r.n_cg,
            "function_evaluations": r.n_fun, "status": r.status, "f": r.f,
            "relative_gnorm": r.relative_gnorm, "pairs": int(model.n_pairs_),
            "matrix_bytes": int(d.X.nbytes), "read_bytes_per_s": bandwidth}


def _child_paper_run(data_dir: str, spec: dict, task: str) -> dict:
    """The run ``spec`` (a :class:`repro.spec.RunSpec`'s fields) by its task ``task``
    (``module:function``), as the runner would execute it."""
    import importlib
    module, name = task.split(":")
    fn = getattr(importlib.import_module(module), name)
    spec_ = RunSpec(**spec)
    ctx = RunContext(spec_, Path(data_dir), log=lambda *a, **k: None)
    with single_thread_blas():
        t0 = time.perf_counter()
        out = fn(ctx)
        seconds = time.perf_counter() - t0
    return {"seconds": seconds, "peak_rss": peak_rss(), "run": spec_.label,
            "records": out["records"], "tron_status": out.get("tron_status")}


CHILDREN = {"parse": _child_parse, "tron": _child_tron, "paper_run": _child_paper_run}


def run_child(name: str, *args, timeout: float = 3600) -> dict:
    """Run ``CHILDREN[name](*args)`` in a fresh interpreter; its JSON result."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, "-m", "repro.bench.scale", name, json.dumps(list(args))]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    if proc.returncode != 0:
        raise ReproError(f"bench scale: the {name} child failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _gib(b: float) -> float:
    return round(b / 2**30, 3)


def parse_rows(path: Path, record: dict, sp: dict, runs: int = 3, peer_repeats: int = 3,
               slice_bytes: int = SLICE_BYTES) -> list[dict]:
    """The parse rows: the full file ``runs`` times in fresh children, then its first
    ``slice_bytes`` against scikit-learn's reader in interleaved rounds (in this process)."""
    mb = record["bytes"] / 1e6
    nf = sp["features"]
    before = load_average()
    parses = []
    for _ in range(runs):
        parses.append(run_child("parse", str(path), nf))
        print(f"  parse: {json.dumps(parses[-1])}", flush=True)
    parse = parses[0]
    secs = [p["seconds"] for p in parses]
    mbs = spread(mb / s for s in secs)
    peak = max(p["peak_rss"] for p in parses)
    bound = PARSE_MEMORY_BOUND * parse["matrix_bytes"]
    cpu = statistics.median(p["cpu_seconds"] for p in parses)
    rows = [{
        "name": f"streaming LETOR parse, {sp['documents']:,} × {sp['features']} "
                f"({mb:,.0f} MB text)",
        "params": {"input": f"synthetic, MSLR-WEB30K Fold1 train size, seed {sp['seed']}",
                   "documents": parse["documents"], "queries": parse["queries"],
                   "features": parse["features"], "MB": round(mb, 1),
                   "threads": parse["threads"], "runs": runs},
        "ours_s": statistics.median(secs), "peers_s": {}, "ratios": {},
        "seconds": {"min": min(secs), "median": statistics.median(secs), "max": max(secs)},
        "throughput_MB_s": {k: round(v, 1) for k, v in mbs.items()},
        "cpu_s": round(cpu, 2),
        "throughput_MB_per_cpu_s": round(mb / cpu, 1),
        "passes": 1,
        "throughput_goal": f"≥ {PARSE_GOAL_MB_S:.0f} MB/s wall (median of {runs} runs): "
                           + ("met" if mbs["median"] >= PARSE_GOAL_MB_S else "not met")
                           + "; wall time is only representative on an otherwise idle "
                             "machine (see the load averages)",
        "peak_rss_GiB": _gib(peak),
        "matrix_GiB": _gib(parse["matrix_bytes"]),
        "peak_over_matrix": round(peak / parse["matrix_bytes"], 3),
        "growth_over_matrix": round(max(p["peak_rss"] - p["rss_before"] for p in parses)
                                    / parse["matrix_bytes"], 3),
        "memory_bound": f"≤ {PARSE_MEMORY_BOUND}× the matrix ({_gib(bound)} GiB): "
                        + ("met" if peak <= bound else "not met")
                        + " (peak of the whole child, interpreter included)",
        "interpreter_rss_GiB": _gib(parse["rss_before"]),
        "machine": machine(), "cpu_model": cpu_model(),
        "load_average_before": before, "load_average_after": load_average()}]
    small = slice_of(path, slice_bytes)
    small_mb = small.stat().st_size / 1e6
    fns = {"ours": lambda: LetorStream(small).read(nf)}
    if load_svmlight_file is not None:
        fns["scikit-learn load_svmlight_file"] = lambda: load_svmlight_file(
            str(small), query_id=True, n_features=nf)
    timings = interleaved(fns, repeats=peer_repeats, warmup=0)
    rows.append(case(
        f"LETOR parse of the first {small_mb:,.0f} MB of the same file, against a peer",
        {"input": f"{small.name} (cut at a line end)", "MB": round(small_mb, 1),
         "threads": default_threads()}, timings,
        throughput_MB_s={k: round(small_mb / timings.median(k), 1) for k in fns},
        throughput_MB_s_best={k: round(small_mb / min(v), 1) for k, v in timings.times.items()},
        machine=machine()))
    return rows


def bench(data_dir, quick: bool, sp: dict | None = None, runs: int = 3,
          paper_runs: list[dict] = ()) -> list[dict]:
    """The measurements above, as benchmark rows (``ours_s`` = the time; the full-size rows
    have no peers: the reference point is the matrix size and the 1.5× memory bound).
    ``paper_runs``: the runs the papers declare for this benchmark, resolved by the command
    line (each ``{"paper", "label", "dataset", "fold", "spec": RunSpec fields, "task":
    "module:function"}``).
    ``quick``: a set 1/20 of the size and a 20 MB slice for the peer (for smoke runs; the
    figures then do not speak for MSLR's size)."""
    if sp is None:
        sp = spec(**MSLR30K_FOLD1_TRAIN)
        if quick:
            sp = spec(sp["documents"] // 20, sp["queries"] // 20, sp["features"])
    path, record = synthetic_set(sp)
    rows = parse_rows(path, record, sp, runs=runs,
                      slice_bytes=SLICE_BYTES // 10 if quick else SLICE_BYTES)
    where = {"machine": machine(), "cpu_model": cpu_model(),
             "load_average_before": load_average()}
    fits = {}
    for threads in (1, 2):
        fits[threads] = run_child("tron", str(path), sp["features"], 1.0, 1e-3, threads)
        print(f"  tron ({threads} thread(s)): {json.dumps(fits[threads])}", flush=True)
    pcg = run_child("tron", str(path), sp["features"], 1.0, 1e-3, 2, "pcg-tron")
    print(f"  tron with diagonal PCG (2 threads): {json.dumps(pcg)}", flush=True)
    tr = fits[2]
    same = all(fits[1][k] == fits[2][k] for k in ("w_sha256", "newton_iterations",
                                                     "cg_iterations", "f"))
    passes = int(tr["function_evaluations"]) + int(tr["cg_iterations"])
    bound = passes * tr["matrix_bytes"] / tr["read_bytes_per_s"]
    rows.append({
        "name": f"Tree-TRON fit, C = 1, ε = 0.001, {sp['documents']:,} documents, 2 threads "
                f"(peer: the same fit on 1 thread)",
        "params": {"input": "the same synthetic set", "C": 1.0, "eps": 1e-3,
                   "method": "tree", "threads": 2, "pairs": tr["pairs"]},
        "ours_s": tr["seconds"], "peers_s": {"1 thread": fits[1]["seconds"]},
        "ratios": {"1 thread": fits[1]["seconds"] / tr["seconds"]},
        "bit_identical_1_vs_2_threads": same,
        "time_goal": (f"≤ 75 s on 2 cores: {tr['seconds']:.0f} s "
                      f"({'met' if tr['seconds'] <= 75 else 'not met'}; the streaming bound "
                      f"is {bound:.0f} s)"),
        "memory_bound": {
            "passes_over_X": passes, "matrix_GB": tr["matrix_bytes"] / 1e9,
            "read_GBps_1_thread": fits[1]["read_bytes_per_s"] / 1e9,
            "read_GBps_2_threads": tr["read_bytes_per_s"] / 1e9, "bound_s": bound,
            "note": "every function evaluation and every Hessian-vector product reads X once "
                    "(blocked: Xw and Xᵀu while a block is in cache); the bound is those "
                    "passes at the read bandwidth measured on the same matrix with 2 threads "
                    "(X·1 on two row halves at once), before the fit"},
        "cpu_s": round(tr["cpu_seconds"], 2),
        "newton_iterations": tr["newton_iterations"], "cg_iterations": tr["cg_iterations"],
        "status": tr["status"], "relative_gnorm": tr["relative_gnorm"],
        "peak_rss_GiB": _gib(tr["peak_rss"]), "rss_with_data_GiB": _gib(tr["rss_with_data"]),
        "peak_note": ("peak of the fit alone (VmHWM reset after loading)"
                      if tr["peak_is_fit_only"] else "peak of the whole child (parse included)"),
        "matrix_GiB": _gib(tr["matrix_bytes"]),
        "time_bound": (f"under 5 minutes: wall {tr['seconds']:.0f} s "
                       f"({'met' if tr['seconds'] < 300 else 'not met'}), CPU "
                       f"{tr['cpu_seconds']:.0f} s ({'met' if tr['cpu_seconds'] < 300 else 'not met'})"
                       "; wall time is only representative on an otherwise idle machine "
                       "(see the load averages)"),
        **where, "load_average_after": load_average()})
    rows.append({
        "name": f"Tree-TRON with diagonal PCG (RankSVM solver='pcg-tron', beyond the paper), "
                f"C = 1, ε = 0.001, {sp['documents']:,} documents, 2 threads (peer: the "
                f"paper's TRON, the row above)",
        "params": {"input": "the same synthetic set", "C": 1.0, "eps": 1e-3, "method": "tree",
                   "threads": 2, "solver": "pcg-tron", "pcg_mix": 0.01},
        "ours_s": pcg["seconds"], "peers_s": {"TRON (2 threads)": tr["seconds"]},
        "ratios": {"TRON (2 threads)": tr["seconds"] / pcg["seconds"]},
        "time_goal": (f"≤ 40 s on 2 cores: {pcg['seconds']:.0f} s "
                      f"({'met' if pcg['seconds'] <= 40 else 'not met'})"),
        "newton_iterations": {"pcg-tron": pcg["newton_iterations"],
                              "tron": tr["newton_iterations"]},
        "cg_iterations": {"pcg-tron": pcg["cg_iterations"], "tron": tr["cg_iterations"]},
        "function_evaluations": {"pcg-tron": pcg["function_evaluations"],
                                 "tron": tr["function_evaluations"]},
        "objective": {"pcg-tron": pcg["f"], "tron": tr["f"]},
        "objective_relative_difference": (pcg["f"] - tr["f"]) / tr["f"],
        "relative_gnorm": {"pcg-tron": pcg["relative_gnorm"], "tron": tr["relative_gnorm"]},
        "status": pcg["status"], "cpu_s": round(pcg["cpu_seconds"], 2),
        "peak_rss_GiB": _gib(pcg["peak_rss"]), **where, "load_average_after": load_average()})
    root = cat.data_dir(data_dir)
    for run in paper_runs if not quick else []:
        if not cat.data_state(run["dataset"], root)[0]:
            continue
        got = run_child("paper_run", str(root.resolve()), run["spec"], run["task"],
                        timeout=6 * 3600)
        rows.append({
            "name": f"{run['paper']} {run['label']} on {run['dataset']} Fold{run['fold']} "
                    f"(the user's copy)",
            "params": {"run": got["run"]}, "ours_s": got["seconds"], "peers_s": {},
            "ratios": {}, "peak_rss_GiB": _gib(got["peak_rss"]),
            "records": got["records"], **where})
    return rows


if __name__ == "__main__":          # a child: python -m repro.bench.scale NAME '[args]'
    result = CHILDREN[sys.argv[1]](*json.loads(sys.argv[2]))
    print(json.dumps(result, default=float))
