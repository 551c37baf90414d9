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

Every projection runs on flat arrays of a whole corpus (:func:`unit_positions`, :func:`frame_units`,
:func:`chunk_positions`, used by :mod:`tvseg.unit.corpus`); the per-show functions (:func:`to_masses`,
:func:`frames`, :func:`chunk_masses`) are the same on a corpus of one show.
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from tvseg.errors import InputError
from tvseg.exact import ticks
from tvseg.pyannote_objects import is_annotation, is_segment, is_timeline
from tvseg.unit.masses import from_positions

if TYPE_CHECKING:
    from pyannote.core import Segment

__all__ = [
    "to_masses",
    "frames",
    "chunk_flags",
    "chunk_masses",
    "unit_positions",
    "frame_units",
    "chunk_positions",
    "edge_ticks",
    "check_projection",
]


def _one_show(annotation) -> SimpleNamespace:
    """A segmentation of one show as the corpus functions read a side (show 0 for every segment)."""
    if is_annotation(annotation):
        annotation = annotation.get_timeline(copy=False)
    elif not is_timeline(annotation):
        raise InputError(
            "a segmentation must be a pyannote.core Annotation or Timeline", value=type(annotation).__name__
        )
    seg = np.array([(s.start, s.end) for s in annotation], dtype=float).reshape(-1, 2)
    t = ticks(seg)  # compared in integer microseconds, as every time decision (tvseg.exact)
    side = SimpleNamespace(show=np.zeros(len(seg), np.int64), start=seg[:, 0], end=seg[:, 1])
    side.start_ticks, side.end_ticks = t[:, 0], t[:, 1]
    return side


def to_masses(annotation, units: pd.DataFrame) -> np.ndarray:
    """Masses of a time segmentation over units: the number of units of each segment, in order.

    Unit ``u`` belongs to the last segment that starts at or before its midpoint, to the first
    segment when none does (module docstring); :func:`unit_positions` on a corpus of one show.

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
    side = _one_show(annotation)
    if not isinstance(units, pd.DataFrame) or not {"start", "end"} <= set(units.columns):
        raise InputError("units must be a DataFrame with columns start and end")
    if len(units) == 0:
        raise InputError("there are no units to project onto")
    start = units["start"].to_numpy(dtype=float)
    end = units["end"].to_numpy(dtype=float)
    mid = (start + end) / 2
    show = np.zeros(mid.size, np.int64)
    count, first, key = unit_keys(show, mid, 1)
    check_projection((side,), start, end, mid, show, first, np.array([0]), 1)
    positions, _ = unit_positions(side, key, first, np.array([0]), count)
    return from_positions(positions, mid.size)


def frames(extent: Segment, frame: float) -> pd.DataFrame:
    """Fixed frames of ``frame`` seconds covering ``extent``; the last one may be shorter
    (:func:`frame_units` of one region).

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
    _check_length(frame, "frame")
    if not is_segment(extent):
        raise InputError("frames need a non-empty extent", value=str(extent))
    _, start, end = frame_units(np.array([extent.start]), np.array([extent.end]), frame, np.array([0]))
    return pd.DataFrame({"start": start, "end": end})


def _check_length(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise InputError(f"the {what} length must be a positive number of seconds", value=value)


def chunk_flags(boundaries, duration: float, chunk: float) -> np.ndarray:
    """chunkseg 0.4.0's ``build_target_sequence``: the duration is cut down to whole chunks
    (``floor(duration / chunk) * chunk``), so a last partial chunk is dropped; there are
    ``int(that / chunk)`` chunks from time 0; a boundary ``b`` flags chunk ``int(b / chunk)`` (the last
    chunk for ``b`` at the cut-down duration), a boundary outside ``[0, cut-down duration]`` flags none,
    nor does one at 0 (chunkseg drops boundaries ``<= 0``). The same float operations as chunkseg's,
    element-wise (:func:`_flagged`, which :func:`chunk_positions` runs on a whole corpus).

    Returns
    -------
    numpy.ndarray of bool, one flag per chunk (empty when the duration is shorter than one chunk).
    """
    _check_length(chunk, "chunk")
    duration = float(duration)
    cut = math.floor(duration / chunk) * chunk if duration > 0.0 else 0.0
    count = int(cut / chunk)
    flags = np.zeros(count, dtype=bool)
    counted, flag = _flagged(np.asarray(list(boundaries), dtype=float).reshape(-1), cut, count, chunk)
    flags[flag[counted]] = True
    return flags


def chunk_masses(annotation, region: Segment, chunk: float) -> np.ndarray | None:
    """Masses of a time segmentation on chunkseg's grid of ``chunk`` seconds, as chunkseg hands them
    to segeval (``convert_nltk_to_masses`` of the chunk flags): ``C`` chunks are ``C`` potential
    boundaries, hence ``C + 1`` units, and a flagged chunk ``i`` (from 0) is a boundary after unit
    ``i + 1``.

    The grid runs from time 0 to ``region.end`` (chunkseg's duration); the boundaries are the
    segments' starts and ends strictly inside ``region`` (:func:`chunk_positions` of one show). None
    when the region ends before one chunk (chunkseg scores no such show); InputError for overlapping
    segments.
    """
    _check_length(chunk, "chunk")
    side = _one_show(annotation)
    check_projection((side,), np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0, np.int64), [0, 0], [0], 1)
    start, end = np.array([float(region.start)]), np.array([float(region.end)])
    cut = np.floor(end / chunk) * chunk if end[0] > 0.0 else np.zeros(1)
    count = np.floor(cut / chunk).astype(np.int64)
    if count[0] == 0:
        return None
    positions, _ = chunk_positions(side, edge_ticks(start, end), cut, count, np.array([0]), chunk)
    return from_positions(positions, int(count[0]) + 1)


# ------------------------------------------------------------------------------------------------
# A whole corpus at once, from flat arrays (shows by index)


def frame_units(start, end, frame, scored):
    """:func:`frames` of every region (``start``, ``end``: those of the shows ``scored``), concatenated:
    ``(show, start, end)``."""
    empty = ~(end > start)
    if empty.any():
        i = int(np.flatnonzero(empty)[0])
        from pyannote.core import Segment

        raise InputError("frames need a non-empty extent", value=str(Segment(float(start[i]), float(end[i]))))
    count = np.maximum(1, np.ceil((end - start) / frame - 1e-9)).astype(np.int64)
    which = np.repeat(np.arange(scored.size), count)
    first = np.cumsum(count) - count
    j = (np.arange(int(count.sum())) - first[which]).astype(float)
    f_start = start[which] + frame * j
    f_end = np.minimum(f_start + frame, end[which])
    f_end[first + count - 1] = end
    return scored[which], f_start, f_end


def frames_in(region_start, region_end, frame, regions):
    """``(scored, show, start, end)``: the shows with a region and :func:`frame_units` of them, less the
    frames whose midpoint lies in a gap of ``regions`` (a UEM with gaps, read by duck typing:
    ``covers(show, ticks)``; None when it has none)."""
    scored = np.flatnonzero(~np.isnan(region_start))
    u_show, u_start, u_end = frame_units(region_start[scored], region_end[scored], frame, scored)
    if regions is not None:
        covered = regions.covers(u_show, ticks((u_start + u_end) / 2))
        u_show, u_start, u_end = u_show[covered], u_start[covered], u_end[covered]
    return scored, u_show, u_start, u_end


def unit_keys(u_show, mid, n_shows):
    """``(count, first, key)``: each show's number of units, where its units start, and every unit's
    ``(show, midpoint)`` as one sortable complex key (what :func:`unit_positions` searches)."""
    count = np.bincount(u_show, minlength=n_shows)
    key = np.empty(mid.size, np.complex128)
    key.real = u_show
    key.imag = mid
    return count, np.concatenate(([0], np.cumsum(count))), key


def _first_overlap(side, scored_mask):
    """``(show, i)`` of the first overlap (in microseconds) among the scored shows, or None."""
    show = np.asarray(side.show, np.int64)
    if show.size < 2:
        return None
    ts, te = side.start_ticks, side.end_ticks
    bad = (ts[1:] < te[:-1]) & (show[1:] == show[:-1]) & scored_mask[show[1:]]
    if not bad.any():
        return None
    i = int(np.flatnonzero(bad)[0])
    return int(show[i]), i


def check_projection(sides, u_start, u_end, mid, u_show, first, scored, n_shows):
    """The errors of :func:`to_masses`, for the first show in error, in its order: the first side's
    overlaps (the reference's), the units, the second side's (the hypothesis's)."""
    failures = []
    mask = np.zeros(n_shows, bool)
    mask[scored] = True
    for order, side in zip((0, 2), sides):
        hit = _first_overlap(side, mask)
        if hit is not None:
            failures.append((hit[0], order, side, hit[1]))
    bad = ~(np.isfinite(u_start) & np.isfinite(u_end) & (u_end >= u_start))
    back = np.zeros(mid.size, bool)
    back[1:] = (mid[1:] < mid[:-1]) & (u_show[1:] == u_show[:-1])
    for kind, mask_u in (("bad", bad), ("back", back)):
        if mask_u.any():
            u = int(np.flatnonzero(mask_u)[0])
            failures.append((int(u_show[u]), 1, kind, u))
    if not failures:
        return
    show, order, what, i = min(failures, key=lambda f: (f[0], f[1], f[2] != "bad"))
    if order == 1:
        local = int(i - first[show])
        if what == "bad":
            raise InputError(f"unit {local} has no valid [start, end]", value=(u_start[i], u_end[i]))
        raise InputError(
            f"units must be sorted by time; unit {local} starts before unit {local - 1}", value=(u_start[i], u_end[i])
        )
    s, e = what.start, what.end
    raise InputError(
        "segments of a segmentation must not overlap", value=f"[{s[i]}, {e[i]}) and [{s[i + 1]}, {e[i + 1]})"
    )


def unit_positions(side, key, first, scored, count):
    r"""Boundary positions of one side on the units of every scored show: ``(positions, offsets)``.

    Segment ``j`` of a show owns the units from :math:`c_j = \#\{u : m_u < t_j\}` on (midpoints
    :math:`m_u`, start :math:`t_j`) up to the next segment's :math:`c_{j+1}`: one ``searchsorted`` per
    segment among the ``(show, midpoint)`` keys. A unit starts a new segment when some segment other
    than the show's first has :math:`c_j = u` (units before the first segment join it), so the
    positions are the distinct :math:`c_j` of the later segments in ``1 .. N - 1``.
    """
    _, show, c, later = segment_units(side, key, first, count)
    again = np.zeros(c.size, bool)
    again[1:] = later[1:] & later[:-1] & (c[1:] == c[:-1])
    boundary = later & ~again & (c >= 1) & (c < count[show])
    owner = np.searchsorted(scored, show[boundary])
    return c[boundary], np.searchsorted(owner, np.arange(scored.size + 1))


def segment_units(side, key, first, count):
    """``(kept, show, c, later)`` of the segments of ``side`` in a show with units (``kept``: their
    indices): the show, :math:`c_j` (:func:`unit_positions`), and whether the segment follows another
    of its show."""
    seg_show = np.asarray(side.show, np.int64)
    kept = np.flatnonzero(count[seg_show] > 0)
    show = seg_show[kept]
    query = np.empty(show.size, np.complex128)
    query.real = show
    query.imag = np.asarray(side.start, float)[kept]
    later = np.zeros(show.size, bool)
    later[1:] = show[1:] == show[:-1]
    return kept, show, np.searchsorted(key, query, side="left") - first[show], later


def chunk_positions(side, edges, cut, count, scored, chunk):
    """One side's boundary positions on chunkseg's grid (:func:`chunk_flags` of the segments' starts and
    ends strictly inside each region, ``edges`` its start and end per show in ticks, 0 for a show without
    one; one boundary where an end meets a start): ``(positions, offsets)`` over the scored shows."""
    seg_show = np.asarray(side.show, np.int64)
    keep = count[seg_show] > 0
    show = np.repeat(seg_show[keep], 2)
    times = np.empty(show.size)
    times[0::2] = np.asarray(side.start, float)[keep]
    times[1::2] = np.asarray(side.end, float)[keep]
    tick = np.asarray(side.start_ticks)[keep], np.asarray(side.end_ticks)[keep]
    ticks = np.empty(show.size, np.int64)
    ticks[0::2], ticks[1::2] = tick
    inside = (ticks > edges[0][show]) & (ticks < edges[1][show])
    show, times, ticks = show[inside], times[inside], ticks[inside]
    again = np.zeros(show.size, bool)  # a start at the previous end: one boundary, the first time
    again[1:] = (ticks[1:] == ticks[:-1]) & (show[1:] == show[:-1])
    show, times = show[~again], times[~again]
    counted, flag = _flagged(times, cut[show], count[show], chunk)
    show, flag = show[counted], flag[counted]
    again = np.zeros(show.size, bool)
    again[1:] = (flag[1:] == flag[:-1]) & (show[1:] == show[:-1])
    show, flag = show[~again], flag[~again]
    owner = np.searchsorted(scored, show)
    return flag + 1, np.searchsorted(owner, np.arange(scored.size + 1))


def _flagged(times, cut, count, chunk):
    """Whether chunkseg counts each boundary time (``0 < t <= cut``), and the chunk it flags."""
    return (times > 0.0) & (times <= cut), np.minimum(np.floor(times / chunk).astype(np.int64), count - 1)


def edge_ticks(region_start, region_end):
    """Each show's region ``(start, end)`` in ticks (:func:`tvseg.exact.ticks`), 0 where it has none (NaN)."""
    return ticks(np.nan_to_num(region_start)), ticks(np.nan_to_num(region_end))
