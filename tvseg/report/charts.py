"""The sweep line charts of the corpus page: CovN and CovD against gamma, boundary F against the tolerance.

:func:`line_chart` only computes coordinates and the text of each element (plain dicts), which the
template macro ``chart`` of ``macros.html`` turns into SVG with jinja2's autoescaping;
:func:`sweep_charts` lays out the corpus page's charts from a report's sweeps. Control and bidi
characters of untrusted system names are replaced by a visible ``<U+XXXX>``
(:func:`tvseg.report.svg.visible_text`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import groupby

from tvseg.report.model import defined
from tvseg.report.svg import nice_step, visible_text

__all__ = ["line_chart", "sweep_charts", "SERIES_STYLES"]

# Okabe & Ito's colour-blind-safe palette, its orange and sky blue darkened to 3:1 on white (WCAG's
# contrast for graphics: tests/test_report_colours.py); each series also gets its own marker and dash
# pattern, so the charts still read in greyscale.
SERIES_STYLES = (
    {"colour": "#0072B2", "marker": "circle", "dash": ""},
    {"colour": "#D55E00", "marker": "square", "dash": "6 3"},
    {"colour": "#009E73", "marker": "triangle", "dash": "2 2"},
    {"colour": "#CC79A7", "marker": "diamond", "dash": "8 3 2 3"},
    {"colour": "#A87200", "marker": "cross", "dash": "1 3"},
    {"colour": "#2E8BC0", "marker": "circle", "dash": "10 2"},
    {"colour": "#000000", "marker": "square", "dash": "4 1 1 1"},
)


def _polylines(points: Sequence[tuple[float, float | None]], fx, fy) -> list[str]:
    """SVG ``points`` strings, one per run of defined values (a None breaks the line)."""
    runs = groupby(points, key=lambda point: defined(point[1]))
    return [" ".join(f"{fx(px):.2f},{fy(py):.2f}" for px, py in run) for ok, run in runs if ok]


def line_chart(
    *,
    title: str,
    x_label: str,
    y_label: str,
    series: Sequence[tuple[str, Sequence]],
    x_range: tuple[float, float],
    x_ticks: Sequence[float],
    x_format: str = "{:g}",
    setting: tuple[float, str] | None = None,
    bands: Sequence[tuple] = (),
    y_range: tuple[float, float] = (0.0, 1.0),
) -> dict:
    """Layout of a line chart with axes, ticks, a legend, and one line per ``(name, points)`` series.

    ``points`` are ``(x, y)`` pairs; y values are fractions in [0, 1], labelled as percentages. Series keep the colour, marker and dash of their index in :data:`SERIES_STYLES`.
    ``setting`` is ``(x, label)``: the value the run used, marked by a vertical line and its label;
    ``bands`` are ``(series index, value, low, high)``: a series' value at the setting with its
    bootstrap interval, drawn as a bar at the setting's x (side by side when there are several).
    ``y_range``: the fractions the y axis spans (all of them by default).
    """
    width, height = 460, 300
    left, right, top, bottom = 56, 16, 28, 48
    plot_w, plot_h = width - left - right, height - top - bottom
    (x0, x1), (y0, y1) = x_range, y_range

    def fx(v):
        return left + (v - x0) / ((x1 - x0) or 1) * plot_w

    def fy(v):
        return top + plot_h - (min(max(v, y0), y1) - y0) / ((y1 - y0) or 1) * plot_h

    def shown(v):
        return f"{100 * v:.1f}%"

    y_ticks = [y0 + i * (y1 - y0) / 5 for i in range(6)]
    decimals = 0 if (y1 - y0) / 5 >= 0.01 else 1  # ticks a point apart or more: whole percentages
    lines = []
    for i, (name, points) in enumerate(series):
        name = visible_text(name)
        style = SERIES_STYLES[i % len(SERIES_STYLES)]
        markers = []
        for px, py in points:
            if not defined(py):
                continue
            markers.append(
                {
                    "x": round(fx(px), 2),
                    "y": round(fy(py), 2),
                    "title": f"{name}: {x_label} {x_format.format(px)} \u2192 {y_label} {shown(py)}",
                }
            )
        lines.append({"name": name, "polylines": _polylines(points, fx, fy), "markers": markers, **style})
    mark, band_rows = None, []
    if setting is not None and x0 <= setting[0] <= x1:
        sx = round(fx(setting[0]), 2)
        right_side = sx > left + 0.6 * plot_w
        mark = {
            "x": sx,
            "label": visible_text(setting[1]),
            "lx": sx - 5 if right_side else sx + 5,
            "anchor": "end" if right_side else "start",
        }
        for k, (i, value, lo, hi) in enumerate(bands):
            if value is None or lo is None or hi is None:
                continue
            style, name = SERIES_STYLES[i % len(SERIES_STYLES)], lines[i]["name"]
            band_rows.append(
                {
                    "x": round(sx + (k - (len(bands) - 1) / 2) * 9, 2),
                    "y": round(fy(value), 2),
                    "lo": round(fy(lo), 2),
                    "hi": round(fy(hi), 2),
                    "colour": style["colour"],
                    "title": f"{name}: {y_label} {shown(value)} at {setting[1]}, bootstrap interval "
                    f"[{shown(lo)}, {shown(hi)}]",
                }
            )
    legend_rows = [
        {**line, "lx": left + (i % 3) * (plot_w / 3), "ly": height + 18 * (i // 3) + 4} for i, line in enumerate(lines)
    ]
    return {
        "title": title,
        "x_label": x_label,
        "y_label": y_label,
        "width": width,
        "height": height + 18 * math.ceil(len(lines) / 3) + 6,
        "left": left,
        "top": top,
        "plot_w": plot_w,
        "plot_h": plot_h,
        "bottom": top + plot_h,
        "x_ticks": [{"x": round(fx(v), 2), "text": x_format.format(v)} for v in x_ticks],
        "y_ticks": [{"y": round(fy(v), 2), "text": f"{100 * v:.{decimals}f}%"} for v in y_ticks],
        "lines": lines,
        "legend": legend_rows,
        "setting": mark,
        "bands": band_rows,
    }


def _number(value) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _bands(series, key: str) -> list:
    """``(series index, value, low, high)`` of ``key`` for each system of ``series`` with an interval."""
    estimates = [s.corpus.get(key) for s in series]
    return [(i, e.value, e.lo, e.hi) for i, e in enumerate(estimates) if e is not None and e.lo is not None]


def sweep_charts(report) -> list:
    """Layouts of the corpus page's sweep charts (:func:`line_chart`): CovN and CovD against gamma,
    boundary F against the tolerance.

    Each marks the setting the run used (``report.settings``) and, where the result has bootstrap
    intervals, each system's corpus value there with its interval.

    Parameters
    ----------
    report : tvseg.report.model.Report
        Its ``systems`` (sweeps and corpus estimates) and ``settings`` are read.

    Returns
    -------
    list of dict
    """
    charts: list = []
    gamma, tolerance = _number(report.settings.get("gamma")), _number(report.settings.get("tolerance"))
    gamma_series = [s for s in report.systems if s.gamma_sweep]
    if gamma_series:
        ticks = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
        lo = min(min(p[0] for p in s.gamma_sweep) for s in gamma_series)
        hi = max(max(p[0] for p in s.gamma_sweep) for s in gamma_series)
        for i, name, key in ((1, "CovN", "cov_n"), (2, "CovD", "cov_d")):
            charts.append(
                line_chart(
                    title=f"{name} against the coverage threshold \u03b3",
                    x_label="\u03b3",
                    y_label=name,
                    series=[(s.name, [(p[0], p[i]) for p in s.gamma_sweep]) for s in gamma_series],
                    x_range=(min(lo, 0.5), max(hi, 1.0)),
                    x_ticks=[t for t in ticks if lo <= t <= hi] or ticks,
                    x_format="{:.2f}",
                    setting=None if gamma is None else (gamma, f"\u03b3 = {gamma:g} (this run)"),
                    bands=_bands(gamma_series, key),
                )
            )
    tol_series = [s for s in report.systems if s.tolerance_sweep]
    if tol_series:
        hi = max(max(p[0] for p in s.tolerance_sweep) for s in tol_series)
        step = nice_step(hi, 6) if hi > 0 else 1
        charts.append(
            line_chart(
                title="Boundary F against the tolerance",
                x_label="tolerance (s)",
                y_label="boundary F",
                series=[(s.name, list(s.tolerance_sweep)) for s in tol_series],
                x_range=(0.0, hi or 1.0),
                x_ticks=[i * step for i in range(int(hi // step) + 1)],
                setting=None if tolerance is None else (tolerance, f"{tolerance:g} s (this run)"),
                bands=_bands(tol_series, "boundary_f1"),
            )
        )
    return charts
