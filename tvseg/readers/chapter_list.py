"""Chapter lists as people write them in a video description: one ``[H:]MM:SS Title`` per line.

Every line that is not blank is one chapter (an optional bullet, a time in whole seconds, a separator, the
title); the first chapter starts at ``0:00`` (YouTube's rule) and the times increase strictly; each chapter
ends where the next one starts, and the last one at the show's end, which the file does not hold: it is
given by the caller (``end=``, a UEM, the reference's end), else refused. The rules:
``formats/chapter-list.md``. A YouTube description is read as VidChapters-7M reads it
(:func:`youtube_chapters`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from tvseg.errors import InputError
from tvseg.readers.source import read_text, split_lines
from tvseg.readers.validation import MAX_SECONDS, NO_LABEL, too_large, whole_number

__all__ = [
    "Chapter",
    "read_chapters",
    "youtube_chapters",
    "chapter_records",
    "show_end",
    "clock_text",
]

_LINE = re.compile(r"[ \t]*(?:[-*\u2022][ \t]+)?(?P<time>[0-9]+(?::[0-9]+)*)(?P<rest>.*)", re.DOTALL)
_SEPARATOR = re.compile(r"(?::\s+|\s+(?:[-\u2013\u2014](?:\s+|$))?)")


@dataclass(frozen=True)
class Chapter:
    """One line of a chapter list: its start in seconds (whole in a chapter list), its title, its line number."""

    start: float
    title: str
    line: int


def read_chapters(path, *, encoding: str | None = None) -> list[Chapter]:
    """Read and check the chapters of a chapter list, without their ends.

    Everything about the file is checked here (syntax, whole seconds, first at 0:00, increasing
    times); only the end of the last chapter, which the file does not hold, is left to
    :func:`chapter_records`. ``encoding`` is the file's (default UTF-8).
    """
    chapters: list[Chapter] = []
    for number, raw in enumerate(split_lines(read_text(path, encoding=encoding)), start=1):
        if not raw.strip():
            continue
        match = _LINE.fullmatch(raw)
        if match is None:
            raise InputError("not a chapter line '[H:]MM:SS Title'", path=path, line=number, value=raw)
        start = _seconds(match["time"], path=path, line=number)
        rest = match["rest"]
        if re.match(r"[.,][0-9]", rest):
            raise InputError(
                "a chapter time is whole seconds ([H:]MM:SS, no fraction)", path=path, line=number, value=raw
            )
        separator = _SEPARATOR.match(rest)
        if rest and separator is None:
            raise InputError(
                "a chapter time must be followed by a space (or ' - ', ': ') and the title",
                path=path,
                line=number,
                value=raw,
            )
        title = rest[separator.end() :].strip() if rest and separator is not None else ""
        if chapters:
            previous = chapters[-1]
            if start == previous.start:
                raise InputError(
                    f"two chapters start at the same time (lines {previous.line} and {number})",
                    path=path,
                    line=number,
                    value=raw,
                )
            if start < previous.start:
                raise InputError(
                    f"chapter times must increase: line {previous.line} starts at {clock_text(previous.start)}",
                    path=path,
                    line=number,
                    value=raw,
                )
        elif start != 0:
            raise InputError(
                "the first chapter must start at 0:00 (add a '0:00' line for what comes before)",
                path=path,
                line=number,
                value=raw,
            )
        chapters.append(Chapter(start, title or NO_LABEL, number))
    return chapters


_ANY_TIME = re.compile(r"\d{1}:\d{2}")
_URL = re.compile(r"http\S+")
_BROKEN = (re.compile(r"\d{3}:"), re.compile(r":\d{3}"), re.compile(r"\d{2}:\d{2}:\d{2}:\d{2}"))
_TIMES = tuple(re.compile(p) for p in (r"\d{2}:\d{2}:\d{2}", r"\d{1}:\d{2}:\d{2}", r"\d{2}:\d{2}", r"\d{1}:\d{2}"))


def _clean(title: str) -> str:
    """VidChapters' ``clean_str``: strip every character that is not alphanumeric from both ends."""
    first = next((i for i, c in enumerate(title) if c.isalnum()), None)
    if first is None:
        return ""
    last = next(i for i in range(len(title) - 1, -1, -1) if title[i].isalnum())
    return title[first : last + 1]


def youtube_chapters(path, *, encoding: str | None = None) -> list[Chapter]:
    """The chapters of a YouTube description, found as VidChapters-7M's collection code finds them.

    ``collection/chapter_utils.py`` and ``desc2chapter`` of ``collection/desc2chapters.py`` in
    https://github.com/antoyang/VidChapters: a line holding ``D:DD`` somewhere is a timestamp line (others,
    prose, are skipped); its URLs (``http`` to the next space) are removed; a line with three digits
    before or after a colon, or ``DD:DD:DD:DD``, is skipped; the time is the first ``HH:MM:SS``, else
    ``H:MM:SS``, else ``MM:SS``, else ``M:SS`` (seconds and minutes not bounded: ``1:75`` is 135 s); the title
    is the rest of the line, stripped of non-alphanumeric characters at both ends (``(0:00) Intro`` and
    ``0:00 - Intro`` are ``Intro``); a line whose title is then empty is skipped. The description has
    chapters only when it has two timestamp lines or more, two chapters or more, not every title of one
    character, and strictly increasing times: otherwise an :class:`InputError` (VidChapters has no
    chapters for such a video). The first chapter need not start at 0:00.
    """
    candidates = 0
    chapters: list[Chapter] = []
    for number, raw in enumerate(split_lines(read_text(path, encoding=encoding)), start=1):
        if not _ANY_TIME.search(raw):
            continue
        candidates += 1
        line = _URL.sub("", raw)
        if any(pattern.search(line) for pattern in _BROKEN):
            continue
        found = next((m for m in (p.search(line) for p in _TIMES) if m is not None), None)
        if found is None:
            continue
        seconds = 0
        for k, part in enumerate(reversed(found.group().split(":"))):
            seconds += int(part) * (1, 60, 3600)[k]
        title = _clean(line[: found.start()] + line[found.end() :])
        if title:
            chapters.append(Chapter(seconds, title, number))
    problem = None
    if candidates < 2 or len(chapters) < 2:
        problem = "fewer than two chapter lines (a time and a title)"
    elif all(len(c.title.strip()) <= 1 for c in chapters):
        problem = "every chapter title is one character or less"
    else:
        back = next((b for a, b in zip(chapters, chapters[1:]) if not a.start < b.start), None)
        if back is not None:
            problem = f"the chapter times do not increase (line {back.line}, {clock_text(back.start)})"
    if problem is not None:
        where = chapters[-1].line if chapters else None
        raise InputError(f"no chapters in this description as VidChapters finds them: {problem}", path=path, line=where)
    last = chapters[-1]
    if last.start > MAX_SECONDS:
        raise InputError(too_large("chapter time"), path=path, line=last.line, value=clock_text(last.start))
    return chapters


def _seconds(text: str, *, path, line: int) -> int:
    parts = text.split(":")
    if len(parts) not in (2, 3):
        raise InputError("not a [H:]MM:SS chapter time", path=path, line=line, value=text)
    *hours, minutes, seconds = parts
    for name, digits in zip(("hours", "minutes")[-len(parts) + 1 :], parts[:-1]):
        whole_number(digits, path=path, line=line, field=f"chapter time's {name}", value=text)
    if len(seconds) != 2 or int(seconds) > 59:
        raise InputError("chapter time seconds must be two digits, at most 59", path=path, line=line, value=text)
    if hours and (len(minutes) != 2 or int(minutes) > 59):
        raise InputError(
            "chapter time minutes must be two digits, at most 59, after hours (H:MM:SS)",
            path=path,
            line=line,
            value=text,
        )
    total = (int(hours[0]) * 3600 if hours else 0) + int(minutes) * 60 + int(seconds)
    if total > MAX_SECONDS:
        raise InputError(too_large("chapter time"), path=path, line=line, value=text)
    return total


def chapter_records(
    path,
    *,
    show: str,
    end=None,
    uem=None,
    encoding: str | None = None,
    youtube: bool = False,
    chapters: list[Chapter] | None = None,
) -> list[tuple[float, float, str, int]]:
    """The segments ``(start, end, title, line)`` of a chapter list: each chapter ends at the next start, the
    last at the show's end.

    The show's end is ``end`` (seconds, from :func:`tvseg.arguments.check_ends`: one number, or ``{show: seconds}``),
    else the end of the show's last region in ``uem``; without either, an error at the last line.
    ``youtube=True`` reads a YouTube description leniently, as VidChapters does (:func:`youtube_chapters`);
    ``chapters``: the chapters read from ``path`` by another reader (Chapter-Llama's output).
    """
    if chapters is None:
        chapters = youtube_chapters(path, encoding=encoding) if youtube else read_chapters(path, encoding=encoding)
    last = chapters[-1]
    end = show_end(path, show=show, end=end, uem=uem, last=last.start, line=last.line, value=clock_text(last.start))
    ends = [chapter.start for chapter in chapters[1:]] + [end]
    return [(float(chapter.start), float(stop), chapter.title, chapter.line) for chapter, stop in zip(chapters, ends)]


def show_end(
    path, *, show: str, end, uem, last: float, line: int | None, value: str, holds: str = "a chapter list"
) -> float:
    """Where the last chapter of a file that does not hold the show's end ends: ``end`` (seconds, from
    :func:`tvseg.arguments.check_ends`: one number, or ``{show: seconds}``), else the end of the show's last region in ``uem``;
    without either, or when it is not after ``last`` (the last chapter's start), an :class:`InputError` at
    ``line`` naming ``value`` (``holds``: what the file is, for the message)."""
    end_source, ends_given = "end=", isinstance(end, Mapping)
    if ends_given:
        end = end.get(show)
    from tvseg.readers.uem import regions_of

    regions = regions_of(uem, show) if end is None else None
    if regions is not None:
        end, end_source = float(regions[1][-1]), "the UEM"
    if end is None:
        missing = []
        if ends_given:
            missing.append(f"the shows' ends given (those of the reference) have no show {show!r}")
        if uem is not None:
            missing.append(f"the UEM has no show {show!r}")
        raise InputError(
            f"the end of the last chapter is unknown ({holds} does not hold the show's "
            f"end{': ' + ' and '.join(missing) if missing else ''}): give --uem with this show, --durations FILE, "
            "or the show's end (end= in Python, --end in tvseg convert)",
            path=path,
            line=line,
            value=value,
        )
    if not last < end:
        raise InputError(
            f"the show's end ({end:g} s, from {end_source}) is not after the last chapter's start",
            path=path,
            line=line,
            value=value,
        )
    return float(end)


def clock_text(seconds: float, *, hours: bool = False) -> str:
    """``M:SS`` (``H:MM:SS`` from one hour on, or always with ``hours``) of whole seconds."""
    minutes, secs = divmod(int(seconds), 60)
    if hours or minutes >= 60:
        return f"{minutes // 60}:{minutes % 60:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
