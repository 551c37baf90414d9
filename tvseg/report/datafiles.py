"""The data files of a report: ``data/scores.json`` and one CSV file of match tables per show.

Layout, in the report's folder (written by :func:`tvseg.report.render.write`)::

    data/scores.json        the contract's ``--json`` schema (:func:`scores_json`)
    data/shows/<name>.csv   the match tables of one show, one row per (system, reference segment)
                            (:func:`match_csv`)

In the CSV files, a text cell that a spreadsheet would run as a formula (starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return: OWASP's advice against CSV injection) gets a
leading ``'``, as does a text cell that already starts with ``'``, so that removing one leading
``'`` from every text cell that has one gives the exact text back. A text cell that is a plain
number (``-5``, ``+1.5e3``) is left as it is, and so are the numeric columns. ``scores.json``
keeps every text exactly.
"""

from __future__ import annotations

import math
import re

from tvseg.output import csv_line
from tvseg.report.model import Report, Show
from tvseg.report.pages import MATCH_FIELDS, ModelPages, page_of

__all__ = ["scores_json", "match_csv", "spreadsheet_safe", "MATCH_COLUMNS"]


def scores_json(report: Report) -> str:
    """``data/scores.json``: the result's ``--json`` object (``report.scores``), as written by ``--json``."""
    pages = ModelPages(report) if isinstance(report, Report) else report
    return "".join(pages.scores_json())


MATCH_COLUMNS = ("system",) + tuple(name for _, name in MATCH_FIELDS)
_PAGE_COLUMNS = tuple(column for column, _ in MATCH_FIELDS)
_HEADER = csv_line(MATCH_COLUMNS)


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


def match_csv(show) -> str:
    """The match tables of one show as CSV (one row per system and reference segment), for pandas.

    ``show`` is a :class:`~tvseg.report.pages.ShowPage` or a model :class:`Show`. Text cells go
    through :func:`spreadsheet_safe`: a title such as ``=HYPERLINK(...)`` is written
    ``'=HYPERLINK(...)``; numbers are written as numbers.
    """
    if isinstance(show, Show):
        show = page_of(show)
    lines = [_HEADER]
    for system in show.systems:
        name = _csv_cell(system.name)
        columns = [[_csv_cell(v) for v in getattr(system, c)] for c in _PAGE_COLUMNS]
        lines.extend([f"{name},{','.join(row)}\n" for row in zip(*columns)])
    return "".join(lines)


def _csv_cell(v) -> str:
    """One cell: empty for None and NaN, a float by ``repr``, text through :func:`spreadsheet_safe`."""
    kind = type(v)
    if kind is float:  # the usual cell first
        return "" if v != v else repr(v)
    if kind is bool:
        return "True" if v else "False"
    if v is None:
        return ""
    if isinstance(v, float):
        return "" if math.isnan(v) else repr(v)
    return csv_line([spreadsheet_safe(v) if isinstance(v, str) else v])[:-1]
