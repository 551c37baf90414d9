"""Writers for segmentations: RTTM, WebVTT chapters, SRT, segments CSV, chapter lists, chunkseg JSONL and
ActivityNet-style predictions (VidChapters' ``dvc_eval`` reads them).

Times are written in milliseconds' precision (3 decimals), each rounded to the nearest
millisecond, and durations are computed from the rounded start and end, so that reading a file
back gives the same times to the millisecond. Every file is written to a temporary file in the
same folder, flushed to disk and moved into place with :func:`os.replace`; a folder of chapters is
written all or none (:func:`tvseg.output.write_folder_atomic`): a failure never leaves a
half-written file under the final name, and a disk or permission error is an
:class:`~tvseg.errors.InputError` with the path and the system's reason.

Labels and the formats' limits (see ``formats/``):

- RTTM fields cannot hold whitespace: every run of whitespace in a label becomes ``_``, with a
  :class:`~tvseg.errors.TvsegWarning`; a show id with whitespace cannot be written (error).
  :data:`~tvseg.readers.NO_LABEL` is written ``<NA>``.
- WebVTT cue text cannot hold a line break nor ``-->``: line breaks become spaces, and a label
  with ``-->`` is refused. ``&``, ``<`` and ``>`` are escaped. :data:`NO_LABEL` is an empty cue.
- SRT cue text has no escapes, and readers (webvtt-py among them) strip anything between ``<`` and
  ``>`` as a tag, and ``{\\an1}`` .. ``{\\an9}`` as a position code: line breaks become spaces; a label
  with ``-->``, with a ``<...>`` or a position code, or starting like a timestamp (``00:01:02,5``) is
  refused. :data:`NO_LABEL` is an empty cue.
- CSV: :data:`NO_LABEL` is an empty ``label`` cell; a cell with a comma, a quote, a CR or an LF is
  quoted (RFC 4180), a bare CR included.
- Chapter lists (``[H:]MM:SS Title``, one show per file): the segments must cover the show from 0
  without gaps or overlaps (each chapter ends where the next starts); starts are rounded to the
  nearest whole second (one :class:`~tvseg.errors.TvsegWarning` per file when one is not whole),
  refused when two would fall on the same second; the show's end is not written (the format has no
  place for it). Line breaks become spaces; :data:`NO_LABEL` is a time without a title; a title
  starting with a dash and a space is written after `` - `` so that it reads back whole.
- chunkseg JSONL: one line per show (``show``, ``reference``, ``duration``, ``reference_titles``,
  and with ``hypothesis=`` the ``hypothesis`` and ``hyp_titles`` of the same show); each side must
  cover the show from 0 to its end without gaps or overlaps (both sides end at the same time, the
  ``duration``). Titles are written for the segments that have one (not :data:`NO_LABEL`).
- ActivityNet-style predictions (``anet``, never guessed from ``.json``): one JSON object
  ``{"version": "VERSION 1.0", "results": {show: [{"timestamp": [start, end], "sentence": label}]},
  "external_data": {}}``, segments in time order, times in seconds to the millisecond; segments may
  overlap; :data:`NO_LABEL` is an empty sentence.
- Podcast 2.0 JSON chapters (``podcast``, one show per ``.json`` file, never guessed from ``.json``):
  ``{"version": "1.2.0", "chapters": [{"startTime", "endTime", "title"}]}``, times in seconds to the millisecond,
  each chapter with its ``endTime`` (so a gap and the show's end are kept); :data:`NO_LABEL` is a chapter
  without a title; overlapping segments are refused.
- FFMETADATA (``ffmetadata``, one show per ``.ffmetadata`` file): ``;FFMETADATA1`` then one ``[CHAPTER]`` per
  segment, ``TIMEBASE=1/1000``, ``START``, ``END`` in milliseconds and ``title`` (``=``, ``;``, ``#``, ``\\``
  and a line break escaped with a backslash); :data:`NO_LABEL` is a chapter without a title; overlapping
  segments are refused.
- No format can hold a NUL character (readers refuse it) or a lone surrogate: such a label or show
  id is refused.
"""

from __future__ import annotations

import html
import io
import json
import re
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import webvtt

from tvseg.arguments import check_annotations, check_path
from tvseg.errors import InputError, OutputChangedWarning, UsageError, user_stacklevel
from tvseg.file_names import safe_names
from tvseg.output import csv_line, write_folder_atomic, write_text_atomic
from tvseg.readers.validation import NO_LABEL

if TYPE_CHECKING:
    from pyannote.core import Annotation

__all__ = ["write_segments", "segment_files", "segments_text", "write_segment_files", "WRITE_FORMATS"]

WRITE_FORMATS = ("rttm", "vtt", "srt", "csv", "txt", "jsonl", "anet", "podcast", "ffmetadata")
_EXTENSIONS = {
    ".rttm": "rttm",
    ".vtt": "vtt",
    ".srt": "srt",
    ".csv": "csv",
    ".txt": "txt",
    ".jsonl": "jsonl",
    ".ffmetadata": "ffmetadata",
    ".ffmeta": "ffmetadata",
}
_PER_SHOW = {
    "vtt": "WebVTT",
    "srt": "SRT",
    "txt": "chapter list",
    "podcast": "Podcast 2.0 chapters",
    "ffmetadata": "FFMETADATA",
}
_SUFFIX = {"podcast": "json"}
"""A one-show format's file extension where it is not the format's name."""
_WHITESPACE = re.compile(r"\s+")
_TAG = re.compile(r"<.*?>|\{\\an[1-9]\}", re.IGNORECASE)  # what SRT readers remove as markup
_UNWRITABLE = re.compile("[\x00\ud800-\udfff]")


def write_segments(
    segmentations: Mapping[str, Annotation],
    path,
    *,
    format: str | None = None,
    hypothesis: Mapping[str, Annotation] | None = None,
) -> list[Path]:
    """Write segmentations to an RTTM file, a segments CSV, WebVTT or SRT chapters, chapter lists
    or a chunkseg JSONL file.

    Parameters
    ----------
    segmentations : mapping of str to pyannote.core.Annotation
        ``{show_id: Annotation}``, as returned by :func:`tvseg.read_segments`.
    path : str or os.PathLike
        The file to write, or, for WebVTT or SRT chapters or chapter lists, a folder (one
        ``<show>.vtt``, ``<show>.srt`` or ``<show>.txt`` per show, created if missing). A single show
        may go to one ``.vtt``, ``.srt`` or ``.txt`` file. In a folder, a show id that cannot be a
        file name as it is (a separator, a control character, a leading dot, ``CON``) is named by
        :func:`tvseg.file_names.safe_names` (reduced, with a hash), with a warning.
    format : {"rttm", "vtt", "srt", "csv", "txt", "jsonl"}, optional
        Default: from the extension of ``path`` (``.rttm``, ``.csv``, ``.vtt``, ``.srt``, ``.txt``
        for a chapter list, ``.jsonl``); a path that is a folder or has no extension means WebVTT
        chapters in a folder.
    hypothesis : mapping of str to pyannote.core.Annotation, optional
        Only for JSONL: ``segmentations`` is then the reference and this the hypothesis of the same
        shows, written on the same lines (a line without a hypothesis is not one chunkseg scores).

    Returns
    -------
    list of pathlib.Path
        The files written.

    Raises
    ------
    UsageError
        An unknown format, or several shows for a single ``.vtt`` or ``.srt`` file.
    InputError
        A show id or a label the format cannot hold; an argument of another kind than those above
        (``None`` for a mapping, a show id that is not a str), naming it.
    """
    return write_segment_files(path, segment_files(segmentations, path, format=format, hypothesis=hypothesis))


def write_segment_files(path, files: Mapping[Path, str]) -> list[Path]:
    """Write what :func:`segment_files` gave for ``path``: one file, or a folder's files all or none.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    path = Path(path)
    if list(files) == [path]:
        write_text_atomic(path, files[path], create_folder=True)
        return [path]
    return write_folder_atomic(path, {file.name: text for file, text in files.items()})


def segment_files(
    segmentations: Mapping[str, Annotation],
    path,
    *,
    format: str | None = None,
    hypothesis: Mapping[str, Annotation] | None = None,
) -> dict[Path, str]:
    """The files :func:`write_segments` writes and their texts, nothing written.

    Parameters and errors are those of :func:`write_segments`.

    Returns
    -------
    dict of pathlib.Path to str
        ``{path: text}`` for one file, ``{path / name: text}`` for a folder, one file per show.
    """
    check_annotations("segmentations", segmentations)
    check_path("path", path)
    check_annotations("hypothesis", hypothesis, optional=True)
    path = Path(path)
    format = _output_format(path, format)
    if hypothesis is not None and format != "jsonl":
        raise UsageError("hypothesis= only applies to JSONL (the reference and the hypothesis on one line)")
    suffix = _SUFFIX.get(format, format)
    if format not in _PER_SHOW or (path.suffix.lower() == f".{suffix}" and not path.is_dir()):
        return {path: segments_text(segmentations, format=format, hypothesis=hypothesis, where=path)}
    rows = _rows(segmentations)
    stems = safe_names(rows, keep_unicode=True)
    _warn_changed(
        [(show, f"{stem}.{format}") for show, stem in stems.items() if stem != show],
        "{n} show id(s) cannot be file names as they are (e.g. {old!r} -> '{new}'): "
        "read back, their show id is the file name",
    )
    return {path / f"{stems[show]}.{suffix}": _show_text(show, rows[show], format=format) for show in rows}


def segments_text(
    segmentations: Mapping[str, Annotation],
    *,
    format: str,
    hypothesis: Mapping[str, Annotation] | None = None,
    where="on standard output",
) -> str:
    """The text of one file of ``format`` holding ``segmentations`` (``tvseg convert IN - --to FORMAT``).

    Parameters
    ----------
    segmentations, hypothesis
        As for :func:`write_segments`.
    format : {"rttm", "vtt", "srt", "csv", "txt", "jsonl", "anet"}
        WebVTT, SRT and chapter lists hold one show: several shows are refused.
    where : str or os.PathLike
        Where the text goes, for the message refusing several shows.

    Raises
    ------
    UsageError
        An unknown format, several shows for a one-show format, or ``hypothesis`` with another format than JSONL.
    InputError
        A show id or a label the format cannot hold.
    """
    if format not in WRITE_FORMATS:
        raise UsageError(f"cannot write format {format!r} (choose from {', '.join(WRITE_FORMATS)})")
    if hypothesis is not None and format != "jsonl":
        raise UsageError("hypothesis= only applies to JSONL (the reference and the hypothesis on one line)")
    rows = _rows(segmentations)
    if format == "jsonl":
        return _jsonl_text(rows, None if hypothesis is None else _rows(hypothesis))
    whole = {"rttm": _rttm_text, "csv": _csv_text, "anet": _anet_text}
    if format in whole:
        return whole[format](rows)
    if len(rows) != 1:
        raise UsageError(
            f"{len(rows)} shows cannot go to one {_PER_SHOW[format]} file {where}: "
            f"give a folder (one <show>.{format} per show)"
        )
    ((show, show_rows),) = rows.items()
    return _show_text(show, show_rows, format=format)


def _warn_changed(changed: list[tuple[str, str]], message: str) -> None:
    """One warning for all the ``(old, new)`` texts changed: ``message`` formatted with ``n``, ``old`` and ``new``,
    at the caller's line (:func:`~tvseg.errors.user_stacklevel`)."""
    if changed:
        old, new = changed[0]
        warnings.warn(
            message.format(n=len(changed), old=old, new=new), OutputChangedWarning, stacklevel=user_stacklevel()
        )


def _show_text(show: str, rows: list[tuple[int, int, str]], *, format: str) -> str:
    if format in ("podcast", "ffmetadata"):
        return (_podcast_text if format == "podcast" else _ffmetadata_text)(show, rows)
    return _chapter_list_text(show, rows) if format == "txt" else _cues_text(show, rows, format=format)


def _output_format(path: Path, format: str | None) -> str:
    if format is not None:
        if format not in WRITE_FORMATS:
            raise UsageError(f"cannot write format {format!r} (choose from {', '.join(WRITE_FORMATS)})")
        return format
    if path.is_dir() or not path.suffix:
        return "vtt"
    found = _EXTENSIONS.get(path.suffix.lower())
    if found is None:
        raise UsageError(
            f"cannot tell the output format from {path.name!r} "
            "(use .rttm, .csv, .vtt, .srt, .txt, .jsonl, .ffmetadata or a folder, or give the format: anet for "
            "ActivityNet-style predictions in .json, podcast for Podcast 2.0 chapters)"
        )
    return found


def _rows(segmentations: Mapping[str, Annotation]) -> dict[str, list[tuple[int, int, str]]]:
    """Per show, its segments as (start_ms, end_ms, label), sorted, refusing what a file cannot hold."""
    out = {}
    for show, annotation in segmentations.items():
        show, rows = _writable(show, "show id"), []
        for segment, _, label in annotation.itertracks(yield_label=True):
            start_ms, end_ms = round(segment.start * 1000), round(segment.end * 1000)
            if start_ms < 0 or end_ms <= start_ms:
                raise InputError(
                    f"show {show!r}: segment too short or negative to write in milliseconds",
                    value=f"{segment.start!r}-{segment.end!r}",
                )
            rows.append((start_ms, end_ms, _writable(str(label), f"show {show!r}: label")))
        out[show] = sorted(rows)
    return out


def _writable(text: str, what: str) -> str:
    if _UNWRITABLE.search(text):
        raise InputError(f"{what} holds a NUL character or a lone surrogate, which no file format can hold", value=text)
    return text


def _seconds(milliseconds: int) -> str:
    return f"{milliseconds // 1000}.{milliseconds % 1000:03d}"


def _rttm_text(rows: dict[str, list[tuple[int, int, str]]]) -> str:
    lines = []
    renamed: list[tuple[str, str]] = []
    for show, show_rows in rows.items():
        if not show or _WHITESPACE.search(show):
            raise InputError("an RTTM show id cannot be empty or hold whitespace", value=show)
        for start_ms, end_ms, label in show_rows:
            name = _WHITESPACE.sub("_", label.strip()) or NO_LABEL
            if name != label and label.strip():
                renamed.append((label, name))
            lines.append(
                f"SEGMENT {show} 1 {_seconds(start_ms)} {_seconds(end_ms - start_ms)} <NA> <NA> {name} <NA> <NA>"
            )
    _warn_changed(
        renamed,
        "{n} label(s) hold whitespace, written to RTTM with '_' (e.g. {old!r} -> {new!r}): "
        "RTTM fields cannot hold whitespace",
    )
    return "".join(line + "\n" for line in lines)


def _csv_text(rows: dict[str, list[tuple[int, int, str]]]) -> str:
    lines = [csv_line(("show", "start", "end", "label"))]
    lines += [
        csv_line((show, _seconds(s), _seconds(e), _text(label)))
        for show, show_rows in rows.items()
        for s, e, label in show_rows
    ]
    return "".join(lines)


def _cues_text(show: str, rows: list[tuple[int, int, str]], *, format: str) -> str:
    """One show's chapters as WebVTT (``format="vtt"``) or SRT cues: label = cue text, on one line.

    WebVTT escapes ``&``, ``<`` and ``>``; SRT has no escapes, so a label its readers would change
    (``-->``, a ``<...>`` read as a tag, a start like a timestamp) is refused there.
    """
    from tvseg.readers.webvtt import SRT_LIKE_TIME

    captions = []
    for start_ms, end_ms, label in rows:
        text = _text(label, one_line=True)
        if format == "vtt":
            if "-->" in text:
                raise InputError(f"show {show!r}: a WebVTT cue text cannot hold '-->'", value=label)
            text = html.escape(text, quote=False)
        elif "-->" in text or _TAG.search(text) or SRT_LIKE_TIME.match(text):
            raise InputError(
                f"show {show!r}: an SRT cue text cannot hold '-->', a '<...>' or '{{\\anN}}' "
                "(read as markup) "
                "or start like a timestamp: write WebVTT, which escapes them",
                value=label,
            )
        captions.append(webvtt.Caption(_timestamp(start_ms), _timestamp(end_ms), text))
    buffer = io.StringIO()
    webvtt.WebVTT(captions=captions).write(buffer, format=format)
    return buffer.getvalue().rstrip("\n") + "\n"


def _contiguous(show: str, rows: list[tuple[int, int, str]], what: str) -> None:
    """Refuse segments that do not cover the show from 0 without gaps (a boundary list cannot hold them)."""
    if not rows:
        raise InputError(f"show {show!r}: a show without segments cannot be written as {what}", value=show)
    if rows[0][0] != 0:
        raise InputError(
            f"show {show!r}: {what} covers the show from 0, and its first segment starts later",
            value=_seconds(rows[0][0]),
        )
    for (_, end_ms, _), (start_ms, _, _) in zip(rows, rows[1:]):
        if end_ms != start_ms:
            problem = "a gap" if end_ms < start_ms else "an overlap"
            raise InputError(
                f"show {show!r}: {what} cannot hold {problem} between segments (each ends where the next starts)",
                value=f"{_seconds(end_ms)} -> {_seconds(start_ms)}",
            )


def _chapter_list_text(show: str, rows: list[tuple[int, int, str]]) -> str:
    """One show as a chapter list: ``M:SS Title`` (``H:MM:SS`` when a chapter starts after an hour)."""
    from tvseg.readers.chapter_list import clock_text

    _contiguous(show, rows, "a chapter list")
    starts = [(start_ms + 500) // 1000 for start_ms, _, _ in rows]
    for (previous, _, _), (start_ms, _, _), a, b in zip(rows, rows[1:], starts, starts[1:]):
        if a == b:
            raise InputError(
                f"show {show!r}: two chapters would start at the same whole second "
                "(a chapter list holds whole seconds)",
                value=f"{_seconds(previous)}, {_seconds(start_ms)}",
            )
    rounded = [start_ms for start_ms, _, _ in rows if start_ms % 1000]
    if rounded:
        warnings.warn(
            f"show {show!r}: {len(rounded)} chapter start(s) rounded to whole seconds (a chapter "
            f"list holds whole seconds), e.g. {_seconds(rounded[0])} -> "
            f"{clock_text((rounded[0] + 500) // 1000)}",
            OutputChangedWarning,
            stacklevel=user_stacklevel(),
        )
    hours = starts[-1] >= 3600
    lines = []
    for start, (_, _, label) in zip(starts, rows):
        title = _text(label, one_line=True)
        separator = " - " if re.match(r"[-\u2013\u2014](\s|$)", title) else " "
        lines.append(clock_text(start, hours=hours) + (separator + title if title else ""))
    return "".join(line + "\n" for line in lines)


def _jsonl_text(
    rows: dict[str, list[tuple[int, int, str]]], hypothesis: dict[str, list[tuple[int, int, str]]] | None
) -> str:
    """One chunkseg JSONL line per show (times in seconds, to the millisecond)."""
    if hypothesis is not None and set(hypothesis) != set(rows):
        only = sorted(set(rows) ^ set(hypothesis))
        raise InputError("the reference and the hypothesis of a JSONL file must have the same shows", value=only[0])
    lines = []
    for show, show_rows in rows.items():
        if not show:
            raise InputError("a JSONL show id cannot be empty", value=show)
        _contiguous(show, show_rows, "chunkseg's JSONL")
        duration = show_rows[-1][1]
        line: dict[str, object] = {"show": show, "reference": [start_ms / 1000 for start_ms, _, _ in show_rows[1:]]}
        if hypothesis is not None:
            other = hypothesis[show]
            _contiguous(show, other, "chunkseg's JSONL")
            if other[-1][1] != duration:
                raise InputError(
                    f"show {show!r}: the hypothesis must end where the reference ends (chunkseg's "
                    "JSONL has one duration per show)",
                    value=f"{_seconds(other[-1][1])} and {_seconds(duration)}",
                )
            line["hypothesis"] = [start_ms / 1000 for start_ms, _, _ in other[1:]]
        line["duration"] = duration / 1000
        for side, side_rows in (("reference_titles", show_rows), ("hyp_titles", hypothesis and hypothesis[show])):
            titles = [[label, start_ms / 1000] for start_ms, _, label in side_rows or () if label != NO_LABEL]
            if titles:
                line[side] = titles
        lines.append(json.dumps(line, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def _anet_text(rows: dict[str, list[tuple[int, int, str]]]) -> str:
    """ActivityNet-style predictions of every show (times in seconds, to the millisecond)."""
    results = {
        show: [
            {"timestamp": [start_ms / 1000, end_ms / 1000], "sentence": _text(label)}
            for start_ms, end_ms, label in show_rows
        ]
        for show, show_rows in rows.items()
    }
    document = {"version": "VERSION 1.0", "results": results, "external_data": {}}
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def _timestamp(milliseconds: int) -> str:
    seconds, millis = divmod(milliseconds, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}.{millis:03d}"


def _text(label: str, *, one_line: bool = False) -> str:
    """A label as the file's text: empty for :data:`NO_LABEL`; ``one_line``: each run of whitespace one space."""
    if label == NO_LABEL:
        return ""
    return " ".join(label.split()) if one_line else label


def _no_overlap(show: str, rows: list[tuple[int, int, str]], what: str) -> None:
    if not rows:
        raise InputError(f"show {show!r}: a show without segments cannot be written as {what}", value=show)
    for (_, end_ms, _), (start_ms, _, _) in zip(rows, rows[1:]):
        if start_ms < end_ms:
            raise InputError(
                f"show {show!r}: {what} cannot hold overlapping segments",
                value=f"{_seconds(end_ms)} -> {_seconds(start_ms)}",
            )


def _json_seconds(milliseconds: int) -> str:
    """Seconds as a JSON number, to the millisecond, without trailing zeros."""
    return str(milliseconds // 1000) if milliseconds % 1000 == 0 else _seconds(milliseconds).rstrip("0")


def _podcast_text(show: str, rows: list[tuple[int, int, str]]) -> str:
    """One show as Podcast 2.0 JSON chapters, one chapter per line."""
    _no_overlap(show, rows, "Podcast 2.0 chapters")
    chapters = []
    for start_ms, end_ms, label in rows:
        title = "" if label == NO_LABEL else f', "title": {json.dumps(label, ensure_ascii=False)}'
        chapters.append(f'    {{"startTime": {_json_seconds(start_ms)}, "endTime": {_json_seconds(end_ms)}{title}}}')
    return '{\n  "version": "1.2.0",\n  "chapters": [\n' + ",\n".join(chapters) + "\n  ]\n}\n"


_FFMETADATA_SPECIAL = re.compile(r"([=;#\\\n])")


def _ffmetadata_text(show: str, rows: list[tuple[int, int, str]]) -> str:
    """One show as an FFmpeg metadata file: a ``[CHAPTER]`` per segment, in milliseconds."""
    _no_overlap(show, rows, "FFMETADATA")
    parts = [";FFMETADATA1\n"]
    for start_ms, end_ms, label in rows:
        parts.append(f"\n[CHAPTER]\nTIMEBASE=1/1000\nSTART={start_ms}\nEND={end_ms}\n")
        if label != NO_LABEL:
            parts.append("title=" + _FFMETADATA_SPECIAL.sub(r"\\\1", label) + "\n")
    return "".join(parts)
