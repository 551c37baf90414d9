"""Hierarchical references: a level per segment, and the segmentation at a level.

A reference may have levels: stories (level 1), their sub-stories (level 2), and so on. A segment's level
is that of the boundary that opens it, as a Wiki-727K header ``========,LEVEL,TITLE.`` opens its section:
a level-2 segment is a sub-story that begins inside the story before it. The reference at level ``N`` is
the segmentation whose boundaries are those of the segments of level ``<= N``: a segment of a deeper
level joins the segment before it in its show (the joined segment runs from the start of the first to the
end of the last, over any gap between them, and keeps the first one's label and line). The first segment
of a show opens it at every level. Without a level asked, a reference is read as it is (every segment;
a Wiki-727K document as its authors' loader reads it, at level 2: :mod:`tvseg.readers.text_corpora`).

Where the levels come from: Wiki-727K's headers; a ``level`` column of a CSV read through ``--columns
...,level=COL``; a ``level`` field of the segments of a JSON segmentation (``formats/json.md``). A level
is a positive integer.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from tvseg.errors import InputError, UsageError
from tvseg.readers.corpus import Rows, check_spans

__all__ = ["LEVEL", "ALL", "parse_level", "level_option", "at_level", "without_levels", "levels_in"]

LEVEL = "level"
"""The key of the rows' levels (an int64 array among :attr:`Rows.texts`)."""

ALL = "all"
"""``--level all``: every level of the reference in turn."""

_LEVEL = re.compile(r"[1-9][0-9]{0,5}")

NO_LEVEL = (
    "--level needs a reference with levels: Wiki-727K headers (--format wiki727k), a CSV column read with "
    "--columns ...,level=COL, or a JSON segmentation's 'level' fields"
)


def parse_level(value: Any, *, path: Any, line: int, field: str = "level") -> int:
    """A segment's level as written (text, or a JSON number kept as its text): a positive integer.

    Raises
    ------
    InputError
        Anything else, naming the file, the line and the value.
    """
    text = value.strip() if isinstance(value, str) else None
    if text is None or _LEVEL.fullmatch(text) is None:
        shown = repr(value) if not isinstance(value, str) else value
        raise InputError(f"{field} is not a level (a positive integer: 1, 2, ...)", path=path, line=line, value=shown)
    return int(text)


def level_option(value: Any, *, allow_all: bool = False) -> int | str | None:
    """The level a reference is read at: ``None``, a positive integer (``"2"`` too) or, with
    ``allow_all``, :data:`ALL`.

    Raises
    ------
    UsageError
        Any other value.
    """
    if value is None:
        return None
    if allow_all and value == ALL:
        return ALL
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 1:
        return int(value)
    if isinstance(value, str) and _LEVEL.fullmatch(value.strip()):
        return int(value.strip())
    raise UsageError(f"level must be a positive integer{' or all' if allow_all else ''}, got {value!r}")


def at_level(rows: Rows, level: int) -> Rows:
    """The segments of ``rows`` (which hold :data:`LEVEL`) at ``level`` (module docstring), checked as
    :func:`~tvseg.readers.corpus.check_spans` checks them first (two sub-stories that overlap are refused,
    not joined), without their levels.

    Raises
    ------
    InputError
        The first error of the spans.
    """
    rows, error, _ = check_spans(rows)
    if error is not None:
        raise error
    levels = np.asarray(rows.texts[LEVEL], dtype=np.int64)
    show = rows.show
    opens = levels <= level
    if len(show):
        opens[0] = True
        opens[1:] |= show[1:] != show[:-1]  # rows sorted by show: a show's first segment
    first = np.flatnonzero(opens)
    end = np.maximum.reduceat(rows.end, first) if len(first) else rows.end[:0]
    return without_levels(rows.take(first).replaced(end=end))


def without_levels(rows: Rows) -> Rows:
    """``rows`` without their levels (a reference read as it is)."""
    if LEVEL not in rows.texts:
        return rows
    result = rows.replaced()
    del result.texts[LEVEL]
    return result


def levels_in(rows: Rows) -> set[int]:
    """The levels the segments of ``rows`` carry (empty: none)."""
    if LEVEL not in rows.texts:
        return set()
    return set(np.unique(np.asarray(rows.texts[LEVEL], dtype=np.int64)).tolist())
