r"""The evaluated region of each show when it has gaps: a UEM of several regions.

A show is scored on its UEM when one is given, else on the reference's extent. A UEM may leave
parts of a show out (an advertising break: ``0-40`` and ``60-100``). The rule, the same for every
metric of the time domain:

- the **edges** of each region are region edges, never boundaries: a boundary counts only strictly
  inside a region (a boundary in a gap, or on its edge, is not evaluated);
- a segment that spans a gap **stays one segment**; its evaluated duration is the measure of its
  parts inside the regions, :math:`d(S) = |S \cap U|`, and two segments' overlap is
  :math:`|R \cap H \cap U|`; a segment wholly inside a gap has no evaluated part and is left out.

So CovN/CovD use :math:`Cov_{R \leftrightarrow H} = 2\,|R \cap H \cap U| / (|R \cap U| + |H \cap U|)`,
and a reference's boundaries are the same whether the UEM leaves a gap where none of them lies or not.
Cutting each segment into its pieces instead would turn every gap's edges into matched
"boundaries" on both sides and cut the segments that span it into pieces that line up.

With no show of several regions, no :class:`Region` is built and nothing here runs: a segment's
evaluated duration is then its duration (the segments are cropped to their show's region).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from tvseg.columns import Segmentation, Segments, count_before, crop_spans, from_segmentation, from_segmentations
from tvseg.errors import InputError
from tvseg.exact import ticks
from tvseg.pyannote_objects import is_segment, is_timeline

__all__ = ["Region", "build_region", "crop", "evaluated_pair"]


@dataclass(frozen=True, eq=False)
class Region:
    """The evaluated regions of ``n_shows`` shows: sorted, disjoint intervals in integer microseconds.

    Attributes
    ----------
    show : ndarray of int64
        Each interval's show index, sorted.
    start, end : ndarray of int64
        Each interval's edges in ticks (:mod:`tvseg.exact`); within a show sorted and disjoint.
    n_shows : int
    start_seconds, end_seconds : ndarray of float
        The same edges in seconds, as written (a cropped segment takes them).
    """

    show: np.ndarray
    start: np.ndarray
    end: np.ndarray
    n_shows: int
    start_seconds: np.ndarray
    end_seconds: np.ndarray

    @cached_property
    def _before(self) -> np.ndarray:
        """The measure of the show's intervals before each interval (ticks)."""
        length = self.end - self.start
        total = np.cumsum(length) - length
        first = np.searchsorted(self.show, self.show, side="left")
        before: np.ndarray = total - total[first]
        return before

    def _last_interval(self, show: np.ndarray, t: np.ndarray, *, inclusive: bool) -> tuple[np.ndarray, ...]:
        """``(t, k, safe)``: the times ``t`` (ticks) as int64, the index ``k`` of the show's last interval
        starting before each (at or before: ``inclusive``; -1 for none) and ``max(k, 0)``."""
        show = np.asarray(show, dtype=np.int64)
        t = np.asarray(t, dtype=np.int64)
        k = count_before(self.show, self.start.astype(float), show, t.astype(float), inclusive=inclusive) - 1
        k[(k >= 0) & (self.show[np.maximum(k, 0)] != show)] = -1
        return t, k, np.maximum(k, 0)

    def cumulative(self, show: np.ndarray, t: np.ndarray) -> np.ndarray:
        """:math:`F(t) = |U_s \\cap (-\\infty, t]|` in ticks, for each ``(show, t)`` (``t`` in ticks)."""
        t, k, safe = self._last_interval(show, t, inclusive=True)
        inside = np.minimum(t - self.start[safe], self.end[safe] - self.start[safe])
        value: np.ndarray = np.where(k >= 0, self._before[safe] + inside, 0)
        return value

    def measure(self, show: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
        """:math:`|[start, end] \\cap U_s|` in ticks, for each ``(show, start, end)`` (ticks, ``start <= end``)."""
        value: np.ndarray = self.cumulative(show, end) - self.cumulative(show, start)
        return value

    def strictly_inside(self, show: np.ndarray, t: np.ndarray) -> np.ndarray:
        """Whether each time ``t`` (ticks) lies strictly inside one of its show's intervals."""
        t, k, safe = self._last_interval(show, t, inclusive=False)  # the last interval starting strictly before t
        inside: np.ndarray = (k >= 0) & (t < self.end[safe])
        return inside

    def covers(self, show: np.ndarray, t: np.ndarray) -> np.ndarray:
        """Whether each time ``t`` (ticks) lies in one of its show's intervals, edges included."""
        t, k, safe = self._last_interval(show, t, inclusive=True)  # the last interval starting at or before t
        covered: np.ndarray = (k >= 0) & (t <= self.end[safe])
        return covered


def build_region(pieces: list[Any]) -> Region:
    """A :class:`Region` from each show's ``(start, end)`` intervals in seconds (sorted, disjoint): a
    list of ``(start, end)`` pairs or an ``(n, 2)`` array per show."""
    arrays = [np.asarray(p, dtype=float).reshape(-1, 2) for p in pieces]
    show = np.repeat(np.arange(len(arrays), dtype=np.int64), [len(a) for a in arrays])
    flat = np.concatenate(arrays) if arrays else np.empty((0, 2))
    return Region(
        show=show,
        start=ticks(flat[:, 0]),
        end=ticks(flat[:, 1]),
        n_shows=len(pieces),
        start_seconds=flat[:, 0].copy(),
        end_seconds=flat[:, 1].copy(),
    )


def crop(segments: Segments, region: Region) -> tuple[Segments, np.ndarray]:
    """Each segment cropped to its show's regions (:func:`tvseg.columns.crop_spans`: a segment spanning
    a gap stays one segment, one with no part inside is left out), and the indices of the segments
    left out. The segments of a show without a region are kept."""
    if not len(segments) or not len(region.show):
        return segments, np.zeros(0, dtype=np.int64)
    cut = crop_spans(
        segments.start,
        segments.end,
        region.start_seconds,
        region.end_seconds,
        show=segments.show,
        region_show=region.show,
    )
    has_region = np.zeros(segments.n_shows, dtype=bool)
    has_region[region.show] = True
    keep = cut.kept | ~has_region[segments.show]
    cropped = Segments(
        show=segments.show[keep],
        start=cut.start[keep],
        end=cut.end[keep],
        label=segments.label[keep],
        n_shows=segments.n_shows,
        region=segments.region,
    )
    return cropped, np.flatnonzero(~keep)


def _intervals(uem: Any) -> list[tuple[float, float]]:
    """``(start, end)`` pairs of a per-show ``uem=`` (a Segment, a Timeline, pairs or an ``(n, 2)`` array)."""
    if is_segment(uem):
        return [(float(uem.start), float(uem.end))]
    if is_timeline(uem):
        uem = [(segment.start, segment.end) for segment in uem.support()]  # touching regions merged
    start, end, _ = from_segmentation(uem, what="uem")
    if not len(start):
        raise InputError("uem: no region")
    return list(zip(start.tolist(), end.tolist()))


def evaluated_pair(
    reference: Segmentation, hypothesis: Segmentation, *, uem: Any = None
) -> tuple[Segments, Segments, Region | None]:
    """One show's reference and hypothesis as :func:`tvseg.evaluate` scores them: a corpus of one.

    The region is ``uem`` (a Segment, a Timeline, ``(start, end)`` pairs) when given, else the
    reference's extent; the reference is cropped to the UEM, the hypothesis to the region, a segment
    spanning a gap kept whole (:func:`crop`). Returns both sides and the region.
    """
    ref = from_segmentations([reference], side="reference")
    hyp = from_segmentations([hypothesis], side="hypothesis")
    if uem is not None:
        intervals = _intervals(uem)
        region = build_region([intervals])
        ref, _ = crop(ref, region)
        gaps = len(intervals) > 1
    elif len(ref):  # the reference's extent: its first start, its last end
        region = Region(
            show=np.zeros(1, dtype=np.int64),
            start=ref.start_ticks[:1],
            end=ref.end_ticks[-1:],
            n_shows=1,
            start_seconds=ref.start[:1],
            end_seconds=ref.end[-1:],
        )
        gaps = False
    else:
        return ref, hyp, None
    if gaps or (len(hyp) and (hyp.start_ticks[0] < region.start[0] or hyp.end_ticks[-1] > region.end[-1])):
        hyp, _ = crop(hyp, region)
    if gaps:
        ref, hyp = replace(ref, region=region), replace(hyp, region=region)
    return ref, hyp, region
