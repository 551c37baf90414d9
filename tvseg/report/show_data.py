"""What a show page's script draws: the show's segments, boundaries and match tables, as one JSON block.

A show page carries its data once, in ``<script type="application/json" id="show-page-data">``
(:func:`tvseg.report.svg.script_json`), and its script (``templates/timeline.js``) draws from it the
timeline's segments and marks into the figure rendered once per report (:func:`tvseg.report.svg.frame`),
the segment tables and the match tables. Times are seconds, written as Python writes a float (``repr``,
read back exactly); the script formats them as the report's tables do (:func:`tvseg.report.svg.clock`,
one decimal rounded half to even as Python's ``format``). Writing the data instead of the SVG and the
table rows makes a show page about a third of its former size and quicker to write.
"""

from __future__ import annotations

from tvseg.report.svg import direction, no_label, visible_text

__all__ = ["show_data", "NAN"]

NAN = "NaN"
"""A fraction that is not a number (written as a plain en dash), told from one not available (None:
an en dash that says so) in the data."""


def _fractions(values) -> list:
    """Fractions for JSON: None kept, NaN as :data:`NAN`."""
    return [v if v is None or v == v else NAN for v in values]


def show_data(show) -> dict:
    """The data of a show page's script, as plain values for JSON.

    ``show`` is a :class:`tvseg.report.pages.ShowPage`. ``titles`` are the distinct titles of its
    segments, as the readers give them (a segment without one, None or the readers' ``<NA>``, has the
    index -1); ``rtl`` the indices of those written right to left as the timeline draws them (control
    and bidi characters made visible, :func:`tvseg.report.svg.visible_text`, and RTTM's underscores, as
    it cannot store spaces, as spaces; :func:`tvseg.report.svg.direction`). Only the drawing changes a
    title; the tables show it as it is, each control or bidi character as a visible ``<U+XXXX>``.

    ``ref`` holds the reference segments: ``a`` and ``b``, start and end; ``l``, the index of the title.
    Each of ``systems``, in the order of the lanes, holds:

    - its segments: ``a``, ``b``, ``l``, and ``ok`` (correct, wrong or null: unknown);
    - its boundaries: ``mr`` and ``mh``, the reference and hypothesis times of the matched pairs;
      ``fa``, the false alarms; ``mi``, the missed reference boundaries;
    - its match table, a row per reference segment (:class:`tvseg.report.model.MatchRow`): ``rc``
      (correct), ``hs``/``he``/``hl`` (the best hypothesis segment; null times when none overlaps),
      ``to``, ``fr`` and ``cov`` (the coverages R->H, H->R and their harmonic mean; null: not
      available, :data:`NAN`: not a number), ``story`` (the reference story's error, or null) and,
      when ``f1`` (some title F1 on the page), ``tf1``; and ``rs``/``re``/``rl``, the rows' reference
      segments, only where they are not the page's reference segments.
    """
    missing = no_label()
    index: dict = {}
    titles: list[str] = []
    rtl: list[int] = []

    def coded(values) -> list[int]:
        out = []
        for title in values:
            got = index.get(title)
            if got is None:
                got = -1
                if title is not None and title != missing:
                    got = len(titles)
                    text = str(title)
                    titles.append(text)
                    if direction(visible_text(text).replace("_", " ")) == "rtl":
                        rtl.append(got)
                index[title] = got
            out.append(got)
        return out

    reference = {"a": show.ref_start, "b": show.ref_end, "l": coded(show.ref_label)}
    f1 = any(v is not None for s in show.systems for v in s.title_f1)
    systems = []
    for s in show.systems:
        n = len(s.ref_start)
        system = {
            "a": s.seg_start,
            "b": s.seg_end,
            "l": coded(s.seg_label),
            "ok": s.seg_correct,
            "mr": s.matched_ref,
            "mh": s.matched_hyp,
            "fa": s.false_alarms,
            "mi": s.missed,
            "rc": s.correct,
            "hs": s.hyp_start,
            "he": s.hyp_end,
            "hl": coded(s.hyp_label),
            "to": _fractions(s.cov_to),
            "fr": _fractions(s.cov_from),
            "cov": _fractions(s.coverage),
            "story": s.story if len(s.story) == n else [None] * n,
        }
        if f1:
            system["tf1"] = _fractions(s.title_f1)
        if s.ref_start != show.ref_start or s.ref_end != show.ref_end or s.ref_label != show.ref_label:
            system.update(rs=s.ref_start, re=s.ref_end, rl=coded(s.ref_label))
        systems.append(system)
    return {"titles": titles, "rtl": rtl, "f1": f1, "ref": reference, "systems": systems}
