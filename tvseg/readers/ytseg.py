"""YTSeg (Retkowski & Waibel 2024, ``retkowski/ytseg`` on Hugging Face): its videos' chapters in seconds.

The dataset has three configurations (``formats/ytseg.md``); a file of each is a list of JSON objects, as
JSON Lines (one object a line, as the dataset's ``.json`` partitions are) or as one JSON array:

- ``text`` (``data/partitions/yt_seg.{train,val,test}.json``) and ``audio`` (``audio/SPLIT-*.parquet``,
  read with pyarrow, the audio column left unread; or its rows as ``Dataset.to_json`` writes them): one video a record, ``video_id``, the chapters' starts
  ``chapter_timestamps`` (seconds), their ``chapter_titles`` and the video's ``duration`` (seconds), beside
  the transcripts (``text_ref``, ...) and their binary targets (``target_binary_ref``, ...), which are not
  read: a chapter spans ``[start_i, start_{i+1})``, the last one ends at ``duration`` (a first start after 0
  leaves ``[0, start_0)`` an untitled segment, as chunkseg's ``evaluate`` scores such a reference);
- ``titles`` (``data/partitions/yt_seg_titles.{train,val,test}.json``): one chapter a record, ``video_id``,
  ``chapter_idx`` and its title ``target``, without times. It titles the chapters of the videos of the
  ``text`` file of the same partition beside it (``yt_seg_titles.test.json`` beside ``yt_seg.test.json``)
  whose records have no ``chapter_titles``; read alone it is refused.

A system's chapters in the same shape (``video_id``, ``duration``, ``chapter_timestamps`` and optionally
``chapter_titles``) are read the same way. Numbers are read from the digits as written
(:func:`~tvseg.readers.json_values.json_time`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from tvseg.errors import InputError
from tvseg.readers.corpus import Rows
from tvseg.readers.formats import PARQUET
from tvseg.readers.json_values import (
    DuplicateKey,
    Number,
    dumps,
    expect,
    json_line,
    json_time,
    loads,
    no_surrogate,
    too_deep,
)
from tvseg.readers.source import read_text, split_lines
from tvseg.readers.validation import NO_LABEL

__all__ = ["VIDEO_FIELDS", "TITLE_FIELDS", "is_ytseg_record", "ytseg_rows", "sniff_ytseg", "PARQUET"]

VIDEO_FIELDS = ("video_id", "chapter_timestamps")
"""The fields that make a record a YTSeg video (the ``text`` and ``audio`` configurations)."""
TITLE_FIELDS = ("video_id", "chapter_idx", "target")
"""The fields that make a record a YTSeg chapter (the ``titles`` configuration)."""
_BINARY = ("target_binary_ref", "targets")
_TITLES_NAME = re.compile(r"yt_seg\.(?P<split>[^.]+)\.json", re.IGNORECASE)
_VIDEO_KEY = re.compile(r'"video_id"\s*:')
_PARQUET_COLUMNS = ("video_id", "duration", "chapter_timestamps", "chapter_titles")


def is_ytseg_record(data) -> bool:
    """Whether ``data`` (a parsed JSON value) is a YTSeg record: an object with :data:`VIDEO_FIELDS`,
    :data:`TITLE_FIELDS`, or ``video_id`` and a binary target (``target_binary_ref``, ``targets``)."""
    if not isinstance(data, dict) or "video_id" not in data:
        return False
    return (
        all(k in data for k in VIDEO_FIELDS) or all(k in data for k in TITLE_FIELDS) or any(k in data for k in _BINARY)
    )


def sniff_ytseg(path, *, encoding: str | None = None) -> bool:
    """Whether the file's first record (its first line, or the first element of its array) is a YTSeg
    record (:func:`is_ytseg_record`); False for a file that is not JSON. Only that record is parsed."""
    try:
        text = read_text(path, encoding=encoding)
    except InputError:
        return False
    start = len(text) - len(text.lstrip())
    try:
        if text.startswith("[", start):
            inner = len(text) - len(text[start + 1 :].lstrip())
            first, _ = json.JSONDecoder().raw_decode(text, inner)
        else:
            end = text.find("\n", start)
            line = text[start : None if end < 0 else end]
            if '"video_id"' not in line:
                return False  # not parsed: a file of one long line (VidChapters' annotations) is parsed once, by its reader
            first = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return False
    return is_ytseg_record(first)


def _as_json(value):
    """A Parquet value as the JSON readers take it: numbers as their shortest text (:class:`Number`)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return Number(repr(value))
    if isinstance(value, list):
        return [_as_json(v) for v in value]
    return value


def _parquet_records(path) -> list[tuple[int, dict]]:
    """The rows of a Parquet file (the ``audio`` configuration) and the number of each (from 1), the columns
    read being :data:`_PARQUET_COLUMNS` (the audio is not read)."""
    try:
        import pyarrow
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(
            "reading YTSeg's Parquet files needs pyarrow (pip install 'tvseg[ytseg]'), or export the rows to JSON "
            "Lines without the audio (formats/ytseg.md)",
            path=path,
        ) from None
    try:
        names = pq.read_schema(path).names
        table = pq.read_table(path, columns=[c for c in _PARQUET_COLUMNS if c in names])
    except (pyarrow.ArrowException, OSError) as error:
        raise InputError(f"not a readable Parquet file ({error})", path=path) from None
    return [(k, {key: _as_json(v) for key, v in row.items()}) for k, row in enumerate(table.to_pylist(), start=1)]


def _records(path, *, encoding: str | None) -> list[tuple[int, dict]]:
    """The file's records and the line of each (its own line; in a JSON array, the line of its
    ``"video_id"`` key; in a Parquet file, its row number)."""
    if Path(path).suffix.lower() == PARQUET:
        return _parquet_records(path)
    text = read_text(path, encoding=encoding)
    if text.lstrip().startswith("["):
        try:
            data = loads(text, first_repeated=True)
        except DuplicateKey as duplicate:
            raise InputError("a field is given twice in one record", path=path, value=str(duplicate)) from None
        except json.JSONDecodeError as error:
            raise InputError(f"not JSON ({error.msg} at column {error.colno})", path=path, line=error.lineno) from None
        except RecursionError:
            raise too_deep(text, path=path) from None
        keys = [text.count("\n", 0, m.start()) + 1 for m in _VIDEO_KEY.finditer(text)]
        lines = keys if len(keys) == len(data) else [1] * len(data)
        return list(zip(lines, data))
    found = []
    for number, raw in enumerate(split_lines(text), start=1):
        if not raw.strip():
            continue
        found.append((number, json_line(raw, path=path, line=number, unit="record", limit=120)))
    return found


def _video_id(record, *, path, line: int) -> str:
    if not isinstance(record, dict):
        raise InputError("a YTSeg record is a JSON object with video_id", path=path, line=line, value=dumps(record))
    video = record.get("video_id")
    if not isinstance(video, str) or isinstance(video, Number) or not video.strip():
        raise InputError("'video_id' must be a non-empty string", path=path, line=line, value=dumps(video))
    return no_surrogate(video, "'video_id'", path=path, line=line)


def _titles_file(path: Path) -> Path | None:
    """The ``titles`` file of the partition of a ``text`` file named as the dataset names it, if it is there."""
    match = _TITLES_NAME.fullmatch(path.name)
    if match is None:
        return None
    beside = path.with_name(f"yt_seg_titles.{match['split']}.json")
    return beside if beside.is_file() else None


def _chapter_titles(path, *, encoding: str | None) -> dict[str, dict[int, tuple[str, int]]]:
    """``{video: {chapter_idx: (title, line)}}`` of a ``titles`` file."""
    found: dict[str, dict[int, tuple[str, int]]] = {}
    for line, record in _records(path, encoding=encoding):
        video = _video_id(record, path=path, line=line)
        if not all(k in record for k in TITLE_FIELDS):
            raise InputError(
                "a YTSeg titles record has video_id, chapter_idx and target", path=path, line=line, value=video
            )
        index = record["chapter_idx"]
        if not isinstance(index, Number) or not re.fullmatch("[0-9]+", index):
            raise InputError("'chapter_idx' must be a whole number from 0", path=path, line=line, value=dumps(index))
        title = record["target"]
        expect(title, str, "'target' (the chapter's title) must be a string", path=path, line=line)
        if isinstance(title, Number):
            raise InputError("'target' (the chapter's title) must be a string", path=path, line=line, value=title)
        chapters = found.setdefault(video, {})
        if int(index) in chapters:
            raise InputError(
                f"chapter {index} of video {video!r} already titled on line {chapters[int(index)][1]}",
                path=path,
                line=line,
            )
        chapters[int(index)] = (no_surrogate(title, "'target'", path=path, line=line), line)
    return found


def ytseg_rows(path, *, encoding: str | None = None, in_folder: bool = False) -> Rows:
    """The chapters of every video of a YTSeg file, as rows in seconds (module docstring).

    Raises
    ------
    InputError
        A record without ``video_id``, ``duration`` or ``chapter_timestamps`` (a record of binary targets
        only: its sentences have no times), starts not increasing or at or after the duration, a
        ``chapter_titles`` of another length than its starts, a video given twice; a ``titles`` file read
        alone (``in_folder`` False) or beside no ``text`` file of its partition.
    """
    path = Path(path)
    records = _records(path, encoding=encoding)
    if not records:
        raise InputError("no YTSeg record", path=path, line=1)
    first_line, first = records[0]
    if isinstance(first, dict) and all(k in first for k in TITLE_FIELDS) and "chapter_timestamps" not in first:
        split = re.fullmatch(r"yt_seg_titles\.(?P<split>[^.]+)\.json", path.name, re.IGNORECASE)
        beside = None if split is None else path.with_name(f"yt_seg.{split['split']}.json")
        if in_folder and beside is not None and beside.is_file():
            _chapter_titles(path, encoding=encoding)  # checked here, read by the text file's reading
            return Rows([], [], [], start=[], end=[], line=[], label=np.empty(0, dtype=object))
        raise InputError(
            "a YTSeg titles file (one chapter a record: video_id, chapter_idx, target) has no times: read the "
            "text or audio configuration's file, whose chapter_timestamps these titles are of (a titles file "
            "named yt_seg_titles.SPLIT.json beside yt_seg.SPLIT.json titles its chapters)",
            path=path,
            line=first_line,
        )
    titles_path = _titles_file(path)
    titles = _chapter_titles(titles_path, encoding=encoding) if titles_path is not None else {}
    shows: dict[str, list[tuple[float, float, str, int]]] = {}
    for line, record in records:
        video = _video_id(record, path=path, line=line)
        if video in shows:
            raise InputError(f"video already read from line {shows[video][0][3]}", path=path, line=line, value=video)
        shows[video] = _chapters(record, titles.get(video), path=path, line=line)
    return Rows.of_file(path, shows)


def _chapters(
    record: dict, titled: dict[int, tuple[str, int]] | None, *, path, line: int
) -> list[tuple[float, float, str, int]]:
    """One video's segments ``(start, end, title, line)``."""
    if "chapter_timestamps" not in record:
        binary = next((k for k in _BINARY if k in record), None)
        reason = f" (its {binary!r} marks sentences, which have no times)" if binary else ""
        raise InputError(f"no 'chapter_timestamps' (the chapters' starts in seconds){reason}", path=path, line=line)
    if "duration" not in record:
        raise InputError("no 'duration' (the video's length in seconds)", path=path, line=line)
    duration = json_time(record["duration"], path=path, line=line, field="duration")
    if duration == 0:
        raise InputError("duration is zero", path=path, line=line, value=str(record["duration"]))
    stamps = record["chapter_timestamps"]
    expect(stamps, list, "'chapter_timestamps' must be a list of seconds", path=path, line=line)
    starts = [json_time(value, path=path, line=line, field="chapter timestamp") for value in stamps]
    for value, before, start in zip(stamps[1:], starts, starts[1:]):
        if start <= before:
            raise InputError(
                "chapter timestamps must increase", path=path, line=line, value=f"{dumps(before)} then {value}"
            )
    if starts and starts[-1] >= duration:
        raise InputError(
            f"a chapter starts at or after the duration ({duration:g} s)", path=path, line=line, value=str(stamps[-1])
        )
    labels = _record_titles(record, len(starts), titled, path=path, line=line)
    if not starts or starts[0] > 0:
        starts, labels = [0.0, *starts], [NO_LABEL, *labels]
    ends = [*starts[1:], duration]
    return [(start, end, label, line) for start, end, label in zip(starts, ends, labels)]


def _record_titles(
    record: dict, count: int, titled: dict[int, tuple[str, int]] | None, *, path, line: int
) -> list[str]:
    """The title of each chapter: ``chapter_titles``, else the ``titles`` file's, else none."""
    given = record.get("chapter_titles")
    if given is None and titled is not None:
        extra = sorted(set(titled) - set(range(count)))
        if extra:
            raise InputError(
                f"the titles file titles chapter {extra[0]} of a video of {count} chapters",
                path=path,
                line=line,
                value=record["video_id"],
            )
        return [titled[i][0].strip() or NO_LABEL if i in titled else NO_LABEL for i in range(count)]
    if given is None:
        return [NO_LABEL] * count
    expect(given, list, "'chapter_titles' must be a list of strings", path=path, line=line)
    if len(given) != count:
        raise InputError(
            f"{len(given)} chapter titles for {count} chapter timestamps", path=path, line=line, value=dumps(given)
        )
    labels = []
    for title in given:
        if not isinstance(title, str) or isinstance(title, Number):
            raise InputError("a chapter title must be a string", path=path, line=line, value=dumps(title))
        labels.append(no_surrogate(title, "a chapter title", path=path, line=line).strip() or NO_LABEL)
    return labels
