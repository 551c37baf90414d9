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
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pandas as pd

from tvseg.exact import largest_numerator_below, ratio
from tvseg.metrics import compute, keys
from tvseg.retrieval.coverage import Partners

__all__ = ["GAMMAS", "TOLERANCES", "SweepTallies", "sweep_tallies", "join_tallies", "gamma_sweep", "tolerance_sweep"]

GAMMAS = np.round(np.arange(50, 101) / 100.0, 2)
TOLERANCES = np.arange(0, 31, dtype=float)
COVERAGE_METRICS = keys("coverage")
BOUNDARY_METRICS = keys("boundary")


class SweepTallies(NamedTuple):
    """What the sweeps need of one system on a shard of shows, kept when its segments are dropped
    (:func:`sweep_tallies`); the tallies of consecutive shards joined (:func:`join_tallies`) are the
    corpus's, and give the same sweeps, bit for bit, as its segments would.

    ``reference_key``, ``hypothesis_key``: each segment's largest numerator on the gamma grid below its
    coverage (-1: no span), in segment order; ``reference_duration``, ``hypothesis_duration``: its
    duration in seconds; ``matched``: the boundaries matched at each tolerance of the sweep, summed
    over the shard's shows (whole numbers: their sum is exact in any order).
    """

    reference_key: np.ndarray
    reference_duration: np.ndarray
    hypothesis_key: np.ndarray
    hypothesis_duration: np.ndarray
    matched: np.ndarray


def _scale(gammas) -> tuple[list[Fraction], int]:
    exact = [ratio(g) for g in np.asarray(gammas, dtype=float)]
    return exact, math.lcm(*(g.denominator for g in exact))


def _keys(side: Partners, scale: int) -> np.ndarray:
    has = side.span_ticks > 0
    key = np.full(len(has), -1, dtype=np.int64)
    key[has] = largest_numerator_below(2 * side.overlap_ticks[has], side.span_ticks[has], scale)
    return key.astype(np.min_scalar_type(-scale - 1)) if scale < 2**15 else key


def sweep_tallies(scores, *, gammas=GAMMAS, tolerances=TOLERANCES) -> SweepTallies:
    """The :class:`SweepTallies` of one system scored on a shard (a
    :class:`~tvseg.retrieval.corpus.ShowScores`, scored with ``tolerances`` among its sweep's)."""
    _, scale = _scale(gammas)
    m = scores.matching
    matched = np.array([scores.boundary_matched[float(t)].sum() for t in tolerances], dtype=float)
    return SweepTallies(
        _keys(m.reference, scale),
        scores.reference.duration,
        _keys(m.hypothesis, scale),
        scores.hypothesis.duration,
        matched,
    )


def join_tallies(parts: Sequence[SweepTallies]) -> SweepTallies:
    """The tallies of consecutive shards as the corpus's (one part: itself)."""
    if len(parts) == 1:
        return parts[0]
    return SweepTallies(
        np.concatenate([p.reference_key for p in parts]),
        np.concatenate([p.reference_duration for p in parts]),
        np.concatenate([p.hypothesis_key for p in parts]),
        np.concatenate([p.hypothesis_duration for p in parts]),
        np.sum([p.matched for p in parts], axis=0),
    )


def _correct_counts(key: np.ndarray, duration: np.ndarray, gammas: list[Fraction], scale: int):
    """Number and summed duration of the segments of one side correct at each gamma, decided exactly."""
    n = len(key)
    order = np.argsort(key, kind="stable")
    # correct at g = numerator / scale exactly when numerator <= key
    first = np.searchsorted(key[order], [g.numerator * (scale // g.denominator) for g in gammas], side="left")
    dur = duration[order]
    del order  # freed before the sum: fewer arrays of the corpus's segments held at once
    tail = np.cumsum(dur[::-1])[::-1]  # tail[i]: the durations from i on, summed from the last
    del dur
    return n - first, np.append(tail, 0.0)[first]


def gamma_sweep(tallies: SweepTallies, gammas=GAMMAS) -> pd.DataFrame:
    """Pooled CovN/CovD of one system per gamma, from its :class:`SweepTallies` (made with the same
    ``gammas``).

    Each gamma is taken as the decimal it is written as (:func:`tvseg.exact.ratio`) and
    every decision is the exact one of :func:`tvseg.retrieval.coverage.correct`.
    """
    exact, scale = _scale(gammas)
    t = tallies
    n_r, d_r = _correct_counts(t.reference_key, t.reference_duration, exact, scale)
    n_h, d_h = _correct_counts(t.hypothesis_key, t.hypothesis_duration, exact, scale)
    sums = {
        "n_reference": len(t.reference_key),
        "n_hypothesis": len(t.hypothesis_key),
        "n_correct_reference": n_r,
        "n_correct_hypothesis": n_h,
        "duration_reference": t.reference_duration.sum(),
        "duration_hypothesis": t.hypothesis_duration.sum(),
        "duration_correct_reference": d_r,
        "duration_correct_hypothesis": d_h,
    }
    return _swept("gamma", np.asarray(gammas, dtype=float), sums, COVERAGE_METRICS)


def tolerance_sweep(tallies: SweepTallies, components: pd.DataFrame, tolerances=TOLERANCES) -> pd.DataFrame:
    """Pooled boundary P/R/F of one system per tolerance, from its :class:`SweepTallies` (made with the
    same ``tolerances``) and its per-show components."""
    sums = {
        "boundary_n_reference": components["boundary_n_reference"].sum(),
        "boundary_n_hypothesis": components["boundary_n_hypothesis"].sum(),
        "boundary_n_matched": tallies.matched,
    }
    return _swept("tolerance", tolerances, sums, BOUNDARY_METRICS)


def _swept(name: str, settings, sums: dict, metrics: tuple[str, ...]) -> pd.DataFrame:
    """One row per setting: the metrics of the registry (:func:`tvseg.metrics.compute`) of the pooled
    ``sums``, some of them an array over the settings."""
    values = compute(sums)
    return pd.DataFrame({name: np.asarray(settings, dtype=float), **{k: values[k] for k in metrics}})
