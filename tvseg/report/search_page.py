"""The page of ``tvseg search --html DIR``: the runs' values over the queries, their paired tests, and a bar per
query of each headline measure.

A view of what :mod:`tvseg.commands.search` computed, nothing scored here. One self-contained file
(``DIR/index.html``): the report's style sheet inlined, the bars drawn in CSS, each with its value written
beside it (a bar's length is its value over the largest of its measure, or over 1 when none is larger: the
segment variant's MAP can exceed 1), its exact value in ``data-value``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from markupsafe import Markup

from tvseg.report.svg import visible_text

__all__ = ["BARS", "page"]

BARS = ("map", "map_bin", "map_tol", "maisp")
"""The measures drawn per query."""

_WORDS = {
    "map": "MAP: a returned segment is relevant when it overlaps or touches a relevant one",
    "map_bin": "MAP-bin: over bins of {bin_size} s",
    "map_tol": "MAP-tol: the user watches {tolerance} s from each returned start, content seen once",
    "maisp": "MAiSP: interpolated segment precision over the seconds watched",
}


def _text(value: Any) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _bars(runs: Mapping[str, tuple[Mapping[str, Mapping], Mapping]], key: str, words: str) -> dict[str, Any]:
    """One measure's table: a row per query (every run's queries, sorted), a cell per run (None where the run
    does not answer the query)."""
    queries = sorted({q for per_query, _ in runs.values() for q in per_query})
    values = [v[key] for per_query, _ in runs.values() for v in per_query.values()]
    scale = max([1.0, *values])
    rows = []
    for query in queries:
        cells = []
        for per_query, _ in runs.values():
            value = per_query[query][key] if query in per_query else None
            cells.append(
                None
                if value is None
                else {"value": repr(value), "text": _text(value), "width": f"{100 * max(value, 0) / scale:.2f}"}
            )
        rows.append({"query": visible_text(query), "cells": cells})
    return {"key": key, "words": words, "rows": rows, "scale": _text(scale)}


def page(
    runs: Mapping[str, tuple[Mapping[str, Mapping], Mapping]],
    pairwise: Mapping[str, Mapping[str, Mapping]],
    *,
    headline: Sequence[str],
    settings: Mapping[str, Any],
    run_id: str | None = None,
) -> str:
    """The search page (every text escaped).

    Parameters
    ----------
    runs : Mapping
        Each run's ``(per query, all)`` values (:func:`tvseg.search.score_run`), by name, in the order given.
    pairwise : Mapping
        Each run against the first: per headline measure ``queries``, ``mean_change``, ``p_value``,
        ``p_holm``, ``test`` (the JSON's ``pairwise``).
    headline : sequence of str
        The measures of the overall table and of the tests.
    settings : Mapping
        ``times``, ``bin_size``, ``tolerance``.
    run_id : str, optional
        The JSON's ``run_id``.
    """
    from tvseg import __version__
    from tvseg.report.render import environment

    style = resources.files("tvseg").joinpath("templates", "report.css").read_text(encoding="utf-8")
    names = [visible_text(name) for name in runs]
    overall = [
        {"name": name, "queries": values["num_q"], "cells": [_text(values[k]) for k in headline]}
        for name, (_, values) in zip(names, runs.values())
    ]
    pairs = []
    for pair, rows in pairwise.items():
        cells = []
        for k in headline:
            row = rows[k]
            p = row["p_holm"]
            cells.append(
                {
                    "change": f"{row['mean_change']:+.4f}",
                    "p": "–" if p is None else f"{p:.3g}",
                    "test": row["test"],
                }
            )
        pairs.append({"pair": visible_text(pair), "queries": next(iter(rows.values()))["queries"], "cells": cells})
    return (
        environment()
        .get_template("search.html")
        .render(
            style=Markup(style),
            names=names,
            headline=list(headline),
            overall=overall,
            pairs=pairs,
            measures=[_bars(runs, key, _WORDS[key].format(**settings)) for key in BARS],
            tests=", ".join(sorted({c["test"] for pair in pairs for c in pair["cells"]})),
            version=__version__,
            settings=settings,
            run_id=run_id,
        )
    )
