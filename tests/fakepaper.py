"""A tiny paper module for testing the runner, cache and reports (registered by the tests)."""
from dataclasses import dataclass
from pathlib import Path

from repro.data.synthetic import make_queries
from repro.evidence import Evidence
from repro.spec import Artifact, Judging, Paper, RunLayout, Shown
from repro.spec.params import StudyParams, study
from repro.judge.kinds import FoldMean
from repro.evidence.record import record
from repro.metrics import evaluate_data
from repro.evidence.protocol import measured

PAPER = Paper(id="fakepaper", title="A fake paper", authors="A. Tester", venue="tests",
              text="none.txt")
PUBLISHED_PATH = Path(__file__).parent / "fixtures" / "fakepaper.toml"
NOTES = ["A note."]
CALLS = []           # (task, dataset, fold) of every execution, to detect recomputation


@dataclass(frozen=True)
class NoiseParams(StudyParams):
    """``x``: the constant recorded; ``fail_on``: the fold whose run raises (None: none)."""
    x: float
    fail_on: int | None = None


@study(NoiseParams)
def task_noise(ctx):
    """Seeded draws: the value depends only on the run's identity."""
    p = NoiseParams.of(ctx)
    CALLS.append(("noise", ctx.dataset, ctx.fold))
    if p.fail_on == ctx.fold:
        raise RuntimeError(f"planned failure on fold {ctx.fold}")
    rng = ctx.rng()
    return {"records": [record("draw", "u", float(rng.random())),
                        record("const", "x", p.x)],
            "seed": ctx.seed}


def task_map(ctx):
    CALLS.append(("map", ctx.dataset, ctx.fold))
    d = make_queries(30, (2, 9), 5, seed=ctx.seed)
    scores = d.X[:, 0]
    return {"records": [record("feature1", "MAP", evaluate_data(d, scores).map)]}


def task_evidence(ctx):
    """The contract of a task (repro.evidence): each test measure with its per-query values,
    a value that is not a mean over queries, and free-form detail for a figure."""
    d = make_queries(30, (2, 9), 5, seed=ctx.seed)
    ev = Evidence(n_queries=d.n_queries)
    for j in range(2):
        ev.measured(f"feature{j + 1}", measured(d, d.X[:, j], ("MAP", "NDCG@5")), ctx.fold)
    ev.value("feature1", "documents", int(d.n_docs), ctx.fold)
    return ev.output()


@dataclass(frozen=True)
class SlowParams(StudyParams):
    """``sleep``: seconds of the pause; ``die_once``: see :func:`task_slow`."""
    sleep: float = 0.0
    die_once: str | None = None


@study(SlowParams)
def task_slow(ctx):
    """Seeded draws after a pause; if ``die_once`` names a file that does not exist, creates
    it and kills its own process (a worker dying mid-run), so a resubmitted run completes."""
    import os
    import time
    p = SlowParams.of(ctx)
    marker = p.die_once
    if marker and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    time.sleep(p.sleep)
    rng = ctx.rng()
    return {"records": [record("draw", "u", float(rng.random())),
                        record("normal", "z", float(rng.normal()))]}


def task_blas(ctx):
    """Products whose last bits depend on the BLAS thread count when it is not limited
    (OpenBLAS splits 15,211 × 46 products across threads): a digest of X @ w and Xᵀu."""
    import hashlib

    rng = ctx.rng()
    X = rng.normal(size=(15211, 46))
    z = X @ rng.normal(size=46)
    g = X.T @ rng.normal(size=15211)
    digest = hashlib.sha256(z.tobytes() + g.tobytes()).hexdigest()
    return {"records": [record("blas", "digest", int(digest[:12], 16))]}


@dataclass(frozen=True)
class DesignParams(StudyParams):
    """``methods``: the methods a part computes."""
    methods: list


#: each method's value in replicate r: its level + OFFSETS[r % 3] · spread
DESIGN_LEVELS = {"open": (0.5, 0.003), "far": (0.9, 0.003), "exact": (0.5, 0.0)}
OFFSETS = (1.0, -1.0, 0.0)


@study(DesignParams)
def task_design(ctx):
    """Values with a known spread over replicates (for the two-stage design): "open" is
    inconclusive on 3 replicates and reproduced on 8, "far" deviates, "exact" is exact."""
    p = DesignParams.of(ctx)
    r = ctx.spec.repeat
    CALLS.append(("design", ctx.spec.part, r))
    return {"records": [record(m, "MAP", DESIGN_LEVELS[m][0] + OFFSETS[r % 3] *
                               DESIGN_LEVELS[m][1]) for m in p.methods]}


def figure_noise(art, results, flat, published):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([r["value"] for r in flat if r["metric"] == "u" and r["value"] is not None], "o")
    return {"": fig}


ARTIFACTS = [
    Artifact(
        "fakepaper", "table1", "Seeded draws", task="task_noise",
        layout=RunLayout(
            datasets=("synthetic",), folds=(1, 2, 3), params={"x": 2.0}, quick={"folds": (1,)}),
        shown=Shown(figure="figure_noise", choices=("A choice the paper left open.",))),
    Artifact(
        "fakepaper", "table2", "Needs missing data", task="task_map",
        layout=RunLayout(datasets=("MQ2007",), folds=(1,))),
    Artifact(
        "fakepaper", "table3", "Not implemented",
        layout=RunLayout(datasets=("synthetic",))),
    Artifact(
        "fakepaper", "table4", "MAP of a feature", task="task_map",
        layout=RunLayout(datasets=("synthetic",))),
    Artifact(
        "fakepaper", "table5", "Slow seeded draws", task="task_slow",
        layout=RunLayout(datasets=("synthetic",), folds=(1, 2, 3, 4), params={"sleep": 0.2})),
    Artifact(
        "fakepaper", "table6", "Two features with per-query evidence", task="task_evidence",
        layout=RunLayout(datasets=("synthetic",), folds=(1, 2, 3)),
        judging=Judging(
            aggregate=(FoldMean(select={"metric": ["MAP", "NDCG@5"]}),),
            select={"metric": ["MAP", "NDCG@5"]})),
    Artifact(
        "fakepaper", "table7", "A two-stage replicate design", task="task_design",
        layout=RunLayout(
            datasets=("synthetic",), folds=(1, 2), params={"methods": []}, repeats=3, extend_to=8,
            split=(("a", {"methods": ["open", "exact"]}), ("b", {"methods": ["far"]})),
            quick={"repeats": 2, "extend_to": 0}),
        judging=Judging(aggregate=(FoldMean(select={"metric": ["MAP"]}),))),
]
