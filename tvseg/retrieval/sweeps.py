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
from tvseg.rates import f_measure, rate

__all__ = ["GAMMAS", "TOLERANCES", "gamma_sweep", "tolerance_sweep"]

GAMMAS = np.round(np.arange(50, 101) / 100.0, 2)
TOLERANCES = np.arange(0, 31, dtype=float)


def _correct_counts(overlap_ticks: np.ndarray, span_ticks: np.ndarray, duration: np.ndarray, gammas: list[Fraction]):
    """Number and summed duration of the segments correct at each gamma, decided exactly."""
    scale = math.lcm(*(g.denominator for g in gammas))
    has = span_ticks > 0
    key = np.full(len(span_ticks), -1, dtype=np.int64)
    key[has] = largest_numerator_below(2 * overlap_ticks[has], span_ticks[has], scale)
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
    n_r, d_r = _correct_counts(m.reference_overlap_ticks, m.reference_span_ticks, scores.reference.duration, exact)
    n_h, d_h = _correct_counts(m.hypothesis_overlap_ticks, m.hypothesis_span_ticks, scores.hypothesis.duration, exact)
    r_n, p_n = rate(n_r, len(scores.reference)), rate(n_h, len(scores.hypothesis))
    r_d = rate(d_r, scores.reference.duration.sum())
    p_d = rate(d_h, scores.hypothesis.duration.sum())
    return pd.DataFrame(
        {
            "gamma": gammas,
            "recall_n": r_n,
            "precision_n": p_n,
            "cov_n": f_measure(p_n, r_n),
            "recall_d": r_d,
            "precision_d": p_d,
            "cov_d": f_measure(p_d, r_d),
        }
    )


def tolerance_sweep(scores, tolerances=TOLERANCES) -> pd.DataFrame:
    """Pooled boundary P/R/F of one system per tolerance (must be among those it was scored with)."""
    c = scores.components
    n_ref, n_hyp = c["boundary_n_reference"].sum(), c["boundary_n_hypothesis"].sum()
    matched = np.array([scores.boundary_matched[float(t)].sum() for t in tolerances])
    p, r = rate(matched, n_hyp), rate(matched, n_ref)
    return pd.DataFrame(
        {
            "tolerance": np.asarray(tolerances, dtype=float),
            "boundary_precision": p,
            "boundary_recall": r,
            "boundary_f1": f_measure(p, r),
        }
    )
