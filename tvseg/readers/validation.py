"""The validation policy shared by every reader (``formats/README.md``).

- Times are decimal numbers of seconds in tvseg's one time range, ``[0, MAX_SECONDS]``
  (:data:`tvseg.exact.MAX_SECONDS`); anything else (``nan``, ``inf``, ``1e999``, ``1_0``, an empty field) is
  refused, and so is an end a reader computes beyond the range (:func:`too_large`). CSV time columns also
  take clock times ``[H:]MM:SS[.fff]`` (:func:`clock_seconds`).
- A whole number written in a file has at most :data:`MAX_DIGITS` digits (:func:`whole_number`).
- A segment must last longer than pyannote.core's precision (1 µs); two segments of one show from one file
  that overlap are refused, naming both lines (:func:`tvseg.readers.corpus.check_spans`).

Every refusal is an :class:`~tvseg.errors.InputError` naming the file, the line and the value.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import numpy as np

from tvseg.errors import InputError
from tvseg.exact import MAX_SECONDS

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "NO_LABEL",
    "MAX_SECONDS",
    "MAX_DIGITS",
    "DECIMAL",
    "CLOCK",
    "parse_time",
    "clock_seconds",
    "too_large",
    "whole_number",
]

MAX_DIGITS = 100
"""The most digits of a whole number read from a file: far beyond any time in tvseg's range or any
int64, far below the 4,300 digits Python converts by default."""

NO_LABEL = "<NA>"
"""The label of a segment that has none (RTTM ``<NA>``, an empty cue text, an empty CSV cell)."""

DECIMAL = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
"""A decimal number as written in a file (no ``nan``, ``inf`` or ``_`` that float() would take)."""
_DECIMAL = re.compile(DECIMAL)


CLOCK = r"(?:(\d+):)?(\d+):(\d{2})(\.\d+)?"
"""A clock time ``[H:]MM:SS[.fff]``: hours of any number of digits, two-digit minutes when there are
hours (any number of minutes without), two-digit seconds, an optional fraction (the readers take up to
:data:`MAX_DIGITS` digits of hours or minutes)."""


def parse_time(text: str, *, path, line: int, field: str, clock: bool = False, decimal_comma: bool = False) -> float:
    """Read a time in seconds, refusing anything but a non-negative decimal number up to
    :data:`MAX_SECONDS` (tvseg's time range).

    Parameters
    ----------
    text : str
        The field as written in the file.
    path, line
        Where it comes from, for the error message.
    field : str
        The field's name (``start``, ``duration``...), for the error message.
    clock : bool, default False
        Also accept clock times ``[H:]MM:SS[.fff]`` (:data:`CLOCK`).
    decimal_comma : bool, default False
        Read a comma as the decimal mark (``7,22``, ``00:00:07,220``).
    """
    stripped = text.strip()
    if decimal_comma:
        stripped = stripped.replace(",", ".")
    if _DECIMAL.fullmatch(stripped):
        value = float(stripped)
    elif clock and (parts := re.fullmatch(CLOCK, stripped)):
        for name, digits in zip(("hours", "minutes", "seconds"), parts.groups()):
            if digits is not None:
                _check_digits(digits, path=path, line=line, field=f"{field}'s {name}", value=text)
        import pandas as pd

        value = float(clock_seconds(pd.Series([stripped]))[0])
        if math.isnan(value):
            raise InputError(
                f"{field} is a clock time with minutes or seconds over 59, or unpadded minutes after hours",
                path=path,
                line=line,
                value=text,
            )
    else:
        what = "missing" if not stripped else "not a number"
        if clock and stripped:
            what += " of seconds or a [H:]MM:SS[.fff] time"
        raise InputError(f"{field} is {what}", path=path, line=line, value=text)
    if not math.isfinite(value):
        raise InputError(f"{field} is not finite", path=path, line=line, value=text)
    if value < 0:
        raise InputError(f"{field} is negative", path=path, line=line, value=text)
    if value > MAX_SECONDS:
        raise InputError(too_large(field), path=path, line=line, value=text)
    return value


def _check_digits(digits: str, *, path, line: int | None, field: str, value: str | None = None) -> None:
    """Refuse a field of more than :data:`MAX_DIGITS` characters: ``PATH:LINE: {field} has N digits (at most
    MAX_DIGITS): 'value'`` (``value``: what the message shows, ``digits`` by default)."""
    if len(digits) > MAX_DIGITS:
        raise InputError(
            f"{field} has {len(digits):,} digits (at most {MAX_DIGITS})",
            path=path,
            line=line,
            value=digits if value is None else value,
        )


def whole_number(digits: str, *, path, line: int | None, field: str, value: str | None = None) -> int:
    """The whole number written as ``digits`` (decimal digits, as ``\\d`` matches them), refusing more
    than :data:`MAX_DIGITS` of them (:func:`_check_digits`, same parameters) instead of Python's
    ``ValueError``.

    Raises
    ------
    InputError
        More than :data:`MAX_DIGITS` digits, or anything but decimal digits, naming the file, the line
        and ``value``.
    """
    _check_digits(digits, path=path, line=line, field=field, value=value)
    if not digits.isdecimal():
        raise InputError(
            f"{field} is not a whole number", path=path, line=line, value=digits if value is None else value
        )
    return int(digits)


def too_large(what: str) -> str:
    """The message of every reader for a time beyond the range: ``"{what} is too large (...)"``."""
    return f"{what} is too large (more than {MAX_SECONDS:,.0f} seconds, the end of tvseg's time range)"


def clock_seconds(cells: pd.Series) -> np.ndarray:
    """The seconds of the clock times ``[H:]MM:SS[.fff]`` among ``cells`` (stripped text), NaN elsewhere.

    Minutes and seconds are at most 59 (minutes are not bounded without hours: ``75:30`` is
    4530 s). The value is exact as if the seconds had been written as a decimal number: the
    whole seconds are summed as integers, then read with the fraction as one decimal.
    """
    import pandas as pd

    parts = cells.str.extract(f"^{CLOCK}$")
    long = np.zeros(len(parts), dtype=bool)
    for k in (0, 1):  # more digits than Python converts: no time here (parse_time names the field)
        over = (parts[k].str.len() > MAX_DIGITS).to_numpy(dtype=bool)
        if over.any():
            long |= over
            parts.loc[over, k] = "0"
    hours = pd.to_numeric(parts[0].fillna("0")).to_numpy(dtype=float)
    minutes = pd.to_numeric(parts[1], errors="coerce").to_numpy(dtype=float)
    seconds = pd.to_numeric(parts[2], errors="coerce").to_numpy(dtype=float)
    with_hours = parts[0].notna().to_numpy()
    good = (
        ~long
        & ~np.isnan(minutes)
        & (seconds <= 59)
        & (~with_hours | ((parts[1].str.len() == 2).to_numpy() & (minutes <= 59)))
    )
    whole = hours * 3600 + minutes * 60 + seconds
    small = good & (whole <= MAX_SECONDS)
    result = np.where(good, whole, np.nan)
    if small.any():
        fraction = parts[3].fillna("").to_numpy(dtype=object)[small]
        exact = pd.Series(whole[small].astype(np.int64).astype(str) + fraction)
        result[small] = pd.to_numeric(exact).to_numpy(dtype=float)
    return result
