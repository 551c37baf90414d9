"""The show timeline of the report's pages, and the text and time helpers of its SVG figures.

The timeline, drawn on every show page, writes its segments and marks itself (:func:`timeline`),
each text escaped by :func:`escape_text` exactly as the templates escape it. Control and bidi
characters of untrusted titles are replaced by a visible ``<U+XXXX>`` (:func:`visible_text`).
The times on axes and in tables are written by :func:`mmss` and :func:`clock`, the axis steps
chosen by :func:`nice_step` (also used by the sweep charts, :mod:`tvseg.report.charts`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache
from itertools import repeat

from markupsafe import Markup

__all__ = [
    "clock",
    "mmss",
    "nice_step",
    "timeline",
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
OVERVIEW = 14  # height of the overview lane
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


def _verdict_lines(show, n: int) -> list:
    """What each system made of each of the ``n`` reference segments: the lines added to their tooltips."""
    per_system = []
    for system in show.systems:
        name = visible_text(system.name)
        lines = [
            f"\n{name}: {'retrieved' if ok else 'missed'} ("
            + ("no overlapping segment" if hs is None else f"best {clock(hs)}\u2013{clock(he)}")
            + ("" if cov is None or cov != cov else f", R\u2194H {100 * cov:.1f}%")
            + ")"
            for ok, cov, hs, he in zip(system.correct, system.coverage, system.hyp_start, system.hyp_end)
        ]
        per_system.append(lines + [""] * (n - len(lines)))
    if not per_system:
        return [""] * n
    return ["".join(parts) for parts in zip(*per_system)]


def timeline(show, tolerance: float | None = None) -> dict:
    """Layout of a show's timeline: one lane for the reference, then one per system, and an overview.

    ``show`` is a :class:`tvseg.report.pages.ShowPage`. Segments are drawn to scale between the
    show's start and end; in system lanes a segment is ``ok`` (solid) or ``bad`` (hatched) and
    boundaries are ``matched`` (filled triangle), ``false`` (cross: a false alarm) or ``missed``
    (hollow circle at the reference boundary). ``svg`` is the whole figure, every text escaped;
    the other entries are the coordinates and texts the page around it uses.

    Every segment carries its times (``data-a``, ``data-b``), its full label (``data-label``) and
    the key of its table row (``data-seg``: ``r-3``, ``s0-3``), and every mark its time
    (``data-t``), so that the page's script (``timeline.js``) can zoom and scroll the lanes, fit
    the labels to their boxes and link the segments to the tables. The ``overview`` lane shows the
    whole show with the reference segments and, once the script runs, the visible window. A label
    or a lane name written right to left is drawn in its direction (an ellipsis at its end, on the
    left); a lane name longer than :data:`LANE_NAME` characters is cut in the middle.
    """
    start, end = show.start, show.end
    span = max(end - start, 1e-9)
    plot = WIDTH - LEFT - RIGHT
    right = WIDTH - RIGHT

    positions: dict = {}  # a boundary ends one segment and starts the next: placed once

    def x(t: float) -> float:
        at = positions.get(t)
        if at is None:
            at = positions[t] = round(LEFT + (min(max(t, start), end) - start) / span * plot, 2)
        return at

    written: dict = {}

    def texts_of(t: float) -> tuple:
        got = written.get(t)
        if got is None:
            got = written[t] = (repr(t), repr(x(t)))
        return got

    missing = no_label()
    drawn: dict = {}  # label -> (escaped label, its text to fit, direction attributes): once per label

    def text_of(label):
        got = drawn.get(label)
        if got is None:
            # the title as a reader would write it: none for a missing label (<NA>), RTTM's underscores
            # (it cannot store spaces) as spaces; only the drawing changes, the tables keep the label
            plain = "" if label is None or label == missing else visible_text(label).replace("_", " ")
            rtl = ' direction="rtl" text-anchor="end"' if plain and direction(plain) == "rtl" else ""
            got = drawn[label] = (escape_text(plain), plain, rtl)
        return got

    lanes: list[dict] = []
    parts: list[str] = []

    def lane(name: str, kind: str, key: str, starts, ends, labels, correct, marks, notes) -> None:
        name = visible_text(name)
        y = TOP + len(lanes) * (LANE + GAP)
        label_y, rect = f'{y + LANE / 2 + 7}" data-label="', f'" y="{y + 6}" width="'
        tail = f'" height="{LANE - 6}"/>'
        reference = kind == "reference"
        shown = escape_text(name)
        head = f"{shown}: "
        body = []
        n = len(starts)
        x0s = [x(a) for a in starts]
        x1s = [x(b) for b in ends]
        texts = [texts_of(a) for a in starts]  # (repr of the time, its x as text): a boundary is shared
        ends_text = [texts_of(b)[0] for b in ends]
        if reference:
            kinds = [("ref", escape_text(note)) for note in notes] if n else []
        else:
            kinds = [(_CLASSES[ok], _OUTCOMES[ok]) for ok in correct]
        for i, (a, b, x0, x1, (a_text, x0_text), b_text, label, (cls, what)) in enumerate(
            zip(starts, ends, x0s, x1s, texts, ends_text, labels, kinds), 1
        ):
            full, plain, rtl = text_of(label)
            fitted = _fit(plain, x1 - x0) if plain else ""
            body.append(
                f'<g class="seg-g" data-seg="{key}-{i}" data-a="{a_text}" data-b="{b_text}">'
                f'<rect class="seg {cls}" x="{x0_text}{rect}{round(max(x1 - x0, 0.5), 2)}{tail}'
                f'<text class="seg-label" x="{x0 + 4}" y="{label_y}{full}"{rtl}>'
                f"{full if fitted == plain else escape_text(fitted)}</text>"
                f"<title>#{i} {head + full if plain else shown}\n{clock(a)}\u2013{clock(b)}, {b - a:.1f} s"
                f"{what}</title></g>"
            )
        shapes = {  # a mark is drawn at x = 0 and moved into place: its shape depends on its lane only
            cls: f'<line class="mark-line-{cls}" x1="0" x2="0" y1="{y}" y2="{y + LANE}"/>{_mark(cls, 0, y - 5)}<title>'
            for cls in ("matched", "false", "missed")
        }
        for t, cls, title in marks:
            t_text, x_text = texts_of(t)
            body.append(
                f'<g class="mark {cls}" data-t="{t_text}" transform="translate({x_text} 0)">'
                f"{shapes[cls]}{title}</title></g>"
            )
        short = middle(name)
        rtl = ' direction="rtl" text-anchor="start"' if direction(name) == "rtl" else ' text-anchor="end"'
        if len(short) * NAME_CHAR > LEFT - 16:  # a long name is narrowed to the room beside the lane
            rtl += f' textLength="{LEFT - 16}" lengthAdjust="spacingAndGlyphs"'
        parts.append(
            f'<g class="lane lane-{kind}" data-source="{shown}">\n'
            f'<text class="lane-name" x="{LEFT - 10}" y="{y + LANE / 2}"{rtl}>{escape_text(short)}'
            f"<title>{shown}</title></text>\n"
            f'<text class="lane-kind" x="{LEFT - 10}" y="{y + LANE / 2 + 14}" text-anchor="end">'
            f"{'reference' if reference else 'system'}</text>\n"
            f'<rect class="lane-bg" x="{LEFT}" y="{y}" width="{right - LEFT}" height="{LANE}"/>\n'
            f'<g class="lane-body" clip-path="url(#tvseg-plot)">{"".join(body)}</g></g>\n'
        )
        lanes.append({"name": name, "kind": kind, "y": y, "h": LANE})

    lane(
        "reference",
        "reference",
        "r",
        show.ref_start,
        show.ref_end,
        show.ref_label,
        repeat(None),
        [],
        _verdict_lines(show, len(show.ref_start)),
    )
    tol = "" if tolerance is None else f" (within {tolerance:g} s)"
    for k, system in enumerate(show.systems):
        shown = escape_text(visible_text(system.name))  # the marks' titles, written as they are
        marks = [
            (h, "matched", f"{shown}: boundary at {clock(h)} matches the reference boundary at {clock(r)}{tol}")
            for r, h in zip(system.matched_ref, system.matched_hyp)
        ]
        marks += [
            (t, "false", f"{shown}: false boundary at {clock(t)} (no reference boundary{tol})")
            for t in system.false_alarms
        ]
        marks += [(t, "missed", f"{shown}: missed the reference boundary at {clock(t)}") for t in system.missed]
        marks.sort()  # by time, then kind (then title): x grows with the time
        lane(
            system.name,
            "system",
            f"s{k}",
            system.seg_start,
            system.seg_end,
            system.seg_label,
            system.seg_correct,
            marks,
            None,
        )

    axis_y = TOP + len(lanes) * (LANE + GAP) - GAP + 6
    step = nice_step(span)
    first = math.ceil(start / step) * step
    ticks = []
    n = 0
    while first + n * step <= end + 1e-9:
        t = first + n * step
        tx = x(t)
        ticks.append(
            f'<g class="tick"><line x1="{tx}" x2="{tx}" y1="{TOP}" y2="{axis_y}"/>'
            f'<text x="{tx}" y="{axis_y + 16}" text-anchor="middle">{escape_text(mmss(t))}</text></g>'
        )
        n += 1
    over_y = axis_y + AXIS + 4
    overview = "".join(
        f'<rect class="ov-seg ov-{i % 2}" x="{x(a)}" y="{over_y}" width="{round(max(x(b) - x(a), 0.5), 2)}"'
        f' height="{OVERVIEW}"/>'
        for i, (a, b) in enumerate(zip(show.ref_start, show.ref_end))
    )
    height = over_y + OVERVIEW + 6
    label = escape_text(
        f"Timeline of show {visible_text(show.show_id)}: reference and {len(show.systems)} system(s), "
        f"{mmss(start)} to {mmss(end)}"
    )
    clock_format = "mm:ss; h:mm:ss from 1 h" if end >= 3600 else "mm:ss"  # the ticks' format (mmss)
    figure = (
        f'<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img"'
        f' aria-label="{label}">\n<title>{label}</title>\n'
        f'<defs><pattern id="tvseg-hatch" patternUnits="userSpaceOnUse" width="6" height="6"'
        f' patternTransform="rotate(45)"><rect width="6" height="6" fill="#cc5c33"/>'
        f'<line x1="0" y1="0" x2="0" y2="6" stroke="#eea98a" stroke-width="2.5"/></pattern>\n'
        f'<clipPath id="tvseg-plot"><rect x="{LEFT - 8}" y="0" width="{right - LEFT + 16}" height="{axis_y + 24}"/>'
        f"</clipPath></defs>\n"
        f'<g class="ticks" clip-path="url(#tvseg-plot)">{"".join(ticks)}</g>\n'
        f'<line class="axis" x1="{LEFT}" x2="{right}" y1="{axis_y}" y2="{axis_y}"/>\n'
        f'<text class="lane-kind" x="{right}" y="{axis_y + 30}" text-anchor="end">time ({clock_format})</text>\n'
        + "".join(parts)
        + f'<g class="overview">\n<text class="lane-kind" x="{LEFT - 10}" y="{over_y + OVERVIEW - 3}"'
        f' text-anchor="end">whole show</text>\n'
        f'<rect class="lane-bg" x="{LEFT}" y="{over_y}" width="{right - LEFT}" height="{OVERVIEW}"/>\n'
        f"{overview}\n"
        f'<rect class="ov-window" x="{LEFT}" y="{over_y - 2}" width="{right - LEFT}" height="{OVERVIEW + 4}">'
        f"<title>The part of the show the lanes above show; click or drag here to move it</title></rect>\n"
        f"</g>\n</svg>"
    )
    return {
        "svg": Markup(figure),
        "width": WIDTH,
        "height": height,
        "left": LEFT,
        "right": right,
        "axis_y": axis_y,
        "clock": clock_format,
        "top": TOP,
        "lanes": lanes,
        "over_y": over_y,
        "over_h": OVERVIEW,
        "start": repr(float(start)),
        "end": repr(float(end)),
        "span": f"{mmss(start)}\u2013{mmss(end)}",
        "label": label,
    }
