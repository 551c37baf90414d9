"""Podcast chapters: Podcast 2.0 JSON chapters, FFmpeg's FFMETADATA, and the chapters inside MP3 and MP4 files.

Each file is one episode, one show (its id the file's stem, or ``show=``), read into the rows every reader
gives (:class:`~tvseg.readers.corpus.Rows`): one segment per chapter of the table of contents, its title the
label. The rules (``formats/podcast.md``):

- **Podcast 2.0 JSON** (``podcast``; the Podcast Index namespace's JSON chapters, version 1.2): an object with
  a ``chapters`` list of objects, each with ``startTime`` (seconds), optionally ``endTime``, ``title`` and
  ``toc``; recognised in a ``.json`` file by that shape. The chapters come in ascending ``startTime``. A
  chapter with ``"toc": false`` is a silent chapter: the spec keeps it out of the table of contents and out of
  the jump-to points, so it is not a segment and its start is not a boundary: its time stays with the visible
  chapter before it. A visible chapter ends at its ``endTime``, else at the next visible chapter's start; the
  last one without an ``endTime`` at the episode's end, which the file does not hold (``end=``, the UEM, as a
  chapter list's).
- **FFMETADATA** (``ffmetadata``; ``ffmpeg -i IN -f ffmetadata OUT``): the header ``;FFMETADATA1``, then
  ``key=value`` lines and ``[CHAPTER]`` sections, each ``TIMEBASE=num/den`` (optional; without it
  nanoseconds, as FFmpeg reads it), ``START=`` and ``END=`` (whole numbers of the time base, in that
  order), then tags (``title``); comments (``;``, ``#``) and empty lines are skipped; a backslash escapes the
  next character (a line break too). Times are exact: ``START * num / den`` seconds, held to the microsecond.
  Recognised by the extensions ``.ffmetadata`` and ``.ffmeta`` and, for a single ``.txt`` file, by its header.
- **MP3** (``mp3``, ``.mp3``): the ID3v2 ``CHAP`` frames (start and end in milliseconds, the title in a
  ``TIT2`` sub-frame); with a ``CTOC`` frame flagged top-level, only the chapters it lists (directly or through
  the tables it lists) are in the table of contents, the others left out as a silent chapter is.
- **MP4** (``mp4``; ``.m4a``, ``.m4b``; an ``.mp4`` file with ``format="mp4"``): the Nero chapter list
  (``moov/udta/chpl``) mutagen reads: each chapter ends at the next one's start, the last at the file's
  duration.

The audio files are read through mutagen (``pip install 'tvseg[podcast]'``), imported when such a file is
read. Errors name the file, the line (of a text file; a binary file's frame or chapter instead) and the value.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

from tvseg.errors import InputError, MissingExtraError
from tvseg.readers.chapter_list import show_end
from tvseg.readers.corpus import Rows
from tvseg.readers.formats import AUDIO_FORMATS, PODCAST_FORMATS
from tvseg.readers.json_values import Number, dumps, expect, json_time, no_surrogate
from tvseg.readers.source import read_text, split_lines, warn
from tvseg.readers.validation import MAX_SECONDS, NO_LABEL, too_large
from tvseg.readers.video_chapters import _load, _Reader

__all__ = [
    "PODCAST_FORMATS",
    "AUDIO_FORMATS",
    "FFMETADATA_HEADER",
    "is_ffmetadata",
    "podcast_rows",
]

FFMETADATA_HEADER = ";FFMETADATA"
_CHAPTER_KEYS = {"startTime", "endTime", "title", "toc", "img", "url", "location"}
_TOP_KEYS = {"version", "chapters", "author", "title", "podcastName", "description", "fileName", "waypoints"}
_WHOLE = re.compile(r"[0-9]+")


class Chapter(NamedTuple):
    """A chapter as a file gives it: start, end (None: not given), title, where (a line, or None), the value
    to name in an error, and whether it is in the table of contents."""

    start: float
    end: float | None
    title: str
    line: int | None
    value: str
    visible: bool = True


def is_ffmetadata(path: Path) -> bool:
    """Whether the file starts with FFmpeg's metadata header (``;FFMETADATA``)."""
    try:
        with open(path, "rb") as file:
            head = file.read(len(FFMETADATA_HEADER) + 3)
    except OSError:
        return False
    return head.lstrip(b"\xef\xbb\xbf").startswith(FFMETADATA_HEADER.encode())


def podcast_rows(path: Path, *, format: str, show: str, end: Any = None, uem: Any = None, encoding=None) -> Rows:
    """The rows of one episode's chapters (module docstring): the visible chapters, each ending at its end, else
    at the next visible start, else (the last) at the episode's end (``end``, ``uem``: :func:`show_end`)."""
    read = {"podcast": _podcast_json, "ffmetadata": _ffmetadata, "mp3": _id3, "mp4": _mp4}[format]
    chapters = [c for c in read(path, encoding=encoding) if c.visible]
    if not chapters:
        toc = " in the table of contents" if format in ("podcast", "mp3") else ""
        raise InputError(f"no chapter{toc}", path=path, line=1 if format in ("podcast", "ffmetadata") else None)
    last = chapters[-1]
    if last.end is None:
        holds = "a Podcast 2.0 chapters file whose last chapter has no endTime" if format == "podcast" else "the file"
        episode_end = show_end(
            path, show=show, end=end, uem=uem, last=last.start, line=last.line, value=last.value, holds=holds
        )
    records = []
    for k, chapter in enumerate(chapters):
        stop = chapter.end
        if stop is None:
            stop = chapters[k + 1].start if k + 1 < len(chapters) else episode_end
        # a binary file has no lines: its chapters' ranks stand for them
        records.append((chapter.start, stop, chapter.title, chapter.line if chapter.line is not None else k + 1))
        if chapter.line is None:
            _check_binary_span(path, chapter, stop, chapters[k - 1] if k else None, records)
    return Rows.of_file(path, {show: records})


def _check_binary_span(path: Path, chapter: Chapter, stop: float, before: Chapter | None, records: list) -> None:
    """The checks :mod:`tvseg.readers.corpus` makes of a text file's spans, naming a binary file's chapters."""
    if not chapter.start < stop:
        raise InputError(
            "a chapter does not end after it starts", path=path, value=f"{chapter.value}: {chapter.start:g}-{stop:g} s"
        )
    if before is not None and chapter.start < records[-2][1]:
        raise InputError(
            f"two chapters overlap ({before.value} ends at {records[-2][1]:g} s)", path=path, value=chapter.value
        )


def _title(value: Any, *, path, line: int | None, field: str) -> str:
    if value is None:
        return NO_LABEL
    if not isinstance(value, str) or isinstance(value, Number):
        raise InputError(f"'{field}' must be a string", path=path, line=line, value=dumps(value))
    text = no_surrogate(value, f"'{field}'", path=path, line=line or 0).strip()
    return text or NO_LABEL


def _podcast_json(path: Path, *, encoding: str | None) -> list[Chapter]:
    data, text = _load(path, encoding=encoding)
    r = _Reader(path, text)
    top = expect(data, dict, "Podcast 2.0 chapters are a JSON object", path=path, line=1)
    if "chapters" not in top:
        raise InputError("Podcast 2.0 chapters have a 'chapters' list", path=path, line=1)
    if "version" in top and (not isinstance(top["version"], str) or isinstance(top["version"], Number)):
        raise InputError(
            "'version' must be a string", path=path, line=r.line("version", 1), value=dumps(top["version"])
        )
    line = r.line("chapters", 1)
    items = expect(top["chapters"], list, "'chapters' must be a JSON list", path=path, line=line)
    r.note(top, _TOP_KEYS, 1)
    out: list[Chapter] = []
    for item in items:
        here = r.line("startTime", line) if isinstance(item, dict) and "startTime" in item else line
        chapter = expect(item, dict, "a chapter must be a JSON object", path=path, line=here)
        if "startTime" not in chapter:
            raise InputError("a chapter has no 'startTime' (seconds)", path=path, line=here, value=dumps(chapter))
        start = json_time(chapter["startTime"], path=path, line=here, field="startTime")
        stop = json_time(chapter["endTime"], path=path, line=here, field="endTime") if "endTime" in chapter else None
        toc = chapter.get("toc", True)
        if not isinstance(toc, bool):
            raise InputError("'toc' must be true or false", path=path, line=here, value=dumps(toc))
        title = _title(chapter.get("title"), path=path, line=here, field="title")
        r.note(chapter, _CHAPTER_KEYS, here)
        value = str(chapter["startTime"])
        if out and start < out[-1].start:
            raise InputError(
                f"the chapters must come in ascending startTime (the chapter before starts at {out[-1].start:g} s)",
                path=path,
                line=here,
                value=value,
            )
        out.append(Chapter(start, stop, title, here, value, toc))
    visible = [c for c in out if c.visible]
    for before, after in zip(visible, visible[1:]):
        if after.start == before.start:
            raise InputError(
                f"two chapters of the table of contents start at the same time (lines {before.line} and {after.line})",
                path=path,
                line=after.line,
                value=after.value,
            )
    r.warn_unread("startTime, endTime, title, toc")
    return out


def _ffmetadata(path: Path, *, encoding: str | None) -> list[Chapter]:
    lines = split_lines(read_text(path, encoding=encoding))
    if not lines or not lines[0].startswith(FFMETADATA_HEADER):
        raise InputError(
            f"an FFmpeg metadata file starts with {FFMETADATA_HEADER}1",
            path=path,
            line=1,
            value=lines[0] if lines else "",
        )
    sections: list[tuple[str, int, list[tuple[str, str, int, str]]]] = [("", 1, [])]
    k = 1
    while k < len(lines):
        number, raw = k + 1, lines[k]
        k += 1
        if not raw or raw[0] in ";#":
            continue
        if raw.startswith("[") and raw.endswith("]"):
            sections.append((raw[1:-1], number, []))
            continue
        logical = raw
        while _escapes_line_end(logical) and k < len(lines):  # an escaped line break: the value goes on
            logical = logical + "\n" + lines[k]
            k += 1
        key, value = _tag(logical, path=path, line=number)
        sections[-1][2].append((key, value, number, raw))
    out = []
    for name, number, tags in sections:
        if name == "CHAPTER":
            out.append(_ffmetadata_chapter(tags, path=path, line=number))
    return out


def _escapes_line_end(text: str) -> bool:
    """Whether ``text`` ends with a backslash that escapes the line break after it (an odd run of them)."""
    run = len(text) - len(text.rstrip("\\"))
    return run % 2 == 1


def _tag(text: str, *, path, line: int) -> tuple[str, str]:
    """``key=value`` with FFmpeg's escapes (a backslash takes the next character as it is)."""
    current: list[str] = []
    key = None
    chars = iter(text)
    for c in chars:
        if c == "\\":
            current.append(next(chars, ""))
        elif c == "=" and key is None:
            key, current = "".join(current), []
        else:
            current.append(c)
    if key is None:
        raise InputError("not a 'key=value' line of an FFmpeg metadata file", path=path, line=line, value=text)
    return key, "".join(current)


def _ffmetadata_chapter(tags: list[tuple[str, str, int, str]], *, path, line: int) -> Chapter:
    """One ``[CHAPTER]`` section: ``TIMEBASE`` (optional), ``START``, ``END`` in that order, then its tags."""
    base = Fraction(1, 10**9)
    rest = list(tags)
    if rest and rest[0][0] == "TIMEBASE":
        _, value, number, raw = rest.pop(0)
        num, _, den = value.partition("/")
        if not (_WHOLE.fullmatch(num) and _WHOLE.fullmatch(den) and int(num) > 0 and int(den) > 0):
            raise InputError("TIMEBASE must be num/den, two positive whole numbers", path=path, line=number, value=raw)
        base = Fraction(int(num), int(den))
    times = []
    for field in ("START", "END"):
        if not rest or rest[0][0] != field:
            found = f" (found {rest[0][3]!r} on line {rest[0][2]})" if rest else ""
            raise InputError(
                f"a [CHAPTER] section gives {field}= next{found}: TIMEBASE (optional), START, END, then its tags",
                path=path,
                line=rest[0][2] if rest else line,
            )
        _, value, number, raw = rest.pop(0)
        if not _WHOLE.fullmatch(value):
            raise InputError(f"{field} must be a whole number of the time base", path=path, line=number, value=raw)
        seconds = int(value) * base
        if seconds > MAX_SECONDS:
            raise InputError(too_large(f"chapter {field}"), path=path, line=number, value=raw)
        times.append((seconds, number, raw))
    (start, start_line, start_raw), (stop, _, _) = times
    title = next((value for key, value, _, _ in rest if key.lower() == "title"), None)
    label = NO_LABEL if title is None or not title.strip() else title.strip()
    return Chapter(_microseconds(start), _microseconds(stop), label, start_line, start_raw)


def _microseconds(seconds: Fraction) -> float:
    """An exact time in seconds, held to the nearest microsecond (tvseg's resolution), as float seconds."""
    return round(seconds * 1_000_000) / 1_000_000


def _mutagen(format: str) -> None:
    try:
        import mutagen  # noqa: F401
    except ImportError:
        raise MissingExtraError(
            f"reading the chapters of {format.upper()} files needs the mutagen library: pip install 'tvseg[podcast]' "
            "(or pip install mutagen)"
        ) from None


def _id3(path: Path, *, encoding: str | None) -> list[Chapter]:
    _mutagen("mp3")
    from mutagen.id3 import ID3, ID3NoHeaderError

    try:
        tags = ID3(path)
    except ID3NoHeaderError:
        raise InputError("no ID3 tag, so no chapter (ID3v2 CHAP frames)", path=path) from None
    except Exception as error:  # mutagen's errors for a damaged tag
        raise InputError(f"an ID3 tag mutagen cannot read ({error})", path=path) from None
    chapters = {frame.element_id: frame for frame in tags.getall("CHAP")}
    tables = {frame.element_id: frame for frame in tags.getall("CTOC")}
    listed: set[str] | None = None
    tops = [frame for frame in tables.values() if frame.flags & 2]  # CTOC's top-level flag
    if tops:
        listed, pending, seen = set(), [element for top in tops for element in top.child_element_ids], set()
        while pending:
            element = pending.pop()
            if element in seen:
                continue
            seen.add(element)
            if element in tables:
                pending.extend(tables[element].child_element_ids)
            elif element in chapters:
                listed.add(element)
    out = []
    for element, frame in chapters.items():
        where = f"CHAP {element!r}"
        titles = frame.sub_frames.getall("TIT2")
        title = str(titles[0].text[0]).strip() if titles and titles[0].text else ""
        visible = listed is None or element in listed
        out.append(Chapter(frame.start_time / 1000, frame.end_time / 1000, title or NO_LABEL, None, where, visible))
    if listed is not None and len(listed) < len(chapters):
        left = sorted(set(chapters) - listed)
        warn(
            f"{len(left)} chapter(s) not in the top-level table of contents (CTOC), left out as silent chapters: "
            f"{', '.join(map(repr, left[:8]))}",
            path=path,
        )
    return sorted(out, key=lambda c: (c.start, c.end))


def _mp4(path: Path, *, encoding: str | None) -> list[Chapter]:
    _mutagen("mp4")
    from mutagen.mp4 import MP4

    try:
        media = MP4(path)
    except Exception as error:  # mutagen's errors for a file that is not MP4, or a damaged one
        raise InputError(f"an MP4 file mutagen cannot read ({error})", path=path) from None
    if not media.chapters:
        raise InputError("no chapter list (moov/udta/chpl) in this MP4 file", path=path)
    starts = [(float(c.start), str(c.title)) for c in media.chapters]
    duration = float(media.info.length) if media.info is not None else 0.0
    out = []
    for k, (start, title) in enumerate(starts):
        stop = starts[k + 1][0] if k + 1 < len(starts) else duration
        where = f"chapter {k + 1} at {start:g} s"
        if k and start <= starts[k - 1][0]:
            raise InputError("the chapters' starts must increase", path=path, value=where)
        out.append(Chapter(start, stop, title.strip() or NO_LABEL, None, where))
    if not starts[-1][0] < duration:
        raise InputError(
            f"the last chapter starts at or after the file's duration ({duration:g} s)", path=path, value=where
        )
    return out
