"""Render a :class:`~tvseg.report.model.Report` to a folder of self-contained HTML pages.

Layout of the folder::

    index.html              the corpus page
    shows/<name>.html       one page per show (``name`` from :func:`tvseg.report.paths.safe_names`)
    data/scores.json        the contract's ``--json`` schema
    data/shows/<name>.csv   the match tables of one show, one row per (system, reference segment)

Pages use jinja2 templates from ``tvseg/templates`` with autoescaping on, inline CSS and SVG, and
JavaScript only to sort tables. Output is deterministic: the same model gives the same bytes, apart
from the version and the date in the footers and in ``scores.json``.

Untrusted text (show ids, system names, titles, metadata) is escaped, and its control characters
and bidirectional-text controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), which
could hide or reorder what a reader sees, are shown as a visible ``<U+202E>`` (in a ``span.cc``
in the text, as plain text in attributes and SVG), never passed raw.

In the CSV files, a text cell that a spreadsheet would run as a formula (starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return: OWASP's advice against CSV injection) gets a
leading ``'``, as does a text cell that already starts with ``'``, so that removing one leading
``'`` from every text cell that has one gives the exact text back. A text cell that is a plain
number (``-5``, ``+1.5e3``) is left as it is, and so are the numeric columns. ``scores.json``
keeps every text exactly.

The folder is written and swapped into place by :func:`tvseg.report.paths.replace_directory`:
a kill at any instant leaves the old complete report or the new complete one.
"""
from __future__ import annotations

import json
import math
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Mapping

import jinja2
from markupsafe import Markup, escape

from tvseg import metrics
from tvseg.output import csv_line, json_safe, write_file
from tvseg.report import svg
from tvseg.report.model import Estimate, Report, Show
from tvseg.report.paths import inside, replace_directory, safe_names

__all__ = ["environment", "render_index", "render_show", "scores_json", "match_csv", "write", "visible",
           "spreadsheet_safe", "RETRIEVAL", "COUNTS", "UNIT", "TITLING", "CHAPTERS"]

# Column labels come from the metric registry (tvseg.metrics), one per key.
RETRIEVAL = metrics.columns("coverage", "boundary")
COUNTS = metrics.columns(keys_=("n_reference", "n_hypothesis", "n_correct_reference", "n_correct_hypothesis"))
UNIT = metrics.columns("unit")
TITLING = metrics.columns("title")
CHAPTERS = metrics.columns("chapters")
SIGNIFICANCE = metrics.columns(keys_=metrics.COMPARED)
LENGTH = metrics.columns(keys_=("n_reference", "n_hypothesis", "recall_n", "precision_n", "recall_d", "precision_d"))
COUNT_KEYS = metrics.COUNT_KEYS
_MISSING = Estimate(None)
PROGRESS_MIN_SHOWS = 36


# --- formatting filters (fixed formats, so the output is deterministic) -------------------------

def _defined(v) -> bool:
    return v is not None and not (isinstance(v, float) and math.isnan(v))


def _pct(v) -> str:
    return f"{100 * v:.1f}" if _defined(v) else "\u2013"


def _points(v) -> str:
    return f"{100 * v:+.1f}" if _defined(v) else "\u2013"


def _count(v) -> str:
    if not _defined(v):
        return "\u2013"
    return f"{v:.0f}" if float(v).is_integer() else f"{v:.1f}"


def _pvalue(p) -> str:
    if not _defined(p):
        return "\u2013"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def _sortvalue(v) -> str:
    return f"{v:.9g}" if _defined(v) and not isinstance(v, bool) else ""


def _duration(seconds: float) -> str:
    return f"{svg.mmss(seconds)} min" if seconds >= 60 else f"{seconds:.1f} s"


def _setting(value) -> str:
    return "none" if value is None else (f"{value:g}" if isinstance(value, float) else str(value))


def visible(value) -> Markup:
    """``value`` as escaped HTML text, each control or bidi character as a visible ``<U+XXXX>`` span.

    None is shown as nothing. For attributes and SVG, where markup cannot go, use
    :func:`tvseg.report.svg.visible_text`.
    """
    text = "" if value is None else str(value)
    if text.isprintable() or svg.HIDDEN.search(text) is None:  # every hidden character is unprintable
        return escape(text)
    parts, last = [], 0
    for match in svg.HIDDEN.finditer(text):
        parts.append(escape(text[last:match.start()]))
        parts.append(Markup(f'<span class="cc" title="invisible character">&lt;U+{ord(match.group()):04X}&gt;</span>'))
        last = match.end()
    parts.append(escape(text[last:]))
    return Markup("").join(parts)


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The jinja2 environment on the package's templates, autoescaping every template."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tvseg", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters.update(pct=_pct, points=_points, count=_count, pvalue=_pvalue, sortvalue=_sortvalue,
                       mmss=svg.mmss, clock=svg.clock, duration=_duration, setting=_setting,
                       visible=visible, visible_text=svg.visible_text)
    env.globals.update(count_keys=COUNT_KEYS, missing=_MISSING)
    return env


def _labels(columns) -> list[tuple[str, Markup]]:
    # column labels are ours (not user input) and carry <sub> markup
    return [(key, Markup(label)) for key, label in columns]


def _present(report: Report, columns) -> list:
    """The columns that some system has a value for (corpus, macro or any show)."""
    keys = set()
    for s in report.systems:
        keys.update(k for k, e in s.corpus.items() if _defined(e.value))
        keys.update(k for k, v in s.macro.items() if _defined(v))
    for show in report.shows:
        for system in show.systems:
            keys.update(k for k, v in system.metrics.items() if _defined(v))
    return _labels([c for c in columns if c[0] in keys])


# --- pages ------------------------------------------------------------------------------------

def _index_context(report: Report, names: Mapping[str, str]) -> dict:
    systems = [s.name for s in report.systems]
    unit = _present(report, UNIT)
    titling = _present(report, TITLING)
    show_columns = _labels([("cov_n", "CovN"), ("cov_d", "CovD"), ("boundary_f1", "Bound. F")]) \
        + [c for c in unit if c[0] in ("pk", "windowdiff")] + [c for c in titling if c[0] == "title_f1"]

    by_pair: dict[tuple[str, str], dict] = {}
    for c in report.comparisons:
        by_pair.setdefault((c.system_a, c.system_b), {})[c.metric] = c
    present = {metric for cells in by_pair.values() for metric in cells}
    sig_metrics = [(k, label) for k, label in SIGNIFICANCE if k in present]
    sig_metrics += [(k, k) for k in sorted(present - {k for k, _ in SIGNIFICANCE})]
    significance = {
        "metrics": _labels(sig_metrics),
        "rows": [{"a": a, "b": b, "cells": [cells.get(m) for m, _ in sig_metrics]}
                 for (a, b), cells in by_pair.items()],
    }

    groups = []
    kinds = sorted({kind for s in report.systems for kind in s.groups})
    for kind in kinds:
        values = sorted({v for s in report.systems for v in s.groups.get(kind, {})})
        rows = [{"value": v, "systems": [s.groups.get(kind, {}).get(v, {}) for s in report.systems]}
                for v in values]
        groups.append({"kind": kind, "rows": rows})

    charts = []
    gamma_series = [s for s in report.systems if s.gamma_sweep]
    if gamma_series:
        ticks = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
        lo = min(min(p[0] for p in s.gamma_sweep) for s in gamma_series)
        hi = max(max(p[0] for p in s.gamma_sweep) for s in gamma_series)
        for i, name in ((1, "CovN"), (2, "CovD")):
            charts.append(svg.line_chart(
                title=f"{name} against the coverage threshold \u03b3", x_label="\u03b3", y_label=name,
                series=[(s.name, [(p[0], p[i]) for p in s.gamma_sweep]) for s in gamma_series],
                x_range=(min(lo, 0.5), max(hi, 1.0)), x_ticks=[t for t in ticks if lo <= t <= hi] or ticks,
                x_format="{:.2f}"))
    tol_series = [s for s in report.systems if s.tolerance_sweep]
    if tol_series:
        hi = max(max(p[0] for p in s.tolerance_sweep) for s in tol_series)
        step = svg.nice_step(hi, 6) if hi > 0 else 1
        charts.append(svg.line_chart(
            title="Boundary F against the tolerance", x_label="tolerance (s)", y_label="boundary F",
            series=[(s.name, list(s.tolerance_sweep)) for s in tol_series],
            x_range=(0.0, hi or 1.0), x_ticks=[i * step for i in range(int(hi // step) + 1)]))

    metadata_keys = sorted({k for show in report.shows for k in show.metadata})
    show_rows = []
    for show in report.shows:
        by_name = {s.name: s.metrics for s in show.systems}
        show_rows.append({"show": show, "file": names[show.show_id],
                          "metrics": [by_name.get(n, {}) for n in systems]})
    has_ci = any(e.lo is not None for s in report.systems for e in s.corpus.values())
    long_threshold = report.settings.get("long_threshold")
    return {
        "report": report, "shows": report.shows, "has_ci": has_ci,
        "retrieval_columns": _labels(RETRIEVAL), "count_columns": _labels(COUNTS),
        "unit_columns": unit, "title_columns": titling, "chapter_columns": _present(report, CHAPTERS),
        "significance": significance,
        "by_length": any(s.by_length for s in report.systems), "length_columns": _labels(LENGTH),
        "long_threshold": f"{long_threshold:g} s" if isinstance(long_threshold, (int, float)) else "the threshold",
        "groups": groups, "group_columns": show_columns[:3],
        "charts": charts, "metadata_keys": metadata_keys, "show_columns": show_columns, "show_rows": show_rows,
    }


def render_index(report: Report, names: Mapping[str, str] | None = None) -> str:
    """The corpus page (``index.html``)."""
    names = names if names is not None else safe_names(s.show_id for s in report.shows)
    return environment().get_template("index.html").render(_index_context(report, names))


def _show_columns(report: Report) -> list:
    return _labels(RETRIEVAL + COUNTS[:2]) + _present(report, UNIT) + _present(report, TITLING)


def render_show(report: Report, index: int, names: Mapping[str, str] | None = None, *, _columns=None) -> str:
    """The page of ``report.shows[index]``, with links to its neighbours."""
    names = names if names is not None else safe_names(s.show_id for s in report.shows)
    shows = report.shows
    show = shows[index]

    def neighbour(i):
        if 0 <= i < len(shows):
            return {"show_id": shows[i].show_id, "file": names[shows[i].show_id]}
        return None

    tolerance = report.settings.get("tolerance")
    tolerance = tolerance if isinstance(tolerance, (int, float)) else None
    gamma = report.settings.get("gamma")
    return environment().get_template("show.html").render(
        report=report, show=show, file=names[show.show_id],
        previous=neighbour(index - 1), next=neighbour(index + 1),
        columns=_columns if _columns is not None else _show_columns(report),
        timeline=svg.timeline(show, tolerance),
        tolerance=None if tolerance is None else f"{tolerance:g} s",
        gamma=f"{gamma:g}" if isinstance(gamma, (int, float)) else "\u03b3",
        has_title_f1=any(m.title_f1 is not None for s in show.systems for m in s.matches),
    )


# --- data files -------------------------------------------------------------------------------

def scores_json(report: Report) -> str:
    """``data/scores.json``: the result's ``--json`` object (``report.scores``), as written by ``--json``."""
    if report.scores is None:
        raise ValueError("the report model carries no scores (build it with tvseg.report.adapter.from_evaluation)")
    return json.dumps(json_safe(report.scores), indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"


MATCH_COLUMNS = ("system", "ref_start", "ref_end", "ref_label", "hyp_start", "hyp_end", "hyp_label",
                 "cov_ref_to_hyp", "cov_hyp_to_ref", "cov_bidirectional", "correct", "title_f1")


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


def _csv_value(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return spreadsheet_safe(v)
    return v


def match_csv(show: Show) -> str:
    """The match tables of one show as CSV (one row per system and reference segment), for pandas.

    Text cells go through :func:`spreadsheet_safe`: a title such as ``=HYPERLINK(...)`` is written
    ``'=HYPERLINK(...)``; numbers are written as numbers.
    """
    lines = [csv_line(MATCH_COLUMNS)]
    for system in show.systems:
        name = spreadsheet_safe(system.name)
        for m in system.matches:
            lines.append(csv_line([name] + [_csv_value(getattr(m, c)) for c in MATCH_COLUMNS[1:]]))
    return "".join(lines)


# --- the folder -------------------------------------------------------------------------------

class _Progress:
    """A one-line progress bar on stderr, drawn only when asked to (see :func:`write`)."""

    def __init__(self, total: int, enabled: bool, stream=None):
        self.total, self.enabled, self.stream = total, enabled, stream or sys.stderr
        self.shown = -1

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        percent = 100 * done // max(self.total, 1)
        if percent == self.shown:
            return
        self.shown = percent
        bar = "#" * (percent // 4)
        self.stream.write(f"\rtvseg: writing report [{bar:<25}] {done}/{self.total} shows")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _progress_enabled(progress: bool | None, n_shows: int) -> bool:
    if progress is not None:
        return bool(progress)
    isatty = getattr(sys.stderr, "isatty", None)
    return n_shows > PROGRESS_MIN_SHOWS and bool(isatty and isatty())


def _put(root: Path, relative: str, text: str) -> None:
    path = inside(root, relative)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_file(path, text, sync=False)  # replace_directory flushes the whole folder at once


def write(report: Report, directory, *, progress: bool | None = None) -> Path:
    """Write the whole report into ``directory`` atomically; return the path of its index.html.

    ``progress``: None draws a progress bar on stderr when there are more than a few dozen shows
    and stderr is a terminal; True or False force it on or off.
    """
    names = safe_names(s.show_id for s in report.shows)
    bar = _Progress(len(report.shows), _progress_enabled(progress, len(report.shows)))
    columns = _show_columns(report)

    def fill(root: Path) -> None:
        _put(root, "data/scores.json", scores_json(report))
        for i, show in enumerate(report.shows):
            name = names[show.show_id]
            _put(root, f"shows/{name}.html", render_show(report, i, names, _columns=columns))
            _put(root, f"data/shows/{name}.csv", match_csv(show))
            bar.update(i + 1)
        if not report.shows:
            (root / "shows").mkdir()
            (root / "data" / "shows").mkdir()
        _put(root, "index.html", render_index(report, names))

    return replace_directory(directory, fill) / "index.html"
