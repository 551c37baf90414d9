"""Spreadsheets and JSON records read through a column mapping (``--columns``, ``columns=``).

``show=COL,start=COL,end=COL,title=COL`` says which column (a CSV's header name, a JSON record's key) holds
what; besides those ``duration=``, ``date=``, ``date_format=``, ``fps=``, ``records=``, ``level=``
(:mod:`tvseg.readers.levels`), ``score=`` (:mod:`tvseg.retrieval.confidence`) and, for units, ``text=``,
``speaker=``, ``topic=``. The keys, the times (seconds, clock times or SMPTE timecodes at ``fps=``, from
midnight of the show's earliest date with ``date=``), a show id of several columns (``show=Programme+Date``),
the ends (the next story's start without ``end=`` and ``duration=``) and the JSON
records: ``formats/columns.md``.
"""

from __future__ import annotations

import datetime
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tvseg.errors import InputError, UsageError
from tvseg.readers.corpus import SCORE, Rows
from tvseg.readers.json_values import Number, dumps, expect
from tvseg.readers.levels import LEVEL, parse_level
from tvseg.readers.tables import Table
from tvseg.readers.time_origin import per_side
from tvseg.readers.timecodes import TIMECODE, frame_rate, timecode_seconds
from tvseg.readers.validation import NO_LABEL, parse_time

__all__ = ["ColumnMap", "SideColumns", "parse_columns", "table_mapped_rows", "json_mapped_rows"]

FIELDS = ("show", "start", "end", "duration", "title", "text", "speaker", "topic", "date", "level", "score")
"""The keys of ``--columns`` that name a column."""

_OPTIONS = ("date_format", "records", "fps")
SHOW_JOIN = " "
"""What joins the cells of a show id made of several columns (``show=Programme+Date``)."""
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_DAY = 86400.0


@dataclass(frozen=True)
class ColumnMap:
    """Which column holds what (:func:`parse_columns`): ``fields`` key -> column name, and the options."""

    fields: tuple[tuple[str, str], ...]
    date_format: str | None = None
    records: str | None = None
    fps: str | None = None

    def get(self, key: str) -> str | None:
        return dict(self.fields).get(key)

    def __str__(self) -> str:
        parts = [f"{k}={v}" for k, v in self.fields]
        parts += [f"{k}={getattr(self, k)}" for k in _OPTIONS if getattr(self, k) is not None]
        return ",".join(parts)


def parse_columns(spec: str | ColumnMap | dict) -> ColumnMap:
    """A :class:`ColumnMap` of ``"show=COL,start=COL,..."`` (or of a dict of the same keys).

    Raises
    ------
    UsageError
        An unknown key, a key given twice, an empty column name, no ``start``.
    """
    if isinstance(spec, ColumnMap):
        return spec
    pairs: list[tuple[str, str]] = []
    if isinstance(spec, dict):
        pairs = [(str(k), str(v)) for k, v in spec.items()]
    else:
        for item in str(spec).split(","):
            key, sep, value = item.partition("=")
            if not sep:
                raise UsageError(f"--columns: {item!r} is not KEY=COLUMN (e.g. start=Heure début)")
            pairs.append((key.strip(), value.strip()))
    fields, options, seen = [], {}, set()
    for key, value in pairs:
        if key not in FIELDS and key not in _OPTIONS:
            raise UsageError(f"--columns: unknown key {key!r} (choose from {', '.join(FIELDS + _OPTIONS)})")
        if key in seen:
            raise UsageError(f"--columns: {key}= is given twice")
        if not value:
            raise UsageError(f"--columns: {key}= names no column")
        seen.add(key)
        if key in _OPTIONS:
            options[key] = value
        else:
            fields.append((key, value))
    if "start" not in seen:
        raise UsageError("--columns needs start=COLUMN")
    if "end" in seen and "duration" in seen:
        raise UsageError("--columns: give end= or duration=, not both")
    if "date_format" in options and "date" not in seen:
        raise UsageError("--columns: date_format= needs date=COLUMN")
    if "fps" in options:
        frame_rate(options["fps"])
    return ColumnMap(tuple(fields), **options)


@dataclass(frozen=True)
class SideColumns:
    """The ``--columns`` options of a run: ``[SIDE:]MAP``, repeatable; a map without a side is every side's
    but those given their own (a side: ``reference``, ``units`` or a system's name)."""

    every: ColumnMap | None
    sides: tuple[tuple[str, ColumnMap], ...] = ()

    @classmethod
    def from_options(cls, values: list[str], *, systems) -> SideColumns | None:
        every, sides = per_side(
            values,
            option="--columns",
            known=("reference", "units", *systems),
            separator=":",
            parse=lambda text, side: parse_columns(text),
        )
        return cls(every, tuple(sides.items())) if every is not None or sides else None

    def of(self, side: str) -> ColumnMap | None:
        return dict(self.sides).get(side, self.every)


class _Stories:
    """The stories read so far: one row each, with the cells as written."""

    def __init__(self, path, cmap: ColumnMap, *, units: bool, decimal_comma: bool) -> None:
        self.path, self.cmap, self.units, self.decimal_comma = path, cmap, units, decimal_comma
        self.rate = frame_rate(cmap.fps) if cmap.fps is not None else None
        self.show: list[str] = []
        self.start: list[float] = []
        self.end: list[float | None] = []
        self.day: list[datetime.date | None] = []
        self.line: list[int] = []
        self.level: list[int] = []
        self.score: list[float] = []
        keys = ("text", "speaker", "topic") if units else ("title",)
        self.texts: dict[str, list[str]] = {k: [] for k in keys if cmap.get(k) is not None}

    def seconds(self, value, *, line: int, key: str, json_number: bool = False) -> float:
        field = f"{key} ({self.cmap.get(key)})"
        if value is None or (not isinstance(value, str)):
            raise InputError(f"{field} is not a time", path=self.path, line=line, value=repr(value))
        if not json_number and TIMECODE.fullmatch(value.strip()):
            if self.rate is None:
                raise InputError(
                    f"{field} is a SMPTE timecode (HH:MM:SS:FF): give its frame rate in --columns (fps=25, fps=29.97)",
                    path=self.path,
                    line=line,
                    value=value,
                )
            seconds = timecode_seconds(value, self.rate, path=self.path, line=line, field=field)
            assert seconds is not None  # a timecode
            return seconds
        return parse_time(
            value, path=self.path, line=line, field=field, clock=not json_number, decimal_comma=self.decimal_comma
        )

    def number(self, value, *, line: int, key: str) -> float:
        """A finite number as written (a comma as the decimal mark where times have one); NaN for an empty
        cell or ``null``."""
        text = "" if value is None else str(value).strip()
        if not text:
            return float("nan")
        number = text.replace(",", ".") if self.decimal_comma else text
        if _NUMBER.fullmatch(number) is None or not math.isfinite(float(number)):
            raise InputError(f"{key} ({self.cmap.get(key)}) is not a number", path=self.path, line=line, value=text)
        return float(number)

    def date(self, value, *, line: int) -> datetime.date:
        fmt = self.cmap.date_format or "%Y-%m-%d"
        text = value.strip() if isinstance(value, str) else repr(value)
        try:
            return datetime.datetime.strptime(text, fmt).date()
        except ValueError:
            hint = "" if self.cmap.date_format else " (give date_format=, e.g. date_format=%d/%m/%Y)"
            raise InputError(
                f"date ({self.cmap.get('date')}) is not a date as {fmt}{hint}", path=self.path, line=line, value=text
            ) from None

    def add(self, show: str, cells: dict, *, line: int, numbers: frozenset = frozenset()) -> None:
        """One story: ``cells`` key -> the value as written (``numbers``: the keys whose value is a JSON number)."""
        if not show.strip():
            raise InputError(f"show ({self.cmap.get('show')}) is missing", path=self.path, line=line, value=show)
        start = self.seconds(cells.get("start"), line=line, key="start", json_number="start" in numbers)
        end: float | None = None
        if self.cmap.get("end") is not None:
            end = self.seconds(cells.get("end"), line=line, key="end", json_number="end" in numbers)
        elif self.cmap.get("duration") is not None:
            end = start + self.seconds(
                cells.get("duration"), line=line, key="duration", json_number="duration" in numbers
            )
        day = self.date(cells.get("date"), line=line) if self.cmap.get("date") is not None else None
        if day is not None and end is not None and end < start and self.cmap.get("end") is not None:
            end += _DAY  # ends after midnight
        self.show.append(show.strip())
        self.start.append(start)
        self.end.append(end)
        self.day.append(day)
        self.line.append(line)
        if self.cmap.get("level") is not None:
            self.level.append(
                parse_level(cells.get("level"), path=self.path, line=line, field=f"level ({self.cmap.get('level')})")
            )
        if self.cmap.get("score") is not None:
            self.score.append(self.number(cells.get("score"), line=line, key="score"))
        for key in self.texts:
            value = cells.get(key)
            self.texts[key].append("" if value is None else str(value).strip())

    def rows(self) -> Rows:
        """The stories as :class:`Rows` (shows in order of appearance; ends from the next starts if unmapped)."""
        names = list(dict.fromkeys(self.show))
        code = {name: k for k, name in enumerate(names)}
        show = np.array([code[s] for s in self.show], dtype=np.int64)
        start = np.array(self.start, dtype=np.float64)
        line = np.array(self.line, dtype=np.int64)
        if self.cmap.get("date") is not None and len(show):
            ordinal = np.array([d.toordinal() for d in self.day], dtype=np.int64)  # type: ignore[union-attr]
            first = np.full(len(names), np.iinfo(np.int64).max)
            np.minimum.at(first, show, ordinal)
            offset = (ordinal - first[show]) * _DAY
        else:
            offset = np.zeros(len(show))
        start = start + offset
        if self.cmap.get("end") is None and self.cmap.get("duration") is None:
            end = self._next_starts(show, start, line, names)
        else:
            end = np.array(self.end, dtype=np.float64) + offset
        texts: dict[str, np.ndarray] = {}
        for key, values in self.texts.items():
            column = np.empty(len(values), dtype=object)
            column[:] = [v or NO_LABEL for v in values] if key == "title" else values
            texts["label" if key == "title" else key] = column
        if not self.units and "label" not in texts:
            texts["label"] = np.full(len(show), NO_LABEL, dtype=object)
        if not self.units and self.cmap.get("level") is not None:
            texts[LEVEL] = np.array(self.level, dtype=np.int64)
        if not self.units and self.cmap.get("score") is not None:
            texts[SCORE] = np.array(self.score, dtype=np.float64)
        return Rows(names, [self.path] * len(names), show, start=start, end=end, line=line, **texts)

    def _next_starts(self, show: np.ndarray, start: np.ndarray, line: np.ndarray, names: list[str]) -> np.ndarray:
        order = np.lexsort((line, start, show))
        end = np.full(len(show), np.nan)
        same = show[order][1:] == show[order][:-1]
        end[order[:-1][same]] = start[order][1:][same]
        last = np.flatnonzero(np.isnan(end))
        if last.size:
            i = int(last[np.argmin(line[last])])
            raise InputError(
                f"the last story of show {names[show[i]]!r} has no end (map end= or duration=; without them a story "
                "ends where the next one starts)",
                path=self.path,
                line=int(line[i]),
            )
        return end


def table_mapped_rows(table: Table, cmap: ColumnMap, *, units: bool = False) -> Rows:
    """The stories (or units) of a CSV table read through ``cmap``: every cell read as text, a comma as
    the decimal mark in a ``;`` table."""
    parts = {key: _parts(key, column, table.names) for key, column in cmap.fields}
    for key, names in parts.items():
        missing = [name for name in names if name not in table.names]
        if missing:
            raise InputError(
                f"no column {missing[0]!r} for {key}= (the columns are: {', '.join(table.names)})",
                path=table.path,
                line=1,
                value=missing[0],
            )
    frame = table.frame
    stories = _Stories(table.path, cmap, units=units, decimal_comma=table.separator == ";")
    stem = Path(table.path).stem
    columns = {key: frame[names[0]].tolist() for key, names in parts.items()}
    if len(parts.get("show", ())) > 1:
        rows = zip(*(frame[name].tolist() for name in parts["show"]))
        columns["show"] = [SHOW_JOIN.join(cell.strip() for cell in row) for row in rows]
    shows = columns.pop("show", None)
    for i, line in enumerate(table.lines.tolist()):
        cells = {key: values[i] for key, values in columns.items()}
        stories.add(stem if shows is None else shows[i], cells, line=line)
    return stories.rows()


def _parts(key: str, column: str, names) -> list[str]:
    """The columns of ``key``: one, or for ``show=`` the columns joined by ``+`` (``show=Programme+Date``)
    when no column has that name."""
    if key == "show" and column not in names and "+" in column:
        return [name.strip() for name in column.split("+")]
    return [column]


def json_mapped_rows(path, cmap: ColumnMap, *, encoding: str | None = None, units: bool = False) -> Rows:
    """The stories (or units) of a JSON list of records (or one record per file) read through ``cmap``."""
    from tvseg.readers.video_chapters import _load, _Reader

    data, text = _load(path, encoding=encoding)
    reader = _Reader(path, text)
    if isinstance(data, dict) and (cmap.records is None or cmap.records in data):
        data = [data]
    if not isinstance(data, list):
        raise InputError(
            f"--columns reads a JSON list of records or one record{' holding ' + repr(cmap.records) if cmap.records else ''}",
            path=path,
            line=1,
            value=dumps(data),
        )
    stories = _Stories(path, cmap, units=units, decimal_comma=True)
    stem = Path(path).stem
    seen: set[str] = set()
    for record in data:
        anchor = cmap.records if cmap.records is not None else cmap.get("start") or ""
        here = reader.line(anchor, 1) if isinstance(record, dict) and anchor in record else 1
        expect(record, dict, "a record must be a JSON object", path=path, line=here)
        inner = [record]
        if cmap.records is not None:
            if cmap.records not in record:
                raise InputError(
                    f"a record has no {cmap.records!r} (its keys are: {', '.join(map(str, record))})",
                    path=path,
                    line=here,
                )
            inner = record[cmap.records]
            expect(inner, list, f"{cmap.records!r} must be a JSON list", path=path, line=here)
        for story in inner:
            line = reader.line(cmap.get("start") or "", here) if isinstance(story, dict) else here
            expect(story, dict, "a story must be a JSON object", path=path, line=line)
            cells, numbers = {}, set()
            for key, column in cmap.fields:
                where = story if column in story else record
                joined = _parts(key, column, where)
                if len(joined) > 1:
                    found = [story.get(name, record.get(name)) for name in joined]
                    bad = [name for name, value in zip(joined, found) if not isinstance(value, (str, Number))]
                    if not bad:
                        cells[key] = SHOW_JOIN.join(str(value).strip() for value in found)
                        continue
                    column = bad[0]  # refused below, as a single column would be
                    where = story if column in story else record
                if column not in where:
                    if key in ("title", "text", "speaker", "topic", "score"):
                        continue
                    keys = sorted({*map(str, story), *map(str, record)} - {cmap.records or ""})
                    raise InputError(
                        f"no field {column!r} for {key}= (the fields are: {', '.join(keys)})",
                        path=path,
                        line=line,
                        value=dumps(story),
                    )
                value = where[column]
                seen.add(column)
                if isinstance(value, Number):
                    numbers.add(key)
                    value = str(value)
                elif value is not None and not isinstance(value, str):
                    if key in ("start", "end", "duration", "date") or key == "show":
                        raise InputError(
                            f"{key} ({column}) is not a time or a text", path=path, line=line, value=dumps(value)
                        )
                    value = dumps(value)
                cells[key] = value
            show = cells.pop("show", stem)
            if show is None:
                raise InputError(f"show ({cmap.get('show')}) is missing", path=path, line=line, value="null")
            stories.add(show, cells, line=line, numbers=frozenset(numbers))
    return stories.rows()
