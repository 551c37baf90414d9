"""Readers for the timed formats of topic segmentation: RTTM, WebVTT, SRT, CSV, chapter lists, chunkseg's
JSONL, UEM and show metadata.

Segmentations come back as a mapping ``{show_id: pyannote.core.Annotation}`` (one track per segment,
the label being the segment's title or topic id, :data:`NO_LABEL` when it has none), units as a
mapping ``{show_id: pandas.DataFrame}``: :class:`~tvseg.columns.SegmentColumns` and
:class:`~tvseg.columns.UnitColumns`, which hold a corpus as sorted arrays. RTTM and CSV files are
read column-wise when they are regular (:mod:`tvseg.readers.corpus`), else record by record
(:mod:`tvseg.readers.files`), which names the line of any error. Every reader validates at the edge and raises
:class:`~tvseg.errors.InputError` naming the file, the line and the value; the policy is written
in ``formats/README.md``.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from tvseg.columns import SegmentColumns, UnitColumns
from tvseg.errors import InputError, UsageError
from tvseg.progress import iterate
from tvseg.readers.chapter_list import check_ends
from tvseg.readers.corpus import METADATA_BESIDE, fast_segments, fast_units, is_metadata, segment_columns, unit_columns
from tvseg.readers.files import caption_units, check_new_show, segment_records_of_file, units_of_file
from tvseg.readers.jsonl import SIDES
from tvseg.readers.metadata import read_metadata
from tvseg.readers.rttm import check_types
from tvseg.readers.source import check_encoding, warn
from tvseg.readers.uem import UemCrop, crop_to_uem, read_uem
from tvseg.readers.validation import NO_LABEL, to_annotation

if TYPE_CHECKING:
    from pyannote.core import Timeline

__all__ = [
    "NO_LABEL",
    "SegmentColumns",
    "UnitColumns",
    "caption_units",
    "FORMATS",
    "READ_FORMATS",
    "detect_format",
    "list_files",
    "read_segments",
    "read_units",
    "read_uem",
    "read_metadata",
]

FORMATS = {".rttm": "rttm", ".vtt": "vtt", ".srt": "srt", ".csv": "csv", ".jsonl": "jsonl"}
"""File extensions (lower case) and the format each one is read as. ``.txt`` is never guessed."""

PathArg: TypeAlias = "str | os.PathLike[str]"
"""What a reader's ``path`` may be: a path as text or a path object."""

READ_FORMATS = ("rttm", "vtt", "srt", "csv", "jsonl", "txt")
"""Every ``format=``: those of :data:`FORMATS`, and ``txt`` (a chapter list), read only when named."""


def detect_format(path: PathArg, format: str | None = None) -> str:
    """Return the format of a file: ``format`` when given, else the one its extension names."""
    if format is not None:
        if format not in READ_FORMATS:
            raise UsageError(f"unknown format {format!r} (choose from {', '.join(sorted(READ_FORMATS))})")
        return format
    found = FORMATS.get(Path(path).suffix.lower())
    if found is None:
        hint = " (a chapter list: format 'txt')" if Path(path).suffix.lower() == ".txt" else ""
        raise InputError(
            "cannot tell the format from the extension (use .rttm, .vtt, .srt, .csv or .jsonl, or give "
            f"the format: format= in Python, --format on the command line, --from for convert){hint}",
            path=path,
        )
    return found


def _extension_format(file: Path, format: str | None) -> str | None:
    """The format a folder's file is read as (``None``: not read)."""
    suffix = file.suffix.lower()
    if format == "txt":
        return "txt" if suffix == ".txt" else None
    found = FORMATS.get(suffix)
    return found if format is None or found == format else None


def list_files(path: PathArg, *, format: str | None = None) -> list[Path]:
    """The files to read for ``path``: the file itself, or a folder's supported files, sorted.

    A folder is not searched recursively; its files are those whose extension is supported (or,
    when ``format`` is given, whose extension names that format). A folder without any is an
    :class:`InputError`.
    """
    folder = Path(path)
    if not folder.exists():
        raise InputError("no such file or folder", path=folder)
    if not folder.is_dir():
        return [folder]
    files: list[Path] = []
    unread: list[str] = []
    for p in folder.iterdir():  # one listing: a folder may hold tens of thousands of shows
        if p.is_file() and _extension_format(p, format) is not None:
            files.append(p)
        elif not p.name.startswith("."):
            unread.append(p.name + ("/" if p.is_dir() else ""))
    files.sort()
    unread.sort()
    if not files:
        raise InputError(
            "no file to read in this folder (.rttm, .vtt, .srt, .csv or .jsonl; .txt chapter lists with format 'txt')",
            path=folder,
        )
    if unread:
        warn(
            f"not read (sub-folders are not searched; only .rttm, .vtt, .srt, .csv and .jsonl files are read"
            f"{'' if format is None else ' as ' + format}; .txt chapter lists only with format 'txt'): "
            f"{', '.join(unread[:8])}"
            f"{f' and {len(unread) - 8} more' if len(unread) > 8 else ''}",
            path=folder,
        )
    return files


def read_segments(
    path: PathArg,
    *,
    format: str | None = None,
    show: str | None = None,
    types: Collection[str] | None = None,
    uem: dict[str, Timeline] | None = None,
    side: str | None = None,
    which: str | None = None,
    end: float | Mapping[str, float] | None = None,
    encoding: str | None = None,
) -> SegmentColumns:
    """Read topic segmentations from a file or a folder of files.

    Parameters
    ----------
    path : str or os.PathLike
        An RTTM, WebVTT (chapters), SRT, CSV (segments ``show,start,end,label``, or breath
        groups with a ``topic`` column), chunkseg JSONL or chapter list (``format="txt"``) file, or a
        folder of such files (not searched recursively; ``.txt`` files only with ``format="txt"``).
    format : {"rttm", "vtt", "srt", "csv", "jsonl", "txt"}, optional
        Read every file as this format instead of guessing it from the extension. A ``.txt``
        file is never guessed: ``"txt"`` reads a chapter list (``[H:]MM:SS Title`` lines).
    show : str, optional
        The show id of a single VTT, SRT or chapter list file (default: the file's stem).
    which : {"reference", "hypothesis"}, optional
        The side of a chunkseg JSONL file to read (ignored for the other formats). Default: the
        reference, unless ``side`` names a system: ``which`` must then be given (formats/jsonl.md).
    end : float or dict of str to float, optional
        Where the last chapter of a chapter list ends (ignored for the other formats): one number for
        a single file, or ``{show: end}``; else the show's end in ``uem``; else an error.
    types : set of str, optional
        RTTM line types to keep (e.g. ``{"SEGMENT"}``). By default every type that carries a time
        span is kept: SEGMENT, NOSCORE, NO_RT_METADATA, LEXEME, NON-LEX, NON-SPEECH, FILLER, EDIT,
        SU, A/P, SPEAKER (IP and CB mark instants and SPKR-INFO has no times: never kept).
    side : str, optional
        How the warnings name what is read (e.g. ``"reference"``, ``"system_a"``).
    uem : dict of str to Timeline, optional
        Evaluated regions from :func:`read_uem`. One warning per file says how many segments the
        UEM shortened, split and left out, and how many seconds it removed. Segments are cropped to their show's regions; a
        segment wholly outside them is dropped with a :class:`~tvseg.errors.TvsegWarning` naming it.
        A show missing from the UEM is kept uncropped, with a warning.
    encoding : str, optional
        The encoding of every file read (default: UTF-8, or what a file's byte order mark says; a
        mark wins over ``encoding``): any text encoding Python knows, e.g. ``"gb2312"``, ``"cp1251"``,
        ``"cp1252"``, ``"latin-1"``, ``"utf-16-le"``. A show's id stays its file's stem.

    Returns
    -------
    mapping of str to pyannote.core.Annotation (a SegmentColumns)
        One Annotation per show (``uri`` = show id), one track per segment, sorted by start; the
        shows in sorted order. The mapping holds the whole corpus as sorted columns
        (:class:`~tvseg.columns.SegmentColumns`) and builds a show's Annotation when it is first read.

    Raises
    ------
    InputError
        Any file that breaks the policy of ``formats/README.md`` (bytes that do not decode as
        ``encoding`` among them), a show found in two files, or an unknown ``encoding``.
    """
    check_encoding(encoding)
    files = list_files(path, format=format)
    if show is not None and (len(files) != 1 or Path(path).is_dir()):
        raise UsageError("show= names the show of a single VTT, SRT or chapter list file, not of a folder")
    if types is not None:
        check_types(types)
    if which is not None and which not in SIDES:
        raise UsageError(f"which= is 'reference' or 'hypothesis', not {which!r}")
    ends = check_ends(end, folder=Path(path).is_dir())
    in_folder = Path(path).is_dir()
    kinds = _kinds(files, format)
    if uem is None and show is None and kinds is not None and set(kinds) <= {"rttm", "csv"}:
        try:
            fast = fast_segments(files, kinds, types=types, in_folder=in_folder, encoding=encoding)
        except InputError:
            fast = None  # read again below, the careful way, which raises it in its order
        if fast is not None and (len(fast[0]) or not in_folder):
            for message, file in fast[1]:
                warn(message, path=file)
            return fast[0]
    shows: dict[str, tuple[Path, list[Any]]] = {}
    origin: dict[str, tuple[Path, int]] = {}
    for file in iterate(files, desc="reading segmentations"):
        if in_folder and file.suffix.lower() == ".csv" and is_metadata(file, encoding=encoding):
            warn(METADATA_BESIDE, path=file)
            continue
        for show_id, (records, line) in segment_records_of_file(
            file,
            detect_format(file, format),
            show=show,
            types=types,
            which=which,
            side=side,
            end=ends,
            uem=uem,
            encoding=encoding,
        ).items():
            check_new_show(show_id, origin, file, line)
            shows[show_id] = (file, records)
    if not shows and in_folder:
        raise InputError("no segmentation in this folder", path=path)
    if uem is None:
        return segment_columns(shows)
    counts: dict[Path, UemCrop] = {}
    cropped: dict[str, Any] = {}  # show id -> pyannote.core Annotation
    for show_id, (file, records) in shows.items():
        cropped[show_id] = crop_to_uem(
            to_annotation(show_id, records, path=file),
            uem,
            path=file,
            lines=[r.line for r in records],
            side=side,
            counts=counts.setdefault(file, UemCrop()),
        )
    for file, crop in counts.items():
        if crop.changed:
            warn(f"{side + ': ' if side else ''}UEM applied: {crop}", path=file)
    return SegmentColumns.from_annotations(cropped, paths={show_id: file for show_id, (file, _) in shows.items()})


def _kinds(files: Iterable[Path], format: str | None) -> list[str] | None:
    """The format of each file (``None`` when one is not known: the careful path says so)."""
    try:
        return [detect_format(file, format) for file in files]
    except (InputError, UsageError):
        return None


def read_units(
    path: PathArg, *, format: str | None = None, show: str | None = None, encoding: str | None = None
) -> UnitColumns:
    """Read transcript units (breath groups, caption cues) from a file or a folder.

    Parameters
    ----------
    path : str or os.PathLike
        A breath-group CSV (``show,start,end[,text,speaker,topic]``), a captions WebVTT or SRT
        file, or a folder of them.
    format : {"vtt", "srt", "csv"}, optional
        Read every file as this format instead of guessing it from the extension.
    show : str, optional
        The show id of a single VTT or SRT file (default: the file's stem).
    encoding : str, optional
        The encoding of every file read (default: UTF-8, or what a file's byte order mark says; a
        mark wins over ``encoding``): any text encoding Python knows, e.g. ``"gb2312"``, ``"cp1251"``,
        ``"cp1252"``, ``"latin-1"``, ``"utf-16-le"``. A show's id stays its file's stem.

    Returns
    -------
    mapping of str to pandas.DataFrame (a UnitColumns)
        The shows in sorted order, held as sorted columns (:class:`~tvseg.columns.UnitColumns`), one
        frame per show built when it is first read, one row per unit sorted by start, with the columns ``start, end``
        (float seconds) and, when the source has them, ``text, speaker, topic`` (``speaker``
        of a caption comes from its ``<v Name>`` voice tag). Caption cues that overlap are made
        into units that do not (see :func:`caption_units`), with a warning.

    Raises
    ------
    InputError
        Overlapping breath groups, any file that breaks the policy of ``formats/README.md``, an
        RTTM or a segments table (they hold no units), a show found in two files, or an unknown
        ``encoding``.
    """
    check_encoding(encoding)
    files = list_files(path, format=format)
    if show is not None and (len(files) != 1 or Path(path).is_dir()):
        raise UsageError("show= names the show of a single VTT or SRT file, not of a folder")
    if show is None and _kinds(files, format) == ["csv"] * len(files):
        try:
            fast = fast_units(files, encoding=encoding)
        except InputError:
            fast = None  # read again below, the careful way, which raises it in its order
        if fast is not None:
            return fast
    shows: dict[str, tuple[Path, Any, Any]] = {}  # show id -> (file, frame, source lines)
    origin: dict[str, tuple[Path, int]] = {}
    for file in iterate(files, desc="reading units"):
        for show_id, (frame, line, lines) in units_of_file(
            file, detect_format(file, format), show=show, encoding=encoding
        ).items():
            check_new_show(show_id, origin, file, line)
            shows[show_id] = (file, frame, lines)
    return unit_columns(shows)
