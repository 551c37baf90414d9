"""RTTM files read column-wise: all the files of a folder joined into one text, parsed once.

A file is read here when every line is regular: 9 or 10 fields, a known type, TBEG and TDUR plain
decimals (or ``<NA>`` where the format allows it), a positive TDUR for a span type, times and ends
within :data:`~tvseg.readers.validation.MAX_SECONDS`. Any other file is left to the careful reader
(:func:`~tvseg.readers.rttm.read_rttm_records`), which accepts it or names the line that breaks the
format, exactly as before. The end of a segment is TBEG + TDUR summed exactly as decimals, as the
careful reader does, here in integers.
"""

from __future__ import annotations

import csv
import re

import numpy as np
import pandas as pd

from tvseg.progress import iterate
from tvseg.readers.rttm import INFO_TYPES, POINT_TYPES, SPAN_TYPES
from tvseg.readers.scan import Piece, Scan, categories, plain_decimals
from tvseg.readers.source import read_text
from tvseg.readers.validation import MAX_SECONDS

__all__ = ["rttm_piece"]

_SPACES = re.compile(rb" {2,}")
_EDGES = re.compile(rb"(?m)^ | $")
_COMMENT = re.compile(rb"(?m)^;;[^\n]*")
_POWERS = np.array([10.0**k for k in range(23)])  # exact doubles
_EXACT = 2.0**53
_UNKNOWN, _SPAN, _POINT, _INFO = 0, 1, 2, 3


def lines_of(text: str) -> str:
    """The text with every line ending with ``\\n`` (CRLF and CR made LF: the same lines)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


def rttm_piece(files, keep, *, encoding: str | None = None) -> tuple[Piece | None, list]:
    """Read the regular RTTM files among ``files`` (their kept segments, unsorted, unchecked), in ``encoding``.

    Returns
    -------
    piece : Piece or None
        The shows of the regular files (``None`` when the files cannot be read this way at all).
    careful : list of path
        The files to read with the careful reader.
    """
    texts = {file: lines_of(read_text(file, encoding=encoding)) for file in iterate(files, desc="reading RTTM files")}
    if any("\x00" in text for text in texts.values()):
        return None, list(files)
    careful: set = set()
    for _ in range(3):
        regular = [file for file in files if file not in careful]
        found = _parse(regular, texts, keep)
        if found is None:
            return None, list(files)
        piece, irregular = found
        if piece is not None:
            careful |= irregular
            return piece, [file for file in files if file in careful]
        careful |= irregular
    return None, list(files)


def _parse(files, texts, keep):
    """``(piece, irregular files)``; ``(None, irregular files)`` when they must be left out before parsing."""
    if not files:
        return Piece([], [], []), set()
    counts = np.array([texts[file].count("\n") for file in files])
    joined = "".join(texts[file] for file in files)
    if "\t" in joined:
        joined = joined.replace("\t", " ")
    data = joined.encode("utf-8")
    if b"  " in data or b"\n " in data or b" \n" in data or data[:1] == b" ":
        data = _EDGES.sub(b"", _SPACES.sub(b" ", data))
    if b";;" in data:
        data = _COMMENT.sub(b"", data)  # a comment line becomes a blank one: the lines keep their numbers
    scan = Scan(data, " ")
    file_end = np.cumsum(counts)
    rows = np.flatnonzero(~scan.blank)
    file_of = np.searchsorted(file_end, rows, side="right")
    fields = scan.count[rows] + 1
    emptied = np.bincount(file_of, minlength=len(files)) == 0  # no RTTM line at all
    wrong = (fields < 9) | (fields > 10)
    if wrong.any() or emptied.any():
        return None, {files[i] for i in np.unique(file_of[wrong])} | {files[i] for i in np.flatnonzero(emptied)}
    onset, duration = scan.field(rows, 3), scan.field(rows, 4)
    plain, decimals = plain_decimals(
        scan, np.concatenate((onset[0], duration[0])), np.concatenate((onset[1], duration[1])), decimals=True
    )
    na = _is_na(scan, np.concatenate((onset[0], duration[0])), np.concatenate((onset[1], duration[1])))
    n = len(rows)
    readable = (plain | na)[:n] & (plain | na)[n:]
    if not readable.all():
        return None, {files[i] for i in np.unique(file_of[~readable])}
    width = int(fields.max())  # 9 or 10: pandas pads the shorter lines

    def read(columns):
        return pd.read_csv(
            scan.reader(),
            sep=" ",
            header=None,
            names=list(range(width)),
            usecols=sorted(columns),
            dtype=columns,
            na_values={k: ["<NA>"] for k in (3, 4) if k in columns},
            keep_default_na=False,
            quoting=csv.QUOTE_NONE,
            skip_blank_lines=True,
            engine="c",
        )

    try:
        frame = read({0: "category", 1: "category", 3: np.float64, 4: np.float64, 7: "category"})
        reread = lambda k: read({k: str})[k]
        kinds, kind_codes = categories(frame, 0, reread)
        names, shows = categories(frame, 1, reread)
        labels, label_codes = categories(frame, 7, reread)
    except (ValueError, pd.errors.ParserError):
        return None
    if len(frame) != n:
        return None
    kind_class = np.array(
        [
            _SPAN
            if k.upper() in SPAN_TYPES
            else _POINT
            if k.upper() in POINT_TYPES
            else _INFO
            if k.upper() in INFO_TYPES
            else _UNKNOWN
            for k in kinds
        ]
        + [_UNKNOWN]
    )
    kind = kind_class[kind_codes]
    kept_kind = np.array([k.upper() in keep for k in kinds] + [False])[kind_codes]
    start, length = frame[3].to_numpy(dtype=np.float64), frame[4].to_numpy(dtype=np.float64)
    timed = (kind == _SPAN) | (kind == _POINT)
    span = kind == _SPAN
    good = kind != _UNKNOWN
    good &= ~timed | (plain[:n] & (start <= MAX_SECONDS))
    good &= ~span | (plain[n:] & (length > 0))
    good &= ~timed | na[n:] | (plain[n:] & (length <= MAX_SECONDS))
    kept = span & kept_kind & good
    end = np.full(n, np.nan)
    end[kept] = _exact_sums(start[kept], decimals[:n][kept], length[kept], decimals[n:][kept])
    good &= ~kept | (end <= MAX_SECONDS)  # NaN (a sum too long to be exact here) is not good
    irregular = np.zeros(len(files), dtype=bool)
    irregular[file_of[~good]] = True
    regular = ~irregular[file_of]
    show_files = np.full((2, len(names)), -1, dtype=np.int64)
    np.maximum.at(show_files[0], shows[regular], file_of[regular])
    show_files[1] = len(files)
    np.minimum.at(show_files[1], shows[regular], file_of[regular])
    named = np.flatnonzero(show_files[0] >= 0)
    if np.any(show_files[0][named] != show_files[1][named]):
        return None  # a show in two files: the careful reader says where
    compact = np.full(len(show_files[0]), -1, dtype=np.int64)
    compact[named] = np.arange(len(named))
    kept &= regular
    labels = np.asarray(labels + [None], dtype=object)[:-1][label_codes[kept]]
    first_line = file_end - counts
    piece = Piece(
        [names[k] for k in named],
        [files[f] for f in show_files[0][named]],
        compact[shows[kept]],
        start=start[kept],
        end=end[kept],
        label=labels,
        line=(rows[kept] - first_line[file_of[kept]] + 1).astype(np.int64),
    )
    return piece, {files[i] for i in np.flatnonzero(irregular)}


def _is_na(scan: Scan, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Which fields are exactly ``<NA>``."""
    na = (end - start) == 4
    buf, last = scan.buf, len(scan.buf) - 1
    for k, byte in enumerate(b"<NA>"):
        na &= buf[np.minimum(start + k, last)] == byte
    return na


def _exact_sums(start, start_decimals, duration, duration_decimals) -> np.ndarray:
    """TBEG + TDUR as the decimals written (read exactly: plain decimals of at most 15 digits), rounded
    once to the nearest double as ``float(Decimal(tbeg) + Decimal(tdur))``; NaN where the exact sum has
    too many digits to be done here."""
    places = np.maximum(start_decimals, duration_decimals)
    # each decimal's digits as an integer: exact, below 10**15
    a = np.rint(start * _POWERS[start_decimals]) * _POWERS[places - start_decimals]
    b = np.rint(duration * _POWERS[duration_decimals]) * _POWERS[places - duration_decimals]
    total = a + b
    exact = total < _EXACT / 2  # every term and the sum below 2**52: the float sum is the exact integer
    return np.where(exact, total / _POWERS[places], np.nan)
