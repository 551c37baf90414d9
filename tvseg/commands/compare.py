"""``tvseg compare RUN1.json RUN2.json [RUN3.json ...]``: what changed between results of ``tvseg evaluate --json``.

Runs of one system (``--system NAME``, by default the only one; the last two are tested, the earlier ones'
corpus values shown beside them), or two systems of one run (``tvseg compare RESULT.json --systems A B``;
with several files, A of the last but one and B of the last): per metric, the corpus values and their
difference, the mean change per show with the p-value of a paired test on the per-show values (exact
sign-flip up to 12 shows, paired bootstrap beyond), the p-value of the pooled values when both results carry
their components (``tvseg evaluate``'s pairwise test), and the shows whose value moved most
(:mod:`tvseg.comparison`).
``--json OUT`` writes the same as JSON (with every show whose ranked metric got worse or better,
``show_changes``), ``--html DIR`` as one self-contained page, ``DIR/index.html``
(:mod:`tvseg.report.compare_page`): those shows linked to their pages in both runs' reports, found where a result
is a report's ``data/scores.json`` or named by ``--report RUN=DIR``.

Results of ``tvseg search --json`` are compared the same way, the queries in the place of the shows
(:func:`tvseg.comparison.compare_search_results`): two runs of one result (``--systems A B``), or a run of
results over the same queries and settings (``--system NAME``, by default the only run); the pooled p-value is
the test ``tvseg search`` prints for the pair. A search result beside an evaluate result, or search results of
other settings or queries, are refused (exit 2, naming them).
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

from tvseg.errors import UsageError

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="what changed between JSON results of tvseg evaluate (runs, or two systems of one run), or of tvseg "
        "search",
        description="Compare results of tvseg evaluate --json: runs of one system (RUN1.json RUN2.json "
        "[RUN3.json ...]: the last two are tested), or two systems of one run (RESULT.json --systems A B). "
        "Per metric: the corpus values, the mean change per show and the p-value of a paired test on the "
        "per-show values (exact sign-flip up to 12 shows, paired bootstrap beyond), the p-value of the "
        "pooled values when both results carry their components (tvseg evaluate's pairwise test); the "
        "shows whose value moved most. Results of tvseg search --json compare the same way over their queries "
        "(runs as systems; the same settings and queries).",
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
    parser.add_argument(
        "--top",
        type=int,
        default=10,
        metavar="N",
        help="how many of the shows that moved most to print (default 10; --json and --html list every show "
        "that got worse or better)",
    )
    parser.add_argument("--json", metavar="OUT", help="also write the comparison as JSON")
    parser.add_argument(
        "--html",
        metavar="DIR",
        help="also write the comparison as one page, DIR/index.html: the shows that got worse and better, each "
        "linked to its page in both runs' reports; with 3 runs or more, the headline metrics across the runs",
    )
    parser.add_argument(
        "--report",
        action="append",
        default=[],
        metavar="RUN=DIR",
        help="the report tvseg evaluate --html DIR wrote for a run (RUN: its number, 1 for the first file, or "
        "its file as given), for --html's links; found without it when a result is DIR/data/scores.json; "
        "repeat for each run",
    )
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
    from tvseg.significance import p_figures

    return p_figures(entry[key], bound=bool(entry.get(key + "_is_bound")), gap="")


NOTE = (
    "fractions in percent; 'per show': the mean change per show over the shows both hold (the macro mean), "
    "and its p-value: a paired test on the per-show values ({tests}), the counts not tested; Holm: corrected "
    "over the headline metrics ({family}), the one family; 'pooled p': the paired test of the corpus values, "
    "tvseg evaluate's (from the components the results carry; - when one lacks them); '<0.001': a bound, the "
    "paired bootstrap's floor (no resample as far out as the change; per show: {resamples:,} resamples)"
)


SEARCH_NOTE = (
    "values as tvseg search gives them, not in percent; 'per query': the mean change per query over the queries both runs answer, and its "
    "p-value: a paired test on the per-query values ({tests}), the counts and statistics not tested; Holm: "
    "corrected over the headline measures ({family}), the one family; 'pooled p': the paired test of the values "
    "over the queries from the per-query components, tvseg search's pairwise test (with the new result's "
    "resamples and seed); '<0.001': a bound, the paired bootstrap's floor (no resample as far out as the change; "
    "per query: {resamples:,} resamples)"
)


def _note(comparison: dict, tests: list) -> str:
    """:data:`NOTE` (:data:`SEARCH_NOTE` for search results) of ``comparison``."""
    labels = {m["metric"]: m["label"] for m in comparison["metrics"]}
    family = ", ".join(labels.get(k, k) for k in comparison.get("family", ())) or "none"
    note = SEARCH_NOTE if comparison.get("unit") == "query" else NOTE
    return note.format(tests=", ".join(tests), family=family, resamples=comparison.get("resamples", 0))


def _ranked(comparison: dict) -> dict:
    key = comparison["ranked_by"]
    return next((m for m in comparison["metrics"] if m["metric"] == key), {"fraction": True, "kind": "rate"})


def text(comparison: dict) -> str:
    """The comparison as the command prints it."""
    from tvseg.terminal import printable

    old, new = comparison["old"], comparison["new"]
    metrics = comparison["metrics"]
    unit = comparison.get("unit", "show")
    units, counted = {"show": ("shows", "show(s)"), "query": ("queries", "queries")}[unit]
    width = max([len("metric")] + [len(printable(m["label"])) for m in metrics])
    earlier = comparison.get("earlier", [])
    lines = [
        f"earlier run {k + 1}: {printable(run['system'])} ({printable(run['file'])})" for k, run in enumerate(earlier)
    ]
    lines += [
        f"{printable(old['system'])} ({printable(old['file'])}) -> {printable(new['system'])} "
        f"({printable(new['file'])}): {comparison['shows']['common']} {counted} in common",
        f"{'metric':{width}s} "
        + "".join(f"{'run' + str(k + 1):>7s} " for k in range(len(earlier)))
        + f"{'old':>7s} {'new':>7s} {'change':>7s}  {units:>5s} {'per ' + unit:>8s} "
        f"{'p-value':>7s} {'Holm':>7s} {'pooled p':>8s}",
    ]
    for m in metrics:
        before = "".join(f"{_shown(m, run['corpus'].get(m['metric'], math.nan)):>7s} " for run in earlier)
        lines.append(
            f"{printable(m['label']):{width}s} {before}{_shown(m, m['old']):>7s} {_shown(m, m['new']):>7s} "
            f"{_change(m, m['difference']):>7s}  {m['shows']:>{len(units)}d} {_change(m, m['mean_difference']):>8s} "
            f"{_p(m, 'p_value'):>7s} {_p(m, 'p_value_holm'):>7s} {_p(m, 'p_value_pooled'):>8s}"
        )
    key, ranked = comparison["ranked_by"], _ranked(comparison)
    if comparison["moved"]:
        lines.append(f"{units} whose {key} moved most:")
        for m in comparison["moved"]:
            lines.append(
                f"  {printable(m['show'])}: {_shown(ranked, m['old'])} -> {_shown(ranked, m['new'])} "
                f"({_change(ranked, m['difference'])})"
            )
    changes = comparison.get("show_changes")
    if changes:
        sides = ("worse", "better") if changes["direction"] else ("down", "up")
        counts = ", ".join(f"{len(changes[side])} {side}" for side in sides)
        lines.append(
            f"{units} whose {key} changed: {counts}, {changes['unchanged']} unchanged (each in --json and --html)"
        )
    tests = sorted({m["test"] for m in metrics if m["test"]}) or [f"none: fewer than two {units}"]
    lines.append(f"({_note(comparison, tests)})")
    return "\n".join(lines)


def _reports(given: list[str], paths: list[str]) -> list[str | None]:
    """Each run's report folder: ``--report RUN=DIR`` (RUN its number or its file as given), else the report
    the result file is part of (:func:`tvseg.report.compare_page.report_of`), else None."""
    from tvseg.report.compare_page import report_of

    reports = [report_of(path) for path in paths]
    for option in given:
        run = next((k for k, path in enumerate(paths) if option.startswith(path + "=")), None)
        number, sep, folder = option.partition("=")
        if run is not None:
            folder = option[len(paths[run]) + 1 :]
        elif sep and number.isdigit() and 1 <= int(number) <= len(paths):
            run = int(number) - 1
        else:
            raise UsageError(
                f"--report {option}: give RUN=DIR, RUN a run's number (1 to {len(paths)}) or its file as given"
            )
        if not (Path(folder) / "index.html").is_file():
            raise UsageError(f"--report {option}: {folder!r} holds no report (no index.html)")
        reports[run] = folder
    return reports


def run(args) -> int:
    from tvseg.comparison import check_search_pair, compare_results, compare_search_results, run_of, system_of
    from tvseg.merging import read_result
    from tvseg.output import json_safe, refuse_overwriting_inputs, write_folder_atomic, write_json_atomic
    from tvseg.report.compare_page import show_changes
    from tvseg.search import is_search_result

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
    reports = _reports(args.report, args.paths)
    if args.systems and len(args.paths) == 1:
        reports *= 2
    documents = {path: read_result(path) for path in dict.fromkeys(args.paths)}
    old, new = documents[old_path], documents[new_path]
    searched = {path: is_search_result(document) for path, document in documents.items()}
    if any(searched.values()):
        if not all(searched.values()):
            found = next(path for path, is_search in searched.items() if is_search)
            other = next(path for path, is_search in searched.items() if not is_search)
            raise UsageError(
                f"{found} is a result of tvseg search and {other} is not (tvseg evaluate's?): compare results of "
                "one command"
            )
        for path in args.paths[:-1]:
            check_search_pair(documents[path], new, paths=(path, new_path))
        choose = run_of
    else:
        choose = system_of
    old_system = choose(old, old_system, path=old_path)[0]
    new_system = choose(new, new_system, path=new_path)[0]
    earlier = []
    for path in args.paths[:-2]:
        name, system = choose(documents[path], old_system, path=path)
        corpus = system.get("all" if searched[path] else "corpus") or {}
        earlier.append({"file": path, "system": name, "corpus": {k: _number(v) for k, v in corpus.items()}})
    where = {"old_path": old_path, "new_path": new_path, "metric": args.metric, "top": args.top}
    if searched[new_path]:
        comparison = compare_search_results(old, new, old_run=old_system, new_run=new_system, **where)
    else:
        comparison = compare_results(old, new, old_system=old_system, new_system=new_system, **where)
    if earlier:
        comparison = {**comparison, "earlier": earlier}
    if comparison["ranked_by"] is not None:
        rows_old, rows_new = _rows(old, old_system), _rows(new, new_system)
        directions = {m["metric"]: m["higher_is_better"] for m in comparison["metrics"] if "higher_is_better" in m}
        comparison["show_changes"] = show_changes(
            rows_old, rows_new, comparison["ranked_by"], directions=directions or None
        )
    for sentence in comparison["warnings"]:
        print(f"tvseg: warning: {sentence}", file=sys.stderr)
    print(text(comparison))
    if args.json:
        write_json_atomic(args.json, json_safe(comparison), safe=True)
    if args.html:
        write_folder_atomic(args.html, {"index.html": _page(comparison, args, old, new, reports, earlier)})
    return 0


def _rows(document: dict, name: str) -> dict:
    """The per-show values of system ``name`` of an evaluate result, or the per-query values of run ``name`` of a
    search result."""
    if "systems" in document:
        return document["systems"][name]["shows"]
    return document["runs"][name]["queries"]


def _page(comparison: dict, args, old: dict, new: dict, reports: list, earlier: list) -> str:
    """The page of ``--html``: the runs with links to their reports, the show pages of the last two linked."""
    from tvseg.report.compare_page import href, page, show_links

    def shows(document: dict) -> list:
        names = document["systems"] if "systems" in document else document["runs"]
        return list(dict.fromkeys(row for name in names for row in _rows(document, name)))

    def corpus(document: dict, name: str) -> dict:
        if "systems" not in document:
            return document["runs"][name]["all"]
        return document["systems"][name].get("corpus") or {}

    last = [
        {"file": comparison[side]["file"], "system": comparison[side]["system"], "corpus": corpus(document, name)}
        for side, document, name in (
            ("old", old, comparison["old"]["system"]),
            ("new", new, comparison["new"]["system"]),
        )
    ]
    runs = [
        {**run, "report": None if report is None else href(Path(report, "index.html"), page_folder=args.html)}
        for run, report in zip([*earlier, *last], reports)
    ]
    links = [
        show_links(report, shows(document), page_folder=args.html) for report, document in zip(reports[-2:], (old, new))
    ]
    changes = comparison.get("show_changes") or {
        "metric": None,
        "direction": None,
        "down": [],
        "up": [],
        "unchanged": 0,
        "undefined": 0,
    }
    return page(comparison, runs=runs, changes=changes, links=links)
