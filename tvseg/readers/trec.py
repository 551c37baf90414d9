"""TREC-style relevance judgements and runs of segment search (MediaEval Search and Hyperlinking, ``sh_eval``).

A **qrels** file holds one judged segment a line, ``QUERY Q0 VIDEO START END RELEVANCE`` (relevance an integer:
above 0 relevant, else judged not relevant); a **run** one returned segment a line, ``QUERY Q0 VIDEO START END
RANK SCORE RUN`` (linking runs) or ``QUERY Q0 VIDEO START END JUMP_IN RANK SCORE RUN`` (search runs: the
jump-in point is read and not scored, as ``sh_eval`` does; the run's name may be left out). The second field is not read. Either
file may be gzip-compressed (read whatever its name). Fields are separated by any whitespace; blank lines are
skipped (``sh_eval`` fails on them).

Times are ``sh_eval``'s **minutes.seconds** by default: ``12.05`` is 12 minutes and 5 seconds, 725 s (its
``ToSec``; the seconds part is read as a whole number, so ``12.5`` is 725 s too, and up to 60, as its
``isTime`` accepts). With ``times="seconds"`` they are plain decimal seconds (``725.5``). A time is kept as a
whole number of ticks: seconds in minutes.seconds, milliseconds in plain seconds (a finer time is refused, and
one of 2**53 ticks or more).

A file is read into flat arrays, one entry a line (:class:`Qrels`, :class:`Run`): each distinct text of a
column (a query, a video, a time, a rank) is read once; when a line is wrong, a second pass over the lines
names the first wrong one.
"""

from __future__ import annotations

import gzip
import operator
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NoReturn

import numpy as np

from tvseg.errors import InputError, UsageError

__all__ = ["TICKS", "Qrels", "Run", "read_qrels", "read_run"]

TICKS = {"minutes": 1, "seconds": 1000}
"""Ticks per second of each time format."""

_MINUTES = re.compile(r"(\d+)\.(\d+)")
_SECONDS = re.compile(r"(\d+)(?:\.(\d{1,3}))?")
_LARGEST = 2**53


@dataclass(frozen=True)
class Qrels:
    """The lines of a qrels file as flat arrays, one entry a line in the file's order: ``query`` and ``video``
    index ``query_names`` and ``video_names``; ``start`` and ``end`` in ticks; ``relevance``; ``line``, the line's
    number in the file."""

    query_names: tuple[str, ...]
    video_names: tuple[str, ...]
    query: np.ndarray
    video: np.ndarray
    start: np.ndarray
    end: np.ndarray
    relevance: np.ndarray
    line: np.ndarray

    @classmethod
    def of(cls, rows: Iterable[tuple[str, str, int, int, int]]) -> Qrels:
        """From rows ``(query, video, start, end, relevance)`` (times in ticks), numbered 1, 2, ..."""
        head, relevance, numbers = _from_rows(rows)
        return cls(*head, relevance, numbers)


@dataclass(frozen=True)
class Run:
    """The lines of a run as flat arrays, one entry a line in the file's order: ``query`` and ``video`` index
    ``query_names`` and ``video_names``; ``start`` and ``end`` in ticks; ``rank``; ``score``; ``line``, the
    line's number in the file."""

    query_names: tuple[str, ...]
    video_names: tuple[str, ...]
    query: np.ndarray
    video: np.ndarray
    start: np.ndarray
    end: np.ndarray
    rank: np.ndarray
    score: np.ndarray
    line: np.ndarray

    @classmethod
    def of(cls, rows: Iterable[tuple[str, str, int, int, int]]) -> Run:
        """From rows ``(query, video, start, end, rank)`` (times in ticks; scores 0), numbered 1, 2, ..."""
        head, rank, numbers = _from_rows(rows)
        return cls(*head, rank, np.zeros(len(rank)), numbers)


_Head = tuple[tuple[str, ...], tuple[str, ...], np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _from_rows(rows: Iterable[tuple[str, str, int, int, int]]) -> tuple[_Head, np.ndarray, np.ndarray]:
    """``((query_names, video_names, query, video, start, end), last column, line numbers)`` of rows
    ``(query, video, start, end, last)``: what :meth:`Qrels.of` and :meth:`Run.of` share."""
    query, video, start, end, last = _transposed(rows, 5)
    (query_names, query_codes), (video_names, video_codes) = _codes(query), _codes(video)
    head: _Head = (
        query_names,
        video_names,
        query_codes,
        video_codes,
        np.array(start, dtype=np.int64),
        np.array(end, dtype=np.int64),
    )
    return head, np.array(last, dtype=np.int64), np.arange(1, len(query) + 1)


def _transposed(rows: Iterable[tuple], width: int) -> list[tuple]:
    columns = list(zip(*rows))
    return columns if columns else [()] * width


def _codes(column: Sequence[str]) -> tuple[tuple[str, ...], np.ndarray]:
    """The distinct texts of ``column`` in order of first appearance, and each entry's index among them."""
    names = tuple(dict.fromkeys(column))
    index = {name: k for k, name in enumerate(names)}
    return names, np.fromiter(map(index.__getitem__, column), dtype=np.int64, count=len(column))


def _read(column: Sequence[str], parse: Callable[[str], int | float], dtype) -> np.ndarray:
    """``parse`` of each entry of ``column``, each distinct text parsed once (raises what ``parse`` raises)."""
    names, codes = _codes(column)
    return np.array([parse(name) for name in names], dtype=dtype)[codes]


@dataclass(frozen=True)
class _Fields:
    """The whitespace-separated fields of a file's non-blank lines: ``tokens`` all of them in order, and per
    line its number, its count of fields and the index of its first field."""

    numbers: np.ndarray
    counts: np.ndarray
    first: np.ndarray
    tokens: list[str]

    def column(self, k: int) -> tuple[str, ...]:
        """The ``k``-th field of every line (each line has more than ``k`` fields)."""
        if len(self.counts) and self.counts.min() == self.counts.max():
            return tuple(self.tokens[k :: int(self.counts[0])])
        at = (self.first + k).tolist()
        return (self.tokens[at[0]],) if len(at) == 1 else operator.itemgetter(*at)(self.tokens)

    def lines(self) -> Iterator[tuple[int, list[str]]]:
        for number, count, first in zip(self.numbers.tolist(), self.counts.tolist(), self.first.tolist()):
            yield number, self.tokens[first : first + count]


_SPACE = np.zeros(256, dtype=bool)
_SPACE[list(b" \t\r\n")] = True
_UNUSUAL = np.ones(256, dtype=bool)  # bytes after which str.split and str.splitlines need reading as text
_UNUSUAL[list(range(0x20, 0x7F)) + list(b" \t\r\n")] = False


def _fields(path: str | os.PathLike) -> _Fields:
    """The fields of the non-blank lines of ``path`` (gzip-compressed or not, UTF-8), as ``str.split`` of each
    line of ``str.splitlines`` gives them: counted over the bytes when they are plain ASCII."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise InputError(f"cannot be read ({error.strerror})", path=path) from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise InputError(f"a damaged gzip file ({error})", path=path) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError("not UTF-8 text", path=path, line=line, value=data[error.start : error.end]) from None
    body = np.frombuffer(data[len(data) - len(text) :], dtype=np.uint8) if text.isascii() else None
    if body is not None and not _UNUSUAL[body].any() and text.count("\r") == text.count("\r\n"):
        space = _SPACE[body]
        starts = ~space & np.concatenate(([True], space[:-1]))
        breaks = np.flatnonzero(body == ord("\n"))
        per_line = np.bincount(np.searchsorted(breaks, np.flatnonzero(starts)), minlength=len(breaks) + 1)
        tokens = text.split()
    else:
        rows = [line.split() for line in text.splitlines()]
        per_line = np.array([len(fields) for fields in rows], dtype=np.int64)
        tokens = [field for fields in rows for field in fields]
    numbers = np.flatnonzero(per_line) + 1
    counts = per_line[numbers - 1]
    return _Fields(numbers, counts, np.cumsum(counts) - counts, tokens)


def _parse_time(text: str, times: str, path, line: int, what: str) -> int:
    if times == "minutes":
        match = _MINUTES.fullmatch(text)
        if match is None or int(match[2]) > 60:
            raise InputError(
                f"{what} is not a time in minutes.seconds (seconds 0 to 60), as sh_eval writes it "
                "(12.05 is 725 s; --times seconds reads plain seconds)",
                path=path,
                line=line,
                value=text,
            )
        ticks = int(match[1]) * 60 + int(match[2])
    else:
        match = _SECONDS.fullmatch(text)
        if match is None:
            raise InputError(
                f"{what} is not a number of seconds with at most 3 decimals", path=path, line=line, value=text
            )
        ticks = int(match[1]) * 1000 + int((match[2] or "").ljust(3, "0"))
    if ticks >= _LARGEST:
        raise InputError(f"{what} is too large a time (2**53 ticks or more)", path=path, line=line, value=text)
    return ticks


def _integer(text: str) -> int:
    """``int(text)``, refused (ValueError) outside 64-bit integers."""
    value = int(text)
    if not -(2**63) <= value < 2**63:
        raise ValueError(text)
    return value


def _check_times(times: str) -> None:
    if times not in TICKS:
        raise UsageError(f"times must be one of {', '.join(TICKS)}, got {times!r}")


def _first_wrong_line(path, fields: _Fields, check: Callable) -> NoReturn:
    """Raise the error of the first line that ``check(fields, line)`` refuses."""
    for line, row in fields.lines():
        check(row, line)
    raise AssertionError(f"{path}: a line was refused as a column and accepted alone")


def read_qrels(path: str | os.PathLike, *, times: str = "minutes") -> Qrels:
    """The judgements of a qrels file (:class:`Qrels`, one entry a line, in the file's order).

    Raises
    ------
    InputError
        A line without 6 fields, a time that is not one, a relevance that is not an integer: naming the
        file, the line and the value.
    """
    _check_times(times)
    table = _fields(path)
    if not len(table.numbers):
        raise InputError("no judgement (the file is empty)", path=path)

    def check(fields: list[str], line: int) -> None:
        if len(fields) != 6:
            raise InputError(
                f"{len(fields)} fields where a qrels line has 6: QUERY Q0 VIDEO START END RELEVANCE",
                path=path,
                line=line,
                value=" ".join(fields),
            )
        try:
            _integer(fields[5])
        except ValueError:
            raise InputError("relevance is not an integer", path=path, line=line, value=fields[5]) from None
        _parse_time(fields[3], times, path, line, "start")
        _parse_time(fields[4], times, path, line, "end")

    if (table.counts != 6).any():
        _first_wrong_line(path, table, check)
    query, video, start, end, relevance = (table.column(k) for k in (0, 2, 3, 4, 5))
    try:
        relevances = _read(relevance, _integer, np.int64)
        ticks = _read(start + end, lambda text: _parse_time(text, times, path, 0, ""), np.int64)
    except (ValueError, InputError):
        _first_wrong_line(path, table, check)
    (query_names, query_codes), (video_names, video_codes) = _codes(query), _codes(video)
    n = len(query)
    return Qrels(query_names, video_names, query_codes, video_codes, ticks[:n], ticks[n:], relevances, table.numbers)


def read_run(path: str | os.PathLike, *, times: str = "minutes", kind: str = "linking") -> Run:
    """The segments a run returned (:class:`Run`, one entry a line, in the file's order).

    ``kind`` is ``sh_eval``'s ``--kind``: ``"linking"``, lines ``QUERY Q0 VIDEO START END RANK SCORE [RUN]``,
    or ``"search"``, lines ``QUERY Q0 VIDEO START END JUMP_IN RANK SCORE [RUN]`` (the jump-in point read and
    checked, not scored); the run's name is optional, as ``sh_eval`` does not read it.

    Raises
    ------
    InputError
        A line of another number of fields, a time that is not one, a rank that is not an integer, a score
        that is not a number: naming the file, the line and the value.
    """
    _check_times(times)
    if kind not in ("linking", "search"):
        raise UsageError(f"kind must be 'linking' or 'search', got {kind!r}")
    rank_at = 5 if kind == "linking" else 6
    table = _fields(path)
    if not len(table.numbers):
        raise InputError("no returned segment (the file is empty)", path=path)

    def check(fields: list[str], line: int) -> None:
        if len(fields) not in (rank_at + 2, rank_at + 3):
            layout = "QUERY Q0 VIDEO START END " + ("" if kind == "linking" else "JUMP_IN ") + "RANK SCORE [RUN]"
            raise InputError(
                f"{len(fields)} fields where a {kind} run's line has {rank_at + 3}: {layout}"
                + (" (a search run's lines have a jump-in point: --kind search)" if kind == "linking" else ""),
                path=path,
                line=line,
                value=" ".join(fields),
            )
        try:
            _integer(fields[rank_at])
        except ValueError:
            raise InputError("rank is not an integer", path=path, line=line, value=fields[rank_at]) from None
        try:
            float(fields[rank_at + 1])
        except ValueError:
            raise InputError("score is not a number", path=path, line=line, value=fields[rank_at + 1]) from None
        _parse_time(fields[3], times, path, line, "start")
        _parse_time(fields[4], times, path, line, "end")
        if kind == "search":
            _parse_time(fields[5], times, path, line, "jump-in point")

    if ((table.counts < rank_at + 2) | (table.counts > rank_at + 3)).any():
        _first_wrong_line(path, table, check)
    query, video, start, end = (table.column(k) for k in (0, 2, 3, 4))
    try:
        ranks = _read(table.column(rank_at), _integer, np.int64)
        scores = _read(table.column(rank_at + 1), float, np.float64)
        texts = start + end + (table.column(5) if kind == "search" else ())
        ticks = _read(texts, lambda text: _parse_time(text, times, path, 0, ""), np.int64)
    except (ValueError, InputError):
        _first_wrong_line(path, table, check)
    (query_names, query_codes), (video_names, video_codes) = _codes(query), _codes(video)
    n = len(query)
    return Run(
        query_names,
        video_names,
        query_codes,
        video_codes,
        ticks[:n],
        ticks[n : 2 * n],
        ranks,
        scores,
        table.numbers,
    )
