"""From the rows the format readers find to the columns: the checks every segmentation and every unit
table passes, and the one loop over the files of a corpus.

A format reader gives its file's (or files') :class:`Rows`: each row belongs to a show of a file (a show
held by two files is two shows here). :func:`check_spans` sorts them and finds the first show whose spans
break the policy (one that lasts no longer than pyannote.core's precision, two that overlap: "one show
in one file" is the scope of the overlap check). :func:`read_files` reads the files of a corpus in order
and raises the first error in that order: within a file, an error of the format first, then its spans,
then a show that an earlier file already held. :func:`join` makes the checked rows one
:class:`~tvseg.columns.SegmentColumns` or :class:`~tvseg.columns.UnitColumns`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from tvseg.columns import UNIT_TEXT_COLUMNS, SegmentColumns, UnitColumns
from tvseg.errors import InputError
from tvseg.progress import iterate
from tvseg.pyannote_objects import SEGMENT_PRECISION
from tvseg.readers.validation import MAX_SECONDS, too_large

if TYPE_CHECKING:
    from tvseg.readers.timecodes import TimeCodes

__all__ = ["Rows", "check_spans", "read_files", "join", "sort_rows", "SCORE", "END_SCORE"]

SCORE = "score"
"""The key of the rows' scores among :attr:`Rows.texts` (a float array, NaN where a row has none): the
confidence of the boundary at each segment's start (:mod:`tvseg.retrieval.confidence`)."""
END_SCORE = "end_score"
"""The key of the scores of the boundaries at the rows' ends among :attr:`Rows.texts`
(:attr:`tvseg.columns.SegmentColumns.end_score`): given by the crop to a UEM, whose rows are joined alone."""


class Rows:
    """The rows read from some files, before they are columns.

    Parameters
    ----------
    names : sequence of str
        The show of each (file, show) pair, in reading order: the files in order, a file's shows in the
        order they first appear in it.
    files : sequence of path
        The file of each pair.
    show : array of int
        The pair of each row (an index into ``names``).
    start, end, line : arrays
        Each row's times in seconds and the line it was read from.
    texts
        ``label`` (segments), or some of ``text, speaker, topic`` (units): object arrays, one per row.

    Attributes
    ----------
    overlaps : bool
        Whether the rows of a show may overlap (ActivityNet-style predictions); :func:`check_spans` then
        refuses only empty rows. False by default.
    time_codes : TimeCodes or None
        How the file counts its frame time codes, when its times are not clock times
        (:class:`~tvseg.readers.timecodes.TimeCodes`: a time origin is then read as a time code).
    """

    overlaps = False
    time_codes: TimeCodes | None = None

    def __init__(
        self,
        names: Sequence[str],
        files: Sequence[Any],
        show: ArrayLike,
        *,
        start: ArrayLike,
        end: ArrayLike,
        line: ArrayLike,
        **texts: NDArray[Any],
    ) -> None:
        self.names, self.files = list(names), list(files)
        self.show = np.asarray(show, dtype=np.int64)
        self.start = np.asarray(start, dtype=np.float64)
        self.end = np.asarray(end, dtype=np.float64)
        self.line = np.asarray(line, dtype=np.int64)
        self.texts = texts

    @classmethod
    def of_file(cls, file, shows: dict[str, list[tuple[float, float, str, int]]], key: str = "label") -> Rows:
        """The rows of one file from ``{show: [(start, end, text, line), ...]}`` (shows in reading order)."""
        rows = [row for records in shows.values() for row in records]
        texts = np.empty(len(rows), dtype=object)
        texts[:] = [row[2] for row in rows]
        return cls(
            list(shows),
            [file] * len(shows),
            np.repeat(np.arange(len(shows)), [len(records) for records in shows.values()]),
            start=[row[0] for row in rows],
            end=[row[1] for row in rows],
            line=[row[3] for row in rows],
            **{key: texts},
        )

    def replaced(self, **arrays: ArrayLike) -> Rows:
        """These rows with some of their arrays (``show``, ``start``, ``end``, ``line``, texts) replaced."""
        fields = {**self._arrays(), **arrays}
        rows = Rows(self.names, self.files, fields.pop("show"), **fields)  # type: ignore[arg-type]
        rows.overlaps, rows.time_codes = self.overlaps, self.time_codes
        return rows

    def take(self, rows: NDArray[np.intp] | None) -> Rows:
        """These rows (``None``: all) of every show."""
        return self if rows is None else self.replaced(**{key: v[rows] for key, v in self._arrays().items()})

    def _arrays(self) -> dict[str, Any]:
        return {"show": self.show, "start": self.start, "end": self.end, "line": self.line, **self.texts}

    def first_lines(self) -> NDArray[np.int64]:
        """The line of each show's first row (-1 for a show without rows)."""
        if len(self.show) <= SMALL_ROWS:  # a file of a text corpus: a loop costs less than numpy's calls
            found: list[int | None] = [None] * len(self.names)
            for show, line in zip(self.show.tolist(), self.line.tolist()):
                first = found[show]
                if first is None or line < first:
                    found[show] = line
            return np.array([-1 if first is None else first for first in found], dtype=np.int64)
        first = np.full(len(self.names), np.iinfo(np.int64).max)
        np.minimum.at(first, self.show, self.line)
        return np.where(first == np.iinfo(np.int64).max, -1, first)


def sort_rows(
    codes: ArrayLike, names: Sequence[str], start: ArrayLike, end: ArrayLike, line: ArrayLike
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.intp] | None]:
    """Sort rows by (show id, show, start, end, line).

    Returns ``(rank, offsets, order)``: each show's index among the shows sorted by (id, index), the
    offsets of their rows in that order, and the order of the rows (``None`` when they already are).
    """
    given = np.empty(len(names), dtype=object)
    given[:] = list(names)
    by_name = np.argsort(given, kind="stable")
    rank = np.empty(len(given), dtype=np.int64)
    rank[by_name] = np.arange(len(given))
    code = rank[np.asarray(codes, dtype=np.int64)]
    keys = [np.asarray(key) for key in (line, end, start)]
    order = None if _is_sorted([code, *keys[::-1]]) else np.lexsort((*keys, code))
    offsets = np.concatenate(([0], np.cumsum(np.bincount(code, minlength=len(given))))).astype(np.int64)
    return rank, offsets, order


def _is_sorted(keys: Sequence[NDArray[Any]]) -> bool:
    """Whether the rows are in increasing order of the keys (the first one first)."""
    if len(keys[0]) < 2:
        return True
    after, tied = np.zeros(len(keys[0]) - 1, dtype=bool), np.ones(len(keys[0]) - 1, dtype=bool)
    for key in keys:
        after |= tied & (key[1:] > key[:-1])
        tied &= key[1:] == key[:-1]
        if not tied.any():
            break
    return bool(after.all())


SMALL_ROWS = 64
"""Rows up to which :func:`check_spans` and :meth:`Rows.first_lines` first try a loop over Python numbers (a
file of a text corpus holds a few dozen rows: each numpy call costs more than the loop)."""


def _in_order_and_sound(rows: Rows) -> bool:
    """Whether the rows (at most :data:`SMALL_ROWS`) are sorted as :func:`check_spans` sorts them and none
    breaks its policy: then they are its result as they are; else (False) its numpy path decides."""
    names = rows.names
    rank = [0] * len(names)
    for position, k in enumerate(sorted(range(len(names)), key=names.__getitem__)):  # (a stable sort, as numpy's)
        rank[k] = position
    show, start, end, line = rows.show.tolist(), rows.start.tolist(), rows.end.tolist(), rows.line.tolist()
    keys = [(rank[k], s, e, n) for k, s, e, n in zip(show, start, end, line)]
    if not all(a < b for a, b in zip(keys, keys[1:])):
        return False
    if not all(s >= 0 and e <= MAX_SECONDS and e - s > SEGMENT_PRECISION for s, e in zip(start, end)):
        return False
    return rows.overlaps or not any(k == j and s < e for k, j, s, e in zip(show[1:], show, start[1:], end))


def check_spans(rows: Rows, *, what: str = "segment") -> tuple[Rows, InputError | None, int]:
    """The rows sorted by (show id, show, start, end, line), and the first error of their spans.

    A show's error is its first row (in the file) with a time outside tvseg's time range, ``[0,
    MAX_SECONDS]`` (the readers refuse such a time as they read it; this check is for those whose times
    come from a library), else its first row that lasts no longer than pyannote.core's precision
    (``"{what} with zero duration"``, ``"{what} with end before start"``), else the first row that starts
    before the end of the one before it once sorted (``"{what}s overlap (lines A and B)"``); the error
    returned is that of the first show in reading order (with its index; -1 without one).
    """
    if len(rows.show) <= SMALL_ROWS and _in_order_and_sound(rows):
        return rows, None, -1
    rank, _, order = sort_rows(rows.show, rows.names, rows.start, rows.end, rows.line)
    rows = rows.take(order)
    show, start, end, line = rows.show, rows.start, rows.end, rows.line
    outside = ~((start >= 0) & (end <= MAX_SECONDS))
    empty = ~((end - start) > SEGMENT_PRECISION)
    clash = np.zeros(len(show), dtype=bool)
    if not rows.overlaps:
        clash[1:] = (show[1:] == show[:-1]) & (start[1:] < end[:-1])
    if not (outside.any() or empty.any() or clash.any()):
        return rows, None, -1
    k = int(show[outside | empty | clash].min())
    mine = show == k
    if (mine & outside).any():
        i = int(np.flatnonzero(mine & outside)[np.argmin(line[mine & outside])])
        problem = too_large(f"{what} end") if start[i] >= 0 else f"{what} start is negative"
        value = f"{float(start[i]):g} -> {float(end[i]):g}"
        return rows, InputError(problem, path=rows.files[k], line=int(line[i]), value=value), k
    if (mine & empty).any():
        i = int(np.flatnonzero(mine & empty)[np.argmin(line[mine & empty])])
        problem = "end before start" if end[i] < start[i] else "zero duration"
        value = f"{float(start[i]):g} -> {float(end[i]):g}"
        return rows, InputError(f"{what} with {problem}", path=rows.files[k], line=int(line[i]), value=value), k
    i = int(np.flatnonzero(mine & clash)[0])
    a, b = sorted((int(line[i - 1]), int(line[i])))
    value = f"{float(start[i - 1]):g}-{float(end[i - 1]):g} and {float(start[i]):g}-{float(end[i]):g}"
    return rows, InputError(f"{what}s overlap (lines {a} and {b})", path=rows.files[k], line=b, value=value), k


def read_files(
    files: Sequence[Path],
    read: Callable[[Path], Rows | None],
    *,
    what: str,
    desc: str,
    batch: tuple[set, Rows, tuple[Path, InputError] | None] | None = None,
) -> list[Rows]:
    """Read ``files`` in order (``read(file)``: its rows, or ``None`` for a file left out) and check them.

    ``batch`` is what a reader of many files at once found: the files it read (not given to ``read``),
    the rows of those before the first that holds an error, and that file with its error. Raises the
    first error in the order of the files; returns the rows, checked and sorted.
    """
    parts: list[Rows] = []
    batched: set = set()
    by_file: dict[Any, list[int]] = {}
    failed: tuple[Path, InputError] | None = None
    if batch is not None:
        batched, rows, failed = batch
        rows, span_error, k = check_spans(rows, what=what)
        if span_error is not None:  # in a file before the one that failed, if one did
            failed = (rows.files[k], span_error)
        first_lines = rows.first_lines()
        for k, file in enumerate(rows.files):
            by_file.setdefault(file, []).append(k)
        parts.append(rows)
    origin: dict[str, tuple[Path, int]] = {}
    for file in iterate(files, desc=desc):
        if file in batched:
            if failed is not None and file == failed[0]:
                raise failed[1]
            _check_new_shows(origin, [(rows.names[k], int(first_lines[k])) for k in by_file.get(file, [])], file)
            continue
        read_rows = read(file)
        if read_rows is None:
            continue
        read_rows, span_error, _ = check_spans(read_rows, what=what)
        if span_error is not None:
            raise span_error
        lines = read_rows.first_lines()
        _check_new_shows(origin, [(name, int(line)) for name, line in zip(read_rows.names, lines)], file)
        parts.append(read_rows)
    return parts


def _check_new_shows(origin: dict, shows: list[tuple[str, int]], file: Path) -> None:
    """Refuse a show already read from another file; else remember where it was read (its first line:
    -1 for a show without rows)."""
    for show, line in shows:
        if show in origin:
            first_file, first_line = origin[show]
            where = f"{first_file}" if first_line < 0 else f"{first_file}:{first_line}"
            raise InputError(f"show already read from {where}", path=file, line=None if line < 0 else line, value=show)
        origin[show] = (file, line)


def join(parts: list[Rows], *, units: bool = False) -> SegmentColumns | UnitColumns:
    """One :class:`SegmentColumns` (or :class:`UnitColumns`) of checked rows whose shows are all distinct."""
    if not parts:
        parts = [Rows([], [], [], start=[], end=[], line=[], **({} if units else {"label": np.zeros(0, object)}))]
    present = [tuple(key for key in UNIT_TEXT_COLUMNS if key in part.texts) for part in parts]
    if len(parts) == 1:
        rows = parts[0]
    else:
        shift = np.cumsum([0] + [len(part.names) for part in parts])
        keys = [key for key in (UNIT_TEXT_COLUMNS if units else ("label",)) if any(key in p.texts for p in parts)]
        nothing = [np.full(len(part.show), None, dtype=object) for part in parts]
        scores = {}
        if not units and any(SCORE in p.texts for p in parts):  # a file without scores: NaN, none
            scores[SCORE] = np.concatenate([p.texts.get(SCORE, np.full(len(p.show), np.nan)) for p in parts])
        rows = Rows(
            [name for part in parts for name in part.names],
            [file for part in parts for file in part.files],
            np.concatenate([part.show + shift[i] for i, part in enumerate(parts)]),
            start=np.concatenate([part.start for part in parts]),
            end=np.concatenate([part.end for part in parts]),
            line=np.concatenate([part.line for part in parts]),
            **{key: np.concatenate([p.texts.get(key, none) for p, none in zip(parts, nothing)]) for key in keys},
            **scores,
        )
    rank, offsets, order = sort_rows(rows.show, rows.names, rows.start, rows.end, rows.line)
    rows = rows.take(order)
    by_rank = np.empty(len(rank), dtype=np.int64)
    by_rank[rank] = np.arange(len(rank))
    names, paths = [rows.names[k] for k in by_rank], [rows.files[k] for k in by_rank]
    if units:
        layouts = [layout for part, layout in zip(parts, present) for _ in part.names]
        layout = [layouts[k] for k in by_rank]
        return UnitColumns(
            names, offsets, start=rows.start, end=rows.end, line=rows.line, paths=paths, layout=layout, **rows.texts
        )
    return SegmentColumns(
        names,
        offsets,
        start=rows.start,
        end=rows.end,
        line=rows.line,
        paths=paths,
        label=rows.texts["label"],
        score=rows.texts.get(SCORE),
        end_score=rows.texts.get(END_SCORE),
    )
