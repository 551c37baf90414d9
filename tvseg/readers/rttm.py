"""NIST RTTM (Rich Transcription Time Marked), as specified in Appendix A of the RT-09 evaluation plan.

One object per line, ``TYPE FILE CHNL TBEG TDUR ORTHO STYPE NAME CONF [SLAT]``, fields separated by spaces
or tabs (and only those); the show id is FILE, the label NAME, the score CONF
(:mod:`tvseg.retrieval.confidence`). What is accepted and refused: ``formats/rttm.md``.

The files of a folder are read at once: joined into one text, their lines and fields found with numpy
(:class:`~tvseg.readers.scan.Scan`) and parsed by pandas' C parser. A line is checked there when it is
regular (a known type, TBEG and TDUR plain decimals, or ``<NA>`` where the format allows it); any other
line is checked by :func:`_line`, which names the first error of the first file that holds one. The
end of a segment is TBEG + TDUR summed exactly as the decimals written. Up to :data:`SMALL` lines are
all checked by :func:`_line`, without pandas, whose import takes longer than reading them.
"""

from __future__ import annotations

import csv
import re
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tvseg.errors import InputError
from tvseg.progress import iterate
from tvseg.readers.corpus import SCORE, Rows
from tvseg.readers.scan import Scan, byte_reader, categories, plain_decimals
from tvseg.readers.source import lines_of, read_text
from tvseg.readers.validation import MAX_SECONDS, parse_time, too_large

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SPAN_TYPES", "POINT_TYPES", "INFO_TYPES", "ALL_TYPES", "read_rttm", "check_types", "split_fields"]

SPAN_TYPES = frozenset("SEGMENT NOSCORE NO_RT_METADATA LEXEME NON-LEX NON-SPEECH FILLER EDIT SU A/P SPEAKER".split())
"""Line types that carry a time span (TBEG and a positive TDUR): kept by default."""
POINT_TYPES = frozenset({"IP", "CB"})
"""Line types that mark an instant (TDUR may be ``<NA>`` or 0): never segments."""
INFO_TYPES = frozenset({"SPKR-INFO"})
"""Line types with ``<NA>`` times (speaker information): never segments."""
ALL_TYPES = SPAN_TYPES | POINT_TYPES | INFO_TYPES

_NA = "<NA>"
_SPACES = re.compile(rb" {2,}")
_EDGES = re.compile(rb"(?m)^ | $")
_COMMENT = re.compile(rb"(?m)^;;[^\n]*")
_POWERS = np.array([10.0**k for k in range(23)])  # exact doubles
_EXACT = 2.0**53
_UNKNOWN, _SPAN, _POINT, _INFO = 0, 1, 2, 3  # line types
_CLASSES = {
    **dict.fromkeys(SPAN_TYPES, _SPAN),
    **dict.fromkeys(POINT_TYPES, _POINT),
    **dict.fromkeys(INFO_TYPES, _INFO),
}
_SUSPECT, _NONE, _KEPT = -1, 0, 1  # lines: checked by _line, no segment, a segment to keep
SMALL = 1000
"""Files of at most this many lines in all are read line by line (:func:`_line`), without pandas."""


def split_fields(line: str) -> list[str]:
    """The fields of an RTTM or UEM line, split on spaces and tabs only (not on other whitespace)."""
    if "\t" in line:
        line = line.replace("\t", " ")
    fields = line.split(" ")
    if "" in fields:
        fields = [field for field in fields if field]
    return fields


def check_types(types) -> frozenset[str]:
    """Return the line types to keep (default: every span type), refusing unknown or timeless ones."""
    if types is None:
        return SPAN_TYPES
    if isinstance(types, str):
        types = {types}
    wanted = frozenset(t.upper() for t in types)
    unknown = sorted(wanted - ALL_TYPES)
    if unknown:
        raise InputError(f"unknown RTTM line type (known: {', '.join(sorted(ALL_TYPES))})", value=unknown[0])
    timeless = sorted(wanted - SPAN_TYPES)
    if timeless:
        raise InputError("this RTTM line type carries no time span", value=timeless[0])
    return wanted


def _confidence(text: str, *, path, number: int) -> float:
    """A segment's CONF: NaN for ``<NA>``, else a finite number."""
    if text == _NA:
        return np.nan
    try:
        value = float(text)
    except ValueError:
        value = np.nan
    if not np.isfinite(value) or "_" in text:
        raise InputError("confidence (CONF) is not a number (nor <NA>)", path=path, line=number, value=text)
    return value


def _line(raw: str, *, path, number: int, keep: frozenset[str]) -> tuple[float, float, float] | None:
    """Check one RTTM line as written: the ``(start, end, confidence)`` of a segment to keep, else None.

    Raises
    ------
    InputError
        A wrong number of fields, an unknown type, a time that is not a non-negative number up to
        :data:`~tvseg.readers.validation.MAX_SECONDS` (or ``<NA>`` on a span type), a duration that
        is not positive, an end (TBEG + TDUR) beyond that bound, a kept segment's CONF that is neither
        ``<NA>`` nor a finite number.
    """
    fields = split_fields(raw)
    if len(fields) not in (9, 10):
        raise InputError(f"expected 9 or 10 fields, found {len(fields)}", path=path, line=number, value=raw)
    kind = fields[0].upper()
    if kind not in ALL_TYPES:
        raise InputError("unknown RTTM line type", path=path, line=number, value=fields[0])
    start_text, duration_text = fields[3], fields[4]
    if kind in INFO_TYPES:
        return None
    if kind in POINT_TYPES:
        parse_time(start_text, path=path, line=number, field="onset (TBEG)")
        if duration_text != _NA:
            parse_time(duration_text, path=path, line=number, field="duration (TDUR)")
        return None
    start = parse_time(start_text, path=path, line=number, field="onset (TBEG)")
    duration = parse_time(duration_text, path=path, line=number, field="duration (TDUR)")
    if duration <= 0:
        raise InputError("duration (TDUR) is zero", path=path, line=number, value=duration_text)
    if kind not in keep:
        return None
    # the end is summed in decimal, so that 0.029 + 0.001 is 0.030, the start of the next segment, and
    # not the float 0.030000000000000002 that would overlap it
    end = float(Decimal(start_text) + Decimal(duration_text))
    if end > MAX_SECONDS:
        raise InputError(too_large("end (TBEG + TDUR)"), path=path, line=number, value=raw)
    return start, end, _confidence(fields[8], path=path, number=number)


def read_rttm(
    files: list[Path], *, types=None, encoding: str | None = None
) -> tuple[Rows, tuple[Path, InputError] | None]:
    """Read RTTM files (in ``encoding``): the segments of the types kept, and the first error.

    Every show named on a non-comment line of a file is a show of it, even when none of its lines is
    of a kept type (it then has no segment), as in ``pyannote.database.util.load_rttm``.

    Returns
    -------
    rows : Rows
        The kept segments of the files before the first that holds an error (all of them without one),
        unsorted and not checked for overlaps.
    failed : (path, InputError) or None
        That file and its first error (:func:`_line`; a file with no RTTM line at all is refused at line 1).
    """
    keep = check_types(types)
    texts: list[str] = []
    failed: tuple[Path, InputError] | None = None
    for file in iterate(files, desc="reading RTTM files"):
        try:
            texts.append(lines_of(read_text(file, encoding=encoding)))
        except InputError as error:
            failed = (file, error)
            break
    counts = np.array([text.count("\n") for text in texts], dtype=np.int64)
    file_start = np.concatenate(([0], np.cumsum(counts)))
    joined = "".join(texts)
    data = (joined.replace("\t", " ") if "\t" in joined else joined).encode("utf-8")
    if b"  " in data or b"\n " in data or b" \n" in data or data[:1] == b" ":
        data = _EDGES.sub(b"", _SPACES.sub(b" ", data))
    if b";;" in data:
        data = _COMMENT.sub(b"", data)  # a comment line becomes a blank one: the lines keep their numbers
    scan = Scan(data, " ")
    lines = np.flatnonzero(~scan.blank)
    file_of = np.searchsorted(file_start[1:], lines, side="right")
    failed_at = len(texts)  # the first file refused: one that does not decode, or holds no RTTM line
    empty = np.flatnonzero(np.bincount(file_of, minlength=len(texts)) == 0)
    if empty.size:
        failed_at = int(empty[0])
        failed = (
            files[failed_at],
            InputError("no RTTM line (only comments or blank lines)", path=files[failed_at], line=1),
        )
    fields = scan.count[lines] + 1
    wrong = np.flatnonzero(((fields < 9) | (fields > 10)) & (file_of < failed_at))
    parsed = lines[: wrong[0]] if wrong.size else lines[file_of < failed_at]
    kind, start, end, names, conf = _regular(scan, parsed, keep)
    checked: dict[int, list[str]] = {}
    for i in np.flatnonzero(kind == _SUSPECT).tolist() + ([-1] if wrong.size else []):
        g = int(parsed[i] if i >= 0 else lines[wrong[0]])
        f = int(np.searchsorted(file_start[1:], g, side="right"))
        number = g - int(file_start[f]) + 1
        if f not in checked:
            checked[f] = texts[f].split("\n")
        try:
            span = _line(checked[f][number - 1], path=files[f], number=number, keep=keep)
        except InputError as error:
            failed, failed_at = (files[f], error), f
            break
        kind[i] = _NONE if span is None else _KEPT
        if span is not None:
            start[i], end[i], conf[i] = span
    file_of = file_of[: len(parsed)]
    valid = file_of < failed_at
    rows = _rows(
        files,
        file_of,
        parsed - file_start[file_of] + 1,
        names,
        valid,
        start=start,
        end=end,
        kept=kind == _KEPT,
        conf=conf,
    )
    return rows, failed


def _regular(scan: Scan, parsed: np.ndarray, keep: frozenset[str]):
    """Parse the ``parsed`` lines (9 or 10 fields each): what each line is (``_SUSPECT``: not regular,
    for :func:`_line` to check; ``_NONE``: no segment; ``_KEPT``: a segment to keep), its start and end,
    and the shows and labels read (their names, and each line's index among them), and its CONF (NaN:
    ``<NA>``, or a line for :func:`_line`)."""
    n = len(parsed)
    if not n:
        return np.zeros(0, np.int64), np.zeros(0), np.zeros(0), None, np.zeros(0)
    if n <= SMALL:
        names = (_distinct(scan, parsed, 1), _distinct(scan, parsed, 7))
        return np.full(n, _SUSPECT), np.full(n, np.nan), np.full(n, np.nan), names, np.full(n, np.nan)
    onset, duration = scan.field(parsed, 3), scan.field(parsed, 4)
    starts, ends = np.concatenate((onset[0], duration[0])), np.concatenate((onset[1], duration[1]))
    plain, decimals = plain_decimals(scan, starts, ends, decimals=True)
    assert decimals is not None  # asked for
    na = _is_na(scan, starts, ends)
    as_float = bool((plain | na).all())
    width = int(scan.count[parsed].max()) + 1
    stop = int(scan.line_end[parsed[-1]]) + 1

    import pandas as pd

    def read(columns):
        return pd.read_csv(
            byte_reader(scan.data, stop),
            sep=" ",
            header=None,
            names=list(range(width)),
            usecols=sorted(columns),
            dtype=columns,
            na_values={k: [_NA] for k in (3, 4) if columns.get(k) is np.float64},
            keep_default_na=False,
            quoting=csv.QUOTE_NONE,
            skip_blank_lines=True,
            engine="c",
        )

    times = np.float64 if as_float else str
    frame = read({0: "category", 1: "category", 3: times, 4: times, 7: "category", 8: "category"})
    assert len(frame) == n  # one row per line that is not blank
    reread = lambda k: read({k: str})[k]
    kinds, kind_codes = categories(frame, 0, reread)
    kind = np.array([_CLASSES.get(k.upper(), _UNKNOWN) for k in kinds] + [_UNKNOWN])[kind_codes]
    kept = np.array([k.upper() in keep for k in kinds] + [False])[kind_codes]
    start, length = (_floats(frame[k], plain[i * n : (i + 1) * n]) for i, k in enumerate((3, 4)))
    ok = plain[:n] & (start <= MAX_SECONDS)
    point_ok = ok & (na[n:] | (plain[n:] & (length <= MAX_SECONDS)))
    span_ok = ok & plain[n:] & (length > 0) & (length <= MAX_SECONDS)
    end = np.full(n, np.nan)
    summed = (kind == _SPAN) & kept & span_ok
    end[summed] = _exact_sums(start[summed], decimals[:n][summed], length[summed], decimals[n:][summed])
    # each distinct CONF read once: <NA>, a finite number, or neither (a kept segment's: checked by _line)
    texts, conf_codes = categories(frame, 8, reread)
    values = np.full(len(texts) + 1, np.nan)
    number_ok = np.zeros(len(texts) + 1, dtype=bool)
    for k, text in enumerate(texts):
        try:
            values[k] = _confidence(text, path=None, number=0)
            number_ok[k] = True
        except InputError:
            pass
    conf, conf_ok = values[conf_codes], number_ok[conf_codes]
    regular = (
        (kind == _INFO)
        | ((kind == _POINT) & point_ok)
        | ((kind == _SPAN) & span_ok & (~kept | ((end <= MAX_SECONDS) & conf_ok)))
    )
    return (
        np.where(regular, np.where(summed, _KEPT, _NONE), _SUSPECT),
        start,
        end,
        (categories(frame, 1, reread), categories(frame, 7, reread)),
        np.where(summed, conf, np.nan),
    )


def _rows(files, file_of, line, names, valid, *, kept, start, end, conf) -> Rows:
    """The rows of the segments kept in the ``valid`` lines, the shows those of every valid line (their
    scores when some CONF is a number)."""
    if names is None:
        return Rows([], [], [], start=[], end=[], line=[], label=np.zeros(0, dtype=object))
    (names, show), (labels, label_codes) = names
    kept = kept & valid
    pair, pairs = _factorize(file_of[valid] * len(names) + show[valid])  # in order of appearance
    labels = np.asarray(labels + [None], dtype=object)[:-1]
    kept_valid = kept[valid]
    scores = conf[kept]
    extra = {SCORE: scores} if (~np.isnan(scores)).any() else {}
    return Rows(
        [names[k] for k in (pairs % len(names)).tolist()],
        [files[f] for f in (pairs // len(names)).tolist()],
        pair[kept_valid],
        start=start[kept],
        end=end[kept],
        line=line[kept],
        label=labels[label_codes[kept]],
        **extra,
    )


def _distinct(scan: Scan, lines: np.ndarray, k: int) -> tuple[list[str], np.ndarray]:
    """The distinct texts of field ``k`` of the ``lines``, in order of appearance, and each line's index
    among them (as :func:`~tvseg.readers.scan.categories` of the fields read by pandas)."""
    start, end = scan.field(lines, k)
    index: dict[str, int] = {}
    data = scan.data
    codes = [
        index.setdefault(bytes(data[a:b]).decode("utf-8"), len(index)) for a, b in zip(start.tolist(), end.tolist())
    ]
    return list(index), np.array(codes, dtype=np.int64)


def _factorize(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``pandas.factorize(keys)``: each key's index among the distinct keys, these in order of appearance
    (by a dict up to :data:`SMALL` keys, not to import pandas)."""
    if len(keys) > SMALL:
        import pandas as pd

        return pd.factorize(keys)
    index: dict[int, int] = {}
    codes = [index.setdefault(key, len(index)) for key in keys.tolist()]
    return np.array(codes, dtype=np.intp), np.array(list(index), dtype=keys.dtype)


def _floats(column: pd.Series, plain: np.ndarray) -> np.ndarray:
    """The values of a time column read as floats (NaN for ``<NA>``), or of its plain decimals when it
    was read as text (NaN elsewhere: those lines are checked by :func:`_line`)."""
    if column.dtype == np.float64:
        return column.to_numpy(dtype=np.float64, copy=True)
    values = np.full(len(column), np.nan)
    values[plain] = column.to_numpy(dtype=object)[plain].astype(np.float64)
    return values


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
    too many digits to be done here (:func:`_line` sums it)."""
    places = np.maximum(start_decimals, duration_decimals)
    # each decimal's digits as an integer: exact, below 10**15
    a = np.rint(start * _POWERS[start_decimals]) * _POWERS[places - start_decimals]
    b = np.rint(duration * _POWERS[duration_decimals]) * _POWERS[places - duration_decimals]
    total = a + b
    exact = total < _EXACT / 2  # every term and the sum below 2**52: the float sum is the exact integer
    return np.where(exact, total / _POWERS[places], np.nan)
