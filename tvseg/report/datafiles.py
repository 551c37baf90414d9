"""The data files of a report: ``data/scores.json`` and one CSV file of the match tables of every show.

Layout, in the report's folder (written by :func:`tvseg.report.render.write`)::

    data/scores.json        the contract's ``--json`` schema (``scores_json()`` of a source of pages)
    data/matches.csv        the match tables of every show, one row per (show, system, reference
                            segment), shows in the corpus order, then systems, then reference
                            segments (:func:`matches_csv`; columns :data:`MATCH_COLUMNS`)

In the CSV file, a text cell that a spreadsheet would run as a formula (starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return: OWASP's advice against CSV injection) gets a
leading ``'``, as does a text cell that already starts with ``'``, so that removing one leading
``'`` from every text cell that has one gives the exact text back. A text cell that is a plain
number (``-5``, ``+1.5e3``) is left as it is, and so are the numeric columns (each float written
by ``repr``, so read back exactly). An empty cell is a value not available: no best hypothesis
segment, no title F1, or a segment without a title (the readers' ``<NA>``). ``scores.json``
keeps every text exactly.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from tvseg.output import csv_line
from tvseg.report.model import Show
from tvseg.report.pages import MATCH_FIELDS, page_of

__all__ = [
    "matches_csv",
    "MATCHES_HEADER",
    "match_lines",
    "match_csv",
    "spreadsheet_safe",
    "MATCH_COLUMNS",
]


MATCH_COLUMNS = ("show", "system") + tuple(name for _, name in MATCH_FIELDS)
"""The columns of ``data/matches.csv``."""
MATCHES_HEADER = csv_line(MATCH_COLUMNS)
"""The first line of ``data/matches.csv``."""
_TEXT = frozenset({"show", "system", "ref_label", "hyp_label", "story"})
_FLAGS = frozenset({"correct"})


_FORMULA_START = frozenset("=+-@\t\r'")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def spreadsheet_safe(text: str) -> str:
    """``text`` with a leading ``'`` if a spreadsheet would run it as a formula (OWASP's advice).

    Applies to text starting with ``=``, ``+``, ``-``, ``@``, a tab, a carriage return, or ``'``
    (so that one leading ``'`` can always be taken off again); a plain number is left alone.
    """
    if text[:1] in _FORMULA_START and _PLAIN_NUMBER.fullmatch(text) is None:
        return "'" + text
    return text


def _quoted(text: str) -> str:
    """One text cell: made spreadsheet-safe, then quoted as :func:`tvseg.output.csv_line` quotes it."""
    return csv_line([spreadsheet_safe(text)])[:-1]


def _text_cells(values, no_label: str | None = None) -> np.ndarray:
    """Text cells (an object array): each distinct text made safe once; None, NA and ``no_label`` empty."""
    codes, uniques = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=True)
    cells = np.array([("" if u == no_label else _quoted(str(u))) for u in uniques] + [""], dtype=object)
    return cells[codes]  # code -1 (missing) takes the last cell, ""


def _number_cells(values) -> np.ndarray:
    """Float cells: ``repr`` of each value, empty for NaN and None."""
    if isinstance(values, np.ndarray) and values.dtype.kind == "f":
        numbers = values.astype(float, copy=False)
    else:
        numbers = np.asarray(pd.to_numeric(pd.Series(values, dtype=object), errors="coerce"), dtype=float)
    cells = np.array(list(map(repr, numbers.tolist())), dtype=object)
    cells[np.isnan(numbers)] = ""
    return cells


def _flag_cells(values) -> np.ndarray:
    """``True``/``False`` cells, empty for None."""
    if isinstance(values, np.ndarray) and values.dtype == bool:
        return np.where(values, "True", "False").astype(object)
    return np.array(["" if v is None else ("True" if v else "False") for v in values], dtype=object)


def match_lines(show_ids, systems, *, no_label: str = "<NA>") -> np.ndarray:
    """The lines of ``data/matches.csv`` after its header, in order (an object array of ``str``).

    Parameters
    ----------
    show_ids : sequence of str
        The shows, in the order of the report.
    systems : sequence of (str, numpy.ndarray, dict)
        Per system: its name, the index into ``show_ids`` of each of its match rows (rows of a
        show in their order), and its match table's columns, by the names of :data:`MATCH_FIELDS`
        (``ref_start`` ... ``story``; a missing column is written empty).
    no_label : str
        The readers' text of a segment without a title, written as an empty cell.
    """
    show_cells = _text_cells(list(show_ids))
    blocks, keys = [], []
    for name, show_of_row, columns in systems:
        show_of_row = np.asarray(show_of_row, dtype=np.int64)
        n = len(show_of_row)
        line = show_cells[show_of_row] + ("," + _quoted(name) + ",")
        for k, (column, _) in enumerate(MATCH_FIELDS):
            values = columns.get(column)
            if values is None:
                cells = np.full(n, "", dtype=object)
            elif column in _TEXT:
                cells = _text_cells(values, no_label)
            elif column in _FLAGS:
                cells = _flag_cells(values)
            else:
                cells = _number_cells(values)
            line = line + cells + ("," if k + 1 < len(MATCH_FIELDS) else "\n")
        blocks.append(line)
        keys.append(show_of_row)
    if not blocks:
        return np.empty(0, dtype=object)
    # shows in order, then systems, then each system's rows in their order (a stable sort)
    order = np.argsort(np.concatenate(keys), kind="stable")
    return np.concatenate(blocks)[order]


def matches_csv(pages, *, lines_per_piece: int = 50_000, header: bool = True):
    """``data/matches.csv`` of a source of pages (:mod:`tvseg.report.pages`), in pieces of text (``header``:
    its first line too; without, the lines of a shard's pages, :class:`tvseg.report.adapter.ShardPages`).

    A source with a ``match_systems()`` method (:class:`tvseg.report.adapter.ResultPages`) gives its
    columns for all shows at once; any other is read page by page.
    """
    from tvseg.report import svg

    if hasattr(pages, "match_systems"):
        systems = pages.match_systems()
    else:
        systems = _systems_of_pages(pages)
    lines = match_lines(pages.show_ids, systems, no_label=svg.no_label())
    if header:
        yield MATCHES_HEADER
    for i in range(0, len(lines), lines_per_piece):
        yield "".join(lines[i : i + lines_per_piece].tolist())


def _systems_of_pages(pages) -> list:
    """:func:`match_lines`' systems, read page by page (a report model, built by tests)."""
    by_name: dict[str, tuple[list, dict]] = {}
    for k in range(len(pages)):
        for system in pages.page(k).systems:
            rows, columns = by_name.setdefault(system.name, ([], {column: [] for column, _ in MATCH_FIELDS}))
            n = len(system.ref_start)
            rows.extend([k] * n)
            for column, _ in MATCH_FIELDS:
                values = getattr(system, column)
                columns[column].extend(values if len(values) == n else [None] * n)
    return [(name, np.array(rows, dtype=np.int64), columns) for name, (rows, columns) in by_name.items()]


def match_csv(show) -> str:
    """The match tables of one show as CSV, with :data:`MATCH_COLUMNS` (the rows of ``data/matches.csv``
    for this show).

    ``show`` is a :class:`~tvseg.report.pages.ShowPage` or a model :class:`Show`. Text cells go
    through :func:`spreadsheet_safe`: a title such as ``=HYPERLINK(...)`` is written
    ``'=HYPERLINK(...)``; numbers are written as numbers.
    """
    from tvseg.report import svg

    if isinstance(show, Show):
        show = page_of(show)
    systems = [
        (s.name, np.zeros(len(s.ref_start), dtype=np.int64), {c: getattr(s, c) for c, _ in MATCH_FIELDS})
        for s in show.systems
    ]
    return MATCHES_HEADER + "".join(match_lines([show.show_id], systems, no_label=svg.no_label()).tolist())
