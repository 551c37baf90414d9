r"""Boundary distances that need no tolerance, and hit rates at the music-structure windows.

Per show, on the boundaries :func:`tvseg.retrieval.boundaries.extract` finds (strictly inside the evaluated
region, as every boundary metric of tvseg counts them), with :math:`d(x, B) = \min_{b \in B} |x - b|`:

- the **median deviation** reference to hypothesis, :math:`\operatorname{median}_{r \in R} d(r, H)`, and
  hypothesis to reference, :math:`\operatorname{median}_{h \in H} d(h, R)` (Turnbull et al. 2007;
  ``mir_eval.segment.deviation``), in seconds;
- the **Hausdorff distance** between the two sets of boundaries,
  :math:`\max(\max_{r \in R} d(r, H), \max_{h \in H} d(h, R))`: the largest distance from a boundary of
  one side to the nearest boundary of the other (ruptures' and skchange's ``hausdorff``);
- the **hit rates** at 0.5 s and 3 s: precision, recall and F of a maximum one-to-one matching of the
  boundaries at most 0.5 s (3 s) apart (``mir_eval.segment.detection(window=0.5)`` and ``window=3``).
  They are tvseg's boundary P/R/F (:mod:`tvseg.retrieval.boundaries`) at those tolerances, decided in
  integer microseconds (mir_eval decides ``est - window <= ref <= est + window`` in floats, and so may miss a
  pair exactly at the window: 1.07 and 0.57 at 0.5 s, as ``0.57 + 0.5`` is 1.0699999999999998).

Distances are taken in the seconds as read (the float subtraction mir_eval makes), the median of an even
number of distances is the mean of the two middle ones (``numpy.median``).

**The edges of the show.** mir_eval counts every interval edge as a boundary unless ``trim=True``, which
drops each side's first and last one. tvseg never counts the edges of the evaluated region: its numbers
equal mir_eval's with ``trim=True`` when the hypothesis covers the reference's extent (a hypothesis
starting later than the reference has its start as a boundary in tvseg, trimmed in mir_eval).

**Empty and one-sided shows.** With no boundary on one side, no median deviation is defined (mir_eval
returns NaN): both are undefined (NaN) for the show. The Hausdorff distance is 0 when neither side has a
boundary (the two empty sets are equal, as skchange gives it) and undefined (NaN) when only one side has
boundaries (skchange gives infinity, which no mean over shows survives); each such show is named by the
warning of undefined values (:mod:`tvseg.undefined_values`). The hit rates are NaN under the 0/0 policy of
:mod:`tvseg.rates` (mir_eval gives 0 with a warning).

**Corpus values.** The hit rates are pooled (matched boundaries over the corpus's boundaries), as tvseg's
boundary P/R/F. A median is not additive, nor is a maximum: the corpus value of the median deviations and of
the Hausdorff distance is the **mean over the shows where it is defined** (as msaf and MIREX average
mir_eval's per-track values), from two additive components per show: the show's value (0 where undefined)
and 1 where it is defined. Their sums over any set of shows (a group, a length class, a bootstrap resample,
the shards of ``tvseg merge``) give the mean over those shows exactly as one run does; a median over all
the corpus's boundaries would need each boundary's distance, which no sum of per-show numbers carries.
"""

from __future__ import annotations

import numpy as np

from tvseg.columns import lex_order
from tvseg.retrieval.matching import match_boundaries

__all__ = ["HIT_WINDOWS", "DISTANCE_COMPONENTS", "nearest", "distance_components"]

HIT_WINDOWS = {"0_5s": 0.5, "3s": 3.0}
"""The hit rates' windows (seconds) by the tag their keys carry: msaf's and MIREX's 0.5 s and 3 s."""
DISTANCE_COMPONENTS = (
    *(f"hit_n_matched_{tag}" for tag in HIT_WINDOWS),
    "deviation_r2h_sum",
    "deviation_h2r_sum",
    "deviation_n_shows",
    "hausdorff_sum",
    "hausdorff_n_shows",
)
"""The components :func:`distance_components` gives."""


def nearest(
    show: np.ndarray, time: np.ndarray, other_show: np.ndarray, other_time: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each boundary of each side, the distance in seconds to the nearest boundary of the other side in the
    same show (NaN where that show has none): ``(first side's, other side's)``. Both sides sorted by
    ``(show, time)``."""
    n, m = len(time), len(other_time)
    if not n or not m:
        return np.full(n, np.nan), np.full(m, np.nan)
    # one integer key in (show, time) order: the show, then the time's rank among both sides' times
    times, rank = np.unique(np.concatenate([time, other_time]), return_inverse=True)
    keys = np.concatenate([show, other_show]).astype(np.int64) * (len(times) + 1) + rank
    return (
        _to_nearest(keys[:n], show, time, keys[n:], other_show, other_time),
        _to_nearest(keys[n:], other_show, other_time, keys[:n], show, time),
    )


def _to_nearest(key, show, time, other_key, other_show, other_time) -> np.ndarray:
    m = len(other_key)
    before = np.searchsorted(other_key, key, side="right") - 1  # the last at or before, then the first at or after
    after = np.searchsorted(other_key, key, side="left")
    has_before = (before >= 0) & (other_show[np.maximum(before, 0)] == show)
    has_after = (after < m) & (other_show[np.minimum(after, m - 1)] == show)
    left = np.where(has_before, time - other_time[np.maximum(before, 0)], np.inf)
    right = np.where(has_after, other_time[np.minimum(after, m - 1)] - time, np.inf)
    out = np.full(len(key), np.nan)
    found = has_before | has_after
    out[found] = np.minimum(left, right)[found]
    return out


def _medians(show: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Per show, the median of its ``values`` (the mean of the two middle ones for an even count;
    0 for a show without one)."""
    out = np.zeros(n)
    keep = ~np.isnan(values)
    show, values = show[keep], values[keep]
    if not len(values):
        return out
    order = lex_order(show, values)
    ordered = values[order]
    count = np.bincount(show, minlength=n)
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    has = count > 0
    low = start[has] + (count[has] - 1) // 2
    high = start[has] + count[has] // 2
    out[has] = (ordered[low] + ordered[high]) / 2
    return out


def _largest(show: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Per show, the largest of its ``values`` (NaN left out; 0 for a show without one)."""
    out = np.zeros(n)
    keep = ~np.isnan(values)
    np.maximum.at(out, show[keep], values[keep])
    return out


def distance_components(r_show, r_time, h_show, h_time, *, n_shows: int) -> dict[str, np.ndarray]:
    """The per-show components of the module docstring (:data:`DISTANCE_COMPONENTS`) of ``n_shows`` shows'
    boundaries, each side's sorted by ``(show, time)`` (:attr:`tvseg.retrieval.corpus.ShowScores.boundaries`):
    the boundaries matched at each hit window, each median deviation and the Hausdorff distance (0 where
    undefined) with the 0/1 count of shows where each is defined."""
    n = n_shows
    windows = list(HIT_WINDOWS.values())
    matched = match_boundaries(r_show, r_time, h_show, h_time, tolerance=windows[0], sweep=windows[1:], n_shows=n)
    comp = {f"hit_n_matched_{tag}": matched.matched[t].astype(float) for tag, t in HIT_WINDOWS.items()}
    r2h, h2r = nearest(r_show, r_time, h_show, h_time)
    n_r = np.bincount(r_show, minlength=n)
    n_h = np.bincount(h_show, minlength=n)
    both = (n_r > 0) & (n_h > 0)
    comp["deviation_r2h_sum"] = _medians(r_show, r2h, n)
    comp["deviation_h2r_sum"] = _medians(h_show, h2r, n)
    comp["deviation_n_shows"] = both.astype(float)
    comp["hausdorff_sum"] = np.maximum(_largest(r_show, r2h, n), _largest(h_show, h2r, n))
    comp["hausdorff_n_shows"] = (both | ((n_r == 0) & (n_h == 0))).astype(float)
    return comp
