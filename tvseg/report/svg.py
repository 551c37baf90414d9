"""The show timeline of the report's pages, and the text and time helpers of its SVG figures.

The timeline's figure is the same for every show of a report (:func:`frame`, each text escaped by
:func:`escape_text` exactly as the templates escape it); the page's script draws a show's segments
and marks into it from the show's data (:mod:`tvseg.report.show_data`), a JSON block (:func:`script_json`).
Control and bidi characters of untrusted titles are replaced by a visible ``<U+XXXX>`` (:func:`visible_text`).
The times on axes and in tables are written by :func:`mmss` and :func:`clock`, the axis steps
chosen by :func:`nice_step` (also used by the sweep charts, :mod:`tvseg.report.charts`).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from functools import lru_cache

from markupsafe import Markup, escape

__all__ = [
    "clock",
    "mmss",
    "nice_step",
    "frame",
    "timeline_label",
    "clock_format",
    "script_json",
    "direction",
    "middle",
    "mark_shape",
    "escape_text",
    "visible_text",
    "HIDDEN",
]

# Control characters (C0, DEL, C1) and the bidirectional-text controls (embeddings, overrides,
# isolates, marks), which can hide text or reorder how an id or a title reads.
HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 21600)


def mmss(seconds: float) -> str:
    """``mm:ss`` as on an axis, ``h:mm:ss`` from an hour on (``75:00`` is ``1:15:00``), to the second."""
    s = int(round(seconds))
    sign = "-" if s < 0 else ""
    s = abs(s)
    if s >= 3600:
        return f"{sign}{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{sign}{s // 60:02d}:{s % 60:02d}"


@lru_cache(maxsize=4096)
def clock(seconds: float | None) -> str:
    """``mm:ss.s`` for tables, ``h:mm:ss.s`` from an hour on, to the tenth of a second; an en dash for None."""
    if seconds is None:
        return "\u2013"
    tenths = int(round(abs(seconds) * 10))
    sign = "-" if seconds < 0 and tenths else ""
    hours = f"{tenths // 36000}:" if tenths >= 36000 else ""
    return f"{sign}{hours}{tenths % 36000 // 600:02d}:{tenths % 600 // 10:02d}.{tenths % 10}"


def escape_text(text: str) -> str:
    """``text`` escaped for HTML and SVG by :func:`markupsafe.escape`, as a plain ``str``."""
    return str(escape(text))


def visible_text(value) -> str:
    """``value`` as text with each control or bidi character written ``<U+XXXX>`` (None: empty)."""
    text = "" if value is None else str(value)
    if text.isprintable() or HIDDEN.search(text) is None:  # every hidden character is unprintable
        return text
    return HIDDEN.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def _scalar(value):
    """A numpy scalar (a boolean, an integer) as the Python value JSON writes."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON")


def script_json(value) -> str:
    """``value`` as JSON text that can stand inside ``<script type="application/json">``.

    ``<``, ``>`` and ``&`` are written as ``\\u003c``, ``\\u003e``, ``\\u0026`` (equal for
    ``JSON.parse``), so no text, however hostile, can close the script element; control and bidi
    characters (:data:`HIDDEN`) as ``\\uXXXX`` too, so that none stands raw in the page. Numpy scalars
    are written as their Python values.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_scalar)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return HIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


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
OVERVIEW = 14  # height of the overview lane


@lru_cache(maxsize=1)
def no_label() -> str:
    """The readers' text for a segment without a label (``<NA>``), imported once."""
    from tvseg.readers import NO_LABEL

    return NO_LABEL


def mark_shape(cls: str, x, y) -> Markup:
    """The SVG shape of a boundary mark at ``(x, y)``: a filled triangle (``matched``), a cross
    (``false``) or a hollow circle (``missed``)."""
    if cls == "matched":
        return Markup(f'<path class="mark-matched" d="M{x - 6},{y} L{x + 6},{y} L{x},{y + 9} Z"/>')
    if cls == "false":
        return Markup(f'<path class="mark-false" d="M{x - 5},{y} L{x + 5},{y + 10} M{x + 5},{y} L{x - 5},{y + 10}"/>')
    return Markup(f'<circle class="mark-missed" cx="{x}" cy="{y + 5}" r="5"/>')


# characters of a lane's name shown beside it (~140 px in the 13 px bold font; the full name in its tooltip)
LANE_NAME = 19
NAME_CHAR = 8.6  # approximate width of a character of the 13 px bold lane-name font


@lru_cache(maxsize=65536)
def direction(text: str) -> str | None:
    """``"rtl"`` when the first strong character of ``text`` is right-to-left (Hebrew, Arabic...),
    ``"ltr"`` when it is left-to-right, None when it has none (as HTML's ``dir="auto"`` decides)."""
    for c in text:
        kind = unicodedata.bidirectional(c)
        if kind == "L":
            return "ltr"
        if kind in ("R", "AL"):
            return "rtl"
    return None


def middle(text: str, room: int = LANE_NAME) -> str:
    """``text`` cut in the middle to ``room`` characters (``first…last``), so that names that
    share a long beginning still read apart."""
    if len(text) <= room:
        return text
    head = (room - 1) // 2
    return text[:head] + "\u2026" + text[len(text) - (room - 1 - head) :]


def timeline_label(show) -> str:
    """The accessible name of a show's timeline (escaped): its show id, its systems and its extent."""
    return escape_text(
        f"Timeline of show {visible_text(show.show_id)}: reference and {len(show.systems)} system(s), "
        f"{mmss(show.start)} to {mmss(show.end)}"
    )


def clock_format(show) -> str:
    """The format of the timeline's ticks (:func:`mmss`): ``h:mm:ss`` appears from an hour on."""
    return "mm:ss; h:mm:ss from 1 h" if show.end >= 3600 else "mm:ss"


def _lane_frame(j: int, name: str, kind: str) -> str:
    """Lane ``j``'s frame: its name, its background, an empty body, and the shapes the page's script
    copies into the body (a segment, and a mark of each kind), placed in the lane."""
    y = TOP + j * (LANE + GAP)
    shown = escape_text(name)
    short = middle(name)
    rtl = ' direction="rtl" text-anchor="start"' if direction(name) == "rtl" else ' text-anchor="end"'
    if len(short) * NAME_CHAR > LEFT - 16:  # a long name is narrowed to the room beside the lane
        rtl += f' textLength="{LEFT - 16}" lengthAdjust="spacingAndGlyphs"'
    shapes = "".join(
        f'<g data-shape="{cls}"><line class="mark-line-{cls}" x1="0" x2="0" y1="{y}" y2="{y + LANE}"/>'
        f"{mark_shape(cls, 0, y - 5)}</g>"
        for cls in ("matched", "false", "missed")
    )
    return (
        f'<g class="lane lane-{kind}" data-source="{shown}">\n'
        f'<text class="lane-name" x="{LEFT - 10}" y="{y + LANE / 2}"{rtl}>{escape_text(short)}'
        f"<title>{shown}</title></text>\n"
        f'<text class="lane-kind" x="{LEFT - 10}" y="{y + LANE / 2 + 14}" text-anchor="end">'
        f"{'reference' if kind == 'reference' else 'system'}</text>\n"
        f'<rect class="lane-bg" x="{LEFT}" y="{y}" width="{WIDTH - RIGHT - LEFT}" height="{LANE}"/>\n'
        f'<defs><g data-shape="segment"><rect class="seg" y="{y + 6}" height="{LANE - 6}"/>'
        f'<text class="seg-label" y="{y + LANE / 2 + 7}"/></g>{shapes}</defs>\n'
        f'<g class="lane-body" clip-path="url(#tvseg-plot)"></g></g>\n'
    )


def frame(system_names, *, tolerance: float | None, label: str, clock: str) -> str:
    """The timeline's figure without its segments, the same for every show of a report: one lane for
    the reference, then one per system (``system_names``), the axis and the overview lane.

    ``label`` (escaped) and ``clock`` are written as they are, as the figure's accessible name and its
    axis's format: a report writes its show pages from this text with a marker in their place
    (:func:`timeline_label`, :func:`clock_format`). The page's script (``timeline.js``) draws the show's
    segments and marks into the lanes from its data (:mod:`tvseg.report.show_data`), each a copy of the shapes
    the lane holds: a segment is ``ok`` (solid), ``bad`` (hatched) or ``ref``, a boundary ``matched``
    (filled triangle), ``false`` (cross: a false alarm) or ``missed`` (hollow circle at the reference
    boundary); then zooms and scrolls the lanes and fits the labels to their boxes. A lane name written
    right to left is drawn in its direction; one longer than :data:`LANE_NAME` characters is cut in the
    middle (:func:`middle`), its full name in its tooltip.
    """
    names = [visible_text(name) for name in system_names]
    lanes = [_lane_frame(0, "reference", "reference")]
    lanes += [_lane_frame(j, name, "system") for j, name in enumerate(names, 1)]
    right = WIDTH - RIGHT
    axis_y = TOP + len(lanes) * (LANE + GAP) - GAP + 6
    over_y = axis_y + AXIS + 4
    height = over_y + OVERVIEW + 6
    within = "" if tolerance is None else f" (within {tolerance:g} s)"
    return (
        f'<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img"'
        f' aria-label="{label}" data-within="{escape_text(within)}">\n<title>{label}</title>\n'
        f'<defs><pattern id="tvseg-hatch" patternUnits="userSpaceOnUse" width="6" height="6"'
        f' patternTransform="rotate(45)"><rect width="6" height="6" fill="#cc5c33"/>'
        f'<line x1="0" y1="0" x2="0" y2="6" stroke="#eea98a" stroke-width="2.5"/></pattern>\n'
        f'<clipPath id="tvseg-plot"><rect x="{LEFT - 8}" y="0" width="{right - LEFT + 16}" height="{axis_y + 24}"/>'
        f"</clipPath></defs>\n"
        f'<g class="ticks" clip-path="url(#tvseg-plot)"></g>\n'
        f'<line class="axis" x1="{LEFT}" x2="{right}" y1="{axis_y}" y2="{axis_y}"/>\n'
        f'<text class="lane-kind" x="{right}" y="{axis_y + 30}" text-anchor="end">time ({clock})</text>\n'
        + "".join(lanes)
        + f'<g class="overview">\n<text class="lane-kind" x="{LEFT - 10}" y="{over_y + OVERVIEW - 3}"'
        f' text-anchor="end">whole show</text>\n'
        f'<rect class="lane-bg" x="{LEFT}" y="{over_y}" width="{right - LEFT}" height="{OVERVIEW}"/>\n'
        f'<defs><rect data-shape="overview" y="{over_y}" height="{OVERVIEW}"/></defs>\n'
        f'<rect class="ov-window" x="{LEFT}" y="{over_y - 2}" width="{right - LEFT}" height="{OVERVIEW + 4}">'
        f"<title>The part of the show the lanes above show; click or drag here to move it</title></rect>\n"
        f"</g>\n</svg>"
    )
