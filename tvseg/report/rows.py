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
from tvseg.report.pages import defined

__all__ = [
    "visible",
    "pct",
    "points",
    "count",
    "pvalue",
    "sortvalue",
    "duration",
    "setting",
    "cell",
    "score_rows",
    "segment_rows",
    "match_rows",
    "match_tables",
    "Titles",
    "show_rows",
    "VERDICT",
]

NOT_AVAILABLE = '<span title="not available">&ndash;</span>'
VERDICT = {
    None: "&ndash;",
    True: '<span class="ok">&#10003; correct</span>',
    False: '<span class="bad">&#10007; wrong</span>',
}


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


def pvalue(p) -> str:
    """A p-value with three decimals, ``< 0.001`` below."""
    if not defined(p):
        return "\u2013"
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


def cell(v, key: str) -> str:
    """One score cell: ``<td data-v="...">`` with a count or a percentage (the ``cell`` of the tables)."""
    return f'<td data-v="{sortvalue(v)}">{count(v) if key in NUMBER_KEYS else _percent(v)}</td>'


def _cells(metrics, keys) -> str:
    get = metrics.get
    return "".join([cell(get(key), key) for key in keys])


def score_rows(systems, keys) -> Markup:
    """The rows of a show's score table: ``systems`` are ``(name, metrics)`` pairs."""
    return Markup(
        "".join([f'<tr><th class="l">{_text(name)}</th>{_cells(metrics, keys)}</tr>\n' for name, metrics in systems])
    )


def _length(start: float, end: float) -> str:
    return "%.1f" % (end - start)


NO_TITLE = '<td class="title"><span title="no title">&ndash;</span></td>'


class Titles:
    """The table cells of a page's titles, each written once per page (a title is in several tables).

    A title cell is ``<td class="title" dir="auto">``, so that a title written right to left reads
    and aligns in its own direction; a segment without a title (None, or the readers' ``<NA>``,
    ``no_label``) shows an en dash.
    """

    def __init__(self, no_label: str = "<NA>"):
        self.cells: dict = {None: NO_TITLE, no_label: NO_TITLE}

    def __call__(self, label) -> str:
        cell = self.cells.get(label)
        if cell is None:
            cell = self.cells[label] = f'<td class="title" dir="auto">{_text(label)}</td>'
        return cell


def segment_rows(starts, ends, labels, correct=None, key: str = "", *, titles=None, ids: bool = False) -> Markup:
    """The rows of a segment table (``#``, start, end, duration, [correct,] title).

    With ``key`` (``r`` for the reference, ``s0``, ``s1``... for the systems), row ``i`` carries
    ``data-seg="key-i"``, the key of its segment on the timeline, and with ``ids`` also
    ``id="key-i"``, so that a link ``#r-3`` reaches it. ``titles``: the page's :class:`Titles`.
    """
    clock = svg.clock
    title = titles if titles is not None else Titles(svg.no_label())
    if key:
        tag = f'<tr id="{key}-{{0}}" data-seg="{key}-{{0}}">' if ids else f'<tr data-seg="{key}-{{0}}">'
    else:
        tag = "<tr>"
    verdicts = [""] * len(starts) if correct is None else [f'<td class="l">{VERDICT[c]}</td>' for c in correct]
    return Markup(
        "".join(
            [
                tag.format(i) + f"<td>{i}</td><td>{clock(a)}</td><td>{clock(b)}</td><td>{_length(a, b)}</td>"
                f"{v}{title(t)}</tr>\n"
                for i, (a, b, v, t) in enumerate(zip(starts, ends, verdicts, labels), 1)
            ]
        )
    )


def match_rows(m, title_f1: bool, *, titles=None) -> Markup:
    """The rows of one system's match table; ``m`` is a :class:`tvseg.report.pages.SystemPage`."""
    clock = svg.clock
    title = titles if titles is not None else Titles(svg.no_label())
    n = len(m.ref_start)
    f1 = m.title_f1 if title_f1 else [None] * n
    stories = m.story if len(m.story) == n else [None] * n
    empty = '<td class="title"></td>'
    tail = "</tr>\n"
    rows = []
    for i, (rs, re_, rl, hs, he, hl, to, fr, co, ok, f, story) in enumerate(
        zip(
            m.ref_start,
            m.ref_end,
            m.ref_label,
            m.hyp_start,
            m.hyp_end,
            m.hyp_label,
            m.cov_to,
            m.cov_from,
            m.coverage,
            m.correct,
            f1,
            stories,
        ),
        1,
    ):
        if title_f1:
            tail = f"<td>{_percent(f)}</td></tr>\n"
        partner = f"<td>none</td>{empty}" if hs is None else f"<td>{clock(hs)}&ndash;{clock(he)}</td>{title(hl)}"
        rows.append(
            f"<tr><td>{i}</td><td>{clock(rs)}&ndash;{clock(re_)}</td>{title(rl)}{partner}"
            f"<td>{_percent(to)}</td><td>{_percent(fr)}</td><td>{_percent(co)}</td>"
            f'<td class="l">{VERDICT[ok]}</td><td class="l">{"&ndash;" if story is None else _text(story)}</td>{tail}'
        )
    return Markup("".join(rows))


_MATCH_HEAD = (
    '<thead><tr><th>#</th><th>reference</th><th class="l">reference title</th><th>best hypothesis</th>'
    '<th class="l">hypothesis title</th><th>R&rarr;H</th><th>H&rarr;R</th><th>R&harr;H</th><th class="l">correct</th>'
    '<th class="l">story</th>'
)


_SILENT = ' <span class="missing-output">no output for this show: scored as empty</span>'


def match_tables(systems, title_f1: bool, *, titles=None) -> Markup:
    """The match table of each system of a page (its heading, then the table), as one piece of HTML."""
    head = _MATCH_HEAD + ("<th>title F1</th></tr></thead>\n" if title_f1 else "</tr></thead>\n")
    return Markup(
        "".join(
            [
                f"<h3>{_text(s.name)}{'' if s.has_output else _SILENT}</h3>\n"
                f'<div class="scroll">\n<table class="matches">\n{head}<tbody>\n'
                f"{match_rows(s, title_f1, titles=titles)}</tbody>\n</table>\n</div>\n"
                for s in systems
            ]
        )
    )


def show_rows(show_ids, files, metadata, metadata_keys, metrics, keys) -> Markup:
    """The rows of the corpus page's show table.

    ``metadata[k]`` maps a metadata key to its text for show ``k``; ``metrics`` holds, per system,
    one list per key of ``keys`` with the value of every show.
    """
    rows = []
    for k, (show_id, file) in enumerate(zip(show_ids, files)):
        meta = metadata[k]
        cells = "".join([f'<td class="l">{_text(meta.get(key, ""))}</td>' for key in metadata_keys])
        scores = "".join([cell(columns[j][k], key) for columns in metrics for j, key in enumerate(keys)])
        rows.append(
            f'<tr><td class="l"><a href="shows/{svg.escape_text(file)}.html">{_text(show_id)}</a></td>'
            f"{cells}{scores}</tr>\n"
        )
    return Markup("".join(rows))
