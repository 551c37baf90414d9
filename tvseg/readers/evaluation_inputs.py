"""The files of an evaluation, as ``tvseg evaluate`` names them, and their reading in its order.

:class:`Files` names the files; :func:`read_files` reads them all in this process (UEM, reference, each
system, units, metadata), as ``tvseg evaluate`` without ``--jobs`` does. A shard of :mod:`tvseg.scale`
reads its part of each with :meth:`Files.read`, the warnings of reading recorded (:func:`recorded`) to
be given once by the parent.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

__all__ = ["Files", "read_files", "show_ends", "recorded"]


@dataclass(frozen=True)
class Files:
    """The files of an evaluation, as ``tvseg evaluate`` names them.

    Attributes
    ----------
    reference : str
        A file or a folder of files.
    hypotheses : dict
        System name -> file or folder.
    units, uem, metadata : str, optional
    format, encoding : str, optional
        As :func:`tvseg.read_segments` takes them (``format`` for the segmentations only).
    formats : tuple of (side, format)
        A side's own format (``--format reference:youtube``), winning over ``format`` (:meth:`format_of`).
    durations : dict, optional
        Show -> its duration in seconds (``--durations FILE``): where the last chapter of a chapter list
        ends, on every side (before the reference's ends, for a hypothesis).
    level : int, optional
        The level the reference is read at (a hierarchical reference: :mod:`tvseg.readers.levels`; the
        settings' ``level``); the hypotheses are read as they are.
    """

    reference: str
    hypotheses: Mapping[str, str]
    units: str | None = None
    uem: str | None = None
    metadata: str | None = None
    format: str | None = None
    encoding: str | None = None
    columns: Any = None  # a tvseg.readers.mapped_columns.SideColumns
    time_origin: Any = None  # a tvseg.readers.time_origin.TimeOrigins
    level: int | None = None
    formats: tuple[tuple[str, str], ...] = ()
    durations: Mapping[str, float] | None = None

    def format_of(self, side: str) -> str | None:
        """The format of a side's files (``reference``, ``units`` or a system's name; ``hypothesis NAME`` too)."""
        return dict(self.formats).get(side.partition(" ")[2] or side, self.format)

    def roles(self) -> dict[str, str]:
        """Each input but the UEM and the metadata (``reference``, ``hypothesis NAME``, ``units``) -> its
        path, in the order of reading."""
        roles = {"reference": self.reference, **{f"hypothesis {n}": p for n, p in self.hypotheses.items()}}
        return {**roles, "units": self.units} if self.units else roles

    def read_uem(self):
        """The UEM, read and shifted by its time origin (None: no UEM)."""
        from tvseg.readers import read_uem
        from tvseg.readers.time_origin import shift_uem

        if not self.uem:
            return None
        uem = read_uem(self.uem, encoding=self.encoding)
        return shift_uem(uem, self.time_origin.of("uem"), path=self.uem) if self.time_origin else uem

    def read_metadata(self):
        """The metadata table (None: no metadata)."""
        from tvseg.readers import read_metadata

        return read_metadata(self.metadata, encoding=self.encoding) if self.metadata else None

    def read(
        self,
        uem,
        *,
        paths: Mapping[str, str | None] | None = None,
        record: list | None = None,
        every_level: bool = False,
        cache: dict | None = None,
    ) -> dict:
        """Read each input (:meth:`roles`), the reference first (the ends of chapter lists come from it).

        Parameters
        ----------
        uem : dict or None
            The UEM (:meth:`read_uem`): segments are cropped to it as read.
        paths : dict, optional
            Role -> path to read in place of :meth:`roles` (None: a corpus of no show).
        record : list, optional
            Where to append the warnings of reading, as ``(index of the role, category, message)``,
            instead of giving them.
        every_level : bool, default False
            Read the reference as it is and at each of its levels (``--level all``,
            :func:`tvseg.readers.read_segment_levels`, each file read once): its role holds ``{level: what was
            read}`` (``None``: as it is).
        cache : dict, optional
            What earlier calls with the same dict read, by role, path and options: a file read again with
            the same options is not read again (the evaluations of several annotators). The options are
            this object's and the UEM must be the same in every call.

        Returns
        -------
        dict
            Role -> what was read (:meth:`sides` gives it as :func:`tvseg.evaluate` takes it).
        """
        from tvseg.columns import SegmentColumns, UnitColumns
        from tvseg.readers import read_segment_levels, read_segments, read_units

        read: dict[str, Any] = {}
        ends: dict = {}
        for index, (role, path) in enumerate((self.roles() if paths is None else paths).items()):
            side = role.partition(" ")[2] or role  # reference, units or the system's name
            options: dict[str, Any] = dict(
                encoding=self.encoding,
                columns=self.columns.of(side) if self.columns else None,
                time_origin=self.time_origin.of(side) if self.time_origin else None,
            )
            format = self.format_of(side)
            durations = dict(self.durations or {})
            key = None
            if cache is not None and not every_level:
                alike = not (self.columns or self.time_origin or self.level is not None)
                level = self.level if role == "reference" else None
                key = (*_cache_key(role, side, path, format, ends, alike=alike), level)
            if cache is not None and key is not None and key in cache:
                read[role] = cache[key]
                if role == "reference":
                    ends = show_ends(read[role], uem)
                continue
            with recorded(record, index):
                if path is None:
                    read[role] = UnitColumns.from_frames({}) if role == "units" else SegmentColumns.from_annotations({})
                elif role == "units":
                    read[role] = read_units(path, **options)
                elif role == "reference" and every_level:
                    read[role] = read_segment_levels(
                        path, format=format, uem=uem, side=side, which=side, end=durations or None, **options
                    )
                    ends = show_ends(read[role][None], uem)
                elif role == "reference":
                    read[role] = read_segments(
                        path,
                        format=format,
                        uem=uem,
                        side=side,
                        which=side,
                        level=self.level,
                        end=durations or None,
                        **options,
                    )
                    ends = show_ends(read[role], uem)
                else:
                    # which= picks the side of a chunkseg JSONL file (ignored by the other formats); a chapter
                    # list as a hypothesis ends where the reference's show ends (where the UEM does not say it)
                    read[role] = read_segments(
                        path,
                        format=format,
                        uem=uem,
                        side=side,
                        which="hypothesis",
                        end={**ends, **durations},
                        **options,
                    )
            if cache is not None and key is not None and path is not None:
                cache[key] = read[role]
        return read

    def sides(self, read: Mapping[str, Any]) -> dict[str, Any]:
        """``reference``, ``hypotheses`` (system name -> what was read) and ``units`` (None: none named)
        of what :meth:`read` returned."""
        hypotheses = {name: read[f"hypothesis {name}"] for name in self.hypotheses}
        return {"reference": read["reference"], "hypotheses": hypotheses, "units": read.get("units")}


_READ_ALIKE = ("rttm", "csv", "vtt", "srt")
"""The formats whose segments are read the same as a reference and as a hypothesis (no side of a chunkseg
file, no end of a chapter list, no level), when no per-side option (``--columns``, ``--time-origin``) applies."""


def _cache_key(role: str, side: str, path, format: str | None, ends: Mapping, *, alike: bool = False) -> tuple:
    """What a reading of :meth:`Files.read` depends on besides the options of its :class:`Files`: the role (a
    reference or a hypothesis), the side, the path and, for a chapter list (read only when ``format`` says
    so), the ends of the reference's shows. With ``alike`` (no per-side option, no level), a file of one of
    :data:`_READ_ALIKE` is one reading whatever its role: an annotator's file, read as the reference of its
    evaluation, is not read again as a hypothesis of the others' (its warnings are given once, naming the side
    that read it first)."""
    from tvseg.readers import CHAPTER_FORMATS, FORMATS

    kind = role if role in ("reference", "units") else "hypothesis"
    if alike and kind != "units" and path is not None:
        # these formats are told by the extension alone: no file is opened here
        found = format if format is not None else FORMATS.get(os.path.splitext(str(path))[1].lower())
        if found in _READ_ALIKE and (format is not None or os.path.isfile(path)):
            return "segments", None, path, None
    chapters = tuple(sorted(ends.items())) if kind == "hypothesis" and format in CHAPTER_FORMATS else None
    return kind, side, path, chapters


def read_files(files: Files) -> dict[str, Any]:
    """Read ``files`` in this process, in the order ``tvseg evaluate`` reads them (UEM, reference, each
    system, units, metadata): the keyword arguments ``reference, hypotheses, uem, units, metadata`` of
    :func:`tvseg.evaluate`.

    Raises
    ------
    InputError
        The first file that breaks the policy of ``formats/README.md``.
    """
    uem = files.read_uem()
    return {**files.sides(files.read(uem)), "uem": uem, "metadata": files.read_metadata()}


def show_ends(reference, uem) -> dict:
    """Where each reference show with segments ends, for the shows the UEM does not bound (the end of a
    chapter list read as a hypothesis)."""
    import numpy as np

    from tvseg.columns import SegmentColumns
    from tvseg.readers.uem import regions_of

    if isinstance(reference, SegmentColumns):  # from the arrays, no Annotation built
        counts = np.diff(reference.offsets).tolist()
        ends = reference.ends()
        return {show: ends[show] for show, n in zip(reference.names, counts) if n and regions_of(uem, show) is None}
    return {
        show: annotation.get_timeline().extent().end
        for show, annotation in reference.items()
        if annotation and regions_of(uem, show) is None
    }


@contextmanager
def recorded(record: list | None, index: int):
    """Warnings given inside appended to ``record`` as ``(index, category, message)`` (None: given)."""
    if record is None:
        yield
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    record.extend((index, w.category, str(w.message)) for w in caught)
