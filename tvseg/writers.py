"""Writers for segmentations: RTTM, WebVTT chapters, SRT and segments CSV.

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
- No format can hold a NUL character (readers refuse it) or a lone surrogate: such a label or show
  id is refused.
"""
from __future__ import annotations

import html
import io
import re
import warnings
from pathlib import Path

import webvtt
from pyannote.core import Annotation

from tvseg.output import csv_line, write_folder_atomic, write_text_atomic
from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.readers.validation import NO_LABEL

__all__ = ["write_segments", "WRITE_FORMATS"]

WRITE_FORMATS = ("rttm", "vtt", "srt", "csv")
_EXTENSIONS = {".rttm": "rttm", ".vtt": "vtt", ".srt": "srt", ".csv": "csv"}
_WHITESPACE = re.compile(r"\s+")
_TAG = re.compile(r"<.*?>|\{\\an[1-9]\}", re.IGNORECASE)  # what SRT readers remove as markup
_UNWRITABLE = re.compile("[\x00\ud800-\udfff]")


def write_segments(segmentations: dict[str, Annotation], path, *, format: str | None = None) -> list[Path]:
    """Write segmentations to an RTTM file, a segments CSV, or WebVTT or SRT chapters.

    Parameters
    ----------
    segmentations : dict of str to pyannote.core.Annotation
        ``{show_id: Annotation}``, as returned by :func:`tvseg.read_segments`.
    path : str or os.PathLike
        The file to write, or, for WebVTT or SRT chapters, a folder (one ``<show>.vtt`` or
        ``<show>.srt`` per show, created if missing). A single show may go to one ``.vtt`` or
        ``.srt`` file.
    format : {"rttm", "vtt", "srt", "csv"}, optional
        Default: from the extension of ``path`` (``.rttm``, ``.csv``, ``.vtt``, ``.srt``); a path
        that is a folder or has no extension means WebVTT chapters in a folder.

    Returns
    -------
    list of pathlib.Path
        The files written.

    Raises
    ------
    UsageError
        An unknown format, or several shows for a single ``.vtt`` or ``.srt`` file.
    InputError
        A show id or a label the format cannot hold.
    """
    path = Path(path)
    format = _output_format(path, format)
    rows = {_writable(show, "show id"): _rows(annotation, show) for show, annotation in segmentations.items()}
    if format == "rttm":
        _atomic_write(path, _rttm_text(rows))
        return [path]
    if format == "csv":
        _atomic_write(path, _csv_text(rows))
        return [path]
    name = "WebVTT" if format == "vtt" else "SRT"
    if path.suffix.lower() == f".{format}" and not path.is_dir():
        if len(rows) != 1:
            raise UsageError(f"{len(rows)} shows cannot go to one {name} file {path}: "
                             f"give a folder (one <show>.{format} per show)")
        ((show, show_rows),) = rows.items()
        _atomic_write(path, _cues_text(show, show_rows, format=format))
        return [path]
    texts = {}
    for show, show_rows in rows.items():
        if not show or Path(show).name != show or show in (".", ".."):
            raise InputError(f"show id cannot be a file name for {name} chapters", value=show)
        texts[f"{show}.{format}"] = _cues_text(show, show_rows, format=format)
    return write_folder_atomic(path, texts)


def _output_format(path: Path, format: str | None) -> str:
    if format is not None:
        if format not in WRITE_FORMATS:
            raise UsageError(f"cannot write format {format!r} (choose from {', '.join(WRITE_FORMATS)})")
        return format
    if path.is_dir() or not path.suffix:
        return "vtt"
    found = _EXTENSIONS.get(path.suffix.lower())
    if found is None:
        raise UsageError(f"cannot tell the output format from {path.name!r} "
                         "(use .rttm, .csv, .vtt, .srt or a folder, or give the format)")
    return found


def _rows(annotation: Annotation, show: str) -> list[tuple[int, int, str]]:
    """Segments of a show as (start_ms, end_ms, label), sorted, refusing times a file cannot hold."""
    rows = []
    for segment, _, label in annotation.itertracks(yield_label=True):
        start_ms, end_ms = round(segment.start * 1000), round(segment.end * 1000)
        if start_ms < 0 or end_ms <= start_ms:
            raise InputError(f"show {show!r}: segment too short or negative to write in milliseconds",
                             value=f"{segment.start!r}-{segment.end!r}")
        rows.append((start_ms, end_ms, _writable(str(label), f"show {show!r}: label")))
    rows.sort()
    return rows


def _writable(text: str, what: str) -> str:
    if _UNWRITABLE.search(text):
        raise InputError(f"{what} holds a NUL character or a lone surrogate, which no file format "
                         "can hold", value=text)
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
            lines.append(f"SEGMENT {show} 1 {_seconds(start_ms)} {_seconds(end_ms - start_ms)} "
                         f"<NA> <NA> {name} <NA> <NA>")
    if renamed:  # one warning per file, not one per label
        label, name = renamed[0]
        warnings.warn(f"{len(renamed)} label(s) hold whitespace, written to RTTM with '_' "
                      f"(e.g. {label!r} -> {name!r}): RTTM fields cannot hold whitespace",
                      TvsegWarning, stacklevel=3)
    return "".join(line + "\n" for line in lines)


def _csv_text(rows: dict[str, list[tuple[int, int, str]]]) -> str:
    lines = [csv_line(("show", "start", "end", "label"))]
    lines += [csv_line((show, _seconds(s), _seconds(e), "" if label == NO_LABEL else label))
              for show, show_rows in rows.items() for s, e, label in show_rows]
    return "".join(lines)


def _cues_text(show: str, rows: list[tuple[int, int, str]], *, format: str) -> str:
    """One show's chapters as WebVTT (``format="vtt"``) or SRT cues: label = cue text, on one line.

    WebVTT escapes ``&``, ``<`` and ``>``; SRT has no escapes, so a label its readers would change
    (``-->``, a ``<...>`` read as a tag, a start like a timestamp) is refused there.
    """
    from tvseg.readers.webvtt import SRT_LIKE_TIME

    captions = []
    for start_ms, end_ms, label in rows:
        text = "" if label == NO_LABEL else " ".join(label.split())
        if format == "vtt":
            if "-->" in text:
                raise InputError(f"show {show!r}: a WebVTT cue text cannot hold '-->'", value=label)
            text = html.escape(text, quote=False)
        elif "-->" in text or _TAG.search(text) or SRT_LIKE_TIME.match(text):
            raise InputError(f"show {show!r}: an SRT cue text cannot hold '-->', a '<...>' or '{{\\anN}}' "
                             "(read as markup) "
                             "or start like a timestamp: write WebVTT, which escapes them", value=label)
        captions.append(webvtt.Caption(_timestamp(start_ms), _timestamp(end_ms), text))
    buffer = io.StringIO()
    webvtt.WebVTT(captions=captions).write(buffer, format=format)
    return buffer.getvalue().rstrip("\n") + "\n"


def _timestamp(milliseconds: int) -> str:
    seconds, millis = divmod(milliseconds, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}.{millis:03d}"


def _atomic_write(path: Path, text: str) -> None:
    write_text_atomic(path, text, create_folder=True)
