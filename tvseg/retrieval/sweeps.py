"""Scores as the coverage threshold gamma and the boundary tolerance vary (pooled over the corpus).

- :func:`gamma_sweep`: ``recall_n, precision_n, cov_n, recall_d, precision_d, cov_d`` for gamma from
  0.50 to 1.00 in steps of 0.01 (:data:`GAMMAS`; at 1.00 nothing is correct, the test being strict).
  One sort serves every gamma: each segment's key is the largest numerator ``g`` on the sweep's
  grid with ``g / scale`` below its coverage, computed exactly in integers
  (:func:`tvseg.exact.largest_numerator_below`); the segments correct at a gamma are those
  whose key reaches it (a ``searchsorted``), their duration a cumulative sum.
- :func:`tolerance_sweep`: ``boundary_precision, boundary_recall, boundary_f1`` for tolerances from 0
  to 30 s in steps of 1 s (:data:`TOLERANCES`), from the sizes of the maximum matchings found at each
  of them with the pairs (:func:`tvseg.retrieval.matching.match_boundaries`, run once per system).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd

from tvseg.exact import largest_numerator_below, ratio
from tvseg.metrics import compute, keys
from tvseg.retrieval.coverage import Partners

__all__ = ["GAMMAS", "TOLERANCES", "gamma_sweep", "tolerance_sweep"]

GAMMAS = np.round(np.arange(50, 101) / 100.0, 2)
TOLERANCES = np.arange(0, 31, dtype=float)
COVERAGE_METRICS = keys("coverage")
BOUNDARY_METRICS = keys("boundary")


def _correct_counts(side: Partners, duration: np.ndarray, gammas: list[Fraction]):
    """Number and summed duration of the segments of one side correct at each gamma, decided exactly."""
    scale = math.lcm(*(g.denominator for g in gammas))
    has = side.span_ticks > 0
    key = np.full(len(has), -1, dtype=np.int64)
    key[has] = largest_numerator_below(2 * side.overlap_ticks[has], side.span_ticks[has], scale)
    order = np.argsort(key, kind="stable")
    key, dur = key[order], duration[order]
    # correct at g = numerator / scale exactly when numerator <= key
    first = np.searchsorted(key, [g.numerator * (scale // g.denominator) for g in gammas], side="left")
    tail = np.concatenate([np.cumsum(dur[::-1])[::-1], [0.0]])
    return len(key) - first, tail[first]


def gamma_sweep(scores, gammas=GAMMAS) -> pd.DataFrame:
    """Pooled CovN/CovD of one system (a :class:`~tvseg.retrieval.corpus.ShowScores`) per gamma.

    Each gamma is taken as the decimal it is written as (:func:`tvseg.exact.ratio`) and
    every decision is the exact one of :func:`tvseg.retrieval.coverage.correct`.
    """
    gammas = np.asarray(gammas, dtype=float)
    exact = [ratio(g) for g in gammas]
    m = scores.matching
    n_r, d_r = _correct_counts(m.reference, scores.reference.duration, exact)
    n_h, d_h = _correct_counts(m.hypothesis, scores.hypothesis.duration, exact)
    sums = {
        "n_reference": len(scores.reference),
        "n_hypothesis": len(scores.hypothesis),
        "n_correct_reference": n_r,
        "n_correct_hypothesis": n_h,
        "duration_reference": scores.reference.duration.sum(),
        "duration_hypothesis": scores.hypothesis.duration.sum(),
        "duration_correct_reference": d_r,
        "duration_correct_hypothesis": d_h,
    }
    return _swept("gamma", gammas, sums, COVERAGE_METRICS)


def tolerance_sweep(scores, tolerances=TOLERANCES) -> pd.DataFrame:
    """Pooled boundary P/R/F of one system per tolerance (must be among those it was scored with)."""
    c = scores.components
    sums = {
        "boundary_n_reference": c["boundary_n_reference"].sum(),
        "boundary_n_hypothesis": c["boundary_n_hypothesis"].sum(),
        "boundary_n_matched": np.array([scores.boundary_matched[float(t)].sum() for t in tolerances]),
    }
    return _swept("tolerance", tolerances, sums, BOUNDARY_METRICS)


def _swept(name: str, settings, sums: dict, metrics: tuple[str, ...]) -> pd.DataFrame:
    """One row per setting: the metrics of the registry (:func:`tvseg.metrics.compute`) of the pooled
    ``sums``, some of them an array over the settings."""
    values = compute(sums)
    return pd.DataFrame({name: np.asarray(settings, dtype=float), **{k: values[k] for k in metrics}})
