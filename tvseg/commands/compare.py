"""``tvseg compare RUN1.json RUN2.json [RUN3.json ...]``: what changed between results of ``tvseg evaluate --json``.

Runs of one system (``--system NAME``, by default the only one; the last two are tested, the earlier ones'
corpus values shown beside them), or two systems of one run (``tvseg compare RESULT.json --systems A B``;
with several files, A of the last but one and B of the last): per metric, the corpus values and their
difference, the mean change per show with the p-value of a paired test on the per-show values (exact
sign-flip up to 12 shows, paired bootstrap beyond), the p-value of the pooled values when both results carry
their components (``tvseg evaluate``'s pairwise test), and the shows whose value moved most
(:mod:`tvseg.comparison`).
``--json OUT`` writes the same as JSON, ``--html DIR`` as one self-contained page, ``DIR/index.html``.
"""

from __future__ import annotations

import math
import os
import sys

from tvseg.errors import UsageError

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="what changed between JSON results of tvseg evaluate (runs, or two systems of one run)",
        description="Compare results of tvseg evaluate --json: runs of one system (RUN1.json RUN2.json "
        "[RUN3.json ...]: the last two are tested), or two systems of one run (RESULT.json --systems A B). "
        "Per metric: the corpus values, the mean change per show and the p-value of a paired test on the "
        "per-show values (exact sign-flip up to 12 shows, paired bootstrap beyond), the p-value of the "
        "pooled values when both results carry their components (tvseg evaluate's pairwise test); the "
        "shows whose value moved most.",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="RESULT.json",
        help="two results or more (the last two tested), or one with --systems",
    )
    parser.add_argument("--system", metavar="NAME", help="the system compared in both files (default: the only one)")
    parser.add_argument(
        "--systems",
        nargs=2,
        metavar=("A", "B"),
        help="two systems: A (old) and B (new) of one result, or of the last two results",
    )
    parser.add_argument("--metric", metavar="KEY", help="rank the shows by this metric's change (default: cov_d)")
    parser.add_argument("--top", type=int, default=10, metavar="N", help="how many shows to name (default 10)")
    parser.add_argument("--json", metavar="OUT", help="also write the comparison as JSON")
    parser.add_argument("--html", metavar="DIR", help="also write the comparison as one page, DIR/index.html")
    parser.set_defaults(run=run)


def _shown(entry: dict, value: float) -> str:
    """A value as printed: a fraction in percent, a count as an integer, anything else to 3 figures."""
    if math.isnan(value):
        return "-"
    if entry["fraction"]:
        return f"{100 * value:.1f}"
    if entry["kind"] == "count" and float(value).is_integer():
        return f"{value:.0f}"
    return f"{value:.3g}"


def _change(entry: dict, value: float) -> str:
    shown = _shown(entry, value)
    return shown if shown == "-" or shown.startswith("-") else "+" + shown


def _number(value) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan


def _p(entry: dict, key: str) -> str:
    """``entry[key]``, a p-value, to 3 figures; ``<`` its floor rounded up when it is a bound (``key + "_is_bound"``:
    the paired bootstrap's floor, :func:`tvseg.significance.at_floor`)."""
    from tvseg.significance import rounded_up

    value = entry[key]
    if math.isnan(value):
        return "-"
    return f"<{rounded_up(value)}" if entry.get(key + "_is_bound") else f"{value:.3g}"


NOTE = (
    "fractions in percent; 'per show': the mean change per show over the shows both hold (the macro mean), "
    "and its p-value: a paired test on the per-show values ({tests}), the counts not tested; Holm: corrected "
    "over the headline metrics ({family}), the one family; 'pooled p': the paired test of the corpus values, "
    "tvseg evaluate's (from the components the results carry; - when one lacks them); '<0.001': a bound, the "
    "paired bootstrap's floor (no resample as far out as the change; per show: {resamples:,} resamples)"
)


def _note(comparison: dict, tests: list) -> str:
    """:data:`NOTE` of ``comparison``."""
    labels = {m["metric"]: m["label"] for m in comparison["metrics"]}
    family = ", ".join(labels.get(k, k) for k in comparison.get("family", ())) or "none"
    return NOTE.format(tests=", ".join(tests), family=family, resamples=comparison.get("resamples", 0))


def _ranked(comparison: dict) -> dict:
    key = comparison["ranked_by"]
    return next((m for m in comparison["metrics"] if m["metric"] == key), {"fraction": True, "kind": "rate"})


def text(comparison: dict) -> str:
    """The comparison as the command prints it."""
    from tvseg.terminal import printable

    old, new = comparison["old"], comparison["new"]
    metrics = comparison["metrics"]
    width = max([len("metric")] + [len(printable(m["label"])) for m in metrics])
    earlier = comparison.get("earlier", [])
    lines = [
        f"earlier run {k + 1}: {printable(run['system'])} ({printable(run['file'])})" for k, run in enumerate(earlier)
    ]
    lines += [
        f"{printable(old['system'])} ({printable(old['file'])}) -> {printable(new['system'])} "
        f"({printable(new['file'])}): {comparison['shows']['common']} show(s) in common",
        f"{'metric':{width}s} "
        + "".join(f"{'run' + str(k + 1):>7s} " for k in range(len(earlier)))
        + f"{'old':>7s} {'new':>7s} {'change':>7s}  {'shows':>5s} {'per show':>8s} "
        f"{'p-value':>7s} {'Holm':>7s} {'pooled p':>8s}",
    ]
    for m in metrics:
        before = "".join(f"{_shown(m, run['corpus'].get(m['metric'], math.nan)):>7s} " for run in earlier)
        lines.append(
            f"{printable(m['label']):{width}s} {before}{_shown(m, m['old']):>7s} {_shown(m, m['new']):>7s} "
            f"{_change(m, m['difference']):>7s}  {m['shows']:>5d} {_change(m, m['mean_difference']):>8s} "
            f"{_p(m, 'p_value'):>7s} {_p(m, 'p_value_holm'):>7s} {_p(m, 'p_value_pooled'):>8s}"
        )
    key, ranked = comparison["ranked_by"], _ranked(comparison)
    if comparison["moved"]:
        lines.append(f"shows whose {key} moved most:")
        for m in comparison["moved"]:
            lines.append(
                f"  {printable(m['show'])}: {_shown(ranked, m['old'])} -> {_shown(ranked, m['new'])} "
                f"({_change(ranked, m['difference'])})"
            )
    tests = sorted({m["test"] for m in metrics if m["test"]}) or ["none: fewer than two shows"]
    lines.append(f"({_note(comparison, tests)})")
    return "\n".join(lines)


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #1a1a1a; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #ccc; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.better { color: #00603c; } .worse { color: #a0301a; }
.warning { background: #fff4d6; padding: 0.4em 0.8em; }
"""


def page(comparison: dict) -> str:
    """The comparison as one self-contained HTML page (every text escaped)."""
    from html import escape

    old, new = comparison["old"], comparison["new"]

    def cell(text: str, cls: str = "") -> str:
        return f'<td class="{cls}">{escape(text)}</td>' if cls else f"<td>{escape(text)}</td>"

    def sign(value: float, kind: str) -> str:
        """``better``/``worse`` for a change of a rate (higher is better) or an error (lower is better)."""
        if math.isnan(value) or value == 0 or kind not in ("rate", "error"):
            return ""
        return "better" if (value > 0) == (kind == "rate") else "worse"

    title = f"{old['system']} ({old['file']}) against {new['system']} ({new['file']})"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>tvseg compare: {escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>tvseg compare</h1><p>Old: {escape(old['system'])} ({escape(old['file'])}). "
        f"New: {escape(new['system'])} ({escape(new['file'])}). "
        f"{comparison['shows']['common']} show(s) in common.</p>",
    ]
    out += [f'<p class="warning">Warning: {escape(w)}</p>' for w in comparison["warnings"]]

    def table(heading: str, columns: list[str], rows: list[list[tuple[str, str]]]) -> str:
        """A titled table, each row's cells ``(text, class)``."""
        head = "".join(f"<th>{escape(c)}</th>" for c in columns)
        body = "".join("<tr>" + "".join(cell(text, cls) for text, cls in row) + "</tr>" for row in rows)
        return f"<h2>{escape(heading)}</h2><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    columns = ["metric", "old", "new", "change", "shows", "mean change per show", "p-value", "Holm", "test"]
    columns += ["pooled p-value", "pooled Holm"]
    rows = [
        [
            (m["label"], ""),
            (_shown(m, m["old"]), ""),
            (_shown(m, m["new"]), ""),
            (_change(m, m["difference"]), sign(m["difference"], m["kind"])),
            (str(m["shows"]), ""),
            (_change(m, m["mean_difference"]), sign(m["mean_difference"], m["kind"])),
            (_p(m, "p_value"), ""),
            (_p(m, "p_value_holm"), ""),
            (m["test"] or "none", ""),
            (_p(m, "p_value_pooled"), ""),
            (_p(m, "p_value_pooled_holm"), ""),
        ]
        for m in comparison["metrics"]
    ]
    out.append(table("Metrics", columns, rows))
    ranked = _ranked(comparison)
    if comparison["moved"]:
        rows = [
            [
                (m["show"], ""),
                (_shown(ranked, m["old"]), ""),
                (_shown(ranked, m["new"]), ""),
                (_change(ranked, m["difference"]), sign(m["difference"], ranked["kind"])),
            ]
            for m in comparison["moved"]
        ]
        out.append(table(f"Shows whose {comparison['ranked_by']} moved most", ["show", "old", "new", "change"], rows))
    tests = sorted({m["test"] for m in comparison["metrics"] if m["test"]}) or ["none"]
    out.append(
        f"<p>{escape(_note(comparison, tests)).capitalize()}. Green: better (a rate up, an error down); "
        "red: worse.</p></body></html>"
    )
    return "\n".join(out) + "\n"


def run(args) -> int:
    from tvseg.comparison import compare_results, system_of
    from tvseg.merging import read_result
    from tvseg.output import json_safe, refuse_overwriting_inputs, write_folder_atomic, write_json_atomic

    if args.top < 0:
        raise UsageError(f"--top must be at least 0, not {args.top}")
    if args.html and os.path.exists(args.html) and not os.path.isdir(args.html):
        raise UsageError(f"--html {args.html}: exists and is not a folder")
    refuse_overwriting_inputs(
        [("RESULT.json", path) for path in args.paths],
        files=[("--json", args.json), ("--html", os.path.join(args.html, "index.html") if args.html else None)],
    )
    if args.systems:
        if args.system:
            raise UsageError("--systems A B names the two systems: give no --system")
        old_path, new_path = args.paths[-2:] if len(args.paths) > 1 else args.paths * 2
        old_system, new_system = args.systems
    else:
        if len(args.paths) < 2:
            raise UsageError("give two results or more (the last two are tested), or one result with --systems A B")
        old_path, new_path = args.paths[-2:]
        old_system = new_system = args.system
    old = read_result(old_path)
    new = old if new_path == old_path else read_result(new_path)
    old_system = system_of(old, old_system, path=old_path)[0]
    new_system = system_of(new, new_system, path=new_path)[0]
    earlier = []
    for path in args.paths[:-2]:
        name, system = system_of(read_result(path), old_system, path=path)
        corpus = system.get("corpus") or {}
        earlier.append({"file": path, "system": name, "corpus": {k: _number(v) for k, v in corpus.items()}})
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
    if earlier:
        comparison = {**comparison, "earlier": earlier}
    for sentence in comparison["warnings"]:
        print(f"tvseg: warning: {sentence}", file=sys.stderr)
    print(text(comparison))
    if args.json:
        write_json_atomic(args.json, json_safe(comparison), safe=True)
    if args.html:
        write_folder_atomic(args.html, {"index.html": page(comparison)})
    return 0
