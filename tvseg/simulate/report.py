"""Printing a study's cells beside the published values, and its ``--json`` document."""

from __future__ import annotations

from collections.abc import Sequence

from tvseg.simulate.study import Cell

__all__ = ["format_cells", "largest_differences", "as_json"]

_METRIC_NAMES = {"pk": "Pk", "pk_prime": "P'k", "windowdiff": "WD", "s": "S"}


def _range(cell: Cell) -> str:
    return f"({cell.range[0]}, {cell.range[1]})"


def _number(value, sd=None) -> str:
    if value is None:
        return "-"
    return f"{value:.4f}" if sd is None else f"{value:.4f} ± {sd:.4f}"


def format_cells(cells: Sequence[Cell]) -> str:
    """A plain-text table: one line per cell with ours, the published value and the difference.

    When the cells carry standard deviations (Fournier & Inkpen), the values are printed as
    ``mean ± sd`` and a last column marks with ``*`` a difference larger than the published sd.
    """
    with_sd = any(c.sd is not None for c in cells)
    header = ["table", "errors", "p", "range", "metric", "ours", "published", "diff"]
    if with_sd:
        header.append("> sd")
    rows = []
    for c in cells:
        diff = c.difference
        row = [
            c.table,
            c.errors,
            f"{c.p:g}",
            _range(c),
            _METRIC_NAMES.get(c.metric, c.metric),
            _number(c.value, c.sd),
            _number(c.published, c.published_sd),
            "-" if diff is None else f"{diff:+.4f}",
        ]
        if with_sd:
            beyond = diff is not None and c.published_sd is not None and abs(diff) > c.published_sd
            row.append("*" if beyond else "")
        rows.append(row)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    right = {2, 5, 6, 7}

    def line(values):
        return "  ".join(
            v.rjust(w) if i in right else v.ljust(w) for i, (v, w) in enumerate(zip(values, widths))
        ).rstrip()

    out = [line(header), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


def largest_differences(cells: Sequence[Cell]) -> dict[str, Cell]:
    """Per table, the cell whose value is farthest from the published one (the first of equals)."""
    tables: dict[str, list[Cell]] = {}
    for c in cells:
        if c.difference is not None:
            tables.setdefault(c.table, []).append(c)
    return {table: max(group, key=lambda c: abs(c.difference or 0.0)) for table, group in tables.items()}


def as_json(study: str, cells: Sequence[Cell], **settings) -> dict:
    """The contract's ``tvseg simulate NAME --json FILE`` document. ``settings`` are what the numbers
    cannot be re-run without: the sizes, the seed, the reference design and the study's own options
    (e.g. ``as_published``)."""
    return {"study": study, "settings": settings, "cells": [c.as_json() for c in cells]}
