"""WebVTT and SRT cues, read block by block so that no cue is lost, folded or changed silently.

Every line that holds ``-->`` is a cue timing line, either read as one cue or refused: the number of cues
read is the number of ``-->`` lines in the file. Timing lines are read by
:class:`~tvseg.readers.cue_timings.CueTimings`. Cue text keeps what its author wrote, less the markup its
format defines, its lines stripped and joined by one space (``formats/webvtt.md``, ``formats/srt.md``):
a WebVTT ``<`` that opens no tag would hide text in a player and is refused, except when read as units
(``lenient=True``, where only the times matter): it is then kept as written, with one
:class:`~tvseg.errors.TvsegWarning` per file.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import numpy as np

from tvseg.errors import InputError
from tvseg.readers.corpus import Rows
from tvseg.readers.cue_timings import CueTimings, MalformedTiming
from tvseg.readers.source import read_text, split_lines, warn
from tvseg.readers.validation import NO_LABEL

__all__ = ["Cue", "read_cues", "caption_units", "cue_segments", "cue_units", "SRT_LIKE_TIME"]

SRT_LIKE_TIME = re.compile(r"\s*\d{1,2}:\d{1,2}:\d{1,2}[,.]\d")
"""The start of a line that looks like an SRT timestamp (a timing line if it held ``-->``)."""
_NUMBER = re.compile(r"[ \t]*[0-9]+[ \t]*")

_VTT_TAG = re.compile(r"<([^>]*)(>|$)")
_VTT_TAG_NAMES = frozenset({"c", "i", "b", "u", "ruby", "rt", "v", "lang"})
_VTT_TAG_BODY = re.compile(r"(/?)([a-z]+)((?:\.[^\s.]+)*)(?:[ \t\n\f](.*))?", re.DOTALL)
_VTT_TIMESTAMP_TAG = re.compile(r"(?:\d+:)?\d{2}:\d{2}\.\d{3}")
_SRT_MARKUP = re.compile(
    r"</?(?:i|b|u|s)>|<font(?:\s[^<>]*)?>|</font>|</v>|<v(?:\.[^\s<>]*)?(\s[^<>]*)?>"
    r"|\{\\an[1-9]\}",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Cue:
    """One cue as read: times in milliseconds, text without markup and lines joined by a space."""

    start_ms: float
    end_ms: float
    text: str
    voice: str
    line: int


def read_cues(path, *, format: str, encoding: str | None = None, lenient: bool = False) -> list[Cue]:
    """Read the cues of a WebVTT (``format="vtt"``) or SRT (``"srt"``) file, in file order.

    ``lenient=True`` reads them as units, where only the times matter: one- or two-digit
    milliseconds and a WebVTT ``<...>`` that opens no tag are read (see the module's docstring),
    with one warning per kind.

    Raises
    ------
    InputError
        The file is not WebVTT/SRT; a timing line is malformed or holds an impossible time; a
        block or line would be skipped or folded into another cue (a WebVTT block that is no cue,
        an SRT cue number without its timing line, a line that starts like a timestamp without
        ``-->``); cue text whose markup would hide text (WebVTT ``<`` that opens no tag; when
        ``lenient``, only one that no ``>`` closes).
    """
    lines = split_lines(read_text(path, encoding=encoding))
    timings = CueTimings(path, format, lenient=lenient)
    kept: list[tuple[int, str]] | None = [] if lenient else None  # (line, '<...>') kept as written
    dropped: list[tuple[int, str]] | None = [] if lenient and format == "vtt" else None  # as a player drops them
    folded: list[tuple[int, str]] | None = [] if lenient and format == "srt" else None  # numbers read as text
    blocks = _vtt_cues(lines, path, dropped=dropped) if format == "vtt" else _srt_cues(lines, path, folded=folded)
    cues = []
    for timing, first, last in blocks:
        counted = None if dropped is None else dict(vars(timings))
        try:
            start_ms, end_ms = timings.read(lines[timing], timing + 1)
        except MalformedTiming:
            if counted is None or dropped is None:
                raise
            vars(timings).update(counted)  # a skipped cue's start counts in no warning
            dropped.append((timing + 1, lines[timing]))
            continue
        if format == "vtt":
            text, voice = _vtt_text(lines[first:last], path=path, line=first + 1, kept=kept)
        else:
            text, voice = _srt_text(lines[first:last])
        cues.append(Cue(start_ms, end_ms, text, voice, timing + 1))
    timings.report()
    if folded:
        warn(
            f"{len(folded)} cue number(s) without their timing line: read as text of the cue before, as "
            f"webvtt-py reads them (first: {folded[0][1]!r})",
            path=path,
            line=folded[0][0],
        )
    if dropped:
        dropped.sort()
        warn(
            f"{len(dropped)} block(s) skipped as a WebVTT player skips them (a timing line it cannot read, or "
            f"a block that is no cue, NOTE, STYLE or REGION) (first: {dropped[0][1]!r})",
            path=path,
            line=dropped[0][0],
        )
    if kept:
        warn(
            f"{len(kept)} '<...>' in cue text open(s) no WebVTT tag: kept as written (a player would hide "
            f"them; as units only the times are used) (first: {kept[0][1]!r})",
            path=path,
            line=kept[0][0],
        )
    return cues


def _vtt_cues(lines: list[str], path, *, dropped: list[tuple[int, str]] | None = None) -> list[tuple[int, int, int]]:
    """``(timing line, first text line, end of text)`` indexes of each cue of a WebVTT file.

    After the header (line 1 ``WEBVTT``, then lines up to the first blank one), every block is a
    cue (an optional identifier line, then the timing line), a ``NOTE``, ``STYLE`` or ``REGION``
    block, and nothing else. A cue's text ends at a blank line or at the next line holding ``-->``.
    When ``dropped`` is a list, the other blocks are skipped, noted there as ``(line, first line)``,
    and a ``NOTE``/``STYLE``/``REGION`` block ends at a line holding ``-->``, which starts the next
    block: the WebVTT specification's parsing algorithm, as a player reads the file.
    """
    header = lines[0] if lines else ""
    if not (header == "WEBVTT" or header.startswith(("WEBVTT ", "WEBVTT\t"))):
        raise InputError(
            "not a WebVTT file: the first line must be WEBVTT (alone or followed by a space and text)",
            path=path,
            line=1,
            value=header,
        )
    if "-->" in header:
        raise InputError(
            "WEBVTT header line holding '-->' (a cue needs a line of its own)", path=path, line=1, value=header
        )
    count = len(lines)
    i = 1
    while i < count and lines[i].strip() and "-->" not in lines[i]:
        i += 1
    cues = []
    while i < count:
        raw = lines[i]
        if not raw.strip():
            i += 1
            continue
        if "-->" in raw:
            timing = i
        elif i + 1 < count and "-->" in lines[i + 1]:
            timing = i + 1
        elif raw.startswith(("NOTE", "STYLE", "REGION")) and raw.split(None, 1)[0] in ("NOTE", "STYLE", "REGION"):
            i += 1
            while i < count and lines[i].strip():
                if "-->" in lines[i] and dropped is not None:
                    break
                if "-->" in lines[i]:
                    raise InputError(
                        f"{raw.split(None, 1)[0]} block holding '-->' (a cue needs a blank line before it)",
                        path=path,
                        line=i + 1,
                        value=lines[i],
                    )
                i += 1
            continue
        elif dropped is not None:
            dropped.append((i + 1, raw))
            while i < count and lines[i].strip() and "-->" not in lines[i]:
                i += 1
            continue
        else:
            raise InputError(
                "block is neither a cue nor NOTE/STYLE/REGION (broken timing line?)", path=path, line=i + 1, value=raw
            )
        i = timing + 1
        while i < count and lines[i].strip() and "-->" not in lines[i]:
            i += 1
        cues.append((timing, timing + 1, i))
    return cues


def _srt_cues(lines: list[str], path, *, folded: list[tuple[int, str]] | None = None) -> list[tuple[int, int, int]]:
    """``(timing line, first text line, end of text)`` indexes of each cue of an SRT file.

    A cue is an optional number line, a timing line, then text up to the next cue. Text may run
    over blank lines, so what starts a cue is told by the lines themselves: a line holding
    ``-->``, or a number line right before one. A number line that is neither a cue's first
    text line nor followed by a timing line is refused when it follows a blank line or ends the
    file: it is a cue whose timing line is missing, or the start of a truncated cue, and reading
    it as text would fold it into the previous cue. When ``folded`` is a list (units, where only the times
    matter), such a number line inside the file is read as text, noted there as ``(line, number)``.
    """
    count = len(lines)
    last = count - 1
    while last >= 0 and not lines[last].strip():
        last -= 1
    cues: list[list[int]] = []
    after_blank = True
    for i, raw in enumerate(lines):
        if "-->" in raw:
            if cues:
                cues[-1][2] = _end_of_text(lines, cues[-1][1], i)
            cues.append([i, i + 1, count])
            after_blank = False
            continue
        if not raw.strip():
            after_blank = True
            continue
        if _NUMBER.fullmatch(raw):
            if i + 1 < count and "-->" in lines[i + 1]:
                continue
            if i + 1 < count and SRT_LIKE_TIME.match(lines[i + 1]):
                raise InputError("broken cue timing line (no '-->')", path=path, line=i + 2, value=lines[i + 1])
            if folded is not None and cues and after_blank and i != last and cues[-1][0] != i - 1:
                folded.append((i + 1, raw))
            elif (after_blank or i == last) and not (cues and cues[-1][0] == i - 1):
                what = (
                    "a cue number at the end of the file (a truncated cue?)"
                    if i == last
                    else "a cue number without its timing line on the next line"
                )
                if not cues:
                    what = "not an SRT file: it must start with a cue number, then a timing line"
                raise InputError(what, path=path, line=i + 1, value=raw)
        if not cues:
            raise InputError(
                "not an SRT file: it must start with a cue number, then a timing line", path=path, line=i + 1, value=raw
            )
        if SRT_LIKE_TIME.match(raw):
            raise InputError("broken cue timing line (no '-->')", path=path, line=i + 1, value=raw)
        after_blank = False
    if not cues:
        raise InputError(
            "not an SRT file: it holds no cue timing line", path=path, line=1, value=lines[0] if lines else ""
        )
    return [(timing, first_text, end_of_text) for timing, first_text, end_of_text in cues]


def _end_of_text(lines: list[str], first: int, timing: int) -> int:
    """Where the previous cue's text ends, given the next cue's timing line (and its number)."""
    end = timing
    if end - 1 >= first and _NUMBER.fullmatch(lines[end - 1]):
        end -= 1
    return end


def _vtt_text(lines: list[str], *, path, line: int, kept: list | None = None) -> tuple[str, str]:
    """The text and voice of a WebVTT cue: known tags removed, character references decoded.

    A ``<...>`` that opens no tag is refused, or, when ``kept`` is a list, kept as written and
    noted there as ``(line, '<...>')``.
    """
    text = "\n".join(lines)
    voice = ""
    if "<" in text:
        pieces, position = [], 0
        for match in _VTT_TAG.finditer(text):
            body = match.group(1)
            tag = _VTT_TAG_BODY.fullmatch(body) if match.group(2) else None
            if not (tag and tag.group(2) in _VTT_TAG_NAMES) and not _VTT_TIMESTAMP_TAG.fullmatch(body):
                where = line + text.count("\n", 0, match.start())
                if kept is not None and match.group(2):
                    kept.append((where, match.group(0)))
                    continue
                raise InputError(
                    "'<' that opens no WebVTT tag: a player would hide the text up to "
                    "the next '>' (write '<' as '&lt;' and '>' as '&gt;')",
                    path=path,
                    line=where,
                    value=lines[where - line],
                )
            if tag and tag.group(2) == "v" and not tag.group(1) and not voice:
                voice = (tag.group(4) or "").strip()
            pieces.append(text[position : match.start()])
            position = match.end()
        pieces.append(text[position:])
        text = "".join(pieces)
    if "&" in text:
        text = html.unescape(text)
    return _join(text), voice


def _srt_text(lines: list[str]) -> tuple[str, str]:
    """The text and voice of an SRT cue: known formatting tags removed, the rest as written."""
    text = "\n".join(lines)
    voice = ""
    if "<" in text or "{" in text:
        voices = (match.group(1).strip() for match in _SRT_MARKUP.finditer(text) if match.group(1) is not None)
        voice = next((name for name in voices if name), "")
        text = _SRT_MARKUP.sub("", text)
    return _join(text), voice


def _join(text: str) -> str:
    if "\n" not in text:
        return text.strip()
    return " ".join(part for part in (piece.strip() for piece in text.split("\n")) if part)


def caption_units(path, *, format: str, show: str, encoding: str | None = None) -> Rows:
    """The units of show ``show`` in a caption file (its cues read leniently): one per cue, by start, made not to overlap.

    A cue whose end is before its start is refused; a cue of zero duration (a hidden cue, as pysrt's
    capability tester holds) is no unit and changes no other. Caption cues overlap when a cue stays on
    screen while the next one appears (roll-up captions): a unit then ends where the next one begins,
    which is when the next words are spoken. Cues that start at the same time (two lines shown
    together) become one unit: their texts joined by a space in file order, its end the latest of
    theirs, its speakers (distinct, in file order) joined by `` / ``. Each kind of change gives one
    :class:`~tvseg.errors.TvsegWarning` per file, counting them and naming the first one's line.
    """
    return cue_units(read_cues(path, format=format, encoding=encoding, lenient=True), path=path, show=show)


def cue_segments(cues: list[Cue], *, path, show: str) -> Rows:
    """The segments of show ``show`` in a caption file ``path``: one per cue, its text the label."""
    return Rows.of_file(path, {show: [(c.start_ms / 1000, c.end_ms / 1000, c.text or NO_LABEL, c.line) for c in cues]})


def cue_units(cues: list[Cue], *, path, show: str) -> Rows:
    """The units of show ``show`` made from the cues of the caption file ``path``, as :func:`caption_units` makes them."""
    for cue in cues:
        if cue.end_ms < cue.start_ms:
            value = f"{cue.start_ms / 1000:g} -> {cue.end_ms / 1000:g}"
            raise InputError("caption with end before start", path=path, line=cue.line, value=value)
    lasting = [cue for cue in cues if cue.end_ms > cue.start_ms]
    if len(lasting) < len(cues):
        first = next(cue for cue in cues if cue.end_ms == cue.start_ms)
        warn(
            f"{len(cues) - len(lasting)} zero-duration cue(s) skipped (a unit must last; first here, at "
            f"{first.start_ms / 1000:.3f} s)",
            path=path,
            line=first.line,
        )
    units: list[list] = []  # [start, end, text, voices, line]
    merged: list[int] = []
    for cue in sorted(lasting, key=lambda c: (c.start_ms, c.line)):
        if units and units[-1][0] == cue.start_ms:
            merged.append(cue.line)
            unit = units[-1]
            unit[1] = max(unit[1], cue.end_ms)
            unit[2] = " ".join(t for t in (unit[2], cue.text) if t)
            if cue.voice and cue.voice not in unit[3]:
                unit[3].append(cue.voice)
            continue
        units.append([cue.start_ms, cue.end_ms, cue.text, [cue.voice] if cue.voice else [], cue.line])
    shortened = [j for j in range(len(units) - 1) if units[j][1] > units[j + 1][0]]
    for j in shortened:
        units[j][1] = units[j + 1][0]
    if merged or shortened:
        what = []
        if shortened:
            what.append(f"{len(shortened)} caption cue(s) overlap the next one and now end where it begins")
        if merged:
            what.append(f"{len(merged)} cue(s) start with an earlier one and are joined to it")
        first_line = min([units[j][4] for j in shortened] + merged)
        warn(" and ".join(what) + " (units may not overlap); first such cue here", path=path, line=first_line)
    texts = {"text": np.array([unit[2] for unit in units] + [None], dtype=object)[:-1]}
    if any(unit[3] for unit in units):
        texts["speaker"] = np.array([" / ".join(unit[3]) for unit in units] + [None], dtype=object)[:-1]
    return Rows(
        [show],
        [path],
        np.zeros(len(units), dtype=np.int64),
        start=[unit[0] / 1000 for unit in units],
        end=[unit[1] / 1000 for unit in units],
        line=[unit[4] for unit in units],
        **texts,
    )
