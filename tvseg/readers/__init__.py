"""Readers for the timed formats of topic segmentation: RTTM, WebVTT, SRT, CSV, chapter lists, chunkseg's
JSONL, UEM and show metadata.

Segmentations come back as ``{show_id: pyannote.core.Annotation}`` (one track per segment, the
label being the segment's title or topic id, :data:`NO_LABEL` when it has none); units as
``{show_id: pandas.DataFrame}``. Every reader validates at the edge and raises
:class:`~tvseg.errors.InputError` naming the file, the line and the value; the policy is written
in ``formats/README.md``.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd
from pyannote.core import Annotation, Timeline

from tvseg.errors import InputError, UsageError
from tvseg.readers.chapter_list import chapter_records, check_ends
from tvseg.readers.jsonl import SIDES, jsonl_records
from tvseg.readers.metadata import read_metadata
from tvseg.readers.rttm import check_types, read_rttm_records
from tvseg.readers.source import warn
from tvseg.readers.tables import read_table, segment_records, table_kind, unit_frames
from tvseg.readers.uem import UemCrop, crop_to_uem, read_uem
from tvseg.readers.validation import NO_LABEL, Record, to_annotation
from tvseg.readers.webvtt import read_cues

__all__ = ["NO_LABEL", "FORMATS", "READ_FORMATS", "detect_format", "list_files", "read_segments", "read_units",
           "read_uem", "read_metadata"]

FORMATS = {".rttm": "rttm", ".vtt": "vtt", ".srt": "srt", ".csv": "csv", ".jsonl": "jsonl"}
"""File extensions (lower case) and the format each one is read as. ``.txt`` is never guessed."""

READ_FORMATS = ("rttm", "vtt", "srt", "csv", "jsonl", "txt")
"""Every ``format=``: those of :data:`FORMATS`, and ``txt`` (a chapter list), read only when named."""


def detect_format(path, format: str | None = None) -> str:
    """Return the format of a file: ``format`` when given, else the one its extension names."""
    if format is not None:
        if format not in READ_FORMATS:
            raise UsageError(f"unknown format {format!r} (choose from {', '.join(sorted(READ_FORMATS))})")
        return format
    found = FORMATS.get(Path(path).suffix.lower())
    if found is None:
        hint = (" (a chapter list: format 'txt')" if Path(path).suffix.lower() == ".txt" else "")
        raise InputError("cannot tell the format from the extension (use .rttm, .vtt, .srt, .csv or .jsonl, or give "
                         f"the format: format= in Python, --format on the command line, --from for convert){hint}",
                         path=path)
    return found


def _extension_format(file: Path, format: str | None) -> str | None:
    """The format a folder's file is read as (``None``: not read)."""
    suffix = file.suffix.lower()
    if format == "txt":
        return "txt" if suffix == ".txt" else None
    found = FORMATS.get(suffix)
    return found if format is None or found == format else None


def list_files(path, *, format: str | None = None) -> list[Path]:
    """The files to read for ``path``: the file itself, or a folder's supported files, sorted.

    A folder is not searched recursively; its files are those whose extension is supported (or,
    when ``format`` is given, whose extension names that format). A folder without any is an
    :class:`InputError`.
    """
    path = Path(path)
    if not path.exists():
        raise InputError("no such file or folder", path=path)
    if not path.is_dir():
        return [path]
    files, unread = [], []
    for p in path.iterdir():  # one listing: a folder may hold tens of thousands of shows
        if p.is_file() and _extension_format(p, format) is not None:
            files.append(p)
        elif not p.name.startswith("."):
            unread.append(p.name + ("/" if p.is_dir() else ""))
    files.sort()
    unread.sort()
    if not files:
        raise InputError("no file to read in this folder (.rttm, .vtt, .srt, .csv or .jsonl; .txt chapter "
                         "lists with format 'txt')", path=path)
    if unread:
        warn(f"not read (sub-folders are not searched; only .rttm, .vtt, .srt, .csv and .jsonl files are read"
             f"{'' if format is None else ' as ' + format}; .txt chapter lists only with format 'txt'): "
             f"{', '.join(unread[:8])}"
             f"{f' and {len(unread) - 8} more' if len(unread) > 8 else ''}", path=path)
    return files


def read_segments(path, *, format: str | None = None, show: str | None = None, types=None,
                  uem: dict[str, Timeline] | None = None, side: str | None = None,
                  which: str | None = None, end=None) -> dict[str, Annotation]:
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

    Returns
    -------
    dict of str to pyannote.core.Annotation
        One Annotation per show (``uri`` = show id), one track per segment, sorted by start.

    Raises
    ------
    InputError
        Any file that breaks the policy of ``formats/README.md``, or a show found in two files.
    """
    files = list_files(path, format=format)
    if show is not None and (len(files) != 1 or Path(path).is_dir()):
        raise UsageError("show= names the show of a single VTT, SRT or chapter list file, not of a folder")
    if types is not None:
        check_types(types)
    if which is not None and which not in SIDES:
        raise UsageError(f"which= is 'reference' or 'hypothesis', not {which!r}")
    end = check_ends(end, folder=Path(path).is_dir())
    result: dict[str, Annotation] = {}
    origin: dict[str, tuple[Path, int]] = {}
    track_lines: dict[str, list[int]] = {}
    in_folder = Path(path).is_dir()
    for file in files:
        if in_folder and file.suffix.lower() == ".csv" and _is_metadata(file):
            warn("a metadata table beside the segmentations: not read as segments (give it with --metadata)",
                 path=file)
            continue
        for show_id, (annotation, line, lines) in _segments_of_file(
                file, format=format, show=show, types=types, lines=uem is not None, which=which,
                side=side, end=end, uem=uem).items():
            _check_new_show(show_id, origin, file, line)
            result[show_id] = annotation
            track_lines[show_id] = lines
    if uem is not None:
        counts: dict[Path, UemCrop] = {}
        for show_id, annotation in result.items():
            file = origin[show_id][0]
            result[show_id] = crop_to_uem(annotation, uem, path=file, lines=track_lines[show_id], side=side,
                                          counts=counts.setdefault(file, UemCrop()))
        for file, crop in counts.items():
            if crop.changed:
                warn(f"{side + ': ' if side else ''}UEM applied: {crop}", path=file)
    if not result and in_folder:
        raise InputError("no segmentation in this folder", path=path)
    return result


def _is_metadata(file: Path) -> bool:
    try:
        return table_kind(read_table(file).columns, path=file) == "metadata"
    except InputError:
        return False  # read again below, where the error is raised with its line


def _check_new_show(show_id: str, origin: dict, file: Path, line: int | None) -> None:
    """Refuse a show already read from another file of the folder; else remember where it was read.

    ``line`` is that of the show's first segment or unit in ``file`` (``None`` for a show without any).
    """
    if show_id in origin:
        first_file, first_line = origin[show_id]
        where = f"{first_file}" if first_line is None else f"{first_file}:{first_line}"
        raise InputError(f"show already read from {where}", path=file, line=line, value=show_id)
    origin[show_id] = (file, line)


def _segments_of_file(file: Path, *, format, show, types, lines: bool = False, which=None, side=None,
                      end=None, uem=None) -> dict[str, tuple[Annotation, int, list[int] | None]]:
    """``{show: (Annotation, line of its first segment, line of each track)}`` of one file.

    The lines of the tracks are only listed when ``lines`` is true (else ``None``).
    """
    kind = detect_format(file, format)
    if show is not None and kind not in ("vtt", "srt", "txt"):
        raise UsageError(f"show= only applies to VTT, SRT and chapter list files, not to {kind.upper()}")
    if kind == "rttm":
        records = read_rttm_records(file, types=types)
    elif kind == "jsonl":
        records = jsonl_records(file, which=which, side=side)
    elif kind == "txt":
        records = {show or file.stem: chapter_records(file, show=show or file.stem, end=end, uem=uem)}
    elif kind == "csv":
        table = read_table(file)
        table_type = table_kind(table.columns, path=file)
        if table_type == "metadata":
            raise InputError("a metadata table holds no segments", path=file, line=1,
                             value=",".join(table.columns))
        records = segment_records(table, table_type)
    else:
        records = {show or file.stem: [
            Record(cue.start_ms / 1000, cue.end_ms / 1000, cue.text or NO_LABEL, cue.line)
            for cue in read_cues(file, format=kind)]}
    return {show_id: (to_annotation(show_id, show_records, path=file),
                      min((r.line for r in show_records), default=None),
                      [r.line for r in sorted(show_records, key=lambda r: (r.start, r.end, r.line))]
                      if lines else None)
            for show_id, show_records in records.items()}


def read_units(path, *, format: str | None = None, show: str | None = None) -> dict[str, pd.DataFrame]:
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

    Returns
    -------
    dict of str to pandas.DataFrame
        One frame per show, one row per unit sorted by start, with the columns ``start, end``
        (float seconds) and, when the source has them, ``text, speaker, topic`` (``speaker``
        of a caption comes from its ``<v Name>`` voice tag). Caption cues that overlap are made
        into units that do not (see :func:`caption_units`), with a warning.

    Raises
    ------
    InputError
        Overlapping breath groups, any file that breaks the policy of ``formats/README.md``, an
        RTTM or a segments table (they hold no units), or a show found in two files.
    """
    files = list_files(path, format=format)
    if show is not None and (len(files) != 1 or Path(path).is_dir()):
        raise UsageError("show= names the show of a single VTT or SRT file, not of a folder")
    result: dict[str, pd.DataFrame] = {}
    origin: dict[str, tuple[Path, int]] = {}
    for file in files:
        for show_id, (frame, line) in _units_of_file(file, format=format, show=show).items():
            _check_new_show(show_id, origin, file, line)
            result[show_id] = frame
    return result


def _units_of_file(file: Path, *, format, show) -> dict[str, tuple[pd.DataFrame, int]]:
    """``{show: (DataFrame, line of its first unit)}`` of one file."""
    kind = detect_format(file, format)
    if kind in ("rttm", "jsonl", "txt"):
        name = {"rttm": "an RTTM file", "jsonl": "a chunkseg JSONL file", "txt": "a chapter list"}[kind]
        raise InputError(f"{name} holds segments, not transcript units", path=file)
    if show is not None and kind not in ("vtt", "srt"):
        raise UsageError(f"show= only applies to VTT and SRT files, not to {kind.upper()}")
    if kind == "csv":
        table = read_table(file)
        table_type = table_kind(table.columns, path=file)
        if table_type != "units":
            raise InputError(f"a {table_type} table holds no transcript units (expected "
                             "show,start,end[,text,speaker,topic])", path=file, line=1,
                             value=",".join(table.columns))
        return unit_frames(table)
    cues = read_cues(file, format=kind)
    for cue in cues:
        if cue.end_ms <= cue.start_ms:
            problem = "end before start" if cue.end_ms < cue.start_ms else "zero duration"
            raise InputError(f"caption with {problem}", path=file, line=cue.line,
                             value=f"{cue.start_ms / 1000:g} -> {cue.end_ms / 1000:g}")
    frame = caption_units(cues, path=file)
    return {show or file.stem: (frame, min((c.line for c in cues), default=None))}


def caption_units(cues, *, path) -> pd.DataFrame:
    """The units of a caption file: one per cue, by start, made not to overlap.

    Caption cues overlap when a cue stays on screen while the next one appears (roll-up captions):
    a unit then ends where the next one begins, which is when the next words are spoken. Cues that
    start at the same time (two lines shown together) become one unit: their texts joined by a
    space in file order, its end the latest of theirs, its speakers (distinct, in file order)
    joined by `` / ``. Each file with such cues gives one :class:`~tvseg.errors.TvsegWarning`
    counting them and naming the first one's line.
    """
    starts, ends, texts, voices, lines = [], [], [], [], []
    merged = []
    for cue in sorted(cues, key=lambda c: (c.start_ms, c.line)):
        if starts and starts[-1] == cue.start_ms:
            merged.append(cue.line)
            ends[-1] = max(ends[-1], cue.end_ms)
            texts[-1] = " ".join(t for t in (texts[-1], cue.text) if t)
            if cue.voice and cue.voice not in voices[-1]:
                voices[-1].append(cue.voice)
            continue
        starts.append(cue.start_ms)
        ends.append(cue.end_ms)
        texts.append(cue.text)
        voices.append([cue.voice] if cue.voice else [])
        lines.append(cue.line)
    shortened = [j for j in range(len(starts) - 1) if ends[j] > starts[j + 1]]
    for j in shortened:
        ends[j] = starts[j + 1]
    if merged or shortened:
        what = []
        if shortened:
            what.append(f"{len(shortened)} caption cue(s) overlap the next one and now end where it "
                        "begins")
        if merged:
            what.append(f"{len(merged)} cue(s) start with an earlier one and are joined to it")
        warn(" and ".join(what) + " (units may not overlap); first such cue here", path=path,
             line=min([lines[j] for j in shortened] + merged))
    frame = pd.DataFrame({"start": [t / 1000 for t in starts], "end": [t / 1000 for t in ends],
                          "text": texts})
    if any(voices):
        frame["speaker"] = [" / ".join(v) for v in voices]
    return frame
