"""Aggregation kinds: values computed across an artifact's runs from its declarations
(``Judging.aggregate``), applied in declaration order when its records are gathered
(:func:`apply`, :mod:`repro.judge.assemble`).  Each kind is a frozen dataclass (the
declaration) beside the function computing it, in the module of its topic, registered in the
one registry (:mod:`.registry`: ``@kind(MyDeclaration)``):

* over folds (:mod:`.folds`): :class:`FoldMean`, :class:`FoldSpread`, :class:`SettingMeans`,
  :class:`PairedTest`;
* a printed table's cells (:mod:`.cells`): :class:`Cells`, :class:`CellsWithGap`,
  :class:`NotCheckable`;
* choosing and ranking (:mod:`.selection`): :class:`Best`, :class:`Ranks`,
  :class:`RanksWithPublished`;
* across records (:mod:`.across`): :class:`MicroAverage`, :class:`Spread`,
  :class:`Difference`;
* claims judged by paired tests (:mod:`.claims`, on the engine :mod:`repro.judge.claims`):
  :class:`Claim` (a record against others, intersection–union), :class:`CellClaim` (cell by
  cell on per-query tables: variants with Holm, trends, grid steps, pooled sets, summary
  rows; sides may come from a :class:`Grid` of the parameters), :class:`FoldClaim` (over
  folds, paired or one-sample);
* :class:`Custom` — a function of the paper's ``tasks`` module, for what no kind can say.

``docs/adding-a-paper.md`` lists them with what each computes.
"""
from .registry import KINDS, Custom, apply, kind, with_outputs, with_tables
from .folds import (FoldMean, FoldSpread, PairedTest, SettingMeans, fold_mean, fold_spread,
                    paired_test, setting_means)
from .cells import Cells, CellsWithGap, NotCheckable, cells, cells_with_gap, gap_text
from .selection import Best, Ranks, RanksWithPublished, best, ranks, ranks_with_published
from .across import Difference, MicroAverage, Spread, difference, micro_average, spread
from .claims import (FIRST, LAST, REST, CellClaim, Claim, FoldClaim, Grid, cell_claim, claim,
                     fold_claim)

__all__ = ["FIRST", "KINDS", "LAST", "REST", "Best", "CellClaim", "Cells", "CellsWithGap",
           "Claim", "Custom", "Difference", "FoldClaim", "FoldMean", "FoldSpread", "Grid",
           "MicroAverage", "NotCheckable", "PairedTest", "Ranks", "RanksWithPublished",
           "SettingMeans", "Spread", "apply", "best", "cell_claim", "cells", "cells_with_gap",
           "claim", "difference", "fold_claim", "fold_mean", "fold_spread", "gap_text", "kind",
           "micro_average", "paired_test", "ranks", "ranks_with_published", "setting_means",
           "spread", "with_outputs", "with_tables"]
