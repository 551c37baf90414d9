"""chunkseg's JSONL (chunkseg 0.4.0): one show per line, its reference and a hypothesis.

A line is a JSON object ``{"show": ..., "reference": [boundaries], "hypothesis": [boundaries], "duration":
d, "reference_titles": [[title, start], ...], "hyp_titles": [...]}``; a side's segments are ``[0, b1), [b1,
b2), ..., [bk, duration)``. What is read, accepted and refused: ``formats/jsonl.md``. Both sides of every
line are checked whichever side is read; numbers are read from the digits as written
(:func:`~tvseg.readers.json_values.json_time`).
"""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

from tvseg.errors import InputError, UsageError
from tvseg.exact import MAX_SECONDS
from tvseg.readers.json_values import (
    Number,
    dumps,
    expect,
    json_line,
    json_time,
    no_surrogate,
    warn_unread,
)
from tvseg.readers.source import read_text, split_lines
from tvseg.readers.validation import NO_LABEL

__all__ = ["SIDES", "JsonlShow", "read_jsonl", "jsonl_records"]

SIDES = ("reference", "hypothesis")
_TITLES = {"reference": "reference_titles", "hypothesis": "hyp_titles"}
_READ = {"show", "video_id", "id", "reference", "hypothesis", "duration", "reference_titles", "hyp_titles"}
_ID_FIELDS = ("show", "video_id", "id")
_NOT_SEGMENTS = {"audio", "reference_transcript", "format"}


@dataclass
class JsonlShow:
    """One line: the show id, its line, the duration and the segments ``(start, end, label, line)`` of each
    side (None: absent)."""

    show: str
    line: int
    duration: float
    sides: dict[str, list[tuple[float, float, str, int]] | None]
    missing: dict[str, str]


def read_jsonl(path, *, encoding: str | None = None) -> list[JsonlShow]:
    """Read and check every line of a chunkseg JSONL file (both sides of each), in ``encoding`` (default UTF-8)."""
    shows: list[JsonlShow] = []
    seen: dict[str, int] = {}
    unknown: dict[str, int] = {}
    stem = Path(path).stem
    for number, raw in enumerate(split_lines(read_text(path, encoding=encoding)), start=1):
        if not raw.strip():
            continue
        data = json_line(raw, path=path, line=number)
        if not isinstance(data, dict):
            raise InputError(
                'a chunkseg JSONL line is a JSON object {"reference": [...], "duration": ...}',
                path=path,
                line=number,
                value=raw,
            )
        for key in data:
            if key not in _READ and key not in _NOT_SEGMENTS:
                unknown.setdefault(key, number)
        field = next((key for key in _ID_FIELDS if data.get(key) is not None), None)
        show = None if field is None else data[field]
        if field in ("video_id", "id") and isinstance(show, Number) and re.fullmatch("[0-9]+", show):
            show = str(show)
        elif show is None:
            show = f"{stem}-{number}"
        elif not isinstance(show, str) or not show.strip() or isinstance(show, Number):
            raise InputError(f"'{field}' must be a non-empty string", path=path, line=number, value=repr(show))
        else:
            no_surrogate(show, "'show'", path=path, line=number)
        if show in seen:
            raise InputError(f"show already read from line {seen[show]}", path=path, line=number, value=show)
        seen[show] = number
        if "duration" not in data:
            raise InputError("no 'duration' (the show's length in seconds)", path=path, line=number)
        duration = _time(data["duration"], path=path, line=number, field="duration")
        if duration == 0:
            raise InputError("duration is zero", path=path, line=number, value=str(data["duration"]))
        if "reference" not in data:
            raise InputError("no 'reference' (the reference's boundary times)", path=path, line=number)
        sides: dict[str, list[tuple[float, float, str, int]] | None] = {}
        missing: dict[str, str] = {}
        for side in SIDES:
            value = data.get(side)
            if side == "hypothesis" and (value is None or isinstance(value, str)) and not isinstance(value, Number):
                sides[side] = None
                missing[side] = (
                    "no 'hypothesis' in this line"
                    if value is None
                    else "the hypothesis is a transcript (chunkseg's transcript mode), not boundary times"
                )
                continue
            sides[side] = _side(data[side], data.get(_TITLES[side]), duration, path=path, line=number, side=side)
        shows.append(JsonlShow(show, number, duration, sides, missing))
    if not shows:
        raise InputError("no JSONL line", path=path, line=1)
    reads = "show, video_id, id, reference, hypothesis, duration, reference_titles, hyp_titles"
    warn_unread(unknown, reads, path=path)
    return shows


def _time(value, *, path, line: int, field: str) -> float:
    return json_time(value, path=path, line=line, field=field, limit=None)


def _side(boundaries, titles, duration: float, *, path, line: int, side: str) -> list[tuple[float, float, str, int]]:
    expect(boundaries, list, f"'{side}' must be a list of boundary times in seconds", path=path, line=line)
    times = _plain_times(boundaries, duration)
    if times is None:  # some value is refused: found and named value by value
        times = _checked_times(boundaries, duration, path=path, line=line, side=side)
    starts = [0.0] + sorted(times - {0.0})
    ends = starts[1:] + [duration]
    if titles is None:
        return [(start, end, NO_LABEL, line) for start, end in zip(starts, ends)]
    labels = _titles(titles, set(starts), path=path, line=line, side=side)
    return [(start, end, labels.get(start, NO_LABEL), line) for start, end in zip(starts, ends)]


def _plain_times(boundaries: list, duration: float) -> set[float] | None:
    """The boundary times when every one is a JSON number from 0 to before ``duration``, none given twice
    (as :func:`_checked_times` reads them, all at once); else None."""
    if not all(type(value) is Number for value in boundaries):
        return None
    seconds = list(map(float, boundaries))
    times = set(seconds)
    if len(times) < len(seconds) or not all(0.0 <= time <= MAX_SECONDS and time < duration for time in seconds):
        return None  # (NaN fails the comparisons)
    return times


def _checked_times(boundaries: list, duration: float, *, path, line: int, side: str) -> set[float]:
    times: set[float] = set()
    for value in boundaries:
        time = _time(value, path=path, line=line, field=f"{side} boundary")
        if time >= duration:
            raise InputError(
                f"{side} boundary at or after the duration ({duration:g} s)", path=path, line=line, value=str(value)
            )
        if time in times:
            raise InputError(f"{side} boundary given twice", path=path, line=line, value=str(value))
        times.add(time)
    return times


def _titles(titles, starts: set[float], *, path, line: int, side: str) -> dict[float, str]:
    field = _TITLES[side]
    expect(titles, list, f"'{field}' must be a list of [title, start] pairs", path=path, line=line)
    labels: dict[float, str] = {}
    for pair in titles:
        if not (
            isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and not isinstance(pair[0], Number)
        ):
            raise InputError(
                f"'{field}' holds a pair that is not [title, start]",
                path=path,
                line=line,
                value=dumps(pair, limit=None),
            )
        title, start_value = pair
        no_surrogate(title, f"a title of '{field}'", path=path, line=line)
        start = _time(start_value, path=path, line=line, field=f"{field} start")
        if start not in starts:
            raise InputError(
                f"a title of '{field}' starts at no segment start of the {side} (0 or one of its boundaries)",
                path=path,
                line=line,
                value=dumps(pair, limit=None),
            )
        if start in labels:
            raise InputError(
                f"two titles of '{field}' start at the same time", path=path, line=line, value=str(start_value)
            )
        labels[start] = title.strip() or NO_LABEL
    return labels


_LAST_READ: list = []
"""The last file :func:`_read_once` read: ``[(key, shows, warnings)]``, or empty."""


def _read_once(path, *, encoding: str | None) -> list[JsonlShow]:
    """:func:`read_jsonl` of ``path``, read once for both of its sides: the shows of the last file read, and the
    warnings its reading gave (issued again at each call, as a reading would), are kept while the file is
    unchanged (same path, size and modification time)."""
    status = os.stat(path)
    key = (os.path.abspath(path), status.st_size, status.st_mtime_ns, encoding)
    if not _LAST_READ or _LAST_READ[0][0] != key:
        _LAST_READ.clear()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            shows = read_jsonl(path, encoding=encoding)
        _LAST_READ.append((key, shows, caught))
    _, shows, caught = _LAST_READ[0]
    for warning in caught:
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return shows


def jsonl_records(
    path, *, which: str | None, side: str | None = None, encoding: str | None = None
) -> dict[str, list[tuple[float, float, str, int]]]:
    """``{show: records}`` of one side (``"reference"`` or ``"hypothesis"``) of a JSONL file.

    ``which=None`` reads the reference, unless ``side`` (how the caller names what it reads) is a
    system's name: a JSONL file given as a system must say which side it is read as.
    """
    if which is None and side not in (None, "reference"):
        raise UsageError(
            f"{path}: a chunkseg JSONL file holds a reference and a hypothesis on each line: "
            f"say which side to read as {side!r} (which='hypothesis' or which='reference')"
        )
    which = which or "reference"
    result = {}
    for entry in _read_once(path, encoding=encoding):
        records = entry.sides[which]
        if records is None:
            raise InputError(
                f"{entry.missing[which]}: cannot read the hypothesis of show {entry.show!r}", path=path, line=entry.line
            )
        result[entry.show] = records
    return result
