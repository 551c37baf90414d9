"""``tvseg agreement PATH...``: S-based inter-coder agreement (Fournier & Inkpen 2012, sections 3.4-3.5).

PATH is either one JSON dataset, segeval's format ``{"items": {item: {coder: masses}}}`` or the bare
``{item: {coder: masses}}``, or several segment files (RTTM, WebVTT, SRT, CSV), one coder each, given as
``NAME=PATH`` or ``PATH`` (the coder is then the file's stem); their shows are the items, projected to
units read from ``--units`` or to fixed frames of ``--frame`` seconds.

``--system NAME`` treats coder NAME as an automatic segmenter: the coefficients are reported for the
human coders without it and with it, and the drop tells how far the segmenter is from human agreement.

``--metric S|B`` and ``--convention paper|segeval1|segeval`` choose whose coefficients
(:func:`tvseg.unit.agreement.agreement`): the paper's formulas with S (default), the 2012 reference
implementation (segeval 1.1), or segeval 2.0.11. ``--metric B --convention segeval`` equals segeval
2.0.11's ``fleiss_pi_linear`` / ``fleiss_kappa_linear`` with their defaults; ``--metric S --convention
segeval`` the same with ``fnc_compare=segmentation_similarity``.

A JSON dataset is read by :func:`tvseg.readers.agreement.read_dataset_json` and refused (exit 2,
``PATH:LINE: message``) rather than read in part: bytes that are not UTF-8, a key repeated in one
object, nesting too deep to parse, masses that are not positive integers, an item of more than
:data:`~tvseg.readers.agreement.MAX_UNITS` units, or coders that disagree on an item's number of units.
"""

from __future__ import annotations

import functools
import operator
import sys
from pathlib import Path

from tvseg import __version__
from tvseg.errors import InputError, UsageError

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "agreement",
        help="S-based inter-coder agreement (pi*, kappa*, bias) of a multiply-coded dataset",
        description="Inter-coder agreement with segmentation similarity S (Fournier & Inkpen 2012): "
        "Fleiss's multi-pi and multi-kappa (Scott's pi and Cohen's kappa for two coders) "
        "and the annotator bias. PATH is a segeval JSON dataset, or segment files "
        "(NAME=PATH, one coder each) projected to units.",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="a JSON dataset, or segment files as NAME=PATH or PATH (one coder each)",
    )
    parser.add_argument(
        "--metric",
        choices=("S", "B"),
        default="S",
        help="the similarity actual agreement is built on: S (default; Fournier & Inkpen "
        "2012) or B (Fournier 2013; with --convention segeval only)",
    )
    parser.add_argument(
        "--convention",
        choices=("paper", "segeval1", "segeval"),
        default="paper",
        help="paper: the 2012 paper's formulas (default); segeval1: the 2012 reference "
        "implementation; segeval: segeval 2.0.11 (--metric B: its default "
        "fleiss_pi_linear and fleiss_kappa_linear)",
    )
    parser.add_argument(
        "--n", type=int, default=2, help="largest transposition span of S or B in potential boundaries (default 2)"
    )
    parser.add_argument(
        "--chance-count",
        choices=("segments", "boundaries"),
        help="what the chance agreement counts per coder, with --convention paper: "
        "segments (default; the paper's Table 2) or internal boundaries; the other "
        "conventions count as their code does (segeval1 segments, segeval boundaries)",
    )
    parser.add_argument(
        "--system", metavar="NAME", help="a coder that is an automatic segmenter: report agreement without and with it"
    )
    parser.add_argument(
        "--format",
        metavar="FORMAT",
        help="read the segment files as FORMAT (rttm, vtt, srt, csv, "
        "...) whatever their extension (default: from each file's extension)",
    )
    parser.add_argument("--units", metavar="PATH", help="units of every show (segment files only)")
    parser.add_argument(
        "--frame",
        type=float,
        metavar="SECONDS",
        help="fixed frames as units when no --units is given (segment files only)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    parser.set_defaults(run=run)


def run(args) -> int:
    from tvseg.output import refuse_overwriting_inputs
    from tvseg.readers.agreement import read_dataset_json
    from tvseg.unit.agreement import agreement, agreement_with_system, check_dataset

    refuse_overwriting_inputs(
        [("PATH", spec.rpartition("=")[2]) for spec in args.paths] + [("--units", args.units)],
        files=[("--json", args.json)],
    )
    if len(args.paths) == 1 and _is_json(args.paths[0]):
        if args.units or args.frame is not None:
            raise UsageError("--units and --frame apply to segment files, not to a JSON dataset")
        dataset = read_dataset_json(args.paths[0], check=check_dataset)
    else:
        dataset = _dataset_from_segment_files(args.paths, units=args.units, frame=args.frame, format=args.format)
    options = dict(n=args.n, chance_count=args.chance_count, metric=args.metric, convention=args.convention)
    if args.system is not None:
        coders = {c for codings in dataset.values() for c in codings}
        if args.system not in coders:
            raise UsageError(
                f"--system {args.system!r} is not one of the coders: {', '.join(sorted(map(str, coders)))}"
            )
        humans = {item: {c: m for c, m in codings.items() if c != args.system} for item, codings in dataset.items()}
        system = {item: codings[args.system] for item, codings in dataset.items() if args.system in codings}
        result = agreement_with_system(humans, system, name=args.system, **options)
        print(_table([("coders", result.humans), (f"coders + {args.system}", result.with_system)]))
        print(
            f"drop when adding {args.system}: pi* {result.drop_pi_star:+.4f}, "
            f"kappa* {result.drop_kappa_star:+.4f}, A_a {result.drop_actual:+.4f}"
        )
        payload = result.as_dict()
    else:
        coders_result = agreement(dataset, **options)
        print(_table([("coders", coders_result)]))
        payload = coders_result.as_dict()
    if args.json:
        from tvseg.output import write_json_atomic

        write_json_atomic(Path(args.json), {"tvseg_version": __version__, **payload}, indent=2)
        print(f"wrote {Path(args.json)}", file=sys.stderr)
    return 0


_SOURCES = {
    "paper": "Fournier & Inkpen 2012",
    "segeval1": "segeval 1.1, the 2012 reference implementation",
    "segeval": "segeval 2.0.11",
}


def _is_json(path: str) -> bool:
    return "=" not in Path(path).name and Path(path).suffix.lower() == ".json"


def _table(rows) -> str:
    head = (
        f"{'':<24} {'items':>5} {'coders':>6} {'A_a':>7} {'Ae(pi*)':>8} {'Ae(k*)':>8} "
        f"{'pi*':>7} {'kappa*':>7} {'bias':>7}"
    )
    lines = [head]
    for label, r in rows:
        lines.append(
            f"{label:<24} {len(r.items):>5} {len(r.coders):>6} {r.actual:>7.4f} {r.expected_pi:>8.4f} "
            f"{r.expected_kappa:>8.4f} {r.pi_star:>7.4f} {r.kappa_star:>7.4f} {r.bias:>7.4f}"
        )
    first = rows[0][1]
    if len(first.coders) == 2:
        lines.append(f"two coders: Scott's pi {first.pi:.4f}, Cohen's kappa {first.kappa:.4f}")
    lines.append(
        f"{first.metric}: n={first.n}, chance counts {first.chance_count}, convention {first.convention} "
        f"({_SOURCES[first.convention]})"
    )
    return "\n".join(lines)


def _dataset_from_segment_files(specs, *, units, frame, format=None) -> dict:
    from tvseg.readers import read_segments, read_units
    from tvseg.unit import projection

    if len(specs) < 2:
        raise UsageError("give one JSON dataset, or at least two segment files (one coder each)")
    coders = {}
    for spec in specs:
        name, _, file = spec.rpartition("=") if "=" in spec else (Path(spec).stem, "", spec)
        if not name or not file:
            raise UsageError(f"expected NAME=PATH or PATH, got {spec!r}")
        if name in coders:
            raise UsageError(f"coder {name!r} given twice")
        coders[name] = read_segments(file, format=format)
    shows = set(next(iter(coders.values())))  # at least two coders (checked above)
    for name, segs in coders.items():
        if set(segs) != shows:
            different = sorted(set(segs) ^ shows)
            raise InputError(f"coder {name!r} does not segment the same shows as the others", value=different[:5])
    unit_tables = read_units(units) if units else None
    if unit_tables is None and frame is None:
        raise UsageError("segment files need units: give --units PATH or --frame SECONDS")
    dataset = {}
    for show in sorted(shows):
        if unit_tables is not None:
            if show not in unit_tables:
                raise InputError(f"show {show!r} has no units", path=units)
            table = unit_tables[show]
        else:
            extent = functools.reduce(operator.or_, (segs[show].get_timeline().extent() for segs in coders.values()))
            table = projection.frames(extent, _check_frame(frame, show, extent))
        dataset[show] = {
            name: [int(m) for m in projection.to_masses(segs[show], table)] for name, segs in coders.items()
        }
    return dataset


def _check_frame(frame, show, extent):
    """``frame``, unless it cuts ``show`` into more frames than ``evaluate`` allows (before allocating them)."""
    from tvseg.preparation import MAX_FRAMES_PER_SHOW

    if isinstance(frame, (int, float)) and frame > 0 and extent.duration / frame > MAX_FRAMES_PER_SHOW:
        raise UsageError(
            f"--frame {frame:g} cuts show {show!r} ({extent.duration:.0f} s) into "
            f"{extent.duration / frame:.3g} frames, more than {MAX_FRAMES_PER_SHOW:,}: use a longer frame"
        )
    return frame
