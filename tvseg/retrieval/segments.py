"""Segmentations of one or many shows as flat, sorted numpy arrays.

The scoring kernels work on a whole corpus at once: every segment of every show in one set of
arrays (``show`` index, ``start``, ``end``, ``label``), sorted by show and then by time. Within a show
and a side, segments must not overlap (a topic segmentation assigns each instant to at most one
topic); gaps are allowed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from tvseg.errors import InputError
from tvseg.exact import MAX_SECONDS, TICKS_PER_SECOND, ticks
from tvseg.pyannote_objects import is_annotation, is_timeline

if TYPE_CHECKING:
    from pyannote.core import Annotation, Timeline

    from tvseg.retrieval.region import Region

Segmentation: TypeAlias = "Annotation | Timeline | NDArray[Any] | Sequence[Sequence[float]] | None"
"""One show's segmentation as the per-show functions take it: an Annotation, a Timeline, an ``(n, 2)``
array or a sequence of ``(start, end)`` pairs (None: no segment)."""

__all__ = ["Segmentation", "Segments", "from_segmentation", "stack"]


@dataclass(frozen=True, eq=False)
class Segments:
    """Segments of ``n_shows`` shows, sorted by ``(show, start)``.

    Attributes
    ----------
    show : ndarray of int64
        Index of each segment's show, in ``range(n_shows)``.
    start, end : ndarray of float64
        Segment bounds in seconds, ``start < end``.
    label : ndarray of object
        Segment labels (``None`` for a :class:`~pyannote.core.Timeline`).
    n_shows : int
        Number of shows (a show may have no segment).
    region : tvseg.retrieval.region.Region, optional
        The evaluated regions when a show has several (a UEM with gaps); None otherwise.

    ``start_ticks``, ``end_ticks`` and ``duration_ticks`` are the same times in integer
    microseconds, on which every threshold decision is made (:mod:`tvseg.exact`);
    ``duration`` is computed from them, so a decimal duration is its correctly rounded float.
    With a ``region``, ``duration_ticks`` and ``duration`` are the **evaluated** durations, the
    measure of each segment's parts inside the regions (:mod:`tvseg.retrieval.region`).
    """

    show: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray
    n_shows: int
    region: Region | None = None

    def __len__(self) -> int:
        return len(self.start)

    @cached_property
    def start_ticks(self) -> np.ndarray:
        return ticks(self.start)

    @cached_property
    def end_ticks(self) -> np.ndarray:
        return ticks(self.end)

    @cached_property
    def duration_ticks(self) -> np.ndarray:
        if self.region is not None:
            return self.region.measure(self.show, self.start_ticks, self.end_ticks)
        return self.end_ticks - self.start_ticks

    @cached_property
    def duration(self) -> np.ndarray:
        return self.duration_ticks / TICKS_PER_SECOND

    def offsets(self) -> np.ndarray:
        """``offsets[s]:offsets[s + 1]`` are the indices of show ``s``'s segments."""
        return np.searchsorted(self.show, np.arange(self.n_shows + 1), side="left")


def _raw(segmentation, what: str):
    """Unchecked ``(start, end, label)`` arrays of one segmentation."""
    if segmentation is None:
        return np.empty(0), np.empty(0), np.empty(0, dtype=object)
    if is_annotation(segmentation):
        tracks = getattr(segmentation, "_tracks", None)
        if tracks is not None:
            # pyannote.core keeps {segment: {track: label}} sorted by segment; reading it directly is
            # several times faster than itertracks(), which sorts every segment's tracks
            items = list(tracks.items())
            if any(len(t) != 1 for _, t in items):
                seg = next(s for s, t in items if len(t) != 1)
                raise InputError(
                    f"{what}: overlapping segments (one segment carries several tracks)",
                    value=f"[{seg.start}, {seg.end}]",
                )
            segs = [s for s, _ in items]
            labels = [next(iter(t.values())) for _, t in items]
        else:  # pragma: no cover - other pyannote.core versions
            triples = list(segmentation.itertracks(yield_label=True))
            segs, labels = [s for s, _, _ in triples], [lab for _, _, lab in triples]
    elif is_timeline(segmentation):
        segs = list(segmentation)
        labels = [None] * len(segs)
    elif isinstance(segmentation, (np.ndarray, list, tuple)):
        return _pairs(segmentation, what)
    else:
        raise InputError(
            f"{what} must be a pyannote.core Annotation or Timeline, a sequence of (start, end) "
            "pairs or an (n, 2) array",
            value=type(segmentation).__name__,
        )
    n = len(segs)
    start = np.fromiter((s.start for s in segs), dtype=float, count=n)
    end = np.fromiter((s.end for s in segs), dtype=float, count=n)
    label = np.empty(n, dtype=object)
    label[:] = labels
    return start, end, label


def _pairs(pairs, what: str):
    """``(start, end, label)`` of a sequence of ``(start, end)`` pairs or an ``(n, 2)`` array, sorted
    by start (labels None)."""
    try:
        array = np.asarray(pairs, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"{what}: (start, end) pairs must be numbers", value=repr(pairs)[:80]) from None
    if array.size == 0:
        return np.empty(0), np.empty(0), np.empty(0, dtype=object)
    if array.ndim != 2 or array.shape[1] != 2:
        raise InputError(f"{what}: expected (start, end) pairs, an (n, 2) array", value=f"shape {array.shape}")
    order = np.lexsort((array[:, 1], array[:, 0]))
    return array[order, 0].copy(), array[order, 1].copy(), np.full(len(array), None, dtype=object)


def from_segmentation(
    segmentation: Segmentation, *, what: str = "segmentation"
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.object_]]:
    """``(start, end, label)`` arrays of one show's segmentation, checked.

    Parameters
    ----------
    segmentation : Annotation, Timeline or None
        None is an empty segmentation.
    what : str
        How to name the segmentation in error messages (e.g. ``"reference of show X"``).

    Raises
    ------
    InputError
        A segment that is empty or not finite, or two segments that overlap.
    """
    start, end, label = _raw(segmentation, what)
    check(start, end, what=what)
    return start, end, label


def check(
    start: np.ndarray, end: np.ndarray, *, what: str = "segmentation", show: np.ndarray | None = None, names=None
) -> None:
    """Raise :class:`InputError` unless the segments are finite, non-empty, sorted and disjoint
    (within each show when ``show`` is given; ``names`` then names the show in the message)."""

    def where(i):
        return what if show is None or names is None else f"{what} of show {names[show[i]]!r}"

    bad = ~(np.isfinite(start) & np.isfinite(end) & (end > start))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"{where(i)}: empty or non-finite segment", value=f"[{start[i]}, {end[i]}]")
    huge = (np.abs(start) > MAX_SECONDS) | (np.abs(end) > MAX_SECONDS)
    if huge.any():
        i = int(np.flatnonzero(huge)[0])
        raise InputError(
            f"{where(i)}: a time beyond {MAX_SECONDS:.0f} s cannot be a time in a show (times are seconds)",
            value=f"[{start[i]}, {end[i]}]",
        )
    short = ticks(end) <= ticks(start)
    if short.any():
        i = int(np.flatnonzero(short)[0])
        raise InputError(
            f"{where(i)}: segment shorter than a microsecond (tvseg's time resolution)", value=f"[{start[i]}, {end[i]}]"
        )
    if len(start) > 1:
        order_bad = start[1:] < end[:-1]
        if show is not None:
            order_bad &= show[1:] == show[:-1]
        if order_bad.any():
            i = int(np.flatnonzero(order_bad)[0])
            raise InputError(
                f"{where(i)}: overlapping segments (a topic segmentation needs disjoint segments)",
                value=f"[{start[i]}, {end[i]}] and [{start[i + 1]}, {end[i + 1]}]",
            )


def stack(parts: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> Segments:
    """One :class:`Segments` from the ``(start, end, label)`` arrays of each show, in show order."""
    n = np.fromiter((len(p[0]) for p in parts), dtype=np.int64, count=len(parts))
    show = np.repeat(np.arange(len(parts), dtype=np.int64), n)
    if len(parts):
        start = np.concatenate([p[0] for p in parts]).astype(float, copy=False)
        end = np.concatenate([p[1] for p in parts]).astype(float, copy=False)
        label = np.concatenate([np.asarray(p[2], dtype=object) for p in parts])
    else:
        start, end, label = np.empty(0), np.empty(0), np.empty(0, dtype=object)
    return Segments(show=show, start=start, end=end, label=label, n_shows=len(parts))


_NO_LABEL = {None: None}  # the one "track" of a Timeline segment


def _flat(segmentations: list):
    """Unchecked corpus arrays ``(show, start, end, label)`` read in one pass, or None.

    Reads each Annotation's segments and tracks in insertion order (``dict`` order of pyannote.core's
    ``_tracks``: no hashing of segments, no per-segment Python function). None when any show would
    need the careful per-show path of :func:`_raw`: a type other than Annotation/Timeline/None, a
    segment with several tracks, or segments not inserted in sorted order.
    """
    keys: list[Any] = []
    tracks: list[Any] = []
    counts: list[int] = []
    for seg in segmentations:
        if seg is None:
            counts.append(0)
        elif is_annotation(seg) and isinstance(getattr(seg, "_tracks", None), dict):
            d = seg._tracks
            keys.extend(dict.keys(d))
            tracks.extend(dict.values(d))
            counts.append(len(d))
        elif is_timeline(seg):
            segs = list(seg)
            keys.extend(segs)
            tracks.extend([_NO_LABEL] * len(segs))
            counts.append(len(segs))
        else:
            return None
    n = len(keys)
    try:  # unpacking one label per segment fails on a segment with several tracks (or none)
        labels = [lab for (lab,) in map(dict.values, tracks)]
    except (TypeError, ValueError):
        return None
    start = np.fromiter((s.start for s in keys), dtype=float, count=n)
    end = np.fromiter((s.end for s in keys), dtype=float, count=n)
    show = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    if n > 1:
        same = show[1:] == show[:-1]
        # pyannote.core sorts segments by (start, end); insertion order must already be that order
        ahead = (start[1:] > start[:-1]) | ((start[1:] == start[:-1]) & (end[1:] > end[:-1]))
        if not (ahead | ~same).all():
            return None
    label = np.empty(n, dtype=object)
    label[:] = labels
    return Segments(show=show, start=start, end=end, label=label, n_shows=len(counts))


def from_segmentations(
    segmentations: Iterable[Annotation | Timeline | None],
    *,
    names: Sequence[str] | None = None,
    side: str = "segmentation",
) -> Segments:
    """Stack the segmentations of many shows, checked in one vectorised pass (see :func:`check`)."""
    segmentations = list(segmentations)
    segments = _flat(segmentations)
    if segments is None:
        parts = [
            _raw(seg, side if names is None else f"{side} of show {names[i]!r}") for i, seg in enumerate(segmentations)
        ]
        segments = stack(parts)
    n_shows = segments.n_shows
    check(
        segments.start,
        segments.end,
        what=side,
        show=segments.show,
        names=names if names is not None or n_shows == 1 else list(range(n_shows)),  # one show: named by its side
    )
    return segments
