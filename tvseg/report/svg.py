"""Geometry of the report's SVG figures: the show timeline and the sweep line charts.

:func:`line_chart` only computes coordinates and the text of each element (plain dicts), which the
template macro ``chart`` of ``macros.html`` turns into SVG with jinja2's autoescaping. The timeline,
drawn on every show page, writes its segments and marks itself (:func:`timeline`), each text
escaped by :func:`escape_text` exactly as the templates escape it. Control and bidi characters of
untrusted titles are replaced by a visible ``<U+XXXX>`` (:func:`visible_text`).
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from itertools import repeat
from typing import Sequence

from markupsafe import Markup

__all__ = ["clock", "mmss", "nice_step", "timeline", "mark_shape", "escape_text", "line_chart", "visible_text", "HIDDEN", "SERIES_STYLES"]

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


@lru_cache(maxsize=4096)
def clock(seconds: float | None) -> str:
    """``mm:ss.s`` for tables; an en dash for None."""
    if seconds is None:
        return "\u2013"
    tenths = int(round(abs(seconds) * 10))
    sign = "-" if seconds < 0 and tenths else ""
    return f"{sign}{tenths // 600:02d}:{tenths % 600 // 10:02d}.{tenths % 10}"


def escape_text(text: str) -> str:
    """``text`` escaped for HTML and SVG exactly as :func:`markupsafe.escape` does, as a plain ``str``."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if "'" in text:
        text = text.replace("'", "&#39;")
    if '"' in text:
        text = text.replace('"', "&#34;")
    return text


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


@lru_cache(maxsize=1)
def no_label() -> str:
    """The readers' text for a segment without a label (``<NA>``), imported once."""
    from tvseg.readers import NO_LABEL

    return NO_LABEL


def _mark(cls: str, x, y) -> str:
    if cls == "matched":
        return f'<path class="mark-matched" d="M{x - 6},{y} L{x + 6},{y} L{x},{y + 9} Z"/>'
    if cls == "false":
        return f'<path class="mark-false" d="M{x - 5},{y} L{x + 5},{y + 10} M{x + 5},{y} L{x - 5},{y + 10}"/>'
    return f'<circle class="mark-missed" cx="{x}" cy="{y + 5}" r="5"/>'


def mark_shape(cls: str, x, y) -> Markup:
    """The SVG shape of a boundary mark at ``(x, y)``: a filled triangle (``matched``), a cross
    (``false``) or a hollow circle (``missed``)."""
    return Markup(_mark(cls, x, y))


_OUTCOMES = {True: " (correct)", False: " (wrong)", None: ""}
_CLASSES = {True: "ok", False: "bad", None: "unknown"}


def timeline(show, tolerance: float | None = None) -> dict:
    """Layout of a show's timeline: one lane for the reference, then one per system.

    ``show`` is a :class:`tvseg.report.pages.ShowPage`. Segments are drawn to scale between the
    show's start and end; in system lanes a segment is ``ok`` (solid) or ``bad`` (hatched) and
    boundaries are ``matched`` (filled triangle), ``false`` (cross: a false alarm) or ``missed``
    (hollow circle at the reference boundary). Each lane's ``body`` (its segments and marks) and
    ``ticks`` are SVG ready to insert, every text escaped; the rest are coordinates and texts.
    """
    start, end = show.start, show.end
    span = max(end - start, 1e-9)
    plot = WIDTH - LEFT - RIGHT

    positions: dict = {}   # a boundary ends one segment and starts the next: placed once

    def x(t: float) -> float:
        at = positions.get(t)
        if at is None:
            at = positions[t] = round(LEFT + (min(max(t, start), end) - start) / span * plot, 2)
        return at

    lanes = []

    def lane(name: str, kind: str, starts, ends, labels, correct, marks) -> None:
        name = visible_text(name)
        y = TOP + len(lanes) * (LANE + GAP)
        label_y, rect = f'{y + LANE / 2 + 7}">', f'" y="{y + 6}" width="'
        tail = f'" height="{LANE - 6}"/>'
        reference = kind == "reference"
        shown, missing = escape_text(name), no_label()
        parts = []
        for a, b, label, ok in zip(starts, ends, labels, correct):
            x0, x1 = x(a), x(b)
            cls, what = ("ref", "") if reference else (_CLASSES[ok], _OUTCOMES[ok])
            # the title as a reader would write it: none for a missing label (<NA>), RTTM's underscores
            # (it cannot store spaces) as spaces; only the drawing changes, the tables keep the label
            label = "" if label is None or label == missing else visible_text(label).replace("_", " ")
            head = f"{shown}: {escape_text(label)}" if label else shown
            text = _fit(label, x1 - x0)
            text = f'<text class="seg-label" x="{x0 + 4}" y="{label_y}{escape_text(text)}</text>' if text else ""
            parts.append(f'<g><rect class="seg {cls}" x="{x0}{rect}{round(max(x1 - x0, 0.5), 2)}{tail}{text}'
                         f'<title>{head}\n{clock(a)}\u2013{clock(b)}, {b - a:.1f} s{what}</title></g>')
        for mx, cls, title in marks:
            parts.append(f'<g class="mark {cls}"><line class="mark-line-{cls}" x1="{mx}" x2="{mx}" y1="{y}" '
                         f'y2="{y + LANE}"/>{_mark(cls, mx, y - 5)}<title>{escape_text(title)}</title></g>')
        lanes.append({"name": name, "kind": kind, "y": y, "h": LANE, "body": Markup("".join(parts))})

    lane("reference", "reference", show.ref_start, show.ref_end, show.ref_label, repeat(None), [])
    tol = "" if tolerance is None else f" (within {tolerance:g} s)"
    for system in show.systems:
        shown = visible_text(system.name)
        marks = [(x(h), "matched", f"{shown}: boundary at {clock(h)} matches the reference boundary at "
                                   f"{clock(r)}{tol}") for r, h in zip(system.matched_ref, system.matched_hyp)]
        marks += [(x(t), "false", f"{shown}: false boundary at {clock(t)} (no reference boundary{tol})")
                  for t in system.false_alarms]
        marks += [(x(t), "missed", f"{shown}: missed the reference boundary at {clock(t)}") for t in system.missed]
        marks.sort(key=lambda m: (m[0], m[1]))
        lane(system.name, "system", system.seg_start, system.seg_end, system.seg_label, system.seg_correct, marks)

    axis_y = TOP + len(lanes) * (LANE + GAP) - GAP + 6
    step = nice_step(span)
    first = math.ceil(start / step) * step
    ticks = []
    n = 0
    while first + n * step <= end + 1e-9:
        t = first + n * step
        tx = x(t)
        ticks.append(f'<g class="tick"><line x1="{tx}" x2="{tx}" y1="{TOP}" y2="{axis_y}"/>'
                     f'<text x="{tx}" y="{axis_y + 16}" text-anchor="middle">{escape_text(mmss(t))}</text></g>')
        n += 1
    return {"width": WIDTH, "height": axis_y + AXIS, "left": LEFT, "right": WIDTH - RIGHT,
            "axis_y": axis_y, "top": TOP, "ticks": Markup("".join(ticks)), "lanes": lanes,
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
