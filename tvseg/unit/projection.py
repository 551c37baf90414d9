"""From time to units: project a time segmentation onto transcript units (or fixed frames).

A unit (a breath group, a caption cue, a frame) belongs to the segment that contains its midpoint.
A unit whose midpoint falls in no segment (in a gap of the annotation, e.g. an unannotated jingle)
joins the segment before it, and units before the first segment join the first one: a boundary
is only ever placed where a segment *starts*, so a gap neither invents a boundary nor loses the
start of the segment that follows it (pyannote.metrics drops that start). Put differently, unit
``u`` gets the last segment whose start is at or before its midpoint.

Segments that receive no unit (shorter than the units around them) disappear from the masses.

chunkseg's grid (:func:`chunk_masses`, ``convention="chunkseg"``) is another projection: chunks of
``chunk`` seconds from time 0, a chunk per potential boundary (chunkseg 0.4.0's ``core.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from tvseg.errors import InputError
from tvseg.exact import ticks
from tvseg.pyannote_objects import is_annotation, is_segment, is_timeline

if TYPE_CHECKING:
    from pyannote.core import Segment, Timeline

__all__ = ["to_masses", "unit_segments", "frames", "chunk_boundaries", "chunk_flags", "chunk_masses"]


def _timeline(annotation) -> Timeline:
    if is_annotation(annotation):
        return annotation.get_timeline(copy=False)
    if is_timeline(annotation):
        return annotation
    raise InputError("a segmentation must be a pyannote.core Annotation or Timeline", value=type(annotation).__name__)


def _starts(annotation) -> np.ndarray:
    seg = np.array([(s.start, s.end) for s in _timeline(annotation)], dtype=float).reshape(-1, 2)
    t = ticks(seg)  # compared in integer microseconds, as every time decision (tvseg.exact)
    if seg.size and (t[1:, 0] < t[:-1, 1]).any():
        i = int(np.flatnonzero(t[1:, 0] < t[:-1, 1])[0])
        raise InputError(
            "segments of a segmentation must not overlap",
            value=f"[{seg[i, 0]}, {seg[i, 1]}) and [{seg[i + 1, 0]}, {seg[i + 1, 1]})",
        )
    return seg[:, 0]


def _midpoints(units: pd.DataFrame) -> np.ndarray:
    if not isinstance(units, pd.DataFrame) or not {"start", "end"} <= set(units.columns):
        raise InputError("units must be a DataFrame with columns start and end")
    if len(units) == 0:
        raise InputError("there are no units to project onto")
    start = units["start"].to_numpy(dtype=float)
    end = units["end"].to_numpy(dtype=float)
    bad = ~(np.isfinite(start) & np.isfinite(end) & (end >= start))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"unit {i} has no valid [start, end]", value=(start[i], end[i]))
    mid = (start + end) / 2
    if (np.diff(mid) < 0).any():
        i = int(np.flatnonzero(np.diff(mid) < 0)[0]) + 1
        raise InputError(f"units must be sorted by time; unit {i} starts before unit {i - 1}", value=(start[i], end[i]))
    return mid


def unit_segments(annotation, units: pd.DataFrame) -> np.ndarray:
    """Index (in start order) of the segment each unit belongs to: the last segment that starts at
    or before the unit's midpoint, 0 for units before the first segment.

    Parameters
    ----------
    annotation : pyannote.core.Annotation or Timeline
        A segmentation of one show (non-overlapping segments).
    units : pandas.DataFrame
        Columns ``start, end`` in seconds, sorted by time.

    Returns
    -------
    numpy.ndarray of int, one entry per unit, non-decreasing.
    """
    starts = _starts(annotation)
    mid = _midpoints(units)
    if starts.size == 0:
        return np.zeros(mid.size, dtype=np.int64)
    return np.maximum(np.searchsorted(starts, mid, side="right") - 1, 0)


def to_masses(annotation, units: pd.DataFrame) -> np.ndarray:
    """Masses of a time segmentation over units: the number of units of each segment, in order.

    ``O(U + S log S)`` for ``U`` units and ``S`` segments (a sort, one ``searchsorted``).

    Parameters
    ----------
    annotation : pyannote.core.Annotation or Timeline
        A segmentation of one show.
    units : pandas.DataFrame
        Columns ``start, end`` (seconds), sorted by time: breath groups, caption cues or
        :func:`frames`.

    Returns
    -------
    numpy.ndarray of int64
        Positive masses summing to ``len(units)``; an annotation without segments is one segment.

    Raises
    ------
    InputError
        Overlapping segments, no units, a unit with a bad or unordered time span.
    """
    label = unit_segments(annotation, units)
    change = np.flatnonzero(np.diff(label)) + 1
    return np.diff(np.concatenate(([0], change, [label.size]))).astype(np.int64)


def frames(extent: Segment, frame: float) -> pd.DataFrame:
    """Fixed frames of ``frame`` seconds covering ``extent``; the last one may be shorter.

    Parameters
    ----------
    extent : pyannote.core.Segment
        The span to cover (a show's extent or its UEM).
    frame : float
        Frame length in seconds, positive.

    Returns
    -------
    pandas.DataFrame with columns ``start, end``.
    """
    if isinstance(frame, bool) or not isinstance(frame, (int, float)) or not math.isfinite(frame) or frame <= 0:
        raise InputError("the frame length must be a positive number of seconds", value=frame)
    if not is_segment(extent) or not (extent.end > extent.start):
        raise InputError("frames need a non-empty extent", value=str(extent))
    count = max(1, math.ceil((extent.end - extent.start) / frame - 1e-9))
    start = extent.start + frame * np.arange(count, dtype=float)
    end = np.minimum(start + frame, extent.end)
    end[-1] = extent.end
    return pd.DataFrame({"start": start, "end": end})


def chunk_boundaries(annotation, region: Segment) -> np.ndarray:
    """The boundary times of a segmentation, as :mod:`tvseg.retrieval.boundaries` takes them: its
    segments' starts and ends strictly inside ``region`` (a start and an end at one time, compared in
    integer microseconds, are one boundary), sorted."""
    times = np.array([t for s in _timeline(annotation) for t in (s.start, s.end)], dtype=float)
    tick = ticks(times)
    inside = (tick > ticks(region.start)) & (tick < ticks(region.end))
    tick, first = np.unique(tick[inside], return_index=True)
    return times[inside][first]


def chunk_flags(boundaries, duration: float, chunk: float) -> np.ndarray:
    """chunkseg 0.4.0's ``build_target_sequence``, operation for operation (Python floats): the
    duration is cut down to whole chunks (``floor(duration / chunk) * chunk``), so a last partial chunk
    is dropped; there are ``int(that / chunk)`` chunks from time 0; a boundary ``b`` flags chunk
    ``int(b / chunk)`` (the last chunk for ``b`` at the cut-down duration), a boundary outside
    ``[0, cut-down duration]`` flags none, nor does one at 0 (chunkseg drops boundaries ``<= 0``).

    Returns
    -------
    numpy.ndarray of bool, one flag per chunk (empty when the duration is shorter than one chunk).
    """
    if isinstance(chunk, bool) or not isinstance(chunk, (int, float)) or not math.isfinite(chunk) or chunk <= 0:
        raise InputError("the chunk length must be a positive number of seconds", value=chunk)
    duration = float(duration)
    if not duration > 0.0:
        return np.zeros(0, dtype=bool)
    duration = math.floor(duration / chunk) * chunk
    count = int(duration / chunk)
    flags = np.zeros(count, dtype=bool)
    for b in (float(b) for b in boundaries):
        if b <= 0.0 or b > duration:
            continue
        flags[min(int(b / chunk), count - 1)] = True
    return flags


def chunk_masses(annotation, region: Segment, chunk: float) -> np.ndarray | None:
    """Masses of a time segmentation on chunkseg's grid of ``chunk`` seconds, as chunkseg hands them
    to segeval (``convert_nltk_to_masses`` of the chunk flags): ``C`` chunks are ``C`` potential
    boundaries, hence ``C + 1`` units, and a flagged chunk ``i`` (from 0) is a boundary after unit
    ``i + 1``.

    The grid runs from time 0 to ``region.end`` (chunkseg's duration); the boundaries are
    :func:`chunk_boundaries` inside ``region``. None when the region ends before one chunk (chunkseg
    scores no such show).
    """
    flags = chunk_flags(chunk_boundaries(annotation, region), region.end, chunk)
    if flags.size == 0:
        return None
    edges = np.concatenate(([0], np.flatnonzero(flags) + 1, [flags.size + 1]))
    return np.diff(edges).astype(np.int64)
