"""Part of a file or of a folder read as if it were the whole: what a shard of an evaluation reads.

A shard of :mod:`tvseg.scale` reads its own shows: some files of a folder, or the lines of a file sorted
by show that hold them. Inside :func:`reading_parts`, every reader takes a path named there as its part
(:func:`part_of`): :func:`~tvseg.readers.list_files` lists only the part's files of a folder, and
:func:`~tvseg.readers.source.read_text` reads a file's part as its text. The parts are held in a context
variable: the threads of one process (a Dask worker's) each see their own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["Part", "reading_parts", "part_of"]


@dataclass(frozen=True)
class Part:
    """A folder's files ``names``, or a file's ``header`` followed by its bytes ``start:stop``."""

    names: tuple[str, ...] | None = None
    header: bytes = b""
    start: int = 0
    stop: int = 0

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
