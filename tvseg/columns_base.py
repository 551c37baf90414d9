"""The shared base of :class:`tvseg.columns.SegmentColumns` and :class:`tvseg.columns.UnitColumns`.

:class:`Columns` holds the shows of a corpus as one set of sorted arrays (show offsets, start, end,
source line) and is a mapping of show id to a per-show object, built from the arrays when a show is
first looked up and then kept; a subclass says how that object is built. The user's changes (shows
added, replaced or removed) are kept beside the arrays (:attr:`Columns.pristine` is then false).
:func:`sort_rows` puts the rows a reader found in the order the columns hold them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, MutableMapping, Sequence
from typing import Any, Generic, TypeAlias, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["Columns", "PathOrNone", "sort_rows"]

_V = TypeVar("_V")
PathOrNone: TypeAlias = "str | os.PathLike[str] | None"
"""The file a show was read from (``None`` when not known)."""


class Columns(MutableMapping[str, _V], Generic[_V]):
    """What both kinds of columns share: the shows, their rows, and the user's changes."""

    def __init__(
        self,
        names: Iterable[str],
        offsets: ArrayLike,
        *,
        start: ArrayLike,
        end: ArrayLike,
        line: ArrayLike | None = None,
        paths: Iterable[PathOrNone] | None = None,
    ) -> None:
        self.names = tuple(names)
        self.offsets = np.asarray(offsets, dtype=np.int64)
        self.start = np.asarray(start, dtype=np.float64)
        self.end = np.asarray(end, dtype=np.float64)
        self.line = None if line is None else np.asarray(line, dtype=np.int64)
        self.paths: tuple[PathOrNone, ...] = tuple(paths) if paths is not None else (None,) * len(self.names)
        n = len(self.names)
        if (
            len(self.offsets) != n + 1
            or self.offsets[0] != 0
            or np.any(np.diff(self.offsets) < 0)
            or self.offsets[-1] != len(self.start)
            or len(self.end) != len(self.start)
            or (self.line is not None and len(self.line) != len(self.start))
            or len(self.paths) != n
        ):
            raise ValueError("offsets must run from 0 to the number of rows, one more than the shows")
        if any(a >= b for a, b in zip(self.names, self.names[1:])):
            raise ValueError("the show ids must be sorted and unique")
        self._index = dict(zip(self.names, range(n)))
        self._cache: dict[str, _V] = {}
        self._overrides: dict[str, _V] = {}
        self._deleted: set[str] = set()

    @property
    def pristine(self) -> bool:
        """True while the arrays are the whole truth: no show was set or deleted since reading."""
        return not self._overrides and not self._deleted

    def rows(self, show: str) -> slice:
        """The rows of ``show`` in the arrays (``KeyError`` for a show that is not in them)."""
        k = self._index[show]
        return slice(int(self.offsets[k]), int(self.offsets[k + 1]))

    def path(self, show: str) -> PathOrNone:
        """The file ``show`` was read from (``None`` when not known)."""
        return self.paths[self._index[show]]

    def __getitem__(self, show: str) -> _V:
        if show in self._overrides:
            return self._overrides[show]
        if show in self._deleted or show not in self._index:
            raise KeyError(show)
        value = self._cache.get(show)
        if value is None:
            value = self._cache[show] = self._build(self._index[show])
        return value

    def __setitem__(self, show: str, value: _V) -> None:
        self._overrides[show] = value

    def __delitem__(self, show: str) -> None:
        if show not in self:
            raise KeyError(show)
        self._overrides.pop(show, None)
        if show in self._index:
            self._deleted.add(show)

    def __contains__(self, show: object) -> bool:
        try:
            return show in self._overrides or (show in self._index and show not in self._deleted)
        except TypeError:  # an unhashable key
            return False

    def __iter__(self) -> Iterator[str]:
        for name in self.names:
            if name not in self._deleted or name in self._overrides:
                yield name
        for name in list(self._overrides):
            if name not in self._index:
                yield name

    def __len__(self) -> int:
        added = sum(1 for name in self._overrides if name not in self._index)
        back = sum(1 for name in self._deleted if name in self._overrides)
        return len(self.names) - len(self._deleted) + back + added

    def __repr__(self) -> str:
        state = "" if self.pristine else ", changed"
        return f"{type(self).__name__}({len(self)} shows, {len(self.start)} rows{state})"

    def _build(self, k: int) -> _V:
        raise NotImplementedError

    def _selected(self, shows: Iterable[str]) -> tuple[list[str], NDArray[np.int64], NDArray[np.int64], dict[str, Any]]:
        """The names among ``shows`` that the arrays hold (sorted), their offsets, the rows they take
        and the common keyword arguments of the constructor (for :meth:`select`)."""
        if not self.pristine:
            raise ValueError("select() reads the arrays: the columns were changed since reading")
        index = sorted(self._index[name] for name in set(shows) if name in self._index)
        k = np.asarray(index, dtype=np.int64)
        counts = self.offsets[k + 1] - self.offsets[k]
        first = np.repeat(self.offsets[k] - (np.cumsum(counts) - counts), counts)
        rows = first + np.arange(int(counts.sum()), dtype=np.int64)
        offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        common = {
            "start": self.start[rows],
            "end": self.end[rows],
            "paths": [self.paths[i] for i in index],
            "line": None if self.line is None else self.line[rows],
        }
        return [self.names[i] for i in index], offsets, rows, common


def sort_rows(
    codes: ArrayLike, names: Sequence[str], start: ArrayLike, end: ArrayLike, line: ArrayLike | None = None
) -> tuple[tuple[str, ...], NDArray[np.int64], NDArray[np.intp] | None, NDArray[np.int64]]:
    """Sort rows by (show, start, end, line), the shows' names in sorted order.

    Parameters
    ----------
    codes : array of int
        The show of each row, as an index into ``names``.
    names : sequence of str
        The show ids (unique, in any order; a show without rows keeps its place).
    start, end : array of float
    line : array of int, optional

    Returns
    -------
    names : tuple of str
        Sorted.
    offsets : numpy.ndarray
        ``offsets[k]:offsets[k + 1]`` are the rows of the sorted ``names[k]`` in ``order``.
    order : numpy.ndarray or None
        The rows, sorted (``None``: they are already).
    rank : numpy.ndarray
        For each of the given names, its index among the sorted names.
    """
    given = np.empty(len(names), dtype=object)
    given[:] = list(names)
    by_name = np.argsort(given, kind="stable")
    rank = np.empty(len(given), dtype=np.int64)
    rank[by_name] = np.arange(len(given))
    code = rank[np.asarray(codes, dtype=np.int64)]
    keys = [np.asarray(key) for key in ((end, start) if line is None else (line, end, start))]
    order = None if _is_sorted([code, *keys[::-1]]) else np.lexsort((*keys, code))
    offsets = np.concatenate(([0], np.cumsum(np.bincount(code, minlength=len(given))))).astype(np.int64)
    return tuple(given[by_name].tolist()), offsets, order, rank


def _is_sorted(keys: Sequence[NDArray[Any]]) -> bool:
    """Whether the rows are in increasing order of the keys (the first one first)."""
    if len(keys[0]) < 2:
        return True
    after, tied = np.zeros(len(keys[0]) - 1, dtype=bool), np.ones(len(keys[0]) - 1, dtype=bool)
    for key in keys:
        after |= tied & (key[1:] > key[:-1])
        tied &= key[1:] == key[:-1]
    return bool(after.all())
