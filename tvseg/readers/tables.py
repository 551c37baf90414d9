"""CSV tables: segments (``show,start,end,label``), breath groups (``show,start,end[,text,speaker,topic]``)
and show metadata (``show,channel,programme,date``).

The kind of a table is told by its header (see :func:`table_kind`). Cells are read as text by
pandas (``"``-quoted, in an encoding :func:`~tvseg.readers.source.read_text` reads), and errors name
the file's real line: the header is line 1, and a quoted cell that spans lines is counted as it is
in the file.

The separator is a comma, or a semicolon when the header line holds ``;`` and no ``,`` (as
spreadsheets write CSV where the comma is the decimal mark). Time columns hold seconds (``7.22``) or
clock times ``[H:]MM:SS[.fff]`` (``00:00:07.220``, ``7:05``); in a semicolon file the decimal mark
may also be a comma (``7,22``, ``00:00:07,220``).
"""

from __future__ import annotations

import csv
import io
import re
from typing import cast

import numpy as np
import pandas as pd

from tvseg.errors import InputError
from tvseg.readers.source import read_text, split_lines
from tvseg.readers.validation import DECIMAL as _DECIMAL
from tvseg.readers.validation import MAX_SECONDS, NO_LABEL, Record, check_records, clock_seconds, parse_time

_FIRST_LINE = re.compile(r"\s*([^\r\n]*)")

__all__ = ["Table", "read_table", "table_kind", "SEGMENT_COLUMNS", "UNIT_COLUMNS", "METADATA_COLUMNS"]

SEGMENT_COLUMNS = ("show", "start", "end", "label")
UNIT_COLUMNS = ("show", "start", "end", "text", "speaker", "topic")
METADATA_COLUMNS = ("show", "channel", "programme", "date")


class Table:
    """The cells of a CSV file as text, with the line number each row starts on."""

    def __init__(self, path, frame: pd.DataFrame, lines: np.ndarray, *, separator: str = ","):
        self.path = path
        self.frame = frame
        self.lines = lines
        self.separator = separator

    @property
    def columns(self) -> list[str]:
        return list(self.frame.columns)


def read_table(path, *, encoding: str | None = None) -> Table:
    """Read a CSV file as text cells, refusing rows whose number of fields differs from the header's.

    Blank lines are skipped. Header names are stripped of surrounding spaces and must be unique
    and non-empty. The file is parsed by pandas; Python's ``csv`` module splits it too, to know
    the line each record starts on, and a record the two parsers read differently (a stray
    quote, say) is refused at its line rather than guessed. ``encoding`` is the file's (default UTF-8).
    """
    text = read_text(path, encoding=encoding)
    first = _FIRST_LINE.match(text)
    assert first is not None  # the pattern matches any text, an empty one too
    header_line = first.group(1)
    separator = ";" if ";" in header_line and "," not in header_line else ","
    starts, rows = _records(text, path, separator)
    if not rows:
        raise InputError("no CSV header", path=path, line=1)
    header, header_line, header_count = rows[0], starts[0], len(rows[0])
    names = [cell.strip() for cell in header]
    if any(not name for name in names):
        raise InputError("empty column name in the header", path=path, line=header_line, value=_line(text, header_line))
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise InputError("duplicate column name in the header", path=path, line=header_line, value=duplicates[0])
    for start, row in zip(starts[1:], rows[1:]):
        if len(row) != header_count:
            raise InputError(
                f"expected {header_count} fields as in the header, found {len(row)}",
                path=path,
                line=start,
                value=_line(text, start),
            )
    if len(rows) == 1:
        raise InputError("no rows after the header", path=path, line=header_line)
    try:
        frame = pd.read_csv(
            io.StringIO(text),
            sep=separator,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=True,
            index_col=False,
            header=0,
        )
    except (pd.errors.ParserError, pd.errors.EmptyDataError, csv.Error) as error:
        raise InputError(f"not a readable CSV file ({str(error).strip()})", path=path) from None
    expected = np.empty((len(rows) - 1, header_count), dtype=object)
    expected[:] = rows[1:]
    if frame.shape != expected.shape:
        raise InputError(
            "CSV parsers disagree on this file's records (check quotes and blank lines)",
            path=path,
            line=_first_difference(frame, expected, starts),
        )
    differs = np.flatnonzero((frame.to_numpy(dtype=object) != expected).any(axis=1))
    if differs.size:
        line = int(starts[differs[0] + 1])
        raise InputError("ambiguous CSV record (check its quotes)", path=path, line=line, value=_line(text, line))
    frame.columns = names
    return Table(path, frame, np.asarray(starts[1:], dtype=int), separator=separator)


def _first_difference(frame: pd.DataFrame, expected: np.ndarray, starts: list[int]) -> int:
    values = frame.to_numpy(dtype=object)
    for i in range(min(len(values), len(expected))):
        if len(values[i]) != len(expected[i]) or list(values[i]) != list(expected[i]):
            return starts[i + 1]
    return starts[min(len(values), len(expected))]


def _records(text: str, path, separator: str) -> tuple[list[int], list[list[str]]]:
    """Split the text into non-blank records with Python's csv module: (start lines, rows)."""
    starts, rows = [], []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True)
    previous = 0
    try:
        for row in reader:
            first = previous + 1
            previous = reader.line_num
            if not row:
                continue
            starts.append(first)
            rows.append(row)
    except csv.Error as error:
        raise InputError(f"malformed CSV ({error})", path=path, line=reader.line_num) from None
    return starts, rows


def _line(text: str, number: int) -> str:
    lines = split_lines(text)
    return lines[number - 1] if 0 < number <= len(lines) else ""


def table_kind(columns: list[str], *, path) -> str:
    """Tell a CSV's kind by its header: ``"segments"``, ``"units"`` or ``"metadata"``.

    - ``label`` among the columns: a segments table (``show,start,end,label``);
    - ``start`` and ``end`` without ``label``: a breath-group (units) table;
    - ``channel``, ``programme`` or ``date`` without times: a metadata table.

    Other columns are refused, so that a misspelt column is not silently ignored.
    """
    present = set(columns)
    allowed: tuple[str, ...]
    if "label" in present:
        kind, allowed = "segments", SEGMENT_COLUMNS
    elif {"start", "end"} & present:
        kind, allowed = "units", UNIT_COLUMNS
    elif {"channel", "programme", "date"} & present:
        kind, allowed = "metadata", METADATA_COLUMNS
    else:
        raise InputError(
            "unknown CSV table: expected the columns show,start,end,label (segments), "
            "show,start,end[,text,speaker,topic] (breath groups) or "
            "show,channel,programme,date (metadata)",
            path=path,
            line=1,
            value=",".join(columns),
        )
    unknown = [c for c in columns if c not in allowed]
    missing = [c for c in allowed[: 3 if kind != "metadata" else 1] if c not in present]
    if unknown:
        raise InputError(
            f"unknown column for a {kind} table (allowed: {','.join(allowed)})", path=path, line=1, value=unknown[0]
        )
    if missing:
        raise InputError(f"missing column for a {kind} table", path=path, line=1, value=missing[0])
    return kind


def _times(table: Table) -> tuple[np.ndarray, np.ndarray]:
    """Parse the start and end columns (vectorised), naming the first bad cell's line.

    Seconds are read in one pass; only cells that are not decimal numbers are tried as clock
    times, so a table in seconds costs what it did before clock times were accepted.
    """
    comma = table.separator == ";"
    columns = {}
    for name in ("start", "end"):
        cells = table.frame[name].str.strip()
        if comma:
            cells = cells.str.replace(",", ".", regex=False)
        numbers = pd.to_numeric(cells, errors="coerce").to_numpy(dtype=float, copy=True)
        decimal = cells.str.fullmatch(_DECIMAL).to_numpy(dtype=bool, copy=True)
        if not decimal.all():
            others = np.flatnonzero(~decimal)
            numbers[others] = clock_seconds(cells.iloc[others])
            decimal[others] = ~np.isnan(numbers[others])
        good = decimal & np.isfinite(numbers) & (numbers >= 0) & (numbers <= MAX_SECONDS)
        if not good.all():
            i = int(np.flatnonzero(~good)[0])
            line = int(table.lines[i])
            parse_time(
                table.frame[name].iloc[i], path=table.path, line=line, field=name, clock=True, decimal_comma=comma
            )
            raise InputError(
                f"{name} is not a time in seconds", path=table.path, line=line, value=table.frame[name].iloc[i]
            )
        columns[name] = numbers
    return columns["start"], columns["end"]


def _shows(table: Table) -> np.ndarray:
    shows = table.frame["show"].str.strip().to_numpy(dtype=object)
    empty = np.flatnonzero(shows == "")
    if empty.size:
        i = int(empty[0])
        raise InputError(
            "show is missing", path=table.path, line=int(table.lines[i]), value=table.frame["show"].iloc[i]
        )
    return shows


def segment_records(table: Table, kind: str) -> dict[str, list[Record]]:
    """Return ``{show: [Record]}`` from a segments table, or from a breath-group table's topics.

    In a breath-group table, rows are sorted by start within each show and checked not to
    overlap; then each run of consecutive rows with the same topic becomes one segment from the
    run's first start to its last end, labelled with the topic. An empty topic is :data:`NO_LABEL`.
    """
    starts, ends = _times(table)
    shows = _shows(table)
    column = "label" if kind == "segments" else "topic"
    if column not in table.columns:
        raise InputError(
            "a breath-group table needs a topic column to be read as segments",
            path=table.path,
            line=1,
            value=",".join(table.columns),
        )
    labels = table.frame[column].str.strip().replace("", NO_LABEL).to_numpy(dtype=object)
    grouped: dict[str, list[Record]] = {}
    for show, start, end, label, line in zip(shows, starts, ends, labels, table.lines):
        grouped.setdefault(show, []).append(Record(float(start), float(end), label, int(line)))
    if kind == "segments":
        return grouped
    return {show: _topic_runs(records, path=table.path) for show, records in grouped.items()}


def _topic_runs(records: list[Record], *, path) -> list[Record]:
    runs: list[Record] = []
    for unit in check_records(records, path=path, what="breath group"):
        if runs and runs[-1].label == unit.label:
            runs[-1] = Record(runs[-1].start, unit.end, unit.label, runs[-1].line)
        else:
            runs.append(unit)
    return runs


def unit_frames(table: Table) -> dict[str, tuple[pd.DataFrame, int, np.ndarray]]:
    """Return ``{show: (DataFrame, line of its first row, line of each row)}`` of a breath-group table,
    rows sorted by start, checked not to overlap."""
    starts, ends = _times(table)
    shows = _shows(table)
    extra = [c for c in ("text", "speaker", "topic") if c in table.columns]
    frame = pd.DataFrame({"show": shows, "start": starts, "end": ends, "line": table.lines})
    for name in extra:
        frame[name] = table.frame[name].str.strip().to_numpy(dtype=object)
    result: dict[str, tuple[pd.DataFrame, int, np.ndarray]] = {}
    for show, rows in frame.groupby("show", sort=False):
        records = [Record(s, e, "", int(n)) for s, e, n in zip(rows["start"], rows["end"], rows["line"])]
        check_records(records, path=table.path, what="breath group")
        ordered = rows.sort_values(["start", "end", "line"], kind="stable")
        result[cast(str, show)] = (  # the show column holds str (see _shows)
            ordered[["start", "end", *extra]].reset_index(drop=True),
            int(rows["line"].min()),
            ordered["line"].to_numpy(dtype=np.int64),
        )
    return result
