r"""Boundary precision, recall and F-measure with a tolerance in seconds (Bouchekif et al., section 2).

**Boundaries.** The boundaries of a segmentation are its segments' starts and ends that lie strictly
inside the show's evaluated region: the region's own edges are not boundaries. The region is the
show's UEM extent when one is given, else **the reference's own extent** (its first start to its last
end), so the reference's boundary set, and every recall denominator, is a property of the reference
alone: Bouchekif et al. count, for a contiguous reference, its segments minus one. A hypothesis that
runs past the reference does not turn the reference's first start or last end into a boundary
(:func:`tvseg.evaluate` crops such a hypothesis to the region, as a UEM would, and says so; so do
:func:`boundaries` and :func:`tvseg.coverage`). With a UEM of several regions, a boundary counts only
strictly inside one of them (:mod:`tvseg.retrieval.region`). The end
of a segment and the start of the next are **one** boundary when they coincide; when a gap separates
them, the end before the gap and the start after it are two boundaries (pyannote.metrics keeps only
segment ends, and so drops the start of a segment that follows a gap).

**Matching** is :mod:`tvseg.retrieval.matching`: a reference and a hypothesis boundary may be paired
when at most the tolerance apart (inclusive, decided in integer microseconds), and the pairing is a
maximum one-to-one matching, among those one with the smallest total distance. Then

.. math::

    P = \frac{n_{matched}}{n_{hypothesis}}, \quad R = \frac{n_{matched}}{n_{reference}}, \quad
    F = \frac{2PR}{P + R}

(0/0 gives NaN, see :mod:`tvseg.rates`).

A show of few segments given in order, as :func:`boundaries` is mostly called, costs more in numpy calls
than in arithmetic: it is scored in Python integers (:func:`small_pairs`, the kernel's windows, greedy
scan and clusters, whose cheapest matching is the kernel's own :func:`tvseg.retrieval.matching._match_cluster`;
the tests check its pairs equal the kernel's).
"""

from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from tvseg.columns import Segmentation, Segments
from tvseg.errors import UndefinedValueWarning, UsageError, user_stacklevel
from tvseg.exact import tick, ticks
from tvseg.rates import f_measure, rate
from tvseg.retrieval.coverage import SmallShow, small_show
from tvseg.retrieval.matching import BAND_LIMIT, _match_cluster, match_boundaries
from tvseg.retrieval.region import evaluated_pair

if TYPE_CHECKING:
    from pyannote.core import Segment

Floats: TypeAlias = "NDArray[np.float64]"

__all__ = [
    "boundaries",
    "BoundaryResult",
    "extract",
    "regions",
    "match_boundaries",
    "check_tolerance",
    "BAND_LIMIT",
]


def check_tolerance(tolerance: object) -> float:
    try:
        finite = math.isfinite(tolerance)  # type: ignore[arg-type]  # an int beyond a float's range: not a time
    except (TypeError, OverflowError):
        finite = False
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not (finite and tolerance >= 0):
        raise UsageError(f"tolerance must be a finite number of seconds >= 0, got {tolerance!r}")
    return float(tolerance)


def regions(
    reference: Segments, uem_start: ArrayLike | None = None, uem_end: ArrayLike | None = None
) -> tuple[Floats, Floats]:
    """Per show ``(start, end)`` of its evaluated region: the UEM where given (not NaN), else the
    reference's extent (first start, last end).

    A show with no reference segment and no UEM gets ``(nan, nan)``: it has no region, and so no
    boundary on either side.
    """
    n = reference.n_shows
    start = np.full(n, np.nan) if uem_start is None else np.array(uem_start, dtype=float)
    end = np.full(n, np.nan) if uem_end is None else np.array(uem_end, dtype=float)
    missing = np.isnan(start)
    if len(reference) and missing.any():
        off = reference.offsets()
        extent = missing & (off[1:] > off[:-1])
        start[extent] = reference.start[off[:-1][extent]]
        end[extent] = reference.end[off[1:][extent] - 1]
    return start, end


def extract(segments: Segments, region_start: Floats, region_end: Floats) -> tuple[NDArray[np.intp], Floats]:
    """``(show, time)`` of a corpus's boundaries, sorted: segment starts and ends strictly inside
    their show's region (compared in microseconds; with the ``segments.region`` of a UEM with gaps,
    strictly inside one of its regions), a start equal to the previous end counted once."""
    show, time, _ = extract_ticks(segments, region_start, region_end)
    return show, time


def extract_ticks(
    segments: Segments, region_start: Floats, region_end: Floats, *, edges: tuple[int, int] | None = None
) -> tuple[NDArray[np.intp], Floats, NDArray[np.int64]]:
    """:func:`extract`'s ``(show, time)`` and the same times in integer microseconds (``edges``: one
    show's region in ticks, when the caller has it)."""
    time, t = segments.times()
    if segments.n_shows == 1 and segments.region is None and not math.isnan(region_start[0]):
        # one show, one region (the per-show functions): its edges compared as two numbers
        first, last = (tick(region_start[0]), tick(region_end[0])) if edges is None else edges
        keep = t > first
        keep &= t < last
        keep[1:] &= t[1:] != t[:-1]  # a start equal to the previous end is the same boundary (t is in order)
        kept = keep.nonzero()[0]
        return np.zeros(len(kept), dtype=np.intp), time[kept], t[kept]
    show = np.repeat(segments.show, 2)
    defined = ~np.isnan(region_start)
    lo = np.where(defined, ticks(np.where(defined, region_start, 0.0)), np.iinfo(np.int64).max)
    hi = np.where(defined, ticks(np.where(defined, region_end, 0.0)), np.iinfo(np.int64).min)
    keep = (t > lo[show]) & (t < hi[show])
    if segments.region is not None:  # strictly inside one of the show's regions: not in a gap, nor on its edge
        keep &= segments.region.strictly_inside(show, t)
    kept = keep.nonzero()[0]
    if len(kept) > 1:  # a start equal to the previous end (of the same show) is the same boundary
        s, k = show[kept], t[kept]
        fresh = np.empty(len(kept), dtype=bool)
        fresh[0] = True
        fresh[1:] = (k[1:] != k[:-1]) | (s[1:] != s[:-1])
        kept = kept[fresh]
    return show[kept], time[kept], t[kept]


SMALL_SHOW = 32
"""Segments per side up to which :func:`boundaries` scores a show in Python integers (:func:`small_pairs`):
up to about 40, its loops cost less than the matching kernel's numpy calls."""


@dataclass(frozen=True, eq=False)
class BoundaryResult:
    """Boundary P/R/F of one show.

    Attributes
    ----------
    precision, recall, f1 : float
        Rates (fractions; NaN for 0/0).
    n_reference, n_hypothesis, n_matched : int
        Boundary counts and the size of the matching.
    pairs : list of (float, float)
        The matched ``(reference, hypothesis)`` boundary times, in time order.
    reference_boundaries, hypothesis_boundaries : ndarray
        All boundary times of each side.
    tolerance : float
    extent : pyannote.core.Segment or None
        The evaluated region used (None when the reference is empty and no extent was given).
    """

    precision: float
    recall: float
    f1: float
    n_reference: int
    n_hypothesis: int
    n_matched: int
    pairs: list[tuple[float, float]]
    reference_boundaries: Floats
    hypothesis_boundaries: Floats
    tolerance: float
    extent: Segment | None


@functools.cache
def _segment_class() -> type[Segment]:
    """pyannote.core's Segment, imported when a result first needs one (:mod:`tvseg.pyannote_objects`)."""
    from pyannote.core import Segment

    segment: type[Segment] = Segment
    return segment


def boundaries(
    reference: Segmentation,
    hypothesis: Segmentation,
    *,
    tolerance: float = 10.0,
    extent: Segment | None = None,
    uem: object = None,
) -> BoundaryResult:
    r"""Boundary precision, recall and F of one show, with a maximum one-to-one matching.

    The show is scored as :func:`tvseg.evaluate` scores it, by the same kernel (:func:`extract`,
    :func:`match_boundaries`) on a corpus of one show: on its evaluated region, ``uem`` when given, else
    the reference's extent, the hypothesis cropped to it. A show of at most :data:`SMALL_SHOW` segments
    a side given in order, within the reference's extent, is scored by the same steps in Python integers
    (:func:`small_pairs`).

    Parameters
    ----------
    reference, hypothesis : pyannote.core.Annotation, Timeline, sequence of (start, end) or (n, 2) array
        Topic segments of one show (disjoint within each side).
    tolerance : float, default 10.0
        Largest distance in seconds (inclusive) between a reference and a hypothesis boundary that
        may be paired.
    uem : pyannote.core.Segment, Timeline or sequence of (start, end), optional
        The show's evaluated regions (its UEM). Default: the reference's extent, so that the
        reference's boundaries do not depend on the hypothesis. A boundary counts only strictly
        inside a region (:mod:`tvseg.retrieval.region`).
    extent : pyannote.core.Segment, optional
        One evaluated region (the same as ``uem=extent``).

    Returns
    -------
    BoundaryResult

    Notes
    -----
    .. math::

        P = \frac{n_{matched}}{n_{hypothesis}}, \quad R = \frac{n_{matched}}{n_{reference}}, \quad
        F = \frac{2PR}{P + R}

    with :math:`n_{matched}` the size of a maximum matching of pairs within the tolerance; among
    maximum matchings, ``pairs`` is one with the smallest total distance. See the module docstring
    for what counts as a boundary, and :mod:`tvseg.retrieval.matching` for why the matching is exact.

    Examples
    --------
    >>> from pyannote.core import Timeline, Segment
    >>> ref = Timeline([Segment(0, 10), Segment(10, 20), Segment(20, 30)])
    >>> hyp = Timeline([Segment(0, 14), Segment(14, 30)])
    >>> r = boundaries(ref, hyp, tolerance=5)
    >>> r.n_matched, r.recall, r.precision, r.pairs
    (1, 0.5, 1.0, [(10.0, 14.0)])
    """
    tolerance = check_tolerance(tolerance)
    if uem is None and extent is not None and not math.isnan(extent.start):
        uem = extent
    small = small_show(reference, hypothesis, limit=SMALL_SHOW) if uem is None else None
    if small is not None:
        r_time, h_time, pairs = _small_boundaries(small, tick(tolerance))
        shown_extent = _segment_class()(float(small.bounds[0, 0]), float(small.bounds[len(small.reference) - 1, 1]))
    else:
        ref, hyp, region = evaluated_pair(reference, hypothesis, uem=uem)
        if region is None:
            start, end = regions(ref)
            edges = None
        else:
            start, end = region.start_seconds[:1], region.end_seconds[-1:]
            edges = (int(region.start[0]), int(region.end[-1]))
        r_show, r_time, r_ticks = extract_ticks(ref, start, end, edges=edges)
        h_show, h_time, h_ticks = extract_ticks(hyp, start, end, edges=edges)
        i, j = match_boundaries(
            r_show, r_time, h_show, h_time, tolerance=tolerance, n_shows=1, in_ticks=(r_ticks, h_ticks)
        ).pairs
        pairs = list(zip(r_time[i].tolist(), h_time[j].tolist()))
        shown_extent = None if region is None else _segment_class()(float(start[0]), float(end[0]))
    n_r, n_h, n_m = len(r_time), len(h_time), len(pairs)
    for n, side in ((n_r, "reference"), (n_h, "hypothesis")):
        if n == 0:
            warnings.warn(
                f"the {side} has no boundary inside the show: its boundary rate is NaN (0/0)",
                UndefinedValueWarning,
                stacklevel=user_stacklevel(),
            )
    # the registry's formulas for these metrics (tvseg.metrics), on one show's counts
    precision = rate(float(n_m), float(n_h))
    recall = rate(float(n_m), float(n_r))
    return BoundaryResult(
        precision=precision,
        recall=recall,
        f1=f_measure(precision, recall),
        n_reference=n_r,
        n_hypothesis=n_h,
        n_matched=n_m,
        pairs=pairs,
        reference_boundaries=r_time,
        hypothesis_boundaries=h_time,
        tolerance=tolerance,
        extent=shown_extent,
    )


def _small_boundaries(small: SmallShow, tolerance: int) -> tuple[Floats, Floats, list[tuple[float, float]]]:
    """:func:`boundaries`' boundaries of each side (seconds) and matched pairs, for a show read by
    :func:`~tvseg.retrieval.coverage.small_show` (``tolerance`` in ticks): the boundaries as
    :func:`extract_ticks` finds them (strictly inside the reference's extent, a start equal to the
    previous end once), matched by :func:`small_pairs`."""
    flat = small.in_ticks.ravel().tolist()
    times = small.bounds.ravel()
    seconds = times.tolist()
    middle = 2 * len(small.reference)
    first, last = flat[0], flat[middle - 1]
    sides = []
    for lo, hi in ((0, middle), (middle, len(flat))):
        kept, in_ticks, in_seconds = [], [], []
        previous = None
        for k, t, x in zip(range(lo, hi), flat[lo:hi], seconds[lo:hi]):
            if first < t < last and t != previous:
                kept.append(k)
                in_ticks.append(t)
                in_seconds.append(x)
            previous = t
        sides.append((kept, in_ticks, in_seconds))
    (r_kept, r_ticks, r_seconds), (h_kept, h_ticks, h_seconds) = sides
    pairs = [(r_seconds[i], h_seconds[j]) for i, j in small_pairs(r_ticks, h_ticks, tolerance)]
    return times[r_kept], times[h_kept], pairs


def small_pairs(r: list[int], h: list[int], tolerance: int) -> list[tuple[int, int]]:
    """:func:`match_boundaries`' pairs for one show's boundaries in Python integers: ``r`` and ``h``
    sorted times in ticks, ``tolerance`` in ticks; ``(i, j)`` index pairs, ``i`` increasing.

    The same steps as the kernel (:mod:`tvseg.retrieval.matching`): each reference's window of
    hypotheses within the tolerance (the tolerance clipped to the times' span, as the kernel clips it),
    the greedy scan, and each cluster (references between restarts of the scan) with more than one
    candidate pair solved by the kernel's :func:`~tvseg.retrieval.matching._match_cluster`. (A show of
    :data:`SMALL_SHOW` segments a side has bands far below :data:`~tvseg.retrieval.matching.BAND_LIMIT`.)
    """
    n, m = len(r), len(h)
    if not n or not m:
        return []
    tolerance = min(tolerance, max(r[-1], h[-1]) - min(r[0], h[0]))
    lo: list[int] = []
    hi: list[int] = []
    partner = [-1] * n
    clusters = []  # (first, end) of the clusters with more than one candidate pair
    a = b = pointer = first = band = 0
    for k, x in enumerate(r):
        while a < m and h[a] < x - tolerance:
            a += 1
        while b < m and h[b] <= x + tolerance:
            b += 1
        if k and a >= hi[-1]:  # the scan restarts: a cluster begins
            if band > 1:
                clusters.append((first, k))
            first, band = k, 0
        band += b - a
        lo.append(a)
        hi.append(b)
        if pointer < a:
            pointer = a
        if pointer < b:
            partner[k] = pointer
            pointer += 1
    if band > 1:
        clusters.append((first, n))
    for f, e in clusters:
        g0 = lo[f]
        partner[f:e] = [-1] * (e - f)
        row_lo = [x - g0 for x in lo[f:e]]
        row_hi = [x - g0 for x in hi[f:e]]
        for i, j in _match_cluster(r[f:e], h[g0 : hi[e - 1]], row_lo, row_hi, tolerance):
            partner[f + i] = g0 + j
    return [(k, j) for k, j in enumerate(partner) if j >= 0]
