"""NIST UEM: the evaluated regions of each show.

One region per line, fields separated by spaces or tabs: ``SHOW CHANNEL START END`` (seconds).
``;;`` starts a comment line; blank lines are skipped. A show may have several regions; they
must not overlap (touching is fine). See ``formats/uem.md``.
"""
from __future__ import annotations

from pyannote.core import Segment, Timeline

from tvseg.errors import InputError
from tvseg.readers.rttm import split_fields
from tvseg.readers.source import read_text, split_lines
from tvseg.readers.validation import Record, check_records, parse_time

__all__ = ["read_uem"]


def read_uem(path) -> dict[str, Timeline]:
    """Read a UEM file into ``{show: Timeline}`` of its evaluated regions.

    Raises
    ------
    InputError
        A line without exactly 4 fields, a bad time, an end not after the start, overlapping
        regions of one show, or a file without any region.
    """
    regions: dict[str, list[Record]] = {}
    for number, raw in enumerate(split_lines(read_text(path)), start=1):
        fields = split_fields(raw)
        if not fields or fields[0].startswith(";;"):
            continue
        if len(fields) != 4:
            raise InputError(f"expected 4 fields (show channel start end), found {len(fields)}",
                             path=path, line=number, value=raw)
        show, _channel, start_text, end_text = fields
        start = parse_time(start_text, path=path, line=number, field="start")
        end = parse_time(end_text, path=path, line=number, field="end")
        regions.setdefault(show, []).append(Record(start, end, show, number))
    if not regions:
        raise InputError("no UEM line (only comments or blank lines)", path=path, line=1)
    return {show: Timeline([Segment(r.start, r.end)
                            for r in check_records(records, path=path, what="UEM region")], uri=show)
            for show, records in regions.items()}
