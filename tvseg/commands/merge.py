"""``tvseg merge RUN.json... --json OUT``: the result of one run over the shows of several runs.

Each ``tvseg evaluate --json`` result carries its components (:mod:`tvseg.carried`); the runs' shows are
put in one run's order and reduced as one run reduces them (:func:`tvseg.merging.merge`): every value,
interval and p-value of the run over all the shows. Runs of other settings, or sharing a show, are
refused (exit 2, named). ``--html DIR`` is refused: the report draws each show's segments, which the
runs' results do not hold. Results of ``tvseg search --json`` over parts of the queries are merged from
their per-query components (:func:`tvseg.search.merge_results`) into the result over all the queries.
"""

from __future__ import annotations

import sys

from tvseg.errors import UsageError

__all__ = ["add_parser", "run"]

STDOUT = "-"


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "merge",
        help="the result of one run over the shows of several JSON results of tvseg evaluate (or the queries of "
        "several of tvseg search)",
        description="Merge results of tvseg evaluate --json over parts of one corpus (the same settings and "
        "systems, no show in two of them) into the result of one run over all their shows: every value, "
        "bootstrap interval and p-value that run gives, rebuilt from the components each result carries. "
        "Results of tvseg search --json over parts of the queries merge the same way.",
    )
    parser.add_argument(
        "paths", nargs="+", metavar="RUN.json", help="results of tvseg evaluate --json (or all of tvseg search --json)"
    )
    parser.add_argument("--json", metavar="OUT", required=True, help="write the merged result (- for standard output)")
    parser.add_argument(
        "--html",
        metavar="DIR",
        help="refused: the report draws each show's segments, which the results do not hold "
        "(run tvseg evaluate --html over the corpus)",
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    from tvseg.memory import tune_allocator, tune_collector
    from tvseg.output import new_run_id, refuse_overwriting_inputs, with_run_id

    tune_collector()  # as evaluate's (tvseg.memory)
    tune_allocator()

    if args.json == "":
        raise UsageError("--json needs a file name (or - for standard output)")
    if args.html is not None:
        raise UsageError(
            "--html: the report draws each show's reference and hypothesis segments, and a result's JSON "
            "carries their components, not the segments: write the report with tvseg evaluate --html over "
            "the whole corpus (merge writes --json only)"
        )
    refuse_overwriting_inputs(
        [("RUN.json", path) for path in args.paths], files=[("--json", None if args.json == STDOUT else args.json)]
    )
    from tvseg.commands.evaluate import summary, write_json
    from tvseg.merging import merge, read_result
    from tvseg.search import is_search_result, merge_results

    documents = [read_result(path) for path in args.paths]
    searched = [is_search_result(d) for d in documents]
    if any(searched):
        if not all(searched):
            raise UsageError(
                f"{args.paths[searched.index(True)]} is a result of tvseg search and "
                f"{args.paths[searched.index(False)]} is not: merge results of one command"
            )
        from tvseg.commands.search import write

        scored, settings = merge_results(list(zip(args.paths, documents)))
        write(scored, settings, json_out=args.json)
        return 0
    result = merge(*documents, labels=args.paths)
    shown = sys.stderr if args.json == STDOUT else sys.stdout
    print(summary(result), file=shown)
    write_json(args.json, with_run_id(result.to_json(stream=True), new_run_id()))
    return 0
