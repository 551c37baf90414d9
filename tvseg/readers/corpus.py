"""Reading a corpus into columns: the fast path of :func:`~tvseg.readers.read_segments` and
:func:`~tvseg.readers.read_units`, and the columns of what the careful readers return.

The fast path reads RTTM files (all of a folder's at once) and CSV tables column-wise
(:mod:`tvseg.readers.fast_rttm`, :mod:`tvseg.readers.fast_csv`); a file either is regular or is read
by the careful reader of :mod:`tvseg.readers.files`. The rows of every file are then sorted once and
checked together. When anything is wrong (an error in a file, a show in two files, segments that
overlap...), the fast path gives up (``None``) and the caller reads the whole input the careful way,
which raises the error the readers always raised, at the same file and line, with the same earlier
warnings.
"""

from __future__ import annotations

import numpy as np

from tvseg.columns import SegmentColumns, UnitColumns
from tvseg.errors import InputError
from tvseg.readers.fast_csv import csv_piece, header_of
from tvseg.readers.fast_rttm import rttm_piece
from tvseg.readers.files import segment_records_of_file, units_of_file
from tvseg.readers.rttm import check_types
from tvseg.readers.scan import Piece, merge_pieces
from tvseg.readers.source import read_plain_ascii, read_text
from tvseg.readers.tables import read_table, table_kind

__all__ = ["fast_segments", "fast_units", "segment_columns", "unit_columns", "is_metadata"]

METADATA_BESIDE = "a metadata table beside the segmentations: not read as segments (give it with --metadata)"


def is_metadata(file, text: str | None = None, *, encoding: str | None = None) -> bool:
    """Whether a folder's CSV file is a metadata table (a table that does not read says no)."""
    names = header_of(text) if text is not None else None
    try:
        if names is None:
            names = read_table(file, encoding=encoding).columns
        return table_kind(names, path=file) == "metadata"
    except InputError:
        return False  # read again, where the error is raised with its line


def fast_segments(
    files, kinds, *, types, in_folder: bool, encoding: str | None = None
) -> tuple[SegmentColumns, list] | None:
    """The segmentations of RTTM and CSV ``files`` (in ``encoding``) as columns, and the warnings to give
    (``[(message, path)]``); ``None`` when the careful reader must read them (it then raises the error)."""
    keep = check_types(types)
    pieces, pending = [], []
    rttm = [file for file, kind in zip(files, kinds) if kind == "rttm"]
    if rttm:
        piece, careful = rttm_piece(rttm, keep, encoding=encoding)
        pieces += [piece] if piece is not None else []
        pieces += [_records_piece(file, "rttm", types, encoding) for file in careful]
    for file, kind in zip(files, kinds):
        if kind != "csv":
            continue
        text = read_text(file, encoding=encoding)
        if in_folder and file.suffix.lower() == ".csv" and is_metadata(file, text):
            pending.append((METADATA_BESIDE, file))
            continue
        piece = csv_piece(file, text, units=False)
        pieces.append(piece if piece is not None else _records_piece(file, "csv", types, encoding))
    columns = merge_pieces(pieces)
    return None if columns is None else (columns, pending)


def _records_piece(file, kind: str, types, encoding: str | None) -> Piece:
    records = segment_records_of_file(file, kind, show=None, types=types, encoding=encoding)
    names = list(records)
    rows = [(k, r) for k, name in enumerate(names) for r in records[name][0]]
    return Piece(
        names,
        [file] * len(names),
        [k for k, _ in rows],
        start=np.array([r.start for _, r in rows]),
        end=np.array([r.end for _, r in rows]),
        line=np.array([r.line for _, r in rows], dtype=np.int64),
        label=np.array([r.label for _, r in rows] + [None], dtype=object)[:-1],
    )


def fast_units(files, *, encoding: str | None = None) -> UnitColumns | None:
    """The breath groups of CSV ``files`` (in ``encoding``) as columns; ``None`` when the careful reader must
    read them."""
    pieces = []
    for file in files:
        text = read_plain_ascii(file, encoding=encoding) or read_text(file, encoding=encoding)
        piece = csv_piece(file, text, units=True)
        if piece is None:
            frames = units_of_file(file, "csv", show=None, encoding=encoding)
            piece = _frames_piece(file, {show: (frame, lines) for show, (frame, _, lines) in frames.items()})
        pieces.append(piece)
    return merge_pieces(pieces, units=True)


def _frames_piece(file, frames) -> Piece:
    names = list(frames)
    counts = [len(frame) for frame, _ in frames.values()]
    join = lambda parts: np.concatenate(parts) if parts else np.zeros(0)
    texts = {
        name: join([frame[name].to_numpy(dtype=object) for frame, _ in frames.values()])
        for name in ("text", "speaker", "topic")
        if names and name in frames[names[0]][0].columns
    }
    return Piece(
        names,
        [file] * len(names),
        np.repeat(np.arange(len(names)), counts),
        start=join([frame["start"].to_numpy(dtype=np.float64) for frame, _ in frames.values()]),
        end=join([frame["end"].to_numpy(dtype=np.float64) for frame, _ in frames.values()]),
        line=join([lines for _, lines in frames.values()]).astype(np.int64),
        **texts,
    )


def segment_columns(shows: dict) -> SegmentColumns:
    """Columns of ``{show: (file, records sorted and checked)}``, as the careful reader reads them."""
    names = sorted(shows)
    records = [r for name in names for r in shows[name][1]]
    offsets = np.concatenate(([0], np.cumsum([len(shows[name][1]) for name in names]))).astype(np.int64)
    return SegmentColumns(
        names,
        offsets,
        start=np.array([r.start for r in records], dtype=np.float64),
        end=np.array([r.end for r in records], dtype=np.float64),
        label=np.array([r.label for r in records] + [None], dtype=object)[:-1],
        line=np.array([r.line for r in records], dtype=np.int64),
        paths=[shows[name][0] for name in names],
    )


def unit_columns(shows: dict) -> UnitColumns:
    """Columns of ``{show: (file, DataFrame, line of each row or None)}``, as the careful reader reads them."""
    lines = {name: value[2] for name, value in shows.items()}
    return UnitColumns.from_frames(
        {name: value[1] for name, value in shows.items()},
        paths={name: value[0] for name, value in shows.items()},
        lines=lines if all(x is not None for x in lines.values()) else None,
    )
