r"""SMPTE timecodes (``HH:MM:SS:FF``, drop-frame ``HH:MM:SS;FF``) read as seconds at a frame rate.

A timecode counts frames: ``HH:MM:SS:FF`` is frame :math:`n = ((60 H + M) 60 + S) N + F` of a rate
whose nominal count per second is :math:`N` (the rate rounded up: 30 for 29.97), and the time is
:math:`n / r` seconds at the true rate :math:`r` (``29.97`` is :math:`30000/1001`, ``23.976``
:math:`24000/1001`, ``59.94`` :math:`60000/1001`; any other rate as the decimal written). A
drop-frame timecode (a ``;`` before the frames, SMPTE 12M) skips the labels ``00`` and ``01``
(``00`` to ``03`` at 59.94) at the start of every minute but each tenth, so that it keeps to the clock:
:math:`n = N (3600 H + 60 M + S) + F - d (60 H + M - \lfloor (60 H + M) / 10 \rfloor)` with :math:`d`
the labels dropped a minute; a label it skips is refused. The seconds are computed as fractions and
rounded to the microsecond (:mod:`tvseg.exact`), so that ``10:00:05:12`` at 25 fps is ``36005.48`` as if
written so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor

from tvseg.errors import InputError, UsageError
from tvseg.exact import MAX_SECONDS, TICKS_PER_SECOND

__all__ = ["TIMECODE", "TimeCodes", "frame_rate", "timecode_seconds"]

TIMECODE = re.compile(r"(\d{2,})[:;](\d{2})[:;](\d{2})([:;])(\d{2,3})")
"""A SMPTE timecode: hours, minutes, seconds, frames; ``;`` before the frames is drop-frame (the other
separators may be ``;`` too, as some tools write ``10;00;05;12``)."""
_NTSC = {"23.976": Fraction(24000, 1001), "29.97": Fraction(30000, 1001), "47.952": Fraction(48000, 1001),
         "59.94": Fraction(60000, 1001), "119.88": Fraction(120000, 1001)}  # fmt: skip
_RATE = re.compile(r"\d+(\.\d+)?")


def frame_rate(text: str) -> Fraction:
    """The true frame rate of ``fps=`` as written: ``25``, ``29.97`` (30000/1001), ``23.976``, ``59.94``...

    Raises
    ------
    UsageError
        Not a positive decimal number of at most 1000 frames a second.
    """
    stripped = str(text).strip()
    if not _RATE.fullmatch(stripped) or not 0 < Fraction(stripped) <= 1000:
        raise UsageError(f"--columns: fps={stripped} is not a frame rate (25, 29.97, 23.976, ...)")
    return _NTSC.get(stripped, Fraction(stripped))


def timecode_seconds(text: str, rate: Fraction, *, path, line: int, field: str) -> float | None:
    """The seconds of a SMPTE timecode at ``rate`` (:func:`frame_rate`), or None when ``text`` is no
    timecode.

    Raises
    ------
    InputError
        Minutes or seconds over 59, a frame label the rate has not (``25`` at 25 fps), drop-frame at a
        rate that is not 29.97 or 59.94, a label drop-frame skips, a time beyond tvseg's range.
    """
    match = TIMECODE.fullmatch(text.strip())
    if match is None:
        return None
    hours, minutes, seconds, mark, frames = match.groups()
    h, m, s, f = int(hours), int(minutes), int(seconds), int(frames)
    nominal = -(-rate.numerator // rate.denominator)  # 30 for 29.97
    drop = mark == ";"
    if m > 59 or s > 59:
        raise InputError(f"{field} is a timecode with minutes or seconds over 59", path=path, line=line, value=text)
    if f >= nominal:
        raise InputError(
            f"{field} is a timecode with frame {f}: at {float(rate):g} fps the frames go from 00 to {nominal - 1:02d}",
            path=path,
            line=line,
            value=text,
        )
    total = 60 * h + m
    frame = nominal * (3600 * h + 60 * m + s) + f
    if drop:
        if rate.denominator != 1001 or nominal % 30:
            raise InputError(
                f"{field} is a drop-frame timecode (';' before the frames): drop-frame is for 29.97 and 59.94 fps, "
                f"not {float(rate):g} (write ':' before the frames)",
                path=path,
                line=line,
                value=text,
            )
        dropped = 2 * nominal // 30
        if s == 0 and f < dropped and m % 10:
            raise InputError(
                f"{field} is a drop-frame timecode that does not exist (frames 00 to {dropped - 1:02d} are skipped "
                "at the start of each minute but every tenth)",
                path=path,
                line=line,
                value=text,
            )
        frame -= dropped * (total - total // 10)
    exact = Fraction(frame) / rate
    if exact > MAX_SECONDS:
        raise InputError(f"{field} is beyond tvseg's time range", path=path, line=line, value=text)
    micro = round(exact * TICKS_PER_SECOND)
    return float(Fraction(micro, TICKS_PER_SECOND))


@dataclass(frozen=True)
class TimeCodes:
    """How a file's frame time codes count: ``rate`` frames a second (``30000/1001``), drop-frame or not.

    A time code ``HH:MM:SS:FF`` is frame ``(HH * 3600 + MM * 60 + SS) * N + FF`` (``N`` the rate rounded
    up, 30 at 29.97), less the frames drop-frame skips (2 a minute, except every tenth minute, at 29.97),
    and its time is that frame over the rate: the rule of SMPTE ST 12 as ttconv applies it.
    """

    rate: Fraction
    drop_frame: bool

    def seconds(self, clock: float) -> float:
        """The time in this file of the time code a clock time names (``36000.0``, ``10:00:00``: the time
        code ``10:00:00:00``; a fraction of a second is a fraction of ``N`` frames)."""
        exact = Fraction(round(clock * 1_000_000), 1_000_000)
        whole = floor(exact)
        nominal = ceil(self.rate)
        frames = whole * nominal + (exact - whole) * nominal
        if self.drop_frame:
            minutes = whole // 60
            frames -= round(60 * (nominal - self.rate)) * (minutes - minutes // 10)
        return float(frames / self.rate)
