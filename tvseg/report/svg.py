"""Geometry of the report's SVG figures: the show timeline and the sweep line charts.

These functions only compute coordinates and the text of each element (plain dicts); the templates
``timeline.html`` and ``chart.html`` turn them into SVG with jinja2's autoescaping, so untrusted
titles never reach the page unescaped. Their control and bidi characters are replaced here by a
visible ``<U+XXXX>`` (:func:`visible_text`).
"""
from __future__ import annotations

import math
import re
from typing import Sequence

from tvseg.report.model import Show

__all__ = ["clock", "mmss", "nice_step", "timeline", "line_chart", "visible_text", "HIDDEN", "SERIES_STYLES"]

# Control characters (C0, DEL, C1) and the bidirectional-text controls (embeddings, overrides,
# isolates, marks), which can hide text or reorder how an id or a title reads.
HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

# Okabe & Ito's colour-blind-safe palette; each series also gets its own marker and dash pattern,
# so the charts still read in greyscale.
SERIES_STYLES = (
    {"colour": "#0072B2", "marker": "circle", "dash": ""},
    {"colour": "#D55E00", "marker": "square", "dash": "6 3"},
    {"colour": "#009E73", "marker": "triangle", "dash": "2 2"},
    {"colour": "#CC79A7", "marker": "diamond", "dash": "8 3 2 3"},
    {"colour": "#E69F00", "marker": "cross", "dash": "1 3"},
    {"colour": "#56B4E9", "marker": "circle", "dash": "10 2"},
    {"colour": "#000000", "marker": "square", "dash": "4 1 1 1"},
)

_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 21600)


def mmss(seconds: float) -> str:
    """``m:ss`` as on an axis (minutes are not wrapped into hours: ``75:00``)."""
    s = int(round(seconds))
    sign = "-" if s < 0 else ""
    s = abs(s)
    return f"{sign}{s // 60:02d}:{s % 60:02d}"


def clock(seconds: float | None) -> str:
    """``mm:ss.s`` for tables; an en dash for None."""
    if seconds is None:
        return "\u2013"
    tenths = int(round(abs(seconds) * 10))
    sign = "-" if seconds < 0 and tenths else ""
    return f"{sign}{tenths // 600:02d}:{tenths % 600 // 10:02d}.{tenths % 10}"


def visible_text(value) -> str:
    """``value`` as text with each control or bidi character written ``<U+XXXX>`` (None: empty)."""
    text = "" if value is None else str(value)
    if text.isprintable() or HIDDEN.search(text) is None:  # every hidden character is unprintable
        return text
    return HIDDEN.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def nice_step(span: float, target: int = 10) -> float:
    """The smallest round time step (1 s, 2 s, 5 s, ... 6 h) giving at most ``target`` intervals."""
    for step in _STEPS:
        if span / step <= target:
            return step
    return _STEPS[-1] * math.ceil(span / _STEPS[-1] / target)


# Timeline layout, in SVG user units (the figure scales to the page width).
WIDTH = 1200
LEFT = 150
RIGHT = 20
TOP = 10
LANE = 36
GAP = 16
AXIS = 34
CHAR = 6.6  # approximate width of a character of the 12px label font


def _fit(text: str, width: float) -> str:
    room = int((width - 8) // CHAR)
    if room < 3:
        return ""
    return text if len(text) <= room else text[: room - 1] + "\u2026"


def _display_title(label) -> str:
    """A label as a reader would write the title: none for a missing one (``<NA>``), and RTTM's
    underscores (it cannot store spaces) shown as spaces. Only the drawing changes; the tables and
    the CSV keep the label as read."""
    from tvseg.readers import NO_LABEL

    if label is None or label == NO_LABEL:
        return ""
    return visible_text(label).replace("_", " ")


def _segment_title(lane: str, label, start: float, end: float, correct) -> str:
    what = {True: "correct", False: "wrong", None: ""}[correct]
    head = f"{lane}: {label}" if label else lane
    tail = f" ({what})" if what else ""
    return f"{head}\n{clock(start)}\u2013{clock(end)}, {end - start:.1f} s{tail}"


def timeline(show: Show, tolerance: float | None = None) -> dict:
    """Layout of a show's timeline: one lane for the reference, then one per system.

    Segments are drawn to scale between the show's start and end; in system lanes a segment is
    ``ok`` (solid) or ``bad`` (hatched) and boundaries are ``matched`` (filled triangle), ``false``
    (cross: a false alarm) or ``missed`` (hollow circle at the reference boundary).
    """
    start, end = show.start, show.end
    span = max(end - start, 1e-9)
    plot = WIDTH - LEFT - RIGHT

    def x(t: float) -> float:
        return round(LEFT + (min(max(t, start), end) - start) / span * plot, 2)

    lanes = []

    def lane(name: str, kind: str, segments, marks) -> None:
        name = visible_text(name)
        y = TOP + len(lanes) * (LANE + GAP)
        rects = []
        for seg in segments:
            x0, x1 = x(seg.start), x(seg.end)
            cls = "ref" if kind == "reference" else {True: "ok", False: "bad", None: "unknown"}[seg.correct]
            label = _display_title(seg.label)
            rects.append({"x": x0, "w": round(max(x1 - x0, 0.5), 2), "cls": cls,
                          "text": _fit(label, x1 - x0),
                          "title": _segment_title(name, label, seg.start, seg.end,
                                                  None if kind == "reference" else seg.correct)})
        lanes.append({"name": name, "kind": kind, "y": y, "h": LANE, "rects": rects, "marks": marks})

    lane("reference", "reference", show.reference, [])
    tol = "" if tolerance is None else f" (within {tolerance:g} s)"
    for system in show.systems:
        marks = []
        shown = visible_text(system.name)
        for pair in system.matched:
            marks.append({"x": x(pair.hypothesis), "cls": "matched",
                          "title": f"{shown}: boundary at {clock(pair.hypothesis)} matches the reference "
                                   f"boundary at {clock(pair.reference)}{tol}"})
        for t in system.false_alarms:
            marks.append({"x": x(t), "cls": "false",
                          "title": f"{shown}: false boundary at {clock(t)} (no reference boundary{tol})"})
        for t in system.missed:
            marks.append({"x": x(t), "cls": "missed",
                          "title": f"{shown}: missed the reference boundary at {clock(t)}"})
        marks.sort(key=lambda m: (m["x"], m["cls"]))
        lane(system.name, "system", system.segments, marks)

    axis_y = TOP + len(lanes) * (LANE + GAP) - GAP + 6
    step = nice_step(span)
    first = math.ceil(start / step) * step
    ticks = []
    n = 0
    while first + n * step <= end + 1e-9:
        t = first + n * step
        ticks.append({"x": x(t), "text": mmss(t)})
        n += 1
    return {"width": WIDTH, "height": axis_y + AXIS, "left": LEFT, "right": WIDTH - RIGHT,
            "axis_y": axis_y, "top": TOP, "ticks": ticks, "lanes": lanes,
            "label": f"Timeline of show {visible_text(show.show_id)}: reference and {len(show.systems)} system(s), "
                     f"{mmss(start)} to {mmss(end)}"}


def _polylines(points: Sequence[tuple[float, float | None]], fx, fy) -> list[str]:
    """SVG ``points`` strings, one per run of defined values (a None breaks the line)."""
    runs, current = [], []
    for px, py in points:
        if py is None or (isinstance(py, float) and math.isnan(py)):
            if current:
                runs.append(current)
            current = []
        else:
            current.append(f"{fx(px):.2f},{fy(py):.2f}")
    if current:
        runs.append(current)
    return [" ".join(r) for r in runs]


def line_chart(*, title: str, x_label: str, y_label: str, series: Sequence[tuple[str, Sequence]],
               x_range: tuple[float, float], x_ticks: Sequence[float], x_format: str = "{:g}",
               y_range: tuple[float, float] = (0.0, 1.0), y_percent: bool = True) -> dict:
    """Layout of a line chart with axes, ticks, a legend, and one line per ``(name, points)`` series.

    ``points`` are ``(x, y)`` pairs; y values are fractions, labelled as percentages when
    ``y_percent``. Series keep the colour, marker and dash of their index in :data:`SERIES_STYLES`.
    """
    width, height = 460, 300
    left, right, top, bottom = 56, 16, 28, 48
    plot_w, plot_h = width - left - right, height - top - bottom
    (x0, x1), (y0, y1) = x_range, y_range

    def fx(v):
        return left + (v - x0) / ((x1 - x0) or 1) * plot_w

    def fy(v):
        return top + plot_h - (min(max(v, y0), y1) - y0) / ((y1 - y0) or 1) * plot_h

    y_ticks = [y0 + i * (y1 - y0) / 5 for i in range(6)]
    lines = []
    for i, (name, points) in enumerate(series):
        name = visible_text(name)
        style = SERIES_STYLES[i % len(SERIES_STYLES)]
        markers = []
        for px, py in points:
            if py is None or (isinstance(py, float) and math.isnan(py)):
                continue
            shown = f"{100 * py:.1f}%" if y_percent else f"{py:.3f}"
            markers.append({"x": round(fx(px), 2), "y": round(fy(py), 2),
                            "title": f"{name}: {x_label} {x_format.format(px)} \u2192 {y_label} {shown}"})
        lines.append({"name": name, "polylines": _polylines(points, fx, fy), "markers": markers, **style})
    legend_rows = []
    for i, line in enumerate(lines):
        legend_rows.append({**line, "lx": left + (i % 3) * (plot_w / 3), "ly": height + 18 * (i // 3) + 4})
    return {
        "title": title, "x_label": x_label, "y_label": y_label,
        "width": width, "height": height + 18 * math.ceil(len(lines) / 3) + 6,
        "left": left, "top": top, "plot_w": plot_w, "plot_h": plot_h, "bottom": top + plot_h,
        "x_ticks": [{"x": round(fx(v), 2), "text": x_format.format(v)} for v in x_ticks],
        "y_ticks": [{"y": round(fy(v), 2), "text": f"{100 * v:.0f}%" if y_percent else f"{v:g}"} for v in y_ticks],
        "lines": lines, "legend": legend_rows,
    }
