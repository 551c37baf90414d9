"""NIST UEM: the evaluated regions of each show.

One region per line, fields separated by spaces or tabs: ``SHOW CHANNEL START END`` (seconds).
``;;`` starts a comment line; blank lines are skipped. A show may have several regions; they
must not overlap (touching is fine). See ``formats/uem.md``. :func:`crop_spans` crops segments to a
show's regions on arrays, the one cropping to a UEM that reading and :func:`tvseg.evaluate` use
(:func:`crop_show` on a show's columns, counting what it changed in :class:`UemCrop`); a segment that
spans a gap between two regions stays one segment (:mod:`tvseg.retrieval.region` says how it is scored).
"""

from __future__ import annotations

import numpy as np

from tvseg.arguments import check_path
from tvseg.columns import RegionColumns, SpanCrop, crop_spans, merge_regions
from tvseg.errors import InputError
from tvseg.exact import TICKS_PER_SECOND, ticks
from tvseg.pyannote_objects import SEGMENT_PRECISION
from tvseg.readers.corpus import Rows, check_spans
from tvseg.readers.rttm import split_fields
from tvseg.readers.source import read_text, split_lines, warn
from tvseg.readers.validation import parse_time

__all__ = [
    "read_uem",
    "uem_rows",
    "crop_show",
    "warn_not_in_uem",
    "crop_spans",
    "uem_regions",
    "regions_of",
    "RegionColumns",
    "SpanCrop",
    "UemCrop",
]


def read_uem(path, *, encoding: str | None = None) -> RegionColumns:
    """Read a UEM file: its evaluated regions, a mapping ``{show: Timeline}``.

    Parameters
    ----------
    path : str or os.PathLike
        The UEM file (``show channel start end`` lines).
    encoding : str, optional
        The file's encoding (default UTF-8; see :func:`~tvseg.readers.source.read_text`).

    Returns
    -------
    tvseg.columns.RegionColumns
        The regions as flat arrays (sorted by show and start, each with its line); ``uem[show]`` builds a
        pyannote.core Timeline of the show's regions when a caller asks for one.

    Raises
    ------
    InputError
        A line without exactly 4 fields, a bad time, an end not after the start, overlapping
        regions of one show, or a file without any region; a ``path`` that is not a str or an
        ``os.PathLike``.
    """
    check_path("path", path)
    rows = uem_rows(path, encoding=encoding)
    order = sorted(range(len(rows.names)), key=rows.names.__getitem__)  # the shows sorted by id
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    by_show = np.argsort(rank[rows.show], kind="stable")  # each show's regions, in the order checked
    counts = np.bincount(rows.show, minlength=len(rows.names))[order]
    return RegionColumns(
        [rows.names[k] for k in order],
        np.concatenate(([0], np.cumsum(counts))),
        start=rows.start[by_show],
        end=rows.end[by_show],
        line=rows.line[by_show] if rows.line is not None else None,
        paths=[path] * len(rows.names),
    )


def uem_rows(path, *, encoding: str | None = None) -> Rows:
    """The regions of a UEM file as :func:`read_uem` reads and checks them, one row each (sorted by
    show and start; ``rows.names`` the shows), without building pyannote objects: for a caller that
    counts them (``tvseg validate``). The same errors as :func:`read_uem`."""
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
    return rows


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


def uem_regions(timeline) -> tuple[np.ndarray, np.ndarray]:
    """A show's UEM regions (a Timeline, or ``(start, end)`` pairs sorted by start) merged as pyannote's
    ``Timeline.support()`` merges them, as ``(start, end)`` float arrays (:func:`~tvseg.columns.merge_regions`)."""
    pairs = np.array([(segment.start, segment.end) for segment in timeline], dtype=float).reshape(-1, 2)
    return merge_regions(pairs[:, 0], pairs[:, 1])


def regions_of(uem, show: str) -> tuple[np.ndarray, np.ndarray] | None:
    """``show``'s regions in ``uem`` (read by :func:`read_uem`, or a user's ``{show: Timeline}``) merged as
    :func:`uem_regions` merges them; None when the UEM lacks the show or gives it no region."""
    if uem is None or show not in uem:
        return None
    if isinstance(uem, RegionColumns):
        start, end = uem.merged(show)
    else:
        start, end = uem_regions(uem[show])
    return (start, end) if len(start) else None


def warn_not_in_uem(show: str, *, path, lines: list[int] | None = None, side: str | None = None) -> None:
    """Warn that the segments of ``show``, which the UEM lacks, are kept uncropped (naming the first of
    the ``lines`` of ``path`` they were read from, and ``side``)."""
    who = f"{side}: " if side else ""
    warn(
        f"{who}show {show!r} is not in the UEM: its segments are kept uncropped",
        path=path,
        line=min(lines) if lines else None,
    )


def crop_show(
    show: str,
    start,
    end,
    labels,
    regions,
    *,
    path,
    lines=None,
    side: str | None = None,
    counts: UemCrop | None = None,
) -> SpanCrop:
    """One show's segments (``start``, ``end`` in seconds, their ``labels`` and the ``lines`` they were
    read from) cropped to its UEM ``regions`` (merged ``(start, end)`` arrays, :func:`regions_of`;
    :func:`crop_spans`): a warning for each segment left out, and ``counts`` accumulates what the cropping did."""
    counts = counts if counts is not None else UemCrop()
    region_start, region_end = regions
    crop = crop_spans(start, end, region_start, region_end)
    who = f"{side}: " if side else ""
    for k in np.flatnonzero(~crop.kept).tolist():
        warn(
            f"{who}show {show!r}: segment {start[k]:.3f}-{end[k]:.3f} ({labels[k]}) is outside the UEM and is left out",
            path=path,
            line=lines[k] if lines else None,
        )
    dropped = int(np.count_nonzero(~crop.kept))
    spanning = int(np.count_nonzero(crop.parts > 1))
    shortened = int(np.count_nonzero(crop.kept & ((crop.start != start) | (crop.end != end))))
    counts.dropped += dropped
    counts.spanning += spanning
    counts.shortened += shortened
    duration = np.where((end - start) > SEGMENT_PRECISION, ticks(end) - ticks(start), 0)
    counts.seconds += int((duration - crop.inside).sum()) / TICKS_PER_SECOND
    if dropped or spanning or shortened:
        counts.shows += 1
    return crop
