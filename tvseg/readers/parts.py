"""Part of a file or of a folder read as if it were the whole: what a shard of an evaluation reads.

A shard of :mod:`tvseg.scale` reads its own shows: some files of a folder, or the lines of a file sorted
by show that hold them. Inside :func:`reading_parts`, every reader takes a path named there as its part
(:func:`part_of`): :func:`~tvseg.readers.list_files` lists only the part's files of a folder, and
:func:`~tvseg.readers.source.read_text` reads a file's part as its text. The parts are held in a context
variable: the threads of one process (a Dask worker's) each see their own.

A file sorted by show is cut without reading it: :func:`lines_of` tells how to find the show of a line,
:func:`bounds` picks shows at equal steps of its bytes, and :func:`pieces` finds, by bisection on the
bytes, the part of the file each range of shows holds.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["Part", "reading_parts", "part_of", "Lines", "lines_of", "bounds", "pieces"]

_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


@dataclass(frozen=True)
class Part:
    """A folder's files ``names``, or a file's ``header`` followed by its bytes ``start:stop``."""

    names: tuple[str, ...] | None = None
    header: bytes = b""
    start: int = 0
    stop: int = 0

    @property
    def empty(self) -> bool:
        """Whether the part holds no file, or no line."""
        return not self.names if self.names is not None else self.stop <= self.start

    def read(self, path: str | os.PathLike) -> bytes:
        """The part's bytes of the file ``path``."""
        with open(path, "rb") as handle:
            handle.seek(self.start)
            return self.header + handle.read(max(self.stop - self.start, 0))


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


def lines_of(path: str, *, format: str | None = None, encoding: str | None = None, units: bool = False):
    """How to cut the file ``path`` by show.

    Parameters
    ----------
    path : str
        The file.
    format, encoding : str, optional
        As :func:`tvseg.read_segments` takes them (``format`` ignored for units).
    units : bool, default False
        Whether the file holds units (then only a CSV file is cut).

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
    if b'"' in header or "show" not in names or _has_quote(path):
        return None
    return Lines(names.index("show"), b",", start, header)


def _has_quote(path: str) -> bool:
    """Whether the file holds a ``"`` (a quoted cell may hold a line end: no cut by lines)."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return False
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return data.find(b'"') >= 0


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


def pieces(path: str, lines: Lines, edges: Sequence[str]) -> list[Part]:
    """The part of a file sorted by show that each range of shows holds (``edges``: the sorted bounds
    between ranges), from the first line whose show is not before the range's lower edge (found by
    bisection on the bytes). A part without a line naming a show is empty."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        cuts = [lines.start]
        for edge in edges:
            lo, hi = cuts[-1], size
            while lo < hi:
                mid = (lo + hi) // 2
                show = _line_at(f, mid, lines)[1]
                if show is None or show >= edge:
                    hi = mid
                else:
                    lo = mid + 1
            cuts.append(_line_at(f, lo, lines)[0])
        cuts.append(size)
        return [
            Part(header=lines.header, start=a, stop=b if _line_at(f, a, lines)[0] < b else a)
            for a, b in zip(cuts[:-1], cuts[1:])
        ]
