"""Part of a file or of a folder read as if it were the whole: what a shard of an evaluation reads.

A shard of :mod:`tvseg.scale` reads its own shows: some files of a folder, or the lines of a file sorted
by show that hold them. Inside :func:`reading_parts`, every reader takes a path named there as its part
(:func:`part_of`): :func:`~tvseg.readers.list_files` lists only the part's files of a folder, and
:func:`~tvseg.readers.source.read_text` reads a file's part as its text. The parts are held in a context
variable: the threads of one process (a Dask worker's) each see their own.

A file sorted by show is cut without reading it: :func:`lines_of` tells how to find the show of a line,
:func:`bounds` picks shows at equal steps of its bytes, and :func:`pieces` finds, by bisection on the
bytes, the part of the file each range of shows holds. A file made of a few runs each sorted by show
(files sorted by show put end to end: ``show99999`` then ``show100000``) has its runs found from samples
of its lines (:func:`sorted_runs`, no pass over the file), each cut by bisection (:func:`run_pieces`). A
file in another order (``show9`` before ``show10`` throughout) is read once, in blocks, to find each show's
runs of lines (:func:`show_spans`, vectorised); each range of shows then reads its shows' runs
(:func:`span_pieces`).
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

__all__ = [
    "Part",
    "reading_parts",
    "part_of",
    "Lines",
    "lines_of",
    "bounds",
    "pieces",
    "sorted_runs",
    "run_pieces",
    "show_spans",
    "span_pieces",
]

_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


@dataclass(frozen=True)
class Part:
    """A folder's files ``names``, or a file's ``header`` followed by its bytes ``start:stop``, or by its
    byte ranges ``spans`` in file order (a file not sorted by show: :func:`show_spans`)."""

    names: tuple[str, ...] | None = None
    header: bytes = b""
    start: int = 0
    stop: int = 0
    spans: tuple[tuple[int, int], ...] | None = None
    unchecked: bool = False  # a CSV file not yet searched for quotes: the part fits only without one

    def holds_quote(self, path: str | os.PathLike) -> bool:
        """Whether the part's bytes of ``path`` hold a ``"`` (a quoted cell may hold a line end: the
        file cannot be cut by lines)."""
        return b'"' in self.read(path)

    @property
    def empty(self) -> bool:
        """Whether the part holds no file, or no line."""
        if self.names is not None:
            return not self.names
        if self.spans is not None:
            return not self.spans
        return self.stop <= self.start

    def read(self, path: str | os.PathLike) -> bytes:
        """The part's bytes of the file ``path``."""
        spans = self.spans if self.spans is not None else ((self.start, self.stop),)
        chunks = [self.header]
        with open(path, "rb") as handle:
            for start, stop in spans:
                handle.seek(start)
                chunks.append(handle.read(max(stop - start, 0)))
        return b"".join(chunks)


_PARTS: ContextVar[Mapping[str, Part] | None] = ContextVar("tvseg_parts", default=None)


@contextmanager
def reading_parts(parts: Mapping[str, Part] | Mapping[os.PathLike[str], Part]) -> Iterator[None]:
    """Within the block, the readers read ``parts`` (path -> :class:`Part`) in place of the whole."""
    token = _PARTS.set({os.path.abspath(path): part for path, part in parts.items()})
    try:
        yield
    finally:
        _PARTS.reset(token)


def part_of(path: str | os.PathLike) -> Part | None:
    """The part of ``path`` to read (None: the whole)."""
    parts = _PARTS.get()
    return parts.get(os.path.abspath(path)) if parts else None


# ------------------------------------------------------------------------- cutting a file sorted by show


@dataclass(frozen=True)
class Lines:
    """How to find the show of a line of a file sorted by show: the field ``field`` (``separator``: a
    CSV's comma; None: an RTTM's white space), the lines from byte ``start`` on (after a CSV's ``header``)."""

    field: int
    separator: bytes | None
    start: int
    header: bytes
    unchecked: bool = False  # a CSV file not searched for quotes (each part is: Part.holds_quote)


def lines_of(
    path: str, *, format: str | None = None, encoding: str | None = None, units: bool = False, quotes: bool = True
):
    """How to cut the file ``path`` by show.

    Parameters
    ----------
    path : str
        The file.
    format, encoding : str, optional
        As :func:`tvseg.read_segments` takes them (``format`` ignored for units).
    units : bool, default False
        Whether the file holds units (then only a CSV file is cut).
    quotes : bool, default True
        Search a CSV file for quotes here; False: its parts are searched where they are read
        (:attr:`Lines.unchecked`, :meth:`Part.holds_quote`).

    Returns
    -------
    Lines or None
        None when the file is to be read whole: not an RTTM or CSV file (units: a CSV file) in UTF-8 (no
        encoding declared, no byte order mark), a CSV file with quotes or without a ``show`` column.
    """
    from tvseg.errors import InputError, UsageError
    from tvseg.readers import detect_format

    try:
        kind = detect_format(path, None if units else format)
    except (InputError, UsageError):
        return None
    if encoding is not None or kind not in (("csv",) if units else ("rttm", "csv")):
        return None
    with open(path, "rb") as f:
        if any(f.read(4).startswith(bom) for bom in _BOMS):
            return None
        if kind == "rttm":
            return Lines(1, None, 0, b"")
        f.seek(0)
        header = f.readline()
        while header and not header.strip():
            header = f.readline()
        start = f.tell()
    try:
        names = [name.strip() for name in header.decode("utf-8").split(",")]
    except UnicodeDecodeError:
        return None
    if b'"' in header or "show" not in names or (quotes and _has_quote(path)):
        return None
    return Lines(names.index("show"), b",", start, header, unchecked=not quotes)


def _has_quote(path: str) -> bool:
    """Whether the file holds a ``"`` (a quoted cell may hold a line end: no cut by lines)."""
    with open(path, "rb") as f:  # in blocks: a mapped file's pages would count as this process's memory
        while block := f.read(16 << 20):
            if b'"' in block:
                return True
    return False


def _line_at(f, offset: int, lines: Lines) -> tuple[int, str | None]:
    """The first line that names a show and starts at ``offset`` or after: its start and its show
    (the file's size and None at its end). Blank and comment lines, and lines too short to name a show,
    name none."""
    f.seek(max(offset - 1, 0))
    if offset > 0:
        f.readline()  # to the end of the line holding byte offset - 1
    while True:
        where, line = f.tell(), f.readline()
        if not line:
            return where, None
        cells = line.split(lines.separator) if lines.separator else line.split()
        if len(cells) > lines.field and line.strip() and not (lines.separator is None and cells[0].startswith(b";;")):
            return where, cells[lines.field].strip().decode("utf-8", errors="replace")


def bounds(path: str, lines: Lines, n: int) -> list[str]:
    """Shows at equal steps of the file's bytes: the edges of ``n`` ranges of shows of about equal size."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        found = [_line_at(f, lines.start + (size - lines.start) * k // n, lines)[1] for k in range(1, n)]
    return [show for show in found if show is not None]


def pieces(
    path: str, lines: Lines, edges: Sequence[str], *, start: int | None = None, stop: int | None = None
) -> list[Part]:
    """The part of a file sorted by show that each range of shows holds (``edges``: the sorted bounds
    between ranges), from the first line whose show is not before the range's lower edge (found by
    bisection on the bytes). A part without a line naming a show is empty. ``start``, ``stop``: the bytes
    sorted by show, the lines starting there (default: the whole file after its header)."""
    first = lines.start if start is None else start
    size = os.path.getsize(path) if stop is None else stop
    with open(path, "rb") as f:
        cuts = [first]
        for edge in edges:
            lo, hi = cuts[-1], size
            while lo < hi:
                mid = (lo + hi) // 2
                where, show = _line_at(f, mid, lines)
                if show is None or where >= size or show >= edge:
                    hi = mid
                else:
                    lo = mid + 1
            cuts.append(min(_line_at(f, lo, lines)[0], size))
        cuts.append(size)
        return [
            Part(header=lines.header, start=a, stop=b if _line_at(f, a, lines)[0] < b else a, unchecked=lines.unchecked)
            for a, b in zip(cuts[:-1], cuts[1:])
        ]


# ------------------------------------------------------- cutting a file of a few runs each sorted by show


def sorted_runs(path: str, lines: Lines, *, samples: int = 4096, most: int = 64) -> list[tuple[int, int]] | None:
    """The byte ranges of a file that hold its lines sorted by show, as far as ``samples`` lines at equal
    steps of its bytes tell: the file is cut before each line whose show sorts before the show of the line
    before it, such a line found by bisection between two samples in that order (a concatenation of files
    each sorted by show, ``show99999`` then ``show100000``); None when more than ``most`` cuts are found (a
    file in no order of shows).

    A cut missed (two samples in order with lines out of order between them) is told by the shard that
    reads a show outside its range (:mod:`tvseg.scale`), whose runs are then found line by line
    (:func:`show_spans`)."""
    size = os.path.getsize(path)
    seen: list[tuple[int, str]] = []
    cuts: list[int] = []
    with open(path, "rb") as f:
        for k in range(samples):
            where, show = _line_at(f, lines.start + (size - lines.start) * k // samples, lines)
            if show is None:
                break
            if not seen or where != seen[-1][0]:
                seen.append((where, show))
        for (a, high), (b, low) in zip(seen, seen[1:]):
            if low < high:
                cuts.append(_descent(f, a, high, b, lines))
                if len(cuts) > most:
                    return None
    edges = [lines.start, *cuts, size]
    return list(zip(edges[:-1], edges[1:]))


def _descent(f, a: int, high: str, b: int, lines: Lines) -> int:
    """The start of a line after the line at ``a`` (show ``high``) and not after the line at ``b`` (a show
    sorting before ``high``) whose show sorts before that of the line naming a show before it."""
    while True:
        where, show = _line_at(f, (a + b) // 2 + 1, lines)
        if where >= b:  # no line starts in the upper half: the line after ``a``
            where, show = _line_at(f, a + 1, lines)
            if where >= b:
                return b
        assert show is not None  # a line naming a show comes before ``b``
        if show >= high:
            a, high = where, show
        else:
            b = where


def run_pieces(path: str, lines: Lines, runs: Sequence[tuple[int, int]], edges: Sequence[str]) -> list[Part]:
    """The part of a file made of runs each sorted by show (:func:`sorted_runs`) that each range of shows
    holds (``edges``: the sorted bounds between ranges): its bytes of each run, found as :func:`pieces`
    finds them, in file order."""
    chosen: list[list[tuple[int, int]]] = [[] for _ in range(len(edges) + 1)]
    for start, stop in runs:
        for k, part in enumerate(pieces(path, lines, edges, start=start, stop=stop)):
            if not part.empty:
                chosen[k].append((part.start, part.stop))
    return [Part(header=lines.header, spans=tuple(spans), unchecked=lines.unchecked) for spans in chosen]


# ------------------------------------------------------------------- cutting a file in any order of shows

_BLOCK = 64 << 20
_WHITE = np.zeros(256, dtype=bool)
_WHITE[[9, 10, 11, 12, 13, 32]] = True


def show_spans(path: str, lines: Lines, *, block: int = _BLOCK) -> dict[str, list[tuple[int, int]]]:
    """Each show's byte ranges in the file ``path``: its runs of consecutive lines, in file order (one
    pass over the file, ``block`` bytes at a time, vectorised). A line naming no show (blank, a comment,
    too few fields) belongs to the run before it (the first run, at the file's start), so that every line
    is read by some shard, as the whole file would be."""
    runs: list[tuple[bytes, int]] = []  # (token, start of its run)
    previous = None
    with open(path, "rb") as f:
        f.seek(lines.start)
        offset, carry = lines.start, b""
        while True:
            chunk = f.read(block)
            data = carry + chunk
            if not data:
                break
            if chunk:  # more may follow: up to the last line end (the bytes before it read in place)
                cut = data.rfind(b"\n") + 1
                carry = data[cut:]
                if not cut:
                    continue
            elif not data.endswith(b"\n"):  # the last line, without its line end
                data, cut, carry = data + b"\n", len(data) + 1, b""
            else:
                cut, carry = len(data), b""
            previous = _runs_of_block(np.frombuffer(data, dtype=np.uint8, count=cut), lines, offset, previous, runs)
            offset += cut
            if not chunk:
                break
    size = os.path.getsize(path)
    if not runs:
        return {"": [(lines.start, size)]}
    runs[0] = (runs[0][0], lines.start)
    spans: dict[str, list[tuple[int, int]]] = {}
    for (token, start), (_, end) in zip(runs, [*runs[1:], (b"", size)]):
        own = spans.setdefault(token.strip().decode("utf-8", errors="replace"), [])
        if own and own[-1][1] == start:  # ("s2" then "s2 ": one show)
            own[-1] = (own[-1][0], end)
        else:
            own.append((start, end))
    return spans


def _runs_of_block(buf: np.ndarray, lines: Lines, offset: int, previous: bytes | None, runs: list) -> bytes | None:
    """Append to ``runs`` the runs that start in ``buf`` (whole lines, from byte ``offset`` of the file);
    ``previous``: the show token of the line before; returns the last line's."""
    ends = np.flatnonzero(buf == 10)
    starts = np.concatenate(([0], ends[:-1] + 1))
    first, stop = _field(buf, starts, ends, lines)
    named = first >= 0
    if not named.any():
        return previous
    # a line naming no show continues the run before it
    lines_named = np.flatnonzero(named)
    first, stop = first[named], stop[named]
    length = stop - first
    same = length[1:] == length[:-1]
    for j in range(
        0, int(length.max(initial=0)), 8
    ):  # bytes j to j + 7 of the tokens of equal length, while they agree
        live = np.flatnonzero(same & (length[1:] > j))
        same[live] = _equal_bytes(buf, first[1:][live] + j, first[:-1][live] + j, np.minimum(length[1:][live] - j, 8))
    new = np.concatenate(([True], ~same))
    new[0] = previous is None or bytes(buf[first[0] : stop[0]]) != previous
    for k in np.flatnonzero(new).tolist():
        runs.append((bytes(buf[first[k] : stop[k]]), offset + int(starts[lines_named[k]])))
    return bytes(buf[first[-1] : stop[-1]])


_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)


def _equal_bytes(buf: np.ndarray, a: np.ndarray, b: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Whether ``buf``'s ``count`` bytes (at most 8) from ``a`` equal those from ``b``, pair by pair: the 8 bytes
    from each read as one little-endian number, the bytes past ``count`` masked (byte by byte within 8 bytes
    of the buffer's end)."""
    equal = np.ones(len(a), dtype=bool)
    far = np.maximum(a, b) <= len(buf) - 8
    if far.any():
        words = np.lib.stride_tricks.sliding_window_view(buf, 8).view("<u8")[:, 0]
        equal[far] = (words[a[far]] ^ words[b[far]]) & _LOW_BYTES[count[far]] == 0
    near = np.flatnonzero(~far)
    for i in range(8):
        near = near[count[near] > i]
        equal[near] &= buf[a[near] + i] == buf[b[near] + i]
    return equal


def _field(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, lines: Lines):
    """The byte range of each line's show field (``-1``: the line names none: blank, an RTTM comment,
    too few fields), as :func:`_line_at` reads it."""
    if lines.separator is not None:
        commas = np.flatnonzero(buf == lines.separator[0])
        k = np.searchsorted(commas, starts)
        padded = np.concatenate((commas, [len(buf)]))  # (a line end is never past the buffer)
        f = lines.field
        first = starts if f == 0 else padded[np.minimum(k + f - 1, len(commas))] + 1
        has = np.ones(len(starts), dtype=bool) if f == 0 else padded[np.minimum(k + f - 1, len(commas))] < ends
        stop = np.minimum(padded[np.minimum(k + f, len(commas))], ends)
        # a line without a separator may be blank (it names no show then): those lines are few
        for i in np.flatnonzero(padded[np.minimum(k, len(commas))] >= ends).tolist():
            if not bytes(buf[starts[i] : ends[i]]).strip():
                has[i] = False
        return np.where(has, first, -1), stop
    white = _WHITE[buf]
    edge = np.empty(len(buf), dtype=bool)
    edge[0] = not white[0]
    np.less(white[1:], white[:-1], out=edge[1:])  # a dark byte after a white one: a field's first byte
    begins = np.flatnonzero(edge)
    np.less(white[:-1], white[1:], out=edge[:-1])  # a dark byte before a white one: a field's last byte
    edge[-1] = not white[-1]
    finishes = np.flatnonzero(edge) + 1
    if not len(begins):
        return np.full(len(starts), -1), ends
    t0 = np.minimum(np.searchsorted(begins, starts), len(begins) - 1)
    t = np.minimum(t0 + lines.field, len(begins) - 1)
    has = (t0 + lines.field < len(begins)) & (begins[t] < ends) & (begins[t0] < ends)
    lead = begins[t0]
    comment = (buf[lead] == 59) & (buf[np.minimum(lead + 1, len(buf) - 1)] == 59)  # ";;"
    return np.where(has & ~comment, begins[t], -1), finishes[t]


def span_pieces(spans: Mapping[str, list[tuple[int, int]]], lines: Lines, edges: Sequence[str]) -> list[Part]:
    """The part of a file (its runs by show, :func:`show_spans`) that each range of shows holds (``edges``:
    the sorted bounds between ranges): the runs of its shows, in file order."""
    chosen: list[list[tuple[int, int]]] = [[] for _ in range(len(edges) + 1)]
    for show, runs in spans.items():
        chosen[bisect.bisect_right(edges, show)].extend(runs)
    return [Part(header=lines.header, spans=tuple(sorted(runs)), unchecked=lines.unchecked) for runs in chosen]
