"""Video chapters as JSON: VidChapters-7M's annotations, ActivityNet-style predictions, ``{show: [segments]}``.

Three shapes, each a JSON object (``formats/vidchapters.md``, ``formats/anet.md``, ``formats/json.md``):
``vidchapters`` (``{video: {"duration": d, "chapters": [{"label", "time"}]}}``, or the processed shape
``{video: {"duration", "timestamps", "sentences"}}`` its dense-captioning code reads), ``anet``
(``{"results": {video: [{"timestamp": [s, e], "sentence"}]}}``, predictions that may overlap:
:attr:`Rows.overlaps`) and ``json`` (``{show: [{"start", "end", "title"}]}``). A ``.json`` file is recognised
by its shape (:func:`json_shape`). Numbers are read from the digits as written
(:func:`~tvseg.readers.json_values.json_time`). Errors name the line of the value's key, found by searching
the text for the keys in document order (a key written with escapes that Python would not write points at
the line of the enclosing value instead).
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import os
import re
from pathlib import Path

import numpy as np

from tvseg.errors import InputError
from tvseg.readers.corpus import SCORE, Rows
from tvseg.readers.formats import CHAPTER_LLAMA, JSON_FORMATS
from tvseg.readers.json_values import (
    SURROGATE,
    DuplicateKey,
    Number,
    dumps,
    expect,
    json_score,
    json_time,
    loads,
    no_surrogate,
    repeated_key_line,
    too_deep,
    warn_unread,
)
from tvseg.readers.levels import LEVEL, parse_level
from tvseg.readers.source import read_text
from tvseg.readers.validation import MAX_SECONDS, NO_LABEL, parse_time

__all__ = ["JSON_FORMATS", "CHAPTER_LLAMA", "json_shape", "sniff_json", "json_rows", "chapter_llama_chapters"]

_CHAPTER_LLAMA_TOP = {"chapters", "output"}
_HMS = re.compile(r"(?:(?:(\d+):)?(\d+):)?(\d+(?:\.\d+)?)")
_ANET_TOP = {"results", "version", "external_data"}
_SEGEVAL_TOP = {"items", "segmentation_type", "id"}


def _written(key: str) -> tuple[str, ...]:
    """How a key may be written in the file: as Python's json writes it, with and without escapes."""
    if key.isascii() and key.isprintable() and '"' not in key and "\\" not in key:  # nothing to escape
        return ('"' + key + '"',)
    return tuple(dict.fromkeys((json.dumps(key, ensure_ascii=False), json.dumps(key))))


class _Text:
    """The file's text, to find the line of a key (keys are searched in document order, from a cursor)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._newline_array: np.ndarray | None = None
        if text.isascii():  # a character a byte
            self._newline_array = np.flatnonzero(np.frombuffer(text.encode("ascii"), np.uint8) == 10)
            self.newlines = self._newline_array.tolist()
        else:
            self.newlines = [m.start() for m in re.finditer("\n", text)]
        self.misses = 0

    def line_at(self, position: int) -> int:
        return bisect.bisect_left(self.newlines, position) + 1

    def lines_at(self, positions: list[int]) -> list[int]:
        """:meth:`line_at` of each of ``positions``, all at once."""
        if self._newline_array is None:
            self._newline_array = np.array(self.newlines, dtype=np.int64)
        return (np.searchsorted(self._newline_array, positions, side="left") + 1).tolist()

    def find(self, key: str, position: int) -> int | None:
        """Where the key ``key`` is written at or after ``position`` (None when not found as written; after
        three such misses, None at once: a file that writes its keys otherwise is not scanned again and
        again, and its errors name the line of the enclosing value)."""
        if self.misses >= 3:
            return None
        text = self.text
        for written in _written(key):
            at = text.find(written, position)
            while at >= 0:
                after = at + len(written)
                while after < len(text) and text[after] in " \t\r\n":
                    after += 1
                if after < len(text) and text[after] == ":":
                    return at
                at = text.find(written, at + 1)
        self.misses += 1
        return None


_SNIFFED: dict[tuple, tuple] = {}
"""The last file :func:`sniff_json` parsed, kept for the reader that follows it (taken out when read)."""


def _key(path, encoding: str | None) -> tuple:
    stat = os.stat(path)
    return (os.fspath(path), stat.st_mtime_ns, stat.st_size, encoding)


def _load(path, *, encoding: str | None, keep: bool = False):
    """The parsed JSON and its text; ``keep``: remember them for the next call (one file at a time)."""
    key = _key(path, encoding)
    if key in _SNIFFED:
        loaded = _SNIFFED[key] if keep else _SNIFFED.pop(key)
        return loaded
    _SNIFFED.clear()
    loaded = _parse(path, encoding=encoding)
    if keep:
        _SNIFFED[key] = loaded
    return loaded


def _parse(path, *, encoding: str | None):
    text = read_text(path, encoding=encoding)
    try:
        data = loads(text)
    except DuplicateKey as duplicate:
        key = str(duplicate)
        raise InputError(
            "a key is given twice in one JSON object", path=path, line=repeated_key_line(text, key), value=key
        ) from None
    except json.JSONDecodeError as error:
        raise InputError(
            f"not JSON ({error.msg} at column {error.colno})", path=path, line=error.lineno, value=_excerpt(error)
        ) from None
    except RecursionError:
        raise too_deep(text, path=path) from None
    return data, _Text(text)


def _excerpt(error: json.JSONDecodeError) -> str:
    lines = error.doc.splitlines()
    return lines[error.lineno - 1][:120] if 0 < error.lineno <= len(lines) else ""


def json_shape(data) -> str | None:
    """The format whose shape ``data`` (parsed JSON) has: ``"anet"``, ``"vidchapters"``, ``"json"``,
    ``"segeval"`` (segeval's dataset: an object with an ``items`` object), ``"podcast"`` (Podcast 2.0 chapters: an
    object with a ``chapters`` list of objects with ``startTime``), or None.

    ``anet``: an object with a ``results`` object (and possibly ``version``, ``external_data``);
    ``vidchapters``: an object whose values are objects with ``chapters`` or ``timestamps``; ``json``: an
    object whose values are lists of objects with ``start`` (or empty lists, with at least one not empty).
    The first value decides; the readers check every value.
    """
    if not isinstance(data, dict) or not data:
        return None
    chapters = data.get("chapters")
    if (
        isinstance(chapters, dict)
        and set(data) <= _CHAPTER_LLAMA_TOP
        and all(isinstance(v, str) for v in chapters.values())
    ):
        return CHAPTER_LLAMA
    if isinstance(data.get("results"), dict) and set(data) <= _ANET_TOP:
        return "anet"
    if isinstance(data.get("items"), dict) and set(data) <= _SEGEVAL_TOP:
        return "segeval"
    chapters = data.get("chapters")
    if isinstance(chapters, list) and (
        isinstance(chapters[0], dict) and "startTime" in chapters[0] if chapters else "version" in data
    ):
        return "podcast"  # Podcast 2.0 chapters (tvseg.readers.podcast)
    values = list(data.values())
    first = values[0]
    if isinstance(first, dict) and ("chapters" in first or "timestamps" in first):
        return "vidchapters"
    first_list = next((v for v in values if isinstance(v, list) and v), None)
    if all(isinstance(v, list) for v in values) and isinstance(first_list, list):
        record = first_list[0]
        if isinstance(record, dict) and "start" in record:
            return "json"
    return None


def sniff_json(path, *, encoding: str | None = None) -> str:
    """The format of a ``.json`` file by its shape (:func:`json_shape`), or an :class:`InputError`."""
    data, _ = _load(path, encoding=encoding, keep=True)
    shape = json_shape(data)
    if shape is None:
        _SNIFFED.clear()
        raise InputError(
            "a .json file of no known shape: VidChapters' annotations {video: {duration, chapters: [{label, time}]}}"
            ' (format vidchapters), ActivityNet predictions {"results": {video: [{timestamp, sentence}]}} (format '
            'anet), {show: [{start, end, title}]} (format json) or segeval\'s dataset {"items": {document: {coder: '
            'masses}}} (format segeval) or Podcast 2.0 chapters {"version", "chapters": [{startTime, title}]} '
            "(format podcast)",
            path=path,
            line=1,
        )
    return shape


def chapter_llama_chapters(path, *, encoding: str | None = None) -> list:
    """The chapters of one video in Chapter-Llama's output (:data:`CHAPTER_LLAMA`), in the file's order, as
    its ``hms_to_sec`` reads their times (``HH:MM:SS``, ``MM:SS`` or seconds; a fraction of a second kept)
    and its ``get_pred_segments`` orders them; their ends are the next starts, the last the video's end
    (:func:`~tvseg.readers.chapter_list.chapter_records`).

    Raises
    ------
    InputError
        Not that shape, no chapter, a time that is not ``[[H:]MM:]SS`` with minutes and seconds under 60
        (``hms_to_sec`` returns False for it), times that do not increase.
    """
    from tvseg.readers.chapter_list import Chapter, clock_text

    data, text = _load(path, encoding=encoding)
    reader = _Reader(path, text)
    if json_shape(data) != CHAPTER_LLAMA:
        raise InputError(
            'not Chapter-Llama\'s output {"chapters": {"HH:MM:SS": title}, "output": text}', path=path, line=1
        )
    chapters: list[Chapter] = []
    for key, title in data["chapters"].items():
        line = reader.line(key, 1)
        match = _HMS.fullmatch(key)
        if match is None or any(part is not None and float(part) >= 60 for part in match.groups()[1:]):
            raise InputError(
                "a chapter time is not HH:MM:SS (minutes and seconds under 60)", path=path, line=line, value=key
            )
        hours, minutes, seconds = match.groups()
        whole = int(hours or 0) * 3600 + int(minutes or 0) * 60  # as hms_to_sec adds them
        start = whole + parse_time(seconds, path=path, line=line, field="chapter time")
        if chapters and not chapters[-1].start < start:
            raise InputError(
                f"the chapter times do not increase (after {clock_text(int(chapters[-1].start))})",
                path=path,
                line=line,
                value=key,
            )
        label = _label(title, path=path, line=line, field=key)
        chapters.append(Chapter(start, label, line))
    if not chapters:
        raise InputError("no chapter in this Chapter-Llama output", path=path, line=1)
    return chapters


def _show_id(key: str, *, path, line: int) -> str:
    if not key.strip():
        raise InputError("a show id is empty", path=path, line=line, value=repr(key))
    return no_surrogate(key, "a show id", path=path, line=line)


def _label(value, *, path, line: int, field: str) -> str:
    if value is None:
        return NO_LABEL
    if not isinstance(value, str) or isinstance(value, Number):
        raise InputError(f"'{field}' must be a string", path=path, line=line, value=dumps(value))
    return no_surrogate(value, f"'{field}'", path=path, line=line).strip() or NO_LABEL


def _pair(value, *, path, line: int, field: str) -> tuple[float, float]:
    if not (isinstance(value, list) and len(value) == 2):
        raise InputError(f"'{field}' must be a pair [start, end] of seconds", path=path, line=line, value=dumps(value))
    return (
        json_time(value[0], path=path, line=line, field=f"{field} start"),
        json_time(value[1], path=path, line=line, field=f"{field} end"),
    )


class _Reader:
    """The state of one file's reading: where the keys were found, the fields not read."""

    def __init__(self, path, text: _Text) -> None:
        self.path, self.text, self.cursor = path, text, 0
        self.unread: dict[str, int] = {}
        self.scores: list[float] = []  # a JSON segmentation's segment scores (NaN: none), in reading order
        self.levels: list[tuple[int | None, int]] = []  # a JSON segment's level (None: none) and its line

    def line(self, key: str, default: int) -> int:
        position = self.text.find(key, self.cursor)
        if position is None:
            return default
        self.cursor = position + 1
        return self.text.line_at(position)

    def note(self, record: dict, read: set[str], line: int) -> None:
        for key in record:
            if key not in read:
                self.unread.setdefault(key, line)

    def warn_unread(self, fields: str) -> None:
        warn_unread(self.unread, fields, path=self.path)

    def by_show(self, shows: dict, *, of: str, each: str, anchor: str, read) -> dict[str, list]:
        """``{show: [read(record, its line), ...]}`` of ``{show: [record, ...]}``: each show's list (``of``,
        for the messages) of JSON objects (``each``), a record's line that of its key ``anchor``."""
        out = {}
        for key, records in shows.items():
            line = self.line(key, 1)
            show = _show_id(key, path=self.path, line=line)
            rows = []
            for record in _list_of(records, f"{of} {key!r}", path=self.path, line=line):
                here = self.line(anchor, line) if isinstance(record, dict) and anchor in record else line
                rows.append(read(_object_of(record, each, path=self.path, line=here), here))
            out[show] = rows
        return out


def _object_of(value, what: str, *, path, line: int) -> dict:
    return expect(value, dict, f"{what} must be a JSON object", path=path, line=line)


def _list_of(value, what: str, *, path, line: int) -> list:
    return expect(value, list, f"{what} must be a JSON list", path=path, line=line)


def _vidchapters(data, r: _Reader) -> dict[str, list[tuple[float, float, str, int]]]:
    videos = _object_of(data, "a VidChapters annotation file", path=r.path, line=1)
    return _at_once_or_each(videos, r, _chapters_at_once, _vidchapters_each)


def _at_once_or_each(records: dict, r: _Reader, at_once, each) -> dict[str, list[tuple[float, float, str, int]]]:
    """``at_once(records, r)``, the file's rows read all at once; when it sends the file back (None), ``each``
    reads it again from the start, one record after the other."""
    read = at_once(records, r)
    if read is not None:
        return read
    r.cursor, r.text.misses = 0, 0
    return each(records, r)


_VIDEO_FIELDS = frozenset({"duration", "chapters"})
_CHAPTER_FIELDS = frozenset({"label", "time"})


def _chapters_at_once(videos: dict, r: _Reader) -> dict[str, list[tuple[float, float, str, int]]] | None:
    """:func:`_vidchapters_each`'s result for a file of raw annotations whose every chapter reads without a
    question: each video an object of ``duration`` and a non-empty list of ``chapters``, each chapter an
    object of ``label`` (a string or null) and ``time``, the times increasing within the video and before
    its duration, all within ``[0, MAX_SECONDS]``, every key found as Python's json writes it. ``None`` for
    any other file, which :func:`_vidchapters_each` then reads (and refuses, naming the line)."""
    anchors = _key_positions(r, "label")
    out: dict[str, list] = {}
    positions: list[int] = []
    times: list = []
    labels: list = []
    durations: list = []
    counts: list[int] = []
    for key, video in videos.items():
        r.line(key, 1)  # the cursor past the video's key, as the chapter-by-chapter reading moves it
        if r.text.misses or not _plain_show_id(key) or type(video) is not dict or not video.keys() <= _VIDEO_FIELDS:
            return None
        chapters = video.get("chapters")
        if type(chapters) is not list or not chapters or "duration" not in video:
            return None
        at = bisect.bisect_left(anchors, r.cursor)
        if at + len(chapters) > len(anchors):
            return None
        if not all(type(chapter) is dict and chapter.keys() == _CHAPTER_FIELDS for chapter in chapters):
            return None
        times += [chapter["time"] for chapter in chapters]
        labels += [chapter["label"] for chapter in chapters]
        positions += anchors[at : at + len(chapters)]
        r.cursor = positions[-1] + 1
        durations.append(video["duration"])
        counts.append(len(chapters))
        out[key] = chapters
    starts, duration, titles = _seconds(times), _seconds(durations), _plain_labels(labels)
    if starts is None or duration is None or titles is None:
        return None
    last = np.cumsum(counts) - 1
    ends = np.empty_like(starts)
    ends[:-1] = starts[1:]
    ends[last] = duration
    if not np.all(starts < ends):  # increasing in each video, the last before its duration
        return None
    _split(out, list(zip(starts.tolist(), ends.tolist(), titles, r.text.lines_at(positions))))
    return out


def _vidchapters_each(videos: dict, r: _Reader) -> dict[str, list[tuple[float, float, str, int]]]:
    path, out = r.path, {}
    for key, video in videos.items():
        line = r.line(key, 1)
        show = _show_id(key, path=path, line=line)
        video = _object_of(video, f"video {key!r}", path=path, line=line)
        if "duration" not in video:
            raise InputError(f"video {key!r} has no 'duration' (seconds)", path=path, line=line)
        if "chapters" in video:
            out[show] = _raw_chapters(video, key, line, r)
        elif "timestamps" in video:
            out[show] = _processed(video, key, line, r)
        else:
            raise InputError(f"video {key!r} has neither 'chapters' nor 'timestamps'", path=path, line=line)
    r.warn_unread("duration, chapters [label, time], or timestamps and sentences")
    return out


def _raw_chapters(video: dict, key: str, line: int, r: _Reader) -> list[tuple[float, float, str, int]]:
    path = r.path
    chapters = _list_of(video["chapters"], f"'chapters' of video {key!r}", path=path, line=line)
    if not chapters:
        raise InputError(f"video {key!r} has no chapter", path=path, line=line)
    starts: list[tuple[float, str, int]] = []
    for chapter in chapters:
        here = r.line("label", line) if isinstance(chapter, dict) and "label" in chapter else line
        chapter = _object_of(chapter, "a chapter", path=path, line=here)
        if "time" not in chapter:
            raise InputError(
                "a chapter has no 'time' (its start in seconds)", path=path, line=here, value=dumps(chapter)
            )
        time = json_time(chapter["time"], path=path, line=here, field="chapter time")
        if starts and time <= starts[-1][0]:
            raise InputError(
                f"chapter times must increase (the chapter before starts at {starts[-1][0]:g} s)",
                path=path,
                line=here,
                value=str(chapter["time"]),
            )
        r.note(chapter, {"label", "time"}, here)
        starts.append((time, _label(chapter.get("label"), path=path, line=here, field="label"), here))
    r.note(video, {"duration", "chapters"}, line)
    duration = json_time(video["duration"], path=path, line=line, field="duration")
    if not starts[-1][0] < duration:
        raise InputError(
            f"the last chapter of video {key!r} starts at or after the video's duration ({duration:g} s)",
            path=path,
            line=starts[-1][2],
            value=str(chapters[-1]["time"]),
        )
    ends = [start for start, _, _ in starts[1:]] + [duration]
    return [(start, end, label, here) for (start, label, here), end in zip(starts, ends)]


def _processed(video: dict, key: str, line: int, r: _Reader) -> list[tuple[float, float, str, int]]:
    path = r.path
    stamps = _list_of(video["timestamps"], f"'timestamps' of video {key!r}", path=path, line=line)
    sentences = video.get("sentences")
    if sentences is not None:
        sentences = _list_of(sentences, f"'sentences' of video {key!r}", path=path, line=line)
        if len(sentences) != len(stamps):
            raise InputError(
                f"video {key!r} has {len(stamps)} timestamps and {len(sentences)} sentences", path=path, line=line
            )
    json_time(video["duration"], path=path, line=line, field="duration")
    r.note(video, {"duration", "timestamps", "sentences", "path"}, line)
    out = []
    for k, stamp in enumerate(stamps):
        start, end = _pair(stamp, path=path, line=line, field="timestamps")
        label = _label(sentences[k], path=path, line=line, field="sentences") if sentences is not None else NO_LABEL
        out.append((start, end, label, line))
    return out


def _anet(data, r: _Reader) -> dict[str, list[tuple[float, float, str, int]]]:
    path = r.path
    data = _object_of(data, "an ActivityNet prediction file", path=path, line=1)
    if "results" not in data:
        raise InputError('an ActivityNet prediction file has a "results" object', path=path, line=1)
    results = _object_of(data["results"], "'results'", path=path, line=r.line("results", 1))

    def prediction(record: dict, here: int) -> tuple[float, float, str, int]:
        if "timestamp" not in record:
            raise InputError("a prediction has no 'timestamp' [start, end]", path=path, line=here, value=dumps(record))
        start, end = _pair(record["timestamp"], path=path, line=here, field="timestamp")
        r.note(record, {"timestamp", "sentence", "score", "sentence_score"}, here)
        return start, end, _label(record.get("sentence"), path=path, line=here, field="sentence"), here

    out = r.by_show(results, of="the predictions of video", each="a prediction", anchor="timestamp", read=prediction)
    r.warn_unread("timestamp and sentence")
    return out


def _plain(data, r: _Reader) -> dict[str, list[tuple[float, float, str, int]]]:
    shows = _object_of(data, "a JSON segmentation {show: [segments]}", path=r.path, line=1)
    return _at_once_or_each(shows, r, _plain_at_once, _plain_each)


_PLAIN_FIELDS = frozenset({"start", "end", "title", "label", LEVEL, SCORE})
_NO_LEVEL = object()  # a segment without a 'level' field (null is a level refused)


def _plain_at_once(shows: dict, r: _Reader) -> dict[str, list[tuple[float, float, str, int]]] | None:
    """:func:`_plain_each`'s result for a file whose every segment reads without a question: an object of
    fields among ``start``, ``end``, ``title`` or ``label``, ``level``, ``score``, its times numbers within
    ``[0, MAX_SECONDS]``, its title a string or null, its level a positive integer, its score a finite
    number or null, every key found as Python's json writes it. ``None`` for any other file, which
    :func:`_plain_each` then reads (and refuses, naming the line)."""
    anchors = _key_positions(r, "start")
    out: dict[str, list] = {}
    positions: list[int] = []
    starts: list = []
    ends: list = []
    titles: list = []
    scores: list = []
    levels: list = []
    for key, records in shows.items():
        r.line(key, 1)  # the cursor past the show's key, as the segment-by-segment reading moves it
        if r.text.misses or not _plain_show_id(key) or type(records) is not list:
            return None
        at = bisect.bisect_left(anchors, r.cursor)
        if at + len(records) > len(anchors):
            return None
        for record in records:
            if type(record) is not dict or not record.keys() <= _PLAIN_FIELDS or "start" not in record:
                return None
            if "title" in record:
                if "label" in record:
                    return None
                title = record["title"]
            else:
                title = record.get("label")
            starts.append(record["start"])
            ends.append(record.get("end"))
            titles.append(title)
            scores.append(record.get(SCORE))
            levels.append(record.get(LEVEL, _NO_LEVEL))
        if records:
            positions += anchors[at : at + len(records)]
            r.cursor = positions[-1] + 1
        out[key] = records
    start_s, end_s, labels = _seconds(starts), _seconds(ends), _plain_labels(titles)
    if start_s is None or end_s is None or labels is None:
        return None
    score_values = [math.nan if s is None else float(s) if type(s) is Number else math.nan for s in scores]
    if not all(math.isfinite(v) for v, s in zip(score_values, scores) if s is not None):
        return None
    if not all(value is _NO_LEVEL or isinstance(value, str) for value in levels):
        return None
    level_of: dict = {}
    for value in set(levels) - {_NO_LEVEL}:
        try:
            level_of[value] = parse_level(value, path=r.path, line=1)
        except InputError:
            return None
    lines = r.text.lines_at(positions)
    _split(out, list(zip(start_s.tolist(), end_s.tolist(), labels, lines)))
    r.scores += score_values
    r.levels += [(None if value is _NO_LEVEL else level_of[value], line) for value, line in zip(levels, lines)]
    return out


@functools.lru_cache(maxsize=8)
def _key_pattern(key: str) -> re.Pattern:
    return re.compile(re.escape(json.dumps(key)) + r"[ \t\r\n]*:")


def _key_positions(r: _Reader, key: str) -> list[int]:
    """Where ``key`` is written as a key (a plain one: ``"key"`` then ``:``), in the order of the text: the
    places :meth:`_Text.find` finds one after the other (two cannot overlap)."""
    return [m.start() for m in _key_pattern(key).finditer(r.text.text)]


def _plain_show_id(key: str) -> bool:
    """Whether :func:`_show_id` takes ``key`` as it is."""
    return bool(key.strip()) and SURROGATE.search(key) is None


def _seconds(values: list) -> np.ndarray | None:
    """JSON numbers as :func:`~tvseg.readers.json_values.json_time` reads them, when every one is a number
    within ``[0, MAX_SECONDS]``; else None."""
    if not all(type(value) is Number for value in values):
        return None
    seconds = np.array(list(map(float, values)), dtype=np.float64)
    return seconds if np.all((seconds >= 0) & (seconds <= MAX_SECONDS)) else None


def _plain_labels(values: list) -> list[str] | None:
    """Titles as :func:`_label` reads them (null: no title), when every one is null or a string without a
    lone surrogate; else None."""
    if not all(value is None or type(value) is str for value in values):
        return None
    if SURROGATE.search("".join(value for value in values if value is not None)):
        return None
    return [NO_LABEL if value is None else value.strip() or NO_LABEL for value in values]


def _split(out: dict[str, list], rows: list) -> None:
    """``rows`` in reading order given to ``out``'s shows, as many to each as its list held."""
    k = 0
    for key, records in out.items():
        out[key] = rows[k : k + len(records)]
        k += len(records)


def _plain_each(shows: dict, r: _Reader) -> dict[str, list[tuple[float, float, str, int]]]:
    path = r.path

    def segment(record: dict, here: int) -> tuple[float, float, str, int]:
        for field in ("start", "end"):
            if field not in record:
                raise InputError(f"a segment has no '{field}'", path=path, line=here, value=dumps(record))
        if "title" in record and "label" in record:
            raise InputError("a segment has both 'title' and 'label'", path=path, line=here, value=dumps(record))
        start = json_time(record["start"], path=path, line=here, field="start")
        end = json_time(record["end"], path=path, line=here, field="end")
        r.note(record, {"start", "end", "title", "label", LEVEL, SCORE}, here)
        r.scores.append(json_score(record.get(SCORE), path=path, line=here))
        r.levels.append((parse_level(record[LEVEL], path=path, line=here) if LEVEL in record else None, here))
        return start, end, _label(record.get("title", record.get("label")), path=path, line=here, field="title"), here

    out = r.by_show(shows, of="the segments of show", each="a segment", anchor="start", read=segment)
    r.warn_unread("start, end, title")
    return out


_READERS = {"vidchapters": _vidchapters, "anet": _anet, "json": _plain}


def _records(path, *, format: str | None, encoding: str | None) -> tuple[str, dict, _Reader]:
    """``(format, {show: [(start, end, label, line), ...]}, the reader)`` of a JSON file of one of
    :data:`JSON_FORMATS` (``format=None``: recognised by its shape)."""
    data, text = _load(path, encoding=encoding)
    shape = json_shape(data)
    if format is None:
        if shape is None:
            sniff_json(path, encoding=encoding)  # raises the message naming the shapes
        format = shape
    elif shape is not None and shape != format:
        raise InputError(
            f"read as {format}, this file has the shape of {shape} (give --format {shape}, or none)", path=path, line=1
        )
    assert format is not None
    reader = _Reader(path, text)
    return format, _READERS[format](data, reader), reader


def json_rows(path, *, format: str | None = None, encoding: str | None = None) -> Rows:
    """The :class:`~tvseg.readers.corpus.Rows` of a JSON file (:func:`_records`); an ActivityNet
    prediction file's rows may overlap.

    Raises
    ------
    InputError
        What the shape's reader refuses; a segment without a level in a file whose other segments have one.
    """
    kind, shows, reader = _records(path, format=format, encoding=encoding)
    rows = Rows.of_file(Path(path), shows)
    rows.overlaps = kind == "anet"
    if kind == "json" and not all(math.isnan(score) for score in reader.scores):
        rows.texts[SCORE] = np.array(reader.scores, dtype=np.float64)
    if any(level is not None for level, _ in reader.levels):
        missing = next((line for level, line in reader.levels if level is None), None)
        if missing is not None:
            message = "a segment has no 'level' (the file's other segments have one)"
            raise InputError(message, path=reader.path, line=missing)
        rows.texts[LEVEL] = np.array([level for level, _ in reader.levels], dtype=np.int64)
    return rows
