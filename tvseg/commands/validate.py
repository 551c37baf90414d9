"""``tvseg validate PATH...``: read every file with every reader that fits it; report every bad file.

Exit 0 when every file parses (one summary line per file on stdout); otherwise one
``PATH:LINE: message`` line per bad file on stderr, and exit 2.
"""
from __future__ import annotations

import sys
from pathlib import Path

from tvseg.errors import InputError, TvsegError

__all__ = ["add_parser", "run", "validate_file"]


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "validate", help="check that files parse (segments, units, UEM, metadata)",
        description="Read each file (or each supported file of a folder) with every reader that "
                    "fits it. Exit 0 when all parse; else print PATH:LINE: message lines on stderr "
                    "and exit 2.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to check")
    parser.set_defaults(run=run)


def run(args) -> int:
    failures = 0
    for path in args.paths:
        for file in _files(Path(path)):
            try:
                summary = validate_file(file)
            except TvsegError as error:
                failures += 1
                print(error if getattr(error, "path", None) else f"{file}: {error}", file=sys.stderr)
            else:
                print(f"{file}: ok: {summary}")
    return 2 if failures else 0


def _files(path: Path) -> list[Path]:
    from tvseg.readers import FORMATS
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file()
                       and (p.suffix.lower() in FORMATS or p.suffix.lower() == ".uem"))
        return files or [path]  # an empty folder is reported as an error by the reader
    return [path]


def validate_file(file: Path) -> str:
    """Read ``file`` with the readers that fit it; return a one-line summary or raise TvsegError."""
    from tvseg.readers import detect_format, read_metadata, read_segments, read_uem, read_units
    from tvseg.readers.tables import read_table, table_kind

    if not file.exists():
        raise InputError("no such file or folder", path=file)
    if file.is_dir():
        read_segments(file)  # raises the reader's error for a folder with no supported file
    if file.suffix.lower() == ".uem":
        uem = read_uem(file)
        return f"UEM, {len(uem)} show(s), {sum(len(t) for t in uem.values())} region(s)"
    kind = detect_format(file)
    if kind == "csv":
        table_type = table_kind(read_table(file).columns, path=file)
        if table_type == "metadata":
            return f"metadata, {len(read_metadata(file))} show(s)"
        if table_type == "units":
            units = read_units(file)
            summary = f"breath groups, {len(units)} show(s), {sum(map(len, units.values()))} unit(s)"
            if "topic" not in next(iter(units.values())).columns:
                return summary
            segments = read_segments(file)
            return summary + f", {_count(segments)} topic segment(s)"
    segments = read_segments(file)
    summary = f"{kind.upper()}, {len(segments)} show(s), {_count(segments)} segment(s)"
    if kind in ("vtt", "srt"):
        units = read_units(file)  # also checks the cues as caption units (no overlap)
        summary += f", {sum(map(len, units.values()))} cue(s)"
    return summary


def _count(segmentations) -> int:
    return sum(len(annotation) for annotation in segmentations.values())
