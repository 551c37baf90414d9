"""The report's value formats and the table rows repeated on every page, written in Python.

The page layout stays in the jinja2 templates (``tvseg/templates``); the rows that a page repeats
hundreds of times (the cells of the score tables, the segment and match tables, the shows of the
corpus page) are written here with plain string formatting, which is several times faster than a
template macro per cell. Every untrusted text goes through :func:`visible` (escaped by
:func:`markupsafe.escape`, as the templates' autoescaping does, with its control and bidi
characters made visible); numbers are written by the fixed formats below, which need no escaping.
The functions return :class:`markupsafe.Markup`, so the templates insert them as they are.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from tvseg.metrics import NUMBER_KEYS
from tvseg.report import svg
from tvseg.report.model import defined
from tvseg.significance import rounded_up

__all__ = [
    "visible",
    "pct",
    "points",
    "count",
    "pvalue",
    "sortvalue",
    "duration",
    "setting",
    "score_rows",
    "SILENT",
]

NOT_AVAILABLE = '<span title="not available">&ndash;</span>'


# --- value formats (fixed, so the output is deterministic) --------------------------------------


def pct(v) -> str:
    """A fraction as a percentage with one decimal; an en dash when not available."""
    return f"{100 * v:.1f}" if defined(v) else "\u2013"


def points(v) -> str:
    """A difference of fractions in signed percentage points."""
    return f"{100 * v:+.1f}" if defined(v) else "\u2013"


def count(v) -> str:
    """A count: no decimals when whole, one otherwise."""
    if not defined(v):
        return "\u2013"
    return f"{v:.0f}" if float(v).is_integer() else f"{v:.1f}"


def pvalue(p, bound: bool = False) -> str:
    """A p-value with three decimals, ``< 0.001`` below; a bound (the paired bootstrap's floor:
    :func:`tvseg.significance.at_floor`) as ``< `` its value rounded up, never as if exact."""
    if not defined(p):
        return "\u2013"
    if bound:
        return f"< {rounded_up(p)}"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def sortvalue(v) -> str:
    """The value a sortable table sorts a cell by (``data-v``); empty when not a number."""
    return f"{v:.9g}" if defined(v) and not isinstance(v, bool) else ""


def duration(seconds: float) -> str:
    """``h:mm:ss h`` from an hour on, ``mm:ss min`` from a minute on, ``s.s s`` below."""
    if seconds >= 60:
        return f"{svg.mmss(seconds)} {'h' if round(seconds) >= 3600 else 'min'}"
    return f"{seconds:.1f} s"


def setting(value) -> str:
    """A setting's value as the settings table shows it."""
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
        parts.append(escape(text[last : match.start()]))
        parts.append(Markup(f'<span class="cc" title="invisible character">&lt;U+{ord(match.group()):04X}&gt;</span>'))
        last = match.end()
    parts.append(escape(text[last:]))
    return Markup("").join(parts)


# --- rows ---------------------------------------------------------------------------------------


def _text(value) -> str:
    """:func:`visible` as a plain ``str`` (quicker for the printable text of most cells)."""
    if value is None:
        return ""
    text = value if type(value) is str else str(value)
    return svg.escape_text(text) if text.isprintable() else str(visible(text))


def _percent(v) -> str:
    """:func:`pct` of a cell (not available: an en dash with its explanation for None, a plain one for NaN)."""
    if v is None:
        return NOT_AVAILABLE
    return f"{100 * v:.1f}" if v == v else "\u2013"


def _cells(metrics, keys) -> str:
    get = metrics.get
    return "".join([f"<td>{count(v) if key in NUMBER_KEYS else _percent(v)}</td>" for key in keys for v in (get(key),)])


def score_rows(systems, keys) -> Markup:
    """The rows of a show's score table: ``systems`` are ``(name, metrics)`` pairs (a table not sorted:
    its cells carry no ``data-v``)."""
    return Markup(
        "".join([f'<tr><th class="l">{_text(name)}</th>{_cells(metrics, keys)}</tr>\n' for name, metrics in systems])
    )


SILENT = ' <span class="missing-output">no output for this show: scored as empty</span>'
"""The note beside a system's name above its match table on a show it gave no output for."""
