"""WebVTT and SRT, parsed by webvtt-py, with a check that no cue was lost on the way.

webvtt-py is lenient: a cue whose timing line is broken is dropped without a word, and SRT cues
with an empty text are dropped too. So after parsing, every line of the file that holds ``-->``
(in both formats a cue timing line, as cue text may not hold ``-->``) is matched, in order, with
the cue webvtt-py returned for it. A timing line that does not follow the format strictly, or
whose cue the parser did not return, makes the whole file an :class:`InputError` at that line.

Strict timings: WebVTT ``[HH:]MM:SS.mmm --> [HH:]MM:SS.mmm [settings]`` (two-digit minutes and
seconds, three-digit milliseconds, as the W3C WebVTT specification writes them); SRT
``HH:MM:SS,mmm --> HH:MM:SS,mmm`` (a dot is accepted for the comma). Minutes and seconds are at
most 59.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

import webvtt
from webvtt.errors import MalformedCaptionError, MalformedFileError

from tvseg.errors import InputError
from tvseg.readers.source import read_text, split_lines

__all__ = ["Cue", "read_cues"]

_VTT_TIME = r"(?:(\d{2,}):)?(\d{2}):(\d{2})\.(\d{3})"
_SRT_TIME = r"(\d+):(\d{2}):(\d{2})[,.](\d{3})"
_TIMING = {
    "vtt": re.compile(rf"[ \t]*{_VTT_TIME}[ \t]+-->[ \t]+{_VTT_TIME}(?:[ \t].*)?"),
    "srt": re.compile(rf"[ \t]*{_SRT_TIME}[ \t]*-->[ \t]*{_SRT_TIME}[ \t]*"),
}
SRT_LIKE_TIME = re.compile(r"\s*\d{1,2}:\d{1,2}:\d{1,2}[,.]\d")
_EXAMPLE = {"vtt": "00:01:02.500 --> 00:01:04.000", "srt": "00:01:02,500 --> 00:01:04,000"}


@dataclass(frozen=True)
class Cue:
    """One cue as read: times in milliseconds, text with tags removed and lines joined by a space."""

    start_ms: int
    end_ms: int
    text: str
    voice: str
    line: int


def read_cues(path, *, format: str) -> list[Cue]:
    """Read the cues of a WebVTT (``format="vtt"``) or SRT (``"srt"``) file, in file order.

    Raises
    ------
    InputError
        The file is not WebVTT/SRT, a timing line is malformed or holds an impossible time, or
        webvtt-py skipped a cue (the error names the line of its timing line).
    """
    lines = split_lines(read_text(path))
    try:
        parsed = webvtt.from_buffer(lines, format=format).captions
    except MalformedFileError:
        if format == "srt" and len(lines) == 2 and lines[0].strip().isdigit() and "-->" in lines[1]:
            parsed = []  # one cue without text: webvtt-py wants a third line, SRT does not
        elif format == "vtt":
            raise InputError("not a WebVTT file: the first line must start with WEBVTT", path=path,
                             line=1, value=lines[0]) from None
        else:
            raise InputError("not an SRT file: it must start with a cue number, then a timing line",
                             path=path, line=1, value=lines[0]) from None
    except MalformedCaptionError as error:  # not raised when lenient; kept as a safety net
        raise InputError(f"malformed cue ({error})", path=path) from None

    _check_blocks(lines, format=format, path=path)
    pattern = _TIMING[format]
    cues: list[Cue] = []
    position = 0
    for index, raw in enumerate(lines):
        if "-->" not in raw:
            continue
        number = index + 1
        match = pattern.fullmatch(raw)
        if match is None:
            raise InputError(f"malformed cue timing line (expected like '{_EXAMPLE[format]}')",
                             path=path, line=number, value=raw)
        start_ms = _milliseconds(match.groups()[:4], path=path, line=number, raw=raw)
        end_ms = _milliseconds(match.groups()[4:], path=path, line=number, raw=raw)
        caption = parsed[position] if position < len(parsed) else None
        if caption is not None and (caption.start_time.in_milliseconds(),
                                    caption.end_time.in_milliseconds()) == (start_ms, end_ms):
            cues.append(Cue(start_ms, end_ms, _text(caption, format), caption.voice or "", number))
            position += 1
        elif format == "srt" and (index + 1 >= len(lines) or not lines[index + 1].strip()):
            cues.append(Cue(start_ms, end_ms, "", "", number))  # webvtt-py drops empty SRT cues
        else:
            hint = " (an SRT cue needs its number on the line before)" if format == "srt" else ""
            raise InputError(f"cue not read: malformed cue block{hint}", path=path, line=number,
                             value=raw)
    if position != len(parsed):
        raise InputError(f"{len(parsed) - position} cue(s) without a recognisable timing line",
                         path=path, value=parsed[position].start)
    return cues


def _check_blocks(lines: list[str], *, format: str, path) -> None:
    """Refuse text that webvtt-py would skip without a word: a block that is not a cue.

    In WebVTT, every block after the header is a cue (it holds ``-->``), a comment (``NOTE``), a
    ``STYLE`` or a ``REGION`` block: anything else is most likely a cue whose timing line is
    broken (``->``, a missing arrow). SRT lets a cue's text run over blank lines, so only a line
    that starts like a timestamp (``00:01:02,5...``) without an arrow is refused.
    """
    if format == "srt":
        for index, raw in enumerate(lines):
            if "-->" not in raw and SRT_LIKE_TIME.match(raw):
                raise InputError("broken cue timing line (no '-->')", path=path, line=index + 1,
                                 value=raw)
        return
    first_line = None
    in_header = True
    for index, raw in enumerate([*lines, ""]):
        if raw.strip() and first_line is None:
            first_line = index
        if raw.strip() or first_line is None:
            continue
        block = lines[first_line:index]
        if not in_header and not any("-->" in line for line in block) and not (
                block[0].startswith("NOTE") or block[0].strip() in ("STYLE", "REGION")):
            raise InputError("block is neither a cue nor NOTE/STYLE/REGION (broken timing line?)",
                             path=path, line=first_line + 1, value=block[0])
        in_header = False
        first_line = None


def _milliseconds(groups, *, path, line: int, raw: str) -> int:
    hours, minutes, seconds, millis = (int(g) if g else 0 for g in groups)
    if minutes > 59 or seconds > 59:
        raise InputError("cue time with minutes or seconds over 59", path=path, line=line, value=raw)
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis


def _text(caption, format: str) -> str:
    text = " ".join(part.strip() for part in caption.text.split("\n") if part.strip())
    return html.unescape(text) if format == "vtt" else text
