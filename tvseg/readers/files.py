"""The careful readers of one file: record by record, each error named at its line.

They are what the readers did before columns: :func:`segment_records_of_file` and
:func:`units_of_file` read any format, and the fast path (:mod:`tvseg.readers.corpus`) falls back on
them, so that every message is theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from tvseg.errors import InputError, UsageError
from tvseg.readers.chapter_list import chapter_records
from tvseg.readers.jsonl import jsonl_records
from tvseg.readers.rttm import read_rttm_records
from tvseg.readers.source import warn
from tvseg.readers.tables import read_table, segment_records, table_kind, unit_frames
from tvseg.readers.validation import NO_LABEL, Record, check_records
from tvseg.readers.webvtt import read_cues

__all__ = ["segment_records_of_file", "units_of_file", "caption_units", "check_new_show"]


def check_new_show(show_id: str, origin: dict, file: Path, line: int | None) -> None:
    """Refuse a show already read from another file of the folder; else remember where it was read.

    ``line`` is that of the show's first segment or unit in ``file`` (``None`` for a show without any).
    """
    if show_id in origin:
        first_file, first_line = origin[show_id]
        where = f"{first_file}" if first_line is None else f"{first_file}:{first_line}"
        raise InputError(f"show already read from {where}", path=file, line=line, value=show_id)
    origin[show_id] = (file, line)


def segment_records_of_file(
    file: Path, kind: str, *, show, types, which=None, side=None, end=None, uem=None, encoding: str | None = None
) -> dict[str, tuple[list[Record], int | None]]:
    """``{show: (its records sorted by (start, end, line) and checked, line of its first segment)}`` of
    one file read as ``kind``, in ``encoding`` (default UTF-8)."""
    if show is not None and kind not in ("vtt", "srt", "txt"):
        raise UsageError(f"show= only applies to VTT, SRT and chapter list files, not to {kind.upper()}")
    if kind == "rttm":
        records = read_rttm_records(file, types=types, encoding=encoding)
    elif kind == "jsonl":
        records = jsonl_records(file, which=which, side=side, encoding=encoding)
    elif kind == "txt":
        records = {
            show or file.stem: chapter_records(file, show=show or file.stem, end=end, uem=uem, encoding=encoding)
        }
    elif kind == "csv":
        table = read_table(file, encoding=encoding)
        table_type = table_kind(table.columns, path=file)
        if table_type == "metadata":
            raise InputError("a metadata table holds no segments", path=file, line=1, value=",".join(table.columns))
        records = segment_records(table, table_type)
    else:
        records = {
            show or file.stem: [
                Record(cue.start_ms / 1000, cue.end_ms / 1000, cue.text or NO_LABEL, cue.line)
                for cue in read_cues(file, format=kind, encoding=encoding)
            ]
        }
    return {
        show_id: (check_records(show_records, path=file), min((r.line for r in show_records), default=None))
        for show_id, show_records in records.items()
    }


def units_of_file(
    file: Path, kind: str, *, show, encoding: str | None = None
) -> Mapping[str, tuple[pd.DataFrame, int | None, np.ndarray | None]]:
    """``{show: (DataFrame, line of its first unit, line of each row or None)}`` of one file read as ``kind``,
    in ``encoding`` (default UTF-8)."""
    if kind in ("rttm", "jsonl", "txt"):
        name = {"rttm": "an RTTM file", "jsonl": "a chunkseg JSONL file", "txt": "a chapter list"}[kind]
        raise InputError(f"{name} holds segments, not transcript units", path=file)
    if show is not None and kind not in ("vtt", "srt"):
        raise UsageError(f"show= only applies to VTT and SRT files, not to {kind.upper()}")
    if kind == "csv":
        table = read_table(file, encoding=encoding)
        table_type = table_kind(table.columns, path=file)
        if table_type != "units":
            raise InputError(
                f"a {table_type} table holds no transcript units (expected show,start,end[,text,speaker,topic])",
                path=file,
                line=1,
                value=",".join(table.columns),
            )
        return unit_frames(table)
    cues = read_cues(file, format=kind, encoding=encoding, lenient=True)
    for cue in cues:
        if cue.end_ms < cue.start_ms:
            raise InputError(
                "caption with end before start",
                path=file,
                line=cue.line,
                value=f"{cue.start_ms / 1000:g} -> {cue.end_ms / 1000:g}",
            )
    lasting = [cue for cue in cues if cue.end_ms > cue.start_ms]
    if len(lasting) < len(cues):  # hidden cues (pysrt's capability tester): no unit, nothing else changed
        first = next(cue for cue in cues if cue.end_ms == cue.start_ms)
        warn(
            f"{len(cues) - len(lasting)} zero-duration cue(s) skipped (a unit must last; first here, at "
            f"{first.start_ms / 1000:.3f} s)",
            path=file,
            line=first.line,
        )
    frame = caption_units(lasting, path=file)
    return {show or file.stem: (frame, min((c.line for c in lasting), default=None), None)}


def caption_units(cues, *, path) -> pd.DataFrame:
    """The units of a caption file: one per cue, by start, made not to overlap.

    Caption cues overlap when a cue stays on screen while the next one appears (roll-up captions):
    a unit then ends where the next one begins, which is when the next words are spoken. Cues that
    start at the same time (two lines shown together) become one unit: their texts joined by a
    space in file order, its end the latest of theirs, its speakers (distinct, in file order)
    joined by `` / ``. Each file with such cues gives one :class:`~tvseg.errors.TvsegWarning`
    counting them and naming the first one's line.
    """
    starts: list[int] = []
    ends: list[int] = []
    texts: list[str] = []
    voices: list[list[str]] = []
    lines: list[int] = []
    merged: list[int] = []
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
            what.append(f"{len(shortened)} caption cue(s) overlap the next one and now end where it begins")
        if merged:
            what.append(f"{len(merged)} cue(s) start with an earlier one and are joined to it")
        warn(
            " and ".join(what) + " (units may not overlap); first such cue here",
            path=path,
            line=min([lines[j] for j in shortened] + merged),
        )
    frame = pd.DataFrame({"start": [t / 1000 for t in starts], "end": [t / 1000 for t in ends], "text": texts})
    if any(voices):
        frame["speaker"] = [" / ".join(v) for v in voices]
    return frame
