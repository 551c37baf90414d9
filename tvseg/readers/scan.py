"""A text's lines and fields found with numpy, for the readers of RTTM and CSV files.

The positions of the line ends and of the separators give each record's line and its number of
fields, and the time fields are checked on the bytes to be plain decimals (digits and at most one
point), so that the numbers pandas' C parser reads from them are those of Python's ``float``; the
readers check the other fields one by one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Scan",
    "Regular",
    "byte_reader",
    "regular_records",
    "plain_decimals",
    "needs_strip",
    "EXACT_DIGITS",
    "categories",
]

EXACT_DIGITS = 15
"""A plain decimal of at most this many characters (at most 15 digits: below 2**53 as an integer)
is read exactly by pandas' "high" precision parser: its digits make an exact double, divided once by
an exact power of ten, so the result is correctly rounded, as Python's ``float`` is."""

_SPACE_BYTES = np.zeros(256, dtype=bool)
_SPACE_BYTES[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True
_SPACE_BYTES[0x80:] = True  # a byte of a non-ASCII character, which may be a Unicode space


class Scan:
    """The lines of a text (bytes, lines ending with ``\\n``) and the separators on each line.

    Attributes
    ----------
    buf : numpy.ndarray of uint8
        The bytes, then 16 zero bytes (so that 16 bytes can be read from any field's start); ``data``
        the same as ``bytes`` (given ``padded`` when they already end with the 16 zero bytes).
    line_start, line_end : numpy.ndarray
        The position of each line's first byte, and of its ``\\n``.
    bounds : numpy.ndarray
        The positions of the separators and of the line ends, in order; ``first[line]`` is the
        index of the line's first one, ``count[line]`` the number of separators on the line.
    """

    def __init__(self, data: bytes | bytearray, separator: str, *, padded: bool = False):
        self.data = data if padded else data + bytes(16)
        self.size = len(self.data) - 16
        self.buf = np.frombuffer(self.data, dtype=np.uint8)
        text = self.buf[: self.size]
        ends = text == 10
        self.bounds = np.flatnonzero(np.logical_or(text == ord(separator), ends, out=ends))
        at_end = np.flatnonzero(self.buf[self.bounds] == 10)
        self.line_end = self.bounds[at_end]
        self.line_start = np.concatenate(([0], self.line_end[:-1] + 1))
        self.first = np.concatenate(([0], at_end[:-1] + 1))
        self.count = at_end - self.first

    @property
    def blank(self) -> np.ndarray:
        """Whether each line is empty."""
        return self.line_end == self.line_start

    def field(self, lines: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The byte spans ``[start, end)`` of field ``k`` on each of ``lines`` (each has more than ``k``
        fields)."""
        first = self.first[lines]
        start = self.line_start[lines] if k == 0 else self.bounds[first + k - 1] + 1
        return start, self.bounds[first + k]


_LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_ZEROS = np.uint64(0x3030303030303030)  # "00000000"
_POINTS = np.uint64(0x2E2E2E2E2E2E2E2E)  # "........"
_HIGH = np.uint64(0xF0F0F0F0F0F0F0F0)
_LOW = np.uint64(0x0F0F0F0F0F0F0F0F)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_SIXES = np.uint64(0x0606060606060606)


def byte_reader(data: bytes | bytearray, stop: int | None = None) -> _Reader:
    """A binary file over ``data`` up to ``stop`` (default: all of it but its 16 zero bytes of padding),
    for pandas, that copies no more than it reads."""
    return _Reader(memoryview(data)[: len(data) - 16 if stop is None else stop])


class _Reader:
    """A binary file reading from a buffer (``io.BytesIO`` would copy it whole first)."""

    def __init__(self, view: memoryview):
        self.view, self.at = view, 0

    def read(self, size: int = -1) -> bytes:
        stop = len(self.view) if size is None or size < 0 else min(len(self.view), self.at + size)
        chunk, self.at = bytes(self.view[self.at : stop]), stop
        return chunk


class Regular:
    """What one pass over a table whose every line is a record of ``ncols`` fields found
    (:func:`regular_records`): its number of records, whether each of some columns holds only plain
    decimals, and the records whose cell in each of some other columns may change under ``str.strip()``."""

    def __init__(self, records: int, plain: dict[int, bool], strip: dict[int, np.ndarray]):
        self.records, self.plain, self.strip = records, plain, strip


_BLOCK = 1 << 22  # bytes scanned at a time: the temporaries stay small and in the cache


def regular_records(
    data: bytes | bytearray, separator: str, begin: int, ncols: int, *, plain: tuple[int, ...], strip: tuple[int, ...]
) -> Regular | None:
    """The records of the lines of ``data`` (LF line ends, then 16 zero bytes) from byte ``begin`` on, when
    each of them holds exactly ``ncols`` fields (so none is blank); ``None`` otherwise, when the table is
    read line by line (:class:`Scan`). Scanned a block of lines at a time, so that no temporary grows
    with the file.

    ``plain``: the columns checked to hold only plain decimals (:func:`plain_decimals`); ``strip``: those
    whose cells that may change under ``str.strip()`` are found (:func:`needs_strip`).
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    size = len(buf) - 16
    mark = ord(separator)
    all_plain = dict.fromkeys(plain, True)
    to_strip: dict[int, list[np.ndarray]] = {k: [] for k in strip}
    records = 0
    a = begin
    while a < size:
        b = size if size - a <= _BLOCK else data.rfind(b"\n", a, a + _BLOCK) + 1
        if b <= a:  # a line longer than a block
            b = data.find(b"\n", a + _BLOCK) + 1
        chunk = buf[a:b]
        marks = chunk == 10
        lines = int(np.count_nonzero(marks))
        marks |= chunk == mark
        found = np.flatnonzero(marks)
        if len(found) != lines * ncols:
            return None
        bounds = found.reshape(-1, ncols)
        # each record's last mark a line end: as many as there are lines, so that the others are separators
        if not (chunk[bounds[:, -1]] == 10).all():
            return None
        bounds += a
        for k in (*plain, *strip):
            end = bounds[:, k]
            if k:
                start = bounds[:, k - 1] + 1
            else:
                start = np.empty(len(bounds), dtype=np.int64)
                start[0] = a
                start[1:] = bounds[:-1, -1] + 1
            if k in all_plain and all_plain[k]:
                all_plain[k] = _all_plain(buf, start, end)
            if k in to_strip:
                to_strip[k].append(records + np.flatnonzero(needs_strip(buf, start, end)))
        records += len(bounds)
        a = b
    return Regular(
        records, all_plain, {k: np.concatenate([*rows, np.zeros(0, np.int64)]) for k, rows in to_strip.items()}
    )


_KEPT = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
"""The bytes of a word that a field of ``k`` bytes (the index) fills, as a mask."""
_FILLED = _ZEROS & ~_KEPT
"""The bytes after a field of ``k`` bytes, read as "0"."""
_SIGNS = np.uint64(0x8080808080808080)
_FROM_0 = np.uint64(0x5050505050505050)  # a byte plus 0x50 reaches 0x80 from "0" (0x30) up
_PAST_9 = np.uint64(0x4646464646464646)  # a byte plus 0x46 reaches 0x80 past "9" (0x39)


def _all_plain(buf: np.ndarray, start: np.ndarray, end: np.ndarray) -> bool:
    """Whether all the fields are plain decimals (:func:`plain_decimals`), each read as one word when
    none is longer than 8 bytes: after the points are made "0", every byte of every word is a digit,
    tested on the words' bitwise AND and OR (ASCII bytes: adding ``0x50`` or ``0x46`` to each carries into
    no other byte)."""
    length = end - start
    if not len(length) or length.min() < 1 or length.max() > 8:
        return bool(plain_decimals(buf, start, end)[0].all())
    word = _words(buf)[start]
    word &= _KEPT[length]
    word |= _FILLED[length]
    if np.bitwise_or.reduce(word) & _SIGNS:  # a byte beyond ASCII
        return bool(plain_decimals(buf, start, end)[0].all())
    y = word ^ _POINTS
    dots = ~(((y & _LOW7) + _LOW7) | y | _LOW7)  # the high bit of each byte that is "."
    points = np.bitwise_count(dots)
    if points.max() > 1 or (points >= length).any():  # two points, or a point alone
        return False
    word ^= (dots >> np.uint64(7)) * np.uint64(0x1E)  # "." -> "0"
    low = np.bitwise_and.reduce(word + _FROM_0) & _SIGNS
    high = np.bitwise_or.reduce(word + _PAST_9) & _SIGNS
    return bool(low == _SIGNS and high == 0)


def _words(buf: np.ndarray) -> np.ndarray:
    """The 8-byte little-endian word at each byte of ``buf`` (padded with zero bytes)."""
    return np.ndarray(shape=(len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))


def plain_decimals(
    scan: Scan | np.ndarray, start: np.ndarray, end: np.ndarray, *, decimals: bool = False
) -> tuple[np.ndarray, np.ndarray | None]:
    """Which fields are plain decimals of at most :data:`EXACT_DIGITS` characters (and their decimals).
    ``scan``: a :class:`Scan` or its bytes (padded with 16 zero bytes).

    A plain decimal is digits with at most one point and at least one digit (``42``, ``42.``,
    ``.5``, ``0.000``); a sign, an exponent, spaces or anything else make it not plain. A field's
    bytes are read as one or two 64-bit words and tested byte-wise within them.

    Returns
    -------
    plain : numpy.ndarray of bool
    decimals : numpy.ndarray of int or None
        The number of digits after the point (0 without one), when asked for.
    """
    buf = scan.buf if isinstance(scan, Scan) else scan
    n = len(start)
    length = end - start
    plain = (length >= 1) & (length <= EXACT_DIGITS)
    points = np.zeros(n, dtype=np.int64)
    places = np.zeros(n, dtype=np.int64) if decimals else None
    words = _words(buf)
    for half in (0, 1):
        rows = np.arange(n) if half == 0 else np.flatnonzero(plain & (length > 8))
        for a in range(0, len(rows), 1 << 16):  # a chunk at a time, to stay in the cache
            chunk = rows[a : a + (1 << 16)]
            used = np.clip(length[chunk] - 8 * half, 0, 8).astype(np.uint64)
            ok, count, dots = _plain_bytes(words[start[chunk] + 8 * half], used)
            plain[chunk] &= ok
            points[chunk] += count
            if places is not None:  # decimals asked for
                at = np.bitwise_count((dots & (~dots + np.uint64(1))) - np.uint64(1)).astype(np.int64) // 8
                places[chunk] += np.where(count == 1, length[chunk] - 1 - 8 * half - at, 0)
    plain &= (points <= 1) & (length > points)
    if places is not None:
        places[~plain] = 0
    return plain, places


def _plain_bytes(word: np.ndarray, used: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For 8-byte words of which the first ``used`` bytes count: whether those are digits or points,
    how many points, and the points' high bits."""
    mask = np.where(used == 8, _ALL, (np.uint64(1) << (used * np.uint64(8))) - np.uint64(1))
    word &= mask
    word |= _ZEROS & ~mask  # the bytes after the field read as "0"
    y = word ^ _POINTS
    dots = ~(((y & _LOW7) + _LOW7) | y | _LOW7)  # the high bit of each byte that is "."
    word ^= (dots >> np.uint64(7)) * np.uint64(0x1E)  # "." -> "0"
    ok = ((word & _HIGH) == _ZEROS) & (((word & _LOW) + _SIXES) & _HIGH == 0)
    return ok, np.bitwise_count(dots).astype(np.int64), dots


def categories(frame: pd.DataFrame, column, reread) -> tuple[list[str], np.ndarray]:
    """The distinct texts of a column read as ``category``, and each row's index among them.

    pandas makes the categories numbers when they all look like numbers (``001`` and ``1`` then
    become one category): the column is then read again as text (``reread(column)``) and factorised.
    """
    import pandas as pd

    series = frame[column]
    names = series.cat.categories
    codes = series.cat.codes.to_numpy().astype(np.int64)
    if pd.api.types.is_string_dtype(names.dtype) and not (codes < 0).any():
        names = names.tolist()
        if all(isinstance(name, str) for name in names):
            return names, codes
    codes, names = pd.factorize(reread(column).to_numpy(dtype=object))
    return list(names), codes.astype(np.int64)


def needs_strip(scan: Scan | np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Which fields may change under ``str.strip()``: they begin or end with a byte of whitespace or
    of a non-ASCII character (which may be a Unicode space). ``scan``: a :class:`Scan` or its bytes."""
    buf = scan.buf if isinstance(scan, Scan) else scan
    filled = end > start
    first = np.where(filled, buf[start], 0)
    last = np.where(filled, buf[np.maximum(end - 1, 0)], 0)
    return filled & (_SPACE_BYTES[first] | _SPACE_BYTES[last])
