"""Time origins: a show's place on the clock, subtracted from the times read for it.

An origin is given for every side (``--time-origin 20:00:00``, ``time_origin=72000.0``), for one side
(``--time-origin units=10:00:00``: ``reference``, ``units``, ``uem`` or a system's name, winning over every
other origin of that side) or per show (a ``time_origin`` column in ``--metadata``, ``{show: seconds}``,
winning over the origin for every side): ``formats/columns.md``. A time less its origin is rounded to the
nanosecond, so that ``20:03:15.240`` less ``20:00:00`` is ``195.24`` as if written so; a time before its
origin is an error naming the file and the line.

A file timed by frame time codes that do not count real seconds (SCC at 29.97 frames a second, EBU STL's
``STL30.01`` and ``STL23.01``, as ttconv reads them) carries its :class:`~tvseg.readers.timecodes.TimeCodes`: an origin is then the
time code it names, counted as the file counts its own (``10:00:00`` is the time code ``10:00:00:00``, at
36,036 s of frames at 29.97 non-drop-frame, ``10:00:00;00`` at 35,999.964 s drop-frame), so that a caption at
``10:00:05:00`` is 5.005 s (150 frames) after it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tvseg.errors import InputError, UsageError
from tvseg.readers.corpus import Rows
from tvseg.readers.validation import CLOCK, MAX_SECONDS, parse_time

__all__ = ["TimeOrigins", "ShowOrigins", "parse_origin", "shift_rows", "shift_uem", "clock_text"]

SIDES = ("reference", "units", "uem")
"""The side names ``--time-origin SIDE=CLOCK`` takes besides the systems' names."""

_DIGITS = 9  # a time less its origin is rounded to the nanosecond


class ShowOrigins(dict):
    """``{show: seconds}`` whose missing shows have the origin ``default``."""

    def __init__(self, origins: Mapping[str, float], default: float = 0.0) -> None:
        super().__init__(origins)
        self.default = default

    def __missing__(self, show: str) -> float:
        return self.default


def parse_origin(text: str, *, path=None, line: int | None = None, what: str = "--time-origin") -> float:
    """A time origin in seconds: a clock time ``HH:MM:SS[.fff]`` (``,`` as decimal mark too) or seconds.

    Raises a :class:`UsageError` (an option: ``path`` None) or an :class:`InputError` naming ``path`` and
    ``line`` (a metadata cell).
    """
    stripped = text.strip().replace(",", ".")
    if path is None:
        if not (re.fullmatch(CLOCK, stripped) or re.fullmatch(r"\d+(?:\.\d+)?", stripped)):
            raise UsageError(f"{what} is a clock time HH:MM:SS[.fff] or seconds, not {text!r}")
        try:
            return parse_time(stripped, path="", line=0, field=what, clock=True)
        except InputError as error:
            raise UsageError(f"{error.message}: {text!r}") from None
    return parse_time(stripped, path=path, line=line or 0, field=what, clock=True)


def clock_text(seconds: float) -> str:
    """``HH:MM:SS`` (with ``.fff`` when the time has milliseconds) of ``seconds``; hours past 24 kept as such."""
    millis = round(seconds * 1000)
    whole, ms = divmod(millis, 1000)
    hours, rest = divmod(whole, 3600)
    text = f"{hours:02d}:{rest // 60:02d}:{rest % 60:02d}"
    return text + (f".{ms:03d}" if ms else "")


def _origin(origin: float | Mapping[str, float], show: str) -> float:
    if not isinstance(origin, Mapping):
        return float(origin)
    try:
        return float(origin[show])
    except KeyError:
        return 0.0


def _check(origin: float | Mapping[str, float] | None) -> None:
    values = [] if origin is None else list(origin.values()) if isinstance(origin, Mapping) else [origin]
    if isinstance(origin, ShowOrigins):
        values.append(origin.default)
    for value in values:
        if not (isinstance(value, (int, float)) and 0 <= value <= MAX_SECONDS):
            raise UsageError(f"time_origin= holds seconds from 0 to {MAX_SECONDS:g}, not {value!r}")


def shift_rows(rows: Rows, origin: float | Mapping[str, float] | None, *, side: str | None = None) -> Rows:
    """``rows`` with each show's origin subtracted from its starts and ends (``None`` or 0: unchanged).

    Raises
    ------
    InputError
        The first row (in the file) whose start falls before its show's origin, naming its file and line.
    """
    _check(origin)
    if origin is None or not len(rows.names):
        return rows
    per_show = np.array([_origin(origin, name) for name in rows.names], dtype=np.float64)
    if not per_show.any():
        return rows
    if rows.time_codes is not None:
        per_show = np.array([rows.time_codes.seconds(float(o)) if o else 0.0 for o in per_show], dtype=np.float64)
    shift = per_show[rows.show]
    start, end = np.round(rows.start - shift, _DIGITS), np.round(rows.end - shift, _DIGITS)
    before = np.flatnonzero((start < 0) & (shift > 0))
    if before.size:
        i = int(before[np.argmin(rows.line[before])])
        show = int(rows.show[i])
        raise InputError(
            f"{side + ': ' if side else ''}this time is before the time origin of show {rows.names[show]!r} "
            f"({clock_text(per_show[show])})",
            path=rows.files[show],
            line=int(rows.line[i]),
            value=clock_text(rows.start[i]),
        )
    return rows.replaced(start=start, end=end)


def shift_uem(uem, origin: float | Mapping[str, float] | None, *, path=None):
    """The UEM (:class:`~tvseg.columns.RegionColumns`, or ``{show: Timeline}``) with each show's origin
    subtracted from its regions' times, as :func:`shift_rows` shifts segments (``path``: the UEM file, for
    errors naming the region's line)."""
    from tvseg.columns import RegionColumns

    _check(origin)
    if uem is None or origin is None:
        return uem
    if not isinstance(uem, RegionColumns):
        uem = RegionColumns.from_timelines(uem)
    per_show = [_origin(origin, show) for show in uem.names]
    counts = np.diff(uem.offsets).tolist()
    shift = np.repeat(np.array(per_show, dtype=np.float64), counts)
    early = np.flatnonzero((uem.start < shift) & (shift > 0))
    if early.size:
        i = int(early[0])
        show = int(np.searchsorted(uem.offsets, i, side="right")) - 1
        raise InputError(
            f"uem: a region of show {uem.names[show]!r} starts before its time origin ({clock_text(per_show[show])})",
            path=path,
            line=None if uem.line is None else int(uem.line[i]),
            value=clock_text(float(uem.start[i])),
        )
    # Python's round (the decimal nearest), region by region
    start = [round(a - o, _DIGITS) if o else a for a, o in zip(uem.start.tolist(), shift.tolist())]
    end = [round(b - o, _DIGITS) if o else b for b, o in zip(uem.end.tolist(), shift.tolist())]
    return RegionColumns(uem.names, uem.offsets, start=start, end=end, line=uem.line, paths=uem.paths)


@dataclass(frozen=True)
class TimeOrigins:
    """The origins of a run (``--time-origin`` options and ``--metadata``'s ``time_origin`` column).

    Attributes
    ----------
    every : float, optional
        The origin of every side (``--time-origin CLOCK``).
    sides : dict
        Side -> origin (``--time-origin SIDE=CLOCK``): ``reference``, ``units``, ``uem`` or a system's name.
    shows : dict
        Show -> origin (the metadata column), used on the sides without an origin of their own.
    """

    every: float | None = None
    sides: dict[str, float] = field(default_factory=dict)
    shows: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_options(cls, values: list[str], *, systems, metadata: Mapping[str, float] | None) -> TimeOrigins | None:
        """The origins of ``--time-origin`` values (``[SIDE=]CLOCK``) and a metadata's per-show origins;
        None when there are none."""
        every, sides = per_side(
            values,
            option="--time-origin",
            known=(*SIDES, *systems),
            separator="=",
            parse=lambda clock, side: parse_origin(clock, what="--time-origin" + ("" if side is None else f" {side}=")),
        )
        shows = dict(metadata or {})
        if every is None and not sides and not shows:
            return None
        return cls(every, sides, shows)

    def of(self, side: str) -> float | ShowOrigins | None:
        """What ``time_origin=`` of a reader is for ``side`` (``reference``, ``units``, ``uem``, a system)."""
        if side in self.sides:
            return self.sides[side]
        if self.shows:
            return ShowOrigins(self.shows, self.every or 0.0)
        return self.every

    def by_show(self, side: str, shows) -> dict[str, float]:
        """``{show: origin}`` of ``side`` for ``shows``, the shows of origin 0 left out."""
        origin = self.of(side)
        if origin is None:
            return {}
        values = {show: _origin(origin, show) for show in shows}
        return {show: value for show, value in values.items() if value}


def per_side(values: list[str], *, option: str, known, separator: str, parse) -> tuple[Any, dict[str, Any]]:
    """``(value for every side, {side: value})`` of a repeatable ``[SIDE<separator>]VALUE`` option
    (``--time-origin``, ``--columns``): ``parse(text, side)`` reads a value (side None: every side's).

    Raises
    ------
    UsageError
        A side that is not in ``known``, or a side (or every side) given twice.
    """
    every, sides = None, {}
    for value in values:
        if separator == "=":
            side, sep, text = value.rpartition(separator)
        else:
            key = value.partition("=")[0]
            side, sep, _ = key.partition(separator)
            text = value[len(side) + 1 :] if sep else value
        if not sep:
            if every is not None:
                raise UsageError(f"{option} (for every side) is given twice")
            every = parse(text, None)
            continue
        if side not in known:
            raise UsageError(f"{option} {value!r}: {side!r} is not a side (choose from {', '.join(known)})")
        if side in sides:
            raise UsageError(f"{option} {side}{separator} is given twice")
        sides[side] = parse(text, side)
    return every, sides
