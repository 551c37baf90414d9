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
whole number of ticks: seconds in minutes.seconds, milliseconds in plain seconds (a finer time is refused).
"""

from __future__ import annotations

import gzip
import os
import re
from typing import NamedTuple

from tvseg.errors import InputError, UsageError

__all__ = ["TICKS", "Judgement", "Returned", "read_qrels", "read_run"]

TICKS = {"minutes": 1, "seconds": 1000}
"""Ticks per second of each time format."""

_MINUTES = re.compile(r"(\d+)\.(\d+)")
_SECONDS = re.compile(r"(\d+)(?:\.(\d{1,3}))?")


class Judgement(NamedTuple):
    """One line of a qrels file: a judged segment of ``video`` (times in ticks) and its relevance."""

    video: str
    start: int
    end: int
    relevance: int
    line: int


class Returned(NamedTuple):
    """One line of a run: a segment of ``video`` returned at ``rank`` (times in ticks)."""

    video: str
    start: int
    end: int
    rank: int
    score: float
    line: int


def _lines(path: str | os.PathLike) -> list[tuple[int, list[str]]]:
    """``(line number, fields)`` of each non-blank line of ``path`` (gzip-compressed or not, UTF-8)."""
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
    return [(k, fields) for k, line in enumerate(text.splitlines(), 1) if (fields := line.split())]


def _time(text: str, times: str, path, line: int, what: str, known: dict[str, int]) -> int:
    """``text`` in ticks; ``known`` holds the texts read before (a file repeats its times)."""
    ticks = known.get(text)
    if ticks is None:
        ticks = known[text] = _parse_time(text, times, path, line, what)
    return ticks


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
        return int(match[1]) * 60 + int(match[2])
    match = _SECONDS.fullmatch(text)
    if match is None:
        raise InputError(f"{what} is not a number of seconds with at most 3 decimals", path=path, line=line, value=text)
    return int(match[1]) * 1000 + int((match[2] or "").ljust(3, "0"))


def _check_times(times: str) -> None:
    if times not in TICKS:
        raise UsageError(f"times must be one of {', '.join(TICKS)}, got {times!r}")


def read_qrels(path: str | os.PathLike, *, times: str = "minutes") -> dict[str, list[Judgement]]:
    """The judgements of each query of a qrels file, in the file's order.

    Raises
    ------
    InputError
        A line without 6 fields, a time that is not one, a relevance that is not an integer: naming the
        file, the line and the value.
    """
    _check_times(times)
    out: dict[str, list[Judgement]] = {}
    known: dict[str, int] = {}
    for line, fields in _lines(path):
        if len(fields) != 6:
            raise InputError(
                f"{len(fields)} fields where a qrels line has 6: QUERY Q0 VIDEO START END RELEVANCE",
                path=path,
                line=line,
                value=" ".join(fields),
            )
        try:
            relevance = int(fields[5])
        except ValueError:
            raise InputError("relevance is not an integer", path=path, line=line, value=fields[5]) from None
        start = _time(fields[3], times, path, line, "start", known)
        end = _time(fields[4], times, path, line, "end", known)
        out.setdefault(fields[0], []).append(Judgement(fields[2], start, end, relevance, line))
    if not out:
        raise InputError("no judgement (the file is empty)", path=path)
    return out


def read_run(path: str | os.PathLike, *, times: str = "minutes", kind: str = "linking") -> dict[str, list[Returned]]:
    """The segments each query of a run returned, in the file's order.

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
    out: dict[str, list[Returned]] = {}
    known: dict[str, int] = {}
    for line, fields in _lines(path):
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
            rank = int(fields[rank_at])
        except ValueError:
            raise InputError("rank is not an integer", path=path, line=line, value=fields[rank_at]) from None
        try:
            score = float(fields[rank_at + 1])
        except ValueError:
            raise InputError("score is not a number", path=path, line=line, value=fields[rank_at + 1]) from None
        start = _time(fields[3], times, path, line, "start", known)
        end = _time(fields[4], times, path, line, "end", known)
        if kind == "search":
            _time(fields[5], times, path, line, "jump-in point", known)
        out.setdefault(fields[0], []).append(Returned(fields[2], start, end, rank, score, line))
    if not out:
        raise InputError("no returned segment (the file is empty)", path=path)
    return out
