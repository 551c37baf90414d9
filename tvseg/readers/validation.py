"""The validation policy shared by every reader (see ``formats/README.md``).

- Times are decimal numbers of seconds, finite and not negative; anything else (``nan``, ``inf``,
  ``1_0``, ``12:00``, an empty field) is refused.
- A segment must last longer than pyannote.core's precision (1 µs): a zero or negative duration,
  or an end before the start, is refused.
- Segments are sorted by start; two segments of one show from one file that overlap are refused,
  naming both lines. Touching segments (one ends where the next starts) and gaps are allowed.

Every refusal is an :class:`~tvseg.errors.InputError` naming the file, the line and the value.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
from pyannote.core import Annotation, Segment

from tvseg.errors import InputError

__all__ = ["NO_LABEL", "Record", "parse_time", "check_records", "to_annotation"]

NO_LABEL = "<NA>"
"""The label of a segment that has none (RTTM ``<NA>``, an empty cue text, an empty CSV cell)."""

DECIMAL = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
"""A decimal number as written in a file (no ``nan``, ``inf`` or ``_`` that float() would take)."""
_DECIMAL = re.compile(DECIMAL)


@dataclass(frozen=True)
class Record:
    """One segment or unit as read, before it becomes part of an Annotation or a DataFrame."""

    start: float
    end: float
    label: str
    line: int


def parse_time(text: str, *, path, line: int, field: str) -> float:
    """Read a time in seconds, refusing anything but a finite, non-negative decimal number.

    Parameters
    ----------
    text : str
        The field as written in the file.
    path, line
        Where it comes from, for the error message.
    field : str
        The field's name (``start``, ``duration``...), for the error message.
    """
    stripped = text.strip()
    if not _DECIMAL.fullmatch(stripped):
        what = "missing" if not stripped else "not a number"
        raise InputError(f"{field} is {what}", path=path, line=line, value=text)
    value = float(stripped)
    if not math.isfinite(value):
        raise InputError(f"{field} is not finite", path=path, line=line, value=text)
    if value < 0:
        raise InputError(f"{field} is negative", path=path, line=line, value=text)
    return value


def check_records(records: list[Record], *, path, what: str = "segment") -> list[Record]:
    """Sort records by start and refuse empty or negative spans and overlaps.

    Works in one sorted sweep: after sorting, a record overlaps an earlier one exactly when its
    start is before the largest end seen so far.

    Returns
    -------
    list of Record
        The records sorted by (start, end, line).
    """
    for record in records:
        if not Segment(record.start, record.end):
            problem = "end before start" if record.end < record.start else "zero duration"
            raise InputError(f"{what} with {problem}", path=path, line=record.line,
                             value=f"{record.start:g} -> {record.end:g}")
    ordered = sorted(records, key=lambda r: (r.start, r.end, r.line))
    if len(ordered) < 2:
        return ordered
    starts = np.fromiter((r.start for r in ordered), dtype=float, count=len(ordered))
    ends = np.fromiter((r.end for r in ordered), dtype=float, count=len(ordered))
    latest_end = np.maximum.accumulate(ends)
    clashes = np.flatnonzero(starts[1:] < latest_end[:-1])
    if clashes.size:
        i = int(clashes[0]) + 1
        j = int(np.flatnonzero(ends[:i] > starts[i])[0])
        first, second = ordered[j], ordered[i]
        lines = sorted((first.line, second.line))
        raise InputError(f"{what}s overlap (lines {lines[0]} and {lines[1]})", path=path,
                         line=lines[1],
                         value=f"{first.start:g}-{first.end:g} and {second.start:g}-{second.end:g}")
    return ordered


def to_annotation(show: str, records: list[Record], *, path) -> Annotation:
    """Validate the records of one show and return them as an Annotation, one track per segment."""
    annotation = Annotation(uri=show)
    for track, record in enumerate(check_records(records, path=path)):
        annotation[Segment(record.start, record.end), track] = record.label
    return annotation
