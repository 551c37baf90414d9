"""Pevzner & Hearst (2002), section 4: Pk, P'k and WindowDiff on simulated segmentations (Tables 1-3).

One *trial* draws a reference of 1,000 segments with sizes uniform on a range, then
``hypotheses`` hypotheses with errors of one type and probability, scores each against the
reference and averages; the cell is the mean of ``trials`` such averages (the paper: 10 trials of
100 hypotheses). Table 1: p = 0.5; Table 2: p = 0.05 and 0.25; both over four ranges with error
types FN, FP, FNP. Table 3: range (15, 35), p = 0.5, error types FN, FP1-FP3, FNP1-FNP3. The error
types are defined in :mod:`tvseg.simulate.generators` (false positives are never placed on a
reference boundary, so in FNP2 and FNP3 they never restore a dropped one).

Conventions (the reading of the paper that reproduces its numbers):

- segment sizes are integers uniform on ``lo .. hi - 1`` (mean 24.5);
- ``k`` is half the mean segment size of the range, rounded down: 12 for every range and every
  trial (:func:`tvseg.simulate.study.window_size`);
- ``N - k`` probes (windows of ``k`` consecutive gaps), as in the paper's WindowDiff formula;
- :math:`P_k = (m + f) / (N - k)` and :math:`P'_k = (m + 2 f) / (N - k)`, where ``m`` counts the
  probes whose ends the reference separates and the hypothesis does not (misses) and ``f`` the
  opposite (false alarms): "the :math:`P_k` metric modified to double the false positive penalty";
- :math:`WD = \\frac{1}{N-k} \\sum_{i=1}^{N-k} [\\, b(ref_i, ref_{i+k}) \\ne b(hyp_i, hyp_{i+k}) \\,]`.

References are *stratified* by default (each size equally often, in random order:
:func:`tvseg.simulate.generators.stratified_reference_masses`); ``references="iid"`` draws every
size independently, as the paper describes. Both estimate the same expected values (over seeds
0-19 the 129 cell means of the two designs differ by z-scores of mean 0.02, sd 0.65, largest 2.1),
but the stratified design's 10-trial cells vary less from seed to seed on the wide ranges (standard
deviation over seeds divided by 1.9 in the median (5, 45) cell, by 5.7 for Table 1 FN (5, 45) WD:
0.0011 with independent sizes, 0.0002 stratified). What is left of a difference is then mostly the
paper's own sampling error and its rounding to 3 decimals.

Two residuals are systematic, in Table 3: FP2 (WD +0.0035) and FNP2 (Pk -0.0039, WD -0.0031). The
published FNP2 is not consistent with the published FP2 under independent FN and FP: the false
alarms (:math:`P'_k - P_k`) of FNP equal those of FP in expectation (a probe without a reference
boundary sees only false positives), and the tables agree to 0.001 for every other pair, but give
0.087 for FNP2 against 0.091 for FP2. No reading of FP2 the text allows (scale of the next,
previous or mean segment; rounding, truncation; zero offsets kept or drawn again) fits both columns.

References
----------
Pevzner, L. and Hearst, M. A. (2002). A critique and improvement of an evaluation metric for text
segmentation. Computational Linguistics 28(1), 19-36. Section 4, Tables 1-3.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from tvseg.simulate.published import METRICS, RANGES, pevzner_hearst_value
from tvseg.simulate.study import REFERENCES, Cell, run_cells, window_size  # noqa: F401 (re-exported)

__all__ = ["TABLES", "experiments", "window_size", "window_metrics", "run"]

TABLES = ("1", "2", "3")


def experiments(tables: Iterable[str] = TABLES) -> list[tuple[str, str, float, tuple[int, int]]]:
    """The experiments ``(table, errors, p, range)`` of the requested tables, in the paper's order."""
    out = []
    for table in tables:
        if table == "1":
            out += [("1", e, 0.5, r) for e in ("FN", "FP", "FNP") for r in RANGES]
        elif table == "2":
            out += [("2", e, p, r) for p in (0.05, 0.25) for e in ("FN", "FP", "FNP") for r in RANGES]
        elif table == "3":
            out += [("3", e, 0.5, (15, 35)) for e in ("FN", "FP1", "FP2", "FP3", "FNP1", "FNP2", "FNP3")]
        else:
            raise ValueError(f"Pevzner & Hearst have tables 1, 2 and 3, not {table!r}")
    return out


def window_metrics(masses: np.ndarray, hypotheses: np.ndarray, k: int) -> dict:
    """:math:`P_k`, :math:`P'_k` and WindowDiff of each hypothesis, from one pass of the window kernel
    (:func:`tvseg.unit.windows.window_counts`) over every (reference, hypothesis) pair."""
    from tvseg.unit.conventions import geometry
    from tvseg.unit.masses import BoundaryPairs
    from tvseg.unit.windows import window_counts

    pairs = BoundaryPairs.against(masses, hypotheses)
    counts = window_counts(pairs, geometry(pairs.n, pairs.reference_segments(), k, "paper"), summed=False)
    assert counts.miss is not None and counts.false_alarm is not None and counts.errors is not None  # all counted
    windows = counts.windows.astype(float)
    return {
        "pk": (counts.miss + counts.false_alarm) / windows,
        "pk_prime": (counts.miss + 2 * counts.false_alarm) / windows,
        "windowdiff": counts.errors / windows,
    }


def run(
    *,
    tables: Iterable[str] = TABLES,
    trials: int = 10,
    n_hypotheses: int = 100,
    seed: int = 0,
    jobs: int = 1,
    references: str = REFERENCES,
    metrics=window_metrics,
) -> list[Cell]:
    """Re-run Pevzner & Hearst's Tables ``tables``; one :class:`Cell` per printed number.

    Every trial has the same number of hypotheses, so the mean of the trial means is the mean over all
    hypotheses. ``jobs > 1`` runs experiments in worker processes; the numbers do not change, since
    each experiment has its own random stream (:func:`tvseg.simulate.study.experiment_rng`).
    ``references`` is ``"stratified"`` (default) or ``"iid"`` (see the module's docstring).
    """
    return run_cells(
        "pevzner-hearst",
        experiments(tables),
        METRICS,
        published=lambda *cell: (pevzner_hearst_value(*cell), None),
        trials=trials,
        n_hypotheses=n_hypotheses,
        seed=seed,
        jobs=jobs,
        metrics=metrics,
        references=references,
    )
