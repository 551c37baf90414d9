"""``tvseg validate``: check inputs without scoring them.

Two forms:

- ``tvseg validate --reference PATH --hypothesis NAME=PATH [...]`` takes every option of
  ``tvseg evaluate`` and runs exactly its reading and its checks (:func:`tvseg.evaluation.prepare`:
  the show alignment, the time-base checks, the limits), stopping before the scores: it gives the
  verdict ``evaluate`` would give. It says what it read and as what.
- ``tvseg validate PATH...`` reads each file with every reader that fits it, and each folder as
  ``evaluate`` reads a folder given as ``--reference`` or ``--hypothesis`` (its supported files
  together: one show in two files is an error); sub-folders are validated the same way, one by one.
  A caption file (WebVTT, SRT, TTML, SCC, EBU STL) is read as ``--units`` reads it, the same way for
  every format (its verdict and its warnings), and the summary says whether it also reads as a
  segmentation; ``validate --reference FILE ...`` reads it as evaluate's reference instead.

Exit 0 when everything passes (one summary line per input on stdout); otherwise one
``PATH:LINE: message`` line per bad input on stderr, and exit 2. Control characters in the paths and
messages are shown escaped (:func:`tvseg.terminal.printable`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tvseg.errors import InputError, TvsegError, UsageError
from tvseg.terminal import printable

if TYPE_CHECKING:
    from tvseg.columns import Columns, UnitColumns

__all__ = ["add_parser", "run", "validate_file"]

DESCRIPTION = (
    "With evaluate's options (--reference, --hypothesis, --units, --uem, ...): read and check exactly as "
    "evaluate does, without scoring. With PATHs: read each file with every reader that fits it, and each "
    "folder as evaluate reads a folder. Exit 0 when all pass; else print PATH:LINE: message lines on "
    "stderr and exit 2."
)


def add_parser(subparsers) -> None:
    from tvseg.commands.evaluate import add_input_arguments

    parser = subparsers.add_parser(
        "validate",
        description=DESCRIPTION,
        help="check inputs without scoring (files, folders, or a whole evaluate command line)",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to check")
    add_input_arguments(parser)
    # evaluate's --demo help speaks of its report and of --html/--no-html, which validate has not
    next(a for a in parser._actions if a.dest == "demo").help = "check the demo corpus shipped with tvseg"
    parser.set_defaults(run=run)


def run(args) -> int:
    from tvseg.readers.source import check_encoding

    encoding = check_encoding(args.encoding)
    options = {"columns": _columns(args.columns)} if args.paths and args.columns else {}
    failures = 0
    if args.reference or args.hypothesis or args.demo or args.chunkseg:
        failures += _validate_run(args)
    elif not args.paths:
        raise UsageError("give files or folders to check, or evaluate's options (--reference, --hypothesis ...)")
    for path in args.paths:
        for folder in _inputs(Path(path)):
            for item, check in _checks(folder):
                try:
                    summary = check(item, format=args.format, encoding=encoding, **options)
                except TvsegError as error:
                    failures += 1
                    print(printable(error if getattr(error, "path", None) else f"{item}: {error}"), file=sys.stderr)
                else:
                    print(printable(f"{item}: ok: {summary}"))
    return 2 if failures else 0


def _columns(values: list[str]):
    """The one ``--columns MAP`` of ``tvseg validate PATH...`` (no side: the files are read as any side)."""
    from tvseg.readers.mapped_columns import parse_columns

    if len(values) > 1 or any(":" in value.partition("=")[0] for value in values):
        raise UsageError("tvseg validate PATH... takes one --columns MAP, without a side")
    return parse_columns(values[0])


def validate_folder(folder: Path, *, format: str | None = None, encoding: str | None = None, columns=None) -> str:
    """Read a folder as ``evaluate`` reads one given as ``--reference`` or ``--hypothesis`` (its files in
    ``encoding``, default UTF-8; CSV and ``.json`` files through ``columns``, a column mapping)."""
    if columns is not None:
        return f"folder, {_mapped(folder, format=format, encoding=encoding, columns=columns)}"
    chapters = _chapter_lists(folder, format=format, encoding=encoding)
    if chapters is not None:
        return f"folder of chapter lists, {chapters[0]} show(s), {chapters[1]} chapter(s) (each ends at its show's end)"
    segments, units, error = _segments_or_captions(folder, format=format, encoding=encoding)
    if units is not None:
        return f"folder of captions, {len(units)} show(s), {_rows(units)} unit(s), as --units only ({error})"
    return f"folder of segmentations, {len(segments)} show(s), {_rows(segments)} segment(s) (as evaluate reads it)"


def _chapter_lists(folder: Path, *, format: str | None, encoding: str | None) -> tuple[int, int] | None:
    """``(shows, chapters)`` of a folder of chapter lists (Chapter-Llama's output; ``.txt`` files with
    ``format="txt"``), whose last chapters end where evaluate's reference or UEM says; None for other files."""
    from tvseg.readers import CHAPTER_FORMATS, detect_format, list_files

    files = list_files(folder, format=format)
    kinds = [detect_format(file, format, encoding=encoding) for file in files]
    if not files or any(kind not in CHAPTER_FORMATS for kind in kinds):
        return None
    return len(files), sum(_chapters(file, kind, encoding=encoding) for file, kind in zip(files, kinds))


def _chapters(file: Path, kind: str, *, encoding: str | None) -> int:
    """The chapters of a chapter list (``txt``, ``youtube``, ``chapter-llama``), checked but for the last end."""
    from tvseg.readers.chapter_list import read_chapters, youtube_chapters
    from tvseg.readers.video_chapters import chapter_llama_chapters

    read = {"youtube": youtube_chapters, "chapter-llama": chapter_llama_chapters}.get(kind, read_chapters)
    return len(read(file, encoding=encoding))


def _subtitles(file: Path, kind: str, *, encoding: str | None) -> str:
    """A subtitle file (:mod:`tvseg.readers.subtitles`) read as ``--units`` reads it, its cues counted as the file
    holds them, and whether it also reads as a segmentation (without the warnings of that second reading)."""
    import warnings

    from tvseg.readers import read_segments, read_units
    from tvseg.readers.subtitles import read_subtitles

    units = read_units(file, format=kind, encoding=encoding)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cues = len(read_subtitles(file, format=kind, encoding=encoding))
        try:
            as_segments = f"as segments: {_rows(read_segments(file, format=kind, encoding=encoding))} segment(s)"
        except InputError as error:
            as_segments = f"not as segments ({error})"
    return (
        f"{kind.upper()} subtitles, {len(units)} show(s), {cues} cue(s) read as {_rows(units)} unit(s) (as --units "
        f"reads them); {as_segments}"
    )


def _segments_or_captions(path: Path, *, format: str | None, encoding: str | None):
    """``(segments, None, None)`` as evaluate reads ``path``; for roll-up captions, whose cues overlap (valid
    units, not a segmentation), ``(None, units, the segments' error)``."""
    from tvseg.readers import read_segments, read_units

    try:
        return read_segments(path, format=format, encoding=encoding), None, None
    except InputError as error:
        if "overlap" not in error.message:
            raise
        return None, read_units(path, format=format, encoding=encoding), error


def _validate_run(args) -> int:
    """The reading and the checks of ``tvseg evaluate`` with the same options (with several annotators,
    those of each annotator's evaluation); 1 on failure."""
    from tvseg.commands.evaluate import annotator_runs

    runs = annotator_runs(args)
    if runs is None:
        return _validate_one(args)
    return int(any([_validate_one(options) for _, options in runs]))


def _validate_one(args) -> int:
    from tvseg.commands.evaluate import files_of
    from tvseg.preparation import prepare
    from tvseg.scale import read_files

    try:
        settings, files = files_of(args)
        inputs = read_files(files)
        prepared = prepare(
            inputs["reference"],
            inputs["hypotheses"],
            settings=settings,
            uem=inputs["uem"],
            units=inputs["units"],
            check_time_base=not args.no_time_base_check,
        )
    except TvsegError as error:
        print(printable(error), file=sys.stderr)
        return 1
    print(
        printable(
            f"{args.reference}: ok: reference, {len(prepared.shows)} show(s), "
            f"{len(prepared.reference_segments)} segment(s)"
        )
    )
    for spec, (name, segments) in zip(args.hypothesis, prepared.systems.items()):
        print(printable(f"{spec.partition('=')[2]}: ok: system {name}, {len(segments)} segment(s) in the scored shows"))
    for option, value in (("units", inputs["units"]), ("uem", inputs["uem"]), ("metadata", inputs["metadata"])):
        if value is not None:
            print(printable(f"{getattr(args, option)}: ok: {option}, {len(value)} show(s)"))
    print(f"ok: tvseg evaluate would score {len(prepared.systems)} system(s) on {len(prepared.shows)} show(s)")
    return 0


def _inputs(path: Path) -> list[Path]:
    """``path`` itself, and for a folder each of its sub-folders (depth first, sorted)."""
    out = [path]
    if path.is_dir():
        for child in sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith(".")):
            out.extend(_inputs(child))
    return out


def _checks(path: Path) -> list[tuple[Path, Callable[..., str]]]:
    """A file, to read with :func:`validate_file`; or a folder's files a reader reads, each with
    :func:`validate_file`, then the folder with :func:`validate_folder` (unless it holds sub-folders only)."""
    from tvseg.readers import FORMATS

    if not path.is_dir():
        return [(path, validate_file)]
    files = [p for p in path.iterdir() if p.is_file() and (p.suffix.lower() in FORMATS or p.suffix.lower() == ".uem")]
    checks: list[tuple[Path, Callable[..., str]]] = [(file, validate_file) for file in sorted(files)]
    if files or not any(p.is_dir() for p in path.iterdir()):
        checks.append((path, validate_folder))
    return checks


def _mapped(path: Path, *, format: str | None, encoding: str | None, columns) -> str:
    """What ``path`` holds read through a column mapping, as ``evaluate --columns`` reads it: units when the
    mapping names ``text=``, ``speaker=`` or ``topic=``, else segments."""
    from tvseg.readers import read_segments, read_units

    if any(columns.get(key) is not None for key in ("text", "speaker", "topic")):
        units = read_units(path, format=format, encoding=encoding, columns=columns)
        return f"through --columns, {len(units)} show(s), {_rows(units)} unit(s) (as --units)"
    segments = read_segments(path, format=format, encoding=encoding, columns=columns)
    return f"through --columns, {len(segments)} show(s), {_rows(segments)} segment(s)"


def validate_file(file: Path, *, format: str | None = None, encoding: str | None = None, columns=None) -> str:
    """Read ``file`` (in ``encoding``, default UTF-8) with the readers that fit it; return a one-line
    summary or raise TvsegError.

    Each reader is the one ``evaluate`` reads the file with (a units table or a caption file: the reader
    of ``--units``, :func:`tvseg.read_units`, a table read once), so the verdict and the error are
    ``evaluate``'s; the summary is counted on what was read (a units table's topic segments on its units'
    topics, as :func:`tvseg.read_segments` makes them: :func:`topic_runs`).
    """
    from tvseg.columns import UnitColumns
    from tvseg.readers import detect_format, read_metadata, read_segments, read_table_once
    from tvseg.readers.uem import uem_rows

    if not file.exists():
        raise InputError("no such file or folder", path=file)
    if file.suffix.lower() == ".uem":
        regions = uem_rows(file, encoding=encoding)  # counted on the rows: no pyannote Timeline built
        return f"UEM, {len(regions.names)} show(s), {len(regions.start)} region(s)"
    if columns is not None and (
        format in ("csv", "json") or (format is None and file.suffix.lower() in (".csv", ".json"))
    ):
        return f"{file.suffix.lstrip('.').upper()} {_mapped(file, format=format, encoding=encoding, columns=columns)}"
    kind = detect_format(file, format, encoding=encoding)
    if kind in ("txt", "youtube", "chapter-llama"):  # everything but the last chapter's end (evaluate: the UEM's)
        return f"chapter list, {_chapters(file, kind, encoding=encoding)} chapter(s) (the last ends at the show's end)"
    if kind in ("sbv", "ass", "ssa", "microdvd", "mpl2", "tmp", "sami"):
        return _subtitles(file, kind, encoding=encoding)
    if kind == "csv":
        table_type, corpus = read_table_once(file, encoding=encoding)
        if corpus is None:
            return f"metadata, {len(read_metadata(file, encoding=encoding))} show(s)"
        if isinstance(corpus, UnitColumns):
            summary = f"breath groups, {len(corpus)} show(s), {_rows(corpus)} unit(s)"
            if corpus.topic is None:
                return summary
            return summary + f", {topic_runs(corpus)} topic segment(s)"
        return f"CSV, {len(corpus)} show(s), {_rows(corpus)} segment(s)"
    if kind in CAPTION_FORMATS:
        return _captions(file, kind, encoding=encoding)
    segments = read_segments(file, format=kind, encoding=encoding)
    return f"{kind.upper()}, {len(segments)} show(s), {_rows(segments)} segment(s)"


CAPTION_FORMATS = ("vtt", "srt", "ttml", "scc", "stl")
"""The caption formats, which ``validate FILE`` reads as ``--units`` reads them, whatever the format."""


def _captions(file: Path, kind: str, *, encoding: str | None) -> str:
    """A caption file read as ``--units`` reads it (its warnings given), its cues counted as the file holds
    them, and whether it also reads as a segmentation (``--reference``, ``--hypothesis``: a chapter file),
    without the warnings of that second reading."""
    import warnings

    from tvseg.readers import read_segments, read_units
    from tvseg.readers.broadcast_captions import count_captions
    from tvseg.readers.webvtt import read_cues

    units = read_units(file, format=kind, encoding=encoding)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind in ("vtt", "srt"):
            cues = len(read_cues(file, format=kind, encoding=encoding, lenient=True))
        else:
            cues = count_captions(file, format=kind)
        try:
            segments = read_segments(file, format=kind, encoding=encoding)
        except InputError as error:
            as_segments = f"not as segments ({error})"
        else:
            as_segments = f"as segments: {_rows(segments)} segment(s)"
    return (
        f"{kind.upper()} captions, {len(units)} show(s), {cues} cue(s) read as {_rows(units)} unit(s) (as --units "
        f"reads them); {as_segments}"
    )


def _rows(columns: Columns) -> int:
    """The segments or units of a corpus, counted on its arrays (no per-show object built)."""
    return len(columns.start)


def topic_runs(units: UnitColumns) -> int:
    """The topic segments :func:`tvseg.read_segments` makes of a units table with a ``topic`` column: the
    runs of consecutive units of a show with one topic (an empty topic is :data:`~tvseg.readers.NO_LABEL`)."""
    import numpy as np

    from tvseg.readers import NO_LABEL

    assert units.topic is not None
    topic = units.topic.copy()
    topic[topic == ""] = NO_LABEL
    show = np.repeat(np.arange(len(units)), np.diff(units.offsets))
    first = np.ones(len(topic), dtype=bool)
    first[1:] = (show[1:] != show[:-1]) | (topic[1:] != topic[:-1])
    return int(first.sum())
