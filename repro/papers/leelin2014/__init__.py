"""Lee & Lin (2014), *Large-scale Linear RankSVM* (Neural Computation 26(4)), supplement:
L2-loss linear RankSVM solved by TRON with l_i^±, α_i^± counting (Sec. II), compared with the
cutting-plane TreeRankSVM (Sec. III), and the sparsity of its dual solution (Sec. IV).

Code: :mod:`repro.rankers.pair_counting` (the three counting methods, kernel
``kernels/pair_counting.pyx``), :mod:`repro.rankers.tron` (TRON), :mod:`repro.rankers.ranksvm`
(problem (3), the ``RankSVM`` ranker), :mod:`repro.rankers.cutting_plane` (problem (2) by the
bundle method of TreeRankSVM).

Tasks in :mod:`.tasks` (one study module each: ``sectionII``, ``tableI``, ``figureII`` and our
``complexity`` figure), figures in :mod:`.figures`; the benchmark against liblinear on explicit
pairs is the ``tron`` group of ``python -m repro bench`` (:mod:`repro.bench.tron`).

The report's words are in ``prose.md`` (:func:`repro.papers.prose.paper`); the code cites the
paper's sections and equations where they explain it.
"""
from __future__ import annotations

from ...spec import SAME_QUERIES, Artifact, Judging, Noise, RunLayout, Shown
from ...judge.published import load as load_published
from .. import prose



PROTOCOL = load_published("leelin2014").protocol
#: the report's words (prose.md) and the paper
PROSE, PAPER = prose.paper(__name__, order=3, id="leelin2014", text="002_75f2de2375fc1d0d.txt",
                           title='Supplement Materials for "Large-scale Linear RankSVM"',
                           authors="C.-P. Lee, C.-J. Lin",
                           venue="Neural Computation 26(4), 2014 (supplement)")
NOTES = PROSE.notes


# --- declarations --------------------------------------------------------------------------------

#: the run ``python -m repro bench scale`` times on the largest set, when the data is present
#: (handed to :mod:`repro.bench.scale` by the command line): Figure (II)'s task on MSLR-WEB30K
#: Fold1
SCALE_RUNS = ({"artifact": "figureII", "label": "Figure (II)", "dataset": "MSLR-WEB30K",
               "fold": 1},)
BENCH_INPUTS = {"scale": SCALE_RUNS}

#: which variation separates our values from the published ones: none but arithmetic
NOISE = Noise(SAME_QUERIES, (), why=(
    "the data are the supplement's own sets and splits, and TRON and the cutting-plane method "
    "are deterministic: one run, whose difference from the paper's value is exact; "
    "arithmetic is checked with `python -m repro stability`"))

_FIG_SETS = ("MQ2007", "MQ2008", "MSLR-WEB30K", "Yahoo-set1", "Yahoo-set2", "MQ2007-list",
             "MQ2008-list")
_TABLE_SETS = ("MQ2007", "MQ2008", "Yahoo-set2", "MQ2007-list", "MQ2008-list")

ARTIFACTS = [
    PROSE.describe(Artifact(
        "leelin2014", "sectionII", "Worked example of the direct counting method (Sec. II.1)",
        kind="check", task="task_section_ii",
        layout=RunLayout(datasets=("synthetic",)))),
    PROSE.describe(Artifact(
        "leelin2014", "tableI",
        f"Percentage of zero dual variables of the L2-loss problem at C = {PROTOCOL['table_I_C']}",
        task="task_table_i",
        layout=RunLayout(
            datasets=_TABLE_SETS, folds={"*": (1, 2, 3, 4, 5, "all"), "Yahoo-set2": (None,)},
            params={"C": PROTOCOL["table_I_C"], "eps": PROTOCOL["table_I_eps"],
                    "eps_sensitivity": PROTOCOL["table_I_eps_sensitivity"],
                    "sensitivity_fold": 1, "max_iter": 1000},
            quick={"folds": {"*": (1,), "Yahoo-set2": (None,)},
                   "params": {"eps_sensitivity": []}}),
        judging=Judging(noise=NOISE)),
        C=PROTOCOL["table_I_C"], eps=f"{PROTOCOL['table_I_eps']:g}"),
    PROSE.describe(Artifact(
        "leelin2014", "figureII",
        "TRON vs cutting plane: relative function value, pairwise accuracy, NDCG against iterations",
        kind="figure", task="task_figure_ii",
        layout=RunLayout(
            datasets=_FIG_SETS, folds={"*": (1,), "Yahoo-set1": (None,), "Yahoo-set2": (None,)},
            params={"C_L2": PROTOCOL["figure_II_C_L2"], "C_L1": PROTOCOL["figure_II_C_L1"],
                    "tron_eps": PROTOCOL["figure_II_tron_eps"],
                    "default_eps": PROTOCOL["tron_default_eps"],
                    "cp_eps": PROTOCOL["figure_II_cp_eps"],
                    "cp_max_iter": PROTOCOL["figure_II_cp_max_iter"], "tron_max_iter": 1000},
            quick={"params": {"cp_max_iter": 60, "tron_eps": 1e-5}}),
        judging=Judging(noise=NOISE),
        shown=Shown(figure="figure_ii"))),
    PROSE.describe(Artifact(
        "leelin2014", "complexity",
        "Operations and time of f, ∇f and Hv against l for the counting methods "
        "(our figure)", kind="figure", task="task_complexity",
        layout=RunLayout(
            datasets=("synthetic",),
            params={"sizes": [250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000],
                    "levels": [2, 5, 100, "l"], "n_features": 20, "repeats": 5, "min_seconds": 0.02,
                    "max_pairs": 1.3e7, "max_lk": 1.1e8, "fit_from": 8000,
                    "pairs_fit_from": 1000}, timing=True,
            quick={"params": {"sizes": [250, 500, 1000, 2000, 4000], "repeats": 3,
                              "max_pairs": 2.1e6, "fit_from": 1000}}),
        shown=Shown(figure="figure_complexity"))),
]
