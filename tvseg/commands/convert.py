"""``tvseg convert IN OUT [--from FMT] [--to FMT]``: between RTTM, WebVTT chapters, SRT, CSV, chapter
lists and chunkseg's JSONL.

IN may be a file or a folder; OUT is a ``.rttm``, ``.csv`` or ``.jsonl`` file, a ``.vtt``, ``.srt`` or
``.txt`` file (one show), or a folder (WebVTT chapters, or SRT or chapter lists with ``--to srt`` /
``--to txt``: one file per show; Podcast 2.0 JSON chapters with ``--to podcast``, FFMETADATA files with ``--to
ffmetadata``). Times are kept to the millisecond (whole seconds in chapter lists).

A ``.txt`` input is never guessed (``--from txt``); a chapter list's last chapter ends at ``--end``
or at the show's end in ``--uem``. A JSONL input gives its reference side unless ``--which
hypothesis``. ``--hypothesis PATH`` (JSONL output) writes the hypothesis of each show on the
reference's line; a chapter list given there ends where the reference's show ends.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["add_parser", "run"]

_FORMATS = ("rttm", "vtt", "srt", "csv", "txt", "jsonl", "podcast", "ffmetadata")
_READ_ONLY: tuple[str, ...] = ("youtube", "vidchapters", "anet", "json", "ttml", "scc", "stl", "chapter-llama")
_READ_ONLY += ("sbv", "ass", "ssa", "microdvd", "mpl2", "tmp", "sami", "mp3", "mp4", "src_sgm", "trecvid", "ytseg")
STDOUT = "-"
"""OUT ``-``: the converted file goes to standard output (the formats that write one file)."""


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "convert",
        help="convert segmentations between RTTM, WebVTT chapters, SRT, CSV, chapter lists and chunkseg JSONL",
        description="Convert topic segmentations. Formats follow the extensions (.rttm, .vtt, .srt, .csv, "
        ".jsonl, .json; .ttml, .dfxp, .xml, .scc, .stl broadcast captions; .sbv, .ass, .ssa, .sub (MicroDVD), .smi, "
        ".sami subtitles; .ffmetadata, .ffmeta FFmpeg metadata; .mp3, .m4a, .m4b chapters of audio files; .parquet YTSeg's audio configuration; a folder "
        "for WebVTT chapters; .txt chapter lists on output) unless --from/--to are given; a .txt input needs --from txt. OUT - writes "
        "to standard output.",
    )
    parser.add_argument("input", metavar="IN", help="file or folder to read")
    parser.add_argument(
        "output",
        metavar="OUT",
        help="file to write, or folder for WebVTT (or SRT, or chapter list) files, one per show; - writes to "
        "standard output (with --to; one show for vtt, srt, txt)",
    )
    parser.add_argument(
        "--from",
        dest="from_format",
        choices=(*_FORMATS, *_READ_ONLY),
        help="input format (default: from the extension, and a .json file's shape; txt = chapter list, youtube = "
        "a YouTube description as VidChapters reads it: never guessed; ttml, scc, stl = broadcast captions, "
        "one segment per caption: needs pip install 'tvseg[broadcast]'; ass, ssa, microdvd, mpl2, tmp, sami "
        "subtitles: pip install 'tvseg[subtitles]'; chapter-llama = Chapter-Llama's output; podcast = Podcast 2.0 JSON "
        "chapters, ffmetadata = FFmpeg's metadata file, mp3, mp4 = the chapters of audio files: need pip install "
        "'tvseg[podcast]'; src_sgm, trecvid = TRECVID's .src_sgm stories and XML story segmentation "
        "submissions, formats/trecvid.md; ytseg = YTSeg's files, also by their shape)",
    )
    parser.add_argument(
        "--to",
        dest="to_format",
        choices=(*_FORMATS, "anet"),
        help="output format (default: from the extension; a folder means vtt; anet = ActivityNet-style "
        "predictions, as VidChapters' dvc_eval reads them: never guessed; podcast = Podcast 2.0 JSON chapters, one "
        ".json file per show; ffmetadata = FFmpeg's metadata file, one .ffmetadata file per show)",
    )
    parser.add_argument(
        "--which",
        choices=("reference", "hypothesis"),
        help="the side of a chunkseg JSONL input to read (default: reference)",
    )
    parser.add_argument(
        "--end",
        type=float,
        metavar="SECONDS",
        help="the show's end, where the last chapter of a chapter list (--from txt) ends",
    )
    parser.add_argument(
        "--uem",
        metavar="FILE",
        help="UEM file: the shows' ends for chapter lists; every segmentation read is cropped to it",
    )
    parser.add_argument(
        "--encoding",
        metavar="NAME",
        help="the encoding of the files read (default: UTF-8, or a file's byte order mark): cp1252, "
        "latin-1, gb2312, cp1251, utf-16-le, ...; the files written are UTF-8",
    )
    parser.add_argument(
        "--columns",
        metavar="MAP",
        help="read CSV files and .json lists of records through this column mapping, as evaluate's --columns "
        "(show=COL,start=COL,end=COL,title=COL; formats/columns.md)",
    )
    parser.add_argument(
        "--time-origin",
        metavar="CLOCK",
        help="the origin on the clock (HH:MM:SS[.fff] or seconds) subtracted from every time read, as evaluate's",
    )
    parser.add_argument(
        "--hypothesis",
        metavar="PATH",
        help="with JSONL output: the hypothesis of the same shows, written on the reference's "
        "lines (read as IN is: the same --from; a chapter list ends where the "
        "reference's show ends)",
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    from tvseg.errors import InputError, UsageError
    from tvseg.output import refuse_overwriting_inputs
    from tvseg.readers import detect_format, list_files, read_segments, read_uem
    from tvseg.readers.mapped_columns import parse_columns
    from tvseg.readers.source import check_encoding
    from tvseg.readers.tables import read_table, table_kind
    from tvseg.readers.time_origin import parse_origin, shift_uem
    from tvseg.terminal import printable
    from tvseg.writers import segment_files, segments_text, write_segment_files

    to_stdout = args.output == STDOUT
    if to_stdout and args.to_format is None:
        raise UsageError("OUT - writes to standard output: give its format with --to")
    encoding = check_encoding(args.encoding)
    columns = parse_columns(args.columns) if args.columns is not None else None
    origin = parse_origin(args.time_origin) if args.time_origin is not None else None
    reading: dict[str, Any] = {"columns": columns, "time_origin": origin}
    inputs = [args.input] + ([args.hypothesis] if args.hypothesis else [])
    for path in inputs if columns is None else []:
        for file in list_files(path, format=args.from_format):
            if detect_format(file, args.from_format) == "csv":
                table = read_table(file, encoding=encoding)
                if table_kind(table.columns, path=file) == "units" and "topic" not in table.columns:
                    raise InputError(
                        "this breath-group table has units only (no topic column): there are no segments to convert",
                        path=file,
                        line=1,
                        value=",".join(table.columns),
                    )
    uem = shift_uem(read_uem(args.uem, encoding=encoding), origin, path=args.uem) if args.uem else None
    segmentations = read_segments(
        args.input, format=args.from_format, which=args.which, end=args.end, uem=uem, encoding=encoding, **reading
    )
    hypothesis = None
    if args.hypothesis:
        ends = {
            show: annotation.get_timeline().extent().end for show, annotation in segmentations.items() if annotation
        }
        hypothesis = read_segments(
            args.hypothesis,
            format=args.from_format,
            which="hypothesis",
            end=ends,
            uem=uem,
            side="hypothesis",
            encoding=encoding,
            **reading,
        )
    if to_stdout:
        sys.stdout.write(segments_text(segmentations, format=args.to_format, hypothesis=hypothesis))
        sys.stdout.flush()
        if getattr(sys.stdout, "reader_left", False):
            raise InputError(
                "cannot write the converted file: its reader closed standard output before the end", path="<stdout>"
            )
        written = 1
    else:
        files = segment_files(segmentations, args.output, format=args.to_format, hypothesis=hypothesis)
        refuse_overwriting_inputs(
            [("IN", args.input), ("--hypothesis", args.hypothesis), ("--uem", args.uem)],
            files=[("OUT", file) for file in files],
        )
        written = len(write_segment_files(args.output, files))
    count = sum(len(annotation) for annotation in segmentations.values())
    target = "standard output" if to_stdout else args.output
    print(
        printable(
            f"{args.input} -> {target}: {len(segmentations)} show(s), {count} segment(s), {written} file(s) written"
        ),
        file=sys.stderr,
    )
    return 0
