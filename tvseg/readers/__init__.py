"""Readers for the timed formats of topic segmentation: RTTM, WebVTT, SRT, CSV, chapter lists, chunkseg's
JSONL, UEM and show metadata.

Segmentations come back as a :class:`~tvseg.columns.SegmentColumns`, units as a
:class:`~tvseg.columns.UnitColumns`: a corpus as sorted arrays, and a mapping ``{show_id:
pyannote.core.Annotation}`` (one track per segment, the label being the segment's title or topic id,
:data:`NO_LABEL` when it has none) or ``{show_id: pandas.DataFrame}``. Each format has one reader that
validates as it reads (RTTM and CSV column-wise: :mod:`tvseg.readers.rttm`, :mod:`tvseg.readers.tables`),
and :mod:`tvseg.readers.corpus` checks the spans of every show and joins the files. Every reader raises
:class:`~tvseg.errors.InputError` naming the file, the line and the value, at the first error in the
order of the files; the policy is written in ``formats/README.md``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from tvseg.arguments import check_ends, check_path, check_uem
from tvseg.columns import SegmentColumns, UnitColumns
from tvseg.errors import InputError, UsageError
from tvseg.readers.corpus import END_SCORE, SCORE, Rows, join, read_files
from tvseg.readers.formats import (
    AUDIO_FORMATS,
    BROADCAST_FORMATS,
    CHAPTER_LLAMA,
    JSON_FORMATS,
    PARQUET,
    PODCAST_FORMATS,
    SUBTITLE_FORMATS,
    SUBTITLE_KINDS,
    TEXT_CORPUS_FORMATS,
)
from tvseg.readers.levels import LEVEL, NO_LEVEL, at_level, level_option, levels_in, without_levels
from tvseg.readers.metadata import read_metadata
from tvseg.readers.parts import part_of
from tvseg.readers.rttm import check_types, read_rttm
from tvseg.readers.source import check_encoding, warn
from tvseg.readers.tables import Table, read_table, table_kind, table_rows
from tvseg.readers.time_origin import shift_rows
from tvseg.readers.uem import UemCrop, crop_show, read_uem, regions_of, warn_not_in_uem
from tvseg.readers.validation import NO_LABEL

if TYPE_CHECKING:
    from pyannote.core import Timeline

    from tvseg.readers.mapped_columns import ColumnMap

# The reader of each format other than RTTM and CSV is imported when a file of that format is read
# (tvseg.readers.formats): a command pays for the imports of the readers it uses.

__all__ = [
    "NO_LABEL",
    "SegmentColumns",
    "UnitColumns",
    "FORMATS",
    "READ_FORMATS",
    "detect_format",
    "list_files",
    "read_segments",
    "segment_levels",
    "read_segment_levels",
    "read_units",
    "read_uem",
    "read_metadata",
]

FORMATS = {
    ".rttm": "rttm",
    ".vtt": "vtt",
    ".srt": "srt",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".json": "json",
    ".src_sgm": "src_sgm",
    PARQUET: "ytseg",
    **BROADCAST_FORMATS,
    ".ffmetadata": "ffmetadata",
    ".ffmeta": "ffmetadata",
    **AUDIO_FORMATS,
    **SUBTITLE_FORMATS,
}
"""File extensions (lower case) and the format each one is read as. ``.txt`` is never guessed; a ``.json``
file is read as the JSON shape it has (``vidchapters``, ``anet`` or ``json``: :mod:`tvseg.readers.video_chapters`); a
``.parquet`` file as YTSeg's audio configuration (:mod:`tvseg.readers.ytseg`)."""

_EXTENSIONS = ", ".join(FORMATS)
"""The extensions read from a folder, for messages."""

PathArg: TypeAlias = "str | os.PathLike[str]"
"""What a reader's ``path`` may be: a path as text or a path object."""

READ_FORMATS = (
    "rttm",
    "vtt",
    "srt",
    "csv",
    "jsonl",
    "txt",
    "youtube",
    "ttml",
    "scc",
    "stl",
    CHAPTER_LLAMA,
    *SUBTITLE_KINDS,
    *JSON_FORMATS,
    *TEXT_CORPUS_FORMATS,
    *PODCAST_FORMATS,
    "src_sgm",
    "trecvid",
    "ytseg",
)
"""Every ``format=``: those of :data:`FORMATS`, ``txt`` (a chapter list) and ``youtube`` (a YouTube description,
read as VidChapters reads it), read only when named, and the JSON shapes ``vidchapters``, ``anet``, ``json``,
``chapter-llama`` (Chapter-Llama's output, a file per video; its folder of folders is read as one);
the text corpora ``choi``, ``wiki727k``, ``segeval``, ``nltk`` (:mod:`tvseg.readers.text_corpora`), read only when named;
``ytseg`` (YTSeg's files, :mod:`tvseg.readers.ytseg`), also recognised by shape in ``.json`` and ``.jsonl`` files."""

_TEXT_FORMATS = ("txt", "youtube")
CHAPTER_FORMATS = (*_TEXT_FORMATS, CHAPTER_LLAMA)
"""The formats of chapter lists (read only when named): a chapter list's last chapter ends where it is told."""

_SEGMENTS_ONLY = {
    "rttm": "an RTTM file",
    "jsonl": "a chunkseg JSONL file",
    "txt": "a chapter list",
    "youtube": "a chapter list",
    CHAPTER_LLAMA: "Chapter-Llama's output",
    **dict.fromkeys(JSON_FORMATS, "a JSON segmentation"),
    **dict.fromkeys(PODCAST_FORMATS, "a file of podcast chapters"),
    "src_sgm": "a TRECVID reference (.src_sgm)",
    "trecvid": "a TRECVID story segmentation submission",
    "ytseg": "a YTSeg file",
}
"""The formats that hold segments only, as the message refusing them as units names them."""

METADATA_BESIDE = "a metadata table beside the segmentations: not read as segments (give it with --metadata)"


def detect_format(path: PathArg, format: str | None = None, *, encoding: str | None = None) -> str:
    """Return the format of a file: ``format`` when given, else the one its extension names (for ``.json``,
    the JSON shape the file has, read in ``encoding``: :func:`~tvseg.readers.video_chapters.sniff_json`; a
    ``.json`` or ``.jsonl`` file of YTSeg records: ``"ytseg"``, :func:`~tvseg.readers.ytseg.sniff_ytseg`)."""
    if format is not None:
        if format not in READ_FORMATS:
            raise UsageError(f"unknown format {format!r} (choose from {', '.join(sorted(READ_FORMATS))})")
        return format
    suffix = Path(path).suffix.lower()
    found = FORMATS.get(suffix)
    if found in ("rttm", "csv", "vtt", "srt"):  # told by the extension alone
        return found
    if found in ("json", "jsonl"):
        from tvseg.readers.video_chapters import sniff_json
        from tvseg.readers.ytseg import sniff_ytseg

        if sniff_ytseg(path, encoding=encoding):
            return "ytseg"
        if found == "json":
            return sniff_json(path, encoding=encoding)
    if found is None and suffix == ".txt":
        from tvseg.readers.podcast import is_ffmetadata

        if is_ffmetadata(Path(path)):
            return "ffmetadata"  # an FFmpeg metadata file: its header says so
    if suffix == ".xml":
        from tvseg.readers.trecvid import is_submission

        if is_submission(path):
            return "trecvid"
    if found is None:
        from tvseg.readers.broadcast_captions import sniff
        from tvseg.readers.subtitles import subtitle_hint

        hint = subtitle_hint(path) or (" (a chapter list: format 'txt')" if suffix == ".txt" else sniff(path))
        if suffix == ".mp4":
            hint = " (the chapters of an MP4 file: format 'mp4')"
        raise InputError(
            "cannot tell the format from the extension (use .rttm, .vtt, .srt, .csv, .jsonl, .json, .ttml, .dfxp, .xml, "
            ".scc, .stl, .sbv, .ass, .ssa, .sub, .smi or .sami, or give "
            f"the format: format= in Python, --format on the command line, --from for convert){hint}",
            path=path,
        )
    return found


def _segeval_json(path: PathArg, *, encoding: str | None) -> bool:
    """Whether ``path`` (``PATH#CODER`` too) is a ``.json`` file holding segeval's dataset."""
    text = os.fspath(path).lower()
    if not (text.endswith(".json") or text.rpartition("#")[0].endswith(".json")):
        return False  # no .json file, with a coder or without
    from tvseg.readers.text_corpora import split_coder
    from tvseg.readers.video_chapters import sniff_json

    base = Path(split_coder(path)[0])
    if base.suffix.lower() != ".json" or not base.is_file():
        return False
    try:
        return sniff_json(base, encoding=encoding) == "segeval"
    except InputError:
        return False  # read again by its reader, which gives the error


def _extension_format(file: Path, format: str | None) -> str | None:
    """The format a folder's file is read as (``None``: not read)."""
    suffix = file.suffix.lower()
    if format in TEXT_CORPUS_FORMATS:
        from tvseg.readers.text_corpora import is_corpus_file

        return format if is_corpus_file(file, format) else None
    if format in _TEXT_FORMATS:
        return format if suffix == ".txt" else None
    if format in JSON_FORMATS or format in ("podcast", CHAPTER_LLAMA):
        return format if suffix == ".json" else None
    if format == "ffmetadata" and suffix == ".txt":
        return format
    if format == "mp4" and suffix == ".mp4":
        return format
    if format == "ytseg":
        return format if suffix in (".json", ".jsonl", PARQUET) else None
    found = FORMATS.get(suffix)
    if suffix == ".xml" and format in (None, "trecvid"):
        from tvseg.readers.trecvid import is_submission

        if is_submission(file):
            return "trecvid"
    if found == "microdvd" and format is None and not _starts_like_microdvd(file):
        return None  # a VobSub .sub (binary, beside its .idx): not a caption file tvseg reads
    return found if format is None or found == format else None


def _starts_like_microdvd(file: Path) -> bool:
    """A MicroDVD file's first line starts with ``{frame}``; a VobSub ``.sub`` is an MPEG stream."""
    try:
        with open(file, "rb") as handle:
            head = handle.read(64)
    except OSError:
        return True  # read by its reader, which names the error
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


def _chapter_llama_folder(folder: Path, *, named: bool) -> list[Path]:
    """The ``<video_id>.json`` files of Chapter-Llama's output folder (``<exp>/<video_id[:2]>/<video_id>.json``,
    as its ``tools/results/metrics.py`` globs ``*/*.json``), sorted by name; none when the first is not of
    that shape (``named``: the format was given, so every ``.json`` file is read as it)."""
    nested = sorted(folder.glob("*/*.json"), key=lambda p: (p.name, str(p)))
    if not nested or named:
        return nested
    from tvseg.readers.video_chapters import sniff_json

    try:
        return nested if sniff_json(nested[0]) == CHAPTER_LLAMA else []
    except InputError:
        return []


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
    part = part_of(folder)
    if part is not None and part.names is not None:
        return [folder / name for name in part.names]
    files: list[Path] = []
    unread: list[str] = []
    with os.scandir(folder) as entries:  # one listing, its entries' types known: tens of thousands of shows
        for entry in entries:
            p = folder / entry.name
            if entry.is_file() and _extension_format(p, format) is not None:
                files.append(p)
            elif not entry.name.startswith("."):
                unread.append(entry.name + ("/" if entry.is_dir() else ""))
    files.sort(key=lambda p: p.name)  # one folder: as sorting the paths, without comparing their parts
    unread.sort()
    if not files and format in (None, CHAPTER_LLAMA):
        nested = _chapter_llama_folder(folder, named=format == CHAPTER_LLAMA)
        if nested:
            return nested
    if not files:
        raise InputError(
            f"no file to read in this folder ({_EXTENSIONS}; .txt chapter lists with format 'txt')",
            path=folder,
        )
    if unread:
        warn(
            f"not read (sub-folders are not searched; only {_EXTENSIONS} files are read"
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
    columns: str | ColumnMap | None = None,
    time_origin: float | Mapping[str, float] | None = None,
    level: int | None = None,
) -> SegmentColumns:
    """Read topic segmentations from a file or a folder of files.

    Parameters
    ----------
    path : str or os.PathLike
        An RTTM, WebVTT (chapters), SRT, CSV (segments ``show,start,end,label``, or breath
        groups with a ``topic`` column), chunkseg JSONL, JSON (VidChapters' annotations,
        ActivityNet-style predictions, ``{show: [{start, end, title}]}``), broadcast captions (TTML,
        ``.ttml``, ``.dfxp``, ``.xml``; SCC; EBU STL: one segment per caption, through ttconv, ``pip
        install 'tvseg[broadcast]'``), subtitles (SBV, SubStation Alpha, MicroDVD, SAMI, MPL2, TMP: one segment
        per cue, all but SBV through pysubs2, ``pip install 'tvseg[subtitles]'``) or chapter list
        (``format="txt"``; Chapter-Llama's output, ``format="chapter-llama"`` or by its shape) file, or a folder
        of such files (not searched recursively but for Chapter-Llama's folder of folders; ``.txt`` files only
        with ``format="txt"``); a text corpus with its format named; podcast chapters
        (:mod:`tvseg.readers.podcast`): Podcast 2.0 JSON chapters (a ``.json`` file of that shape), FFmpeg's
        FFMETADATA (``.ffmetadata``, ``.ffmeta``, or a ``.txt`` file with its header), the ID3 chapters of an
        ``.mp3`` file and the chapter list of an ``.m4a``, ``.m4b`` (or, with ``format="mp4"``, ``.mp4``) file
        (through mutagen: ``pip install 'tvseg[podcast]'``); TRECVID 2003-2004 story segmentation: a ``.src_sgm``
        reference and an XML submission (:mod:`tvseg.readers.trecvid`); YTSeg's files (:mod:`tvseg.readers.ytseg`).
    format : {"rttm", "vtt", "srt", "csv", "jsonl", "txt", "youtube", "ttml", "scc", "stl", "chapter-llama", \
"sbv", "ass", "ssa", "microdvd", "mpl2", "tmp", "sami", "vidchapters", "anet", "json", "choi", "wiki727k", \
"segeval", "nltk", "podcast", "ffmetadata", "mp3", "mp4", "src_sgm", "trecvid", "ytseg"}, optional
        Read every file as this format instead of guessing it from the extension (:data:`READ_FORMATS`).
        A ``.txt`` file is never guessed: ``"txt"`` reads a chapter list (``[H:]MM:SS Title`` lines),
        ``"youtube"`` a YouTube description as VidChapters reads it. A ``.json`` file is read as the
        shape it has (``"vidchapters"``, ``"anet"``, ``"json"``, or segeval's dataset), a ``.json`` or ``.jsonl``
        file of YTSeg records as ``"ytseg"`` (:mod:`tvseg.readers.ytseg`). The text corpora
        ``"choi"``, ``"wiki727k"``, ``"segeval"``, ``"nltk"`` (:mod:`tvseg.readers.text_corpora`) are
        read only when named. ``"src_sgm"`` (``.src_sgm``) and ``"trecvid"`` (an ``.xml`` file whose root is
        ``storySegmentationSubmission``) are TRECVID's story files and submissions (``formats/trecvid.md``).
    show : str, optional
        The show id of a single VTT, SRT, TTML, SCC, STL, chapter list or podcast chapters file (default: the
        file's stem).
    which : {"reference", "hypothesis"}, optional
        The side of a chunkseg JSONL file to read (ignored for the other formats). Default: the
        reference, unless ``side`` names a system: ``which`` must then be given (formats/jsonl.md).
    end : float or dict of str to float, optional
        Where the last chapter of a chapter list (or of Podcast 2.0 chapters whose last has no ``endTime``)
        ends (ignored for the other formats): one number for
        a single file, or ``{show: end}``; else the show's end in ``uem``; else an error.
    types : set of str, optional
        RTTM line types to keep (e.g. ``{"SEGMENT"}``). By default every type that carries a time
        span (:data:`~tvseg.readers.rttm.SPAN_TYPES`); IP, CB and SPKR-INFO are never kept.
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
    columns : str, optional
        Read every CSV file and every ``.json`` list of records through this mapping,
        ``"show=COL,start=COL,end=COL,title=COL"`` (:mod:`tvseg.readers.mapped_columns`, ``formats/columns.md``).
    time_origin : float or dict of str to float, optional
        Each show's origin on the clock in seconds (one for every show, or ``{show: seconds}``), subtracted
        from its times (:mod:`tvseg.readers.time_origin`); a time before it is an error.
    level : int, optional
        Read a hierarchical reference at this level (:mod:`tvseg.readers.levels`): the segments of a
        deeper level join the segment before them. The levels are Wiki-727K's headers, a CSV column read
        with ``columns="...,level=COL"`` or a JSON segmentation's ``level`` fields; every file read must
        have them. Default: every segment as it is (Wiki-727K: levels 1 and 2, as its loader reads it).

    Returns
    -------
    mapping of str to pyannote.core.Annotation (a SegmentColumns)
        One Annotation per show (``uri`` = show id), one track per segment, sorted by start; the
        shows in sorted order. The mapping holds the whole corpus as sorted columns
        (:class:`~tvseg.columns.SegmentColumns`) and builds a show's Annotation when it is looked up.

    Raises
    ------
    InputError
        Any file that breaks the policy of ``formats/README.md`` (bytes that do not decode as
        ``encoding`` among them), a show found in two files, or an unknown ``encoding``; with ``level``, a
        file without levels, a level that is not a positive integer; a ``path`` that is not a str or an
        ``os.PathLike``, a ``uem`` that is not a mapping of pyannote.core Timelines.
    """
    options = dict(format=format, show=show, types=types, uem=uem, side=side, which=which, end=end)
    found = _read_levels(path, [level], encoding=encoding, columns=columns, time_origin=time_origin, **options)
    return next(iter(found.values()))


def read_segment_levels(
    path: PathArg,
    *,
    format: str | None = None,
    uem: dict[str, Timeline] | None = None,
    side: str | None = None,
    which: str | None = None,
    end: float | Mapping[str, float] | None = None,
    encoding: str | None = None,
    columns: str | ColumnMap | None = None,
    time_origin: float | Mapping[str, float] | None = None,
) -> dict[int | None, SegmentColumns]:
    """A hierarchical reference as it is and at each of its levels, each file read once (``--level all``).

    Returns
    -------
    dict
        ``None`` -> :func:`read_segments` of ``path``, then each level :func:`segment_levels` finds, in
        increasing order -> :func:`read_segments` of ``path`` at that level (the same options).

    Raises
    ------
    InputError
        As :func:`read_segments`, and a file without levels (:func:`segment_levels`).
    """
    options: dict[str, Any] = dict(format=format, show=None, types=None, uem=uem, side=side, which=which, end=end)
    options.update(encoding=encoding, columns=columns, time_origin=time_origin)
    if format in TEXT_CORPUS_FORMATS:  # their levels are read with the text: a reading per level
        found: dict[int | None, SegmentColumns] = {None: read_segments(path, **options)}
        for level in segment_levels(path, format=format, encoding=encoding, columns=columns):
            found[level] = read_segments(path, level=level, **options)
        return found
    return _read_levels(path, None, **options)


_OPTIONS = ("format", "show", "types", "uem", "side", "which", "end", "encoding", "columns", "time_origin")
"""The options of :func:`read_segments` besides ``level``, all given to :func:`_read_levels`."""


def _read_levels(path: Any, levels: Any, **options: Any) -> dict[int | None, SegmentColumns]:
    """:func:`read_segments` of ``path`` with ``options`` (:data:`_OPTIONS`) at each of ``levels`` (None: as
    it is, then every level the files have, :func:`read_segment_levels`), each file read once."""
    format, show, types, uem, side, which, end, encoding, columns, time_origin = (options[k] for k in _OPTIONS)
    check_path("path", path)
    check_uem(uem)
    check_encoding(encoding)
    if levels is not None:
        levels = [level_option(level) for level in levels]
    if format is None and _segeval_json(path, encoding=encoding):
        format = "segeval"
    coder = None
    if format == "segeval":
        from tvseg.readers.text_corpora import split_coder

        path, coder = split_coder(path)
    if format in TEXT_CORPUS_FORMATS and (uem is not None or time_origin is not None):
        raise UsageError(f"a {format} corpus is in sentences, not seconds: no UEM, no time origin")
    files = list_files(path, format=format)
    in_folder = Path(path).is_dir()
    if show is not None and (len(files) != 1 or in_folder):
        raise UsageError("show= names the show of a single VTT, SRT or chapter list file, not of a folder")
    if types is not None:
        check_types(types)
    if which is not None and which not in ("reference", "hypothesis"):  # tvseg.readers.jsonl.SIDES
        raise UsageError(f"which= is 'reference' or 'hypothesis', not {which!r}")
    ends = check_ends(end, folder=in_folder)
    mapping = _column_map(columns)
    kinds = {file: _mapped_kind(file, format, mapping, encoding=encoding) for file in files}
    captions = ("vtt", "srt", "ttml", "scc", "stl", *SUBTITLE_KINDS)
    if show is not None and kinds[files[0]] not in (*captions, "txt", "youtube", CHAPTER_LLAMA, *PODCAST_FORMATS):
        raise UsageError(f"show= only applies to VTT, SRT and chapter list files, not to {kinds[files[0]].upper()}")
    rttm = [file for file in files if kinds[file] == "rttm"]

    cached: dict[tuple[Path, int | None], Rows | None] = {}

    def read_at(level: int | None) -> Callable[[Path], Rows | None]:
        def read(file: Path) -> Rows | None:
            text = kinds[file] in TEXT_CORPUS_FORMATS  # read at its level (a wiki727k file's headers)
            key = (file, level if text else None)
            if key not in cached:
                cached[key] = read_one(file, level)
            rows = cached[key]
            if rows is None:
                return rows
            if level is not None and kinds[file] != "wiki727k":
                if LEVEL not in rows.texts:
                    raise InputError(NO_LEVEL, path=file)
                rows = at_level(rows, level)
            return shift_rows(without_levels(rows), time_origin, side=side)

        return read

    def read_one(file: Path, level: int | None) -> Rows | None:
        kind = kinds[file]
        if kind in TEXT_CORPUS_FORMATS:
            from tvseg.readers.text_corpora import text_corpus_rows

            return text_corpus_rows(file, format=kind, coder=coder, encoding=encoding, level=level)
        if kind == "records":
            return _mapped_rows(file, format, mapping, encoding=encoding, units=False)
        if kind == "jsonl":
            from tvseg.readers.jsonl import jsonl_records

            return Rows.of_file(file, jsonl_records(file, which=which, side=side, encoding=encoding))
        if kind in JSON_FORMATS:
            from tvseg.readers.video_chapters import json_rows

            return json_rows(file, format=kind, encoding=encoding)
        if kind == "ytseg":
            from tvseg.readers.ytseg import ytseg_rows

            return ytseg_rows(file, encoding=encoding, in_folder=in_folder)
        name = show or file.stem
        if kind in PODCAST_FORMATS:
            from tvseg.readers.podcast import podcast_rows

            return podcast_rows(file, format=kind, show=name, end=ends, uem=uem, encoding=encoding)
        if kind in CHAPTER_FORMATS:
            from tvseg.readers.chapter_list import chapter_records
            from tvseg.readers.video_chapters import chapter_llama_chapters

            chapters = chapter_llama_chapters(file, encoding=encoding) if kind == CHAPTER_LLAMA else None
            records = chapter_records(
                file, show=name, end=ends, uem=uem, encoding=encoding, youtube=kind == "youtube", chapters=chapters
            )
            return Rows.of_file(file, {name: records})
        if kind in ("vtt", "srt"):
            from tvseg.readers.webvtt import cue_segments, read_cues

            return cue_segments(read_cues(file, format=kind, encoding=encoding), path=file, show=name)
        if kind in ("ttml", "scc", "stl"):
            from tvseg.readers.broadcast_captions import broadcast_segments

            return broadcast_segments(file, format=kind, show=name)
        if kind in SUBTITLE_KINDS:
            from tvseg.readers.subtitles import read_subtitles
            from tvseg.readers.webvtt import cue_segments

            return cue_segments(read_subtitles(file, format=kind, encoding=encoding), path=file, show=name)
        if kind in ("src_sgm", "trecvid"):  # TRECVID 2003-2004 story segmentation (formats/trecvid.md)
            from tvseg.readers.trecvid import src_sgm_records, submission_records

            if kind == "src_sgm":
                return Rows.of_file(file, src_sgm_records(file, show=name, encoding=encoding))
            return Rows.of_file(file, submission_records(file, end=ends, uem=uem))
        return _segment_rows(file, read_table(file, encoding=encoding), in_folder=in_folder)

    def corpus_at(level: int | None) -> SegmentColumns:
        batch = None
        if rttm and level is not None:
            raise InputError(NO_LEVEL, path=rttm[0])
        if rttm:
            batch_rows, batch_error = read_rttm(rttm, types=types, encoding=encoding)
            batch = (set(rttm), shift_rows(batch_rows, time_origin, side=side), batch_error)
        parts, corpus = _segments(files, read_at(level), batch=batch)
        if in_folder and not any(part.names for part in parts):
            raise InputError("no segmentation in this folder", path=path)
        if format in TEXT_CORPUS_FORMATS:
            from tvseg.readers.text_corpora import in_units

            return in_units(corpus)
        if uem is None:
            return corpus
        position = {file: k for k, file in enumerate(files)}
        read_order = sorted(
            (position[file], k, name) for part in parts for k, (name, file) in enumerate(zip(part.names, part.files))
        )
        return _crop(corpus, [name for _, _, name in read_order], uem, side=side)

    if levels is not None:
        return {level: corpus_at(level) for level in levels}
    found: dict[int | None, SegmentColumns] = {None: corpus_at(None)}
    every: set[int] = set()
    for file in files:  # the levels of each file, as segment_levels finds them
        rows = None if file in rttm else cached.get((file, None))
        if rows is None or not levels_in(rows):
            raise InputError(NO_LEVEL, path=file)
        every |= levels_in(rows)
    for level in sorted(every):
        found[level] = corpus_at(level)
    return found


def segment_levels(
    path: PathArg,
    *,
    format: str | None = None,
    encoding: str | None = None,
    columns: str | ColumnMap | None = None,
) -> list[int]:
    """The levels of a hierarchical reference (:mod:`tvseg.readers.levels`), in increasing order: those of
    Wiki-727K's headers, of a CSV column read with ``columns="...,level=COL"``, or of a JSON segmentation's
    ``level`` fields, as :func:`read_segments` reads them.

    Raises
    ------
    InputError
        A file without levels, or one :func:`read_segments` refuses.
    """
    check_encoding(encoding)
    mapping = _column_map(columns)
    found: set[int] = set()
    for file in list_files(path, format=format):
        kind = _mapped_kind(file, format, mapping, encoding=encoding)
        if kind == "wiki727k":
            from tvseg.readers.source import read_text, split_lines
            from tvseg.readers.text_corpora import wiki727k_levels

            levels = wiki727k_levels(split_lines(read_text(file, encoding=encoding)), path=file)
        elif kind == "records":
            levels = levels_in(_mapped_rows(file, format, mapping, encoding=encoding, units=False))
        elif kind == "json":
            from tvseg.readers.video_chapters import json_rows

            levels = levels_in(json_rows(file, format=kind, encoding=encoding))
        else:
            levels = set()
        if not levels:
            raise InputError(NO_LEVEL, path=file)
        found |= levels
    return sorted(found)


def _crop(columns: SegmentColumns, shows: list[str], uem: dict[str, Timeline], *, side: str | None) -> SegmentColumns:
    """The segments cropped to their show's UEM regions on the arrays (:func:`~tvseg.readers.uem.crop_show`),
    ``shows`` in the order they were read, with one warning per file that the UEM changed (a show the UEM
    lacks is kept whole, with a warning: :func:`~tvseg.readers.uem.warn_not_in_uem`)."""
    counts: dict[Any, UemCrop] = {}
    kept: dict[str, list[tuple[float, float, str, int]]] = {}
    masks: list[np.ndarray] = []  # which segments of each show are kept, in the order of ``kept``
    assert columns.line is not None  # the readers know the line of every segment
    for show in shows:
        span, path = columns.rows(show), columns.path(show)
        start, end, label, line = columns.start[span], columns.end[span], columns.label[span], columns.line[span]
        crop = counts.setdefault(path, UemCrop())
        regions = regions_of(uem, show)
        if regions is None:
            warn_not_in_uem(show, path=path, lines=line.tolist(), side=side)
            k = np.ones(len(start), dtype=bool)
        else:
            c = crop_show(
                show, start, end, label.tolist(), regions, path=path, lines=line.tolist(), side=side, counts=crop
            )
            start, end, k = c.start, c.end, np.asarray(c.kept, dtype=bool)
        kept[show] = list(zip(start[k].tolist(), end[k].tolist(), label[k].tolist(), line[k].tolist()))
        masks.append(k)
    for file, crop in counts.items():
        if crop.changed:
            warn(f"{side + ': ' if side else ''}UEM applied: {crop}", path=file)
    rows = Rows.of_file(None, kept)
    rows.files = [columns.path(show) for show in kept]
    following = columns.end_scores()
    if columns.score is not None and following is not None:
        own = [columns.score[columns.rows(show)][mask] for show, mask in zip(kept, masks)]
        rows.texts[SCORE] = np.concatenate([*own, np.zeros(0)])
        # the boundary at a segment's end keeps the score of the segment after it as read, even when the
        # crop leaves that segment out
        after = [following[columns.rows(show)][mask] for show, mask in zip(kept, masks)]
        rows.texts[END_SCORE] = np.concatenate([*after, np.zeros(0)])
    result = join([rows])
    assert isinstance(result, SegmentColumns)
    return result


def read_units(
    path: PathArg,
    *,
    format: str | None = None,
    show: str | None = None,
    encoding: str | None = None,
    columns: str | ColumnMap | None = None,
    time_origin: float | Mapping[str, float] | None = None,
) -> UnitColumns:
    """Read transcript units (breath groups, caption cues) from a file or a folder.

    Parameters
    ----------
    path : str or os.PathLike
        A breath-group CSV (``show,start,end[,text,speaker,topic]``), a captions WebVTT or SRT
        file, broadcast captions (TTML, ``.ttml``, ``.dfxp``, ``.xml``; SCC; EBU STL: through ttconv,
        ``pip install 'tvseg[broadcast]'``), subtitles (SBV, SubStation Alpha, MicroDVD, SAMI, MPL2, TMP; all
        but SBV through pysubs2, ``pip install 'tvseg[subtitles]'``), a ``.json`` list of records read through
        ``columns``, or a folder of them.
    format : {"vtt", "srt", "csv", "ttml", "scc", "stl", "sbv", "ass", "ssa", "microdvd", "mpl2", "tmp", \
"sami", "json"}, optional
        Read every file as this format instead of guessing it from the extension (``"json"``: with
        ``columns``).
    show : str, optional
        The show id of a single VTT, SRT, TTML, SCC or STL file (default: the file's stem).
    encoding : str, optional
        The encoding of every file read, as for :func:`read_segments`.
    columns : str, optional
        Read every CSV file and ``.json`` list of records through this mapping (``show=, start=, end=,
        text=, speaker=, topic=``), as for :func:`read_segments`.
    time_origin : float or dict of str to float, optional
        Each show's origin on the clock, subtracted from its times, as for :func:`read_segments`.

    Returns
    -------
    mapping of str to pandas.DataFrame (a UnitColumns)
        The shows in sorted order, held as sorted columns (:class:`~tvseg.columns.UnitColumns`), one
        frame per show built when it is looked up, one row per unit sorted by start, with the columns ``start, end``
        (float seconds) and, when the source has them, ``text, speaker, topic`` (``speaker``
        of a caption comes from its ``<v Name>`` voice tag). Caption cues that overlap are made
        into units that do not (see :func:`~tvseg.readers.webvtt.caption_units`), with a warning.

    Raises
    ------
    InputError
        Overlapping breath groups, any file that breaks the policy of ``formats/README.md``, an
        RTTM or a segments table (they hold no units), a show found in two files, or an unknown
        ``encoding``; a ``path`` that is not a str or an ``os.PathLike``.
    """
    check_path("path", path)
    check_encoding(encoding)
    if format in TEXT_CORPUS_FORMATS:
        raise UsageError(f"a {format} corpus is read with read_segments: its sentences are its units")
    files = list_files(path, format=format)
    if show is not None and (len(files) != 1 or Path(path).is_dir()):
        raise UsageError("show= names the show of a single VTT or SRT file, not of a folder")
    mapping = _column_map(columns)

    def read(file: Path) -> Rows:
        return shift_rows(read_one(file), time_origin, side="units")

    def read_one(file: Path) -> Rows:
        kind = _mapped_kind(file, format, mapping, encoding=encoding)
        if kind == "records":
            return _mapped_rows(file, format, mapping, encoding=encoding, units=True)
        if kind in _SEGMENTS_ONLY:
            raise InputError(f"{_SEGMENTS_ONLY[kind]} holds segments, not transcript units", path=file)
        if show is not None and kind not in ("vtt", "srt", "ttml", "scc", "stl", *SUBTITLE_KINDS):
            raise UsageError(f"show= only applies to VTT and SRT files, not to {kind.upper()}")
        if kind in ("ttml", "scc", "stl"):
            from tvseg.readers.broadcast_captions import broadcast_units

            return broadcast_units(file, format=kind, show=show or file.stem)
        if kind in SUBTITLE_KINDS:
            from tvseg.readers.subtitles import read_subtitles
            from tvseg.readers.webvtt import cue_units

            return cue_units(read_subtitles(file, format=kind, encoding=encoding), path=file, show=show or file.stem)
        if kind != "csv":
            from tvseg.readers.webvtt import caption_units

            return caption_units(file, format=kind, show=show or file.stem, encoding=encoding)
        return _unit_rows(file, read_table(file, encoding=encoding))

    return _units(files, read)


def _mapped_rows(
    file: Path, format: str | None, mapping: ColumnMap | None, *, encoding: str | None, units: bool
) -> Rows:
    """The rows of a file read through a column mapping: a ``.json`` list of records, else a CSV table."""
    from tvseg.readers.mapped_columns import json_mapped_rows, table_mapped_rows

    assert mapping is not None
    if file.suffix.lower() == ".json" or format in JSON_FORMATS:
        return json_mapped_rows(file, mapping, encoding=encoding, units=units)
    return table_mapped_rows(read_table(file, encoding=encoding), mapping, units=units)


def _column_map(columns: str | ColumnMap | None) -> ColumnMap | None:
    """``columns=`` checked and parsed (:func:`~tvseg.readers.mapped_columns.parse_columns`), or ``None``."""
    if columns is None:
        return None
    from tvseg.readers.mapped_columns import parse_columns

    return parse_columns(columns)


def _mapped_kind(file: Path, format: str | None, mapping: ColumnMap | None, *, encoding: str | None) -> str:
    """``"records"`` for a file read through a column mapping (a CSV, or a ``.json`` file read as a list of
    records), else its format (:func:`detect_format`)."""
    if mapping is not None:
        suffix = file.suffix.lower()
        if format in ("csv", "json") or (format is None and suffix in (".csv", ".json")):
            return "records"
    return detect_format(file, format, encoding=encoding)


def _segment_rows(file: Path, table: Table, *, in_folder: bool) -> Rows | None:
    """The segments of a CSV file read as a table (``None``: a metadata table in a folder, left out)."""
    table_type = table_kind(table.names, path=file)
    if table_type != "metadata":
        return table_rows(table, table_type, units=False)
    if in_folder:
        warn(METADATA_BESIDE, path=file)
        return None
    raise InputError("a metadata table holds no segments", path=file, line=1, value=",".join(table.names))


def _unit_rows(file: Path, table: Table) -> Rows:
    """The units of a CSV file read as a table."""
    table_type = table_kind(table.names, path=file)
    if table_type != "units":
        raise InputError(
            f"a {table_type} table holds no transcript units (expected show,start,end[,text,speaker,topic])",
            path=file,
            line=1,
            value=",".join(table.names),
        )
    return table_rows(table, table_type, units=True)


def _segments(
    files: list[Path],
    read: Callable[[Path], Rows | None],
    *,
    batch: tuple[set[Path], Rows, tuple[Path, InputError] | None] | None = None,
) -> tuple[list[Rows], SegmentColumns]:
    """The segments of ``files``, each read by ``read`` (or by a reader of many, ``batch``:
    :func:`~tvseg.readers.corpus.read_files`), checked and joined, and the checked rows."""
    parts = read_files(files, read, what="segment", desc="reading segmentations", batch=batch)
    columns = join(parts)
    assert isinstance(columns, SegmentColumns)
    return parts, columns


def _units(files: list[Path], read: Callable[[Path], Rows]) -> UnitColumns:
    """The units of ``files``, each read by ``read``, checked and joined."""
    columns = join(read_files(files, read, what="breath group", desc="reading units"), units=True)
    assert isinstance(columns, UnitColumns)
    return columns


def read_table_once(path: PathArg, *, encoding: str | None = None) -> tuple[str, SegmentColumns | UnitColumns | None]:
    """Read one CSV file once, with the readers :func:`read_segments` and :func:`read_units` use, as what
    its header says it is (:func:`~tvseg.readers.tables.table_kind`): what ``tvseg validate`` reads.

    Returns
    -------
    kind, corpus
        ``"segments"`` and the :class:`SegmentColumns` that :func:`read_segments` returns for the file,
        ``"units"`` and the :class:`UnitColumns` that :func:`read_units` returns for it, or ``"metadata"``
        and ``None`` (:func:`read_metadata` reads it).

    Raises
    ------
    InputError
        The error those readers raise for the file.
    """
    check_encoding(encoding)
    file = list_files(path, format="csv")[0]
    table = read_table(file, encoding=encoding)
    kind = table_kind(table.names, path=file)
    if kind == "metadata":
        return kind, None
    if kind == "units":
        return kind, _units([file], lambda file: _unit_rows(file, table))
    return kind, _segments([file], lambda file: _segment_rows(file, table, in_folder=False))[1]
