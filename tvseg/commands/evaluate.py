"""``tvseg evaluate``: score systems against a reference and print a summary table.

``tvseg evaluate --reference PATH --hypothesis NAME=PATH [...]`` reads the files with
:mod:`tvseg.readers`, scores them with :func:`tvseg.evaluation.evaluate`, prints one row per
system (pooled corpus values and macro means) and, with ``--json FILE``, writes the contract's
schema atomically (a temporary file renamed into place; ``--json -``: to standard output, the summary
then going to standard error). ``--demo`` runs on the demo corpus shipped in the package
(:func:`tvseg.samples.demo_folder`) and writes its report to ``./tvseg-demo/``.

The report is written first, the JSON last, both with one run id (:func:`tvseg.output.new_run_id`):
a run stopped half-way (killed, a full disk) leaves the previous pair, and a JSON file and a report
of different runs show different ids.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tempfile
import warnings
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path

from tvseg.errors import InputError, UsageError
from tvseg.presets import PRESETS, effective_settings
from tvseg.settings import CONVENTIONS, Settings

DESCRIPTION = """\
Score every system (--hypothesis NAME=PATH, repeatable) against the reference on every reference
show: CovN/CovD and boundary P/R/F (Bouchekif et al.), and with --units or --frame the unit metrics
(Pk, WindowDiff, WinPR, S). Prints one row per system (pooled corpus values and macro means);
--json writes every number, --html a report. A PATH is a file or a folder of files."""
EXAMPLES = """\
examples:
  tvseg evaluate --demo --no-html
  tvseg evaluate --reference ref/ --hypothesis mine=out/mine.rttm --units breath_groups.csv --json scores.json"""
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")


def __getattr__(name: str):
    """``SUMMARY`` and ``OPTIONAL``, the registry's summary columns (those of the unit and title groups,
    ``OPTIONAL``, only when some system has them: units given, titles on both sides), made when first
    read: the registry imports numpy, which ``tvseg --help`` does not need."""
    if name not in ("SUMMARY", "OPTIONAL"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from tvseg import metrics

    optional = ("unit", "title")
    columns = {
        "SUMMARY": tuple((k, label) for k, label in metrics.SUMMARY if metrics.METRICS[k].group not in optional),
        "OPTIONAL": tuple((k, label) for k, label in metrics.SUMMARY if metrics.METRICS[k].group in optional),
    }
    globals().update(columns)
    return columns[name]


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "evaluate",
        help="score topic segmentations (CovN/CovD, boundaries, units)",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_arguments(p)
    p.add_argument(
        "--json",
        metavar="FILE",
        help="write the results as JSON (-: to standard output, the summary then going to standard error)",
    )
    p.add_argument(
        "--html",
        metavar="DIR",
        help="write the HTML report into the folder DIR (with --demo: ./tvseg-demo/ unless given)",
    )
    p.add_argument("--no-html", action="store_true", help="with --demo: do not write the HTML report")
    p.add_argument(
        "--jobs",
        metavar="N",
        type=int,
        help="processes writing the report's show pages (default: the machine's cores; 1: no "
        "extra process); given explicitly (N > 1), the shows are also read and scored in N processes, "
        "each reading its own shows from the files; the results are the same whatever N",
    )
    p.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help="read and score the shows in Dask tasks, each reading its own shows from the files (the "
        "workers must see them): a scheduler address (tcp://host:8786) or 'local' (a local cluster of "
        "--jobs processes); needs pip install 'tvseg[dask]'; the same results",
    )
    shown = p.add_mutually_exclusive_group()
    shown.add_argument(
        "--progress",
        dest="progress",
        action="store_const",
        const=True,
        help="draw progress bars on stderr (reading, writing the report) even when it is not "
        "a terminal (default: only on a terminal)",
    )
    shown.add_argument("--quiet", dest="progress", action="store_const", const=False, help="draw no progress bar")
    p.set_defaults(run=run)


class _SideFormat(argparse.Action):
    """``--format [SIDE:]FORMAT``, repeatable: ``format`` holds the format of every side (what the commands
    that read one format take), ``side_formats`` each value given (:func:`files_of` reads the sides)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        namespace.side_formats = [*(getattr(namespace, "side_formats", None) or []), values]
        if ":" not in str(values):
            namespace.format = values


def add_input_arguments(p) -> None:
    """The options that say what is read and how it is scored: shared by ``evaluate`` and
    ``validate``, so that ``validate`` runs exactly the reading and the checks of ``evaluate``."""
    p.add_argument(
        "--reference",
        metavar="[NAME=]PATH",
        action="append",
        help="reference segments (file or folder); repeat as NAME=PATH for several annotators of the "
        "same shows: each system is scored against each, and the annotators against each other (the "
        "human ceiling)",
    )
    p.add_argument(
        "--chunkseg",
        metavar="FILE.jsonl",
        help="a chunkseg JSONL file (each line a show's reference "
        "and hypothesis): scores its hypotheses as the system 'hypothesis' (instead of --reference and "
        "--hypothesis; with --frame 6 --convention chunkseg, Pk, WindowDiff, B and GHD are chunkseg's)",
    )
    p.add_argument(
        "--hypothesis",
        metavar="NAME=PATH",
        action="append",
        default=[],
        help="a system's segments (file or folder); repeat for several systems",
    )
    p.add_argument(
        "--format",
        metavar="[SIDE:]FORMAT",
        action=_SideFormat,
        help="read the reference and hypothesis files as FORMAT (rttm, "
        "vtt, srt, csv, youtube, chapter-llama, ...) whatever their extension (default: from each file's extension), "
        "for every side or for one (SIDE: reference or a system's name, e.g. reference:youtube); repeatable",
    )
    p.add_argument(
        "--durations",
        metavar="FILE",
        help="each show's duration, where the last chapter of a chapter list (a YouTube description, "
        "Chapter-Llama's output) ends: a CSV table show,duration or a JSON object {show: seconds} "
        "(VidChapters' annotations too)",
    )
    p.add_argument(
        "--encoding",
        metavar="NAME",
        help="the encoding of every file read (default: UTF-8, or a file's byte order mark): "
        "cp1252, latin-1, gb2312, cp1251, utf-16-le, ... (any text encoding Python knows)",
    )
    p.add_argument(
        "--columns",
        metavar="[SIDE:]MAP",
        action="append",
        default=[],
        help="read CSV files and .json lists of records through this column mapping: "
        "show=COL,start=COL,end=COL,title=COL (also duration=, date=, date_format=, fps=, records=, show=COL+COL; formats/columns.md), "
        "for every side or for one (SIDE: reference, units or a system's name); repeatable",
    )
    p.add_argument(
        "--time-origin",
        metavar="[SIDE=]CLOCK",
        action="append",
        default=[],
        help="each show's origin on the clock (HH:MM:SS[.fff] or seconds), subtracted from its times: for every "
        "side, or for one (SIDE: reference, units, uem or a system's name); repeatable; a time_origin column in "
        "--metadata gives it per show (formats/columns.md)",
    )
    p.add_argument("--units", metavar="PATH", help="units (breath groups, cues) for the unit metrics")
    p.add_argument("--frame", metavar="SECONDS", type=float, help="use fixed frames of this length as units")
    p.add_argument("--uem", metavar="PATH", help="UEM file: the scored part of each show")
    p.add_argument("--metadata", metavar="PATH", help="show metadata CSV (channel, programme) for groups")
    p.add_argument(
        "--preset",
        choices=tuple(PRESETS),
        help="set every option that makes the numbers equal that tool's: "
        + "; ".join(f"{name}: {_preset_help(preset)}" for name, preset in PRESETS.items())
        + ". Options given with it win; the signature shows the effective settings (tvseg/presets.py)",
    )
    # default None: not given (the preset's value or Settings' default applies: settings_of)
    p.add_argument("--gamma", type=float, help="coverage threshold, strict (default 0.85)")
    p.add_argument("--tolerance", type=float, help="boundary tolerance in s (default 10)")
    p.add_argument("--long-threshold", type=float, help="short/long split in s (default 30)")
    p.add_argument(
        "--title-f1",
        type=float,
        metavar="X",
        help="a title is correct when its word F1 >= X (default: normalised exact match)",
    )
    p.add_argument(
        "--title-stemming",
        action=argparse.BooleanOptionalAction,
        help="title ROUGE-L with the Porter stemmer, as "
        "rouge-score's use_stemmer=True and chunkseg (default: no stemming)",
    )
    p.add_argument(
        "--k",
        type=int,
        metavar="K",
        help="window size of Pk/WindowDiff/WinPR (default: the convention's, half the mean reference segment; "
        "WinPR's one position wider, Scaiano & Inkpen's)",
    )
    p.add_argument(
        "--convention",
        choices=CONVENTIONS,
        help="how Pk and WindowDiff count windows (default: paper; see docs/conventions.md)",
    )
    p.add_argument(
        "--level",
        metavar="N",
        help="score the systems against the reference at level N of a hierarchical reference (Wiki-727K's "
        "headers, a CSV column read with --columns ...,level=COL, a JSON segmentation's level fields): the "
        "boundaries of the segments of level <= N; all: the usual run, then each level in turn (the summary "
        "and the JSON's levels). Default: the reference as it is (Wiki-727K: levels 1-2, as its loader)",
    )
    p.add_argument("--bootstrap", type=int, help="bootstrap resamples (default 1000, 0: none)")
    p.add_argument("--seed", type=int, help="bootstrap seed (default 0)")
    p.add_argument(
        "--no-time-base-check",
        action="store_true",
        help="warn instead of failing when a hypothesis or the units miss their show's time range",
    )
    p.add_argument(
        "--demo",
        action="store_true",
        help="run on the demo corpus shipped with tvseg and write the report to ./tvseg-demo/ "
        "(unless --html DIR or --no-html)",
    )


STDOUT = "-"
"""``--json -``: the JSON goes to standard output (and the summary to standard error)."""

DEMO_REPORT = "tvseg-demo"
"""Where ``--demo`` writes its report, in the current folder (the repository's ``reports/demo/`` is
rendered by ``scripts/render_demo_report.py``)."""


def demo_root() -> Path:
    """The demo corpus shipped in the package (:func:`tvseg.samples.demo_folder`)."""
    from tvseg.samples import demo_folder

    root = demo_folder()
    if not (root / "reference").is_dir():
        raise UsageError(
            f"--demo: the demo corpus is missing from this installation of tvseg ({root}); reinstall tvseg"
        )
    return root


def parse_hypothesis(text: str, *, option: str = "--hypothesis must be") -> tuple[str, str]:
    """``(NAME, PATH)`` of a ``NAME=PATH`` option value; a UsageError beginning with ``option`` otherwise."""
    name, sep, path = text.partition("=")
    if not sep or not path or not _NAME.match(name):
        raise UsageError(f"{option} NAME=PATH with NAME made of letters, digits, '_', '-', '.': {text!r}")
    return name, path


def files_of(args):
    """Check the options: ``(settings, files)``, ``files`` the :class:`tvseg.scale.Files` they name
    (nothing read yet)."""
    from tvseg.readers import detect_format
    from tvseg.readers.metadata import metadata_origins
    from tvseg.readers.source import check_encoding
    from tvseg.readers.time_origin import TimeOrigins, per_side
    from tvseg.scale import Files

    encoding = check_encoding(getattr(args, "encoding", None))
    if isinstance(args.reference, list):  # --reference repeated: annotator_runs splits several annotators first
        if len(args.reference) > 1:
            raise UsageError("several --reference options are annotators: each run takes one (annotator_runs)")
        args.reference = args.reference[0]
    chunkseg = getattr(args, "chunkseg", None)
    if chunkseg is not None:
        if args.reference or args.hypothesis or args.demo:
            raise UsageError(
                "--chunkseg FILE holds the reference and the hypothesis: it excludes --reference, "
                "--hypothesis and --demo"
            )
        if not chunkseg:
            raise UsageError("--chunkseg needs a chunkseg JSONL file")
        if args.format not in (None, "jsonl"):
            raise UsageError(f"--chunkseg reads a chunkseg JSONL file, not --format {args.format}")
        args.reference, args.hypothesis = chunkseg, [f"hypothesis={chunkseg}"]
        args.format = args.format or "jsonl"
    if args.demo:
        root = demo_root()
        args.reference = args.reference or str(root / "reference" / "chapters")
        if not args.hypothesis:
            args.hypothesis = [
                f"system_a={root / 'hypotheses' / 'system_a.rttm'}",
                f"system_b={root / 'hypotheses' / 'system_b'}",
            ]
        preset = PRESETS.get(getattr(args, "preset", None) or "")
        if args.units is None and args.frame is None and (preset is None or "units" not in preset.settings):
            args.units = str(root / "units" / "breath_groups.csv")
        args.uem = args.uem or str(root / "corpus.uem")
        args.metadata = args.metadata or str(root / "metadata.csv")
        if getattr(args, "html", None) in (None, "") and not getattr(args, "no_html", True):
            args.html = DEMO_REPORT
    if getattr(args, "html", None) == "":
        raise UsageError(f"--html needs a folder (except with --demo, where it is {DEMO_REPORT}/)")
    if not args.reference:
        raise UsageError("--reference is required (or --demo)")
    if not args.hypothesis:
        raise UsageError("at least one --hypothesis NAME=PATH is required (or --demo)")
    systems = dict(parse_hypothesis(h) for h in args.hypothesis)
    if len(systems) != len(args.hypothesis):
        raise UsageError("two --hypothesis options use the same NAME")
    if args.units and args.frame is not None:
        raise UsageError("--units and --frame exclude each other")
    if getattr(args, "json", None) == "":
        raise UsageError("--json needs a file name (or - for standard output)")
    if getattr(args, "json", None) and args.json != STDOUT:
        folder = Path(args.json).parent
        if not folder.is_dir():
            raise UsageError(f"--json: no such folder {str(folder)!r}")
    settings = settings_of(args)
    every_format, formats = per_side(
        getattr(args, "side_formats", None) or [],
        option="--format",
        known=("reference", *systems),
        separator=":",
        parse=lambda text, side: detect_format(".", text),
    )
    if every_format is not None:
        args.format = every_format
    durations = getattr(args, "durations", None)
    columns = None
    if getattr(args, "columns", None):
        from tvseg.readers.mapped_columns import SideColumns

        columns = SideColumns.from_options(args.columns, systems=list(systems))
    metadata = getattr(args, "metadata", None)  # its time_origin column gives an origin per show
    per_show = metadata_origins(metadata, encoding=getattr(args, "encoding", None)) if metadata else {}
    files = Files(
        columns=columns,
        time_origin=TimeOrigins.from_options(
            getattr(args, "time_origin", None) or [], systems=list(systems), metadata=per_show
        ),
        reference=args.reference,
        hypotheses=systems,
        units=args.units or None,
        uem=args.uem,
        metadata=args.metadata,
        format=args.format,
        encoding=encoding,
        level=settings.level,
        formats=tuple(formats.items()),
        durations=_durations(durations, encoding=encoding),
    )
    return settings, files


def _durations(path, *, encoding):
    """``--durations FILE`` read (:func:`~tvseg.readers.durations.read_durations`), or ``None``."""
    if not path:
        return None
    from tvseg.readers.durations import read_durations

    return read_durations(path, encoding=encoding)


def settings_of(args) -> Settings:
    """The :class:`Settings` of the options: Settings' defaults, then ``--preset``'s values, then the
    options given (:func:`tvseg.presets.effective_settings`)."""
    given = {field: getattr(args, dest, None) for dest, field in _OPTION_FIELDS.items()}
    given = {field: value for field, value in given.items() if value is not None}
    if args.frame is not None:
        given.update(units="frames", frame=args.frame)
    elif args.units:
        given["units"] = "file"
    given["uem"] = args.uem is not None
    level = _level(args)
    if isinstance(level, int):
        given["level"] = level
    return Settings(**effective_settings(getattr(args, "preset", None), given, {}))


_OPTION_FIELDS = {
    "gamma": "gamma",
    "tolerance": "tolerance",
    "long_threshold": "long_threshold",
    "title_f1": "title_f1_threshold",
    "title_stemming": "title_stemming",
    "k": "k",
    "convention": "convention",
    "bootstrap": "bootstrap",
    "seed": "seed",
}
"""Option dest -> Settings field, for the options whose default (None) means "not given"."""


def _level(args):
    """``--level``: None, a positive integer or ``"all"``."""
    from tvseg.readers.levels import level_option

    try:
        return level_option(getattr(args, "level", None), allow_all=True)
    except UsageError:
        raise UsageError(f"--level must be a positive integer or all, not {args.level!r}") from None


def _preset_help(preset) -> str:
    """``NAME (the options it sets)`` for ``--help``."""
    option = {field: dest.replace("_", "-") for dest, field in _OPTION_FIELDS.items()}
    parts = []
    for field, value in preset.settings.items():
        if field == "units":
            continue  # frames: said by --frame
        if isinstance(value, bool):
            parts.append(f"--{option[field]}" if value else f"--no-{option[field]}")
        else:
            parts.append(
                f"--{option.get(field, field)} {'auto' if value is None else f'{value:g}' if isinstance(value, float) else value}"
            )
    return f"{preset.tool}" + (f" ({' '.join(parts)})" if parts else ", no option: its metrics are always computed")


def run(args) -> int:
    jobs = getattr(args, "jobs", None)
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    from tvseg.memory import collector_paused, tune_allocator, tune_collector

    tune_collector()  # a command's own process: fewer runs of the cycle collector (tvseg.memory)
    tune_allocator()  # a command's own process: arrays of some megabytes reuse the heap (tvseg.memory)
    from tvseg.progress import set_mode

    set_mode(getattr(args, "progress", None))
    with collector_paused():  # while the modules the command uses are imported (tvseg.memory)
        _refuse_overwriting_inputs(args)
        import_module("tvseg.scale")
    runs = annotator_runs(args)
    if runs is not None:
        if getattr(args, "level", None) is not None:
            raise UsageError("--level reads one reference at a level: it excludes several annotators")
        return _run_annotators(args, runs)
    settings, files = files_of(args)
    every_level = _level(args) == "all"
    if every_level and args.html is not None:
        raise UsageError("--level all gives the levels in the summary and the JSON; a report draws one: --level N")
    with _segments_folder(args) as folder:
        return _run(args, settings, files, every_level, folder)


@contextmanager
def _segments_folder(args):
    """With ``--html`` (one reference), a temporary folder where the shards' segments are written for the report
    (:func:`tvseg.scale.evaluate_files_spilled`), beside the report's folder (hidden, removed at the end, and
    by the next writer of the report if this run is killed); else None."""
    if args.html is None:
        yield None
        return
    from tvseg.output import remove_path, temporary_path

    target = Path(args.html).absolute()
    folder = temporary_path(target) if target.parent.is_dir() else Path(tempfile.mkdtemp(prefix="tvseg-segments-"))
    folder.mkdir(exist_ok=True)
    try:
        yield folder
    finally:
        remove_path(folder)


def _run(args, settings, files, every_level: bool, folder) -> int:
    from tvseg.output import new_run_id, with_run_id

    jobs = getattr(args, "jobs", None)
    segment_files = None
    with warnings.catch_warnings(record=True) as held:
        if every_level:
            result, levels = _every_level(args, settings, files)
        elif folder is not None:
            (result, segment_files), levels = _score_streamed(args, settings, files, folder), {}
        else:
            result, levels = _score(args, settings, files), {}
    shown = sys.stderr if args.json == STDOUT else sys.stdout  # stdout holds the JSON alone
    print(summary(result), file=shown)
    for level, at in levels.items():
        print(f"\nlevel {level}:\n{summary(at)}", file=shown)
    shown.flush()
    given_once(held)
    run_id = new_run_id()
    index = None
    if args.html is not None:
        from tvseg.report import write_report

        date = _data_date(result.metadata) if args.demo else None
        index = write_report(result, args.html, date=date, jobs=jobs, run_id=run_id, segments=segment_files)
        print(f"report: {index}", file=shown)
    if args.json and index is not None and args.json != STDOUT and files.time_origin is None and not levels:
        # the report's data/scores.json is this very text (the result's JSON with this run id): copied
        from tvseg.output import text_pieces, write_text_atomic

        write_text_atomic(args.json, text_pieces(index.parent / "data" / "scores.json"))
    elif args.json:
        data = with_run_id(result.to_json(stream=True), run_id)
        origins = files.time_origin
        if origins is not None:
            from tvseg.report.air_time import origins_json

            data["time_origins"] = origins_json(
                origins, result.shows, systems=list(files.hypotheses), units=bool(files.units), uem=bool(files.uem)
            )
        if levels:
            data["levels"] = levels_json(levels)
        write_json(args.json, data)
    return 0


def _refuse_overwriting_inputs(args) -> None:
    """Refuse a ``--json`` file that is one of the files read, or an ``--html`` folder holding one."""
    from tvseg.output import refuse_overwriting_inputs

    references = args.reference if isinstance(args.reference, list) else [args.reference]
    read: list[tuple[str, str | None]]
    if len(references) > 1:
        read = [(f"--reference {name}", path) for name, _, path in (r.partition("=") for r in references)]
    else:
        read = [("--reference", path) for path in references]
    read += [(f"--hypothesis {name}", path) for name, _, path in (h.partition("=") for h in args.hypothesis or [])]
    read += [(option, getattr(args, option[2:], None)) for option in ("--chunkseg", "--units", "--uem", "--metadata")]
    refuse_overwriting_inputs(
        read,
        files=[("--json", None if args.json == STDOUT else args.json)],
        folders=[("--html", args.html)],
    )


def _every_level(args, settings, files):
    """``--level all``: the evaluation of the reference as it is, and at each of its levels in increasing
    order. The files are read once (the reference as it is and at every level:
    :func:`tvseg.readers.read_segment_levels`), and each level is the scoring of the same systems against the
    reference at that level, on one engine (this process, ``--jobs`` processes or a Dask cluster:
    :func:`tvseg.scale.evaluate_on`); a level whose reference is the reference as it is (the deepest,
    usually) takes its numbers."""
    from dataclasses import replace

    from tvseg.execution import engine
    from tvseg.scale import evaluate_on

    uem = files.read_uem()
    read = files.read(uem, every_level=True)
    references = read["reference"]
    inputs = {**files.sides({**read, "reference": references[None]}), "uem": uem, "metadata": files.read_metadata()}
    check = not args.no_time_base_check  # no report (refused with --level all): no segment kept
    with engine(getattr(args, "jobs", None), getattr(args, "dask", None)) as runner:
        result = _with_origins(
            evaluate_on(runner, inputs, settings=settings, check_time_base=check, segments=False), files
        )
        levels = {}
        for level, reference in references.items():
            if level is None:
                continue
            if _same_segments(reference, references[None]):
                levels[level] = replace(result, settings=result.settings.replace(level=level))
                continue
            at = settings.replace(level=level)
            found = evaluate_on(
                runner, {**inputs, "reference": reference}, settings=at, check_time_base=check, segments=False
            )
            levels[level] = _with_origins(found, files)
    return result, levels


def _same_segments(a, b) -> bool:
    """Whether two segmentations read (:class:`tvseg.columns.SegmentColumns`) hold the same shows and segments
    (times, labels, scores)."""
    import numpy as np

    if a.domain != b.domain or list(a.names) != list(b.names) or (a.score is None) != (b.score is None):
        return False
    pairs = [(a.offsets, b.offsets), (a.start, b.start), (a.end, b.end), (a.label, b.label)]
    scores = a.score is None or np.array_equal(a.score, b.score, equal_nan=True)
    return scores and all(np.array_equal(x, y) for x, y in pairs)


def levels_json(levels: dict) -> dict:
    """The JSON's ``levels``: per level (its number as text), the signature, the number of shows and each
    system's pooled (``corpus``) and ``macro`` values with their bootstrap intervals."""
    from tvseg.metrics import COUNT_KEYS
    from tvseg.output import json_safe

    out = {}
    for level, result in levels.items():
        systems = {
            name: {"corpus": sr.corpus, "macro": sr.macro, "bootstrap": result.intervals.get(name, {})}
            for name, sr in result.systems.items()
        }
        out[str(level)] = {
            "signature": result.settings.signature(),
            "shows": len(result.shows),
            "systems": json_safe(systems, integer_keys=COUNT_KEYS),  # as EvaluationResult.to_json gives them
        }
    return out


def _score(args, settings, files):
    """The evaluation of the options' files without a report (:func:`tvseg.scale.evaluate_files`: streamed in
    shards, each read where it is scored; a text corpus read and scored in this process)."""
    from tvseg.scale import evaluate_files

    result = evaluate_files(
        files,
        settings=settings,
        check_time_base=not args.no_time_base_check,
        jobs=getattr(args, "jobs", None),
        dask=getattr(args, "dask", None),
        segments=False,
    )
    return _with_origins(result, files)


def _score_streamed(args, settings, files, folder):
    """With ``--html``: the evaluation of the options' files in shards, each shard's segments written to a file
    of ``folder`` by the process that scored it (:func:`tvseg.scale.evaluate_files_spilled`), and those files
    (None: the result holds its segments)."""
    from tvseg.metrics import DISJOINT
    from tvseg.output import cannot_write
    from tvseg.scale import SegmentsNotWritten, evaluate_files_spilled

    _refuse_text_report(args)
    try:
        result, segment_files = evaluate_files_spilled(
            files,
            folder,
            settings=settings,
            check_time_base=not args.no_time_base_check,
            jobs=getattr(args, "jobs", None),
            dask=getattr(args, "dask", None),
        )
    except SegmentsNotWritten as error:  # a full disk: the report cannot be written
        raise cannot_write(Path(args.html).absolute(), error, "report") from None
    # the shards read the predictions: the result tells which overlap
    _refuse_overlaps([name for name, sr in result.systems.items() if DISJOINT not in sr.traits])
    return _with_origins(result, files), segment_files


def _with_origins(result, files):
    """``result`` with each show's reference time origin in its metadata, when the files have origins
    (:func:`tvseg.report.air_time.with_time_origins`)."""
    origins = files.time_origin
    if origins is not None:
        from tvseg.report.air_time import with_time_origins

        result = with_time_origins(result, origins)
    return result


def _refuse_text_report(args) -> None:
    from tvseg.readers.formats import TEXT_CORPUS_FORMATS

    if args.format in TEXT_CORPUS_FORMATS and args.html is not None:
        raise UsageError(f"--html draws timed segmentations; a {args.format} corpus is in sentences: drop --html")


def _refuse_overlaps(dense: list[str]) -> None:
    if dense:
        raise UsageError(f"--html draws segmentations; the predictions of {', '.join(dense)} overlap: drop --html")


def annotator_runs(args):
    """With ``--reference`` given several times (``NAME=PATH`` each): per annotator, in name order,
    ``(name, options)``, the options of the evaluation against that annotator (its reference; as
    hypotheses the systems, then the other annotators). None for one reference (its PATH may hold "=")."""
    import copy

    references = args.reference
    if isinstance(references, list) and len(references) == 1:
        args.reference = references[0]
    if not isinstance(references, list) or len(references) < 2:
        return None
    named = [
        parse_hypothesis(text, option="several --reference options are annotators: each must be") for text in references
    ]
    names = [name for name, _ in named]
    if len(set(names)) != len(names):
        raise UsageError("two --reference options use the same NAME")
    if getattr(args, "chunkseg", None) is not None or args.demo:
        raise UsageError("several annotators (--reference NAME=PATH) exclude --chunkseg and --demo")
    from tvseg.annotators import check_names

    systems = [parse_hypothesis(h)[0] for h in args.hypothesis or []]
    check_names(names, systems)
    runs = []
    for name, path in sorted(named):
        options = copy.copy(args)
        options.reference = path
        options.hypothesis = list(args.hypothesis or []) + [f"{b}={p}" for b, p in sorted(named) if b != name]
        runs.append((name, options))
    return runs


def _run_annotators(args, runs) -> int:
    """``tvseg evaluate`` with several annotators: one evaluation per annotator, combined
    (:func:`tvseg.annotators.combine`); the summary, the JSON and the report show the ceiling."""
    from tvseg.annotators import combine
    from tvseg.output import new_run_id, with_run_id

    with warnings.catch_warnings(record=True) as held:
        results = _annotator_results(runs)
        systems = [parse_hypothesis(h)[0] for h in args.hypothesis]
        combined = combine(results, systems=systems, annotators=list(results))
        if args.units and not getattr(args, "columns", None) and not getattr(args, "time_origin", None):
            combined = _with_agreement(combined, runs, args)
    shown = sys.stderr if args.json == STDOUT else sys.stdout
    print(annotators_summary(combined), file=shown)
    shown.flush()
    given_once(held)
    run_id = new_run_id()
    if args.html is not None:
        from tvseg.report import write_report

        first = combined.annotators[0]
        index = write_report(
            results[first], args.html, jobs=getattr(args, "jobs", None), run_id=run_id, annotators=combined
        )
        print(f"report: {index} (its tables and show pages: against {first})", file=shown)
    if args.json:
        base = results[combined.annotators[0]].to_json(stream=True)  # its header: the per-show tables are not encoded
        data = with_run_id(
            {
                "tvseg_version": base["tvseg_version"],
                "signature": base["signature"],
                "settings": base["settings"],
                **combined.to_json(),
                "per_annotator": {a: results[a].to_json(stream=True) for a in combined.annotators},
            },
            run_id,
        )
        write_json(args.json, data)
    return 0


def _annotator_results(runs) -> dict:
    """Per annotator, the evaluation against it (:func:`annotator_runs`). Each file is read once as a
    reference and once as a hypothesis (:meth:`tvseg.scale.Files.read`'s ``cache``), the UEM once, and each
    evaluation is the scoring of the same systems and annotators against another annotator, on one engine
    (this process, ``--jobs`` processes or a Dask cluster: :func:`tvseg.scale.evaluate_on`)."""
    from tvseg.execution import engine
    from tvseg.preparation import overlapping_systems
    from tvseg.scale import evaluate_on

    results = {}
    first = runs[0][1]
    cache: dict = {}
    with engine(getattr(first, "jobs", None), getattr(first, "dask", None)) as runner:
        for k, (name, options) in enumerate(runs):
            settings, files = files_of(options)
            _refuse_text_report(options)
            if k == 0:
                uem = files.read_uem()
            inputs = {**files.sides(files.read(uem, cache=cache)), "uem": uem, "metadata": files.read_metadata()}
            if options.html is not None:
                _refuse_overlaps(overlapping_systems(inputs["hypotheses"]))
            found = evaluate_on(
                runner,
                inputs,
                settings=settings,
                check_time_base=not options.no_time_base_check,
                segments=options.html is not None,
            )
            results[name] = _with_origins(found, files)
    return results


def _with_agreement(combined, runs, args):
    """``combined`` with the annotators' pi* and kappa* in the units (:func:`tvseg.annotators.annotator_agreement`),
    the files read as given (their columns and time origins are those of a plain run: not with --columns or
    --time-origin, whose options belong to the evaluations)."""
    from dataclasses import replace

    from tvseg.annotators import annotator_agreement
    from tvseg.readers import read_segments, read_units
    from tvseg.readers.source import check_encoding

    encoding = check_encoding(getattr(args, "encoding", None))
    given = [
        value.partition(":")[2] for value in getattr(args, "side_formats", None) or [] if value.startswith("reference:")
    ]
    format = given[0] if given else args.format  # --format reference:FORMAT wins, as in each run
    references = {name: read_segments(options.reference, format=format, encoding=encoding) for name, options in runs}
    units = read_units(args.units, encoding=encoding)
    return replace(combined, agreement=annotator_agreement(references, units))


def annotators_summary(combined) -> str:
    """Per system, each metric of :data:`tvseg.annotators.CEILING_METRICS` it has: the pooled value over
    the annotators, their mean [min-max], then the ceiling and the system's share of it (percent)."""
    from tvseg import metrics
    from tvseg.annotators import CEILING_METRICS
    from tvseg.terminal import printable

    keys = [k for k in CEILING_METRICS if combined.ceiling["pooled"].get(k) is not None]
    labels = [metrics.METRICS[k].label for k in keys]
    width = max([len(printable(s)) for s in combined.systems] + [8]) + 2
    lines = [
        f"{len(combined.annotators)} annotators ({', '.join(printable(a) for a in combined.annotators)}); "
        f"settings: {combined.settings.signature()}",
        " " * (width + 14) + "".join(f"{label:>11}" for label in labels),
    ]
    for s in combined.systems:
        for row in ("pooled", "mean", "min", "max"):
            name = printable(s) if row == "pooled" else ""
            lines.append(
                f"{name:<{width}}{row:<14}" + "".join(f"{_fmt(combined.over[s][row].get(k)):>11}" for k in keys)
            )
        lines.append(
            f"{'':<{width}}{'% of ceiling':<14}" + "".join(f"{_fmt(combined.share[s].get(k)):>11}" for k in keys)
        )
    for row in ("pooled", "mean", "min", "max"):
        name = "ceiling" if row == "pooled" else ""
        lines.append(f"{name:<{width}}{row:<14}" + "".join(f"{_fmt(combined.ceiling[row].get(k)):>11}" for k in keys))
    lines.append("(percent; the ceiling: each annotator scored against the others; Pk and WD are error rates)")
    if combined.agreement is not None:
        found = combined.agreement
        lines.append(
            f"annotators' agreement in the units (Fournier & Inkpen 2012, S-based): pi* {found['pi_star']:.4f}, "
            f"kappa* {found['kappa_star']:.4f} ({found['n_shows']} shows)"
        )
    lines += [printable(sentence) for sentence in combined.sentences()]
    return "\n".join(lines)


def given_once(held: list | None) -> None:
    """Give again the warnings ``held`` while scoring (``warnings.catch_warnings(record=True)``), after the summary
    table: grouped by kind (in the order each kind first came), each message once (the evaluations of several
    annotators warn alike). They go through the warnings filters again (a filter that ignores them still does)."""
    kinds: dict[type, dict[str, warnings.WarningMessage]] = {}
    for caught in held or ():
        kinds.setdefault(caught.category, {}).setdefault(str(caught.message), caught)
    for messages in kinds.values():
        for caught in messages.values():
            warnings.warn_explicit(caught.message, caught.category, caught.filename, caught.lineno)


def _data_date(metadata) -> str | None:
    """The latest show date of the metadata (ISO), for a report that depends on its data only."""
    if metadata is None or "date" not in metadata.columns:
        return None
    dates = metadata["date"].dropna().astype(str)
    return max(dates) if len(dates) else None


def _fmt(value) -> str:
    return "   -  " if value is None or (isinstance(value, float) and math.isnan(value)) else f"{100 * value:6.1f}"


def summary(result) -> str:
    """Systems x main metrics (percent), pooled over the corpus and macro-averaged over shows (the
    systems' names with their control characters escaped: :func:`tvseg.terminal.printable`).

    Under a preset (``result.settings.preset``) the row the tool reports comes first and the preset's
    columns are added (:class:`tvseg.presets.Preset`: ``headline``, ``columns``); the numbers are the same.
    """
    from tvseg.commands.evaluate import OPTIONAL, SUMMARY
    from tvseg.metrics import METRICS
    from tvseg.terminal import printable

    preset = PRESETS.get(getattr(result.settings, "preset", None) or "")
    names = {name: printable(name) for name in result.systems}
    width = max(len("system"), *(len(n) for n in names.values()))
    columns = (() if getattr(result, "domain", "time") == "units" else SUMMARY) + tuple(
        (k, label) for k, label in OPTIONAL if any(k in sr.corpus for sr in result.systems.values())
    )
    if preset is not None:
        shown = {k for k, _ in columns}
        columns += tuple(
            (k, METRICS[k].summary or METRICS[k].label)
            for k in preset.columns
            if k not in shown and any(k in sr.corpus for sr in result.systems.values())
        )
    widths = [max(8, len(str(label))) for _, label in columns]
    head = " ".join(f"{label:>{w}}" for (_, label), w in zip(columns, widths))
    named = f"preset {preset.name} ({preset.tool}); " if preset is not None else ""
    n = len(result.shows)
    lines = [
        f"{n} show{'' if n == 1 else 's'}; {named}settings: {result.settings.signature()}",
        f"{'system':<{width}}  {'':<6} {head}",
    ]
    for name, sr in result.systems.items():
        rows = (("corpus", sr.corpus), ("macro", sr.macro))
        if preset is not None and preset.headline == "macro":
            rows = rows[::-1]
        for kind, values in rows:
            cells = " ".join(f"{_fmt(values.get(k)):>{w}}" for (k, _), w in zip(columns, widths))
            lines.append(f"{names[name] if kind == rows[0][0] else '':<{width}}  {kind:<6} {cells}")
    notes = ["percent"]
    if preset is not None and preset.headline == "macro":
        notes.append(f"macro first: {preset.tool} reports means over shows")
    if any(k == "pk" for k, _ in columns):
        notes.append("Pk and WD are error rates: lower is better")
    if any(k == "title_accuracy" for k, _ in columns):
        notes.append("title: title accuracy on the correctly retrieved segments")
    lines.append(
        "(corpus: each metric of the counts and durations summed over the shows, as Bouchekif et al. pool them; "
        "macro: the mean of its per-show values)"
    )
    lines.append("(" + "; ".join(notes) + ")")
    lines += [sr.confidence.line(names[name]) for name, sr in result.systems.items() if sr.confidence is not None]
    return "\n".join(lines)


def write_json(target: str, data: dict) -> None:
    """Write ``data`` (JSON-safe) to the file ``target`` (a temporary file in the same folder, then a rename), or
    to standard output for ``-``: an :class:`InputError` when its reader left before the end."""
    from tvseg.output import json_pieces, write_json_atomic

    if target != STDOUT:
        write_json_atomic(target, data, safe=True)
        return
    out = sys.stdout
    for piece in json_pieces(data):
        out.write(piece)
    out.write("\n")
    out.flush()
    if getattr(out, "reader_left", False):
        raise InputError("cannot write the JSON: its reader closed standard output before the end", path="<stdout>")
