"""NIST RTTM (Rich Transcription Time Marked), as specified in Appendix A of the RT-09 evaluation plan.

One object per line, fields separated by spaces or tabs (and only those: a no-break space or any
other Unicode space is part of a field)::

    TYPE FILE CHNL TBEG TDUR ORTHO STYPE NAME CONF [SLAT]

Nine fields (RTTM v13) or ten (with SLAT). ``;;`` starts a comment line; blank lines are skipped.
The show id is FILE, the label of a segment is NAME (``<NA>`` becomes :data:`NO_LABEL`). The channel
is not used. See ``formats/rttm.md`` for what is accepted and what is refused.
"""

from __future__ import annotations

from decimal import Decimal

from tvseg.errors import InputError
from tvseg.readers.source import read_text, split_lines
from tvseg.readers.validation import MAX_SECONDS, NO_LABEL, Record, parse_time

__all__ = ["SPAN_TYPES", "POINT_TYPES", "INFO_TYPES", "ALL_TYPES", "read_rttm_records"]

SPAN_TYPES = frozenset(
    {
        "SEGMENT",
        "NOSCORE",
        "NO_RT_METADATA",
        "LEXEME",
        "NON-LEX",
        "NON-SPEECH",
        "FILLER",
        "EDIT",
        "SU",
        "A/P",
        "SPEAKER",
    }
)
"""Line types that carry a time span (TBEG and a positive TDUR): kept by default."""
POINT_TYPES = frozenset({"IP", "CB"})
"""Line types that mark an instant (TDUR may be ``<NA>`` or 0): never segments."""
INFO_TYPES = frozenset({"SPKR-INFO"})
"""Line types with ``<NA>`` times (speaker information): never segments."""
ALL_TYPES = SPAN_TYPES | POINT_TYPES | INFO_TYPES

_NA = "<NA>"


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


def read_rttm_records(path, *, types=None, encoding: str | None = None) -> dict[str, list[Record]]:
    """Read an RTTM file into ``{show: [Record, ...]}`` (unsorted, not yet checked for overlaps).

    Every show named on a non-comment line is a key, even when none of its lines is of a kept
    type (its list is then empty), as in ``pyannote.database.util.load_rttm``. ``encoding`` is the
    file's (default UTF-8; see :func:`~tvseg.readers.source.read_text`).

    Raises
    ------
    InputError
        A line with a wrong number of fields, an unknown type, a time that is not a non-negative
        number up to :data:`~tvseg.readers.validation.MAX_SECONDS` (or ``<NA>`` on a span type), a
        duration that is not positive, an end (TBEG + TDUR) beyond that bound, or a file with no
        RTTM line at all.
    """
    keep = check_types(types)
    shows: dict[str, list[Record]] = {}
    for number, raw in enumerate(split_lines(read_text(path, encoding=encoding)), start=1):
        fields = split_fields(raw)
        if not fields or fields[0].startswith(";;"):
            continue
        if len(fields) not in (9, 10):
            raise InputError(f"expected 9 or 10 fields, found {len(fields)}", path=path, line=number, value=raw)
        kind = fields[0].upper()
        if kind not in ALL_TYPES:
            raise InputError("unknown RTTM line type", path=path, line=number, value=fields[0])
        show = fields[1]
        records = shows.setdefault(show, [])
        start_text, duration_text = fields[3], fields[4]
        if kind in INFO_TYPES:
            continue
        if kind in POINT_TYPES:
            parse_time(start_text, path=path, line=number, field="onset (TBEG)")
            if duration_text != _NA:
                parse_time(duration_text, path=path, line=number, field="duration (TDUR)")
            continue
        start = parse_time(start_text, path=path, line=number, field="onset (TBEG)")
        duration = parse_time(duration_text, path=path, line=number, field="duration (TDUR)")
        if duration <= 0:
            raise InputError("duration (TDUR) is zero", path=path, line=number, value=duration_text)
        if kind in keep:
            name = fields[7]
            label = NO_LABEL if name == _NA else name
            # the end is summed in decimal, so that 0.029 + 0.001 is 0.030, the start of the next
            # segment, and not the float 0.030000000000000002 that would overlap it
            end = float(Decimal(start_text) + Decimal(duration_text))
            if end > MAX_SECONDS:
                raise InputError(
                    f"end (TBEG + TDUR) is too large (more than {MAX_SECONDS:g} seconds)",
                    path=path,
                    line=number,
                    value=raw,
                )
            records.append(Record(start, end, label, number))
    if not shows:
        raise InputError("no RTTM line (only comments or blank lines)", path=path, line=1)
    return shows
