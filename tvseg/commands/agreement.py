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

A JSON dataset is refused (exit 2, ``PATH:LINE: message``) rather than read in part: bytes that are not
UTF-8, a key repeated in one object, nesting too deep to parse, masses that are not positive integers,
an item of more than :data:`MAX_UNITS` units, or coders that disagree on an item's number of units.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from tvseg.output import write_json_atomic
from tvseg.errors import InputError, UsageError

__all__ = ["add_parser", "run", "read_dataset_json"]


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "agreement", help="S-based inter-coder agreement (pi*, kappa*, bias) of a multiply-coded dataset",
        description="Inter-coder agreement with segmentation similarity S (Fournier & Inkpen 2012): "
                    "Fleiss's multi-pi and multi-kappa (Scott's pi and Cohen's kappa for two coders) "
                    "and the annotator bias. PATH is a segeval JSON dataset, or segment files "
                    "(NAME=PATH, one coder each) projected to units.")
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a JSON dataset, or segment files as NAME=PATH or PATH (one coder each)")
    parser.add_argument("--metric", choices=("S", "B"), default="S",
                        help="the similarity actual agreement is built on: S (default; Fournier & Inkpen "
                             "2012) or B (Fournier 2013; with --convention segeval only)")
    parser.add_argument("--convention", choices=("paper", "segeval1", "segeval"), default="paper",
                        help="paper: the 2012 paper's formulas (default); segeval1: the 2012 reference "
                             "implementation; segeval: segeval 2.0.11 (--metric B: its default "
                             "fleiss_pi_linear and fleiss_kappa_linear)")
    parser.add_argument("--n", type=int, default=2,
                        help="largest transposition span of S or B in potential boundaries (default 2)")
    parser.add_argument("--chance-count", choices=("segments", "boundaries"), default=None,
                        help="what the chance agreement counts per coder, with --convention paper: "
                             "segments (default; the paper's Table 2) or internal boundaries; the other "
                             "conventions count as their code does (segeval1 segments, segeval boundaries)")
    parser.add_argument("--system", metavar="NAME",
                        help="a coder that is an automatic segmenter: report agreement without and with it")
    parser.add_argument("--units", metavar="PATH", help="units of every show (segment files only)")
    parser.add_argument("--frame", type=float, metavar="SECONDS",
                        help="fixed frames as units when no --units is given (segment files only)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    parser.set_defaults(run=run)


def run(args) -> int:
    from tvseg.unit.agreement import agreement, agreement_with_system

    if len(args.paths) == 1 and _is_json(args.paths[0]):
        if args.units or args.frame is not None:
            raise UsageError("--units and --frame apply to segment files, not to a JSON dataset")
        dataset = read_dataset_json(args.paths[0])
    else:
        dataset = _dataset_from_segment_files(args.paths, units=args.units, frame=args.frame)
    options = dict(n=args.n, chance_count=args.chance_count, metric=args.metric, convention=args.convention)
    if args.system is not None:
        coders = {c for codings in dataset.values() for c in codings}
        if args.system not in coders:
            raise UsageError(f"--system {args.system!r} is not one of the coders: {', '.join(sorted(map(str, coders)))}")
        humans = {item: {c: m for c, m in codings.items() if c != args.system} for item, codings in dataset.items()}
        system = {item: codings[args.system] for item, codings in dataset.items() if args.system in codings}
        result = agreement_with_system(humans, system, name=args.system, **options)
        print(_table([("coders", result.humans), (f"coders + {args.system}", result.with_system)]))
        print(f"drop when adding {args.system}: pi* {result.drop_pi_star:+.4f}, "
              f"kappa* {result.drop_kappa_star:+.4f}, A_a {result.drop_actual:+.4f}")
        payload = result.as_dict()
    else:
        result = agreement(dataset, **options)
        print(_table([("coders", result)]))
        payload = result.as_dict()
    if args.json:
        _write_json(Path(args.json), {"tvseg_version": _version(), **payload})
    return 0


_SOURCES = {"paper": "Fournier & Inkpen 2012", "segeval1": "segeval 1.1, the 2012 reference implementation",
            "segeval": "segeval 2.0.11"}


def _version() -> str:
    from tvseg import __version__
    return __version__


def _is_json(path: str) -> bool:
    return "=" not in Path(path).name and Path(path).suffix.lower() == ".json"


def _table(rows) -> str:
    head = f"{'':<24} {'items':>5} {'coders':>6} {'A_a':>7} {'Ae(pi*)':>8} {'Ae(k*)':>8} " \
           f"{'pi*':>7} {'kappa*':>7} {'bias':>7}"
    lines = [head]
    for label, r in rows:
        lines.append(f"{label:<24} {len(r.items):>5} {len(r.coders):>6} {r.actual:>7.4f} {r.expected_pi:>8.4f} "
                     f"{r.expected_kappa:>8.4f} {r.pi_star:>7.4f} {r.kappa_star:>7.4f} {r.bias:>7.4f}")
    first = rows[0][1]
    if len(first.coders) == 2:
        lines.append(f"two coders: Scott's pi {first.pi:.4f}, Cohen's kappa {first.kappa:.4f}")
    lines.append(f"{first.metric}: n={first.n}, chance counts {first.chance_count}, convention {first.convention} "
                 f"({_SOURCES[first.convention]})")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# JSON datasets


# An item of more units than this is no segmentation of a real text or show (10^9 one-second frames
# are 31 years); refused before any work, which also keeps every sum of masses far inside int64.
MAX_UNITS = 10 ** 9
_INT64_MAX = 2 ** 63 - 1
# ``{"items": {item: {coder: [masses]}}}`` needs 4 levels; a file nested deeper than this is refused
# by the line where it passes it when the JSON parser runs out of recursion
MAX_DEPTH = 64
# longest integer literal read: more digits than Python converts by default, and far beyond int64
_MAX_DIGITS = 100


class _Repeated(Exception):
    """A JSON object with a key given twice (raised inside :func:`json.loads`)."""

    def __init__(self, key):
        super().__init__(key)
        self.key = key


class _LongInteger(Exception):
    """An integer literal of more than ``_MAX_DIGITS`` characters (raised inside :func:`json.loads`)."""

    def __init__(self, digits: str):
        super().__init__(digits[:20])
        self.digits = digits


def _unique_pairs(pairs) -> dict:
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise _Repeated(key)
        seen[key] = value
    return seen


def read_dataset_json(path) -> dict:
    """Read a segeval JSON dataset (``{"items": ...}`` or bare ``{item: {coder: masses}}``) and check it.

    Parameters
    ----------
    path : str or os.PathLike
        UTF-8 JSON (a byte order mark is allowed).

    Returns
    -------
    dict
        ``{item: {coder: [int, ...]}}``.

    Raises
    ------
    InputError
        With the file and, where it can be found, the line of the fault: bytes that are not UTF-8, a
        JSON syntax error, a key repeated in one object (JSON would keep the last silently), nesting
        too deep to parse, masses that are not positive integers, an item of more than
        :data:`MAX_UNITS` units, or coders that disagree on an item's number of units.
    """
    from tvseg.unit.agreement import check_dataset

    path = Path(path)
    text = _read_text(path)
    data = _parse(text, path)
    if isinstance(data, dict) and "items" in data:
        fmt = data.get("segmentation_type", "linear")
        if fmt != "linear":
            raise InputError("only linear segmentations are supported", path=path,
                             line=_find_line(text, "segmentation_type"), value=fmt)
        data = data["items"]
    if not isinstance(data, dict) or not data:
        raise InputError("expected a non-empty object {item: {coder: masses}} (or {\"items\": ...})", path=path,
                         line=1)
    for item, codings in data.items():
        if not isinstance(codings, dict):
            raise InputError(f"item {item!r} must map coders to masses", path=path,
                             line=_find_line(text, item), value=codings)
        for coder, masses in codings.items():
            _check_masses(masses, f"item {item!r}, coder {coder!r}", path=path,
                          line=_find_line(text, coder, after=item))
    try:
        check_dataset(data)
    except InputError as error:
        raise InputError(error.message, path=path, line=_find_line(text, _first_key(error.message)),
                         value=error.value) from None
    return data


def _read_text(path: Path) -> str:
    """The file's text: UTF-8, without a leading byte order mark."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", path=path) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a JSON file", path=path) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", path=path) from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start}: {raw[error.start:error.start + 1]!r})",
                         path=path, line=raw.count(b"\n", 0, error.start) + 1) from None


def _parse(text: str, path: Path):
    """``json.loads`` that refuses repeated keys, deep nesting and endless integers with file and line."""
    try:
        return json.loads(text, object_pairs_hook=_unique_pairs, parse_int=_parse_int)
    except json.JSONDecodeError as error:
        raise InputError(f"invalid JSON: {error.msg} (column {error.colno})", path=path, line=error.lineno,
                         value=_line(text, error.lineno)) from None
    except _Repeated as repeated:
        line = _scan(text, repeated=True)
        raise InputError("a key is repeated in one object (JSON would keep only its last value)", path=path,
                         line=line, value=repeated.key) from None
    except RecursionError:
        raise InputError(f"JSON nested too deeply to read (more than {MAX_DEPTH} levels here; a dataset has 4)",
                         path=path, line=_scan(text, depth=MAX_DEPTH)) from None
    except _LongInteger as long:
        found = text.find(long.digits)
        raise InputError(f"an integer of {len(long.digits)} digits cannot be a number of units", path=path,
                         line=text.count("\n", 0, found) + 1 if found >= 0 else None,
                         value=long.digits[:20] + "...") from None


def _parse_int(digits: str) -> int:
    if len(digits) > _MAX_DIGITS:
        raise _LongInteger(digits)
    return int(digits)


# a JSON string (an unterminated one runs to the end, so the scan stays linear), a bracket or a colon
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}:]')


def _scan(text: str, *, depth: int | None = None, repeated: bool = False) -> int | None:
    """Line of the first bracket nested deeper than ``depth``, or of the first key repeated in its object.

    A scan of strings and punctuation only; it is run once ``json.loads`` has failed, on text whose
    syntax is valid up to the fault.
    """
    stack = []  # per open bracket: the keys seen so far in an object, None in an array
    key = None  # the last string, a key if a colon follows it
    for token in _TOKEN.finditer(text):
        t = token.group()
        if t[0] == '"':
            key = token
            continue
        if t == ":" and repeated and key is not None and stack and stack[-1] is not None:
            try:
                name = json.loads(key.group())
            except ValueError:
                name = key.group()
            if name in stack[-1]:
                return text.count("\n", 0, key.start()) + 1
            stack[-1].add(name)
        elif t in "[{":
            stack.append(set() if t == "{" else None)
            if depth is not None and len(stack) > depth:
                return text.count("\n", 0, token.start()) + 1
        elif t in "]}" and stack:
            stack.pop()
        key = None
    return None


def _check_masses(masses, name: str, *, path, line) -> None:
    """Refuse masses that are not a non-empty list of positive integers, or too many units in all."""
    message = f"{name}: masses must be a list of positive integers"
    if not isinstance(masses, list) or not masses:
        raise InputError(message, path=path, line=line, value=masses)
    for k, m in enumerate(masses):
        if isinstance(m, bool):
            problem = "a boolean"
        elif isinstance(m, float):
            problem = "not an integer"
        elif m is None or isinstance(m, str):
            problem = "not a number"
        elif not isinstance(m, int):
            raise InputError(f"{message} (mass {k + 1} is a JSON {'object' if isinstance(m, dict) else 'array'})",
                             path=path, line=line, value=masses)
        elif m <= 0:
            problem = "not positive"
        elif m > _INT64_MAX:
            problem = "beyond a 64-bit integer"
        else:
            continue
        raise InputError(f"{message} (mass {k + 1} is {_short(json.dumps(m))}, {problem})", path=path, line=line,
                         value=masses)
    total = sum(masses)
    if total > MAX_UNITS:
        raise InputError(f"{name}: {total:,} units in all, more than the {MAX_UNITS:,} an item may have",
                         path=path, line=line, value=masses)


def _short(shown: str) -> str:
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _line(text: str, number: int) -> str:
    lines = text.splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else ""


def _find_line(text: str, key, *, after=None) -> int | None:
    """Best-effort line of ``"key":`` in ``text`` (after the first ``"after":`` when given)."""
    if key is None:
        return None
    start = 0
    if after is not None:
        found = re.search(re.escape(json.dumps(str(after))) + r"\s*:", text)
        if found:
            start = found.end()
    found = re.compile(re.escape(json.dumps(str(key))) + r"\s*:").search(text, start)
    return text.count("\n", 0, found.start()) + 1 if found else None


def _first_key(message: str):
    found = re.search(r"item '([^']*)'", message)
    return found.group(1) if found else None


# --------------------------------------------------------------------------------------------
# Segment files


def _dataset_from_segment_files(specs, *, units, frame) -> dict:
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
        coders[name] = read_segments(file)
    shows = None
    for name, segs in coders.items():
        shows = set(segs) if shows is None else shows
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
            extent = None
            for segs in coders.values():
                e = segs[show].get_timeline().extent()
                extent = e if extent is None else extent | e
            table = projection.frames(extent, _check_frame(frame, show, extent))
        dataset[show] = {name: [int(m) for m in projection.to_masses(segs[show], table)]
                         for name, segs in coders.items()}
    return dataset


def _check_frame(frame, show, extent):
    """``frame``, unless it cuts ``show`` into more frames than ``evaluate`` allows (before allocating them)."""
    from tvseg.evaluation import MAX_FRAMES_PER_SHOW

    if isinstance(frame, (int, float)) and frame > 0 and extent.duration / frame > MAX_FRAMES_PER_SHOW:
        raise UsageError(f"--frame {frame:g} cuts show {show!r} ({extent.duration:.0f} s) into "
                         f"{extent.duration / frame:.3g} frames, more than {MAX_FRAMES_PER_SHOW:,}: use a longer frame")
    return frame


def _write_json(path: Path, payload: dict) -> None:
    write_json_atomic(path, payload, indent=2)
    print(f"wrote {path}", file=sys.stderr)
