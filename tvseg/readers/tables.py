"""CSV tables: segments (``show,start,end,label``), breath groups (``show,start,end[,text,speaker,topic]``)
and show metadata (``show,channel,programme,date``), told apart by their header (:func:`table_kind`).

The separator, the times and the lines errors name: ``formats/segments-csv.md``,
``formats/breath-groups-csv.md``. A table is read column-wise by pandas' C parser. Without quotes, its
records are its lines, found with numpy (:class:`~tvseg.readers.scan.Scan`), and time columns whose cells
are all plain decimals are parsed as numbers at once. With quotes, Python's ``csv`` module splits the
records too, to know the line each starts on, and a record the two parsers read differently (a stray
quote, say) is refused at its line rather than guessed. A small table without quotes, whose times are
plain decimals, is read without pandas (:data:`SMALL`).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from tvseg.errors import InputError
from tvseg.readers.corpus import SCORE, Rows, check_spans
from tvseg.readers.scan import Scan, byte_reader, categories, needs_strip, plain_decimals, regular_records
from tvseg.readers.source import PADDING, lines_of, read_plain_ascii, read_text, split_lines
from tvseg.readers.validation import DECIMAL as _DECIMAL
from tvseg.readers.validation import MAX_SECONDS, NO_LABEL, clock_seconds, parse_time

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Table", "read_table", "table_kind", "table_rows", "SEGMENT_COLUMNS", "UNIT_COLUMNS", "METADATA_COLUMNS"]

SEGMENT_COLUMNS = ("show", "start", "end", "label")
UNIT_COLUMNS = ("show", "start", "end", "text", "speaker", "topic")
METADATA_COLUMNS = ("show", "channel", "programme", "date")
METADATA_OPTIONAL = ("time_origin",)
SEGMENT_OPTIONAL = ("score",)
"""Segments columns read only when present: ``score``, each segment's score (the confidence of the
boundary at its start, :mod:`tvseg.retrieval.confidence`; an empty cell: none)."""
"""Metadata columns read only when present: ``time_origin`` (:mod:`tvseg.readers.time_origin`)."""

_FIRST_LINE = re.compile(r"\s*([^\r\n]*)")
_FIRST_ASCII_LINE = re.compile(rb"[\t\n\x0b\x0c\r\x1c-\x1f ]*([^\r\n]*)")  # \s of str, in ASCII
_TIMES = ("start", "end")
_TEXTS = ("text", "speaker", "topic")
SMALL = 5000
"""A table of at most this many records, each on its line, whose time columns hold only plain decimals,
is read without pandas (:meth:`Table.columns_of`), whose import takes longer than reading it."""


class Table:
    """A CSV file split into records: its column names, the line each record starts on, and its cells
    (:meth:`read`), from pandas' C parser over the lines found by ``scan`` (a :class:`Scan`, or the
    :class:`Regular` records of ``data`` when every line is a record), or the ``frame`` of text cells
    that the ``csv`` module and pandas agree on."""

    def __init__(
        self,
        path,
        names: list[str],
        lines: np.ndarray,
        *,
        separator: str,
        scan=None,
        frame=None,
        data=None,
        regular=None,
    ):
        self.path, self.names, self.lines, self.separator = path, names, lines, separator
        self._scan, self._frame, self._regular = scan, frame, regular
        self._data = scan.data if scan is not None else data

    @property
    def columns(self) -> list[str]:
        return list(self.names)

    @property
    def frame(self) -> pd.DataFrame:
        """Every cell as text."""
        return self.read({name: str for name in self.names})

    @property
    def scan(self) -> Scan:
        """The lines and fields of the text (found when first needed, when the records were found in blocks)."""
        if self._scan is None:
            self._scan = Scan(self._data, self.separator, padded=True)
        return self._scan

    def read(self, dtypes: dict, *, times: tuple[str, ...] = ()) -> pd.DataFrame:
        """The columns named by ``dtypes`` (``str`` or ``"category"``) and ``times``: a time column as
        numbers when all its cells are plain decimals (:func:`~tvseg.readers.scan.plain_decimals`), else as text."""
        if self._data is None:
            return self._frame[[*dtypes, *times]]
        column = {name: k for k, name in enumerate(self.names)}
        wanted = {column[name]: dtype for name, dtype in dtypes.items()}
        for name in times:
            wanted[column[name]] = np.float64 if self._plain(name) else str
        import pandas as pd

        frame = pd.read_csv(
            cast(Any, byte_reader(self._data)),  # a binary file to pandas
            sep=self.separator,
            header=0,
            names=list(range(len(self.names))),
            usecols=sorted(wanted),
            dtype=wanted,
            keep_default_na=False,
            na_filter=False,
            quoting=csv.QUOTE_NONE,
            skip_blank_lines=True,
            engine="c",
        )
        assert len(frame) == len(self.lines)  # whitespace-only lines, which pandas skips, are refused
        return frame.rename(columns={k: name for name, k in column.items()})

    def columns_of(self, dtypes: dict, *, times: tuple[str, ...]) -> Any:
        """The columns of :meth:`read`; for a small table (:data:`SMALL`), read without pandas, each as
        a numpy array: a time column's cells as floats (plain decimals, which pandas reads as ``float``
        does), the others' as text."""
        if self._regular is None or len(self.lines) > SMALL or not all(self._plain(name) for name in times):
            return self.read(dtypes, times=times)
        lines = bytes(self._data).decode("utf-8").split("\n")[1 : len(self.lines) + 1]
        rows = [line.split(self.separator) for line in lines]
        column = {name: k for k, name in enumerate(self.names)}
        cells: dict[str, np.ndarray] = {}
        for name in dtypes:
            cells[name] = np.empty(len(rows), dtype=object)
            cells[name][:] = [row[column[name]] for row in rows]
        for name in times:
            cells[name] = np.array([float(row[column[name]]) for row in rows], dtype=np.float64)
        return cells

    def _plain(self, name: str) -> bool:
        k = self.names.index(name)
        if self._regular is not None and k in self._regular.plain:
            return self._regular.plain[k]
        return bool(plain_decimals(self.scan, *self._field(name))[0].all())

    def cell(self, row: int, name: str) -> str:
        """The cell of ``row`` in column ``name`` as written."""
        if self._data is None:
            return self._frame[name].iloc[row]
        start, end = self._field(name, np.array([row]))
        return bytes(self.scan.buf[int(start[0]) : int(end[0])]).decode("utf-8")

    def _field(self, name: str, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        lines = self.lines - 1 if rows is None else self.lines[rows] - 1
        return self.scan.field(lines, self.names.index(name))

    def stripped(self, frame: pd.DataFrame, name: str) -> np.ndarray:
        """The cells of a text column, stripped (only those that may change, when read by pandas alone)."""
        if self._data is None:
            return frame[name].str.strip().to_numpy(dtype=object)
        values = np.array(frame[name], dtype=object)
        k = self.names.index(name)
        if self._regular is not None and k in self._regular.strip:
            rows = self._regular.strip[k]
        else:
            rows = np.flatnonzero(needs_strip(self.scan, *self._field(name)))
        for i in rows.tolist():
            values[i] = values[i].strip()
        return values


def read_table(path, *, encoding: str | None = None) -> Table:
    """Read a CSV file into records, refusing rows whose number of fields differs from the header's.

    Blank lines are skipped. Header names are stripped of surrounding spaces and must be unique
    and non-empty. ``encoding`` is the file's (default UTF-8).
    """
    data = read_plain_ascii(path, encoding=encoding)  # ASCII without CR or NUL, as its bytes
    if data is not None:
        first = _FIRST_ASCII_LINE.match(data)
        assert first is not None  # the pattern matches any bytes
        separator = _separator(first.group(1).decode("ascii"))
        if data.find(b'"') < 0:
            return _lines_table(path, data, separator)
        return _quoted_table(path, bytes(data[:-PADDING]).decode("ascii"), separator)
    text = read_text(path, encoding=encoding)
    match = _FIRST_LINE.match(text)
    assert match is not None  # the pattern matches any text, an empty one too
    separator = _separator(match.group(1))
    if '"' in text or "\x00" in text:
        return _quoted_table(path, text, separator)
    return _lines_table(path, (lines_of(text) + "\x00" * PADDING).encode("utf-8"), separator)


def _separator(header_line: str) -> str:
    return ";" if ";" in header_line and "," not in header_line else ","


def _lines_table(path, data: bytes | bytearray, separator: str) -> Table:
    """A table without quotes: its records are its lines (``data``: LF line ends, then 16 zero bytes)."""
    table = _regular_table(path, data, separator)
    if table is not None:
        return table
    scan = Scan(data, separator, padded=True)
    records = np.flatnonzero(~scan.blank)
    text = lambda i: bytes(scan.buf[int(scan.line_start[i]) : int(scan.line_end[i])]).decode("utf-8")
    header = int(records[0])
    names = _header(text(header).split(separator), path, header + 1, text(header))
    _check_fields(path, names, scan.count[records[1:]] + 1, records + 1, lambda line: text(line - 1))
    blank = [int(i) for i in records[1:] if not text(int(i)).strip(" \t")] if len(names) == 1 else []
    if blank:  # pandas skips a line of spaces, which the csv module reads as a record
        message = "CSV parsers disagree on this file's records (check quotes and blank lines)"
        raise InputError(message, path=path, line=blank[0] + 1)
    return Table(path, names, records[1:] + 1, separator=separator, scan=scan)


def _regular_table(path, data: bytes | bytearray, separator: str) -> Table | None:
    """The table when its first line is its header and every line after it a record of as many fields,
    found a block of lines at a time (time columns checked to be plain decimals, text columns for cells
    to strip); ``None`` for any other table (blank lines, a wrong number of fields: :func:`_lines_table`
    reads it line by line, and finds its errors)."""
    end = data.find(b"\n")
    if end <= 0:
        return None
    raw = bytes(data[:end]).decode("utf-8")
    names = _header(raw.split(separator), path, 1, raw)
    if len(names) < 2:
        return None  # a line of spaces is a record of one field, which pandas skips
    plain = tuple(k for k, name in enumerate(names) if name in _TIMES)
    strip = tuple(k for k, name in enumerate(names) if name in _TEXTS)
    regular = regular_records(data, separator, end + 1, len(names), plain=plain, strip=strip)
    if regular is None or not regular.records:
        return None
    lines = np.arange(2, regular.records + 2, dtype=np.int64)
    return Table(path, names, lines, separator=separator, data=data, regular=regular)


def _check_fields(path, names: list[str], counts: np.ndarray, lines, raw: Callable[[int], str]) -> None:
    """Refuse the first record whose number of fields (``counts``) is not the header's, and a table without
    records (``lines``: the header's line, then each record's; ``raw(line)``: the line as written)."""
    wrong = np.flatnonzero(counts != len(names))
    if wrong.size:
        line = int(lines[1 + wrong[0]])
        message = f"expected {len(names)} fields as in the header, found {counts[wrong[0]]}"
        raise InputError(message, path=path, line=line, value=raw(line))
    if not len(counts):
        raise InputError("no rows after the header", path=path, line=int(lines[0]))


def _header(cells: list[str], path, line: int, raw: str) -> list[str]:
    names = [cell.strip() for cell in cells]
    if any(not name for name in names):
        raise InputError("empty column name in the header", path=path, line=line, value=raw)
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise InputError("duplicate column name in the header", path=path, line=line, value=duplicates[0])
    return names


def _quoted_table(path, text: str, separator: str) -> Table:
    """A table with quotes: its records split by the ``csv`` module and by pandas, which must agree."""
    starts, rows = _records(text, path, separator)
    if not rows:
        raise InputError("no CSV header", path=path, line=1)
    names = _header(rows[0], path, starts[0], _line(text, starts[0]))
    _check_fields(path, names, np.array([len(row) for row in rows[1:]], dtype=np.int64), starts, partial(_line, text))
    import pandas as pd

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
    expected = np.empty((len(rows) - 1, len(names)), dtype=object)
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
    return Table(path, names, np.asarray(starts[1:], dtype=np.int64), separator=separator, frame=frame)


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

    - ``label`` or ``score`` among the columns: a segments table (``show,start,end,label[,score]``; a
      segment's score is no column of units, so ``show,start,end,score`` is segments without labels);
    - ``start`` and ``end`` without ``label`` and ``score``: a breath-group (units) table;
    - ``channel``, ``programme`` or ``date`` without times: a metadata table.

    Other columns are refused, so that a misspelt column is not silently ignored.
    """
    present = set(columns)
    allowed: tuple[str, ...]
    if "label" in present or "score" in present:
        kind, allowed = "segments", SEGMENT_COLUMNS + SEGMENT_OPTIONAL
    elif {"start", "end"} & present:
        kind, allowed = "units", UNIT_COLUMNS
    elif {"channel", "programme", "date", *METADATA_OPTIONAL} & present:
        kind, allowed = "metadata", METADATA_COLUMNS + METADATA_OPTIONAL
    else:
        raise InputError(
            "unknown CSV table: expected the columns show,start,end,label (segments), "
            "show,start,end[,text,speaker,topic] (breath groups) or "
            "show,channel,programme,date[,time_origin] (metadata); other columns: --columns",
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


def table_rows(table: Table, kind: str, *, units: bool) -> Rows:
    """The rows of a segments or breath-group table: its breath groups (``units``), or its segments (a
    segments table, or the topic runs of a breath-group table: each run of consecutive units of a show
    with one topic is one segment from the run's first start to its last end, labelled with the topic).

    Raises
    ------
    InputError
        A time that is not a non-negative number of seconds or clock time up to
        :data:`~tvseg.readers.validation.MAX_SECONDS` (the start column first), a missing show, a
        breath-group table without a topic column read as segments, breath groups that overlap.
    """
    texts = [name for name in ("label", "text", "speaker", "topic") if name in table.names]
    categorical = {"show", "label"} | (set() if units else {"topic"})
    frame = table.columns_of(
        {name: "category" if name in categorical else str for name in ("show", *texts)}, times=_TIMES
    )
    start, end = (_times(table, frame, name) for name in _TIMES)
    names, show = _codes(table, frame, "show")
    if "" in names:
        i = int(np.flatnonzero(show == names.index(""))[0])
        raise InputError("show is missing", path=table.path, line=int(table.lines[i]), value=table.cell(i, "show"))
    names, show = _in_order_of_appearance(names, show)
    columns = {"start": start, "end": end, "line": table.lines}
    if kind == "segments":
        if "label" in table.names:
            values, codes = _codes(table, frame, "label", empty=NO_LABEL)
            label = np.asarray(values, dtype=object)[codes]
        else:
            label = np.full(len(show), NO_LABEL, dtype=object)
        if "score" in table.names:
            columns[SCORE] = scores(table, table.read({"score": str})["score"], "score")
        return Rows(names, [table.path] * len(names), show, label=label, **columns)
    if not units and "topic" not in table.names:
        raise InputError(
            "a breath-group table needs a topic column to be read as segments",
            path=table.path,
            line=1,
            value=",".join(table.names),
        )
    extra: dict[str, np.ndarray] = {name: table.stripped(frame, name) for name in texts if name in ("text", "speaker")}
    if units:
        if "topic" in texts:
            extra["topic"] = table.stripped(frame, "topic")
        return Rows(names, [table.path] * len(names), show, **columns, **extra)
    values, codes = _codes(table, frame, "topic", empty=NO_LABEL)
    groups = Rows(names, [table.path] * len(names), show, topic=codes, **columns)
    groups, error, _ = check_spans(groups, what="breath group")
    if error is not None:
        raise error
    show, topic = groups.show, groups.texts["topic"]
    first = np.ones(len(show), dtype=bool)
    first[1:] = (show[1:] != show[:-1]) | (topic[1:] != topic[:-1])
    last = np.ones(len(show), dtype=bool)
    last[:-1] = first[1:]
    labels = np.asarray(values, dtype=object)[topic[first]]
    return Rows(
        names,
        groups.files,
        show[first],
        start=groups.start[first],
        end=groups.end[last],
        line=groups.line[first],
        label=labels,
    )


def scores(table: Table, cells: pd.Series, name: str) -> np.ndarray:
    """A score column: finite numbers (a comma as the decimal mark in a ``;`` table), NaN for an empty cell.

    Raises
    ------
    InputError
        A cell that is neither empty nor a finite number, naming its line.
    """
    import pandas as pd

    text = cells.fillna("").astype(str).str.strip()
    if table.separator == ";":
        text = text.str.replace(",", ".", regex=False)
    numbers = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, copy=True)
    empty = (text == "").to_numpy(dtype=bool)
    bad = ~empty & ~(np.isfinite(numbers) & text.str.fullmatch(_DECIMAL).to_numpy(dtype=bool))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{name} is not a number (a segment's score; empty: none)",
            path=table.path,
            line=int(table.lines[i]),
            value=str(cells.iloc[i]),
        )
    return np.where(empty, np.nan, numbers)


def _times(table: Table, frame: pd.DataFrame, name: str) -> np.ndarray:
    """A time column in seconds, naming the first bad cell's line.

    Seconds are read in one pass; only cells that are not decimal numbers are tried as clock times.
    """
    if frame[name].dtype == np.float64:  # plain decimals
        numbers = np.asarray(frame[name], dtype=np.float64)
        good = numbers <= MAX_SECONDS
    else:
        import pandas as pd

        cells = frame[name].str.strip()
        if table.separator == ";":
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
        line, cell = int(table.lines[i]), table.cell(i, name)
        parse_time(cell, path=table.path, line=line, field=name, clock=True, decimal_comma=table.separator == ";")
        raise InputError(f"{name} is not a time in seconds", path=table.path, line=line, value=cell)
    return numbers


def _codes(table: Table, frame: pd.DataFrame, name: str, *, empty: str = "") -> tuple[list[str], np.ndarray]:
    """The distinct stripped values of a column (``empty`` for an empty one), and each row's index among them."""
    column = frame[name]
    if isinstance(column, np.ndarray):  # read without pandas (Table.columns_of)
        codes, values = _first_seen(column)
    elif frame[name].dtype.name == "category":
        values, codes = categories(frame, name, lambda k: table.read({k: str})[k])
    else:
        import pandas as pd

        codes, found = pd.factorize(frame[name].to_numpy(dtype=object))
        values = list(found)
    stripped = np.asarray([value.strip() or empty for value in values], dtype=object)
    distinct, recode = np.unique(stripped, return_inverse=True)
    if len(distinct) == len(stripped) and (distinct == stripped).all():
        return distinct.tolist(), codes  # sorted and distinct as they are
    return distinct.tolist(), np.asarray(recode, dtype=np.int64).reshape(-1)[codes]


def _in_order_of_appearance(names: list[str], codes: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The names that ``codes`` use, in the order they first appear, and the codes renumbered so."""
    runs = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))  # a table is mostly sorted by show
    order = np.asarray(_first_seen(codes[runs])[1], dtype=np.int64)
    if np.array_equal(order, np.arange(len(names))):
        return names, codes
    renumber = np.empty(len(names), dtype=np.int64)
    renumber[order] = np.arange(len(order))
    return [names[k] for k in order.tolist()], renumber[codes]


def _first_seen(values: np.ndarray) -> tuple[np.ndarray, list[Any]]:
    """``pandas.factorize(values)``: each value's index among the distinct values, these in order of
    appearance (by a dict up to :data:`SMALL` values, not to import pandas)."""
    if len(values) > SMALL:
        import pandas as pd

        codes, distinct = pd.factorize(values)
        return codes.astype(np.int64), list(distinct)
    index: dict[Any, int] = {}
    found = [index.setdefault(value, len(index)) for value in values.tolist()]
    return np.array(found, dtype=np.int64), list(index)
