"""``tvseg convert IN OUT [--from FMT] [--to FMT]``: between RTTM, WebVTT chapters, SRT and CSV.

IN may be a file or a folder; OUT is a ``.rttm`` or ``.csv`` file, a ``.vtt`` or ``.srt`` file (one
show), or a folder (WebVTT chapters, or SRT with ``--to srt``: one file per show). Times are kept to
the millisecond.
"""
from __future__ import annotations

import sys

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "convert", help="convert segmentations between RTTM, WebVTT chapters, SRT and CSV",
        description="Convert topic segmentations. Formats follow the extensions (.rttm, .vtt, "
                    ".srt, .csv; a folder for WebVTT chapters) unless --from/--to are given.")
    parser.add_argument("input", metavar="IN", help="file or folder to read")
    parser.add_argument("output", metavar="OUT", help="file to write, or folder for WebVTT (or SRT) chapters")
    parser.add_argument("--from", dest="from_format", choices=("rttm", "vtt", "srt", "csv"),
                        help="input format (default: from the extension)")
    parser.add_argument("--to", dest="to_format", choices=("rttm", "vtt", "srt", "csv"),
                        help="output format (default: from the extension; a folder means vtt)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from tvseg.errors import InputError
    from tvseg.readers import detect_format, list_files, read_segments
    from tvseg.readers.tables import read_table, table_kind
    from tvseg.writers import write_segments

    for file in list_files(args.input, format=args.from_format):
        if detect_format(file, args.from_format) == "csv":
            table = read_table(file)
            if table_kind(table.columns, path=file) == "units" and "topic" not in table.columns:
                raise InputError("this breath-group table has units only (no topic column): "
                                 "there are no segments to convert", path=file, line=1,
                                 value=",".join(table.columns))
    segmentations = read_segments(args.input, format=args.from_format)
    written = write_segments(segmentations, args.output, format=args.to_format)
    count = sum(len(annotation) for annotation in segmentations.values())
    print(f"{args.input} -> {args.output}: {len(segmentations)} show(s), {count} segment(s), "
          f"{len(written)} file(s) written", file=sys.stderr)
    return 0
