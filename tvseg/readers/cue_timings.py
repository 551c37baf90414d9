"""The timing lines of WebVTT and SRT cues: ``start --> end``, read to the millisecond.

WebVTT ``[HH:]MM:SS.mmm --> [HH:]MM:SS.mmm [settings]``, SRT ``HH:MM:SS,mmm --> HH:MM:SS,mmm [X1:.. X2:..
Y1:.. Y2:..]``; fields without their leading zeros are read with one warning per file. Read as units
(``lenient=True``), an SRT time without milliseconds is whole seconds (as pycaption and pysubs2 read it), and
one or two digits of milliseconds are a decimal fraction, as pysubs2 reads an SRT's and
webvtt-py a WebVTT's (``,46`` is 0.460 s), with one warning per file; a file that also writes three digits
ending in 0 (as Microsoft Teams writes milliseconds without their leading zeros, ``6.90`` for 6.090 s) makes
such a fraction ambiguous, and refused. The table of what is read, warned of and refused:
``formats/webvtt.md``, ``formats/srt.md``.
"""

from __future__ import annotations

import re

from tvseg.errors import InputError
from tvseg.readers.source import warn
from tvseg.readers.validation import MAX_SECONDS, too_large, whole_number

__all__ = ["CueTimings", "MalformedTiming"]

_TIME = r"(?:(\d+):)?(\d+):(\d+)(?:([.,])(\d+))?"
_TIMING = re.compile(rf"[ \t\f]*{_TIME}[ \t\f]*-->[ \t\f]*{_TIME}(.*)")
"""A timing line; the WebVTT specification's whitespace around the times includes the form feed."""
_SRT_COORDINATES = re.compile(r"(?:[ \t]+[XY][12]:-?\d+){4}[ \t]*", re.IGNORECASE)
_EXAMPLE = {"vtt": "00:01:02.500 --> 00:01:04.000", "srt": "00:01:02,500 --> 00:01:04,000"}


class MalformedTiming(InputError):
    """A timing line a WebVTT parser cannot read (its syntax, minutes or seconds over 59, not three digits of
    milliseconds): a player skips its cue. A time beyond tvseg's range is an :class:`InputError` only."""


class CueTimings:
    """Reads the timing lines of one file; :meth:`report` gives its warnings once the file is read.

    Parameters
    ----------
    path : str or os.PathLike
        The file, for the messages.
    format : {"vtt", "srt"}
        Its format.
    lenient : bool, default False
        Read one- or two-digit milliseconds as a decimal fraction (units), with one warning.
    """

    def __init__(self, path, format: str, *, lenient: bool = False):
        self.path = path
        self.format = format
        self.lenient = lenient
        self.unpadded = 0
        self.first_unpadded: tuple[int, str] | None = None
        self.short = 0
        self.first_short: tuple[int, str, int] | None = None  # (line, time as written, milliseconds)
        self.first_nonzero_short: tuple[int, str, str, int, str] | None = None  # and timing line, whole s, digits
        self.first_trailing_zero: tuple[int, str] | None = None  # (line, time) of three digits ending in 0

    def read(self, raw: str, line: int) -> tuple[int, int]:
        """The start and end of a timing line, in milliseconds."""
        match = _TIMING.fullmatch(raw)
        rest = match.group(11) if match else ""
        well_formed = match is not None and (
            (self.format == "vtt" and (not rest or rest[0] in " \t\f") and match.group(4) == "." == match.group(9))
            or (self.format == "srt" and (not rest.strip(" \t\f") or _SRT_COORDINATES.fullmatch(rest)))
        )
        if not well_formed:
            raise self._malformed(raw, line)
        assert match is not None  # well_formed
        groups = match.groups()
        return (
            self._milliseconds(groups[:5], raw=raw, line=line),
            self._milliseconds(groups[5:10], raw=raw, line=line),
        )

    def _malformed(self, raw: str, line: int) -> MalformedTiming:
        message = f"malformed cue timing line (expected like '{_EXAMPLE[self.format]}')"
        return MalformedTiming(message, path=self.path, line=line, value=raw)

    def _milliseconds(self, groups, *, raw: str, line: int) -> int:
        hours_text, minutes_text, seconds_text, mark, millis_text = groups
        mark, millis_text = mark or "", millis_text or ""  # an SRT time without milliseconds (lenient: whole seconds)
        if len(millis_text) != 3 and not (self.lenient and len(millis_text) < 3):
            raise MalformedTiming(
                "cue time without exactly three digits of milliseconds", path=self.path, line=line, value=raw
            )
        if len(minutes_text) > 2 or len(seconds_text) > 2:
            raise self._malformed(raw, line)
        hours = whole_number(hours_text or "0", path=self.path, line=line, field="cue time's hours", value=raw)
        minutes, seconds = int(minutes_text), int(seconds_text)
        if minutes > 59 or seconds > 59:
            raise MalformedTiming("cue time with minutes or seconds over 59", path=self.path, line=line, value=raw)
        padded = len(minutes_text) == 2 and len(seconds_text) == 2 and (hours_text or self.format == "vtt")
        if not padded:
            self.unpadded += 1
            if self.first_unpadded is None:
                self.first_unpadded = (line, raw.strip())
        whole = ((hours * 60 + minutes) * 60 + seconds) * 1000
        total = whole + int(millis_text.ljust(3, "0"))  # ",46" is 460 ms, as pysubs2 reads it
        if total > MAX_SECONDS * 1000:
            raise InputError(too_large("cue time"), path=self.path, line=line, value=raw)
        if self.lenient:
            written = f"{hours_text + ':' if hours_text else ''}{minutes_text}:{seconds_text}{mark}{millis_text}"
            if len(millis_text) < 3:
                self.short += 1
                self.first_short = self.first_short or (line, written, total)
                if millis_text.strip("0") and self.first_nonzero_short is None:
                    self.first_nonzero_short = (line, written, raw, whole, millis_text)
            elif millis_text[2] == "0" and millis_text != "000" and self.first_trailing_zero is None:
                self.first_trailing_zero = (line, written)
        return total

    def report(self) -> None:
        """Give the file's warnings (refusing first short milliseconds the file makes ambiguous)."""
        if self.first_nonzero_short is not None and self.first_trailing_zero is not None:
            line, written, raw, whole, digits = self.first_nonzero_short
            raise InputError(
                f"ambiguous cue time {written!r}: {(whole + int(digits.ljust(3, '0'))) / 1000:.3f} s as a "
                f"decimal fraction, or {(whole + int(digits)) / 1000:.3f} s as milliseconds without their "
                f"leading zeros (as Microsoft Teams writes them), which this file's "
                f"{self.first_trailing_zero[1]!r} (line {self.first_trailing_zero[0]}) suggests: "
                "write the milliseconds with three digits",
                path=self.path,
                line=line,
                value=raw,
            )
        if self.short:
            assert self.first_short is not None  # set with the first short fraction
            line, written, total = self.first_short
            warn(
                f"{self.short} cue time(s) with fewer than three digits of milliseconds, read as a decimal "
                f"fraction of a second (first: time {written} read as {total / 1000:.3f} s)",
                path=self.path,
                line=line,
            )
        if self.unpadded:
            assert self.first_unpadded is not None  # set with the first unpadded field
            line, raw = self.first_unpadded
            warn(
                f"{self.unpadded} cue time(s) written without leading zeros, read as if padded (first: {raw!r})",
                path=self.path,
                line=line,
            )
