"""NIST UEM: the evaluated regions of each show.

One region per line, fields separated by spaces or tabs: ``SHOW CHANNEL START END`` (seconds).
``;;`` starts a comment line; blank lines are skipped. A show may have several regions; they
must not overlap (touching is fine). See ``formats/uem.md``. :func:`crop_to_uem` crops a show's
segments to its regions and counts what it changed (:class:`UemCrop`); a segment that spans a gap
between two regions stays one segment (:mod:`tvseg.retrieval.region` says how it is scored).
"""

from __future__ import annotations

import bisect
import warnings
from typing import TYPE_CHECKING

import numpy as np

from tvseg.errors import InputError, TvsegWarning
from tvseg.readers.corpus import Rows, check_spans
from tvseg.readers.rttm import split_fields
from tvseg.readers.source import read_text, split_lines, warn
from tvseg.readers.validation import parse_time

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pyannote.core import Annotation, Segment, Timeline

__all__ = ["read_uem", "crop_to_uem", "crop_segment", "UemCrop"]


def read_uem(path, *, encoding: str | None = None) -> dict[str, Timeline]:
    """Read a UEM file into ``{show: Timeline}`` of its evaluated regions.

    Parameters
    ----------
    path : str or os.PathLike
        The UEM file (``show channel start end`` lines).
    encoding : str, optional
        The file's encoding (default UTF-8; see :func:`~tvseg.readers.source.read_text`).

    Raises
    ------
    InputError
        A line without exactly 4 fields, a bad time, an end not after the start, overlapping
        regions of one show, or a file without any region.
    """
    regions: dict[str, list[tuple[float, float, str, int]]] = {}
    for number, raw in enumerate(split_lines(read_text(path, encoding=encoding)), start=1):
        fields = split_fields(raw)
        if not fields or fields[0].startswith(";;"):
            continue
        if len(fields) != 4:
            raise InputError(
                f"expected 4 fields (show channel start end), found {len(fields)}", path=path, line=number, value=raw
            )
        show, _channel, start_text, end_text = fields
        start = parse_time(start_text, path=path, line=number, field="start")
        end = parse_time(end_text, path=path, line=number, field="end")
        regions.setdefault(show, []).append((start, end, show, number))
    if not regions:
        raise InputError("no UEM line (only comments or blank lines)", path=path, line=1)
    rows, error, _ = check_spans(Rows.of_file(path, regions), what="UEM region")
    if error is not None:
        raise error
    from pyannote.core import Segment, Timeline

    by_show = np.argsort(rows.show, kind="stable")  # each show's regions, sorted
    bounds = np.cumsum(np.bincount(rows.show, minlength=len(rows.names)))[:-1]
    return {
        show: Timeline([Segment(a, b) for a, b in zip(rows.start[k].tolist(), rows.end[k].tolist())], uri=show)
        for show, k in zip(rows.names, np.split(by_show, bounds))
    }


class UemCrop:
    """What cropping to the UEM did to the segments of one file (counts and seconds)."""

    def __init__(self) -> None:
        self.shows = self.shortened = self.spanning = self.dropped = 0
        self.seconds = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.shortened or self.spanning or self.dropped)

    def __str__(self) -> str:
        return (
            f"{self.shortened} segment(s) shortened, {self.spanning} spanning a UEM gap (kept whole; their parts "
            f"in the gap are not evaluated), {self.dropped} left out (wholly outside), {self.seconds:.3f} s "
            f"outside the regions, in {self.shows} show(s)"
        )


def crop_segment(
    segment: Segment, regions: list[Segment], region_ends: list[float]
) -> tuple[Segment | None, int, float]:
    """One segment cropped to a show's UEM ``regions`` (sorted, disjoint; ``region_ends`` their ends).

    Returns ``(cropped, parts, inside)``: the segment from the start of its first part inside a region
    to the end of its last (None when no part is inside), how many regions it meets, and the seconds
    of its parts inside them. A segment that spans a gap stays one segment
    (:mod:`tvseg.retrieval.region`): only what lies before the first region it meets and after the
    last is cut.
    """
    first = bisect.bisect_right(region_ends, segment.start)
    parts = []
    for region in regions[first:]:
        if region.start >= segment.end:
            break
        part = segment & region
        if part:
            parts.append(part)
    if not parts:
        return None, 0, 0.0
    inside = sum(part.duration for part in parts)
    if len(parts) == 1 and parts[0] == segment:
        return segment, 1, inside
    return type(segment)(parts[0].start, parts[-1].end), len(parts), inside


def crop_to_uem(
    annotation: Annotation,
    uem: Mapping[str, Timeline],
    *,
    path=None,
    lines: list[int] | None = None,
    side: str | None = None,
    counts: UemCrop | None = None,
) -> Annotation:
    """Crop a show's segments to its UEM regions (see :func:`read_segments` and :func:`crop_segment`).

    ``path`` is the file the segments were read from and ``lines[track]`` the line of each track,
    named by the warnings (with ``side``); ``counts`` accumulates what the cropping did.
    """
    from pyannote.core import Annotation

    show = annotation.uri
    who = f"{side}: " if side else ""
    if show not in uem:
        _warn_show(
            f"{who}show {show!r} is not in the UEM: its segments are kept uncropped",
            path,
            None if not lines else min(lines),
        )
        return annotation
    counts = counts if counts is not None else UemCrop()
    before = (counts.shortened, counts.spanning, counts.dropped)
    regions = list(uem[show].support())  # sorted, touching regions merged: no gap between them
    region_ends = [region.end for region in regions]
    cropped = Annotation(uri=show)
    for segment, track, label in annotation.itertracks(yield_label=True):
        kept, parts, inside = crop_segment(segment, regions, region_ends)
        if kept is None:
            counts.dropped += 1
            _warn_show(
                f"{who}show {show!r}: segment {segment.start:.3f}-{segment.end:.3f} ({label}) "
                "is outside the UEM and is left out",
                path,
                lines[track] if lines else None,
            )
        else:
            if parts > 1:
                counts.spanning += 1
            if kept != segment:
                counts.shortened += 1
            cropped[kept, track] = label
        counts.seconds += segment.duration - inside
    if (counts.shortened, counts.spanning, counts.dropped) != before:
        counts.shows += 1
    return cropped


def _warn_show(message: str, path, line: int | None) -> None:
    if path is None:
        warnings.warn(message, TvsegWarning, stacklevel=4)
    else:
        warn(message, path=path, line=line)
