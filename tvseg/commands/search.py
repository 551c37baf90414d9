"""``tvseg search --qrels QRELS --run NAME=RUN ...``: segment search scored as MediaEval's ``sh_eval`` scores it.

Every measure ``sh_eval`` computes (:mod:`tvseg.search`), per query and over the queries, for each run; with
several runs, each run against the first: the mean per-query change of each headline measure and the
p-value of a paired test over the queries both answer (:func:`tvseg.comparison.search_tests`), Holm-corrected
over those measures. ``--json OUT`` writes every value, ``--trec DIR`` each run's values as ``sh_eval`` prints
them (``DIR/NAME.txt``), ``--html DIR`` a page (:mod:`tvseg.report.search_page`).
"""

from __future__ import annotations

import os
import sys

from tvseg.errors import UsageError

__all__ = ["add_parser", "run"]


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "search",
        help="score query-based segment search (MediaEval Search and Hyperlinking's sh_eval)",
        description="Score runs of segment search (TREC-style: QUERY Q0 VIDEO START END [JUMP_IN] RANK SCORE RUN) "
        "against relevance judgements (QUERY Q0 VIDEO START END RELEVANCE) as MediaEval's sh_eval does: MAP, "
        "P@5/10/20 and Judged@10/20/30 over segments (overlap), 300 s bins and a 15 s tolerance, and MAiSP. "
        "Files may be gzip-compressed.",
    )
    parser.add_argument("--qrels", required=True, metavar="QRELS", help="the relevance judgements")
    parser.add_argument(
        "--run",
        action="append",
        required=True,
        dest="runs",
        metavar="NAME=RUN",
        help="a run, named (repeat for several)",
    )
    parser.add_argument(
        "--times",
        choices=("minutes", "seconds"),
        default="minutes",
        help="times as minutes.seconds, sh_eval's (12.05 is 725 s; default), or as plain seconds",
    )
    parser.add_argument(
        "--kind",
        choices=("linking", "search"),
        default="linking",
        help="the runs' lines: linking (QUERY Q0 VIDEO START END RANK SCORE RUN; default, as sh_eval) or search "
        "(a jump-in point after END)",
    )
    parser.add_argument("--bin-size", type=int, default=300, metavar="SECONDS", help="bin size (default 300)")
    parser.add_argument(
        "--tolerance", type=int, default=15, metavar="SECONDS", help="seconds watched from a start (default 15)"
    )
    parser.add_argument("--json", metavar="OUT", help="write every value as JSON (- for standard output)")
    parser.add_argument("--trec", metavar="DIR", help="write each run's values as sh_eval prints them, DIR/NAME.txt")
    parser.add_argument(
        "--html",
        metavar="DIR",
        help="write a page, DIR/index.html: the runs' values, the paired tests and a bar per query of map, map_bin, "
        "map_tol and maisp",
    )
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="N", help="resamples of the paired tests")
    parser.add_argument("--seed", type=int, default=0, help="seed of the paired tests' resamples")
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="score ranges of the queries in N processes (default 1; the values do not change)",
    )
    parser.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help="score ranges of the queries in Dask tasks: a scheduler address (tcp://host:8786) or 'local' (a "
        "local cluster of --jobs processes); needs pip install 'tvseg[dask]'; the same values",
    )
    parser.set_defaults(run=run)


def _runs(specs: list[str]) -> dict[str, str]:
    runs: dict[str, str] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise UsageError(f"--run takes NAME=RUN, got {spec!r}")
        if name in runs:
            raise UsageError(f"--run: the name {name!r} is given twice")
        runs[name] = path
    return runs


def run(args) -> int:
    from tvseg.execution import checked_jobs, engine
    from tvseg.readers.trec import TICKS, read_qrels, read_run
    from tvseg.search import components_of, overall_of, score_in

    if args.bin_size <= 0 or args.tolerance <= 0:
        raise UsageError("--bin-size and --tolerance take a number of seconds above 0")
    jobs = checked_jobs(args.jobs)
    if args.html and os.path.exists(args.html) and not os.path.isdir(args.html):
        raise UsageError(f"--html {args.html}: exists and is not a folder")
    paths = _runs(args.runs)
    qrels = read_qrels(args.qrels, times=args.times)
    ticks = TICKS[args.times]
    scored = {}
    with engine(jobs, args.dask) as work:
        for name, path in paths.items():
            returned = read_run(path, times=args.times, kind=args.kind)
            queries = score_in(work, qrels, returned, ticks=ticks, bin_size=args.bin_size, tolerance=args.tolerance)
            scored[name] = (queries, overall_of(components_of(queries)))
    settings = {
        "times": args.times,
        "bin_size": args.bin_size,
        "tolerance": args.tolerance,
        "kind": args.kind,
        "bootstrap": args.bootstrap,
        "seed": args.seed,
    }
    write(scored, settings, json_out=args.json, trec=args.trec, html=args.html)
    return 0


def write(scored: dict, settings: dict, *, json_out: str | None, trec: str | None = None, html: str | None = None):
    """The summary, then the outputs asked for, of the runs ``scored`` (name: ``(per query, all)``)."""
    from pathlib import Path

    from tvseg.output import new_run_id, with_run_id, write_json_atomic, write_text_atomic
    from tvseg.search import HEADLINE, components_of, sh_eval_lines

    pairwise = _pairwise(scored, resamples=settings["bootstrap"], seed=settings["seed"])
    shown = sys.stderr if json_out == "-" else sys.stdout
    print(_summary(scored, pairwise), file=shown)
    if trec:
        from tvseg.file_names import safe_names

        stems = safe_names(scored, keep_unicode=True)  # a run's name may hold a '/' or a name a system refuses
        for name, (queries, overall) in scored.items():
            lines = sh_eval_lines(
                name, queries, overall, bin_size=settings["bin_size"], tolerance=settings["tolerance"]
            )
            write_text_atomic(Path(trec) / f"{stems[name]}.txt", ["\n".join(lines) + "\n"], create_folder=True)
    run_id = new_run_id()
    if html:
        from tvseg.output import write_folder_atomic
        from tvseg.report.search_page import page

        shown_settings = {k: settings[k] for k in ("times", "bin_size", "tolerance")}
        text = page(scored, pairwise, headline=HEADLINE, settings=shown_settings, run_id=run_id)
        write_folder_atomic(html, {"index.html": text})
    if json_out:
        data = {
            "task": "search",
            "settings": settings,
            "runs": {
                name: {
                    "all": overall,
                    "queries": queries,
                    "components": {"queries": list(queries), "columns": components_of(queries)},
                }
                for name, (queries, overall) in scored.items()
            },
            "pairwise": pairwise,
        }
        data = with_run_id(data, run_id)
        if json_out == "-":
            import json

            print(json.dumps(data, indent=1))
        else:
            write_json_atomic(json_out, data)


def _pairwise(scored: dict, *, resamples: int, seed: int) -> dict:
    """Each run against the first: per headline measure, the mean per-query change over the queries both
    answer and its paired test's p-value (:func:`tvseg.comparison.search_tests`, the test ``tvseg compare``
    gives the pair as its pooled p-value), Holm-corrected over the headline measures."""
    import math

    from tvseg.comparison import search_tests
    from tvseg.search import HEADLINE
    from tvseg.significance import holm

    names = list(scored)
    out: dict = {}
    for name in names[1:]:
        tests = search_tests(scored[names[0]][0], scored[name][0], resamples=resamples, seed=seed)
        if not next(iter(tests.values()))["queries"]:
            continue
        p_values = [tests[k]["p_value"] for k in HEADLINE]
        adjusted = holm(p_values)
        out[f"{name} - {names[0]}"] = {
            k: {
                "queries": tests[k]["queries"],
                "mean_change": tests[k]["mean_change"],
                "p_value": None if math.isnan(p_values[j]) else p_values[j],
                "p_holm": None if math.isnan(adjusted[j]) else float(adjusted[j]),
                "test": tests[k]["test"],
            }
            for j, k in enumerate(HEADLINE)
        }
    return out


def _summary(scored: dict, pairwise: dict) -> str:
    from tvseg.search import HEADLINE
    from tvseg.terminal import printable

    width = max([len(printable(n)) for n in scored] + [4]) + 2
    lines = [f"{'run':<{width}}{'queries':>8}" + "".join(f"{k:>10}" for k in HEADLINE)]
    for name, (_, overall) in scored.items():
        lines.append(
            f"{printable(name):<{width}}{overall['num_q']:>8}" + "".join(f"{overall[k]:>10.4f}" for k in HEADLINE)
        )
    for pair, rows in pairwise.items():
        cells = []
        for k in HEADLINE:
            p = rows[k]["p_holm"]
            cells.append(f"{rows[k]['mean_change']:+.4f}" + ("" if p is None else f" (p {p:.3g})"))
        lines.append(
            f"{printable(pair)} over {next(iter(rows.values()))['queries']} queries: "
            + ", ".join(f"{k} {c}" for k, c in zip(HEADLINE, cells))
        )
    lines.append(
        "map, P_10: segments overlapping a relevant one; _bin: 300 s bins; _tol: watched 15 s from the start, "
        "content seen once; maisp: interpolated segment precision (sh_eval)"
    )
    return "\n".join(lines)
