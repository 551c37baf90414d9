"""``tvseg compare OLD.json NEW.json``: what changed between two results of ``tvseg evaluate --json``.

Two runs of one system (``--system NAME``, by default the only one), or two systems of one run
(``tvseg compare RESULT.json --systems A B``): per metric, the corpus values and their difference, the
mean change per show with the paired sign-flip test's p-value, and the shows whose value moved most
(:mod:`tvseg.comparison`). ``--json OUT`` writes the same as JSON.
"""

from __future__ import annotations

import json
import math
import sys

from tvseg.errors import InputError, UsageError

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="what changed between two JSON results of tvseg evaluate (two runs, or two systems of one run)",
        description="Compare two results of tvseg evaluate --json: two runs of one system (OLD.json NEW.json), "
        "or two systems of one run (RESULT.json --systems A B). Per metric: the corpus values, the mean "
        "change per show and its paired sign-flip p-value; the shows whose value moved most.",
    )
    parser.add_argument("paths", nargs="+", metavar="RESULT.json", help="OLD.json NEW.json, or one file with --systems")
    parser.add_argument("--system", metavar="NAME", help="the system compared in both files (default: the only one)")
    parser.add_argument("--systems", nargs=2, metavar=("A", "B"), help="two systems of one result: A (old), B (new)")
    parser.add_argument("--metric", metavar="KEY", help="rank the shows by this metric's change (default: cov_d)")
    parser.add_argument("--top", type=int, default=10, metavar="N", help="how many shows to name (default 10)")
    parser.add_argument("--json", metavar="OUT", help="also write the comparison as JSON")
    parser.set_defaults(run=run)


def _read(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except FileNotFoundError:
        raise InputError("no such file", path=path) from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read the file ({error})", path=path) from None
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg}", path=path, line=error.lineno) from None
    if not isinstance(document, dict):
        raise InputError("not a result of tvseg evaluate --json (not an object)", path=path)
    return document


def _shown(key: str, value: float) -> str:
    from tvseg.metrics import METRICS

    if math.isnan(value):
        return "-"
    fraction = METRICS[key].fraction if key in METRICS else True
    return f"{100 * value:.1f}" if fraction else f"{value:.3g}"


def _change(key: str, value: float) -> str:
    shown = _shown(key, value)
    return shown if shown == "-" or shown.startswith("-") else "+" + shown


def text(comparison: dict) -> str:
    """The comparison as the command prints it."""
    from tvseg.terminal import printable

    old, new = comparison["old"], comparison["new"]
    lines = [
        f"{printable(old['system'])} ({printable(old['file'])}) -> {printable(new['system'])} "
        f"({printable(new['file'])}): {comparison['shows']['common']} show(s) in common",
        f"{'metric':22s} {'old':>7s} {'new':>7s} {'change':>7s}  {'shows':>5s} {'per show':>8s}  p-value",
    ]
    for m in comparison["metrics"]:
        p = "-" if math.isnan(m["p_value"]) else f"{m['p_value']:.3g} ({m['test']})"
        lines.append(
            f"{printable(m['label'])[:22]:22s} {_shown(m['metric'], m['old']):>7s} {_shown(m['metric'], m['new']):>7s} "
            f"{_change(m['metric'], m['difference']):>7s}  {m['shows']:>5d} "
            f"{_change(m['metric'], m['mean_difference']):>8s}  {p}"
        )
    key = comparison["ranked_by"]
    if comparison["moved"]:
        lines.append(f"shows whose {key} moved most:")
        for m in comparison["moved"]:
            lines.append(
                f"  {printable(m['show'])}: {_shown(key, m['old'])} -> {_shown(key, m['new'])} ({_change(key, m['difference'])})"
            )
    lines.append("(fractions in percent; the p-value tests the mean change per show: paired sign-flip over the shows)")
    return "\n".join(lines)


def run(args) -> int:
    from tvseg.comparison import compare_results
    from tvseg.output import json_safe, write_json_atomic

    if args.top < 0:
        raise UsageError(f"--top must be at least 0, not {args.top}")
    if args.systems:
        if len(args.paths) != 1 or args.system:
            raise UsageError("--systems A B compares two systems of one result: give one file, and no --system")
        old_path = new_path = args.paths[0]
        old_system, new_system = args.systems
    else:
        if len(args.paths) != 2:
            raise UsageError("give OLD.json and NEW.json, or one result with --systems A B")
        old_path, new_path = args.paths
        old_system = new_system = args.system
    old = _read(old_path)
    new = old if new_path == old_path else _read(new_path)
    from tvseg.comparison import system_of

    old_system = system_of(old, old_system, path=old_path)[0]
    new_system = system_of(new, new_system, path=new_path)[0]
    comparison = compare_results(
        old,
        new,
        old_system=old_system,
        new_system=new_system,
        old_path=old_path,
        new_path=new_path,
        metric=args.metric,
        top=args.top,
    )
    for sentence in comparison["warnings"]:
        print(f"tvseg: warning: {sentence}", file=sys.stderr)
    print(text(comparison))
    if args.json:
        write_json_atomic(args.json, json_safe(comparison), safe=True)
    return 0
