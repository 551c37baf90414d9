"""CSV tables of segments and breath groups read column-wise, parsed once by pandas' C parser.

A table is read here when it is regular: no ``"`` and no NUL anywhere, a comma-separated header
with unique non-empty names, the header's number of fields on every other non-blank line, and time
cells that are plain decimals (digits and at most one point, at most 15 characters) up to
:data:`~tvseg.readers.validation.MAX_SECONDS`. Every other table (quotes, clock times, a decimal
comma, a ``;`` separator, a bad field count...) is left to the careful reader
(:func:`~tvseg.readers.tables.read_table`), which gives the message of any error. Each record's line
is found from the positions of the line ends (the header is the first non-blank line).
"""

from __future__ import annotations

import csv

import numpy as np
import pandas as pd

from tvseg.columns_base import sort_rows
from tvseg.readers.fast_rttm import lines_of
from tvseg.readers.scan import Piece, Scan, categories, needs_strip, plain_decimals, spans_are_valid
from tvseg.readers.tables import table_kind
from tvseg.readers.validation import MAX_SECONDS, NO_LABEL

__all__ = ["header_of", "csv_piece"]


def header_of(text: str) -> list[str] | None:
    """The stripped column names of a regular table (``None``: not regular, or not comma-separated)."""
    if '"' in text or "\x00" in text:
        return None
    text = lines_of(text)
    line = text.lstrip("\n")
    line = line[: line.index("\n")]
    if not line.strip() or (";" in line and "," not in line):
        return None
    names = [cell.strip() for cell in line.split(",")]
    if any(not name for name in names) or len(set(names)) != len(names):
        return None
    return names


def _first_line(data: bytearray) -> str:
    """The ASCII text up to the end of the first non-blank line of ``data``."""
    start = 0
    while start < len(data) and data[start] == 10:
        start += 1
    end = data.find(b"\n", start)
    return data[: len(data) if end < 0 else end + 1].decode("ascii")


def csv_piece(file, text: str | bytearray, *, units: bool) -> Piece | None:
    """The rows of a regular table: its breath groups (``units``) or its segments (a segments table, or
    the topic runs of a breath-group table); ``None`` when the careful reader must read it.

    ``text`` is the file's text (:func:`~tvseg.readers.source.read_text`), or its bytes, line ends and
    padding as :func:`~tvseg.readers.source.read_plain_ascii` returns them when they are plain ASCII.

    Raises
    ------
    InputError
        The header's errors (:func:`~tvseg.readers.tables.table_kind`), as the careful reader raises them.
    """
    data: bytes | bytearray
    if isinstance(text, bytearray):
        names = None if text.find(b'"') >= 0 else header_of(_first_line(text))
        data = text
    else:
        names = header_of(text)
        data = (lines_of(text) + "\0" * 16).encode("utf-8")
    del text
    if names is None:
        return None
    kind = table_kind(names, path=file)
    if (kind != "units") if units else (kind == "metadata" or (kind == "units" and "topic" not in names)):
        return None
    scan = Scan(data, ",", padded=True)
    del data
    lines = np.flatnonzero(~scan.blank)[1:]
    if not len(lines) or np.any(scan.count[lines] != len(names) - 1):
        return None
    column = {name: k for k, name in enumerate(names)}
    for name in ("start", "end"):
        if not plain_decimals(scan, *scan.field(lines, column[name]))[0].all():
            return None
    texts = [name for name in ("text", "speaker", "topic", "label") if name in column]
    categorical = {"show", "label"} | ({"topic"} if not units else set())
    dtype = {
        column["start"]: np.float64,
        column["end"]: np.float64,
        **{column[name]: ("category" if name in categorical else str) for name in ("show", *texts)},
    }

    def read(columns):
        return pd.read_csv(
            scan.reader(),
            sep=",",
            header=0,
            names=list(range(len(names))),
            usecols=sorted(columns),
            dtype=columns,
            keep_default_na=False,
            na_filter=False,
            quoting=csv.QUOTE_NONE,
            skip_blank_lines=True,
            engine="c",
        )

    try:
        frame = read(dtype)
    except (ValueError, pd.errors.ParserError):
        return None
    reread = lambda k: read({k: str})[k]
    if len(frame) != len(lines):
        return None
    start = frame[column["start"]].to_numpy(dtype=np.float64)
    end = frame[column["end"]].to_numpy(dtype=np.float64)
    if not (np.all(start <= MAX_SECONDS) and np.all(end <= MAX_SECONDS)):
        return None
    shows, show_codes = _categories(frame, column["show"], reread)
    if any(not show for show in shows):
        return None  # "show is missing"
    line = (lines + 1).astype(np.int64)
    columns = {"start": start, "end": end, "line": line}
    for name in texts:
        if name in categorical:
            values, codes = _categories(frame, column[name], reread, empty=NO_LABEL)
            columns[name] = np.asarray(values, dtype=object)[codes]
            columns[name + " codes"] = codes
        else:
            columns[name] = _stripped(frame[column[name]], scan, *scan.field(lines, column[name]))
    if units or kind == "segments":
        columns.pop("label codes", None)
        return Piece(
            shows,
            [file] * len(shows),
            show_codes,
            **{k: v for k, v in columns.items() if k in ("start", "end", "line", "label", *texts)},
        )
    return _topic_runs(file, shows, show_codes, columns)


def _categories(frame, column, reread, *, empty: str = "") -> tuple[list[str], np.ndarray]:
    """The distinct stripped values of a categorical column (``empty`` for an empty one), and each row's
    index among them."""
    values, codes = categories(frame, column, reread)
    stripped = np.asarray([value.strip() or empty for value in values], dtype=object)
    distinct, recode = np.unique(stripped, return_inverse=True)
    return distinct.tolist(), np.asarray(recode, dtype=np.int64).reshape(-1)[codes]


def _stripped(series: pd.Series, scan: Scan, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The cells of a text column stripped, as the careful reader does (only those that may change)."""
    values = series.to_numpy(dtype=object, copy=True)
    for i in np.flatnonzero(needs_strip(scan, start, end)).tolist():
        values[i] = values[i].strip()
    return values


def _topic_runs(file, shows, show_codes, columns) -> Piece | None:
    """The segments of a breath-group table: each run of consecutive units of a show with one topic."""
    start, end, line = columns["start"], columns["end"], columns["line"]
    names, offsets, order, rank = sort_rows(show_codes, shows, start, end, line)
    order = np.arange(len(start)) if order is None else order
    codes, topics = rank[show_codes][order], columns["topic codes"][order]
    if not spans_are_valid(codes, start[order], end[order]):
        return None
    first = np.ones(len(order), dtype=bool)
    first[1:] = (codes[1:] != codes[:-1]) | (topics[1:] != topics[:-1])
    last = np.ones(len(order), dtype=bool)
    last[:-1] = first[1:]
    begins = order[first]
    return Piece(
        names,
        [file] * len(names),
        codes[first],
        start=start[begins],
        end=end[order[last]],
        label=columns["topic"][begins],
        line=line[begins],
    )
