"""Tidy tables of an evaluation for notebooks: one row per (system, scope, show, metric).

:func:`long_table` is what :meth:`tvseg.evaluation.EvaluationResult.to_frame` returns: the long
format people plot from (``seaborn``, ``pandas``' ``pivot_table``), holding every number of the
``--json`` output that is a metric value: each show's metrics, the pooled (``corpus``) and
``macro`` values, the short/long breakdown and the metadata groups, with the bootstrap interval
beside the corpus values that have one. :func:`summary_table` is the summary the CLI prints, as a
DataFrame (systems x main metrics), shown by the result's ``_repr_html_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tvseg.metrics import SHOW_FLAGS, SUMMARY

__all__ = ["long_table", "summary_table", "LONG_COLUMNS"]

LONG_COLUMNS = ("system", "scope", "group", "show", "metric", "value", "low", "high")
"""Columns of :func:`long_table`: ``scope`` is ``show``, ``corpus``, ``macro``, ``by_length`` or
``group``; ``group`` names the breakdown (``short``, ``long``, ``channel=fr2``...), ``show`` the show
(both missing where they do not apply); ``low``/``high`` the bootstrap interval of a corpus value."""


def _rows(system: str, scope: str, group, show, values: dict, intervals: dict | None = None) -> list:
    intervals = intervals or {}
    out = []
    for metric, value in values.items():
        band = intervals.get(metric, {})
        out.append((system, scope, group, show, metric, value, band.get("low", np.nan), band.get("high", np.nan)))
    return out


def long_table(result) -> pd.DataFrame:
    """Every metric value of ``result`` in long format (columns :data:`LONG_COLUMNS`).

    Per-show values come from each system's ``shows`` table (one row per show and metric, NaN kept:
    a 0/0 is a missing value, not a zero), then the corpus values (with their bootstrap interval),
    the macro means, ``by_length`` and the metadata groups.
    """
    parts = []
    for name, sr in result.systems.items():
        # the flags (has_output) as 1.0 / 0.0, so that the melted values stay floats
        table = sr.shows.astype({c: float for c in SHOW_FLAGS if c in sr.shows.columns})
        if len(table.columns):
            long = table.rename_axis("show").reset_index().melt(id_vars="show", var_name="metric", value_name="value")
            long.insert(0, "system", name)
            long.insert(1, "scope", "show")
            long.insert(2, "group", None)
            long["low"] = np.nan
            long["high"] = np.nan
            parts.append(long[list(LONG_COLUMNS)])
        rows = _rows(name, "corpus", None, None, sr.corpus, result.intervals.get(name))
        rows += _rows(name, "macro", None, None, sr.macro)
        for cls, values in sr.by_length.items():
            rows += _rows(name, "by_length", cls, None, values)
        for column, by_value in sr.groups.items():
            for value, metrics in by_value.items():
                rows += _rows(name, "group", f"{column}={value}", None, metrics)
        parts.append(pd.DataFrame(rows, columns=list(LONG_COLUMNS)))
    frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=list(LONG_COLUMNS))
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce").astype(float)
    for column in ("low", "high"):
        frame[column] = frame[column].astype(float)
    return frame


def summary_table(result) -> pd.DataFrame:
    """Systems x main metrics (corpus values, fractions), the columns of the CLI's summary that the
    result has: a row per system, columns labelled as in the registry (``CovN``, ``CovD``...)."""
    present = [(key, label) for key, label in SUMMARY if any(key in sr.corpus for sr in result.systems.values())]
    data = {label: [sr.corpus.get(key, np.nan) for sr in result.systems.values()] for key, label in present}
    frame = pd.DataFrame(data, index=pd.Index(list(result.systems), name="system"))
    frame.columns.name = "corpus"
    return frame
